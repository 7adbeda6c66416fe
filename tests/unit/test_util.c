/*
 * test_util.c: unit tests for src/util (strbuf, strnum, paths, atomic files).
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "util/dynlib.h"
#include "util/fileutil.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/sorted.h"
#include "util/timeutil.h"

static void test_strbuf_invariants(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char *p;
	size_t len;
	int i;

	(void)state;
	assert_non_null(sb.buf);
	assert_string_equal(sb.buf, "");
	strbuf_addstr(&sb, "abc");
	strbuf_addch(&sb, 'd');
	strbuf_addf(&sb, "%d-%s", 42, "x");
	assert_string_equal(sb.buf, "abcd42-x");
	for (i = 0; i < 1000; i++)
		strbuf_addf(&sb, "%04d", i);
	assert_int_equal(sb.len, 8 + 4000);
	assert_int_equal(strlen(sb.buf), sb.len);
	strbuf_setlen(&sb, 3);
	assert_string_equal(sb.buf, "abc");
	p = strbuf_detach(&sb, &len);
	assert_int_equal(len, 3);
	assert_string_equal(p, "abc");
	assert_string_equal(sb.buf, "");
	free(p);
	strbuf_addstr(&sb, "  trim me \n");
	strbuf_trim(&sb);
	assert_string_equal(sb.buf, "trim me");
	strbuf_reset(&sb);
	strbuf_add_html(&sb, "<a href=\"x\">&'");
	assert_string_equal(sb.buf, "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
	strbuf_reset(&sb);
	strbuf_add_json_str(&sb, "a\"b\\c\n");
	assert_string_equal(sb.buf, "\"a\\\"b\\\\c\\n\"");
	strbuf_release(&sb);
}

static void test_strnum(void **state)
{
	long long v;
	double d;
	uint64_t u;
	const char *why = NULL;

	(void)state;
	assert_int_equal(strnum_ll("42", 0, 100, &v, &why), 0);
	assert_int_equal(v, 42);
	assert_int_equal(strnum_ll("420", 0, 100, &v, &why), -1);
	assert_string_equal(why, "too large");
	assert_int_equal(strnum_ll("4x", 0, 100, &v, &why), -1);
	assert_int_equal(strnum_ll("", 0, 100, &v, &why), -1);
	assert_int_equal(strnum_double("1.5e3", &d, &why), 0);
	assert_true(d == 1500.0);
	assert_int_equal(strnum_double("nan", &d, &why), -1);
	assert_int_equal(strnum_size("16G", &u, &why), 0);
	assert_true(u == 16ull << 30);
	assert_int_equal(strnum_size("1T", &u, &why), 0);
	assert_true(u == 1ull << 40);
	assert_int_equal(strnum_size("4096", &u, &why), 0);
	assert_true(u == 4096);
	assert_int_equal(strnum_size("1.5k", &u, &why), 0);
	assert_true(u == 1536);
	assert_int_equal(strnum_size("12Q", &u, &why), -1);
	assert_int_equal(strnum_seconds("300s", &d, &why), 0);
	assert_true(d == 300.0);
	assert_int_equal(strnum_seconds("5m", &d, &why), 0);
	assert_true(d == 300.0);
	assert_int_equal(strnum_seconds("soon", &d, &why), -1);
}

static void test_paths(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	path_join(&sb, "/a/b/", "/c");
	assert_string_equal(sb.buf, "/a/b/c");
	path_join(&sb, "a", "c");
	assert_string_equal(sb.buf, "a/c");
	path_dirname(&sb, "/a/b/c");
	assert_string_equal(sb.buf, "/a/b");
	path_dirname(&sb, "c");
	assert_string_equal(sb.buf, ".");
	assert_string_equal(path_basename("/a/b/c.yaml"), "c.yaml");
	strbuf_release(&sb);
}

static void test_atomic_write(void **state)
{
	char dir[] = "/tmp/perfsift-unit.XXXXXX";
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path_join(&path, dir, "x/y/z");
	assert_int_equal(mkdir_p(path.buf, 0755), 0);
	assert_true(dir_exists(path.buf));
	path_join(&path, dir, "x/y/z/file");
	assert_int_equal(write_file_atomic(path.buf, "hello\n", 6), 0);
	assert_int_equal(read_text_file(&sb, path.buf, 100), 0);
	assert_string_equal(sb.buf, "hello");
	assert_int_equal(write_file_atomic(path.buf, "bye", 3), 0);
	assert_int_equal(read_text_file(&sb, path.buf, 100), 0);
	assert_string_equal(sb.buf, "bye");
	/* the size cap is honoured */
	assert_int_equal(read_text_file(&sb, path.buf, 2), -1);
	assert_int_equal(remove_tree(dir), 0);
	assert_false(dir_exists(dir));
	strbuf_release(&path);
	strbuf_release(&sb);
}

