/*
 * test_history.c: the change-point detection of history/detect.c -- small cases
 * worked by hand (one step, none, a glitch run, a glitch commit, the
 * minimum segment, a short excursion in a long series) and the quality
 * goals of docs/history.md on synthetic series with fixed seeds: 300
 * commits x 3 runs with 1-3 steps of 2-5 noise sds, each step found
 * within 2 commits in >= 95% of series; flat series, a false change point
 * in <= 5%.  Both tests (Welch and permutation) are held to the goals.
 * And history_detect()'s remembered windows and incremental pruning give
 * the plain search's change points bit for bit (issue 25's F8).
 */
#include "util/compat.h"
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "history/history.h"
#include "compare/rules.h"
#include "result/stats.h"

#define NC 300
#define NR 3

static double vals[20000 * NR];
static struct history_point pts[20000];

static void point_series(size_t nc, size_t nr)
{
	size_t i;

	for (i = 0; i < nc; i++) {
		pts[i].v = vals + i * nr;
		pts[i].n = nr;
	}
}

/* a flat series of nc x nr with noise sd 1 around 100 */
static void flat(uint64_t *rng, size_t nc, size_t nr)
{
	size_t i;

	for (i = 0; i < nc * nr; i++)
		vals[i] = 100 + history_gauss(rng);
	point_series(nc, nr);
}

static void test_one_step(void **state)
{
	struct history_params p;
	struct history_result r;
	uint64_t rng = 1;
	size_t i;

	(void)state;
	flat(&rng, 100, 3);
	for (i = 60 * 3; i < 100 * 3; i++)
		vals[i] += 4; /* +4% at commit 60 */
	history_params_init(&p);
	history_detect(pts, 100, &p, &r);
	assert_int_equal(r.nchanges, 1);
	assert_int_equal(r.changes[0].index, 60);
	assert_true(fabs(r.changes[0].before - 100) < 0.5);
	assert_true(fabs(r.changes[0].after - 104) < 0.5);
	assert_true(r.changes[0].change_pct > 3 && r.changes[0].change_pct < 5);
	assert_true(r.changes[0].ci_lo < r.changes[0].change_pct);
	assert_true(r.changes[0].ci_hi > r.changes[0].change_pct);
	assert_true(r.changes[0].p < 1e-10);
	assert_int_equal(r.changes[0].nbefore, 50);
	assert_int_equal(r.changes[0].nafter, 40);
	assert_int_equal(r.noutliers, 0);
	history_result_release(&r);
}

static void test_noiseless_step(void **state)
{
	struct history_params p;
	struct history_result r;
	size_t i;

	(void)state;
	/* integer counts: 5 5 5 ... 6 6 6: exact, p = 0 */
	for (i = 0; i < 20; i++)
		vals[i] = i < 12 ? 5 : 6;
	point_series(20, 1);
	history_params_init(&p);
	history_detect(pts, 20, &p, &r);
	assert_int_equal(r.nchanges, 1);
	assert_int_equal(r.changes[0].index, 12);
	assert_true(r.changes[0].p == 0);
	assert_true(fabs(r.changes[0].change_pct - 20) < 1e-9);
	assert_int_equal(r.noutliers, 0);
	history_result_release(&r);
}

static void test_glitch_run_is_an_outlier(void **state)
{
	struct history_params p;
	struct history_result r;
	uint64_t rng = 2;

	(void)state;
	flat(&rng, 80, 3);
	vals[40 * 3 + 1] = 130; /* one run of commit 40: +30 sd */
	history_params_init(&p);
	history_detect(pts, 80, &p, &r);
	assert_int_equal(r.nchanges, 0);
	assert_int_equal(r.noutliers, 1);
	assert_int_equal(r.outliers[0].index, 40);
	assert_int_equal(r.outliers[0].run, 1);
	assert_true(r.outliers[0].value == 130);
	assert_true(fabs(r.outliers[0].expected - 100) < 1);
	history_result_release(&r);
}

static void test_glitch_commits_are_outliers(void **state)
{
	struct history_params p;
	struct history_result r;
	uint64_t rng = 3;
	size_t i;

	(void)state;
	/* two neighbouring commits, every run 10 sd low: not two steps */
	flat(&rng, 80, 3);
	for (i = 30 * 3; i < 32 * 3; i++)
		vals[i] -= 10;
	history_params_init(&p);
	history_detect(pts, 80, &p, &r);
	assert_int_equal(r.nchanges, 0);
	assert_int_equal(r.noutliers, 6);
	for (i = 0; i < 6; i++)
		assert_int_equal(r.outliers[i].index, 30 + i / 3);
	/* the lookup (a binary search) finds each of them, and no other run */
	for (i = 0; i < 80 * 3; i++)
		assert_int_equal(history_is_outlier(&r, i / 3, i % 3),
				 i >= 30 * 3 && i < 32 * 3);
	history_result_release(&r);
	/* one run per commit, a single spike */
	flat(&rng, 60, 1);
	vals[59] = 150; /* even at the newest commit */
	vals[20] = 50;
	history_detect(pts, 60, &p, &r);
	assert_int_equal(r.nchanges, 0);
	assert_int_equal(r.noutliers, 2);
	assert_int_equal(r.outliers[0].index, 20);
	assert_int_equal(r.outliers[1].index, 59);
	history_result_release(&r);
}

