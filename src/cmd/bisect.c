/*
 * bisect.c: `perfsift bisect` -- find the commit that moved a stat.
 * Checks its arguments, lays out the first-parent path with git, sets up
 * perfsift's own worktrees and hands over to the driver (bisect/driver.c) with
 * the real ops (bisect/exec.c).  The result goes to stdout, progress to
 * stderr.  Started again with the same arguments, it resumes.
 */
#include "util/compat.h"
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bisect/bisect.h"
#include "decide/decide.h"
#include "bisect/exec.h"
#include "bisect/git.h"
#include "builtin.h"
#include "cmd/bisect.h"
#include "job/job.h"
#include "job/kpi.h"
#include "result/matrix.h"
#include "report/report.h"
#include "report/build.h"
#include "select/select.h"
#include "util/fileutil.h"
#include "util/hash.h"
#include "util/short_sha.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/usage.h"
#include "util/xalloc.h"

static const char bisect_usage[] =
	"usage: perfsift bisect --repo DIR --good G --bad B [--build CMD]\n"
	"         [--install CMD] [--kernel PATH] [--stat KEY] [-n RUNS]\n"
	"         [--max-runs N] [--no-confirm] [--no-until-decided]\n"
	"         [--worktree DIR [--keep-worktree]]\n"
	"         [--dry-run] JOB.yaml\n"
	"         [-- CMD ARGS...]\n"
	"\n"
	"Find the first commit on the first-parent path from G to B whose\n"
	"samples of KEY match B's rather than G's.  Each tested commit is\n"
	"checked out in a worktree of perfsift's own (the checkout in DIR is\n"
	"never touched), built with CMD (exit 125: skip the commit, as with\n"
	"git bisect run; any other failure skips it too), installed, and the\n"
	"job is run RUNS times (default " DECIDE_DEFAULT_RUNS_TEXT ") with the worktree as its working\n"
	"directory; every sample goes into the result root under its commit.\n"
	"A commit is judged as `perfsift compare --kpi` judges KEY against G\n"
	"and against B (changed, the same, or undecided; the same means within\n"
	"half the G-B step); while that is undecided it gets one more run, up\n"
	"to --max-runs (default " STRINGIFY(BISECT_DEFAULT_MAX_RUNS)
	", at least RUNS; 3 x RUNS with\n"
	"--no-until-decided), and a commit still undecided then\n"
	"is reported as undecided and skipped, never called good or bad.\n"
	"Without --stat, the stat that changed most between G\n"
	"and B is used.  The culprit is confirmed by re-running its parent\n"
	"and itself interleaved (ABAB).  Interrupted (SIGINT), it stops after\n"
	"the run in progress; started again with the same arguments it goes\n"
	"on from what the result root holds, running no commit twice.\n"
	"\n"
	"  --repo DIR        the git repository (any directory inside it)\n"
	"  --good G          a commit that shows the old behaviour\n"
	"  --bad B           a later commit that shows the new behaviour\n"
	"  --build CMD       sh command run in the worktree for each commit\n"
	"  --install CMD     sh command run after the build (e.g. install a\n"
	"                    kernel and kexec into it; docs/kernel-bisect.md)\n"
	"  --kernel PATH     the kernel the build makes, relative to the\n"
	"                    worktree (e.g. arch/x86/boot/bzImage): each run\n"
	"                    boots it in a VM (`perfsift run --kernel`); all\n"
	"                    commits build in one worktree, incrementally, and\n"
	"                    a commit that makes no PATH is skipped\n"
	"  --stat KEY        the stat to bisect on (default: chosen)\n"
	"  -n, --runs RUNS   runs per commit (default " DECIDE_DEFAULT_RUNS_TEXT ")\n"
	"  --max-runs N      runs at most for an unclear commit\n"
	"  --no-confirm      leave out the parent-vs-culprit confirmation\n"
	"  --no-until-decided  judge by LKP's median-and-range classifier,\n"
	"                    RUNS more runs at a time while unclear (the\n"
	"                    confirmation too), as before\n"
	"  --worktree DIR    where perfsift's worktrees go (default: a\n"
	"                    directory under $TMPDIR named after the bisect)\n"
	"  --keep-worktree   leave the worktrees (and --kernel's images) when\n"
	"                    done: a kernel tree stays built for the next one\n"
	"  --dry-run         print the first-parent path and stop\n"
	"\n"
	"exit status: 0 culprit found and confirmed; 1 no single confirmed\n"
	"culprit (not reproducible, the confirmation undecided, or skipped or\n"
	"undecided commits leave a range); 2 bad\n"
	"usage, or good and bad do not differ; 3 runtime error; 130\n"
	"interrupted (run the same command again to resume)\n";

