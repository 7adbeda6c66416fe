/*
 * calibrate.c: `perfsift calibrate JOB.yaml [-n RUNS] [--commit ID]
 * [-- CMD ARGS...]` -- an A/A of a job: 2 x RUNS runs of each atomic job
 * on the same kernel, the two halves interleaved (run 1 is half A, run 2
 * half B, ...), made by the run engine through the schedule like any
 * `perfsift run`; then each stat's noise floor (result/floor.h: the
 * robust run-to-run spread and the drift between the halves) stored in
 * the root's index for the job's series, where compare finds it.
 * `perfsift calibrate --show GROUP` prints the floor a group would use.
 *
 * The runs are ordinary runs, kept, but in a result root of their own,
 * <root>/.calibration, with its own SQLite index (and `calibration: A/A`
 * in their job.yaml): they are the same kernel as a commit's runs, and in
 * the root itself they would be that commit's runs to compare, history
 * and bisect.  A dot directory is one the root's walks (the index sync,
 * `stats --all`) never enter.
 *
 * Nothing is stored until every run is made: an interrupted or failed
 * A/A leaves the floors as they were, and each series' floor is replaced
 * in one transaction.
 */
#include "util/compat.h"
#include <getopt.h>
#include <math.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "builtin.h"
#include "job/job.h"
#include "result/floor.h"
#include "result/reduce.h"
#include "run/engine.h"
#include "run/runner.h"
#include "run/schedule.h"
#include "select/select.h"
#include "store/store.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/usage.h"
#include "util/xalloc.h"

static const char calibrate_usage[] =
	"usage: perfsift calibrate JOB.yaml [-n RUNS] [-r ROOT] [--commit ID]\n"
	"                          [-- CMD ARGS...]\n"
	"       perfsift calibrate --show GROUP\n"
	"\n"
	"An A/A: run each atomic job of JOB 2 x RUNS times on this kernel, the\n"
	"two halves interleaved (A B A B ...), and store each stat's noise floor\n"
	"in the index for the job on this machine.  compare then leaves a\n"
	"change within --floor-k (2) times its floor unflagged.\n"
	"\n"
	"  -n, --runs N        runs a half (default 5; 3..49)\n"
	"  -r, --result-root ROOT  the result root (as perfsift --result-root)\n"
	"  --commit ID         the commit this kernel is (default: uname -r)\n"
	"  --show GROUP        print the floor stored for GROUP's job and machine\n"
	"                      (GROUP as compare takes it)\n"
	"  -- CMD ARGS...      the command of a `mytest` job\n"
	"\n"
	"The runs are kept in ROOT/.calibration (a result root of their own, so\n"
	"that no comparison takes them for a commit's runs).  A floor is stored\n"
	"only once every run is made: an interrupted A/A changes no floor.\n";

/* the A/A runs of one atomic job, as the schedule reports them */
struct aa_job {
	char **dirs;     /* complete runs, in the order made */
	size_t n, alloc;
	char *group_dir; /* its calibration group */
	bool skipped;    /* the benchmark declined this machine */
	int failed;      /* runs failed, cut or unrecorded */
};

struct aa {
	struct aa_job *jobs;
	size_t njobs;
};

/*
 * schedule's on_run: keep each complete run's directory, count the rest.
 * The directories, not the group's runs in the index: the calibration
 * root may hold an earlier A/A's runs of the same group, and a floor is
 * this A/A's alone.
 */
static void collect_run(void *ctx, size_t job, const struct engine_run *r,
			enum engine_outcome o)
{
	struct aa_job *j = &((struct aa *)ctx)->jobs[job];

	if (r->group_dir.len && !j->group_dir)
		j->group_dir = xstrdup(r->group_dir.buf);
	if (o == ENGINE_OK) {
		ALLOC_GROW(j->dirs, j->n + 1, j->alloc);
		j->dirs[j->n++] = xstrdup(r->dir.buf);
	} else if (o == ENGINE_SKIPPED) {
		j->skipped = true;
	} else {
		j->failed++;
	}
}

static void aa_release(struct aa *aa)
{
	size_t i, k;

	for (i = 0; i < aa->njobs; i++) {
		for (k = 0; k < aa->jobs[i].n; k++)
			free(aa->jobs[i].dirs[k]);
		free(aa->jobs[i].dirs);
		free(aa->jobs[i].group_dir);
	}
	free(aa->jobs);
}

