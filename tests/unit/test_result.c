/*
 * test_result.c: unit tests for the result root (result.c) on synthetic
 * run directories: the group path, run numbers (also with two processes
 * at once), finishing complete and cut runs into <m>.json, stats.json,
 * matrix.json and the index, a corrupt raw file, and `stats` re-runs.
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "job/job.h"
#include "result/matrix.h"
#include "result/result.h"
#include "store/store.h"
#include "util/fileutil.h"
#include "util/strbuf.h"

struct fixture {
	char root[64];
	char group[256];
};

static const char *testdata(void)
{
	const char *d = getenv("PERFSIFT_TESTDATA");

	return d ? d : "tests/data";
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	snprintf(f->root, sizeof(f->root), "/tmp/perfsift-result-XXXXXX");
	if (!mkdtemp(f->root))
		return -1;
	snprintf(f->group, sizeof(f->group),
		 "%s/dd/defaults/box/debian/defconfig/gcc-12/abc123", f->root);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	remove_tree(f->root);
	free(f);
	return 0;
}

static void put_file(const char *dir, const char *name, const char *text,
		     size_t len)
{
	struct strbuf p = STRBUF_INIT;

	path_join(&p, dir, name);
	assert_int_equal(write_file_atomic(p.buf, text, len), 0);
	strbuf_release(&p);
}

static void copy_data(const char *dir, const char *name, const char *rel)
{
	struct strbuf in = STRBUF_INIT, p = STRBUF_INIT;

	strbuf_addf(&p, "%s/%s", testdata(), rel);
	assert_int_equal(strbuf_read_file(&in, p.buf, 0), 0);
	put_file(dir, name, in.buf, in.len);
	strbuf_release(&in);
	strbuf_release(&p);
}

static bool has(const char *dir, const char *name)
{
	struct strbuf p = STRBUF_INIT;
	bool ret;

	path_join(&p, dir, name);
	ret = file_exists(p.buf) || dir_exists(p.buf);
	strbuf_release(&p);
	return ret;
}

static void slurp(struct strbuf *sb, const char *dir, const char *name)
{
	struct strbuf p = STRBUF_INIT;

	strbuf_reset(sb);
	path_join(&p, dir, name);
	if (strbuf_read_file(sb, p.buf, 0) < 0)
		fail_msg("cannot read '%s'", p.buf);
	strbuf_release(&p);
}

static const char job_text[] =
	"suite: dd\ntestcase: dd\ncategory: benchmark\nmytest:\n"
	"  cmdline: dd if=/dev/zero of=/dev/null\n"
	"testbox: box-1\ntbox_group: box\nrootfs: /x/debian\n"
	"kconfig: defconfig\ncompiler: gcc-12\ncommit: abc123\nnr_cpu: 2\n";

/* one run: job.yaml, dd.time and the job-wide time file */
static void make_run(struct fixture *f, struct result_run *run, bool complete,
		     const char *timefile)
{
	struct strbuf err = STRBUF_INIT;

	if (result_run_begin(run, f->group, &err))
		fail_msg("begin: %s", err.buf);
	put_file(run->tmp_dir, "job.yaml", job_text, strlen(job_text));
	copy_data(run->tmp_dir, "dd.time", timefile);
	copy_data(run->tmp_dir, "time", timefile);
	put_file(run->tmp_dir, "output", "not a monitor\n", 14);
	if (result_run_finish(run, f->root, NULL, complete, &err))
		fail_msg("finish: %s", err.buf);
	strbuf_release(&err);
}

