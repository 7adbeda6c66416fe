/*
 * test_report.c: the e-mail text and the HTML page from a fixed report
 * shaped like the seed (tests/data/plot/report-seed.txt is the golden
 * text; regenerate with PERFSIFT_UPDATE_GOLDEN=1 and read the diff), plus
 * section order, subject rules and escaping checked directly.
 */
#include "util/compat.h"
#include <math.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "history/history.h"
#include "report/build.h"
#include "report/report.h"
#include "util/fileutil.h"
#include "util/strbuf.h"

static const double good[5] = {517.1, 518.3, 516.9, 518.0, 518.15};
static const double bad[5] = {253.2, 254.6, 253.9, 249.4, 257.95};
static const double act_b[5] = {28006, 5000, 51000, 30000, 26024};
static const double act_h[5] = {68134, 68000, 68300, 68100, 68170};

static const char seed_table[] =
	"=========================================================================================\n"
	"compiler/cpufreq_governor/kconfig/rootfs/runtime/tbox_group/test/testcase:\n"
	"  gcc-4.9/performance/x86_64-rhel/debian-x86_64-2015-02-07.cgz/300s/lkp-hsx04/anon-r-seq/vm-scalability\n"
	"\n"
	"commit: \n"
	"  v4.6-rc2\n"
	"  5f155ea5ab62b5321aa7315de62d21da59aa8c65\n"
	"\n"
	"        v4.6-rc2 5f155ea5ab62b5321aa7315de6 \n"
	"---------------- -------------------------- \n"
	"         %stddev     %change         %stddev\n"
	"             \\          |                \\  \n"
	"    517.69 \xc2\xb1  0%     -51.0%     253.81 \xc2\xb1  0%  vm-scalability.time.system_time\n"
	"     28006 \xc2\xb1" "113%    +143.3%      68134 \xc2\xb1  1%  numa-vmstat.node0.nr_active_anon\n"
	"\n";

static struct report_stat rows[3];
static const struct report_param params[] = {
	{ "compiler", "gcc-4.9" },
	{ "env_kernel_cmdline", "root=/dev/vda1 quiet" },
	{ "runtime", "300s" },
	{ "test", "anon-r-seq" },
};

static void seed_report(struct report *r, const struct report_stat **explain,
			const struct report_stat **charts)
{
	memset(r, 0, sizeof(*r));
	memset(rows, 0, sizeof(rows));
	rows[0] = (struct report_stat){
		.name = "vm-scalability.time.system_time", .base_mean = 517.69,
		.head_mean = 253.81, .base_sd = 0.6, .head_sd = 2.8,
		.change = -51.0, .changed = true, .effect = "improvement",
		.q = 0.001, .base_v = good, .head_v = bad, .nbase = 5,
		.nhead = 5,
	};
	rows[1] = (struct report_stat){
		.name = "numa-vmstat.node0.nr_active_anon", .base_mean = 28006,
		.head_mean = 68134, .base_sd = 31000, .head_sd = 100,
		.change = 143.3, .changed = true, .q = 0.01, .base_v = act_b,
		.head_v = act_h, .nbase = 5, .nhead = 5,
	};
	rows[2] = (struct report_stat){
		.name = "x.<b>&\"odd\"", .base_mean = 1, .head_mean = 2,
		.base_sd = -1, .head_sd = -1, .change = 100,
	};
	explain[0] = &rows[1];
	charts[0] = &rows[0];
	charts[1] = &rows[1];
	r->commit = "5f155ea5ab62b5321aa7315de62d21da59aa8c65";
	r->subject = "thp: keep huge zero page pinned until tlb flush";
	r->base_label = "v4.6-rc2";
	r->head_label = "5f155ea5ab62b5321aa7315de6";
	r->base_heading = "v4.6-rc2";
	r->head_heading = r->commit;
	r->params = params;
	r->nparams = ARRAY_SIZE(params);
	r->kpi = &rows[0];
	r->explain = explain;
	r->nexplain = 1;
	r->charts = charts;
	r->ncharts = 2;
	r->rows = rows;
	r->nrows = 3;
	r->nstats = 1234;
	r->table = seed_table;
	r->box = (struct report_box){ "lkp-hsx04", "Brickland Haswell-EX",
				      "144", "512G", "always", "madvise",
				      "performance", "root=/dev/sda1 ro", NULL };
	r->job_file = "job.yaml";
	r->repro = (struct report_repro){
		.base_commit = "v4.6-rc2", .head_commit = r->commit,
		.base_runs = 5, .head_runs = 5,
		.base_sel = "v4.6-rc2", .head_sel = r->commit,
	};
}

