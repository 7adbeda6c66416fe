/*
 * site.c: `perfsift site -o DIR [SELECTOR...]` -- the static, offline
 * dashboard of every KPI's history (site.h): index.html, a page per group
 * and, for each change point, the report of its two sides (the commit
 * before and the commit of the change, report_build + report_html).
 * Everything is read and detected first; a bad selector or an empty root
 * writes nothing.  Pages are replaced by rename, without an fsync each:
 * the site is derived data, made again by running the command again.
 */
#include "util/compat.h"
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "builtin.h"
#include "history/history.h"
#include "history/load.h"
#include "report/build.h"
#include "result/result.h"
#include "select/select.h"
#include "history/site.h"
#include "store/store.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/xalloc.h"

static const char usage_text[] =
	"usage: perfsift site -o DIR [SELECTOR...] [--repo DIR]\n"
	"\n"
	"A static, offline dashboard of every KPI's history in DIR: index.html\n"
	"(every group and KPI, a sparkline, the latest change; filter and sort),\n"
	"a page per group (a chart per KPI with every run, change points marked,\n"
	"the commit on hover) and the report of the two sides of each change\n"
	"point.  No SELECTOR: the whole result root; else the groups matching\n"
	"every SELECTOR (as history).  The pages make no request.\n"
	"\n"
	"  -o, --output DIR   where the pages go (created)\n"
	"      --repo DIR     order commits by DIR's first-parent history\n"
	"  -h, --help         this text\n";

enum { OPT_REPO = 256 };

/* write path as a whole: a temporary file, then rename */
static int write_page(const char *path, const struct strbuf *sb)
{
	struct strbuf tmp = STRBUF_INIT;
	FILE *fp;
	int ret = -1;

	strbuf_addf(&tmp, "%s.tmp.%ld", path, (long)getpid());
	fp = fopen(tmp.buf, "w");
	if (!fp)
		goto out;
	if (fwrite(sb->buf, 1, sb->len, fp) != sb->len) {
		fclose(fp);
		goto fail;
	}
	if (fclose(fp) || rename(tmp.buf, path))
		goto fail;
	ret = 0;
	goto out;
fail:
	unlink(tmp.buf);
out:
	if (ret)
		error_errno("cannot write '%s'", path);
	strbuf_release(&tmp);
	return ret;
}

/* one report page per pair of sides, shared by the KPIs that changed there */
struct report_page {
	int64_t base, head;
	char *name;  /* NULL when it could not be made */
};

struct reports {
	struct report_page *items;
	size_t n, alloc;
};

static struct report_page *report_find(struct reports *rp, int64_t base,
				       int64_t head)
{
	size_t i;

	for (i = 0; i < rp->n; i++)
		if (rp->items[i].base == base && rp->items[i].head == head)
			return &rp->items[i];
	return NULL;
}

/*
 * The result group of a commit of a series, from the index.  The group
 * is named by its id, as the series has it (a DIR selector would scan
 * every group of the root for each side).
 */
static int load_side(struct store *st, const struct history_series *s,
		     const struct history_commit *c, struct result_group *g,
		     struct strbuf *err)
{
	struct store_group sg;
	int ret;

	memset(&sg, 0, sizeof(sg));
	sg.id = c->group_id;
	sg.dir = store_abs_dir(st, c->dir);
	sg.axes[STORE_TESTCASE] = (char *)s->testcase;
	sg.axes[STORE_COMMIT] = (char *)c->commit;
	g->spec = xstrdup(c->dir);
	ret = select_group_store(st, &sg, g, err);
	free(sg.dir);
	return ret;
}

/* the report of base vs head as DIR/name; 0 or -1 (a warning said why) */
static int make_report(struct store *st, const char *dir, const char *repo,
		       const struct history_series *s,
		       const struct history_commit *base,
		       const struct history_commit *head, const char *name)
{
	struct result_group b, h;
	struct report_data d;
	struct strbuf err = STRBUF_INIT, page = STRBUF_INIT, path = STRBUF_INIT;
	int ret = -1;

	memset(&d, 0, sizeof(d));
	result_group_init(&b);
	result_group_init(&h);
	if (load_side(st, s, base, &b, &err) || load_side(st, s, head, &h, &err) ||
	    report_build(&d, &b, &h, &err))
		goto out;
	if (repo && report_git_commit(&d, repo, &err))
		strbuf_reset(&err); /* no subject: the report stands without */
	if (report_html(&d.r, &page, &err))
		goto out;
	path_join(&path, dir, name);
	ret = write_page(path.buf, &page);
out:
	if (ret && err.len)
		warning("no report for %s -> %s: %s", base->commit, head->commit,
			err.buf);
	report_data_release(&d);
	result_group_release(&b);
	result_group_release(&h);
	strbuf_release(&err);
	strbuf_release(&page);
	strbuf_release(&path);
	return ret;
}

