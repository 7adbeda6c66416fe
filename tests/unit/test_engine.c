/*
 * test_engine.c: one run through the library's run engine (run/engine.h)
 * against a fake sysroot, the knob journal in a temporary directory --
 * the promises of engine.h's contract: every knob (a setup program's and
 * the benchmark's) is back after the run; a built-in benchmark's
 * cleanup() runs exactly once whenever prepare() ran, also when
 * prepare() failed or declined and when a stop request cut the run; a
 * cut run is kept, marked incomplete; a stop already requested reserves
 * nothing.
 *
 * Each run is made in a child process: a stop request is sticky for the
 * process (runner.h), the knob module is process-wide, and a promise the
 * engine broke (a knob left set) must not be mended by the next test.
 * The child exits with the outcome through exit(), so a sanitizer build
 * checks it for leaks too (vm-scalability's failed prepare() once leaked
 * its state: cleanup() was not called after an error).  Test benchmarks
 * below are real bench_ops driven by the real engine; what they did is
 * appended to a log file the parent reads.
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "benchmarks/bench.h"
#include "job/job.h"
#include "run/engine.h"
#include "setup/knob.h"
#include "util/fileutil.h"
#include "util/strbuf.h"

struct fixture {
	char dir[64];
	struct strbuf sysroot, root, log, out, err;
	struct strbuf rundir; /* the last run's directory, "" if none */
};

/* the fixture of the test running now: the test benchmarks log there */
static struct fixture *cur;

static void put(const char *root, const char *path, const char *text)
{
	struct strbuf p = STRBUF_INIT, d = STRBUF_INIT;

	path_join(&p, root, path);
	path_dirname(&d, p.buf);
	assert_int_equal(mkdir_p(d.buf, 0755), 0);
	assert_int_equal(write_file_atomic(p.buf, text, strlen(text)), 0);
	strbuf_release(&p);
	strbuf_release(&d);
}

/* the file's text, "" when it is missing */
static char *slurp(const char *dir, const char *name)
{
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT;

	path_join(&p, dir, name);
	if (strbuf_read_file(&v, p.buf, 1 << 20) < 0)
		strbuf_reset(&v);
	strbuf_release(&p);
	return strbuf_detach(&v, NULL);
}

/*
 * The checks free what they read before failing: a failed assertion
 * jumps out of the test, and a leak left behind would be inherited by
 * the next test's child and reported by its LeakSanitizer as its own.
 */
static void expect_file(const char *dir, const char *name, const char *want)
{
	char *v = slurp(dir, name), msg[1024];
	bool ok = !strcmp(v, want);

	snprintf(msg, sizeof(msg), "%s/%s: '%s', wanted '%s'", dir, name, v, want);
	free(v);
	if (!ok)
		fail_msg("%s", msg);
}

static void expect_in_file(const char *dir, const char *name, const char *want)
{
	char *v = slurp(dir, name), msg[1024];
	bool ok = strstr(v, want) != NULL;

	snprintf(msg, sizeof(msg), "'%s' not in %s/%s: '%s'", want, dir, name, v);
	free(v);
	if (!ok)
		fail_msg("%s", msg);
}

/* dir is missing or holds nothing */
static bool no_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	bool empty = true;

	if (!d)
		return true;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = false;
	closedir(d);
	return empty;
}

