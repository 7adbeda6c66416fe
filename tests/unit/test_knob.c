/*
 * test_knob.c: kernel knobs on a fake sysroot -- the journal is written
 * before a change, restore_all puts every value back and empties it, and
 * the journal of a killed process is restored by the next one (but a live
 * owner's lines are left alone).
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "knob.h"
#include "util/fileutil.h"
#include "util/strbuf.h"

struct fixture {
	char dir[64];
	struct strbuf root, sysroot;
};

static void put(struct fixture *f, const char *path, const char *text)
{
	struct strbuf p = STRBUF_INIT, d = STRBUF_INIT;

	path_join(&p, f->sysroot.buf, path);
	path_dirname(&d, p.buf);
	assert_int_equal(mkdir_p(d.buf, 0755), 0);
	assert_int_equal(write_file_atomic(p.buf, text, strlen(text)), 0);
	strbuf_release(&p);
	strbuf_release(&d);
}

static char *get(struct fixture *f, const char *path)
{
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT;

	path_join(&p, f->sysroot.buf, path);
	assert_int_equal(read_text_file(&v, p.buf, 4096), 0);
	strbuf_release(&p);
	return strbuf_detach(&v, NULL);
}

static bool journal_exists(struct fixture *f)
{
	struct strbuf p = STRBUF_INIT;
	bool ret;

	path_join(&p, f->root.buf, ".knobs-journal");
	ret = file_exists(p.buf);
	strbuf_release(&p);
	return ret;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	strcpy(f->dir, "/tmp/test_knob.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	strbuf_init(&f->root, 0);
	strbuf_init(&f->sysroot, 0);
	path_join(&f->root, f->dir, "result");
	path_join(&f->sysroot, f->dir, "sys");
	put(f, "/proc/sys/vm/overcommit_memory", "0\n");
	put(f, "/proc/sys/kernel/printk", "4\t4\t1\t7\n");
	put(f, "/sys/kernel/mm/transparent_hugepage/enabled",
	    "always [madvise] never\n");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	remove_tree(f->dir);
	strbuf_release(&f->root);
	strbuf_release(&f->sysroot);
	free(f);
	return 0;
}

static void expect(struct fixture *f, const char *path, const char *want)
{
	char *v = get(f, path);

	assert_string_equal(v, want);
	free(v);
}

static void test_set_and_restore(void **state)
{
	struct fixture *f = *state;
	struct strbuf err = STRBUF_INIT, v = STRBUF_INIT;

	knob_init(f->root.buf, f->sysroot.buf);
	assert_int_equal(knob_get("/sys/kernel/mm/transparent_hugepage/enabled", &v), 0);
	assert_string_equal(v.buf, "madvise");
	assert_int_equal(knob_set("/proc/sys/vm/overcommit_memory", "1", &err), 0);
	assert_true(journal_exists(f));
	expect(f, "/proc/sys/vm/overcommit_memory", "1");
	/* set twice: the first saved value wins */
	assert_int_equal(knob_set("/proc/sys/vm/overcommit_memory", "2", &err), 0);
	assert_int_equal(knob_set("/proc/sys/kernel/printk", "7", &err), 0);
	assert_int_equal(knob_set("/sys/kernel/mm/transparent_hugepage/enabled",
				  "never", &err), 0);
	expect(f, "/sys/kernel/mm/transparent_hugepage/enabled", "never");
	/* a missing knob fails, names it, and journals nothing */
	assert_int_equal(knob_set("/proc/sys/vm/no_such", "1", &err), -1);
	assert_non_null(strstr(err.buf, "/proc/sys/vm/no_such"));

	assert_int_equal(knob_restore_all(), 0);
	expect(f, "/proc/sys/vm/overcommit_memory", "0");
	expect(f, "/proc/sys/kernel/printk", "4\t4\t1\t7");
	expect(f, "/sys/kernel/mm/transparent_hugepage/enabled", "madvise");
	assert_false(journal_exists(f));
	/* nothing left: a second restore and a journal restore do nothing */
	assert_int_equal(knob_restore_all(), 0);
	assert_int_equal(knob_restore_journal(f->root.buf, false), 0);
	strbuf_release(&err);
	strbuf_release(&v);
}

/* a child that sets knobs, reports, then waits to be killed */
static pid_t child_setting_knobs(struct fixture *f, int *rfd)
{
	int p[2];
	pid_t pid;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct strbuf err = STRBUF_INIT;

		close(p[0]);
		knob_init(f->root.buf, f->sysroot.buf);
		if (knob_set("/proc/sys/vm/overcommit_memory", "1", &err) ||
		    knob_set("/proc/sys/kernel/printk", "3 3 3 3", &err) ||
		    knob_set("/proc/sys/vm/overcommit_memory", "2", &err))
			_exit(1);
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	*rfd = p[0];
	return pid;
}

static void test_journal_after_kill(void **state)
{
	struct fixture *f = *state;
	struct strbuf err = STRBUF_INIT;
	char c;
	int fd, st;
	pid_t pid = child_setting_knobs(f, &fd);

	assert_int_equal(read(fd, &c, 1), 1);
	close(fd);
	expect(f, "/proc/sys/vm/overcommit_memory", "2");
	/* the owner is alive: its knobs are its own business */
	assert_int_equal(knob_restore_journal(f->root.buf, false), 0);
	expect(f, "/proc/sys/vm/overcommit_memory", "2");
	assert_true(journal_exists(f));
	/* nor may another perfsift change a knob it holds */
	knob_init(f->root.buf, f->sysroot.buf);
	assert_int_equal(knob_set("/proc/sys/vm/overcommit_memory", "0", &err), -1);
	assert_non_null(strstr(err.buf, "another perfsift"));
	expect(f, "/proc/sys/vm/overcommit_memory", "2");
	assert_int_equal(knob_restore_all(), 0);

	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_int_equal(knob_restore_journal(f->root.buf, false), 2);
	expect(f, "/proc/sys/vm/overcommit_memory", "0");
	expect(f, "/proc/sys/kernel/printk", "4\t4\t1\t7");
	assert_false(journal_exists(f));
	assert_int_equal(knob_restore_journal(f->root.buf, true), 0);
	strbuf_release(&err);
}

static void test_no_journal_creates_nothing(void **state)
{
	struct fixture *f = *state;
	struct strbuf p = STRBUF_INIT;

	path_join(&p, f->dir, "nonexistent-root");
	assert_int_equal(knob_restore_journal(p.buf, false), 0);
	assert_false(dir_exists(p.buf));
	strbuf_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_set_and_restore, setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_after_kill, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_journal_creates_nothing, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