/*
 * FNV-1a of each string in turn: a stable short name for this bisect's
 * worktrees.  The ^ 0xff after each string stands for a separator, so
 * that ("ab", "c") and ("a", "bc") do not name the same directory.
 */
static uint64_t fnv1a(uint64_t h, const char *s)
{
	return fnv1a64(h, s, strlen(s)) ^ 0xff;
}

static char *absolute(const char *path)
{
	char *r = realpath(path, NULL);

	return r ? r : NULL;
}

/*
 * Absolute, because the runs are started from each commit's worktree:
 * a relative result root would land inside it.
 */
int bisect_open_root(const struct options *opts, char **root)
{
	if (mkdir_p(opts->result_root, 0777) < 0 ||
	    !(*root = realpath(opts->result_root, NULL))) {
		error_errno("cannot create result root '%s'", opts->result_root);
		return -1;
	}
	return 0;
}

int bisect_exec_start(struct bisect_exec *x, const struct bisect_args *a,
		      const char *top, const char *job, const char *root,
		      const struct options *opts, const char *wt_base)
{
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	x->repo = top;
	x->job = job;
	x->cmd = a->cmd;
	x->build = a->build;
	x->install = a->install;
	x->kernel = a->kernel;
	x->keep_worktrees = a->keep_worktree;
	x->result_root = root;
	x->store_url = opts->store_url;
	if (bisect_exec_init(x, wt_base, &err) < 0)
		ret = error("%s", err.buf);
	strbuf_release(&err);
	return ret;
}

/*
 * an option value in [1, hi], or a usage error naming it: a bound, so
 * that a typo such as -n 30000 is refused before hours of runs
 */
static int parse_count(const char *name, const char *arg, long long hi,
		       size_t *out)
{
	const char *why;
	long long v;

	if (strnum_ll(arg, 1, hi, &v, &why) < 0) {
		error("%s '%s': %s", name, arg, why);
		return -1;
	}
	*out = (size_t)v;
	return 0;
}

/*
 * One option of bisect or bisect-step (c as getopt_long gave it) into a:
 * 0 to go on, -1 to stop with *status (--help: 0; a bad value or an
 * unknown option: the command's usage error status, already in *status).
 */
static int bisect_option(struct bisect_args *a, int c, const char *arg,
			 bool *have_good, bool *have_bad, int *status)
{
	const char *why;

	switch (c) {
	case 's':
		a->stat = arg;
		break;
	case 'n':
		if (parse_count("-n", arg, 1000, &a->runs) < 0)
			return -1;
		break;
	case 'M':
		if (parse_count("--max-runs", arg, 10000,
				&a->max_runs) < 0)
			return -1;
		break;
	case 'r':
		a->repo = arg;
		break;
	case 'g':
		a->good = arg;
		break;
	case 'b':
		a->bad = arg;
		break;
	case 'B':
		a->build = arg;
		break;
	case 'I':
		a->install = arg;
		break;
	case 'C':
		a->no_confirm = true;
		break;
	case 'U':
		a->no_until_decided = true;
		break;
	case 'w':
		a->worktree = arg;
		break;
	case 'k':
		if (!*arg) {
			error("--kernel needs the image's path in the worktree");
			return -1;
		}
		a->kernel = arg;
		break;
	case 'K':
		a->keep_worktree = true;
		break;
	case 'D':
		a->dry_run = true;
		break;
	case 'G':
	case 'V':
		if (strnum_double(arg,
				  c == 'G' ? &a->good_value : &a->bad_value,
				  &why) < 0) {
			error("--%s-value '%s': %s",
			      c == 'G' ? "good" : "bad", arg, why);
			return -1;
		}
		*(c == 'G' ? have_good : have_bad) = true;
		break;
	case 'h':
		*status = cmd_usage(a->usage, false);
		return -1;
	default:
		cmd_usage(a->usage, true);
		return -1;
	}
	return 0;
}