/* a line for the parent: what the test benchmark did (O_APPEND: one write) */
static void log_step(const char *what)
{
	FILE *fp = fopen(cur->log.buf, "a");

	if (fp) {
		fprintf(fp, "%s\n", what);
		fclose(fp);
	}
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct strbuf knobs = STRBUF_INIT;

	snprintf(f->dir, sizeof(f->dir), "/tmp/test_engine.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	strbuf_init(&f->sysroot, 0);
	strbuf_init(&f->root, 0);
	strbuf_init(&f->log, 0);
	strbuf_init(&f->out, 0);
	strbuf_init(&f->err, 0);
	strbuf_init(&f->rundir, 0);
	path_join(&f->sysroot, f->dir, "sys");
	path_join(&f->root, f->dir, "result");
	path_join(&f->log, f->dir, "steps");
	path_join(&f->out, f->dir, "stdout");
	path_join(&f->err, f->dir, "stderr");
	path_join(&knobs, f->dir, "knobs");
	/* never the machine's knobs or journal */
	setenv("PERFSIFT_KNOB_DIR", knobs.buf, 1);
	setenv("PERFSIFT_SYSROOT", f->sysroot.buf, 1);
	put(f->sysroot.buf, "proc/sys/vm/overcommit_memory", "0\n");
	put(f->sysroot.buf, "proc/sys/vm/swappiness", "60\n");
	strbuf_release(&knobs);
	cur = f;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	remove_tree(f->dir);
	strbuf_release(&f->sysroot);
	strbuf_release(&f->root);
	strbuf_release(&f->log);
	strbuf_release(&f->out);
	strbuf_release(&f->err);
	strbuf_release(&f->rundir);
	free(f);
	cur = NULL;
	return 0;
}

/* ---- test benchmarks: each step logged, a knob of its own ---------------- */

/* what the test benchmark's prepare() and run() do */
static enum { PREP_OK, PREP_FAIL, PREP_SKIP, PREP_STOP } prep_mode;
static enum { RUN_OK, RUN_STOP } run_mode;

static int tb_prepare(struct bench_ctx *ctx, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;

	log_step("prepare");
	/* the benchmark's own knob, before prepare() can fail: cleanup's part */
	ctx->priv = malloc(64);
	if (knob_set("/proc/sys/vm/swappiness", "10", &why) < 0)
		log_step(why.buf); /* the parent's check of the steps fails */
	strbuf_release(&why);
	switch (prep_mode) {
	case PREP_FAIL:
		strbuf_addstr(err, "the test benchmark's prepare() fails");
		return BENCH_ERROR;
	case PREP_SKIP:
		strbuf_addstr(ctx->skip_reason, "not on this machine");
		return BENCH_SKIP;
	case PREP_STOP:
		/* blocked (engine_signals): pending, as a ^C during prepare() */
		raise(SIGTERM);
		return BENCH_OK;
	default:
		return BENCH_OK;
	}
}

/* in the runner's child: the work, or a stop sent to the engine and a wait */
static int tb_run(struct bench_ctx *ctx)
{
	(void)ctx;
	log_step("run");
	if (run_mode == RUN_STOP) {
		kill(getppid(), SIGTERM);
		for (;;)
			pause(); /* until the engine ends the process group */
	}
	printf("work: done\n");
	return 0;
}

static void tb_cleanup(struct bench_ctx *ctx)
{
	log_step("cleanup");
	free(ctx->priv);
	ctx->priv = NULL;
}

static const struct bench_ops test_bench = {
	.name = "engine-test",
	.prepare = tb_prepare,
	.run = tb_run,
	.cleanup = tb_cleanup,
};

/* ---- one run in a child process ------------------------------------------ */

static struct job *load(const char *yaml)
{
	struct strbuf err = STRBUF_INIT;
	struct job **jobs = NULL, *j;
	size_t n = 0;

	if (job_load_string(yaml, "t.yaml", &jobs, &n, &err) || n != 1)
		fail_msg("%s", err.buf);
	j = jobs[0];
	free(jobs);
	strbuf_release(&err);
	return j;
}

/* the child: one engine run, its directory into <dir>/rundir, exit outcome */
static NORETURN void child_run(struct fixture *f, const char *yaml,
			       const struct bench_ops *ops, bool stop_first)
{
	struct engine_run r = ENGINE_RUN_INIT;
	struct engine_plan p;
	struct strbuf err = STRBUF_INIT;
	struct engine e;
	struct job *job;
	enum engine_outcome o;

	/* progress and errors to files: TAP on the test's stdout stays clean */
	if (!freopen(f->out.buf, "w", stdout) || !freopen(f->err.buf, "w", stderr))
		_exit(100);
	engine_signals();
	job = load(yaml);
	if (ops) {
		memset(&p, 0, sizeof(p));
		p.prog = ops->name;
		p.ops = ops;
	} else if (engine_plan_make(job, NULL, &p, &err) < 0) {
		fprintf(stderr, "%s\n", err.buf);
		_exit(101);
	}
	if (stop_first)
		raise(SIGTERM);
	engine_init(&e, f->root.buf, NULL, "c1");
	r.name = "t";
	r.index = r.total = 1;
	o = engine_run_once(&e, job, &p, &r);
	put(f->dir, "rundir", r.dir.buf);
	put(f->dir, "started", r.started ? "1" : "0");
	engine_run_release(&r);
	engine_release(&e);
	engine_plan_release(&p);
	job_free(job);
	strbuf_release(&err);
	fflush(stdout);
	exit((int)o); /* exit(), not _exit(): LeakSanitizer looks at the end */
}

/* run yaml once (with ops, or its own test program); the outcome */
static enum engine_outcome one_run(struct fixture *f, const char *yaml,
				   const struct bench_ops *ops, bool stop_first,
				   const char **dir)
{
	char *text;
	int st;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		child_run(f, yaml, ops, stop_first);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (!WIFEXITED(st) || WEXITSTATUS(st) > ENGINE_ERROR)
		fail_msg("the engine's process ended with status %#x", st);
	text = slurp(f->dir, "rundir");
	strbuf_reset(&f->rundir);
	strbuf_addstr(&f->rundir, text);
	free(text);
	*dir = f->rundir.buf;
	return (enum engine_outcome)WEXITSTATUS(st);
}

/* both knobs are at their values from before the run */
static void expect_knobs_back(struct fixture *f)
{
	expect_file(f->sysroot.buf, "proc/sys/vm/overcommit_memory", "0\n");
	expect_file(f->sysroot.buf, "proc/sys/vm/swappiness", "60\n");
}

/* a setup program's knob, for every test's job */
#define JOB_KNOB "testcase: engine\nsysctl:\n  sc_overcommit_memory: 1\n"

/* ---- the tests ------------------------------------------------------------ */

static void test_complete_run(void **state)
{
	struct fixture *f = *state;
	const char *dir;

	prep_mode = PREP_OK;
	run_mode = RUN_OK;
	assert_int_equal(one_run(f, JOB_KNOB, &test_bench, false, &dir), ENGINE_OK);
	expect_file(f->dir, "steps", "prepare\nrun\ncleanup\n");
	expect_knobs_back(f);
	/* published: in place, its output kept, what it ran under recorded */
	assert_true(*dir && file_exists(dir));
	expect_file(dir, "engine-test", "work: done\n");
	expect_in_file(dir, "knobs", "proc/sys/vm/overcommit_memory 0 -> 1");
	expect_in_file(dir, "knobs", "proc/sys/vm/swappiness 60 -> 10");
	expect_in_file(dir, "time", "Exit status: 0");
	expect_file(dir, "last_state", "");
	expect_file(f->dir, "started", "1");
	expect_in_file(f->dir, "stdout", "t: run 1 of 1: done in ");
}

static void test_prepare_fails(void **state)
{
	struct fixture *f = *state;
	const char *dir;

	prep_mode = PREP_FAIL;
	run_mode = RUN_OK;
	assert_int_equal(one_run(f, JOB_KNOB, &test_bench, false, &dir),
			 ENGINE_FAILED);
	/* nothing ran, but what prepare() made is undone */
	expect_file(f->dir, "steps", "prepare\ncleanup\n");
	expect_knobs_back(f);
	expect_in_file(dir, "last_state", "prepare_failed: 1\n");
	expect_in_file(dir, "last_state", "is_incomplete_run: 1\n");
	expect_file(f->dir, "started", "0");
	expect_in_file(f->dir, "stderr",
		       "engine-test: the test benchmark's prepare() fails\n");
}

static void test_prepare_skips(void **state)
{
	struct fixture *f = *state;
	const char *dir;

	prep_mode = PREP_SKIP;
	run_mode = RUN_OK;
	assert_int_equal(one_run(f, JOB_KNOB, &test_bench, false, &dir),
			 ENGINE_SKIPPED);
	expect_file(f->dir, "steps", "prepare\ncleanup\n");
	expect_knobs_back(f);
	expect_in_file(dir, "last_state", "skipped: not on this machine\n");
	expect_in_file(f->dir, "stdout", "t: skipped: not on this machine\n");
}

static void test_stopped_while_running(void **state)
{
	struct fixture *f = *state;
	const char *dir;

	prep_mode = PREP_OK;
	run_mode = RUN_STOP;
	assert_int_equal(one_run(f, JOB_KNOB, &test_bench, false, &dir),
			 ENGINE_STOPPED);
	expect_file(f->dir, "steps", "prepare\nrun\ncleanup\n");
	expect_knobs_back(f);
	/* kept, in place, marked incomplete, with how it ended */
	assert_true(*dir && file_exists(dir));
	expect_in_file(dir, "last_state", "interrupted: 15\n");
	expect_in_file(dir, "last_state", "is_incomplete_run: 1\n");
	expect_file(f->dir, "started", "1");
}

static void test_stopped_before_start(void **state)
{
	struct fixture *f = *state;
	const char *dir;

	prep_mode = PREP_STOP;
	run_mode = RUN_OK;
	assert_int_equal(one_run(f, JOB_KNOB, &test_bench, false, &dir),
			 ENGINE_STOPPED);
	/* the stop came during prepare(): run() is never started */
	expect_file(f->dir, "steps", "prepare\ncleanup\n");
	expect_knobs_back(f);
	expect_in_file(dir, "last_state", "interrupted: 15\n");
	expect_in_file(dir, "last_state", "is_incomplete_run: 1\n");
	expect_file(f->dir, "started", "0");
}

static void test_stop_already_requested(void **state)
{
	struct fixture *f = *state;
	const char *dir;

	prep_mode = PREP_OK;
	run_mode = RUN_OK;
	assert_int_equal(one_run(f, JOB_KNOB, &test_bench, true, &dir),
			 ENGINE_STOPPED);
	/* nothing reserved, nothing prepared, nothing set */
	assert_string_equal(dir, "");
	assert_true(no_entries(f->root.buf));
	expect_file(f->dir, "steps", "");
	expect_knobs_back(f);
}

/* mytest: a command that stops perfsift (its parent) and waits to be ended */
static void test_mytest_stopped(void **state)
{
	struct fixture *f = *state;
	const char *dir;

	assert_int_equal(one_run(f, JOB_KNOB "mytest:\n  cmdline: kill -TERM $PPID; "
				 "while :; do sleep 1; done\n", NULL, false, &dir),
			 ENGINE_STOPPED);
	expect_knobs_back(f);
	expect_in_file(dir, "last_state", "interrupted: 15\n");
	expect_in_file(dir, "last_state", "is_incomplete_run: 1\n");
	expect_in_file(dir, "mytest.time", "Command being timed: \"kill -TERM");
}

/*
 * The real vm-scalability, its prepare() failing on this sysroot (no
 * /proc/meminfo): its half-made state is freed by cleanup() -- a
 * sanitizer build's LeakSanitizer fails the child otherwise.
 */
static void test_vmscal_prepare_fails(void **state)
{
	struct fixture *f = *state;
	const char *dir;

	assert_int_equal(one_run(f, JOB_KNOB "vm-scalability:\n  test: anon-r-seq\n",
				 NULL, false, &dir),
			 ENGINE_FAILED);
	expect_knobs_back(f);
	expect_in_file(dir, "last_state", "prepare_failed: 1\n");
	expect_in_file(f->dir, "stderr", "proc/meminfo'\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_complete_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prepare_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prepare_skips, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stopped_while_running, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stopped_before_start, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_already_requested, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mytest_stopped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_vmscal_prepare_fails, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