/*
 * file_holds: the very bytes of a regular file of its own name; a larger
 * or shorter file, a link to a match, a hard-linked match, a FIFO (never
 * blocking) and a missing file are no match.
 */
static void test_file_holds(void **state)
{
	char dir[] = "/tmp/perfsift-unit.XXXXXX";
	struct strbuf path = STRBUF_INIT, other = STRBUF_INIT;
	char big[20000];

	(void)state;
	assert_non_null(mkdtemp(dir));
	path_join(&path, dir, "f");
	assert_false(file_holds(path.buf, "abc", 3));
	assert_int_equal(write_file_atomic(path.buf, "abc", 3), 0);
	assert_true(file_holds(path.buf, "abc", 3));
	assert_false(file_holds(path.buf, "abd", 3));
	assert_false(file_holds(path.buf, "ab", 2));
	assert_false(file_holds(path.buf, "abcd", 4));
	/* more than one read's buffer, differing only in its last byte */
	memset(big, 'x', sizeof(big));
	assert_int_equal(write_file_atomic(path.buf, big, sizeof(big)), 0);
	assert_true(file_holds(path.buf, big, sizeof(big)));
	big[sizeof(big) - 1] = 'y';
	assert_false(file_holds(path.buf, big, sizeof(big)));
	assert_int_equal(write_file_atomic(path.buf, "", 0), 0);
	assert_true(file_holds(path.buf, "", 0));
	assert_int_equal(write_file_atomic(path.buf, "abc", 3), 0);
	path_join(&other, dir, "link");
	assert_int_equal(symlink(path.buf, other.buf), 0);
	assert_false(file_holds(other.buf, "abc", 3));
	path_join(&other, dir, "hard");
	assert_int_equal(link(path.buf, other.buf), 0);
	assert_false(file_holds(path.buf, "abc", 3));
	path_join(&other, dir, "fifo");
	assert_int_equal(mkfifo(other.buf, 0600), 0);
	assert_false(file_holds(other.buf, "", 0));
	assert_int_equal(remove_tree(dir), 0);
	strbuf_release(&path);
	strbuf_release(&other);
}

