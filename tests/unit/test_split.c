/*
 * test_split.c: unit tests for matrix expansion (src/job/expand.c): counts,
 * LKP's order (first list outermost), lists that never expand, the
 * machine fields and the atomic job file names.
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "job/job.h"
#include "job/split.h"
#include "util/strbuf.h"

/* split every job of text; the atomic jobs' file names, one per line */
static size_t split_names(const char *text, const char *name,
			  struct strbuf *names)
{
	struct strbuf err = STRBUF_INIT;
	struct job **jobs, **atoms;
	size_t n, na, i, j, total = 0;

	if (job_load_string(text, name, &jobs, &n, &err))
		fail_msg("%s", err.buf);
	for (i = 0; i < n; i++) {
		if (split_job(jobs[i], &atoms, &na, &err))
			fail_msg("%s", err.buf);
		for (j = 0; j < na; j++) {
			assert_true(job_is_atomic(atoms[j]));
			split_job_filename(atoms[j], names);
			strbuf_addch(names, '\n');
		}
		total += na;
		job_free_all(atoms, na);
	}
	job_free_all(jobs, n);
	strbuf_release(&err);
	return total;
}

static void test_order(void **state)
{
	struct strbuf names = STRBUF_INIT;

	(void)state;
	/* the fixture 2.yaml: group outermost, as LKP's split-job */
	assert_int_equal(split_names("suite: split-job\n"
				     "testcase: split-job\n"
				     "split-job:\n"
				     "  group: [group_1, group_2]\n"
				     "  test: [test_1, test_2]\n",
				     "spec/fixtures/split-job/2.yaml", &names),
			 4);
	assert_string_equal(names.buf, "2-group_1-test_1.yaml\n"
				       "2-group_1-test_2.yaml\n"
				       "2-group_2-test_1.yaml\n"
				       "2-group_2-test_2.yaml\n");
	strbuf_reset(&names);
	/* a top-level list before the program's: it is the outer loop */
	assert_int_equal(split_names("cpufreq_governor: [performance, powersave]\n"
				     "split-job:\n"
				     "  test: [a, b, c]\n",
				     "o.yaml", &names),
			 6);
	assert_string_equal(names.buf, "o-performance-a.yaml\n"
				       "o-performance-b.yaml\n"
				       "o-performance-c.yaml\n"
				       "o-powersave-a.yaml\n"
				       "o-powersave-b.yaml\n"
				       "o-powersave-c.yaml\n");
	strbuf_release(&names);
}

static void test_counts(void **state)
{
	struct strbuf names = STRBUF_INIT;

	(void)state;
	/* 2 x 3 x 2 */
	assert_int_equal(split_names("runtime: [60s, 300s]\n"
				     "split-job:\n"
				     "  test: [a, b, c]\n"
				     "  nr_task: [1, 2]\n",
				     "c.yaml", &names),
			 12);
	strbuf_reset(&names);
	/* an atomic job is one job; lists by nature do not expand */
	assert_int_equal(split_names("packages: [gcc, make]\n"
				     "need_kconfig: [A, B]\n"
				     "split-job:\n"
				     "  test: a\n",
				     "a.yaml", &names),
			 1);
	assert_string_equal(names.buf, "a-a.yaml\n");
	strbuf_reset(&names);
	/* a program given a list of option hashes: one job per hash, and
	 * the lists inside each */
	assert_int_equal(split_names("split-job:\n"
				     "- test: [a, b]\n"
				     "- test: c\n"
				     "  size: 1G\n",
				     "h.yaml", &names),
			 3);
	assert_string_equal(names.buf, "h-a.yaml\nh-b.yaml\nh-1G-c.yaml\n");
	strbuf_reset(&names);
	/* an anchor and its alias are two lists */
	assert_int_equal(split_names("runtime: &r [1, 2]\n"
				     "timeout: *r\n",
				     "al.yaml", &names),
			 4);
	strbuf_release(&names);
}