/*
 * What the options must say together, and the operands: one job file,
 * then `-- CMD ARGS` or nothing.  0, or -1 after the error message.
 */
static int bisect_check_args(struct bisect_args *a, int argc, char **argv,
			     int dashdash, bool have_good, bool have_bad)
{
	if (a->step ? !a->stat || !have_good || !have_bad :
		      !a->repo || !a->good || !a->bad) {
		error(a->step ? "--stat, --good-value and --bad-value are required" :
				"--repo, --good and --bad are required");
		cmd_usage(a->usage, true);
		return -1;
	}
	if (optind != dashdash - 1) {
		error(optind >= dashdash ?
			      "no job file given" :
			      "one job file only; the command goes after '--'");
		cmd_usage(a->usage, true);
		return -1;
	}
	a->job = argv[optind];
	if (dashdash == argc - 1) {
		error("'--' must be followed by a command");
		return -1;
	}
	a->cmd = dashdash < argc ? (const char *const *)argv + dashdash + 1 :
				   NULL;
	/*
	 * Until decided: bisect's budget (bisect/bisect.h, at least RUNS);
	 * LKP's classifier keeps its 3 x RUNS.
	 */
	if (!a->max_runs && !a->no_until_decided)
		a->max_runs = a->runs > BISECT_DEFAULT_MAX_RUNS ?
			a->runs : BISECT_DEFAULT_MAX_RUNS;
	if (!a->max_runs)
		a->max_runs = 3 * a->runs;
	if (a->max_runs < a->runs) {
		error("--max-runs %zu is below -n %zu", a->max_runs, a->runs);
		return -1;
	}
	if (a->step && a->good_value == a->bad_value) {
		error("the good and bad values are both %g: nothing to tell "
		      "apart",
		      a->good_value);
		return -1;
	}
	return 0;
}