static void test_group_dir(void **state)
{
	struct fixture *f = *state;
	struct job **jobs = NULL;
	size_t n = 0;
	struct strbuf dir = STRBUF_INIT, err = STRBUF_INIT;

	assert_int_equal(job_load_string(job_text, "dd.yaml", &jobs, &n, &err), 0);
	assert_int_equal(result_group_dir(jobs[0], "/r", &dir, &err), 0);
	assert_string_equal(dir.buf,
			    "/r/dd/dd_if=_dev_zero_of=_dev_null/box/debian/defconfig/gcc-12/abc123");
	job_free_all(jobs, n);
	/* a missing machine fact is an error naming it */
	assert_int_equal(job_load_string("testcase: dd\ntbox_group: box\n",
					 "x.yaml", &jobs, &n, &err), 0);
	strbuf_reset(&dir);
	assert_int_equal(result_group_dir(jobs[0], f->root, &dir, &err), -1);
	assert_string_equal(err.buf,
			    "x.yaml: 'rootfs' is not set (machine facts not filled in?)");
	job_free_all(jobs, n);
	strbuf_reset(&err);
	assert_int_equal(job_load_string("testcase: ..\ntbox_group: b\nrootfs: r\n"
					 "kconfig: k\ncompiler: c\ncommit: x\n",
					 "y.yaml", &jobs, &n, &err), 0);
	assert_int_equal(result_group_dir(jobs[0], f->root, &dir, &err), -1);
	assert_non_null(strstr(err.buf, "cannot be a directory name"));
	job_free_all(jobs, n);
	/* a commit that git would take for an option, or with a blank (L10) */
	{
		static const char *const commits[] = { "-dash", "' x'", "'x '" };
		size_t i;

		for (i = 0; i < ARRAY_SIZE(commits); i++) {
			struct strbuf text = STRBUF_INIT;

			strbuf_addf(&text, "testcase: t\ntbox_group: b\nrootfs: r\n"
				    "kconfig: k\ncompiler: c\ncommit: %s\n",
				    commits[i]);
			strbuf_reset(&err);
			strbuf_reset(&dir);
			assert_int_equal(job_load_string(text.buf, "c.yaml", &jobs,
							 &n, &err), 0);
			assert_int_equal(result_group_dir(jobs[0], f->root, &dir,
							  &err), -1);
			assert_non_null(strstr(err.buf, "is no commit id (a leading"));
			job_free_all(jobs, n);
			strbuf_release(&text);
		}
	}
	strbuf_release(&dir);
	strbuf_release(&err);
}

static void test_run_numbers(void **state)
{
	struct fixture *f = *state;
	struct result_run run;
	struct strbuf err = STRBUF_INIT, p = STRBUF_INIT;

	/* runs 0 and 2 exist (2 from LKP, say): LKP takes the first unused */
	strbuf_addf(&p, "%s/0", f->group);
	assert_int_equal(mkdir_p(p.buf, 0777), 0);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/2", f->group);
	assert_int_equal(mkdir_p(p.buf, 0777), 0);
	assert_int_equal(result_run_begin(&run, f->group, &err), 0);
	assert_int_equal(run.number, 1);
	assert_true(dir_exists(run.tmp_dir));
	assert_false(dir_exists(run.dir));
	/* a reserved number is not handed out twice */
	{
		struct result_run other;

		assert_int_equal(result_run_begin(&other, f->group, &err), 0);
		assert_int_equal(other.number, 3);
		result_run_abort(&other);
		assert_false(has(f->group, ".tmp-3"));
		result_run_release(&other);
	}
	result_run_abort(&run);
	result_run_release(&run);
	strbuf_release(&err);
	strbuf_release(&p);
}