static void test_vm_scalability_file(void **state)
{
	struct strbuf names = STRBUF_INIT, path = STRBUF_INIT, err = STRBUF_INIT;
	const char *data = getenv("PERFSIFT_TESTDATA");

	(void)state;
	strbuf_addf(&path, "%s/lkp/jobs/vm-scalability.yaml",
		    data ? data : "tests/data");
	assert_int_equal(strbuf_read_file(&err, path.buf, 0) < 0, 0);
	/* 19 + 2 + 2 + 3 + 5 + 1 + 4 + 5 tests in its eight documents */
	assert_int_equal(split_names(err.buf, path.buf, &names), 41);
	assert_non_null(strstr(names.buf,
			       "vm-scalability-300s-lru-file-mmap-read-rand.yaml\n"));
	assert_non_null(strstr(names.buf,
			       "vm-scalability-300s-16G-shm-xread-rand-mt-1G.yaml\n"));
	assert_non_null(strstr(names.buf,
			       "vm-scalability-300s-8T-anon-wx-seq-mt.yaml\n"));
	strbuf_release(&names);
	strbuf_release(&path);
	strbuf_release(&err);
}

static void test_fill_box(void **state)
{
	struct strbuf err = STRBUF_INIT, g = STRBUF_INIT, name = STRBUF_INIT;
	struct job **jobs;
	size_t n;

	(void)state;
	split_tbox_group("lkp-skl-d01-2", &g);
	assert_string_equal(g.buf, "lkp-skl-d01");
	strbuf_reset(&g);
	split_tbox_group("lkp-tbox", &g);
	assert_string_equal(g.buf, "lkp-tbox");
	strbuf_reset(&g);
	split_tbox_group("host12", &g);
	assert_string_equal(g.buf, "host12");
	strbuf_reset(&g);
	split_tbox_group("vm-snb-4G-13", &g);
	assert_string_equal(g.buf, "vm-snb-4G");

	assert_int_equal(job_load_string("suite: s\ncommit: abc\n"
					 "rootfs: /srv/debian-x86_64.cgz\n",
					 "x.yaml", &jobs, &n, &err),
			 0);
	split_fill_box(jobs[0], "lkp-tbox-3", "x86_64");
	assert_string_equal(job_get(jobs[0], "testbox"), "lkp-tbox-3");
	assert_string_equal(job_get(jobs[0], "tbox_group"), "lkp-tbox");
	assert_string_equal(job_get(jobs[0], "arch"), "x86_64");
	assert_string_equal(jobs[0]->root->keys[3], "testbox");
	assert_string_equal(jobs[0]->root->keys[4], "arch");
	assert_string_equal(jobs[0]->root->keys[5], "tbox_group");
	split_job_filename(jobs[0], &name);
	assert_string_equal(name.buf, "x-defaults-abc-debian-x86_64.cgz.yaml");
	job_free_all(jobs, n);
	strbuf_release(&err);
	strbuf_release(&g);
	strbuf_release(&name);
}

static void test_too_many(void **state)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct job **jobs, **atoms = NULL;
	size_t n, na = 0;
	int i, k;

	(void)state;
	/* 10^6 > SPLIT_MAX_JOBS */
	for (k = 0; k < 6; k++) {
		strbuf_addf(&text, "k%d: [", k);
		for (i = 0; i < 10; i++)
			strbuf_addf(&text, "%s%d", i ? ", " : "", i);
		strbuf_addstr(&text, "]\n");
	}
	assert_int_equal(job_load_string(text.buf, "big.yaml", &jobs, &n, &err),
			 0);
	assert_int_equal(split_job(jobs[0], &atoms, &na, &err), -1);
	assert_null(atoms);
	assert_int_equal(na, 0);
	assert_non_null(strstr(err.buf, "big.yaml:"));
	assert_non_null(strstr(err.buf, "more than 100000 atomic jobs"));
	job_free_all(jobs, n);
	strbuf_release(&text);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_vm_scalability_file),
		cmocka_unit_test(test_fill_box),
		cmocka_unit_test(test_too_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
