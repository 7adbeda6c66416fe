/*
 * test_runner.c: the benchmark process -- exit statuses, output files,
 * rusage, the timeout, the process group ended with its leader, a SIGKILL
 * perfsift did not send, and SIGINT turned into an orderly stop.
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "run/runner.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/timeutil.h"

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_runner.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	runner_block_signals();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return remove_tree(tmpdir);
}

static void run_sh(const char *script, double timeout_s,
		   struct runner_result *res)
{
	char *argv[] = {(char *)"/bin/sh", (char *)"-c", (char *)script, NULL};
	struct runner_cmd cmd = {0};
	struct strbuf err = STRBUF_INIT;

	cmd.argv = argv;
	cmd.timeout_s = timeout_s;
	cmd.kill_grace_s = 0.5;
	cmd.cwd = tmpdir;
	assert_int_equal(runner_run(&cmd, res, &err), 0);
	strbuf_release(&err);
}

static void test_exit_status(void **state)
{
	struct runner_result res;
	struct strbuf d = STRBUF_INIT;
	double t0, t1;

	(void)state;
	t0 = time_mono_s();
	run_sh("exit 3", 0, &res);
	t1 = time_mono_s();
	assert_true(WIFEXITED(res.wait_status));
	assert_int_equal(WEXITSTATUS(res.wait_status), 3);
	assert_false(res.timed_out);
	assert_int_equal(res.stop_signal, 0);
	/* the benchmark's own time: within the call, however long it took */
	assert_true(res.elapsed_s > 0 && res.elapsed_s <= t1 - t0);
	runner_describe(&res, &d);
	assert_string_equal(d.buf, "exit status 3");
	strbuf_release(&d);
}

static int busy_child(void *arg)
{
	volatile unsigned long x = 0;
	unsigned long i;

	printf("hello %s\n", (const char *)arg);
	fprintf(stderr, "to stderr\n");
	for (i = 0; i < 100000000ul; i++)
		x += i;
	return (int)(x & 0);
}

static void test_fn_child_output_and_rusage(void **state)
{
	struct runner_cmd cmd = {0};
	struct runner_result res;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT, p1 = STRBUF_INIT,
		      p2 = STRBUF_INIT;

	(void)state;
	path_join(&p1, tmpdir, "out");
	path_join(&p2, tmpdir, "err");
	cmd.fn = busy_child;
	cmd.arg = (void *)"world";
	cmd.stdout_path = p1.buf;
	cmd.stderr_path = p2.buf;
	assert_int_equal(runner_run(&cmd, &res, &err), 0);
	assert_true(WIFEXITED(res.wait_status));
	assert_int_equal(WEXITSTATUS(res.wait_status), 0);
	assert_true(res.ru.ru_utime.tv_sec > 0 || res.ru.ru_utime.tv_usec > 0);
	assert_true(res.ru.ru_maxrss > 0);
	assert_int_equal(read_text_file(&out, p1.buf, 100), 0);
	assert_string_equal(out.buf, "hello world");
	assert_int_equal(read_text_file(&out, p2.buf, 100), 0);
	assert_string_equal(out.buf, "to stderr");
	/* an output file that cannot be created: nothing runs */
	cmd.stdout_path = "/nonexistent/dir/out";
	assert_int_equal(runner_run(&cmd, &res, &err), -1);
	assert_non_null(strstr(err.buf, "/nonexistent/dir/out"));
	strbuf_release(&err);
	strbuf_release(&out);
	strbuf_release(&p1);
	strbuf_release(&p2);
}

static void test_exec_failure(void **state)
{
	char *argv[] = {(char *)"/nonexistent/benchmark", NULL};
	struct runner_cmd cmd = {0};
	struct runner_result res;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	cmd.argv = argv;
	cmd.stderr_path = "/dev/null";
	assert_int_equal(runner_run(&cmd, &res, &err), 0);
	assert_true(WIFEXITED(res.wait_status));
	assert_int_equal(WEXITSTATUS(res.wait_status), 127);
	strbuf_release(&err);
}

/*
 * dead: reaped, or a zombie (init here may be slow to reap orphans);
 * polled for 30 s at most, as long as a loaded machine needs
 */
static bool pid_gone(pid_t pid)
{
	struct strbuf path = STRBUF_INIT, stat = STRBUF_INIT;
	const char *p;
	bool gone = false;
	int i;

	strbuf_addf(&path, "/proc/%ld/stat", (long)pid);
	for (i = 0; i < 1500 && !gone; i++) {
		if (kill(pid, 0) < 0 && errno == ESRCH)
			gone = true;
		else if (!read_text_file(&stat, path.buf, 4096) &&
			 (p = strrchr(stat.buf, ')')) && p[1] == ' ' && p[2] == 'Z')
			gone = true;
		else
			usleep(20000);
	}
	strbuf_release(&path);
	strbuf_release(&stat);
	return gone;
}