static void check_golden(const char *name, const struct strbuf *got)
{
	const char *dir = getenv("PERFSIFT_TESTDATA");
	struct strbuf path = STRBUF_INIT, want = STRBUF_INIT;

	strbuf_addf(&path, "%s/plot/%s", dir ? dir : "tests/data", name);
	if (getenv("PERFSIFT_UPDATE_GOLDEN"))
		assert_int_equal(write_file_atomic(path.buf, got->buf, got->len),
				 0);
	if (strbuf_read_file(&want, path.buf, 0) < 0)
		fail_msg("cannot read golden file '%s'", path.buf);
	if (strcmp(want.buf, got->buf))
		fail_msg("%s differs; got:\n%s", path.buf, got->buf);
	strbuf_release(&path);
	strbuf_release(&want);
}

/* the sections appear, each once, in the seed's order */
static void assert_in_order(const char *text, const char *const *parts,
			    size_t n)
{
	const char *at = text;
	size_t i;

	for (i = 0; i < n; i++) {
		const char *p = strstr(at, parts[i]);

		if (!p)
			fail_msg("'%s' missing or out of order", parts[i]);
		at = p + strlen(parts[i]);
	}
}

static void test_subject(void **state)
{
	struct report r;
	const struct report_stat *e[1], *c[2];
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	seed_report(&r, e, c);
	report_subject(&sb, &r);
	assert_string_equal(sb.buf, "[perfsift] 5f155ea5ab: vm-scalability.time.system_time -51.0% improvement");
	strbuf_reset(&sb);
	/* a kernel release as the commit is kept whole; no direction: "change" */
	r.commit = "6.1.0-13-amd64";
	rows[0].effect = NULL;
	rows[0].change = 3.04;
	report_subject(&sb, &r);
	assert_string_equal(sb.buf, "[perfsift] 6.1.0-13-amd64: vm-scalability.time.system_time +3.0% change");
	strbuf_reset(&sb);
	rows[0].absolute = true;
	rows[0].change = -7.2;
	rows[0].effect = "regression";
	report_subject(&sb, &r);
	assert_string_equal(sb.buf, "[perfsift] 6.1.0-13-amd64: vm-scalability.time.system_time -7.20 regression");
	strbuf_reset(&sb);
	/* the robot's: the tree in brackets, the sha cut to 10 as everywhere */
	r.commit = "5f155ea5ab62b5321aa7315de62d21da59aa8c65";
	r.tree = "linux/master";
	report_subject(&sb, &r);
	assert_string_equal(sb.buf, "[perfsift] [linux/master] 5f155ea5ab: vm-scalability.time.system_time -7.20 regression");
	strbuf_release(&sb);
}

