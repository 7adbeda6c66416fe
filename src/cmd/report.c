/*
 * report.c: `perfsift report BASE HEAD` writes the 0-day style e-mail
 * text (stdout, or DIR/report.txt with job.yaml and repro.tar.gz beside it
 * with -o DIR) and, with --html FILE, the same report as one HTML page.
 * Everything is built in memory first, so a bad BASE or HEAD writes
 * nothing.  Exit status 1 when a KPI regressed, as compare.
 */
#include "util/compat.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "builtin.h"
#include "job/job.h"
#include "report/build.h"
#include "report/bundle.h"
#include "select/select.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/xalloc.h"

static const char report_usage[] =
	"usage: perfsift report BASE HEAD [--repo DIR] [-o DIR] [--html FILE]\n"
	"                       [--good SEL]... [--bad SEL]... [--interleaved]\n"
	"\n"
	"  BASE, HEAD    result groups as for compare (a directory, a commit id\n"
	"                or prefix or tag, key=value selectors)\n"
	"  --repo DIR    git repository: the commit's full id and subject\n"
	"  -o DIR        write DIR/report.txt, DIR/job.yaml (the head's job;\n"
	"                DIR/base-job.yaml too when the base's differs) and\n"
	"                DIR/repro.tar.gz (the jobs, both sides' environment and\n"
	"                raw samples) instead of printing the text\n"
	"  --html FILE   also write the report as one self-contained HTML page\n"
	"  --good SEL, --bad SEL\n"
	"                more groups whose runs were judged good (as BASE) or\n"
	"                bad (as HEAD), e.g. a bisect's: \"what explains it\" is\n"
	"                the stats that separate all good runs from all bad ones\n"
	"  --interleaved the runs of the sides were made in turn (ABAB), so the\n"
	"                separation of BASE's runs from HEAD's decides alone\n"
	"\n"
	"exit status: 0, or 1 when a KPI (the benchmark's own stat) regressed\n";

/* one file of the -o directory, atomically: a reader never sees half */
static int write_out(const char *dir, const char *name, const struct strbuf *sb)
{
	struct strbuf path = STRBUF_INIT;
	int ret = 0;

	path_join(&path, dir, name);
	if (write_file_atomic(path.buf, sb->buf, sb->len))
		ret = error_errno("cannot write '%s'", path.buf);
	strbuf_release(&path);
	return ret;
}

/*
 * -o DIR: what a 0-day report sends besides its text, so the reader can
 * reproduce it: the head's job.yaml as a job to run again, and a bundle
 * (repro.tar.gz) with both sides' runs and their environments.  Without
 * a head job.yaml there is nothing to re-run, so only the job is left
 * out, with a warning, and the rest is still written.
 */
static int write_dir(const char *dir, struct report_data *d,
		     const struct result_group *base,
		     const struct result_group *head, const struct strbuf *text)
{
	struct strbuf env = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf path = STRBUF_INIT;
	const struct strbuf *job = &d->head_job_yaml;
	const char *base_job = d->r.repro.base_job_file;
	struct report_side sides[2] = {
		{ "base", base->dir },
		{ "head", head->dir },
	};
	int ret = -1;

	strbuf_addstr(&env, "# the environment of both sides, from their job.yaml\n");
	report_env_yaml(&env, "base", d->base_job);
	report_env_yaml(&env, "head", d->head_job);
	if (mkdir_p(dir, 0777)) {
		error_errno("cannot create '%s'", dir);
		goto out;
	}
	if (write_out(dir, "report.txt", text))
		goto out;
	if (d->head_job) {
		/* the job files "To reproduce" names, really beside it */
		if (write_out(dir, d->r.job_file, job) ||
		    (base_job && write_out(dir, base_job, &d->base_job_yaml)))
			goto out;
	} else {
		warning("'%s': no job.yaml in the head runs; none written",
			head->spec);
	}
	path_join(&path, dir, "repro.tar.gz");
	if (report_bundle_write(path.buf, sides, 2,
				d->head_job ? job->buf : NULL,
				base_job ? d->base_job_yaml.buf : NULL, env.buf,
				&err)) {
		error("%s", err.buf);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&env);
	strbuf_release(&err);
	strbuf_release(&path);
	return ret;
}