/* file_put: an append, a sparse file of a size, an error with errno */
static void test_file_put(void **state)
{
	char dir[] = "/tmp/perfsift-unit.XXXXXX";
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	uint64_t size = 1 << 20;
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path_join(&path, dir, "last_state");
	assert_int_equal(file_put(path.buf, O_WRONLY | O_CREAT | O_APPEND, 0666,
				  "a: 1\n", 5, NULL), 0);
	assert_int_equal(file_put(path.buf, O_WRONLY | O_CREAT | O_APPEND, 0666,
				  "b: 2\n", 5, NULL), 0);
	assert_int_equal(read_text_file(&sb, path.buf, 100), 0);
	assert_string_equal(sb.buf, "a: 1\nb: 2");
	path_join(&path, dir, "sparse");
	assert_int_equal(file_put(path.buf, O_WRONLY | O_CREAT, 0644, NULL, 0,
				  &size), 0);
	assert_int_equal(stat(path.buf, &st), 0);
	assert_int_equal(st.st_size, 1 << 20);
	/* a directory that is not there: -1, and errno says why */
	path_join(&path, dir, "no/such");
	errno = 0;
	assert_int_equal(file_put(path.buf, O_WRONLY | O_CREAT, 0644, "x", 1,
				  NULL), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(remove_tree(dir), 0);
	strbuf_release(&path);
	strbuf_release(&sb);
}

/* a library loaded on first use: found and called; missing, named */
/*
 * write_all through a pipe much larger than the pipe's buffer, with a slow
 * reader: write() returns short many times, and every byte must arrive in
 * order.  Then the errors: a closed reader (EPIPE) and a bad fd.
 */
static void test_write_all(void **state)
{
	size_t len = 1 << 20, got = 0, i;
	char *buf = malloc(len), *back = malloc(len);
	int fds[2];
	pid_t pid;

	(void)state;
	for (i = 0; i < len; i++)
		buf[i] = (char)(i * 7 + i / 251);
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(fds[0]);
		_exit(write_all(fds[1], buf, len) ? 1 : 0);
	}
	close(fds[1]);
	while (got < len) {
		ssize_t n = read(fds[0], back + got, 4096 < len - got ? 4096 : len - got);

		assert_true(n > 0);
		got += (size_t)n;
	}
	close(fds[0]);
	{
		int st;

		assert_int_equal(waitpid(pid, &st, 0), pid);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	assert_memory_equal(buf, back, len);

	signal(SIGPIPE, SIG_IGN);
	assert_int_equal(pipe(fds), 0);
	close(fds[0]);
	errno = 0;
	assert_int_equal(write_all(fds[1], "x", 1), -1);
	assert_int_equal(errno, EPIPE);
	close(fds[1]);
	signal(SIGPIPE, SIG_DFL);
	errno = 0;
	assert_int_equal(write_all(-1, "x", 1), -1);
	assert_int_equal(errno, EBADF);
	assert_int_equal(write_all(-1, "", 0), 0); /* nothing to write */
	free(buf);
	free(back);
}

static int cmp_int_key(const void *key, const void *elem)
{
	int a = *(const int *)key, b = *(const int *)elem;

	return (a > b) - (a < b);
}

/* the first element not less than the key: ends, duplicates, gaps, n = 0 */
static void test_sorted_lower_bound(void **state)
{
	static const int v[] = { 1, 3, 3, 3, 7, 9 };
	static const struct { int key; size_t at; } cases[] = {
		{ 0, 0 }, { 1, 0 }, { 2, 1 }, { 3, 1 }, { 4, 4 },
		{ 7, 4 }, { 8, 5 }, { 9, 5 }, { 10, 6 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		assert_int_equal(sorted_lower_bound(&cases[i].key, v, ARRAY_SIZE(v),
						    sizeof(*v), cmp_int_key),
				 cases[i].at);
	assert_int_equal(sorted_lower_bound(&cases[0].key, v, 0, sizeof(*v),
					    cmp_int_key), 0);
}

/* the clocks: monotonic never goes back; the two wall-clock forms agree */
static void test_clocks(void **state)
{
	uint64_t a = time_mono_ns(), b = time_mono_ns();
	uint64_t c0 = time_thread_cpu_ns(), c1;
	struct timespec ts = time_epoch_ts();
	double e = time_epoch_s();
	volatile unsigned long spin = 0;

	(void)state;
	assert_true(b >= a);
	while ((c1 = time_thread_cpu_ns()) == c0)
		spin++; /* the thread's CPU clock moves only while it runs */
	assert_true(c1 > c0);
	assert_true(ts.tv_nsec >= 0 && ts.tv_nsec < 1000000000L);
	/* read one after the other: within a minute even on a loaded box */
	assert_true(e >= (double)ts.tv_sec && e < (double)ts.tv_sec + 60);
}

static void test_dynlib(void **state)
{
	struct { double (*cos)(double); double (*sqrt)(double); } m;
	static const char *const names[] = { "cos", "sqrt" };
	struct dynlib lib = { "libm.so.6", "a test", names, 2, &m, NULL };
	struct dynlib none = { "libperfsift-none.so.0", "the frobnicator",
			       names, 2, &m, NULL };
	static const char *const bad_names[] = { "cos", "no_such_function" };
	struct dynlib bad = { "libm.so.6", "a test", bad_names, 2, &m, NULL };
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(dynlib_load(&lib, &err), 0);
	assert_true(m.cos(0) == 1.0 && m.sqrt(16) == 4.0);
	assert_int_equal(dynlib_load(&lib, &err), 0); /* once is enough */
	assert_int_equal(dynlib_load(&none, &err), -1);
	assert_non_null(strstr(err.buf, "the frobnicator needs libperfsift-none.so.0"));
	assert_null(none.handle);
	strbuf_reset(&err);
	assert_int_equal(dynlib_load(&bad, &err), -1);
	assert_non_null(strstr(err.buf, "no_such_function()"));
	assert_null(bad.handle);
	strbuf_release(&err);
}

/* FNV-1a 64's published test vectors, and hashing in pieces */
static void test_fnv1a64(void **state)
{
	(void)state;
	assert_true(fnv1a64(FNV1A64_INIT, "", 0) == 0xcbf29ce484222325ULL);
	assert_true(fnv1a64(FNV1A64_INIT, "a", 1) == 0xaf63dc4c8601ec8cULL);
	assert_true(fnv1a64(FNV1A64_INIT, "foobar", 6) == 0x85944171f73967e8ULL);
	assert_true(fnv1a64(fnv1a64(FNV1A64_INIT, "foo", 3), "bar", 3) ==
		    0x85944171f73967e8ULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strbuf_invariants),
		cmocka_unit_test(test_strnum),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_atomic_write),
		cmocka_unit_test(test_file_holds),
		cmocka_unit_test(test_write_all),
		cmocka_unit_test(test_file_put),
		cmocka_unit_test(test_sorted_lower_bound),
		cmocka_unit_test(test_clocks),
		cmocka_unit_test(test_dynlib),
		cmocka_unit_test(test_fnv1a64),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