int cmd_site(int argc, char **argv, struct options *opts)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "repo", required_argument, NULL, OPT_REPO },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct history_query q = { 0 };
	struct history_params hp;
	struct history_set set;
	struct history_result *res;
	struct site_kpi *kpis;
	struct site_group *groups = NULL;
	const char ***links;
	struct reports rp = { 0 };
	struct site site;
	struct store st;
	struct strbuf err = STRBUF_INIT, page = STRBUF_INIT, path = STRBUF_INIT;
	const char *out_dir = NULL;
	size_t i, j, ngroups = 0, alloc_groups = 0;
	int c, ret = EXIT_RUNTIME;

	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': out_dir = optarg; break;
		case OPT_REPO: q.repo = optarg; break;
		case 'h':
			return cmd_usage(usage_text, false);
		default:
			return cmd_usage(usage_text, true);
		}
	}
	if (!out_dir) {
		error("-o DIR is required");
		return cmd_usage(usage_text, true);
	}
	q.selectors = (const char *const *)argv + optind;
	q.nselectors = (size_t)(argc - optind);

	/* read and detect everything before writing anything */
	history_set_init(&set);
	if (result_store_open(&st, opts->result_root, opts->store_url, 0, &err))
		die("%s", err.buf);
	if (history_load_store(&st, &q, &set, &err)) {
		store_close(&st);
		die_status(EXIT_USAGE, "%s", err.buf);
	}
	if (!set.n) {
		store_close(&st);
		die_status(EXIT_USAGE, "no KPI values in the groups selected "
			   "(a KPI is a stat named <testcase>.*)");
	}
	history_params_init(&hp);
	res = xcalloc(set.n, sizeof(*res));
	kpis = xcalloc(set.n, sizeof(*kpis));
	links = xcalloc(set.n, sizeof(*links));
	for (i = 0; i < set.n; i++) {
		struct history_point *pts = history_points(&set.items[i]);

		history_detect(pts, set.items[i].n, &hp, &res[i]);
		free(pts);
		kpis[i].s = &set.items[i];
		kpis[i].r = &res[i];
		links[i] = xcalloc(res[i].nchanges + 1, sizeof(**links));
		kpis[i].reports = links[i];
		/* the series come sorted by key: a group is a run of them */
		if (!ngroups || strcmp(groups[ngroups - 1].key, set.items[i].key)) {
			ALLOC_GROW(groups, ngroups + 1, alloc_groups);
			memset(&groups[ngroups], 0, sizeof(*groups));
			groups[ngroups].key = set.items[i].key;
			groups[ngroups].kpis = &kpis[i];
			groups[ngroups].page = xasprintf("group-%04zu.html", ngroups + 1);
			ngroups++;
		}
		groups[ngroups - 1].nkpis++;
	}

	if (mkdir_p(out_dir, 0777)) {
		error_errno("cannot create '%s'", out_dir);
		goto out;
	}
	/* the reports of the change points' two sides, one per pair */
	for (i = 0; i < set.n; i++) {
		const struct history_series *s = &set.items[i];

		for (j = 0; j < res[i].nchanges; j++) {
			const struct history_commit *h = &s->commits[res[i].changes[j].index];
			const struct history_commit *b = h - 1;
			struct report_page *p = report_find(&rp, b->group_id, h->group_id);

			if (!p) {
				ALLOC_GROW(rp.items, rp.n + 1, rp.alloc);
				p = &rp.items[rp.n++];
				p->base = b->group_id;
				p->head = h->group_id;
				p->name = xasprintf("report-%" PRId64 "-%" PRId64 ".html",
						    b->group_id, h->group_id);
				if (make_report(&st, out_dir, q.repo, s, b, h, p->name))
					FREE_AND_NULL(p->name);
			}
			links[i][j] = p->name;
		}
	}
	site.title = st.root;
	site.groups = groups;
	site.ngroups = ngroups;
	for (i = 0; i < ngroups; i++) {
		strbuf_reset(&page);
		site_render_group(&site, &groups[i], &page);
		strbuf_reset(&path);
		path_join(&path, out_dir, groups[i].page);
		if (write_page(path.buf, &page))
			goto out;
	}
	strbuf_reset(&page);
	site_render_index(&site, &page);
	strbuf_reset(&path);
	path_join(&path, out_dir, "index.html");
	if (write_page(path.buf, &page))
		goto out;
	printf("%s: %zu groups, %zu KPIs, %zu reports\n", path.buf, ngroups,
	       set.n, rp.n);
	ret = EXIT_OK;
out:
	store_close(&st);
	for (i = 0; i < set.n; i++) {
		history_result_release(&res[i]);
		free(links[i]);
	}
	for (i = 0; i < ngroups; i++)
		free((char *)groups[i].page);
	for (i = 0; i < rp.n; i++)
		free(rp.items[i].name);
	free(rp.items);
	free(groups);
	free(links);
	free(kpis);
	free(res);
	history_set_release(&set);
	strbuf_release(&err);
	strbuf_release(&page);
	strbuf_release(&path);
	return ret;
}
