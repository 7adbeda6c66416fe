/*
 * test_knob.c: kernel knobs on a fake sysroot with the journal in a temporary
 * PERFSIFT_KNOB_DIR -- the journal is written before a change, restore_all
 * puts every value back and empties it; several perfsift processes sharing
 * a knob (whatever their result roots) leave it at the original value in
 * whichever order they finish; a killed user's knob is restored by the
 * next command, or by the last live user.
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
#include "setup/knob.h"
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

	path_join(&p, f->root.buf, "journal");
	ret = file_exists(p.buf);
	strbuf_release(&p);
	return ret;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	snprintf(f->dir, sizeof(f->dir), "/tmp/test_knob.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	strbuf_init(&f->root, 0);
	strbuf_init(&f->sysroot, 0);
	path_join(&f->root, f->dir, "knobs");
	setenv("PERFSIFT_KNOB_DIR", f->root.buf, 1);
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

	knob_init(f->sysroot.buf);
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
	/* the run's record */
	strbuf_reset(&v);
	knob_applied(&v);
	assert_string_equal(v.buf,
		"/proc/sys/vm/overcommit_memory 0 -> 2\n"
		"/proc/sys/kernel/printk 4\t4\t1\t7 -> 7\n"
		"/sys/kernel/mm/transparent_hugepage/enabled madvise -> never\n");

	assert_int_equal(knob_restore_all(), 0);
	expect(f, "/proc/sys/vm/overcommit_memory", "0");
	expect(f, "/proc/sys/kernel/printk", "4\t4\t1\t7");
	expect(f, "/sys/kernel/mm/transparent_hugepage/enabled", "madvise");
	assert_false(journal_exists(f));
	/* nothing left: a second restore and a journal restore do nothing */
	assert_int_equal(knob_restore_all(), 0);
	assert_int_equal(knob_restore_journal(false), 0);
	strbuf_release(&err);
	strbuf_release(&v);
}

/*
 * Another perfsift process, driven through a pipe: "s PATH VALUE" sets,
 * "r" releases everything (end of its run), "q" exits; it answers "0" or
 * "1" on success or failure.
 */
struct peer {
	pid_t pid;
	int cmd, ack;
};

static void peer_start(struct fixture *f, struct peer *p)
{
	int c[2], a[2];

	assert_int_equal(pipe(c), 0);
	assert_int_equal(pipe(a), 0);
	p->pid = fork();
	assert_true(p->pid >= 0);
	if (!p->pid) {
		char line[256];
		FILE *in;

		close(c[1]);
		close(a[0]);
		in = fdopen(c[0], "r");
		knob_init(f->sysroot.buf);
		while (fgets(line, sizeof(line), in)) {
			struct strbuf err = STRBUF_INIT;
			char path[128], value[64];
			int r = 1;

			if (sscanf(line, "s %127s %63s", path, value) == 2)
				r = knob_set(path, value, &err) ? 1 : 0;
			else if (line[0] == 'r')
				r = knob_restore_all() ? 1 : 0;
			else if (line[0] == 'q')
				_exit(0); /* other peers hold this pipe too: no EOF */
			if (write(a[1], r ? "1" : "0", 1) != 1)
				_exit(2);
			strbuf_release(&err);
		}
		_exit(0);
	}
	close(c[0]);
	close(a[1]);
	p->cmd = c[1];
	p->ack = a[0];
}

static int peer_do(struct peer *p, const char *cmd)
{
	char c = 0;

	assert_int_equal(write(p->cmd, cmd, strlen(cmd)), (ssize_t)strlen(cmd));
	assert_int_equal(read(p->ack, &c, 1), 1);
	return c == '0' ? 0 : -1;
}

static void peer_end(struct peer *p, bool kill_it)
{
	int st;

	if (kill_it)
		kill(p->pid, SIGKILL);
	else
		assert_int_equal(write(p->cmd, "q\n", 2), 2);
	close(p->cmd);
	close(p->ack);
	assert_int_equal(waitpid(p->pid, &st, 0), p->pid);
}

#define OVERCOMMIT "/proc/sys/vm/overcommit_memory"

/* the bug this design fixes: A saves 0 sets 1, B saves 1 sets 1, A restores, B restores */
static void test_two_users_any_order(void **state)
{
	struct fixture *f = *state;
	struct peer a, b;
	int order;

	for (order = 0; order < 2; order++) {
		peer_start(f, &a);
		peer_start(f, &b);
		assert_int_equal(peer_do(&a, "s " OVERCOMMIT " 1\n"), 0);
		assert_int_equal(peer_do(&b, "s " OVERCOMMIT " 1\n"), 0);
		expect(f, OVERCOMMIT, "1");
		/* the first to finish leaves it: the other still measures with it */
		assert_int_equal(peer_do(order ? &b : &a, "r\n"), 0);
		expect(f, OVERCOMMIT, "1");
		assert_true(journal_exists(f));
		assert_int_equal(peer_do(order ? &a : &b, "r\n"), 0);
		expect(f, OVERCOMMIT, "0");
		assert_false(journal_exists(f));
		peer_end(&a, false);
		peer_end(&b, false);
	}
}