/* qsort of borrowed names (the runs' own strings) */
static int cmp_name(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

/* every stat name of the runs, sorted, each once (borrowed) */
static const char **union_names(const struct reduce_stats *runs, size_t n,
				size_t *count)
{
	const char **names = NULL;
	size_t alloc = 0, total = 0, i, k, w = 0;

	for (i = 0; i < n; i++)
		for (k = 0; k < runs[i].n; k++) {
			ALLOC_GROW(names, total + 1, alloc);
			names[total++] = runs[i].items[k].name;
		}
	if (total)
		qsort(names, total, sizeof(*names), cmp_name);
	/* sorted: a name shared by every run is kept once */
	for (i = 0; i < total; i++)
		if (!w || strcmp(names[w - 1], names[i]))
			names[w++] = names[i];
	*count = w;
	return names;
}

/*
 * Each stat's floor from the job's runs: the odd-numbered runs of this
 * A/A (1st, 3rd, ...) are half A, the even ones half B.  A stat some
 * runs lack is judged on the runs that have it (noise_floor_of() wants
 * two a half).  0, or -1 with err for a run whose stats cannot be read.
 */
static int floor_of_runs(const struct aa_job *j, struct noise_floor *f,
			 struct strbuf *err)
{
	struct reduce_stats *runs = xcalloc(j->n, sizeof(*runs));
	double *a = xcalloc(j->n, sizeof(double));
	double *b = xcalloc(j->n, sizeof(double));
	double *scratch = xcalloc(j->n, sizeof(double));
	struct strbuf path = STRBUF_INIT;
	const char **names = NULL;
	size_t i, k, nnames = 0;
	int ret = -1;

	for (i = 0; i < j->n; i++) {
		strbuf_reset(&path);
		path_join(&path, j->dirs[i], "stats.json");
		if (reduce_stats_load_json(&runs[i], path.buf, err) < 0)
			goto out;
		reduce_stats_sort(&runs[i]);
	}
	names = union_names(runs, j->n, &nnames);
	for (k = 0; k < nnames; k++) {
		size_t na = 0, nb = 0;
		double pct;

		for (i = 0; i < j->n; i++) {
			const struct reduce_stat *s = reduce_stats_find(&runs[i],
									names[k]);

			if (!s)
				continue;
			if (i % 2)
				b[nb++] = s->value;
			else
				a[na++] = s->value;
		}
		pct = noise_floor_of(a, na, b, nb, scratch);
		/* no floor said (too few values, a median of 0): none stored,
		 * so compare judges the stat as it always did */
		if (isfinite(pct))
			noise_floor_add(f, names[k], pct);
	}
	noise_floor_sort(f);
	ret = 0;
out:
	for (i = 0; i < j->n; i++)
		reduce_stats_release(&runs[i]);
	free(runs);
	free(a);
	free(b);
	free(scratch);
	free(names);
	strbuf_release(&path);
	return ret;
}

/*
 * Component `which` (0-based) of a series, a new string ("" if absent):
 * the machine is the series' tbox_group, said beside it for --show and
 * the JSON rather than parsed out of the series by every reader.
 */
static char *series_part(const char *series, int which)
{
	const char *p = series, *end;

	while (which-- > 0 && (p = strchr(p, '/')))
		p++;
	if (!p)
		return xstrdup("");
	end = strchr(p, '/');
	return end ? xstrndup(p, (size_t)(end - p)) : xstrdup(p);
}

/*
 * The floor of job j: its series (the calibration group's directory below
 * the calibration root, without the commit: the same as the job's groups
 * in the root), machine and kernel, and each stat's floor.
 */
static int make_floor(const struct aa_job *j, const char *calroot, int runs,
		      struct noise_floor *f, struct strbuf *err)
{
	struct strbuf series = STRBUF_INIT;
	char *root = realpath(calroot, NULL), *dir = realpath(j->group_dir, NULL);
	int ret = -1;

	if (!root || !dir || noise_floor_series(root, dir, &series) < 0) {
		strbuf_addf(err, "'%s': not a result group below '%s'",
			    j->group_dir, calroot);
		goto out;
	}
	f->series = strbuf_detach(&series, NULL);
	f->machine = series_part(f->series, 2); /* .../tbox_group/... */
	f->commit = xstrdup(path_basename(dir));
	/* wall-clock seconds: a date for people, never a duration */
	f->calibrated_at = (int64_t)time(NULL);
	f->runs = runs;
	ret = floor_of_runs(j, f, err);
out:
	free(root);
	free(dir);
	strbuf_release(&series);
	return ret;
}

/* the floors of every job with a full A/A, stored: the exit status */
static int store_floors(const struct aa *aa, const char *root,
			const char *calroot, const char *store_url, int runs)
{
	struct strbuf err = STRBUF_INIT;
	struct store st;
	size_t i, stored = 0;
	int status = EXIT_OK;

	/*
	 * Opened only now, after every run: a root without an index gets one
	 * here and not before, so that bad input or an interrupted A/A leaves
	 * the root's index as it was (or absent).
	 */
	if (store_open(&st, root, store_url, STORE_CREATE, &err) < 0) {
		error("%s", err.buf);
		strbuf_release(&err);
		return EXIT_RUNTIME;
	}
	for (i = 0; i < aa->njobs; i++) {
		const struct aa_job *j = &aa->jobs[i];
		struct noise_floor f;

		/* a job this machine declined has no runs to learn from */
		if (j->skipped || !j->group_dir)
			continue;
		noise_floor_init(&f);
		strbuf_reset(&err);
		if (make_floor(j, calroot, runs, &f, &err) < 0 ||
		    store_put_floor(&st, &f, &err) < 0) {
			error("%s", err.buf);
			status = EXIT_RUNTIME;
		} else {
			printf("noise floor of %zu stats from 2 x %d runs stored for %s\n",
			       f.n, runs, f.series);
			stored++;
		}
		noise_floor_release(&f);
	}
	store_close(&st);
	if (!stored && status == EXIT_OK) {
		error("no job ran on this machine: no noise floor stored");
		status = EXIT_RUNTIME;
	}
	strbuf_release(&err);
	return status;
}

/* `--show GROUP`: the floor GROUP's series has, one stat a line */
static int show_floor(const char *spec, const struct options *opts)
{
	struct select_ctx ctx = { opts->result_root, opts->store_url };
	struct strbuf err = STRBUF_INIT, line = STRBUF_INIT;
	struct result_group g;
	size_t i;

	if (select_group(&ctx, spec, &g, &err) < 0) {
		error("%s", err.buf);
		strbuf_release(&err);
		return EXIT_USAGE;
	}
	strbuf_release(&err);
	/* none is an answer, not an error of the command line: exit 1 */
	if (!g.floor) {
		error("'%s': no noise floor is stored for its job on its machine "
		      "(run `perfsift calibrate JOB` there)", spec);
		result_group_release(&g);
		return EXIT_REGRESSION; /* 1: asked, and there is none */
	}
	strbuf_addf(&line, "noise floor of %s\n  machine %s, kernel %s, calibrated ",
		    g.floor->series, g.floor->machine, g.floor->commit);
	noise_floor_date(g.floor->calibrated_at, &line);
	strbuf_addf(&line, ", 2 x %d runs, %zu stats\n", g.floor->runs, g.floor->n);
	fputs(line.buf, stdout);
	for (i = 0; i < g.floor->n; i++)
		printf("%10.3f%%  %s\n", g.floor->items[i].pct,
		       g.floor->items[i].name);
	strbuf_release(&line);
	result_group_release(&g);
	return EXIT_OK;
}

/* what the command line asked for */
struct calibrate_args {
	const char *job_file, *commit, *show, *root;
	char **cmd_argv;
	int runs;
};

/* the options: -1 to go on, else the status to exit with */
static int parse_options(int argc, char **argv, struct calibrate_args *a)
{
	static const struct option longopts[] = {
		{"runs", required_argument, NULL, 'n'},
		{"result-root", required_argument, NULL, 'r'},
		{"commit", required_argument, NULL, 'c'},
		{"show", required_argument, NULL, 'S'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int argc_opts = argc, ch, i;
	const char *why;
	long long n;

	/* everything after `--` is the command; getopt must not see it */
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			argc_opts = i;
			a->cmd_argv = argv + i + 1;
			break;
		}
	while ((ch = cmd_getopt(argc_opts, argv, "n:r:h", longopts)) != -1) {
		switch (ch) {
		case 'n':
			/* 3 a half at least: a MAD of two values is half their gap */
			if (strnum_ll(optarg, 3, 49, &n, &why) < 0) {
				error("-n '%s': %s (3..49 runs a half)", optarg, why);
				return EXIT_USAGE;
			}
			a->runs = (int)n;
			break;
		case 'r': a->root = optarg; break;
		case 'c': a->commit = optarg; break;
		case 'S': a->show = optarg; break;
		case 'h': return cmd_usage(calibrate_usage, false);
		default: return cmd_usage(calibrate_usage, true);
		}
	}
	if (a->show)
		return optind == argc_opts && !a->cmd_argv ? -1 :
			cmd_usage(calibrate_usage, true);
	if (optind + 1 != argc_opts || (a->cmd_argv && !a->cmd_argv[0]))
		return cmd_usage(calibrate_usage, true);
	a->job_file = argv[optind];
	return cmd_check_commit(a->commit) < 0 ? EXIT_USAGE : -1;
}

/* the A/A's exit status when it did not end with every run made */
static int aa_status(enum engine_outcome o, const struct schedule *s)
{
	if (o == ENGINE_STOPPED) {
		error("interrupted by %s: the runs made are kept in the "
		      "calibration root; no noise floor was changed",
		      runner_stop_signal() == SIGTERM ? "SIGTERM" : "SIGINT");
		return EXIT_RUNTIME;
	}
	/*
	 * A failed run makes the halves uneven and says the benchmark is not
	 * itself: a floor from what is left would be a floor of something
	 * else.
	 */
	if (s->nr_error || s->nr_failed) {
		error("%d run%s failed or could not be recorded: an A/A needs "
		      "every run; no noise floor was changed",
		      s->nr_error + s->nr_failed,
		      s->nr_error + s->nr_failed == 1 ? "" : "s");
		return EXIT_RUNTIME;
	}
	return -1;
}

/* load, mark and run the A/A, then store its floors */
static int calibrate(const struct calibrate_args *a, const char *root,
		     const char *store_url)
{
	struct schedule s = {0};
	struct engine e;
	struct job **atomic = NULL;
	struct engine_plan *plans = NULL;
	struct strbuf err = STRBUF_INIT, calroot = STRBUF_INIT;
	struct aa aa = {0};
	size_t nr_atomic = 0, i;
	int status = EXIT_USAGE;

	engine_signals();
	if (schedule_load(a->job_file, NULL, 0, a->cmd_argv, &atomic, &nr_atomic,
			  &plans, &err) < 0) {
		/* the job file's error: said before anything was written */
		note("%s", err.buf);
		goto out;
	}
	path_join(&calroot, root, ".calibration");
	/*
	 * A plain key (not a parameter: the group's identity, and so the
	 * series, stay the job's), so that a run's job.yaml says what it was
	 * made for wherever it is copied.
	 */
	for (i = 0; i < nr_atomic; i++)
		job_set(atomic[i], "calibration", "A/A");
	aa.njobs = nr_atomic;
	aa.jobs = xcalloc(nr_atomic ? nr_atomic : 1, sizeof(*aa.jobs));
	s.result_root = calroot.buf;
	/* 2N runs a job, round-robin over the jobs: the halves alternate */
	s.nr_runs = 2 * a->runs;
	s.interleave = true;
	s.on_run = collect_run;
	s.on_run_ctx = &aa;
	printf("calibrate: an A/A of %zu job%s, 2 x %d runs each (halves "
	       "interleaved), into %s\n", nr_atomic, nr_atomic == 1 ? "" : "s",
	       a->runs, calroot.buf);
	/* NULL: the calibration root's own SQLite index, whatever --store
	 * says -- a shared store would see these runs as the commit's */
	engine_init(&e, calroot.buf, NULL, a->commit);
	status = aa_status(schedule_run_all(&s, &e, atomic, plans, nr_atomic), &s);
	engine_release(&e);
	if (status < 0)
		status = store_floors(&aa, root, calroot.buf, store_url, a->runs);
	engine_flush_progress();
out:
	for (i = 0; i < nr_atomic; i++)
		engine_plan_release(&plans[i]);
	free(plans);
	job_free_all(atomic, nr_atomic);
	aa_release(&aa);
	strbuf_release(&err);
	strbuf_release(&calroot);
	return status;
}

int cmd_calibrate(int argc, char **argv, struct options *opts)
{
	struct calibrate_args a = {0};
	struct options o = *opts;
	int status;

	a.runs = 5; /* 5 + 5, the A/A of issue 13 */
	status = parse_options(argc, argv, &a);
	if (status >= 0)
		return status;
	if (a.root)
		o.result_root = a.root;
	if (a.show)
		return show_floor(a.show, &o);
	return calibrate(&a, o.result_root, o.store_url);
}
