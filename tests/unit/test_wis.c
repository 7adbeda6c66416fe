/*
 * test_wis.c: the pure parts of the built-in will-it-scale -- LKP's
 * parser rules on rows, assertion lines and Ruby's quirks (wis_parse.c),
 * the testcase table (wis_cases.c) and how a runtime splits into the
 * warm-up and the measured window (wis.c).
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "benchmarks/wis.h"
#include "benchmarks/wis_cases.h"
#include "monitors/monitor.h"
#include "util/strbuf.h"

static void expect(const char *raw, const char *want)
{
	const struct monitor_ops *m = monitor_find("will-it-scale");
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	assert_non_null(m);
	assert_int_equal(m->parse(raw, strlen(raw), NULL, &out, &err), 0);
	assert_string_equal(out.buf, want);
	strbuf_release(&out);
	strbuf_release(&err);
}

#define HEADER "tasks,processes,processes_idle,threads,threads_idle,linear\n0,0,100,0,100,0\n"

/* two rows: keys per row, scalability of the last, the mean per task, the sum */
static void test_parse_rows(void **state)
{
	(void)state;
	expect(HEADER "1,100,0.50,0,0.00,100\n2,180,0.10,0,0.00,200\n",
	       "1.processes: 100\n1.processes_idle: 0.50\n1.threads: 0\n"
	       "1.threads_idle: 0.00\n1.linear: 100\n"
	       "2.processes: 180\n2.processes_idle: 0.10\n2.threads: 0\n"
	       "2.threads_idle: 0.00\n2.linear: 200\n"
	       "scalability: 0.900000\nper_process_ops: 95\nper_thread_ops: 0\n"
	       "workload: 280\n");
	/* the mean is truncated, threads count into workload */
	expect(HEADER "3,10,0.00,20,0.00,0\n",
	       "3.processes: 10\n3.processes_idle: 0.00\n3.threads: 20\n"
	       "3.threads_idle: 0.00\n3.linear: 0\n"
	       "per_process_ops: 3\nper_thread_ops: 6\nworkload: 30\n");
}

/* a failed testcase: its zero row is dropped, each assertion is a stat */
static void test_parse_assertions(void **state)
{
	(void)state;
	expect(HEADER "192,0,0.00,0,0.08,0\n"
	       "context_switch1_threads: tests/context_switch1.c:33: child: Assertion `ret == 1' failed.\n"
	       "context_switch1_threads: tests/context_switch1.c:33: child: Assertion `ret == 1' failed.\n"
	       "Aborted\n",
	       "Assertion_ret_==_1_failed: 1\nAssertion_ret_==_1_failed: 1\n");
	/* "Assertion " needs something before " failed"; ": " inside is cut */
	expect("Assertion failed\nx: Assertion `a: b != c' failed. (No such file)\n",
	       "b_!=_c_failed: 1\n");
}

/* Ruby's line and field rules */
static void test_parse_ruby_quirks(void **state)
{
	(void)state;
	/* a last line without a newline is not read (chomp! is nil) */
	expect(HEADER "1,5,0.00,0,0.00,5", "");
	/* CRLF lines are read; trailing empty fields are dropped */
	expect("tasks,processes\r\n4,8,,\r\n",
	       "4.processes: 8\nscalability: 1.000000\nper_process_ops: 2\n"
	       "per_thread_ops: 0\nworkload: 8\n");
	/* a missing column prints nothing after the colon; the last field is linear */
	expect("tasks,processes,processes_idle,threads\n2,4\n",
	       "2.processes: 4\n2.processes_idle: \n2.threads: \n"
	       "scalability: 1.000000\nper_process_ops: 2\nper_thread_ops: 0\nworkload: 4\n");
	/* a row before any header: LKP's script dies there, nothing more */
	expect("Assertion `x' failed\n2,4,0,0,0,0\n" HEADER "1,1,0,0,0,0\n",
	       "Assertion_x_failed: 1\n");
	/* a task count of "00": per-task rates are infinite, %d dies */
	expect("tasks,processes,threads_x,threads,threads_idle,linear\n00,8,0,0,0,4\n",
	       "00.processes: 8\n00.threads_x: 0\n00.threads: 0\n00.threads_idle: 0\n"
	       "00.linear: 4\nscalability: 2.000000\n");
	/* text that is no UTF-8: Ruby's regexp raises */
	expect(HEADER "\xff\n1,1,0,0,0,0\n", "");
	/* the command line LKP logs is neither header nor row */
	expect("2020-01-31 08:12:43 python2 ./runtest.py mmap2 295 process 104\n", "");
}

/* the table is sorted (searched by halves) and holds the brief's testcases */
static void test_cases_table(void **state)
{
	static const char *const need[] = {
		"page_fault1", "page_fault2", "page_fault3", "malloc1", "malloc2",
		"mmap1", "mmap2", "brk1", "context_switch1", "pipe1", "poll1",
		"poll2", "futex1", "futex2", "lock1", "open1", "open2", "read1",
		"read2", "write1", "signal1", "sched_yield", "getppid1", "unlink1",
		"unlink2", "dup1", "eventfd1", "fallocate1", "lseek1", "lseek2",
		"pread1", "pread2", "pread3", "pwrite1", "pwrite2", "pwrite3",
		"posix_semaphore1", "tlb_flush1", "tlb_flush2", "tlb_flush3", "unix1",
		/* the rest of LKP's jobs/will-it-scale.yaml */
		"brk2", "fallocate2", "futex3", "futex4", "lock2", "open3",
		"pthread_mutex1", "pthread_mutex2", "pthread_mutex3", "pthread_mutex4",
		"pthread_mutex5", "read3", "read4", "readseek1", "readseek2",
		"readseek3", "writeseek1", "writeseek2", "writeseek3",
	};
	const struct wis_case *c, *prev = NULL;
	size_t i;

	(void)state;
	for (i = 0; (c = wis_case_at(i)); i++) {
		if (prev)
			assert_true(strcmp(prev->name, c->name) < 0);
		assert_ptr_equal(wis_case_find(c->name), c);
		assert_non_null(c->loop);
		assert_true(c->desc && *c->desc);
		prev = c;
	}
	assert_int_equal(i, ARRAY_SIZE(need));
	for (i = 0; i < ARRAY_SIZE(need); i++)
		assert_true(wis_case_known(need[i]));
	assert_false(wis_case_known("page_faul1"));
	assert_false(wis_case_known(""));
	assert_null(wis_case_find(NULL));
}

/* LKP: 5 s of warm-up, the rest measured; short runtimes keep a quarter */
static void test_split_runtime(void **state)
{
	double w, d;

	(void)state;
	wis_split_runtime(300, &w, &d);
	assert_true(w == 5 && d == 295);
	wis_split_runtime(20, &w, &d);
	assert_true(w == 5 && d == 15);
	wis_split_runtime(2, &w, &d);
	assert_true(w == 0.5 && d == 1.5);
	wis_split_runtime(0, &w, &d);
	assert_true(w == 0 && d == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_rows),
		cmocka_unit_test(test_parse_assertions),
		cmocka_unit_test(test_parse_ruby_quirks),
		cmocka_unit_test(test_cases_table),
		cmocka_unit_test(test_split_runtime),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
