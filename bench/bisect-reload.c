/*
 * bench/bisect-reload.c: what a bisect step spends reading its parties'
 * samples back (the samples() and starts() ops: the index's matrix and
 * each run's start_time file) while it grows to --max-runs runs a party.
 * A real step on the real ops (bisect/exec.c): three commits, good, one
 * to test and bad, every run a `perfsift run` of a mytest job into a
 * fresh result root; the tested commit's figure flips between good's and
 * bad's, run after run, so that it stays undecided up to --max-runs and
 * the step runs its every triplet.  The ops are wrapped with a clock:
 * the figure is the time spent inside them, apart from the runs'.
 *
 * usage: bisect-reload [--max N] [--reps R] PERFSIFT
 *   N runs a party (default 120), R repetitions (default 3); prints the
 *   median and the range of the reload time and of the step's wall time.
 */
#include "util/compat.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "bisect/bisect.h"
#include "bisect/exec.h"
#include "lib/timing.h"
#include "result/matrix.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* the ops under the clock: the real ones, and what they cost */
struct timed {
	struct bisect_ops real;
	double in_samples, in_starts; /* seconds inside samples(), starts() */
	size_t nsamples, nstarts, nmeasures;
	const char *sha[3];
	size_t commit_runs;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int t_prepare(void *data, int slot, const char *sha, struct strbuf *why)
{
	struct timed *t = data;

	return t->real.prepare(t->real.data, slot, sha, why);
}

/* the job prints BENCH_VALUE: good 80, bad 160, the commit both in turn */
static int t_measure(void *data, int slot, const char *sha, struct strbuf *err)
{
	struct timed *t = data;
	const char *v = "80";

	if (!strcmp(sha, t->sha[2]))
		v = "160";
	else if (!strcmp(sha, t->sha[1]))
		v = t->commit_runs++ % 2 ? "160" : "80";
	setenv("BENCH_VALUE", v, 1);
	t->nmeasures++;
	return t->real.measure(t->real.data, slot, sha, err);
}

static int t_samples(void *data, const char *sha, struct matrix *m,
		     struct strbuf *err)
{
	struct timed *t = data;
	double t0 = now();
	int r = t->real.samples(t->real.data, sha, m, err);

