/*
 * test_reduce.c: unit tests for the per-run reduction (reduce.c) and the
 * unite step (unite.c): the class table, each reduction on LKP's own
 * proc-vmstat vector, the stats_part window, stats.json, and matrix.json's
 * padding and drop rules.
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "result/matrix.h"
#include "result/reduce.h"
#include "result/samples.h"
#include "result/unite.h"
#include "util/strbuf.h"

static const char *testdata(void)
{
	const char *d = getenv("PERFSIFT_TESTDATA");

	return d ? d : "tests/data";
}

static void load_samples(struct samples *s, const char *group,
			 const char *stream)
{
	struct strbuf err = STRBUF_INIT;

	samples_init(s, group);
	assert_int_equal(samples_parse(s, stream, strlen(stream), "t", &err), 0);
	samples_finish(s);
	strbuf_release(&err);
}

static double value_of(const struct reduce_stats *st, const char *name,
		       bool *is_int)
{
	const struct reduce_stat *v = reduce_stats_find(st, name);

	if (!v)
		fail_msg("stat '%s' missing", name);
	if (is_int)
		*is_int = v->is_int;
	return v->value;
}

static void test_classes(void **state)
{
	static const struct {
		const char *name;
		enum reduce_class cls;
		bool add_max;
	} cases[] = {
		{"proc-vmstat.pgfault", REDUCE_COUNTER, false},
		{"proc-vmstat.thp_fault_alloc", REDUCE_COUNTER, false},
		{"proc-vmstat.nr_free_pages", REDUCE_MEAN, false},
		{"proc-vmstat.workingset_refault_file", REDUCE_COUNTER, false},
		{"proc-vmstat.workingset_nodes", REDUCE_MEAN, false},
		{"proc-vmstat.oom_kill", REDUCE_COUNTER, false},
		{"softirqs.CPU0.TIMER", REDUCE_COUNTER, false},
		{"interrupts.CPU1.LOC:Local_timer_interrupts", REDUCE_COUNTER, false},
		{"numa-vmstat.node0.pgfault", REDUCE_COUNTER, false},
		{"numa-vmstat.node0.nr_free_pages", REDUCE_MEAN, false},
		{"diskstats.read_ios.vda", REDUCE_COUNTER, false},
		{"diskstats.in_flight.vda", REDUCE_MEAN, false},
		{"time.user_time", REDUCE_SUM, false},
		{"time.elapsed_time", REDUCE_MEAN, true},
		{"time.maximum_resident_set_size", REDUCE_MEAN, false},
		{"vm-scalability.time.elapsed_time", REDUCE_MEAN, true},
		{"vm-scalability.time.user_time", REDUCE_MEAN, false},
		{"perf-stat.ps.cycles", REDUCE_SUM, false},
		{"iostat.vda.await", REDUCE_MEAN, true},
		{"numa-meminfo.node0.AnonPages", REDUCE_MEAN, true},
		{"meminfo.max_used_kB", REDUCE_MAX, false},
		{"meminfo.MemFree", REDUCE_MEAN, false},
		{"vmstat.cpu.us", REDUCE_MEAN, false},
	};
	size_t i;
	bool add_max;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		enum reduce_class c = reduce_classify(cases[i].name, &add_max);

		if (c != cases[i].cls || add_max != cases[i].add_max)
			fail_msg("%s: class %d max %d, want %d %d", cases[i].name,
				 c, add_max, cases[i].cls, cases[i].add_max);
	}
}

static void test_proc_vmstat_vector(void **state)
{
	struct strbuf path = STRBUF_INIT, in = STRBUF_INIT, err = STRBUF_INIT;
	struct samples s;
	struct reduce_stats st;
	bool is_int;

	(void)state;
	strbuf_addf(&path, "%s/lkp-generated/proc-vmstat/1.yaml", testdata());
	assert_int_equal(strbuf_read_file(&in, path.buf, 0), 0);
	samples_init(&s, "proc-vmstat");
	assert_int_equal(samples_parse(&s, in.buf, in.len, path.buf, &err), 0);
	samples_finish(&s);
	reduce_stats_init(&st);
	reduce_samples(&s, NULL, &st);
	reduce_stats_sort(&st);
	/* the sample stamps are not a stat */
	assert_null(reduce_stats_find(&st, "proc-vmstat.time"));
	/* a gauge: the mean of 2922882 2924766 2914659 2850396 */
	assert_true(fabs(value_of(&st, "proc-vmstat.nr_free_pages", &is_int) -
			 11612703.0 / 4) < 1e-6);
	assert_false(is_int);
	/* a counter: last - first of 34464676 .. 34673112 */
	assert_true(value_of(&st, "proc-vmstat.numa_hit", &is_int) ==
		    34673112.0 - 34464676.0);
	assert_true(is_int);
	/* one entry per key left by dump-stat, none for the stamps, and one
	 * at 0 for each key dump-stat dropped as 0: the run had it */
	assert_int_equal(st.n, s.nkeys - 1 + s.nzero);
	assert_true(s.nzero > 0);
	assert_null(samples_find(&s, "proc-vmstat.oom_kill"));
	assert_true(value_of(&st, "proc-vmstat.oom_kill", &is_int) == 0);
	assert_true(is_int);
	reduce_stats_release(&st);
	samples_release(&s);
	strbuf_release(&path);
	strbuf_release(&in);
	strbuf_release(&err);
}