static void test_min_segment(void **state)
{
	struct history_params p;
	struct history_result r;
	uint64_t rng = 4;
	size_t i;

	(void)state;
	/* the newest commit alone far off: an outlier, not a level yet */
	flat(&rng, 60, 3);
	for (i = 59 * 3; i < 60 * 3; i++)
		vals[i] += 8;
	history_params_init(&p);
	history_detect(pts, 60, &p, &r);
	assert_int_equal(r.nchanges, 0);
	assert_int_equal(r.noutliers, 3);
	history_result_release(&r);
	/* three commits are a level */
	for (i = 57 * 3; i < 59 * 3; i++)
		vals[i] += 8;
	history_detect(pts, 60, &p, &r);
	assert_int_equal(r.nchanges, 1);
	assert_int_equal(r.changes[0].index, 57);
	history_result_release(&r);
}

static void test_short_excursion_in_long_series(void **state)
{
	struct history_params p;
	struct history_result r;
	uint64_t rng = 5;
	size_t i;

	(void)state;
	/* 20 commits 3 sd up in the middle of 4000: windows find both edges */
	flat(&rng, 4000, 1);
	for (i = 2000; i < 2020; i++)
		vals[i] += 3;
	history_params_init(&p);
	history_detect(pts, 4000, &p, &r);
	assert_int_equal(r.nchanges, 2);
	assert_true(labs((long)r.changes[0].index - 2000) <= 1);
	assert_true(labs((long)r.changes[1].index - 2020) <= 1);
	history_result_release(&r);
}

static void test_uneven_runs_and_gaps(void **state)
{
	static double v[40][4];
	static struct history_point q[40];
	struct history_params p;
	struct history_result r;
	uint64_t rng = 6;
	size_t i, j;

	(void)state;
	for (i = 0; i < 40; i++) {
		q[i].v = v[i];
		q[i].n = 1 + i % 4;
		for (j = 0; j < q[i].n; j++)
			v[i][j] = (i < 25 ? 50 : 45) + 0.5 * history_gauss(&rng);
	}
	v[7][0] = NAN; /* a missing value is ignored */
	q[10].n = 0;   /* a commit without runs */
	history_params_init(&p);
	history_detect(q, 40, &p, &r);
	assert_int_equal(r.nchanges, 1);
	assert_int_equal(r.changes[0].index, 25);
	assert_true(r.changes[0].change_pct < -8);
	history_result_release(&r);
	/* nothing at all */
	history_detect(q, 0, &p, &r);
	assert_int_equal(r.nchanges, 0);
	assert_int_equal(r.noutliers, 0);
	history_result_release(&r);
}

static void test_effect_and_direction(void **state)
{
	struct stat_rules rules;
	bool kpi;

	(void)state;
	assert_string_equal(history_effect(1, -3), "regression");
	assert_string_equal(history_effect(1, 3), "improvement");
	assert_string_equal(history_effect(-1, 3), "regression");
	assert_string_equal(history_effect(0, 3), "undefined");
	assert_string_equal(history_effect(1, NAN), "undefined");
	stat_rules_init(&rules);
	assert_int_equal(history_direction(&rules, "mytest", "mytest.latency_ms",
					   &kpi), -1);
	assert_true(kpi);
	assert_int_equal(history_direction(&rules, "mytest", "mytestx.y", &kpi),
			 0);
	assert_false(kpi);
	history_direction(&rules, NULL, "x.y", &kpi);
	assert_false(kpi);
	stat_rules_release(&rules);
}

/* ---- the quality goals ---- */

struct rates {
	size_t series, found, flat, false_cp, extra;
};

static void quality(enum history_test test, size_t nseries, struct rates *q)
{
	struct history_params p;
	uint64_t rng = 20260101;
	size_t s, k, at[3];

	history_params_init(&p);
	history_params_set_test(&p, test);
	memset(q, 0, sizeof(*q));
	for (s = 0; s < nseries; s++) {
		struct history_result r;
		size_t nsteps = 1 + s % 3, all = 1;

		history_synth(&rng, NC, NR, nsteps, 2, 5, 20, vals, at);
		point_series(NC, NR);
		history_detect(pts, NC, &p, &r);
		for (k = 0; k < nsteps; k++) {
			size_t i, hit = 0;

			for (i = 0; i < r.nchanges; i++)
				hit |= labs((long)r.changes[i].index -
					    (long)at[k]) <= 2;
			all &= hit;
		}
		q->found += all;
		q->extra += r.nchanges > nsteps ? r.nchanges - nsteps : 0;
		q->series++;
		history_result_release(&r);

		flat(&rng, NC, NR);
		history_detect(pts, NC, &p, &r);
		q->false_cp += r.nchanges > 0;
		q->flat++;
		history_result_release(&r);
	}
	printf("# %s: steps found within 2 commits in %zu/%zu series "
	       "(%.1f%%), %zu extra change points; flat: %zu/%zu with a "
	       "false change point (%.1f%%)\n",
	       test == HISTORY_TTEST ? "t-test" : "permutation", q->found,
	       q->series, 100.0 * (double)q->found / (double)q->series,
	       q->extra, q->false_cp, q->flat,
	       100.0 * (double)q->false_cp / (double)q->flat);
}