static pid_t read_pid(const char *name)
{
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT;
	long pid;

	path_join(&p, tmpdir, name);
	assert_int_equal(read_text_file(&v, p.buf, 100), 0);
	pid = strtol(v.buf, NULL, 10);
	strbuf_release(&p);
	strbuf_release(&v);
	return (pid_t)pid;
}

static void test_timeout_ends_the_group(void **state)
{
	struct runner_result res;
	struct strbuf d = STRBUF_INIT;

	(void)state;
	/* a grandchild that ignores SIGTERM: SIGKILL after the grace time */
	run_sh("(trap '' TERM; exec sleep 30) & echo $! >bg.pid; sleep 30", 0.3,
	       &res);
	assert_true(res.timed_out);
	/* ended by the timeout, not by the end of the 30 s sleep */
	assert_true(res.elapsed_s >= 0.3 && res.elapsed_s < 30);
	assert_true(WIFSIGNALED(res.wait_status));
	assert_false(res.killed);
	assert_true(pid_gone(read_pid("bg.pid")));
	runner_describe(&res, &d);
	assert_string_equal(d.buf, "ended by the job's timeout");
	strbuf_release(&d);
}

static void test_leftovers_killed(void **state)
{
	struct runner_result res;

	(void)state;
	/* the benchmark exits at once but leaves a process behind */
	run_sh("sleep 30 & echo $! >left.pid; exit 0", 0, &res);
	assert_true(WIFEXITED(res.wait_status));
	assert_true(pid_gone(read_pid("left.pid")));
}

static void test_foreign_sigkill(void **state)
{
	struct runner_result res;
	struct strbuf d = STRBUF_INIT;

	(void)state;
	run_sh("kill -9 $$", 0, &res);
	assert_true(WIFSIGNALED(res.wait_status));
	assert_int_equal(WTERMSIG(res.wait_status), SIGKILL);
	assert_true(res.killed);
	assert_false(res.timed_out);
	runner_describe(&res, &d);
	assert_non_null(strstr(d.buf, "SIGKILL"));
	strbuf_release(&d);
}

/* started with SIGCHLD ignored (inherited): children must not vanish */
static void test_inherited_sigchld_ignore(void **state)
{
	pid_t pid;
	int st;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct runner_result res;

		signal(SIGCHLD, SIG_IGN);
		runner_block_signals();
		run_sh("exit 7", 0, &res);
		_exit(WIFEXITED(res.wait_status) ? WEXITSTATUS(res.wait_status) : 1);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 7);
}

static void interrupt_tick(void *arg, double elapsed_s)
{
	(void)arg;
	(void)elapsed_s;
	raise(SIGINT); /* blocked: stays pending for the runner */
}

/* last: a stop request is sticky for the whole process */
static void test_sigint_stops(void **state)
{
	char *argv[] = {(char *)"/bin/sh", (char *)"-c", (char *)"sleep 30", NULL};
	struct runner_cmd cmd = {0};
	struct runner_result res;
	struct strbuf err = STRBUF_INIT, d = STRBUF_INIT;

	(void)state;
	assert_int_equal(runner_stop_signal(), 0);
	cmd.argv = argv;
	cmd.tick = interrupt_tick;
	cmd.kill_grace_s = 0.5;
	assert_int_equal(runner_run(&cmd, &res, &err), 0);
	assert_int_equal(res.stop_signal, SIGINT);
	assert_false(res.timed_out);
	assert_true(res.elapsed_s < 30); /* stopped, not the sleep's end */
	assert_true(WIFSIGNALED(res.wait_status));
	runner_describe(&res, &d);
	assert_string_equal(d.buf, "interrupted by SIGINT");
	assert_int_equal(runner_stop_signal(), SIGINT);
	/* after a stop request nothing more is started */
	cmd.tick = NULL;
	assert_int_equal(runner_run(&cmd, &res, &err), 0);
	assert_int_equal(res.stop_signal, SIGINT);
	assert_true(res.elapsed_s == 0);
	strbuf_release(&err);
	strbuf_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_status),
		cmocka_unit_test(test_fn_child_output_and_rusage),
		cmocka_unit_test(test_exec_failure),
		cmocka_unit_test(test_timeout_ends_the_group),
		cmocka_unit_test(test_leftovers_killed),
		cmocka_unit_test(test_foreign_sigkill),
		cmocka_unit_test(test_inherited_sigchld_ignore),
		cmocka_unit_test(test_sigint_stops),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