static void test_time_records(void **state)
{
	struct samples s;
	struct reduce_stats st;
	bool is_int;

	(void)state;
	/* the job-wide `time` file with two programs: sums and means */
	load_samples(&s, "time",
		     "user_time: 0.02\nelapsed_time: 1.16\npage_size: 4096\n"
		     "minor_page_faults: 360\n"
		     "user_time: 0.5\nelapsed_time: 1.0\npage_size: 4096\n"
		     "minor_page_faults: 40\n");
	reduce_stats_init(&st);
	reduce_samples(&s, NULL, &st);
	reduce_stats_sort(&st);
	assert_true(fabs(value_of(&st, "time.user_time", NULL) - 0.52) < 1e-12);
	assert_true(value_of(&st, "time.minor_page_faults", &is_int) == 400);
	assert_true(is_int);
	assert_true(fabs(value_of(&st, "time.elapsed_time", NULL) - 1.08) < 1e-12);
	assert_true(value_of(&st, "time.elapsed_time.max", &is_int) == 1.16);
	assert_false(is_int);
	assert_true(value_of(&st, "time.page_size", NULL) == 4096);
	reduce_stats_release(&st);
	samples_release(&s);

	/* one record: the values as they are, plus elapsed_time.max */
	load_samples(&s, "dd.time", "user_time: 0.02\nelapsed_time: 1.16\n"
		     "exit_status: 3\n");
	reduce_stats_init(&st);
	reduce_samples(&s, NULL, &st);
	reduce_stats_sort(&st);
	assert_int_equal(st.n, 4);
	assert_true(value_of(&st, "dd.time.exit_status", &is_int) == 3);
	assert_true(is_int);
	assert_true(value_of(&st, "dd.time.elapsed_time.max", NULL) == 1.16);
	reduce_stats_release(&st);
	samples_release(&s);
}

static void test_absent_samples_and_single_counter(void **state)
{
	struct samples s;
	struct reduce_stats st;

	(void)state;
	/* pgfault's middle value is bad; pgmajfault was read once */
	load_samples(&s, "proc-vmstat",
		     "time: 1\npgfault: 100\nnr_dirty: 10\n"
		     "time: 2\npgfault: x\nnr_dirty: 20\n"
		     "time: 3\npgfault: 130\nnr_dirty: 60\npgmajfault: 5\n");
	assert_int_equal(s.nrejected, 1);
	reduce_stats_init(&st);
	reduce_samples(&s, NULL, &st);
	reduce_stats_sort(&st);
	assert_true(value_of(&st, "proc-vmstat.pgfault", NULL) == 30);
	assert_true(value_of(&st, "proc-vmstat.nr_dirty", NULL) == 30);
	assert_null(reduce_stats_find(&st, "proc-vmstat.pgmajfault"));
	reduce_stats_release(&st);
	samples_release(&s);

	/* Q5: a running maximum reduces to its maximum, not its mean */
	load_samples(&s, "meminfo", "max_used_kB: 10\nmax_used_kB: 30\n"
		     "max_used_kB: 30\n");
	reduce_stats_init(&st);
	reduce_samples(&s, NULL, &st);
	assert_int_equal(st.n, 1);
	assert_true(st.items[0].value == 30);
	assert_true(st.items[0].is_int);
	reduce_stats_release(&st);
	samples_release(&s);
}

