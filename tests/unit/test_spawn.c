/*
 * test_spawn.c: unit tests for src/util/spawn.c, the one spawner: exit
 * statuses and signals decoded, streams captured, merged, redirected and
 * bounded, the timeout's SIGTERM and SIGKILL, a caller's stop, what a
 * child leaves in its group or cgroup, the fds a child sees (0-2), the
 * user drop (as nobody, when root: its session, stdin) and its refusals,
 * and a tree handed to another user and back to root.
 * Timing assertions are upper bounds only (a loaded machine is slower,
 * never faster), each far below the child's own length, so a test fails
 * only when the stop did not happen.
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "util/fileutil.h"
#include "util/spawn.h"
#include "util/strbuf.h"
#include "util/timeutil.h"

/* sh -c script, stdout and stderr captured: its status */
static int sh_capture(const char *script, struct strbuf *out,
		      struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	struct spawn_cmd c;
	int st;

	spawn_init_sh(&c, script);
	c.out.how = SPAWN_CAPTURE;
	c.out.buf = out;
	c.err.how = SPAWN_CAPTURE;
	c.err.buf = err;
	st = spawn_run(&c, &why);
	spawn_release(&c);
	strbuf_release(&why);
	return st;
}

static void test_exit_and_signal(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const char *argv[] = {"perfsift-no-such-program", NULL};
	struct spawn_cmd c;

	(void)state;
	assert_int_equal(sh_capture("exit 0", &out, &err), 0);
	assert_int_equal(sh_capture("exit 3", &out, &err), 3);
	assert_int_equal(sh_capture("exit 255", &out, &err), 255);
	assert_int_equal(sh_capture("kill -USR1 $$", &out, &err),
			 128 + SIGUSR1);
	assert_int_equal(sh_capture("kill -KILL $$", &out, &err),
			 128 + SIGKILL);
	/* a program not on PATH: 127, and the child says why */
	strbuf_reset(&err);
	spawn_init(&c);
	c.argv = argv;
	c.err.how = SPAWN_CAPTURE;
	c.err.buf = &err;
	assert_int_equal(spawn_run(&c, &out), 127);
	assert_non_null(strstr(err.buf, "perfsift-no-such-program"));
	spawn_release(&c);
	strbuf_release(&out);
	strbuf_release(&err);
}

static void test_streams(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT, why = STRBUF_INIT;
	char dir[] = "/tmp/spawn-test-XXXXXX", in_path[64], log_path[64];
	const char *env[] = {"SPAWN_T_A=one", NULL};
	const char *unset[] = {"SPAWN_T_B", NULL};
	struct spawn_cmd c;

	(void)state;
	/* both streams at once: a big stderr cannot block a small stdout */
	assert_int_equal(sh_capture("i=0; while [ $i -lt 2000 ]; do "
				    "echo 0123456789012345678901234567890 >&2; "
				    "i=$((i+1)); done; echo done",
				    &out, &err), 0);
	assert_string_equal(out.buf, "done\n");
	assert_int_equal(err.len, 2000 * 32);

	/* stdin from a file, cwd, env added and removed, 2>&1 into a file */
	assert_non_null(mkdtemp(dir));
	snprintf(in_path, sizeof(in_path), "%s/in", dir);
	snprintf(log_path, sizeof(log_path), "%s/log", dir);
	assert_int_equal(write_file_atomic(in_path, "from the file\n", 14), 0);
	setenv("SPAWN_T_B", "two", 1);
	spawn_init_sh(&c, "cat; pwd; echo \"$SPAWN_T_A ${SPAWN_T_B-gone}\"; "
			  "echo to-stderr >&2");
	c.in.how = SPAWN_FILE;
	c.in.path = in_path;
	c.cwd = dir;
	c.env = env;
	c.unset = unset;
	c.out.how = SPAWN_FILE;
	c.out.path = log_path;
	c.err.how = SPAWN_TO_STDOUT;
	assert_int_equal(spawn_run(&c, &why), 0);
	spawn_release(&c);
	strbuf_reset(&out);
	assert_true(strbuf_read_file(&out, log_path, 4096) >= 0);
	strbuf_reset(&err);
	strbuf_addf(&err, "from the file\n%s\none gone\nto-stderr\n", dir);
	assert_string_equal(out.buf, err.buf);
	/* ours is untouched: only the child's copy lost it */
	assert_string_equal(getenv("SPAWN_T_B"), "two");
	unsetenv("SPAWN_T_B");

	/* a missing stdin file is the caller's error, nothing started */
	strbuf_reset(&why);
	spawn_init_sh(&c, "exit 0");
	c.in.how = SPAWN_FILE;
	c.in.path = "/tmp/spawn-test-no-such-file";
	assert_int_equal(spawn_run(&c, &why), -1);
	assert_non_null(strstr(why.buf, "spawn-test-no-such-file"));
	spawn_release(&c);

	unlink(in_path);
	unlink(log_path);
	rmdir(dir);
	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&why);
}