static void test_stale_reservation(void **state)
{
	struct fixture *f = *state;
	struct result_run run, live;
	struct strbuf err = STRBUF_INIT, p = STRBUF_INIT;
	pid_t pid;
	int status;

	/* a perfsift that dies holding run 0 (SIGKILL: nothing cleaned up) */
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct result_run dead;

		if (result_run_begin(&dead, f->group, &err) || dead.number != 0)
			_exit(1);
		put_file(dead.tmp_dir, "half-written", "x", 1);
		raise(SIGKILL);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_true(has(f->group, ".tmp-0/half-written"));
	/* the next reservation reclaims the dead one's number */
	assert_int_equal(result_run_begin(&live, f->group, &err), 0);
	assert_int_equal(live.number, 0);
	assert_false(has(live.tmp_dir, "half-written"));
	/* a directory without an owner mark is left alone */
	strbuf_addf(&p, "%s/.tmp-1", f->group);
	assert_int_equal(mkdir(p.buf, 0777), 0);
	/* a live reservation is kept: 0 and 1 are taken */
	assert_int_equal(result_run_begin(&run, f->group, &err), 0);
	assert_int_equal(run.number, 2);
	/* released without finishing or aborting: nobody owns 2 any more */
	result_run_release(&run);
	assert_int_equal(result_run_begin(&run, f->group, &err), 0);
	assert_int_equal(run.number, 2);
	result_run_abort(&run);
	result_run_release(&run);
	assert_true(has(f->group, ".tmp-1"));
	result_run_abort(&live);
	result_run_release(&live);
	strbuf_release(&err);
	strbuf_release(&p);
}

static void test_finish_complete_and_cut(void **state)
{
	struct fixture *f = *state;
	struct result_run r0, r1, r2;
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	struct matrix m;
	struct store st;
	struct store_group g;
	struct store_group_list l = {0};
	ssize_t i;

	make_run(f, &r0, true, "lkp-generated/time/1");
	assert_int_equal(r0.number, 0);
	assert_null(r0.tmp_dir);
	assert_false(has(f->group, ".tmp-0"));
	assert_true(has(r0.dir, "dd.time.json"));
	assert_true(has(r0.dir, "time.json"));
	assert_false(has(r0.dir, "output.json"));
	assert_false(has(r0.dir, "last_state"));
	assert_false(has(r0.dir, ".owner"));
	slurp(&sb, r0.dir, "stats.json");
	assert_non_null(strstr(sb.buf, "\"dd.time.elapsed_time\": 1.16,\n"));
	assert_non_null(strstr(sb.buf, "\"dd.time.elapsed_time.max\": 1.16,\n"));
	assert_non_null(strstr(sb.buf, "\"time.user_time\": 0.02"));
	slurp(&sb, r0.dir, "dd.time.json");
	assert_non_null(strstr(sb.buf, "\"dd.time.minor_page_faults\": [\n    360\n  ]"));

	make_run(f, &r1, false, "lkp-generated/time/2");
	assert_int_equal(r1.number, 1);
	slurp(&sb, r1.dir, "last_state");
	assert_string_equal(sb.buf, "is_incomplete_run: 1\n");
	make_run(f, &r2, true, "lkp-generated/time/2");
	assert_int_equal(r2.number, 2);

	/* matrix.json: runs 0 and 2 only */
	path_join(&sb, f->group, "matrix.json");
	assert_int_equal(matrix_load_json(&m, sb.buf, &err), 0);
	assert_int_equal(m.nruns, 2);
	i = matrix_find(&m, "dd.time.elapsed_time");
	assert_true(i >= 0);
	assert_true(matrix_at(&m, (size_t)i, 0) == 1.16);
	assert_true(matrix_at(&m, (size_t)i, 1) == 1.0);
	assert_non_null(strstr(m.sources[1], "/2/stats.json"));
	matrix_release(&m);
	assert_true(has(f->group, "avg.json") && has(f->group, "stddev.json"));

	/* the index agrees with the files */
	assert_int_equal(store_open(&st, f->root, NULL, 0, &err), 0);
	assert_int_equal(store_resolve(&st, "abc", &g, &err), 0);
	assert_int_equal(g.nruns, 2);
	assert_int_equal(g.nincomplete, 1);
	assert_string_equal(g.axes[STORE_TBOX_GROUP], "box");
	assert_int_equal(store_load_matrix(&st, g.id, &m, &err), 0);
	assert_int_equal(m.nruns, 2);
	matrix_release(&m);
	store_group_release(&g);
	/* job parameters and facts from job.yaml are selectable */
	assert_int_equal(store_find_groups_text(&st, "nr_cpu=2,testcase=dd",
						&l, &err), 0);
	assert_int_equal(l.n, 1);
	store_group_list_release(&l);
	store_close(&st);
	result_run_release(&r0);
	result_run_release(&r1);
	result_run_release(&r2);
	strbuf_release(&sb);
	strbuf_release(&err);
}