static void test_quality_ttest(void **state)
{
	struct rates q;

	(void)state;
	quality(HISTORY_TTEST, 600, &q);
	assert_true(q.found * 100 >= 95 * q.series);
	assert_true(q.false_cp * 100 <= 5 * q.flat);
}

static void test_quality_permutation(void **state)
{
	struct rates q;

	(void)state;
	quality(HISTORY_PERMUTATION, 150, &q);
	assert_true(q.found * 100 >= 95 * q.series);
	assert_true(q.false_cp * 100 <= 5 * q.flat);
}

/* history_detect() and history_detect_reference() on pts[0..nc) agree exactly */
static void same_as_reference(size_t nc, const struct history_params *p,
			      size_t min_changes)
{
	struct history_result a, b;

	history_detect(pts, nc, p, &a);
	history_detect_reference(pts, nc, p, &b);
	assert_int_equal(a.nchanges, b.nchanges);
	if (a.nchanges < min_changes)
		fprintf(stderr, "# %zu commits: %zu change points\n", nc, a.nchanges);
	assert_true(a.nchanges >= min_changes);
	/* every field of every change, to the bit */
	assert_memory_equal(a.changes, b.changes,
			    a.nchanges * sizeof(*a.changes));
	assert_int_equal(a.noutliers, b.noutliers);
	history_result_release(&a);
	history_result_release(&b);
}

/*
 * Seeded series: a ramp (every commit a change point, F8's worst case)
 * rising and falling, with 1 and 3 runs; a staircase of noisy steps whose
 * weaker ones the pruning drops; random steps (history_synth), sparse and
 * dense; a ramp that stops; each with the t-test, and small ones with the
 * permutation test and other windows.
 */
static void test_same_as_reference(void **state)
{
	struct history_params p;
	uint64_t rng = 25;
	size_t i, at[40], nr, pass;

	(void)state;
	for (pass = 0; pass < 2; pass++) {
		history_params_init(&p);
		if (pass)
			history_params_set_test(&p, HISTORY_PERMUTATION);
		for (nr = 1; nr <= 3; nr += 2) {
			size_t nc = pass ? 400 : 3000;

			for (i = 0; i < nc * nr; i++)
				vals[i] = (double)(i / nr);
			point_series(nc, nr);
			same_as_reference(nc, &p, nc / 50);
			for (i = 0; i < nc * nr; i++)
				vals[i] = -0.37 * (double)(i / nr) +
					  1e-3 * history_gauss(&rng);
			same_as_reference(nc, &p, nc / 50);
			for (i = 0; i < nc * nr; i++)
				vals[i] = 3 * (double)(i / nr / 20) +
					  history_gauss(&rng);
			same_as_reference(nc, &p, 5);
			history_synth(&rng, nc, nr, 5, 2, 5, nc / 10, vals, at);
			same_as_reference(nc, &p, 1);
			history_synth(&rng, nc, nr, 8, 1, 4, nc / 40, vals, at);
			same_as_reference(nc, &p, 5);
			for (i = 0; i < nc * nr; i++)
				vals[i] = i / nr < nc / 2 ? (double)(i / nr) :
					  (double)(nc / 2) + history_gauss(&rng);
			same_as_reference(nc, &p, 5);
		}
	}
	/* other windows: short, wider than the series, one more than min_segment */
	history_params_init(&p);
	for (i = 0; i < 2000; i++)
		vals[i] = 3 * (double)(i / 20) + history_gauss(&rng);
	point_series(2000, 1);
	p.window = 7;
	same_as_reference(2000, &p, 10);
	p.window = 3000;
	same_as_reference(2000, &p, 1);
	p.window = 4;
	p.min_segment = 3;
	history_synth(&rng, 2000, 1, 8, 1, 4, 40, vals, at);
	same_as_reference(2000, &p, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_step),
		cmocka_unit_test(test_noiseless_step),
		cmocka_unit_test(test_glitch_run_is_an_outlier),
		cmocka_unit_test(test_glitch_commits_are_outliers),
		cmocka_unit_test(test_min_segment),
		cmocka_unit_test(test_short_excursion_in_long_series),
		cmocka_unit_test(test_uneven_runs_and_gaps),
		cmocka_unit_test(test_effect_and_direction),
		cmocka_unit_test(test_quality_ttest),
		cmocka_unit_test(test_quality_permutation),
		cmocka_unit_test(test_same_as_reference),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