static void test_capture_limit(void **state)
{
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
	const char *argv[] = {"yes", "perfsift", NULL};
	struct spawn_cmd c;
	int st;

	(void)state;
	/* endless output: stopped at the limit, never more kept */
	spawn_init(&c);
	c.argv = argv;
	c.out.how = SPAWN_CAPTURE;
	c.out.buf = &out;
	c.capture_max = 100000;
	c.own_group = true;
	st = spawn_run(&c, &why);
	assert_true(c.overflow);
	assert_true(st > 128); /* SIGPIPE or SIGTERM, never a clean exit */
	assert_true(out.len <= 100000);
	spawn_release(&c);

	/* under the limit: all of it, no overflow */
	strbuf_reset(&out);
	spawn_init_sh(&c, "head -c 5000 /dev/zero");
	c.out.how = SPAWN_CAPTURE;
	c.out.buf = &out;
	c.capture_max = 5000;
	assert_int_equal(spawn_run(&c, &why), 0);
	assert_false(c.overflow);
	assert_int_equal(out.len, 5000);
	spawn_release(&c);
	strbuf_release(&out);
	strbuf_release(&why);
}

/*
 * sh -c script in its own group with a 0.2 s timeout (grace_ms, 0 for
 * the default, before SIGKILL): it ends by signal sig, marked timed out,
 * well before the script itself would have.
 */
static void expect_timed_out(const char *script, int grace_ms, int sig)
{
	struct strbuf why = STRBUF_INIT;
	struct spawn_cmd c;
	uint64_t t0;

	spawn_init_sh(&c, script);
	c.own_group = true;
	c.timeout = 0.2;
	if (grace_ms)
		c.grace_ms = grace_ms;
	t0 = time_mono_ns();
	assert_int_equal(spawn_run(&c, &why), 128 + sig);
	assert_true(c.timed_out);
	assert_true(time_mono_ns() - t0 < 30 * 1000000000ull);
	spawn_release(&c);
	strbuf_release(&why);
}

static void test_timeout(void **state)
{
	struct strbuf why = STRBUF_INIT;
	struct spawn_cmd c;

	(void)state;
	/* SIGTERM at the deadline, to the whole group (the sleep too) */
	expect_timed_out("sleep 60; exit 0", 0, SIGTERM);
	/* one that ignores SIGTERM gets SIGKILL after the grace */
	expect_timed_out("trap '' TERM; while :; do sleep 0.1; done", 300,
			 SIGKILL);

	/* no timeout: a quick child is not touched */
	spawn_init_sh(&c, "sleep 0.1; exit 4");
	assert_int_equal(spawn_run(&c, &why), 4);
	assert_false(c.timed_out);
	spawn_release(&c);
	strbuf_release(&why);
}

static int ticks;

static int stop_on_third(void *arg)
{
	(void)arg;
	return ++ticks >= 3 ? 7 : 0;
}

static void test_tick_stop(void **state)
{
	struct strbuf why = STRBUF_INIT;
	struct spawn_cmd c;

	(void)state;
	ticks = 0;
	spawn_init_sh(&c, "sleep 60");
	c.own_group = true;
	c.tick = stop_on_third;
	c.tick_ms = 20;
	assert_int_equal(spawn_run(&c, &why), 128 + SIGTERM);
	assert_int_equal(c.stopped, 7);
	assert_int_equal(ticks, 3); /* not called once it said stop */
	assert_false(c.timed_out);
	spawn_release(&c);
	strbuf_release(&why);
}