static void test_corrupt_raw_changes_nothing(void **state)
{
	struct fixture *f = *state;
	struct result_run run, r0;
	struct strbuf err = STRBUF_INIT, before = STRBUF_INIT, after = STRBUF_INIT;

	make_run(f, &r0, true, "lkp-generated/time/1");
	slurp(&before, f->group, "matrix.json");
	assert_int_equal(result_run_begin(&run, f->group, &err), 0);
	put_file(run.tmp_dir, "dd.time", "User time (seconds): 1\0\0\n", 25);
	assert_int_equal(result_run_finish(&run, f->root, NULL, true, &err), -2);
	assert_non_null(strstr(err.buf, "/.tmp-1/dd.time' holds NUL bytes"));
	assert_true(dir_exists(run.tmp_dir));
	assert_false(has(run.tmp_dir, "stats.json"));
	assert_false(has(f->group, "1"));
	slurp(&after, f->group, "matrix.json");
	assert_string_equal(before.buf, after.buf);
	result_run_abort(&run);
	assert_false(has(f->group, ".tmp-1"));
	result_run_release(&run);

	/* restat: the same error, and the run's files stay as they were */
	strbuf_reset(&err);
	put_file(r0.dir, "time", "x\0", 2);
	slurp(&before, r0.dir, "stats.json");
	assert_int_equal(result_restat(r0.dir, f->root, NULL, &err), -2);
	assert_non_null(strstr(err.buf, "/0/time' holds NUL bytes"));
	slurp(&after, r0.dir, "stats.json");
	assert_string_equal(before.buf, after.buf);
	result_run_release(&r0);
	strbuf_release(&err);
	strbuf_release(&before);
	strbuf_release(&after);
}

static void test_restat(void **state)
{
	struct fixture *f = *state;
	struct result_run r0;
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT, want = STRBUF_INIT;
	struct strbuf p = STRBUF_INIT;

	make_run(f, &r0, true, "lkp-generated/time/1");
	slurp(&want, r0.dir, "stats.json");
	path_join(&p, r0.dir, "stats.json");
	unlink(p.buf);
	path_join(&p, f->group, "matrix.json");
	unlink(p.buf);
	assert_int_equal(result_restat(r0.dir, f->root, NULL, &err), 0);
	slurp(&sb, r0.dir, "stats.json");
	assert_string_equal(sb.buf, want.buf);
	assert_true(has(f->group, "matrix.json"));
	/* not a run directory */
	assert_int_equal(result_restat(f->group, f->root, NULL, &err), -2);
	assert_non_null(strstr(err.buf, "is not a run directory"));
	result_run_release(&r0);
	strbuf_release(&sb);
	strbuf_release(&err);
	strbuf_release(&want);
	strbuf_release(&p);
}

static void test_concurrent_runs(void **state)
{
	struct fixture *f = *state;
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	struct matrix m;
	pid_t pids[2];
	int i, status;

	for (i = 0; i < 2; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (!pids[i]) {
			int n;

			for (n = 0; n < 4; n++) {
				struct result_run run;

				make_run(f, &run, true, "lkp-generated/time/1");
				result_run_release(&run);
			}
			_exit(0);
		}
	}
	for (i = 0; i < 2; i++) {
		assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	for (i = 0; i < 8; i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%d", i);
		assert_true(has(f->group, sb.buf));
	}
	path_join(&sb, f->group, "matrix.json");
	assert_int_equal(matrix_load_json(&m, sb.buf, &err), 0);
	assert_int_equal(m.nruns, 8);
	matrix_release(&m);
	strbuf_release(&sb);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_group_dir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_run_numbers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_reservation, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_finish_complete_and_cut,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_corrupt_raw_changes_nothing,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_restat, setup, teardown),
		cmocka_unit_test_setup_teardown(test_concurrent_runs, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