/* "To reproduce" says exactly what ran, and what it cannot know */
static void test_repro(void **state)
{
	struct report r;
	const struct report_stat *e[1], *c[2];
	struct strbuf out = STRBUF_INIT;

	(void)state;
	seed_report(&r, e, c);
	/* a settings comparison on one commit, built by bisect or the robot */
	r.repro = (struct report_repro){
		.base_job_file = "base-job.yaml", .cmd = "./bench.sh --fast",
		.cmd_plain = true, .base_commit = "abc123", .head_commit = "abc123",
		.build = "make -j2", .install = "./install.sh", .base_runs = 3,
		.head_runs = 4, .base_sel = "mytest=base", .head_sel = "mytest=head",
	};
	r.base_setting = "mytest=base";
	report_repro_text(&r, &out, "");
	assert_string_equal(out.buf,
		"# job.yaml is the job the head runs ran, attached beside this report\n"
		"# base-job.yaml is the base's job (mytest=base)\n"
		"# in a checkout of the source tree, as the runs were made:\n"
		"git checkout --detach abc123 && make -j2 && ./install.sh\n"
		"perfsift install job.yaml\n"
		"perfsift run base-job.yaml -n 3 --commit abc123 -- ./bench.sh --fast\n"
		"perfsift run job.yaml -n 4 --commit abc123 -- ./bench.sh --fast\n"
		"perfsift compare mytest=base mytest=head\n");
	/* an empty install (the robot's `install: ""`) is none */
	strbuf_reset(&out);
	r.repro.install = "";
	report_repro_text(&r, &out, "");
	assert_non_null(strstr(out.buf, "git checkout --detach abc123 && make -j2\n"));
	r.repro.install = "./install.sh";
	/* a command that is not plain words stays in the job file alone */
	strbuf_reset(&out);
	r.repro.cmd = "seq 100 | wc -l";
	r.repro.cmd_plain = false;
	r.repro.head_commit = "def456";
	r.repro.base_job_file = NULL;
	report_repro_text(&r, &out, "");
	assert_non_null(strstr(out.buf, "# the command is the job file's mytest.cmdline: seq 100 | wc -l\n"));
	assert_non_null(strstr(out.buf, "git checkout --detach def456 && make -j2 && ./install.sh\n"
				       "perfsift run job.yaml -n 4 --commit def456\n"));
	assert_null(strstr(out.buf, " -- "));
	/* an LKP root: nothing made up */
	strbuf_reset(&out);
	r.repro = (struct report_repro){ .no_job = true, .base_sel = "v4.6-rc2",
					 .head_sel = "5f155ea5ab" };
	report_repro_text(&r, &out, "  ");
	assert_non_null(strstr(out.buf, "  # the head runs have no job.yaml (an LKP result root)"));
	assert_null(strstr(out.buf, "perfsift run"));
	assert_null(strstr(out.buf, "perfsift install"));
	assert_non_null(strstr(out.buf, "  perfsift compare v4.6-rc2 5f155ea5ab\n"));
	strbuf_release(&out);
}

static void test_text(void **state)
{
	static const char *const order[] = {
		"Subject: [perfsift] 5f155ea5ab: vm-scalability.time.system_time -51.0% improvement\n\n",
		"FYI, we noticed that vm-scalability.time.system_time -51.0% improvement on\n\n",
		"commit 5f155ea5ab62b5321aa7315de62d21da59aa8c65 (\"thp: keep huge zero page pinned until tlb flush\")\n",
		/* the answer first: the KPI's row under the headings, its chart */
		"The KPI, vm-scalability.time.system_time:\n\n",
		"            v4.6-rc2        %change           5f155ea5ab\n",
		"  vm-scalability.time.system_time\n",
		"vm-scalability.time.system_time\n  550 ++",
		"\t[*] base sample\n\t[O] head sample\n",
		"The stats that best explain it",
		"   1.   +143.3%  numa-vmstat.node0.nr_active_anon  (28006 -> 68134)\n",
		"numa-vmstat.node0.nr_active_anon\n",
		"=====\ncompiler/",
		"lkp-hsx04: Brickland Haswell-EX\nCPUs: 144\nMemory: 512G\n"
		"THP: always (defrag: madvise)\ncpufreq governor: performance\n"
		"Kernel command line: root=/dev/sda1 ro\n",
		"To reproduce:",
		"        # how the commits were built and installed is not recorded in the runs\n",
		"        # build and install (boot) v4.6-rc2\n",
		"        perfsift install job.yaml\n",
		"        perfsift run job.yaml -n 5 --commit v4.6-rc2\n",
		"        perfsift run job.yaml -n 5 --commit 5f155ea5ab62b5321aa7315de62d21da59aa8c65\n",
		"        perfsift compare v4.6-rc2 5f155ea5ab62b5321aa7315de62d21da59aa8c65\n",
		"Disclaimer:",
	};
	struct report r;
	const struct report_stat *e[1], *c[2];
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	seed_report(&r, e, c);
	assert_int_equal(report_text(&r, &out, &err), 0);
	assert_in_order(out.buf, order, ARRAY_SIZE(order));
	/* the table is compare's, verbatim */
	assert_non_null(strstr(out.buf, seed_table));
	check_golden("report-seed.txt", &out);
	assert_null(strstr(out.buf, "bisect-"));

	/* the mail's body: the same text without its Subject: line */
	{
		struct strbuf body = STRBUF_INIT;
		const char *nl = strstr(out.buf, "\n\n");

		assert_int_equal(report_text_body(&r, &body, &err), 0);
		assert_non_null(nl);
		assert_string_equal(body.buf, nl + 2);
		strbuf_release(&body);
	}

	/* a bisect's report: its legend says bisect-good/bad */
	strbuf_reset(&out);
	r.bisect = true;
	assert_int_equal(report_text(&r, &out, &err), 0);
	assert_non_null(strstr(out.buf, "\t[*] bisect-good sample\n\t[O] bisect-bad  sample\n"));
	assert_null(strstr(out.buf, "base sample"));
	r.bisect = false;

	/* nothing explains it, no charts: said so, no legend */
	strbuf_reset(&out);
	r.nexplain = 0;
	r.ncharts = 0;
	assert_int_equal(report_text(&r, &out, &err), 0);
	assert_non_null(strstr(out.buf, "No monitor stat changed significantly (1234 stats compared)"));
	assert_null(strstr(out.buf, "bisect-good"));
	strbuf_release(&out);
	strbuf_release(&err);
}