/* true when pid is gone or a zombie nobody reaped yet */
static bool dead(long pid)
{
	struct strbuf path = STRBUF_INIT, st = STRBUF_INIT;
	const char *p;
	bool gone;

	strbuf_addf(&path, "/proc/%ld/stat", pid);
	gone = strbuf_read_file(&st, path.buf, 4096) < 0 ||
	       ((p = strrchr(st.buf, ')')) && p[1] == ' ' && p[2] == 'Z');
	strbuf_release(&path);
	strbuf_release(&st);
	return gone;
}

static void test_leftovers(void **state)
{
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
	struct spawn_cmd c;
	long pid;
	int i;

	(void)state;
	/* kill_group: what the child left in its group dies with it */
	spawn_init_sh(&c, "sleep 60 & echo $!");
	c.out.how = SPAWN_CAPTURE;
	c.out.buf = &out;
	c.own_group = c.kill_group = true;
	assert_int_equal(spawn_run(&c, &why), 0);
	spawn_release(&c);
	pid = strtol(out.buf, NULL, 10);
	assert_true(pid > 0);
	for (i = 0; i < 500 && !dead(pid); i++)
		usleep(10000);
	assert_true(dead(pid));

	/* contain: left processes are counted, named and killed */
	strbuf_reset(&out);
	spawn_init_sh(&c, "sleep 60 >/dev/null & echo $!");
	c.out.how = SPAWN_CAPTURE;
	c.out.buf = &out;
	c.contain = true;
	assert_int_equal(spawn_run(&c, &why), 0);
	assert_int_equal(c.nleft, 1);
	assert_non_null(c.left);
	pid = strtol(out.buf, NULL, 10);
	assert_true(pid > 0);
	assert_int_equal(strtol(c.left, NULL, 10), pid);
	spawn_release(&c);
	for (i = 0; i < 500 && !dead(pid); i++)
		usleep(10000);
	assert_true(dead(pid));
	strbuf_release(&out);
	strbuf_release(&why);
}

/*
 * A child sees 0-2 only: an fd of ours without O_CLOEXEC (a library's)
 * is closed at its exec.  sh lists its own fds (`; :` keeps dash from
 * exec'ing ls in its place, whose listing would hold its own).
 */
static void test_only_std_fds(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int fd = open("/dev/null", O_RDONLY), high;

	(void)state;
	assert_true(fd >= 0);
	high = dup2(fd, 40); /* and one far up, not only the next free */
	assert_int_equal(high, 40);
	assert_int_equal(sh_capture("ls /proc/$$/fd; :", &out, &err), 0);
	assert_string_equal(out.buf, "0\n1\n2\n");
	/* still ours */
	assert_int_equal(fcntl(fd, F_GETFD), 0);
	close(fd);
	close(high);
	strbuf_release(&out);
	strbuf_release(&err);
}

