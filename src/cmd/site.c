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

/* a linear search: a site has a few reports, one per change point */
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

/*
 * What the site is made of, built before anything is written: a series'
 * change points (res[i]) and its reports' names (links[i][j], one per
 * change point, NULL when its report could not be made) sit at the same
 * index as the series in set; groups point into kpis.
 */
struct site_work {
	struct history_set set;
	struct history_result *res;
	struct site_kpi *kpis;
	const char ***links;
	struct site_group *groups;
	size_t ngroups, alloc_groups;
	struct reports rp;
};

/* the change points of every series, and the groups the series make */
static void detect_groups(struct site_work *w)
{
	struct history_params hp;
	size_t i, n = w->set.n;

	history_params_init(&hp);
	w->res = xcalloc(n, sizeof(*w->res));
	w->kpis = xcalloc(n, sizeof(*w->kpis));
	w->links = xcalloc(n, sizeof(*w->links));
	for (i = 0; i < n; i++) {
		struct history_series *s = &w->set.items[i];
		struct history_point *pts = history_points(s);
		struct site_group *g;

		history_detect(pts, s->n, &hp, &w->res[i]);
		free(pts);
		w->kpis[i].s = s;
		w->kpis[i].r = &w->res[i];
		w->links[i] = xcalloc(w->res[i].nchanges + 1, sizeof(**w->links));
		w->kpis[i].reports = w->links[i];
		/* the series come sorted by key: a group is a run of them */
		if (!w->ngroups || strcmp(w->groups[w->ngroups - 1].key, s->key)) {
			ALLOC_GROW(w->groups, w->ngroups + 1, w->alloc_groups);
			g = &w->groups[w->ngroups];
			memset(g, 0, sizeof(*g));
			g->key = s->key;
			g->kpis = &w->kpis[i];
			g->page = xasprintf("group-%04zu.html", w->ngroups + 1);
			w->ngroups++;
		}
		w->groups[w->ngroups - 1].nkpis++;
	}
}

/*
 * The reports of the change points' two sides, one per pair of groups:
 * two KPIs that change at the same commit share one report.  A report
 * that cannot be made leaves its link NULL (the page shows no link)
 * rather than failing the whole site.
 */
static void write_reports(struct site_work *w, struct store *st,
			  const char *out_dir, const char *repo)
{
	struct reports *rp = &w->rp;
	size_t i, j;

	for (i = 0; i < w->set.n; i++) {
		const struct history_series *s = &w->set.items[i];

		for (j = 0; j < w->res[i].nchanges; j++) {
			const struct history_commit *h = &s->commits[w->res[i].changes[j].index];
			const struct history_commit *b = h - 1;
			struct report_page *p = report_find(rp, b->group_id, h->group_id);

			if (!p) {
				ALLOC_GROW(rp->items, rp->n + 1, rp->alloc);
				p = &rp->items[rp->n++];
				p->base = b->group_id;
				p->head = h->group_id;
				p->name = xasprintf("report-%" PRId64 "-%" PRId64 ".html",
						    b->group_id, h->group_id);
				if (make_report(st, out_dir, repo, s, b, h, p->name))
					FREE_AND_NULL(p->name);
			}
			w->links[i][j] = p->name;
		}
	}
}

/* the group pages, then the index (path: the index's, for the summary) */
static int write_site(struct site_work *w, const char *title,
		      const char *out_dir, struct strbuf *path)
{
	struct strbuf page = STRBUF_INIT;
	struct site site;
	size_t i;
	int ret = -1;

	site.title = title;
	site.groups = w->groups;
	site.ngroups = w->ngroups;
	for (i = 0; i < w->ngroups; i++) {
		strbuf_reset(&page);
		site_render_group(&site, &w->groups[i], &page);
		path_join(path, out_dir, w->groups[i].page);
		if (write_page(path->buf, &page))
			goto out;
	}
	strbuf_reset(&page);
	site_render_index(&site, &page);
	path_join(path, out_dir, "index.html");
	if (write_page(path->buf, &page))
		goto out;
	ret = 0;
out:
	strbuf_release(&page);
	return ret;
}

static void site_work_release(struct site_work *w)
{
	size_t i;

	for (i = 0; i < w->set.n && w->res; i++) {
		history_result_release(&w->res[i]);
		free(w->links[i]);
	}
	for (i = 0; i < w->ngroups; i++)
		free((char *)w->groups[i].page);
	for (i = 0; i < w->rp.n; i++)
		free(w->rp.items[i].name);
	free(w->rp.items);
	free(w->groups);
	free(w->links);
	free(w->kpis);
	free(w->res);
	history_set_release(&w->set);
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
	struct site_work w = { 0 };
	struct store st;
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT;
	const char *out_dir = NULL;
	int c, ret = EXIT_RUNTIME;

	while ((c = cmd_getopt(argc, argv, "o:h", longopts)) != -1) {
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
	history_set_init(&w.set);
	if (result_store_open(&st, opts->result_root, opts->store_url, 0, &err)) {
		/* "error:" as every reading command says it (a full disk, L9) */
		error("%s", err.buf);
		site_work_release(&w);
		strbuf_release(&err);
		return EXIT_RUNTIME;
	}
	if (history_load_store(&st, &q, &w.set, &err)) {
		store_close(&st);
		die_status(EXIT_USAGE, "%s", err.buf);
	}
	if (!w.set.n) {
		store_close(&st);
		die_status(EXIT_USAGE, "no KPI values in the groups selected "
			   "(a KPI is a stat the job's kpi: declares, else one "
			   "named <testcase>.* or mytest.*, not time.*)");
	}
	detect_groups(&w);

	if (mkdir_p(out_dir, 0777)) {
		error_errno("cannot create '%s'", out_dir);
		goto out;
	}
	write_reports(&w, &st, out_dir, q.repo);
	if (write_site(&w, st.root, out_dir, &path))
		goto out;
	printf("%s: %zu groups, %zu KPIs, %zu reports\n", path.buf, w.ngroups,
	       w.set.n, w.rp.n);
	ret = EXIT_OK;
out:
	store_close(&st);
	site_work_release(&w);
	strbuf_release(&err);
	strbuf_release(&path);
	return ret;
}
