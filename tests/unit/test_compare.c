/*
 * test_compare.c: detection quality of `perfsift compare` on synthetic
 * groups with fixed seeds (A/A, planted shifts, bimodal stats), the row
 * order and the table's number formats.
 */
#include "util/compat.h"
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "compare/compare.h"
#include "compare/rules.h"
#include "result/floor.h"
#include "result/matrix.h"
#include "result/reduce.h"
#include "select/select.h"
#include "store/store.h"
#include "util/fileutil.h"
#include "result/stats.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static uint64_t rng;

static double uniform(void)
{
	return ((double)(stats_splitmix64(&rng) >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

enum shape { NORMAL, BIMODAL };

/*
 * Names like real ones; the benchmark's own stats are KPIs.  These are
 * all workload stats: the noise guard's figures are about them.  The
 * counter proc-vmstat.nr_dirtied (one of LKP's event counters) stands
 * for a `*vmstat*nr_*` stat, so that LKP's floor of 100 for those is
 * exercised as before, but not a gauge of the machine's memory (nr_free_pages...):
 * those are machine-state stats, with rules of their own
 * (test_machine_state below).
 */
static char *stat_name(size_t s)
{
	static const char *const prefixes[] = {
		"proc-vmstat.nr_dirtied_", "perf-stat.ps.", "vm-scalability.",
		"proc-vmstat.pg", "perf-stat.overall.",
	};

	return xasprintf("%s%05zu", prefixes[s % ARRAY_SIZE(prefixes)], s);
}

/*
 * Two groups of n stats x runs; stats [0, nshift) of the head are
 * multiplied by 1 + shift.  Noise: 1% relative, normal.
 */
static void make_groups(struct result_group *g, size_t n, size_t runs,
			size_t nshift, double shift, enum shape shape,
			uint64_t seed)
{
	size_t k, s, r;

	rng = seed;
	for (k = 0; k < 2; k++) {
		struct matrix *m = &g[k].matrix;

		result_group_init(&g[k]);
		result_group_set_axis(&g[k], "testcase", "vm-scalability");
		result_group_set_axis(&g[k], "commit", k ? "head" : "base");
		g[k].label = xstrdup(k ? "head" : "base");
		m->nstats = n;
		m->nruns = runs;
		m->names = xcalloc(n, sizeof(char *));
		m->values = xcalloc(n * runs, sizeof(double));
		m->is_int = xcalloc(n, 1);
	}
	/* names sorted: zero-padded numbers within each prefix, then sort */
	for (s = 0; s < n; s++) {
		double mean = 1e4 * exp(uniform() * 5); /* 1e4 .. 1.5e6 */

		for (k = 0; k < 2; k++) {
			double f = k && s < nshift ? 1 + shift : 1;

			g[k].matrix.names[s] = stat_name(s);
			for (r = 0; r < runs; r++) {
				double c = mean;

				/* same mixture on both sides: half the runs in
				 * a second cluster at twice the value */
				if (shape == BIMODAL && (r + s + k) % 2)
					c *= 2;
				g[k].matrix.values[s * runs + r] =
					c * f * (1 + 0.01 * gauss());
			}
		}
	}
	for (k = 0; k < 2; k++) {
		struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
		struct matrix sorted;

		matrix_to_json(&g[k].matrix, &sb);
		assert_int_equal(matrix_parse_json(&sorted, sb.buf, sb.len, "t",
						   &err), 0);
		matrix_release(&g[k].matrix);
		g[k].matrix = sorted;
		strbuf_release(&sb);
		strbuf_release(&err);
	}
}

/* the modes compared: LKP's rules with the noise guard (the default),
 * without it (--lkp-exact), and the statistics */
enum mode { LKP, LKP_EXACT, STATS };

/* how many of the stats [0, nshift) resp. the others were flagged */
static void count_flags(struct result_group *g, enum mode mode,
			size_t nshift, size_t *hit, size_t *false_hit,
			size_t *not_unknown_or_same)
{
	const struct result_group *gp[2] = { &g[0], &g[1] };
	struct compare_options o;
	struct compare_result res;
	struct strbuf err = STRBUF_INIT;
	size_t i;

	compare_options_init(&o);
	o.method = mode == STATS ? COMPARE_STATS : COMPARE_LKP;
	o.lkp_exact = mode == LKP_EXACT;
	o.all = not_unknown_or_same != NULL;
	o.more = true;
	assert_int_equal(compare_groups(gp, 2, &o, &res, &err), 0);
	*hit = *false_hit = 0;
	if (not_unknown_or_same)
		*not_unknown_or_same = 0;
	for (i = 0; i < res.nrows; i++) {
		const struct compare_row *row = &res.rows[i];
		size_t idx = strtoul(strpbrk(row->name, "0123456789"), NULL, 10);

		if (row->changed) {
			if (idx < nshift)
				(*hit)++;
			else
				(*false_hit)++;
		}
		if (not_unknown_or_same && idx < nshift &&
		    row->cells[1].verdict == VERDICT_CHANGED)
			(*not_unknown_or_same)++;
	}
	compare_result_release(&res);
	strbuf_release(&err);
}

static void release_groups(struct result_group *g)
{
	result_group_release(&g[0]);
	result_group_release(&g[1]);
}

/*
 * A/A, 2,000 stats, 1% noise, 5 runs.  LKP's rules alone (--lkp-exact)
 * flag about 3.4%: each median outside the other's whole range happens
 * with probability 4.8% for 5 + 5 exchangeable runs, 3.5% after the 1.01
 * ratio floor.  The default adds the noise guard (below 10 runs, the
 * smaller p of a moderated t and Welch's under 0.001): under 1% -- about
 * 0.14%.  With 10 runs the guard is
 * off and LKP's rules flag about 0.1% by themselves.  Stats mode keeps the
 * FDR at 0.05 (all nulls: FDR = the share of replications with any
 * discovery).
 */
static void test_aa(void **state)
{
	struct result_group g[2];
	size_t hit, false_hit, lkp5 = 0, exact5 = 0, lkp10 = 0;
	size_t runs_with_discovery = 0;
	uint64_t seed;

	(void)state;
	for (seed = 1; seed <= 20; seed++) {
		make_groups(g, 2000, 5, 0, 0, NORMAL, seed);
		count_flags(g, LKP, 0, &hit, &false_hit, NULL);
		lkp5 += false_hit;
		count_flags(g, LKP_EXACT, 0, &hit, &false_hit, NULL);
		exact5 += false_hit;
		count_flags(g, STATS, 0, &hit, &false_hit, NULL);
		runs_with_discovery += false_hit > 0;
		release_groups(g);
	}
	for (seed = 1; seed <= 5; seed++) {
		make_groups(g, 2000, 10, 0, 0, NORMAL, 100 + seed);
		count_flags(g, LKP, 0, &hit, &false_hit, NULL);
		lkp10 += false_hit;
		release_groups(g);
	}
	print_message("A/A, 5 runs: default %zu of 40000, --lkp-exact %zu; 10 runs: %zu of 10000; "
		      "stats mode discovered in %zu of 20 replications\n",
		      lkp5, exact5, lkp10, runs_with_discovery);
	assert_true(lkp5 < 400);                    /* the goal: < 1% */
	assert_true(lkp5 < 150);                    /* measured: ~0.14% */
	assert_true(exact5 > 1000 && exact5 < 1800); /* LKP's 3.5% (2.5-4.5%) */
	assert_true(lkp10 < 100);                   /* < 1% */
	/* expected at most 1 of 20 at level 0.05; 3 allows for chance */
	assert_true(runs_with_discovery <= 3);
}

/* a 5% shift with 1% noise and 5 runs is flagged in every mode
 * (LKP, guarded or not: every one; stats mode: at Welch's power, >= 95 of
 * 100) */
static void test_planted_5pct(void **state)
{
	struct result_group g[2];
	size_t hit, false_hit;

	(void)state;
	make_groups(g, 2000, 5, 100, 0.05, NORMAL, 77);
	count_flags(g, LKP, 100, &hit, &false_hit, NULL);
	print_message("5%%: LKP %zu/100 (%zu false)\n", hit, false_hit);
	/*
	 * The 20 vm-scalability.* stats are the benchmark's own, implicit
	 * KPIs: their verdict is the interval's (Welch on the logs at
	 * 99.9%, 4-8 degrees of freedom), not LKP's rule, and a noisy draw
	 * can leave one undecided.  The other 80 are LKP's: every one.
	 */
	assert_true(hit >= 95);
	assert_true(false_hit < 19); /* the guarded A/A rate, < 1% of 1,900 */
	count_flags(g, LKP_EXACT, 100, &hit, &false_hit, NULL);
	print_message("5%%: --lkp-exact %zu/100 (%zu false)\n", hit, false_hit);
	assert_int_equal(hit, 100);
	assert_true(false_hit > 19 && false_hit < 95); /* LKP's ~3.5% */
	count_flags(g, STATS, 100, &hit, &false_hit, NULL);
	print_message("5%%: stats %zu/100 (%zu false)\n", hit, false_hit);
	/*
	 * Welch with 5 runs has 4-8 degrees of freedom: a planted stat
	 * whose samples came out noisy can miss BH's threshold (about
	 * 0.0025 here).  The power at this size is ~96%; FDR stays <= 5%.
	 * The 20 implicit KPIs are held to the KPI rule's 99.9% interval
	 * instead (the runs-until-decided loops look after every run),
	 * which misses a few more at 5 runs: 94 measured.
	 */
	assert_true(hit >= 92);
	assert_true((double)false_hit / (double)(hit + false_hit) <= 0.05);
	release_groups(g);
}

/*
 * 0.5%: not flagged by LKP mode (the guard lets about 0.7% of such stats
 * through, measured over 200,000), unknown or same in stats mode.  LKP's
 * rules alone flag about 8% with 5 runs (the range test passing by
 * chance, as in A/A), none with 10.
 */
static void test_planted_half_pct(void **state)
{
	struct result_group g[2];
	size_t hit, false_hit, changed;

	(void)state;
	make_groups(g, 2000, 5, 100, 0.005, NORMAL, 78);
	count_flags(g, LKP, 100, &hit, &false_hit, NULL);
	print_message("0.5%%, 5 runs: LKP %zu/100\n", hit);
	assert_true(hit <= 2);
	count_flags(g, LKP_EXACT, 100, &hit, &false_hit, NULL);
	print_message("0.5%%, 5 runs: --lkp-exact %zu/100\n", hit);
	assert_true(hit >= 3 && hit <= 15);
	count_flags(g, STATS, 100, &hit, &false_hit, &changed);
	print_message("0.5%%, 5 runs: stats changed %zu/100\n", changed);
	assert_int_equal(changed, 0);
	release_groups(g);
	make_groups(g, 2000, 10, 100, 0.005, NORMAL, 79);
	count_flags(g, LKP, 100, &hit, &false_hit, NULL);
	print_message("0.5%%, 10 runs: LKP %zu/100\n", hit);
	assert_true(hit <= 1);
	release_groups(g);
}

/* bimodal stats with the same mixture on both sides: not changed */
static void test_bimodal(void **state)
{
	struct result_group g[2];
	size_t hit, false_hit;

	(void)state;
	make_groups(g, 400, 6, 0, 0, BIMODAL, 99);
	count_flags(g, LKP, 0, &hit, &false_hit, NULL);
	assert_int_equal(false_hit, 0);
	count_flags(g, LKP_EXACT, 0, &hit, &false_hit, NULL);
	assert_int_equal(false_hit, 0);
	count_flags(g, STATS, 0, &hit, &false_hit, NULL);
	assert_int_equal(false_hit, 0);
	release_groups(g);
}

static void test_formats(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	compare_format_mean(&sb, 0);
	compare_format_mean(&sb, 999.994);
	compare_format_mean(&sb, 1694.99);
	compare_format_mean(&sb, 100000000);
	compare_format_mean(&sb, 2.002e9);
	compare_format_mean(&sb, -5.5);
	assert_string_equal(sb.buf, "      0.00    999.99      1694 100000000 2.002e+09     -5.50");
	strbuf_reset(&sb);
	compare_format_stddev(&sb, 10, 0);
	compare_format_stddev(&sb, 1694, 1694 * 1.7399);
	compare_format_stddev(&sb, 10, -1);
	compare_format_stddev(&sb, -10, 1);
	assert_string_equal(sb.buf, " \xc2\xb1  0% \xc2\xb1" "173%       \xc2\xb1 10%");
	strbuf_reset(&sb);
	compare_format_change(&sb, -50.97);
	compare_format_change(&sb, 9.94);
	compare_format_change(&sb, 5e105);
	assert_string_equal(sb.buf, "     -51.0%       +9.9%    +5e+105% ");
	strbuf_release(&sb);
}

/* failure rows: fails:runs and %reproduction, printed first */
static void test_failure_block(void **state)
{
	struct result_group g[2];
	const struct result_group *gp[2] = { &g[0], &g[1] };
	struct compare_options o;
	struct compare_result res;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	size_t k;

	(void)state;
	for (k = 0; k < 2; k++) {
		struct matrix *m = &g[k].matrix;
		size_t r;

		result_group_init(&g[k]);
		g[k].label = xstrdup(k ? "head" : "base");
		m->nstats = 2;
		m->nruns = 5;
		m->names = xcalloc(2, sizeof(char *));
		m->names[0] = xstrdup("dmesg.WARNING:at_mm/page_alloc.c");
		m->names[1] = xstrdup("vm-scalability.throughput");
		m->values = xcalloc(10, sizeof(double));
		m->is_int = xcalloc(2, 1);
		for (r = 0; r < 5; r++) {
			m->values[r] = k && r < 4 ? 1 : 0;
			m->values[5 + r] = k ? 7496683 : 5006238;
		}
	}
	result_group_set_axis(&g[0], "testcase", "vm-scalability");
	result_group_set_axis(&g[1], "testcase", "vm-scalability");
	compare_options_init(&o);
	assert_int_equal(compare_groups(gp, 2, &o, &res, &err), 0);
	assert_int_equal(res.nrows, 2);
	compare_render_text(&res, &out);
	assert_non_null(strstr(out.buf,
		"       fail:runs  %reproduction    fail:runs\n"
		"           |             |             |    \n"
		"           :5           80%           4:5     dmesg.WARNING:at_mm/page_alloc.c\n"
		"         %stddev     %change         %stddev\n"
		"             \\          |                \\  \n"
		"   5006238 \xc2\xb1  0%     +49.7%    7496683 \xc2\xb1  0%  vm-scalability.throughput\n"));
	/* the throughput rose: an improvement, exit status 0 */
	assert_false(res.kpi_regressed);
	compare_result_release(&res);
	/* swapped: a KPI regression */
	gp[0] = &g[1];
	gp[1] = &g[0];
	assert_int_equal(compare_groups(gp, 2, &o, &res, &err), 0);
	assert_true(res.kpi_regressed);
	compare_result_release(&res);
	release_groups(g);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* BASE/HEAD through the index: commit prefixes and key=value selectors */
static void test_select_store(void **state)
{
	char tmpl[] = "/tmp/perfsift-test-select.XXXXXX";
	char *root = mkdtemp(tmpl);
	struct store st;
	struct strbuf err = STRBUF_INIT, dir = STRBUF_INIT;
	struct select_ctx ctx;
	struct result_group g;
	static const char *const commits[] = { "aaaa1111", "bbbb2222" };
	size_t c, r;

	(void)state;
	assert_non_null(root);
	assert_int_equal(store_open(&st, root, NULL, STORE_CREATE, &err), 0);
	for (c = 0; c < 2; c++) {
		int present[3] = { 0, 1, 2 };

		strbuf_reset(&dir);
		strbuf_addf(&dir, "%s/tc/defaults/box/debian/defconfig/gcc/%s",
			    root, commits[c]);
		for (r = 0; r < 3; r++) {
			struct reduce_stats rs;
			struct store_run_record rec;
			/* aaaa's job said `runtime: 5m`: the floors' 300 s */
			struct store_param param[2] = {
				{ (char *)"thp", (char *)(c ? "never" : "always"),
				  STORE_PARAM_JOB },
				{ (char *)"runtime", (char *)"5m", STORE_PARAM_JOB },
			};
			char *run = xasprintf("%s/%zu", dir.buf, r);

			/* on disk too: the index's sync forgets a run that is not */
			assert_int_equal(mkdir_p(run, 0755), 0);
			reduce_stats_init(&rs);
			reduce_stats_add(&rs, "tc.throughput", 100.0 * (double)(c + 1) + (double)r, false);
			reduce_stats_add(&rs, "proc-vmstat.nr_x", 5, true);
			reduce_stats_sort(&rs);
			memset(&rec, 0, sizeof(rec));
			rec.group_dir = dir.buf;
			rec.axes[STORE_TESTCASE] = "tc";
			rec.axes[STORE_PATH_PARAMS] = "defaults";
			rec.axes[STORE_TBOX_GROUP] = "box";
			rec.axes[STORE_ROOTFS] = "debian";
			rec.axes[STORE_KCONFIG] = "defconfig";
			rec.axes[STORE_COMPILER] = "gcc";
			rec.axes[STORE_COMMIT] = commits[c];
			rec.params = param;
			rec.nparams = c ? 1 : 2;
			rec.number = (int)r;
			rec.complete = true;
			rec.run_dir = run;
			rec.stats = &rs;
			rec.present_runs = present;
			rec.npresent = 3;
			assert_int_equal(store_index_run(&st, &rec, &err), 0);
			reduce_stats_release(&rs);
			free(run);
		}
	}
	store_close(&st);
	ctx.result_root = root;
	ctx.store_url = NULL;
	assert_int_equal(select_group(&ctx, "bbbb", &g, &err), 0);
	assert_string_equal(g.label, "bbbb2222");
	assert_int_equal(g.matrix.nruns, 3);
	assert_int_equal(g.matrix.nstats, 2);
	assert_string_equal(result_group_axis(&g, "testcase"), "tc");
	assert_string_equal(result_group_axis(&g, "thp"), "never");
	assert_null(result_group_axis(&g, "path_params"));
	/* no runtime said and no job file to read: unknown (compare measures) */
	assert_true(g.runtime_s == 0);
	result_group_release(&g);
	assert_int_equal(select_group(&ctx, "thp=always", &g, &err), 0);
	assert_string_equal(g.label, "aaaa1111");
	/* the runtime axis read as a job's runtime is (param_text_value) */
	assert_string_equal(result_group_axis(&g, "runtime"), "5m");
	assert_true(g.runtime_s == 300);
	result_group_release(&g);
	strbuf_reset(&err);
	assert_int_equal(select_group(&ctx, "testcase=tc", &g, &err), -1);
	assert_non_null(strstr(err.buf, "ambiguous"));
	assert_non_null(strstr(err.buf, "aaaa1111"));
	strbuf_reset(&err);
	assert_int_equal(select_group(&ctx, "cccc", &g, &err), -1);
	assert_non_null(strstr(err.buf, "matches no result group"));
	remove_tree(root);
	strbuf_release(&err);
	strbuf_release(&dir);
}

/*
 * A group read from its directory gets the runtime its benchmark ran
 * for, as the engine planned it (param_runtime): a vm-scalability job
 * that says none ran LKP's 300 s, and so did one that said 0, so the
 * floors of time-valued stats scale the same as for `runtime: 300`.
 */
static double dir_runtime(const char *job_yaml)
{
	char tmpl[] = "/tmp/perfsift-test-runtime.XXXXXX";
	char *root = mkdtemp(tmpl);
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	static const char stats[] = "{\n  \"vm-scalability.throughput\": 5\n}\n";
	struct result_group g;
	double s;

	assert_non_null(root);
	strbuf_addf(&path, "%s/1", root);
	assert_int_equal(mkdir_p(path.buf, 0700), 0);
	strbuf_addstr(&path, "/stats.json");
	assert_int_equal(write_file_atomic(path.buf, stats, strlen(stats)), 0);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/1/job.yaml", root);
	assert_int_equal(write_file_atomic(path.buf, job_yaml, strlen(job_yaml)), 0);
	memset(&g, 0, sizeof(g));
	if (select_group_dir(root, &g, &err))
		fail_msg("select_group_dir: %s", err.buf);
	s = g.runtime_s;
	result_group_release(&g);
	remove_tree(root);
	strbuf_release(&path);
	strbuf_release(&err);
	return s;
}

static void test_select_dir_runtime(void **state)
{
	(void)state;
	assert_true(dir_runtime("testcase: vm-scalability\n"
				"vm-scalability:\n  test: anon-w-seq\n") == 300);
	assert_true(dir_runtime("testcase: vm-scalability\nruntime: 0\n"
				"vm-scalability:\n  test: anon-w-seq\n") == 300);
	assert_true(dir_runtime("testcase: vm-scalability\nruntime: 5m\n"
				"vm-scalability:\n  test: anon-w-seq\n") == 300);
	assert_true(dir_runtime("testcase: vm-scalability\nruntime: 90s\n"
				"vm-scalability:\n  test: anon-w-seq\n") == 90);
	/* a benchmark without a default: unknown, the elapsed time stands in */
	assert_true(dir_runtime("testcase: t\nmytest:\n  cmdline: \"true\"\n") == 0);
	assert_true(dir_runtime("testcase: t\nruntime: 20\nmytest:\n"
				"  cmdline: \"true\"\n") == 20);
}

/*
 * A missing value is missing, not 0: base has a throughput the head lacks
 * (it would be LKP's -100.0%), head has a stat the base lacks (+5e+105%),
 * and one stat lacks two of the head's five runs (LKP: padded with 0).
 */
static void make_missing_groups(struct result_group *g)
{
	static const char *const names[] = {
		"dmesg.WARNING:at_mm/page_alloc.c", "vm-scalability.new_stat",
		"vm-scalability.some_runs", "vm-scalability.throughput",
	};
	size_t k, s, r;

	for (k = 0; k < 2; k++) {
		struct matrix *m = &g[k].matrix;

		result_group_init(&g[k]);
		g[k].label = xstrdup(k ? "head" : "base");
		result_group_set_axis(&g[k], "testcase", "vm-scalability");
		m->nstats = 4;
		m->nruns = 5;
		m->names = xcalloc(4, sizeof(char *));
		for (s = 0; s < 4; s++)
			m->names[s] = xstrdup(names[s]);
		m->values = xcalloc(20, sizeof(double));
		m->is_int = xcalloc(4, 1);
		for (r = 0; r < 5; r++) {
			/* a failure stat's absence is "did not happen" */
			m->values[r] = k && r < 2 ? 1 : 0;
			m->values[5 + r] = 40 + (double)r;
			m->values[10 + r] = 100 + (double)r;
			m->values[15 + r] = 5006238 + 1000 * (double)r;
		}
		for (r = 0; r < 5; r++) {
			if (!k)
				matrix_set_missing(m, 1, r); /* base: no new_stat */
			else
				matrix_set_missing(m, 3, r); /* head: no throughput */
			if (!k)
				matrix_set_missing(m, 0, r); /* no warning in base */
		}
		if (k) {
			matrix_set_missing(m, 2, 0);
			matrix_set_missing(m, 2, 3);
		}
	}
}

static void test_missing_values(void **state)
{
	struct result_group g[2];
	const struct result_group *gp[2] = { &g[0], &g[1] };
	struct compare_options o;
	struct compare_result res;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	int pass;

	(void)state;
	make_missing_groups(g);
	/* the guard, --lkp-exact, stats mode: never a change */
	for (pass = 0; pass < 3; pass++) {
		size_t i;

		compare_options_init(&o);
		o.lkp_exact = pass == 1;
		o.method = pass == 2 ? COMPARE_STATS : COMPARE_LKP;
		o.all = true;
		assert_int_equal(compare_groups(gp, 2, &o, &res, &err), 0);
		assert_int_equal(res.nrows, 4);
		for (i = 0; i < res.nrows; i++) {
			const struct compare_row *row = &res.rows[i];
			const struct compare_cell *b = &row->cells[0];
			const struct compare_cell *h = &row->cells[1];

			if (!strcmp(row->name, "vm-scalability.throughput")) {
				assert_true(b->present && !h->present);
				assert_false(row->changed);
				assert_true(isnan(h->change) && isnan(h->mean));
				assert_int_equal(h->missing, 5);
				assert_int_equal(h->lkp, LKP_SKIP_MISSING);
			} else if (!strcmp(row->name, "vm-scalability.new_stat")) {
				assert_true(!b->present && h->present);
				assert_false(row->changed);
				assert_true(isnan(h->change));
				assert_int_equal(h->lkp, LKP_SKIP_NO_BASE);
			} else if (!strcmp(row->name, "vm-scalability.some_runs")) {
				/* the mean of 101, 102, 104; not (0+101+102+0+104)/5 */
				assert_int_equal(h->nruns, 3);
				assert_int_equal(h->missing, 2);
				assert_true(fabs(h->mean - 307.0 / 3) < 1e-9);
				assert_false(row->changed);
			} else {
				/* 2 of 5 head runs warned, none of the base's */
				assert_true(row->is_function);
				assert_int_equal(h->nruns, 5);
				assert_true(fabs(h->change - 40) < 1e-9);
			}
		}
		compare_render_text(&res, &out);
		assert_null(strstr(out.buf, "-100.0%"));
		assert_null(strstr(out.buf, "e+"));
		assert_non_null(strstr(out.buf,
			"   5008238 \xc2\xb1  0%       gone          -        vm-scalability.throughput\n"));
		assert_non_null(strstr(out.buf,
			"         -              new      42.00 \xc2\xb1  3%  vm-scalability.new_stat\n"));
		strbuf_reset(&out);
		compare_render_json(&res, &o, &out);
		assert_non_null(strstr(out.buf, "\"present\": false, \"runs\": 0, \"missing_runs\": 5, \"mean\": null"));
		strbuf_reset(&out);
		compare_render_csv(&res, &out);
		assert_non_null(strstr(out.buf, "\nvm-scalability.throughput,perf,"));
		assert_null(strstr(out.buf, ",-100,"));
		strbuf_reset(&out);
		compare_result_release(&res);
	}
	/*
	 * Without --all, no row for the one-sided stats; the benchmark's
	 * own some_runs is an implicit KPI, judged although it has no
	 * direction (3 + 5 runs 1.6% apart: undecided at 99.9%), so shown.
	 */
	compare_options_init(&o);
	assert_int_equal(compare_groups(gp, 2, &o, &res, &err), 0);
	{
		size_t i;

		for (i = 0; i < res.nrows; i++) {
			const struct compare_row *row = &res.rows[i];

			if (row->is_function)
				continue;
			assert_string_equal(row->name, "vm-scalability.some_runs");
			assert_true(row->cells[1].kpi_judged);
			assert_int_equal(row->cells[1].kpi_verdict,
					 VERDICT_UNKNOWN);
		}
	}
	compare_result_release(&res);
	release_groups(g);
	strbuf_release(&out);
	strbuf_release(&err);
}


/* a group of one testcase: stats names[0..ns) of nr runs, v row-major */
static void small_group(struct result_group *g, const char *label,
			const char *testcase, const char *kpi,
			const char *const *names, size_t ns, size_t nr,
			const double *v)
{
	struct matrix *m = &g->matrix;
	size_t s;

	result_group_init(g);
	g->label = xstrdup(label);
	result_group_set_axis(g, "testcase", testcase);
	result_group_set_axis(g, "commit", label);
	if (kpi)
		g->kpi = xstrdup(kpi);
	m->nstats = ns;
	m->nruns = nr;
	m->names = xcalloc(ns, sizeof(char *));
	for (s = 0; s < ns; s++)
		m->names[s] = xstrdup(names[s]);
	m->values = xmalloc(ns * nr * sizeof(double));
	memcpy(m->values, v, ns * nr * sizeof(double));
	m->is_int = xcalloc(ns, 1);
}

static const struct compare_row *row_named(const struct compare_result *res,
					   const char *name)
{
	size_t i;

	for (i = 0; i < res->nrows; i++)
		if (!strcmp(res->rows[i].name, name))
			return &res->rows[i];
	return NULL;
}

/*
 * Each KPI on its own: compress falls 30% on 10 steady runs a side --
 * changed, regressed; decompress is unchanged but noisy (+-25%) and
 * undecided.  The head is regressed, and the noisy one holds nothing back.
 */
static void test_each_kpi_on_its_own(void **state)
{
	static const char *const names[] = { "mytest.compress", "mytest.decompress" };
	static const double base[] = {
		356, 350, 360, 352, 358, 355, 357, 351, 359, 354,
		100, 140, 75, 120, 90, 130, 70, 110, 95, 125,
	};
	static const double head[] = {
		241, 245, 238, 243, 240, 244, 239, 242, 246, 237,
		130, 80, 115, 72, 135, 98, 127, 88, 105, 141,
	};
	struct result_group g[2];
	const struct result_group *gp[2] = { &g[0], &g[1] };
	struct compare_options o;
	struct compare_result res;
	struct compare_kpi_tally t;
	struct strbuf err = STRBUF_INIT;
	const struct compare_row *r;

	(void)state;
	small_group(&g[0], "base", "mytest",
		    "mytest.compress: higher; mytest.decompress: higher",
		    names, 2, 10, base);
	small_group(&g[1], "head", "mytest",
		    "mytest.compress: higher; mytest.decompress: higher",
		    names, 2, 10, head);
	compare_options_init(&o);
	o.kpi = true;
	assert_int_equal(compare_groups(gp, 2, &o, &res, &err), 0);
	r = row_named(&res, "mytest.compress");
	assert_non_null(r);
	assert_int_equal(r->cells[1].kpi_verdict, VERDICT_CHANGED);
	assert_true(r->cells[1].kpi_hi < 0);
	r = row_named(&res, "mytest.decompress");
	assert_non_null(r);
	assert_int_equal(r->cells[1].kpi_verdict, VERDICT_UNKNOWN);
	compare_kpi_tally(&res, &t);
	assert_int_equal(t.regressed, 1);
	assert_int_equal(t.undecided, 0);     /* nothing holds it back */
	assert_int_equal(t.undecided_all, 1); /* though one is undecided */
	assert_string_equal(t.worst->name, "mytest.compress");
	assert_true(res.kpi_regressed);
	compare_result_release(&res);
	release_groups(g);
	strbuf_release(&err);
}

/*
 * Item 11: no `kpi:` -- the program's own stats are the KPIs, judged
 * though they have no direction: base 100/102/98 vs head 300/1200/700
 * is a row (undecided at 3 runs a side), never silently withheld; with
 * 6 runs a side a steady +200% is changed (no direction: no regression).
 */
static void test_undeclared_benchmark_stat_shown(void **state)
{
	static const char *const names[] = { "mytest.score" };
	static const double b3[] = { 100, 102, 98 }, a3[] = { 300, 1200, 700 };
	static const double b6[] = { 100, 102, 98, 101, 99, 100 };
	static const double a6[] = { 300, 310, 290, 305, 295, 300 };
	struct result_group g[2];
	const struct result_group *gp[2] = { &g[0], &g[1] };
	struct compare_options o;
	struct compare_result res;
	struct strbuf err = STRBUF_INIT;
	const struct compare_row *r;

	(void)state;
	small_group(&g[0], "base", "tiny", NULL, names, 1, 3, b3);
	small_group(&g[1], "head", "tiny", NULL, names, 1, 3, a3);
	compare_options_init(&o);
	assert_int_equal(compare_groups(gp, 2, &o, &res, &err), 0);
	r = row_named(&res, "mytest.score");
	assert_non_null(r);
	assert_true(r->is_kpi);
	assert_true(r->cells[1].kpi_judged);
	assert_int_equal(r->cells[1].kpi_verdict, VERDICT_UNKNOWN);
	compare_result_release(&res);
	release_groups(g);
	small_group(&g[0], "base", "tiny", NULL, names, 1, 6, b6);
	small_group(&g[1], "head", "tiny", NULL, names, 1, 6, a6);
	assert_int_equal(compare_groups(gp, 2, &o, &res, &err), 0);
	r = row_named(&res, "mytest.score");
	assert_non_null(r);
	assert_int_equal(r->cells[1].kpi_verdict, VERDICT_CHANGED);
	assert_true(r->changed);
	assert_false(res.kpi_regressed);
	compare_result_release(&res);
	release_groups(g);
	strbuf_release(&err);
}

/* ---- perfsift's default rules for machine-state stats (rules.h) ---- */

/*
 * One stat of the machine-state tests: its name, the base's five runs
 * (around 1, times its scale) and the head's factor.
 */
struct named_stat {
	const char *name;
	double scale;
	const double *base; /* five values around 1 */
	double factor;
	bool flagged;       /* expected in the default selection */
};

/* steady sides, 1% apart run to run */
static const double steady[5] = { 0.99, 0.995, 1.0, 1.005, 1.01 };
/* sides spreading by +-10% (a noisy level of the machine) */
static const double noisy[5] = { 0.9, 0.95, 1.0, 1.05, 1.1 };

/* two groups holding stats[0..n), five runs each, names sorted */
static void make_named_groups(struct result_group *g,
			      const struct named_stat *stats, size_t n)
{
	size_t k, s, r;

	for (k = 0; k < 2; k++) {
		struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
		struct matrix m;

		result_group_init(&g[k]);
		result_group_set_axis(&g[k], "testcase", "vm-scalability");
		result_group_set_axis(&g[k], "commit", k ? "head" : "base");
		g[k].label = xstrdup(k ? "head" : "base");
		memset(&m, 0, sizeof(m));
		m.nstats = n;
		m.nruns = 5;
		m.names = xcalloc(n, sizeof(char *));
		m.values = xcalloc(n * 5, sizeof(double));
		m.is_int = xcalloc(n, 1);
		for (s = 0; s < n; s++) {
			m.names[s] = xstrdup(stats[s].name);
			for (r = 0; r < 5; r++)
				m.values[s * 5 + r] = stats[s].scale *
						      stats[s].base[r] *
						      (k ? stats[s].factor : 1);
		}
		/* through the JSON: sorted as a real matrix.json reads */
		matrix_to_json(&m, &sb);
		assert_int_equal(matrix_parse_json(&g[k].matrix, sb.buf, sb.len,
						   "t", &err), 0);
		matrix_release(&m);
		strbuf_release(&sb);
		strbuf_release(&err);
	}
}

/* the default selection (lkp_exact false) or LKP's alone: is name in it? */
static bool selected(const struct compare_result *res, const char *name)
{
	size_t i;

	for (i = 0; i < res->nrows; i++)
		if (!strcmp(res->rows[i].name, name))
			return res->rows[i].changed;
	return false;
}

/*
 * The same change in a machine-state stat and in a workload stat: a
 * machine-state stat that steps by 6% between two steady batches (the
 * page cache when something else on the machine read files) or by 40%
 * while each side spreads by +-10% (idle time, run queues) is not
 * flagged; the same numbers in workload stats are.  A large clean change
 * of the machine's state (huge pages 3x) still is; a perf-profile share
 * under 1% of the samples and a PID are not; --lkp-exact keeps LKP's
 * selection of every one.  Fails without the rules: LKP's rules and the
 * noise guard select every row.
 */
static void test_machine_state(void **state)
{
	static const struct named_stat stats[] = {
		/* a 6% step of steady sides: the class floor */
		{ "meminfo.PageTables", 1e5, steady, 1.06, false },
		{ "proc-vmstat.nr_file_pages", 4e5, steady, 1.06, false },
		{ "sched_debug.cfs_rq:/.load_avg.avg", 2e3, steady, 1.06, false },
		{ "proc-vmstat.pgfault", 4e5, steady, 1.06, true },
		{ "perf-stat.ps.page-faults", 1e5, steady, 1.06, true },
		/* 40% within a +-10% spread: the spread rule */
		{ "cpuidle.POLL.time", 1e6, noisy, 1.4, false },
		{ "vmstat.cpu.id", 50, noisy, 1.4, false },
		{ "mpstat.cpu.all.nice%", 40, noisy, 1.4, false },
		{ "proc-vmstat.pgalloc_normal", 1e6, noisy, 1.4, true },
		{ "perf-stat.ps.context-switches", 1e4, noisy, 1.4, true },
		/* a real change of the machine's state */
		{ "meminfo.AnonHugePages", 1e6, steady, 3, true },
		/* perf-profile: a handful of samples, and a real share */
		{ "perf-profile.children.cycles-pp.set_ptes", 0.1, steady, 2, false },
		{ "perf-profile.children.cycles-pp.do_fault", 5, steady, 2, true },
		/* an identifier */
		{ "sched_debug.cpu.curr->pid.max", 5e3, steady, 2, false },
	};
	const struct result_group *gp[2];
	struct result_group g[2];
	struct compare_options o;
	struct compare_result res;
	struct strbuf err = STRBUF_INIT;
	size_t i;

	(void)state;
	make_named_groups(g, stats, ARRAY_SIZE(stats));
	gp[0] = &g[0];
	gp[1] = &g[1];
	compare_options_init(&o);
	o.all = true;
	assert_int_equal(compare_groups(gp, 2, &o, &res, &err), 0);
	for (i = 0; i < ARRAY_SIZE(stats); i++) {
		print_message("%-40s default %s\n", stats[i].name,
			      selected(&res, stats[i].name) ? "flagged" : "-");
		assert_int_equal(selected(&res, stats[i].name), stats[i].flagged);
	}
	compare_result_release(&res);
	/* LKP's selection is every one of them, as LKP's own compare */
	o.lkp_exact = true;
	assert_int_equal(compare_groups(gp, 2, &o, &res, &err), 0);
	for (i = 0; i < ARRAY_SIZE(stats); i++) {
		if (!selected(&res, stats[i].name))
			print_message("--lkp-exact left out %s\n", stats[i].name);
		assert_true(selected(&res, stats[i].name));
	}
	compare_result_release(&res);
	release_groups(g);
	strbuf_release(&err);
}

/* the rules one by one, in the order stat_noise_rule() checks them */
static void test_noise_rule(void **state)
{
	static const double lo[5] = { 99, 99.5, 100, 100.5, 101 };
	static const double hi[5] = { 129, 129.5, 130, 130.5, 131 };
	static const double near[5] = { 100.2, 100.8, 101.4, 102, 102.6 };
	static const double share_lo[3] = { 0.1, 0.12, 0.11 };
	static const double share_hi[3] = { 0.5, 0.52, 0.51 };
	const double f = STAT_MACHINE_STATE_FLOOR_PCT;

	(void)state;
	assert_true(stat_is_machine_state("meminfo.PageTables"));
	assert_true(stat_is_machine_state("proc-vmstat.nr_free_pages"));
	assert_true(stat_is_machine_state("perf-profile.self.cycles-pp.memset"));
	assert_true(stat_is_machine_state("numa-vmstat.node0.nr_active_anon"));
	/* LKP's event counters and the workload's own are not */
	assert_false(stat_is_machine_state("proc-vmstat.nr_dirtied"));
	assert_false(stat_is_machine_state("numa-vmstat.node0.numa_hit"));
	assert_false(stat_is_machine_state("proc-vmstat.pgfault"));
	assert_false(stat_is_machine_state("vm-scalability.throughput"));
	assert_false(stat_is_machine_state("interrupts.CPU0.LOC:Local_timer_interrupts"));
	assert_true(stat_is_identifier("sched_debug.cpu.curr->pid.avg"));
	assert_false(stat_is_identifier("sched_debug.cpu.nr_running.avg"));

	assert_int_equal(stat_noise_rule("sched_debug.cpu.curr->pid.max", hi, 5, lo, 5, f),
			 NOISE_RULE_IDENTIFIER);
	assert_int_equal(stat_noise_rule("perf-profile.self.cycles-pp.x", share_hi, 3,
					 share_lo, 3, f), NOISE_RULE_SMALL_SHARE);
	assert_int_equal(stat_noise_rule("meminfo.Shmem", hi, 2, lo, 5, f),
			 NOISE_RULE_FEW_RUNS);
	/* 130 vs 100: apart by more than either side spreads, above 10% */
	assert_int_equal(stat_noise_rule("meminfo.Shmem", hi, 5, lo, 5, f),
			 NOISE_RULE_PASS);
	/* sides that overlap: the spread rule; 30% under a floor of 40% */
	assert_int_equal(stat_noise_rule("meminfo.Shmem", near, 5, lo, 5, f),
			 NOISE_RULE_SPREAD);
	assert_int_equal(stat_noise_rule("meminfo.Shmem", hi, 5, lo, 5, 40),
			 NOISE_RULE_FLOOR);
	/* a workload stat: none of the machine-state rules */
	assert_int_equal(stat_noise_rule("proc-vmstat.pgfault", near, 2, lo, 5, f),
			 NOISE_RULE_PASS);
	assert_string_equal(stat_noise_rule_name(NOISE_RULE_SPREAD),
			    "machine-state-spread");
}

/* a floor of pct for every stat of g's matrix, as select_group attaches it */
static void give_floor(struct result_group *g, double pct)
{
	size_t s;

	g->floor = xcalloc(1, sizeof(*g->floor));
	noise_floor_init(g->floor);
	g->floor->series = xstrdup("vm-scalability/x/box/debian/def/gcc");
	g->floor->machine = xstrdup("box");
	g->floor->commit = xstrdup("k");
	g->floor->runs = 5;
	for (s = 0; s < g->matrix.nstats; s++)
		noise_floor_add(g->floor, g->matrix.names[s], pct);
	noise_floor_sort(g->floor);
}

/*
 * The calibrated floor: 40 of 400 stats shifted 5% (1% noise, 5 runs)
 * are all flagged without a floor; with a floor of 4% (2 x 4 = 8%, where
 * a 5% shift measured at 5 runs a side is 5 +- 0.63%) none is, every cell records the floor and that it was within it; a
 * 1% floor (2% < 5%) unflags none; --no-calibration and --lkp-exact
 * leave the floor unused.  Either group's floor counts (the larger).
 */
static void test_noise_floor(void **state)
{
	struct result_group g[2];
	size_t hit, false_hit;

	(void)state;
	make_groups(g, 400, 5, 40, 0.05, NORMAL, 81);
	count_flags(g, LKP, 40, &hit, &false_hit, NULL);
	assert_int_equal(hit, 40);
	give_floor(&g[0], 4);
	count_flags(g, LKP, 40, &hit, &false_hit, NULL);
	assert_int_equal(hit, 0);
	assert_int_equal(false_hit, 0);
	count_flags(g, STATS, 40, &hit, &false_hit, NULL);
	assert_int_equal(hit, 0);
	count_flags(g, LKP_EXACT, 40, &hit, &false_hit, NULL);
	assert_int_equal(hit, 40);
	{
		const struct result_group *gp[2] = { &g[0], &g[1] };
		struct compare_options o;
		struct compare_result res;
		struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
		size_t i, within = 0;

		compare_options_init(&o);
		o.all = true;
		assert_int_equal(compare_groups(gp, 2, &o, &res, &err), 0);
		assert_ptr_equal(res.floor, g[0].floor);
		for (i = 0; i < res.nrows; i++) {
			assert_float_equal(res.rows[i].cells[1].floor_pct, 4, 0);
			within += res.rows[i].cells[1].within_floor;
		}
		assert_int_equal(within, 400);
		compare_render_text(&res, &out);
		assert_non_null(strstr(out.buf, "\nnoise floor: calibrated 1970-01-01 00:00 UTC, 2 x 5 runs"));
		compare_result_release(&res);
		o.no_calibration = true;
		assert_int_equal(compare_groups(gp, 2, &o, &res, &err), 0);
		assert_null(res.floor);
		assert_true(isnan(res.rows[0].cells[1].floor_pct));
		compare_result_release(&res);
		strbuf_release(&out);
		strbuf_release(&err);
	}
	/* the head's floor alone counts too; a smaller floor unflags nothing */
	noise_floor_release(g[0].floor);
	free(g[0].floor);
	g[0].floor = NULL;
	give_floor(&g[1], 1);
	count_flags(g, LKP, 40, &hit, &false_hit, NULL);
	assert_int_equal(hit, 40);
	release_groups(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_failure_block),
		cmocka_unit_test(test_missing_values),
		cmocka_unit_test(test_each_kpi_on_its_own),
		cmocka_unit_test(test_undeclared_benchmark_stat_shown),
		cmocka_unit_test(test_select_store),
		cmocka_unit_test(test_select_dir_runtime),
		cmocka_unit_test(test_bimodal),
		cmocka_unit_test(test_planted_5pct),
		cmocka_unit_test(test_planted_half_pct),
		cmocka_unit_test(test_aa),
		cmocka_unit_test(test_machine_state),
		cmocka_unit_test(test_noise_rule),
		cmocka_unit_test(test_noise_floor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