static void test_window(void **state)
{
	struct samples s;
	struct reduce_stats st;
	struct reduce_window w = {true, 1, 3};

	(void)state;
	/* epoch stamps are rebased: the window [1, 3) keeps samples 2 and 3 */
	load_samples(&s, "perf-stat",
		     "time: 1000\na: 1\noverall.x: 1\n"
		     "time: 1001\na: 2\noverall.x: 1\n"
		     "time: 1002\na: 4\noverall.x: 1\n"
		     "time: 1003\na: 100\noverall.x: 1\n");
	reduce_stats_init(&st);
	reduce_samples(&s, &w, &st);
	reduce_stats_sort(&st);
	assert_true(value_of(&st, "perf-stat.a", NULL) == 3);
	/* etc/ignore-part-prefixes: never windowed (and summed) */
	assert_true(value_of(&st, "perf-stat.overall.x", NULL) == 4);
	reduce_stats_release(&st);
	samples_release(&s);
}

static void test_stats_json_roundtrip(void **state)
{
	struct reduce_stats st, back;
	struct strbuf json = STRBUF_INIT, err = STRBUF_INIT;
	char path[] = "/tmp/perfsift-test-stats-XXXXXX";
	int fd;

	(void)state;
	reduce_stats_init(&st);
	reduce_stats_add(&st, "b.x", 2.5, false);
	reduce_stats_add(&st, "a.y", 7, true);
	reduce_stats_add(&st, "b.x", 3.5, false); /* a later value wins */
	reduce_stats_sort(&st);
	assert_int_equal(st.n, 2);
	reduce_stats_to_json(&st, &json);
	assert_string_equal(json.buf, "{\n  \"a.y\": 7,\n  \"b.x\": 3.5\n}");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, json.buf, json.len), (ssize_t)json.len);
	close(fd);
	reduce_stats_init(&back);
	assert_int_equal(reduce_stats_load_json(&back, path, &err), 0);
	assert_int_equal(back.n, 2);
	assert_true(back.items[0].is_int && back.items[0].value == 7);
	assert_true(!back.items[1].is_int && back.items[1].value == 3.5);
	reduce_stats_release(&back);
	/* a corrupt stats.json is an error naming the file */
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_int_equal(write(fd, "{\"a\": ", 6), 6);
	close(fd);
	reduce_stats_init(&back);
	assert_int_equal(reduce_stats_load_json(&back, path, &err), -1);
	assert_non_null(strstr(err.buf, path));
	reduce_stats_release(&back);
	unlink(path);
	reduce_stats_release(&st);
	strbuf_release(&json);
	strbuf_release(&err);
}

/* LKP's path-length: instructions per unit of work, when both exist once */
static void test_path_length(void **state)
{
	struct reduce_stats st;
	const struct reduce_stat *pl;

	(void)state;
	reduce_stats_init(&st);
	reduce_stats_add(&st, "perf-stat.total.instructions", 6e9, false);
	reduce_stats_add(&st, "vm-scalability.workload", 3e6, false);
	reduce_stats_add(&st, "vm-scalability.throughput", 42, true);
	reduce_derived(&st);
	pl = reduce_stats_find(&st, "perf-stat.overall.path-length");
	assert_non_null(pl);
	assert_true(pl->value == 2000);
	reduce_stats_release(&st);

	/* no PMU: no instructions, no path-length */
	reduce_stats_init(&st);
	reduce_stats_add(&st, "perf-stat.ps.page-faults", 100, false);
	reduce_stats_add(&st, "vm-scalability.workload", 3e6, false);
	reduce_derived(&st);
	assert_null(reduce_stats_find(&st, "perf-stat.overall.path-length"));
	reduce_stats_release(&st);

	/* two workloads: which one is ambiguous, so none (as LKP) */
	reduce_stats_init(&st);
	reduce_stats_add(&st, "perf-stat.total.instructions", 6e9, false);
	reduce_stats_add(&st, "a.workload", 3e6, false);
	reduce_stats_add(&st, "b.workload", 1e6, false);
	reduce_derived(&st);
	assert_null(reduce_stats_find(&st, "perf-stat.overall.path-length"));
	reduce_stats_release(&st);
}