int bisect_parse_args(struct bisect_args *a, int argc, char **argv,
		      int *status)
{
	/* the options of both commands; each refuses the other's */
	static const struct option longopts[] = {
		{"stat", required_argument, NULL, 's'},
		{"runs", required_argument, NULL, 'n'},
		{"max-runs", required_argument, NULL, 'M'},
		{"help", no_argument, NULL, 'h'},
		{"repo", required_argument, NULL, 'r'},
		{"good", required_argument, NULL, 'g'},
		{"bad", required_argument, NULL, 'b'},
		{"build", required_argument, NULL, 'B'},
		{"install", required_argument, NULL, 'I'},
		{"no-confirm", no_argument, NULL, 'C'},
		{"no-until-decided", no_argument, NULL, 'U'},
		{"worktree", required_argument, NULL, 'w'},
		{"kernel", required_argument, NULL, 'k'},
		{"keep-worktree", no_argument, NULL, 'K'},
		{"dry-run", no_argument, NULL, 'D'},
		{"good-value", required_argument, NULL, 'G'},
		{"bad-value", required_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	/* one table for both commands keeps their shared options spelled
	 * alike; each refuses the letters that are the other's only */
	static const char bisect_only[] = "rgbBICUwDkK", step_only[] = "GV";
	bool have_good = false, have_bad = false;
	int c, dashdash = argc, i, bad_usage = a->step ? 255 : EXIT_USAGE;

	*status = bad_usage;
	a->runs = a->step ? 1 : DECIDE_DEFAULT_RUNS;
	a->max_runs = 0;
	/* what follows `--` is the benchmark command, never our options */
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			dashdash = i;
			break;
		}
	while ((c = cmd_getopt(dashdash, argv, "n:h", longopts)) != -1) {
		if (c && strchr(a->step ? bisect_only : step_only, c)) {
			const struct option *o = longopts;

			while (o->val != c)
				o++;
			error("--%s is not an option of this command", o->name);
			c = '?';
		}
		if (bisect_option(a, c, optarg, &have_good, &have_bad,
				  status) < 0)
			return -1;
	}
	if (bisect_check_args(a, argc, argv, dashdash, have_good, have_bad) < 0)
		return -1;
	*status = EXIT_OK;
	return 0;
}

/* one chart's series: every sample of the bisect-good / bisect-bad commits */
struct chart_series {
	double *good, *bad;
	size_t ngood, nbad, alloc_good, alloc_bad;
};

static void append_row(double **v, size_t *n, size_t *alloc,
		       const struct matrix *m, const char *stat)
{
	ssize_t s = matrix_find(m, stat);
	size_t r;

	if (s < 0)
		return;
	ALLOC_GROW(*v, *n + m->nruns, *alloc);
	for (r = 0; r < m->nruns; r++)
		if (matrix_has(m, (size_t)s, r)) /* no point for a missing run */
			(*v)[(*n)++] = matrix_at(m, (size_t)s, r);
}

/*
 * The report of the report issue for the last good commit vs the first
 * bad one (the culprit's parent vs the culprit), with the bisect's KPI as
 * its headline and first chart, and every chart drawn from the samples of
 * all commits judged good ('*') and bad ('O'), as in the seed.  Appended
 * to out; -1 with err.
 */
static int add_report(struct bisect_exec *x, const struct bisect_state *st,
		      const char *job, struct strbuf *out, struct strbuf *err)
{
	struct select_ctx ctx = { x->result_root, x->store_url };
	struct result_group base, head;
	struct report_data d;
	struct chart_series series[REPORT_MAX_CHARTS];
	struct strbuf dir = STRBUF_INIT;
	/* every good and bad commit's runs: "what explains it" and charts */
	struct matrix *m = xcalloc(st->ncommits + 1, sizeof(*m));
	const struct matrix **good = xcalloc(st->ncommits + 1, sizeof(*good));
	const struct matrix **bad = xcalloc(st->ncommits + 1, sizeof(*bad));
	struct report_pool pool = { good, bad, 0, 0 };
	size_t i, k;
	int ret = -1;

	result_group_init(&base);
	result_group_init(&head);
	memset(&d, 0, sizeof(d));
	memset(series, 0, sizeof(series));
	for (i = 0; i < st->ncommits; i++)
		matrix_init(&m[i]);
	if (!x->group) {
		strbuf_addstr(err, "no result group known for this bisect");
		goto out;
	}
	strbuf_addf(&dir, "%s/%s", x->group, st->commits[st->lo].sha);
	if (select_group(&ctx, dir.buf, &base, err))
		goto out;
	strbuf_reset(&dir);
	strbuf_addf(&dir, "%s/%s", x->group, st->commits[st->first_bad].sha);
	if (select_group(&ctx, dir.buf, &head, err))
		goto out;
	for (i = 0; i < st->ncommits; i++) {
		const struct bisect_commit *c = &st->commits[i];

		if (c->verdict != BISECT_GOOD && c->verdict != BISECT_BAD)
			continue;
		if (bisect_exec_samples(x, c->sha, &m[i], err) < 0)
			goto out;
		if (c->verdict == BISECT_GOOD)
			good[pool.ngood++] = &m[i];
		else
			bad[pool.nbad++] = &m[i];
	}
	/* the stats that separate every good run from every bad one */
	if (report_build_pooled(&d, &base, &head, &pool, err) ||
	    report_focus(&d, st->stat, err))
		goto out;
	if (report_git_commit(&d, x->repo, err)) {
		warning("%s: no subject in the report", err->buf);
		strbuf_reset(err);
	}
	d.r.job_file = job;
	/* runs made before --build-cmd was passed on lack it: ours is it */
	if (!d.r.repro.build && !d.r.repro.install) {
		d.r.repro.build = x->build; /* "" or NULL: none (report_repro_text) */
		d.r.repro.install = x->install;
	}
	for (i = 0; i < st->ncommits; i++) {
		const struct bisect_commit *c = &st->commits[i];

		if (c->verdict != BISECT_GOOD && c->verdict != BISECT_BAD)
			continue;
		for (k = 0; k < d.r.ncharts; k++) {
			struct chart_series *cs = &series[k];

			if (c->verdict == BISECT_GOOD)
				append_row(&cs->good, &cs->ngood,
					   &cs->alloc_good, &m[i],
					   d.r.charts[k]->name);
			else
				append_row(&cs->bad, &cs->nbad, &cs->alloc_bad,
					   &m[i], d.r.charts[k]->name);
		}
	}
	for (k = 0; k < d.r.ncharts; k++)
		report_chart_samples(&d, k, series[k].good, series[k].ngood,
				     series[k].bad, series[k].nbad);
	strbuf_addch(out, '\n');
	ret = report_text(&d.r, out, err);
out:
	for (k = 0; k < REPORT_MAX_CHARTS; k++) {
		free(series[k].good);
		free(series[k].bad);
	}
	for (i = 0; i < st->ncommits; i++)
		matrix_release(&m[i]);
	free(m);
	free(good);
	free(bad);
	report_data_release(&d);
	result_group_release(&base);
	result_group_release(&head);
	strbuf_release(&dir);
	return ret;
}

/* the state directory's report.txt: what stdout got */
static void save_report(const struct bisect_exec *x, const struct strbuf *text)
{
	struct strbuf path = STRBUF_INIT;

	path_join(&path, x->state_dir, "report.txt");
	if (write_file_atomic(path.buf, text->buf, text->len))
		warning("cannot write '%s': %s", path.buf, strerror(errno));
	else
		note("the report is in '%s'", path.buf);
	strbuf_release(&path);
}

/*
 * The job's testcase (its stats are the benchmark's own, stat_is_kpi)
 * and its KPIs: declared, else its built-in benchmark's (kpi_fill_job),
 * as the runs will record them.
 */
static int job_testcase(const char *job, char **testcase, char **kpi,
			struct strbuf *err)
{
	struct job **jobs = NULL;
	size_t n = 0;
	const char *tc;

	*kpi = NULL;
	if (job_load_file(job, &jobs, &n, err) < 0)
		return -1;
	tc = n ? job_get(jobs[0], "testcase") : NULL;
	*testcase = tc ? xstrdup(tc) : NULL;
	if (n) {
		struct strbuf line = STRBUF_INIT;
		struct kpi_set s;

		kpi_fill_job(jobs[0]);
		if (!kpi_from_job(jobs[0], &s, err) && s.n) {
			kpi_format(&s, &line);
			*kpi = strbuf_detach(&line, NULL);
		}
		kpi_set_release(&s);
		strbuf_release(&line);
		strbuf_reset(err);
	}
	job_free_all(jobs, n);
	return 0;
}

/*
 * The repository's top and the first-parent path from good to bad
 * (path[0] good, path[npath - 1] bad), checked before anything is built:
 * a typo in a revision is a usage error, not an hour of builds.  0, or
 * -1 after the error message.
 */
static int bisect_range(const struct bisect_args *a, struct strbuf *top,
			char good_sha[41], char bad_sha[41],
			struct bisect_git_commit **path, size_t *npath)
{
	struct strbuf err = STRBUF_INIT;
	int ret = -1;

	if (!dir_exists(a->repo)) {
		error("cannot open repository '%s': not a directory", a->repo);
		goto out;
	}
	if (bisect_git_toplevel(a->repo, top, &err) < 0) {
		error("'%s' is not a git work tree: %s", a->repo, err.buf);
		goto out;
	}
	if (bisect_git_resolve(top->buf, a->good, good_sha, &err) < 0 ||
	    bisect_git_resolve(top->buf, a->bad, bad_sha, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	if (!strcmp(good_sha, bad_sha)) {
		error("good and bad are the same commit %.*s", SHORT_SHA_LEN,
		      good_sha);
		goto out;
	}
	if (bisect_git_path(top->buf, good_sha, bad_sha, path, npath,
			    &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&err);
	return ret;
}

/*
 * Where the bisect's worktrees go: --worktree, else a directory private
 * to this user under TMPDIR, named by a hash of the repository, the
 * range and the result root -- the same bisect started again finds its
 * worktrees (and resumes), another one never shares them.  0, or -1
 * after the error message.
 */
static int worktree_base(const struct bisect_args *a, const char *top,
			 const char *good_sha, const char *bad_sha,
			 const char *root, struct strbuf *wt_base)
{
	const char *tmp = getenv("TMPDIR");
	uint64_t h = FNV1A64_INIT;
	struct strbuf why = STRBUF_INIT;

	if (a->worktree) {
		char *abs;

		if (mkdir_p(a->worktree, 0700) < 0)
			return error_errno("cannot create '%s'", a->worktree);
		/* absolute: the build runs in the worktree, not here */
		abs = realpath(a->worktree, NULL);
		if (!abs)
			return error_errno("cannot resolve '%s'", a->worktree);
		strbuf_addstr(wt_base, abs);
		free(abs);
		return 0;
	}
	h = fnv1a(h, top);
	h = fnv1a(h, good_sha);
	h = fnv1a(h, bad_sha);
	h = fnv1a(h, root);
	/*
	 * A shared /tmp: a directory another user made (or a link to one)
	 * would have us build and run their code as root.
	 */
	strbuf_addf(wt_base, "%s/perfsift-bisect-%u",
		    tmp && *tmp ? tmp : "/tmp", (unsigned)geteuid());
	if (mkdir_private(wt_base->buf, &why) < 0) {
		error("%s (set TMPDIR or --worktree)", why.buf);
		strbuf_release(&why);
		return -1;
	}
	strbuf_addf(wt_base, "/%016" PRIx64, h);
	if (mkdir_private(wt_base->buf, &why) < 0) {
		error("%s", why.buf);
		strbuf_release(&why);
		return -1;
	}
	return 0;
}

/*
 * The outcome told and turned into the exit status.  A finished bisect
 * (found, a range, or no change) removes its worktrees; an interrupted
 * or failed one keeps them, so that running it again resumes.
 */
static int bisect_finish(struct bisect_exec *x, struct bisect_state *st,
			 enum bisect_outcome outcome, const char *job,
			 struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT;
	int status = EXIT_RUNTIME;

	switch (outcome) {
	case BISECT_FOUND:
	case BISECT_RANGE:
		bisect_format_result(st, outcome, &out);
		if (add_report(x, st, job, &out, err) < 0) {
			warning("no report: %s", err->buf);
			strbuf_reset(err);
		}
		fputs(out.buf, stdout);
		fflush(stdout);
		/* 0 only for a culprit confirmed (or not asked to be) */
		status = outcome == BISECT_FOUND &&
					 (st->confirm == BISECT_CONFIRMED ||
					  st->confirm == BISECT_CONFIRM_NONE) ?
				 EXIT_OK :
				 EXIT_REGRESSION;
		save_report(x, &out);
		bisect_exec_cleanup(x);
		break;
	case BISECT_NO_CHANGE:
		error("%s", err->buf);
		status = EXIT_USAGE;
		bisect_exec_cleanup(x);
		break;
	case BISECT_INTERRUPTED:
		note("interrupted; run the same command again to go on "
		     "(%zu commits tested so far)",
		     st->tested);
		status = 130; /* as a shell reports SIGINT */
		break;
	case BISECT_ERROR:
		error("%s", err->buf);
		status = EXIT_RUNTIME;
		break;
	}
	strbuf_release(&out);
	return status;
}

int cmd_bisect(int argc, char **argv, struct options *opts)
{
	struct bisect_args a;
	struct bisect_options bo;
	struct bisect_exec x;
	struct bisect_ops ops;
	struct bisect_state st;
	struct bisect_git_commit *path = NULL;
	struct strbuf err = STRBUF_INIT, top = STRBUF_INIT,
		      wt_base = STRBUF_INIT;
	char good_sha[41], bad_sha[41];
	char *job = NULL, *root = NULL, *testcase = NULL, *kpi = NULL;
	enum bisect_outcome outcome;
	size_t npath = 0, i;
	int status;

	memset(&a, 0, sizeof(a));
	a.usage = bisect_usage;
	if (bisect_parse_args(&a, argc, argv, &status) < 0)
		return status;
	memset(&x, 0, sizeof(x));
	memset(&bo, 0, sizeof(bo));
	bisect_state_init(&st);
	bo.runs = a.runs;
	bo.max_runs = a.max_runs;
	bo.stat = a.stat;
	bo.no_confirm = a.no_confirm;
	bo.no_until_decided = a.no_until_decided;

	/* everything up to the path is checked before anything is built:
	 * a mistake there is a usage error */
	status = EXIT_USAGE;
	job = absolute(a.job);
	if (!job || !file_exists(job)) {
		error("cannot open '%s': %s", a.job,
		      job ? "not a file" : strerror(errno));
		goto out;
	}
	if (job_testcase(job, &testcase, &kpi, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	bo.testcase = testcase;
	bo.kpi = kpi;
	if (bisect_range(&a, &top, good_sha, bad_sha, &path, &npath) < 0)
		goto out;

	if (a.dry_run) {
		printf("%zu commits between good and bad (first parents):\n",
		       npath - 2);
		for (i = 0; i < npath; i++)
			printf("%s %s%s\n", path[i].sha,
			       !i ? "(good) " : i + 1 == npath ? "(bad) " : "",
			       path[i].subject);
		status = EXIT_OK;
		goto out;
	}
	status = EXIT_RUNTIME;
	if (bisect_open_root(opts, &root) < 0)
		goto out;
	if (worktree_base(&a, top.buf, good_sha, bad_sha, root, &wt_base) < 0)
		goto out;
	if (bisect_exec_start(&x, &a, top.buf, job, root, opts, wt_base.buf) < 0)
		goto out;
	if (bisect_exec_own_notes(&x, good_sha, bad_sha, a.stat, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	bisect_exec_ops(&x, &ops);
	for (i = 0; i < npath; i++)
		bisect_state_add_commit(&st, path[i].sha, path[i].subject);
	note("%zu commits from good %.*s to bad %.*s, about %zu steps",
	     npath - 2, SHORT_SHA_LEN, good_sha, SHORT_SHA_LEN, bad_sha,
	     npath > 2 ? (size_t)(64 - __builtin_clzll(npath - 2)) : 0);

	/* SIGINT from here on stops after the run in progress: resumable */
	bisect_exec_catch_signals();
	outcome = bisect_run(&st, &bo, &ops, &err);
	status = bisect_finish(&x, &st, outcome, a.job, &err);
out:
	bisect_exec_release(&x);
	bisect_state_release(&st);
	bisect_git_path_free(path, npath);
	strbuf_release(&err);
	strbuf_release(&top);
	strbuf_release(&wt_base);
	free(job);
	free(root);
	free(testcase);
	free(kpi);
	return status;
}