static void test_conflicting_value_refused(void **state)
{
	struct fixture *f = *state;
	struct strbuf err = STRBUF_INIT;
	struct peer a;

	peer_start(f, &a);
	assert_int_equal(peer_do(&a, "s " OVERCOMMIT " 2\n"), 0);
	knob_init(f->sysroot.buf);
	assert_int_equal(knob_set(OVERCOMMIT, "1", &err), -1);
	assert_non_null(strstr(err.buf, "another perfsift"));
	expect(f, OVERCOMMIT, "2");
	/* the same value is shared; our release leaves it to the other user */
	assert_int_equal(knob_set(OVERCOMMIT, "2", &err), 0);
	assert_int_equal(knob_restore_all(), 0);
	expect(f, OVERCOMMIT, "2");
	assert_int_equal(peer_do(&a, "r\n"), 0);
	expect(f, OVERCOMMIT, "0");
	peer_end(&a, false);
	strbuf_release(&err);
}

static void test_journal_after_kill(void **state)
{
	struct fixture *f = *state;
	struct peer a, b;

	peer_start(f, &a);
	assert_int_equal(peer_do(&a, "s " OVERCOMMIT " 1\n"), 0);
	assert_int_equal(peer_do(&a, "s /proc/sys/kernel/printk 3\n"), 0);
	assert_int_equal(peer_do(&a, "s " OVERCOMMIT " 2\n"), 0);
	expect(f, OVERCOMMIT, "2");
	/* the owner is alive: its knobs are its own business */
	assert_int_equal(knob_restore_journal(true), 0);
	expect(f, OVERCOMMIT, "2");
	assert_true(journal_exists(f));

	peer_end(&a, true);
	assert_int_equal(knob_restore_journal(false), 2);
	expect(f, OVERCOMMIT, "0");
	expect(f, "/proc/sys/kernel/printk", "4\t4\t1\t7");
	assert_false(journal_exists(f));
	assert_int_equal(knob_restore_journal(true), 0);

	/* killed while another user runs: the last live user restores the original */
	peer_start(f, &a);
	peer_start(f, &b);
	assert_int_equal(peer_do(&a, "s " OVERCOMMIT " 1\n"), 0);
	assert_int_equal(peer_do(&b, "s " OVERCOMMIT " 1\n"), 0);
	peer_end(&a, true);
	assert_int_equal(knob_restore_journal(false), 0);
	expect(f, OVERCOMMIT, "1");
	assert_int_equal(peer_do(&b, "r\n"), 0);
	expect(f, OVERCOMMIT, "0");
	assert_false(journal_exists(f));
	peer_end(&b, false);

	/* a newcomer after a killed user inherits the true original, not the leftover */
	peer_start(f, &a);
	assert_int_equal(peer_do(&a, "s " OVERCOMMIT " 1\n"), 0);
	peer_end(&a, true);
	peer_start(f, &b);
	assert_int_equal(peer_do(&b, "s " OVERCOMMIT " 2\n"), 0);
	assert_int_equal(peer_do(&b, "r\n"), 0);
	expect(f, OVERCOMMIT, "0");
	peer_end(&b, false);
	assert_false(journal_exists(f));
}

static void test_journal_is_atomic(void **state)
{
	struct fixture *f = *state;
	struct strbuf err = STRBUF_INIT, p = STRBUF_INIT, text = STRBUF_INIT;

	knob_init(f->sysroot.buf);
	assert_int_equal(knob_set(OVERCOMMIT, "1", &err), 0);
	/* replaced as a whole: no temporary file left beside it, one complete line */
	path_join(&p, f->root.buf, "journal");
	assert_int_equal(strbuf_read_file(&text, p.buf, 0), 0);
	assert_non_null(strstr(text.buf, "\t0\t1\n"));
	assert_int_equal(strchr(text.buf, '\n') - text.buf + 1, (long)text.len);
	path_join(&p, f->root.buf, "journal.tmp");
	assert_false(file_exists(p.buf));
	/* a journal with a torn line (an older writer's crash): skipped, the rest used */
	strbuf_addstr(&text, "123\tgarbage\n");
	path_join(&p, f->root.buf, "journal");
	assert_int_equal(write_file_atomic(p.buf, text.buf, text.len), 0);
	assert_int_equal(knob_restore_all(), 0);
	expect(f, OVERCOMMIT, "0");
	strbuf_release(&err);
	strbuf_release(&p);
	strbuf_release(&text);
}

static void test_no_journal_creates_nothing(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(knob_restore_journal(false), 0);
	assert_false(dir_exists(f->root.buf));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_set_and_restore, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_users_any_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_conflicting_value_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_after_kill, setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_is_atomic, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_journal_creates_nothing, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
