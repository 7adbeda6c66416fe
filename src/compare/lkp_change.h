/*
 * lkp_change.h: LKP's changed-stat test (spec/lkp-compare.md §2.2.2):
 * whether one stat changed between the new (head) sample `a` and the
 * base `b`, with LKP's margin trimming, median/range separation, ratio
 * floors and per-stat floors, and the record LKP keeps per changed stat.
 * The rules it asks are rules.h's.
 */
#ifndef PERFSIFT_LKP_CHANGE_H
#define PERFSIFT_LKP_CHANGE_H

#include "util/compat.h"
#include "compare/rules.h"

struct matrix;

/* ---- LKP's changed-stat test ---- */

struct lkp_options {
	bool more;           /* -m: skip the bisectable / report-allowlist filter */
	bool force;          /* forced stat: no small-change filter, no run minimum */
	bool perf_only;      /* options['perf']: perf metrics only */
	double gap;          /* > 0: the gap test */
	double variance;     /* > 0: the variance test (>= 10 runs each) */
	double distance;     /* > 0: bisect's distance mode */
	double gap_distance; /* 0 means LKP's default 2 */
	/* ncompare passes 'perf-profile' => 5, which turns the small-change
	 * filter off for perf-profile.* stats */
	bool perf_profile;
	/* the base has some `perf-profile.` / `lock_stat.` stat ("newly
	 * added monitor" rule) */
	bool base_has_perf_profile, base_has_lock_stat;
	/* the base's stats, for the error/pass counterpart rule (NULL: the
	 * rule is not applied) */
	const struct matrix *base;
	/*
	 * 0 for LKP.  Bisect sets 1: once a side has 6 samples or more, at
	 * least this many are trimmed at each end, so that one hiccup of
	 * the machine does not keep a re-measured commit unclear forever.
	 */
	size_t min_margin;
};
void lkp_options_init(struct lkp_options *o); /* ncompare's defaults */

enum lkp_outcome {
	LKP_CHANGED,
	LKP_NOT_CHANGED,  /* the change test said no */
	LKP_SKIP_FILTER,  /* not bisectable and not in the report allow-list */
	LKP_SKIP_FUNCTION, /* error/pass stat without its counterpart in base */
	LKP_SKIP_FEW_RUNS, /* both sides < 3 runs */
	LKP_SKIP_NO_BASE, /* base lacks the stat */
	LKP_SKIP_SMALL,   /* the small-change filter (ratio floors, floors) */
	LKP_SKIP_PERF,    /* options.perf_only and not a perf metric */
	LKP_SKIP_MISSING, /* a perf stat the head has no value of */
};
const char *lkp_outcome_name(enum lkp_outcome o);

/* the record LKP keeps per changed stat (spec §2.2.2 step 11) */
struct lkp_record {
	bool is_function;
	double ratio, delta, median_a, median_b;
	double x, y, z, min_a, max_a, min_b, max_b, max;
	size_t nr_run;        /* runs of a */
	size_t na, nb;        /* trimmed sample sizes */
	bool used_changed_stat; /* the default LKP::ChangedStat test ran
				 * (its gap_distance is part of the record) */
	char interval[80];    /* "[ %-10.5g - %-10.5g ] -- [ ... ]" */
};

/*
 * LKP's test for one stat.  The decision is LKP's; the outcome names the
 * first check that failed in perfsift's cheap-first order (the pattern
 * filter of step 2 runs after the numeric test).  a / b are the runs of
 * new and base that have the stat (b may be NULL with nb == 0 when the
 * base lacks it); a perf stat with no value on a side is never a change
 * (LKP_SKIP_NO_BASE, LKP_SKIP_MISSING: perfsift's deviation, LKP
 * compares zeros), a failure stat is passed with 0 for the runs without
 * it.  `base_has` tells whether the base holds the stat at all.  Fills
 * rec (when not NULL) as far as the test got.
 */
enum lkp_outcome lkp_changed(const struct stat_rules *r, const char *name,
			     const double *a, size_t na, const double *b,
			     size_t nb, bool base_has,
			     const struct lkp_options *o,
			     struct lkp_record *rec);

/* sort v (n values) and drop LKP's margin at each end; returns new n */
size_t lkp_trim(double *v, size_t n, size_t cap);

/* LKP's summary of one side of the change test */
struct lkp_summary {
	size_t n;      /* samples left after trimming */
	double min, median, max; /* median = sorted[n / 2], as LKP */
};
/*
 * Summarise v[0..n) as lkp_changed() summarises a perf stat's side:
 * lkp_trim() with the cap 3, at least min_margin trimmed once n >= 6
 * (struct lkp_options), then min / median / max.  All zero for n == 0.
 */
void lkp_summarize(const double *v, size_t n, size_t min_margin,
		   struct lkp_summary *out);

/* ---- beyond LKP ---- */

#endif