static void test_user(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct spawn_user u;
	struct spawn_cmd c;
	const char *argv[] = {"id", "-u", NULL};
	int saved_in, zero, rc;

	(void)state;
	assert_int_equal(spawn_user_lookup("perfsift-no-such-user", &u, &err), -1);
	assert_non_null(strstr(err.buf, geteuid() ? "needs root" :
					"no user 'perfsift-no-such-user'"));
	if (geteuid()) {
		strbuf_release(&err);
		skip(); /* a drop needs root */
	}
	strbuf_reset(&err);
	assert_int_equal(spawn_user_lookup("nobody", &u, &err), 0);
	spawn_init(&c);
	c.argv = argv;
	c.user = &u;
	c.cwd = "/";
	c.out.how = SPAWN_CAPTURE;
	c.out.buf = &out;
	assert_int_equal(spawn_run(&c, &err), 0);
	strbuf_rtrim(&out);
	strbuf_addf(&err, "%ld", (long)u.uid);
	assert_string_equal(out.buf, err.buf + err.len - strlen(out.buf));
	spawn_release(&c);
	/* and it cannot write where only root may */
	strbuf_reset(&out);
	strbuf_reset(&err);
	spawn_init_sh(&c, "echo x > /root/perfsift-spawn-test && echo wrote");
	c.user = &u;
	c.cwd = "/";
	c.out.how = SPAWN_CAPTURE;
	c.out.buf = &out;
	c.err.how = SPAWN_CAPTURE;
	c.err.buf = &err;
	assert_int_not_equal(spawn_run(&c, &err), 0);
	assert_string_equal(out.buf, "");
	assert_int_not_equal(access("/root/perfsift-spawn-test", F_OK), 0);
	spawn_release(&c);

	/*
	 * Another user's child: a session of its own (no controlling
	 * terminal, so no TIOCSTI into ours) and stdin /dev/null, not
	 * ours.  Field 6 of /proc/self/stat is the session; sh reads it
	 * itself (a builtin's redirection), so self is sh.  Our stdin
	 * /dev/zero meanwhile: it may be /dev/null already.
	 */
	strbuf_reset(&out);
	strbuf_reset(&err);
	saved_in = dup(0);
	assert_true(saved_in >= 0);
	zero = open("/dev/zero", O_RDONLY);
	assert_true(zero >= 0);
	assert_int_equal(dup2(zero, 0), 0);
	close(zero);
	spawn_init_sh(&c, "read -r p comm st pp pg sid rest </proc/self/stat && "
			  "test \"$sid\" = $$ && readlink /proc/$$/fd/0");
	c.user = &u;
	c.cwd = "/";
	c.out.how = SPAWN_CAPTURE;
	c.out.buf = &out;
	c.err.how = SPAWN_CAPTURE;
	c.err.buf = &err;
	rc = spawn_run(&c, &err);
	assert_int_equal(dup2(saved_in, 0), 0);
	close(saved_in);
	assert_int_equal(rc, 0);
	assert_string_equal(out.buf, "/dev/null\n");
	spawn_release(&c);

	/* a tree handed over: every entry, a link itself but not its target */
	{
		char dir[] = "/tmp/spawn-test-XXXXXX", sub[64], file[64],
		     link[64], target[] = "/tmp/spawn-test-target-XXXXXX";
		struct stat st;
		int fd;

		assert_non_null(mkdtemp(dir));
		fd = mkstemp(target);
		assert_true(fd >= 0);
		close(fd);
		snprintf(sub, sizeof(sub), "%s/d", dir);
		snprintf(file, sizeof(file), "%s/d/f", dir);
		snprintf(link, sizeof(link), "%s/d/l", dir);
		assert_int_equal(mkdir(sub, 0755), 0);
		assert_int_equal(write_file_atomic(file, "x", 1), 0);
		assert_int_equal(symlink(target, link), 0);
		strbuf_reset(&err);
		assert_int_equal(spawn_chown_tree(dir, u.uid, u.gid, &err), 0);
		assert_int_equal(stat(file, &st), 0);
		assert_int_equal(st.st_uid, u.uid);
		assert_int_equal(lstat(link, &st), 0);
		assert_int_equal(st.st_uid, u.uid);
		assert_int_equal(stat(target, &st), 0);
		assert_int_equal(st.st_uid, 0);
		/*
		 * Handed back to root, nobody else may write it: not a file
		 * made 0666, not a directory 0777 (nor set-gid); a link's
		 * target keeps its mode.
		 */
		assert_int_equal(chmod(file, 0666), 0);
		assert_int_equal(chmod(sub, 02777), 0);
		assert_int_equal(chmod(target, 0666), 0);
		assert_int_equal(spawn_chown_tree(dir, 0, 0, &err), 0);
		assert_int_equal(stat(file, &st), 0);
		assert_int_equal(st.st_uid, 0);
		assert_int_equal(st.st_mode & 07777, 0644);
		assert_int_equal(stat(sub, &st), 0);
		assert_int_equal(st.st_mode & 07777, 0755);
		assert_int_equal(stat(target, &st), 0);
		assert_int_equal(st.st_mode & 07777, 0666);
		/* spawn_kill_user() is t9356's, with a user of its own:
		 * here it would kill every process of nobody's */
		unlink(link);
		unlink(file);
		rmdir(sub);
		rmdir(dir);
		unlink(target);
	}
	spawn_user_release(&u);
	strbuf_release(&out);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_and_signal),
		cmocka_unit_test(test_streams),
		cmocka_unit_test(test_capture_limit),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_tick_stop),
		cmocka_unit_test(test_leftovers),
		cmocka_unit_test(test_only_std_fds),
		cmocka_unit_test(test_user),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