	t->in_samples += now() - t0;
	t->nsamples++;
	return r;
}

static int t_starts(void *data, const char *sha, const struct matrix *m,
		    double *out, struct strbuf *err)
{
	struct timed *t = data;
	double t0 = now();
	int r = t->real.starts(t->real.data, sha, m, out, err);

	t->in_starts += now() - t0;
	t->nstarts++;
	return r;
}

static bool t_interrupted(void *data)
{
	(void)data;
	return false;
}

/* one bisect of one step in a fresh result root under dir: 0 or -1 */
static int one(const char *perfsift, const char *dir, size_t max, double *reads,
	       double *starts, double *wall, size_t *calls)
{
	static const char *const cmd[] = { "sh", "-c",
					   "echo run_ms: $BENCH_VALUE", NULL };
	static const char *const sha[3] = {
		"1111111111111111111111111111111111111111",
		"2222222222222222222222222222222222222222",
		"3333333333333333333333333333333333333333",
	};
	struct bisect_exec x;
	struct bisect_ops ops;
	struct bisect_options opt;
	struct bisect_state st;
	struct timed t;
	struct strbuf err = STRBUF_INIT, root = STRBUF_INIT, job = STRBUF_INIT;
	enum bisect_outcome o;
	double t0;
	int out_fd, i, ret = -1;

	strbuf_addf(&root, "%s/result", dir);
	strbuf_addf(&job, "%s/job.yaml", dir);
	if (write_file_atomic(job.buf, "testcase: bench-reload\nmytest:\n",
			      strlen("testcase: bench-reload\nmytest:\n")) < 0) {
		fprintf(stderr, "bisect-reload: cannot write %s\n", job.buf);
		goto out;
	}
	memset(&x, 0, sizeof(x));
	x.job = job.buf;
	x.cmd = cmd;
	x.result_root = root.buf;
	if (bisect_exec_init(&x, NULL, &err) < 0) {
		fprintf(stderr, "bisect-reload: %s\n", err.buf);
		goto out;
	}
	free(x.self);
	x.self = xstrdup(perfsift);
	bisect_exec_ops(&x, &ops);
	memset(&t, 0, sizeof(t));
	t.real = ops;
	for (i = 0; i < 3; i++)
		t.sha[i] = sha[i];
	ops.prepare = t_prepare;
	ops.measure = t_measure;
	ops.samples = t_samples;
	ops.starts = t_starts;
	ops.interrupted = t_interrupted;
	ops.progress = NULL;
	ops.data = &t;
	memset(&opt, 0, sizeof(opt));
	opt.runs = 3;
	opt.max_runs = max;
	opt.stat = "mytest.run_ms";
	opt.no_confirm = true;
	opt.testcase = "bench-reload";
	bisect_state_init(&st);
	for (i = 0; i < 3; i++)
		bisect_state_add_commit(&st, sha[i], "c");
	/* the runs' own output is not the bench's */
	fflush(stdout);
	out_fd = dup(1);
	i = open("/dev/null", O_WRONLY);
	dup2(i, 1);
	dup2(i, 2);
	close(i);
	t0 = now();
	o = bisect_run(&st, &opt, &ops, &err);
	*wall = now() - t0;
	dup2(out_fd, 1);
	dup2(out_fd, 2);
	close(out_fd);
	*reads = t.in_samples + t.in_starts;
	*starts = t.in_starts;
	*calls = t.nsamples + t.nstarts;
	if (st.commits[1].verdict != BISECT_UNDECIDED || t.commit_runs != max) {
		fprintf(stderr, "bisect-reload: outcome %d, the commit %s after "
			"%zu runs (not undecided at %zu): %s\n", (int)o,
			bisect_verdict_name(st.commits[1].verdict),
			t.commit_runs, max, err.buf);
	} else {
		ret = 0;
	}
	bisect_state_release(&st);
	bisect_exec_release(&x);
out:
	strbuf_release(&err);
	strbuf_release(&root);
	strbuf_release(&job);
	return ret;
}

int main(int argc, char **argv)
{
	size_t max = 120, reps = 3, r, calls = 0;
	double *reads, *starts, *walls;
	char tmpl[] = "/tmp/bisect-reload.XXXXXX";
	const char *perfsift;
	int i;

	for (i = 1; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "--max"))
			max = strtoul(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--reps"))
			reps = strtoul(argv[i + 1], NULL, 10);
		else
			break;
	}
	if (i + 1 != argc || max < 3 || !reps) {
		fprintf(stderr, "usage: bisect-reload [--max N] [--reps R] PERFSIFT\n");
		return 2;
	}
	perfsift = argv[i];
	reads = xcalloc(reps, sizeof(double));
	starts = xcalloc(reps, sizeof(double));
	walls = xcalloc(reps, sizeof(double));
	bench_print_load("before");
	for (r = 0; r < reps; r++) {
		char *dir = mkdtemp(tmpl);

		if (!dir || one(perfsift, dir, max, &reads[r], &starts[r],
				&walls[r], &calls) < 0)
			return 1;
		if (remove_tree(dir) < 0)
			fprintf(stderr, "bisect-reload: cannot remove %s\n", dir);
		memcpy(tmpl + strlen(tmpl) - 6, "XXXXXX", 6);
		printf("rep %zu: reads %.3f s (%zu calls; starts() %.3f s), "
		       "step %.1f s\n", r + 1, reads[r], calls, starts[r],
		       walls[r]);
		fflush(stdout);
	}
	bench_print_load("after");
	bench_sort(reads, reps);
	bench_sort(starts, reps);
	bench_sort(walls, reps);
	printf("%zu runs a party, %zu reps: samples()+starts() median %.3f s "
	       "[%.3f - %.3f] (starts() %.3f s), the step's wall median %.1f s "
	       "[%.1f - %.1f]\n",
	       max, reps, reads[reps / 2], reads[0], reads[reps - 1],
	       starts[reps / 2], walls[reps / 2], walls[0], walls[reps - 1]);
	free(reads);
	free(starts);
	free(walls);
	return 0;
}