static void test_html(void **state)
{
	struct report r;
	const struct report_stat *e[1], *c[2];
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const char *p;
	int nsvg = 0, nrows = 0;

	(void)state;
	seed_report(&r, e, c);
	r.subject = "a <script>alert(1)</script> & \"quotes\"";
	assert_int_equal(report_html(&r, &out, &err), 0);
	assert_true(!strncmp(out.buf, "<!DOCTYPE html>\n", 16));
	for (p = out.buf; (p = strstr(p, "<svg ")); p++)
		nsvg++;
	for (p = out.buf; (p = strstr(p, "<tr data-index=")); p++)
		nrows++;
	assert_int_equal(nsvg, 2);
	assert_int_equal(nrows, 3);
	/* the KPI's row and chart lead; the table comes after the charts */
	p = strstr(out.buf, "<section id=\"kpi\">");
	assert_non_null(p);
	assert_true(strstr(out.buf, "<svg ") > p);
	assert_true(strstr(out.buf, "<table class=\"rows\" id=\"rows\">") >
		    strstr(strstr(out.buf, "<svg ") + 1, "<svg "));
	assert_non_null(strstr(out.buf, "<th class=\"num\">5f155ea5ab</th>"));
	assert_null(strstr(out.buf, "bisect-"));
	/* everything from the results is escaped */
	assert_null(strstr(out.buf, "<script>alert"));
	assert_non_null(strstr(out.buf, "a &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;"));
	assert_null(strstr(out.buf, "x.<b>"));
	assert_non_null(strstr(out.buf, "x.&lt;b&gt;&amp;&quot;odd&quot;"));
	/* self-contained: no external reference of any kind */
	assert_null(strstr(out.buf, "src="));
	assert_null(strstr(out.buf, "href="));
	assert_null(strstr(out.buf, "url("));
	assert_null(strstr(out.buf, "@import"));
	assert_non_null(strstr(out.buf, "default-src 'none'"));
	/* one script, ours */
	p = strstr(out.buf, "<script>");
	assert_non_null(p);
	assert_null(strstr(p + 1, "<script>"));
	assert_non_null(strstr(out.buf, "id=\"filter\""));
	assert_non_null(strstr(out.buf, "id=\"sort-change\""));
	assert_non_null(strstr(out.buf, "id=\"count\""));
	/* a value with '/' stays whole */
	assert_non_null(strstr(out.buf, "<td>env_kernel_cmdline</td><td><code>root=/dev/vda1 quiet</code>"));
	strbuf_release(&out);
	strbuf_release(&err);
}

/* "what explains it": log-scale size weighted by significance */
static void test_rank_score(void **state)
{
	struct report_stat fall = { .name = "proc-vmstat.pgmajfault",
				    .base_mean = 10000, .head_mean = 100,
				    .q = 1e-4 };
	struct report_stat rise = { .name = "proc-vmstat.pgfree",
				    .base_mean = 1e6, .head_mean = 6e6,
				    .q = 1e-4 };
	struct report_stat weak = rise, zero = fall, none = fall;

	(void)state;
	/* a fall to 1% outranks a rise to 6x (relative: -99% vs +500%) */
	assert_true(report_rank_score(&fall) > report_rank_score(&rise));
	assert_true(fabs(report_rank_score(&fall) - log(100)) < 1e-9);
	/* the same change, barely significant, ranks lower */
	weak.q = 0.04;
	assert_true(report_rank_score(&weak) < report_rank_score(&rise));
	assert_true(report_rank_score(&weak) > 0);
	/* a side at zero is capped, not infinite */
	zero.head_mean = 0;
	assert_true(isfinite(report_rank_score(&zero)));
	assert_true(fabs(report_rank_score(&zero) - log(1000)) < 1e-9);
	none.base_mean = none.head_mean = 0;
	assert_true(report_rank_score(&none) == 0);
}