static void test_unite(void **state)
{
	struct reduce_stats r0, r1, r2;
	struct unite u;
	struct matrix m;
	struct strbuf json = STRBUF_INIT;
	ssize_t i;

	(void)state;
	reduce_stats_init(&r0);
	reduce_stats_init(&r1);
	reduce_stats_init(&r2);
	reduce_stats_add(&r0, "a", 1, true);
	reduce_stats_add(&r0, "zero", 0, true);
	reduce_stats_add(&r0, "fzero", 0, false);
	reduce_stats_add(&r0, "sched_debug.cpu.nr_running.0", 3, true);
	reduce_stats_add(&r0, "sched_debug.cpu.nr_running.avg", 3, true);
	reduce_stats_add(&r1, "a", 2, true);
	reduce_stats_add(&r1, "late", 1.5, false);
	reduce_stats_add(&r2, "a", 3, true);
	reduce_stats_add(&r2, "zero", 0, true);
	unite_init(&u);
	unite_add_run(&u, "/r/0/stats.json", &r0);
	unite_add_run(&u, "/r/1/stats.json", &r1);
	unite_add_run(&u, "/r/2/stats.json", &r2);
	unite_to_matrix(&u, &m);
	assert_int_equal(m.nruns, 3);
	/* dropped: integer zeros everywhere, per-CPU sched_debug */
	assert_true(matrix_find(&m, "zero") < 0);
	assert_true(matrix_find(&m, "sched_debug.cpu.nr_running.0") < 0);
	assert_true(matrix_find(&m, "sched_debug.cpu.nr_running.avg") >= 0);
	assert_true(matrix_find(&m, "fzero") >= 0);
	i = matrix_find(&m, "late");
	assert_true(i >= 0);
	assert_true(matrix_at(&m, (size_t)i, 0) == 0);
	assert_true(matrix_at(&m, (size_t)i, 1) == 1.5);
	assert_true(matrix_at(&m, (size_t)i, 2) == 0);
	assert_false(m.is_int[i]);
	i = matrix_find(&m, "a");
	assert_true(matrix_at(&m, (size_t)i, 2) == 3 && m.is_int[i]);
	assert_string_equal(m.sources[1], "/r/1/stats.json");
	unite_avg_json(&m, &json);
	assert_non_null(strstr(json.buf, "\"a\": 2.0,"));
	strbuf_reset(&json);
	unite_stddev_json(&m, &json);
	/* population stddev of 1, 2, 3: sqrt(2/3) */
	assert_non_null(strstr(json.buf, "\"a\": 0.816496580927726"));
	matrix_release(&m);
	unite_release(&u);
	/* no runs: an empty matrix */
	unite_init(&u);
	unite_to_matrix(&u, &m);
	assert_int_equal(m.nstats, 0);
	assert_int_equal(m.nruns, 0);
	matrix_release(&m);
	unite_release(&u);
	reduce_stats_release(&r0);
	reduce_stats_release(&r1);
	reduce_stats_release(&r2);
	strbuf_release(&json);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_proc_vmstat_vector),
		cmocka_unit_test(test_time_records),
		cmocka_unit_test(test_absent_samples_and_single_counter),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_stats_json_roundtrip),
		cmocka_unit_test(test_unite),
		cmocka_unit_test(test_path_length),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
