/*
 * history.h: change points in a stat's history -- pure computation, no I/O.
 *
 * A series is a sequence of commits in order, each with the values of all
 * its runs (a per-commit distribution, not only its mean).  history_detect()
 * finds where the series shifts to a new level:
 *
 *  1. lone outliers first: a run (or a whole commit) far from the runs of
 *     its neighbouring commits on both sides is reported as an outlier and
 *     left out of step detection, so a glitch never becomes two change
 *     points;
 *  2. E-Divisive means (Matteson & James 2014, J. Am. Stat. Assoc. 109:505,
 *     alpha = 1) proposes a split: the commit boundary that maximises the
 *     energy divergence between the runs before and after it, searched in
 *     windows of 2W commits so that a short excursion in a long series is
 *     not averaged away;
 *  3. the split is kept when it is significant: Student's t-test between the
 *     commit means of the W commits on each side (as Hunter/Otava use a
 *     Student t, arXiv:2301.03034), or a permutation test that shuffles
 *     whole commits (as MongoDB's signal-processing uses one);
 *  4. binary segmentation repeats in both halves; at the end every change
 *     point is tested again between its final neighbours and the weakest
 *     non-significant one dropped until all pass.
 *
 * docs/history.md gives the parameters and the measured error rates.
 */
#ifndef PERFSIFT_HISTORY_H
#define PERFSIFT_HISTORY_H

#include "util/compat.h"

struct stat_rules;

/* one commit of a series: the values of its runs (borrowed) */
struct history_point {
	const double *v;
	size_t n;
};

enum history_test {
	HISTORY_TTEST,       /* Student's t between commit means (default) */
	HISTORY_PERMUTATION, /* commits shuffled within the window */
};

struct history_params {
	enum history_test test;
	double p_max;          /* a split is kept when p <= p_max */
	double p_local;        /* t-test level for a step inside a test's side */
	size_t min_segment;    /* commits on each side of a change point */
	size_t window;         /* W: commits each side a test looks at */
	double outlier_sd;     /* robust sds from both sides' medians */
	double min_change_pct; /* |change| below this is not reported */
	unsigned permutations; /* for HISTORY_PERMUTATION */
	uint64_t seed;         /* for HISTORY_PERMUTATION */
};
void history_params_init(struct history_params *p);
/* choose the test, with its default p_max (1e-5 t-test, 0.01 permutation) */
void history_params_set_test(struct history_params *p, enum history_test t);

struct history_change {
	size_t index;       /* the first commit of the new level */
	double before, after; /* means of the commit means, W each side */
	double change_pct;  /* 100 (after - before) / |before| */
	double ci_lo, ci_hi; /* 95% interval of change_pct (t) */
	double p;
	size_t nbefore, nafter; /* commits the test used */
};

struct history_outlier {
	size_t index;     /* the commit */
	size_t run;       /* position of the run in that commit's values */
	double value;
	double expected;  /* the nearer neighbours' median */
};

struct history_result {
	struct history_change *changes; /* by index */
	size_t nchanges, alloc_changes;
	struct history_outlier *outliers; /* by index, then run */
	size_t noutliers, alloc_outliers;
	double noise;  /* the robust noise scale outliers are measured in */
};
void history_result_init(struct history_result *r);
void history_result_release(struct history_result *r);

/*
 * Find the change points and outliers of pts[0..n) into res (initialised
 * here).  Non-finite values are ignored.
 */
void history_detect(const struct history_point *pts, size_t n,
		    const struct history_params *p, struct history_result *res);
/*
 * The same by the plain search history_detect() was first written as:
 * every window of every segment computed anew, every change point
 * retested in each round of the pruning -- O(n^2 / W) windows on a series
 * whose every commit is a change.  For the tests and the bench, which
 * hold history_detect() to the same results.
 */
void history_detect_reference(const struct history_point *pts, size_t n,
			      const struct history_params *p,
			      struct history_result *res);

/*
 * The one place a stat's direction is looked up: +1 higher is better, -1
 * lower, 0 unknown -- the job's declared KPI's when rules carries the
 * job's declaration (stat_rules_reset_job + kpi_declare), else LKP's
 * tables; *is_kpi tells whether it is a KPI of that job (stat_is_kpi:
 * declared, else the testcase's or mytest's own stats, never `time.*`).
 * testcase may be NULL (a CSV column: no job, no KPI).
 */
int history_direction(struct stat_rules *rules, const char *testcase,
		      const char *stat, bool *is_kpi);
/* whether run `run` of commit `index` is one of r's outliers */
bool history_is_outlier(const struct history_result *r, size_t index,
			size_t run);
/* "regression", "improvement" or "undefined" for a change */
const char *history_effect(int direction, double change_pct);

/*
 * Synthetic series for the tests and benches (docs/history.md's error
 * rates): ncommits x nruns values around 100 with normal noise of sd 1,
 * nsteps level steps of min_sd..max_sd (random sign) at commits at least
 * gap apart and from either end; at[] gets the sorted step commits.
 * Reproducible from *rng (stats_splitmix64's state).
 */
void history_synth(uint64_t *rng, size_t ncommits, size_t nruns,
		   size_t nsteps, double min_sd, double max_sd, size_t gap,
		   double *values, size_t *at);
/* a standard normal deviate from *rng */
double history_gauss(uint64_t *rng);

#endif