/*
 * report_separation: |2 AUC - 1| by ranks -- exact values for complete,
 * interleaved, tied and outlier samples; and its false and true rates on
 * seeded normal noise, which is what REPORT_MIN_SEPARATION rests on.
 */
static void test_separation(void **state)
{
	static const double lo[] = { 1, 2, 3 }, hi[] = { 4, 5, 6 };
	static const double odd[] = { 1, 3, 5 }, even[] = { 2, 4, 6 };
	static const double same[] = { 7, 7, 7, 7 };
	static const double wild[] = { 1, 2, 3, 1000 };
	double g[10], b[10];
	uint64_t rng = 23;
	size_t i, j, nfalse = 0, ntrue = 0, trials = 20000;

	(void)state;
	assert_true(fabs(report_separation(lo, 3, hi, 3) - 1) < 1e-12);
	assert_true(fabs(report_separation(hi, 3, lo, 3) - 1) < 1e-12);
	/* U = 1 + 2 + 3 of 9 pairs: AUC 2/3 */
	assert_true(fabs(report_separation(odd, 3, even, 3) - 1.0 / 3) < 1e-12);
	/* ties count half: identical samples do not separate at all */
	assert_true(report_separation(same, 4, same, 4) == 0);
	/* one wild good run costs its 3 pairs, not the whole mean */
	assert_true(fabs(report_separation(wild, 4, hi, 3) - 0.5) < 1e-12);
	assert_true(isnan(report_separation(lo, 2, hi, 3)));
	assert_true(isnan(report_separation(lo, 3, hi, 0)));
	/*
	 * 10 good and 10 bad runs: pure noise passes the threshold in under
	 * 0.5% of stats (measured: 25 of 20,000, 0.13%), a shift of 3
	 * run-sds in at least 95% (19,822, 99.1%)
	 */
	for (i = 0; i < trials; i++) {
		for (j = 0; j < 10; j++) {
			g[j] = history_gauss(&rng);
			b[j] = history_gauss(&rng);
		}
		nfalse += report_separation(g, 10, b, 10) >= REPORT_MIN_SEPARATION;
		for (j = 0; j < 10; j++)
			b[j] += 3;
		ntrue += report_separation(g, 10, b, 10) >= REPORT_MIN_SEPARATION;
	}
	print_message("separation >= %.2f: %zu of %zu noise stats, %zu of %zu "
		      "3-sd shifts\n", REPORT_MIN_SEPARATION, nfalse, trials,
		      ntrue, trials);
	assert_true(nfalse * 200 < trials);
	assert_true(ntrue * 100 >= trials * 95);
}

static void check_alias(const char *name, const char *key)
{
	struct strbuf sb = STRBUF_INIT;

	report_alias_key(name, &sb);
	assert_string_equal(sb.buf, key);
	strbuf_release(&sb);
}

static void test_alias_key(void **state)
{
	(void)state;
	check_alias("time.system_time", "time.system_time");
	check_alias("vm-scalability.time.system_time", "time.system_time");
	check_alias("mytest.time.elapsed_time.max", "time.elapsed_time.max");
	check_alias("proc-vmstat.numa_local", "proc-vmstat.numa_hit");
	check_alias("numa-vmstat.node0.numa_local", "numa-vmstat.node0.numa_hit");
	check_alias("proc-vmstat.numa_hit", "proc-vmstat.numa_hit");
	check_alias("proc-vmstat.numa_local_x", "proc-vmstat.numa_local_x");
	check_alias("perf-profile.calltrace.cycles-pp.clear_page_erms.clear_huge_page",
		    "perf-profile:clear_page_erms");
	check_alias("perf-profile.children.cycles-pp.clear_page_erms",
		    "perf-profile:clear_page_erms");
	check_alias("perf-profile.self.cpu-clock-pp.clear_page_erms",
		    "perf-profile:clear_page_erms");
	check_alias("perf-profile.cycles-pp.clear_page_erms.do_fault",
		    "perf-profile:clear_page_erms");
	check_alias("proc-vmstat.pgfault", "proc-vmstat.pgfault");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_subject),
		cmocka_unit_test(test_repro),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_html),
		cmocka_unit_test(test_rank_score),
		cmocka_unit_test(test_separation),
		cmocka_unit_test(test_alias_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