int cmd_report(int argc, char **argv, struct options *opts)
{
	static const struct option longopts[] = {
		{"repo", required_argument, NULL, 'r'},
		{"output", required_argument, NULL, 'o'},
		{"html", required_argument, NULL, 'H'},
		{"good", required_argument, NULL, 'g'},
		{"bad", required_argument, NULL, 'b'},
		{"interleaved", no_argument, NULL, 'i'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *repo = NULL, *out_dir = NULL, *html = NULL;
	struct select_ctx ctx = { opts->result_root, opts->store_url };
	/* BASE and HEAD, selected with one look at the index */
	struct result_group sides[2];
	struct result_group *const base = &sides[0], *const head = &sides[1];
	struct report_data d;
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT, page = STRBUF_INIT;
	/* --good / --bad: the selectors, then their groups and matrices */
	const char **sel[2] = { NULL, NULL };
	size_t nsel[2] = { 0, 0 }, alloc_sel[2] = { 0, 0 }, side, k;
	struct result_group *more[2] = { NULL, NULL };
	const struct matrix **pm[2] = { NULL, NULL };
	struct report_pool pool;
	bool interleaved = false;
	int c, ret = EXIT_RUNTIME;

	while ((c = cmd_getopt(argc, argv, "ho:", longopts)) != -1) {
		switch (c) {
		case 'r':
			repo = optarg;
			break;
		case 'o':
			out_dir = optarg;
			break;
		case 'H':
			html = optarg;
			break;
		case 'g':
		case 'b':
			side = c == 'b';
			ALLOC_GROW(sel[side], nsel[side] + 1, alloc_sel[side]);
			sel[side][nsel[side]++] = optarg;
			break;
		case 'i':
			interleaved = true;
			break;
		case 'h':
			free(sel[0]);
			free(sel[1]);
			return cmd_usage(report_usage, false);
		default:
			free(sel[0]);
			free(sel[1]);
			return cmd_usage(report_usage, true);
		}
	}
	if (argc - optind != 2) {
		error("expected BASE HEAD");
		free(sel[0]);
		free(sel[1]);
		return cmd_usage(report_usage, true);
	}
	/* checked before any work: it is the user's typo, not a runtime error */
	if (repo && !dir_exists(repo)) {
		error("--repo '%s': not a directory", repo);
		return EXIT_USAGE;
	}
	memset(&d, 0, sizeof(d));
	c = select_groups(&ctx, (const char *const *)&argv[optind], 2, sides,
			  &err);
	if (c) {
		error("%s", err.buf);
		/* no index to read (a full disk) is no bad usage */
		ret = c == SELECT_NO_STORE ? EXIT_RUNTIME : EXIT_USAGE;
		goto out;
	}
	/* the pool: BASE and the --good groups against HEAD and the --bad */
	for (side = 0; side < 2; side++) {
		more[side] = xcalloc(nsel[side] + 1, sizeof(*more[side]));
		pm[side] = xcalloc(nsel[side] + 1, sizeof(*pm[side]));
		pm[side][0] = side ? &head->matrix : &base->matrix;
		for (k = 0; k < nsel[side]; k++) {
			result_group_init(&more[side][k]);
			if (select_group(&ctx, sel[side][k], &more[side][k], &err)) {
				error("--%s %s", side ? "bad" : "good", err.buf);
				ret = EXIT_USAGE;
				goto out;
			}
			pm[side][k + 1] = &more[side][k].matrix;
		}
	}
	pool.good = pm[0];
	pool.ngood = nsel[0] + 1;
	pool.bad = pm[1];
	pool.nbad = nsel[1] + 1;
	if (report_build_pooled(&d, base, head,
				interleaved || nsel[0] || nsel[1] ? &pool : NULL,
				&err)) {
		error("%s", err.buf);
		ret = EXIT_USAGE;
		goto out;
	}
	/* the commit's subject line is a nicety: without it the report is
	 * still complete, so a git failure only warns */
	if (repo && report_git_commit(&d, repo, &err)) {
		warning("%s: no subject in the report", err.buf);
		strbuf_reset(&err);
	}
	/* both renderings before any output, so a failure writes nothing */
	if (report_text(&d.r, &text, &err) ||
	    (html && report_html(&d.r, &page, &err))) {
		error("%s", err.buf);
		goto out;
	}

	if (out_dir) {
		if (write_dir(out_dir, &d, base, head, &text))
			goto out;
	} else {
		fwrite(text.buf, 1, text.len, stdout);
	}
	if (html && write_file_atomic(html, page.buf, page.len)) {
		error_errno("cannot write '%s'", html);
		goto out;
	}
	ret = d.kpi_regressed ? EXIT_REGRESSION : EXIT_OK;
out:
	report_data_release(&d);
	result_group_release(base);
	result_group_release(head);
	for (side = 0; side < 2; side++) {
		for (k = 0; more[side] && k < nsel[side]; k++)
			result_group_release(&more[side][k]);
		free(more[side]);
		free(pm[side]);
		free(sel[side]);
	}
	strbuf_release(&err);
	strbuf_release(&text);
	strbuf_release(&page);
	return ret;
}
