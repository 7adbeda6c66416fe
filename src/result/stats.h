/*
 * stats.h: the statistics behind `perfsift compare`, bisect and history
 * beyond LKP's rules -- pure computation, no I/O: display mean and
 * population stddev, Welch's t-test, Mann-Whitney U, a bootstrap interval
 * for the %change, the noise guard's moderated t, Benjamini-Hochberg
 * q-values and a verdict per stat.  LKP's rules are compare/rules.h, its
 * change test compare/lkp_change.h.
 *
 * Throughout, `a` is the new (head) sample and `b` the base, as in LKP.
 */
#ifndef PERFSIFT_STATS_H
#define PERFSIFT_STATS_H

#include "util/compat.h"

/* ---- display numbers (LKP's compare table) ---- */

/* splitmix64: a small, well-mixed generator (the bootstrap's, one stream
 * per stat; the synthetic data of tests and benches) */
uint64_t stats_splitmix64(uint64_t *x);

/* the k-th smallest of v[0..n), n > 0 (quickselect; reorders v) */
double stats_select_kth(double *v, size_t n, size_t k);

/* arithmetic mean; 0 for n == 0 */
double stats_mean(const double *v, size_t n);
/* population stddev; -1 when n <= 1, as LKP */
double stats_stddev(const double *v, size_t n, double mean);


/*
 * Caller-owned scratch space for the per-stat tests below: buffers that
 * grow once instead of a malloc per stat, and Mann-Whitney's exact null
 * distribution for the last sample sizes seen.
 */
struct stats_scratch {
	double *buf;
	size_t alloc;
	size_t mwu_na, mwu_nb; /* sizes of the cached distribution */
	double *mwu_cdf;       /* P(U <= u), u = 0 .. na*nb */
};
void stats_scratch_init(struct stats_scratch *s);
void stats_scratch_release(struct stats_scratch *s);

/* Welch's two-sided p (GSL's t distribution); 1 when undefined */
double stats_welch_p(const double *a, size_t na, const double *b, size_t nb);

/*
 * Mann-Whitney U, two-sided p: exact for small samples (na + nb <= 20
 * without ties, from a cached null distribution; na + nb <= 14 with ties,
 * counting subsets over the midranks), else the normal approximation with
 * tie and continuity corrections.  *u_out (may be NULL) gets U of a.
 */
double stats_mwu_p(struct stats_scratch *s, const double *a, size_t na,
		   const double *b, size_t nb, double *u_out);

/*
 * Percentile bootstrap 95% interval for the relative change of the mean,
 * 100 (mean_a - mean_b) / mean_b, from `iters` resamples of each side.
 * Reproducible: the generator is seeded from `seed` and the stat name.
 */
void stats_bootstrap_ci(struct stats_scratch *s, const double *a, size_t na,
			const double *b, size_t nb, const char *name,
			uint64_t seed, unsigned iters, double *lo, double *hi);

/*
 * The noise guard of LKP mode (compare.h): a moderated t-test (Smyth's
 * empirical Bayes, as limma) on the relative change.  Every stat of a
 * comparison contributes its pooled relative variance to a scaled
 * inverse-chi-square prior (d0 degrees of freedom around s0^2); a stat's
 * variance is then shrunk towards s0^2, which gives the test d + d0
 * degrees of freedom instead of the 8 of 5 + 5 runs.  Usage: init with
 * the sample sizes, add every stat, fit, then ask p for each candidate.
 */
struct stats_noise_prior {
	size_t na, nb;      /* runs per side (the same for every stat) */
	double d;           /* na + nb - 2 */
	size_t n;           /* stats with a positive variance */
	double sum_z, sum_z2; /* of log(relative variance) */
	double d0, s02;     /* fitted: prior df (INFINITY allowed), scale */
};
void stats_noise_prior_init(struct stats_noise_prior *np, size_t na,
			    size_t nb);
/* the pooled relative variance of a (na runs) and b (nb runs) around
 * their own means, relative to b's mean; -1 when undefined */
double stats_rel_var(const double *a, size_t na, const double *b, size_t nb);
void stats_noise_prior_add(struct stats_noise_prior *np, double rel_var);
/* fit d0 and s0^2; with fewer than 3 usable stats d0 = 0 (plain t) */
void stats_noise_prior_fit(struct stats_noise_prior *np);
/* two-sided p of the moderated t for one stat (1 when undefined) */
double stats_moderated_p(const struct stats_noise_prior *np, const double *a,
			 const double *b);

/* Benjamini-Hochberg: q[i] for p[i], over n tests */
void stats_bh_qvalues(const double *p, size_t n, double *q);

enum stats_verdict {
	VERDICT_UNKNOWN,
	VERDICT_CHANGED,
	VERDICT_SAME,
};
const char *stats_verdict_name(enum stats_verdict v);

struct verdict_params {
	double alpha;  /* q level (0.05) */
	double margin; /* equivalence margin in % of the base mean (2.0) */
};

/*
 * changed: q <= alpha and the interval excludes 0; same: the interval lies
 * inside +-margin; else unknown, and *more_runs gets the number of further
 * runs per side that would likely decide (normal approximation with the
 * observed change and noise; 0 for changed/same, capped at 999).
 */
enum stats_verdict stats_verdict(double q, double ci_lo, double ci_hi,
				 double change_pct, double rel_noise_pct,
				 size_t n, const struct verdict_params *vp,
				 unsigned *more_runs);

/*
 * ---- a KPI's verdict from the data's own noise (docs/detection.md) ----
 *
 * Pairs: head and base runs made beside each other.  In the time order
 * of both sides' runs (their start times, seconds), a head run and a
 * base run that are adjacent, neither already paired, and started no
 * more than max_gap seconds apart form a pair; the walk takes the
 * earliest such couple first (ABAB -> (A,B),(A,B); AABB -> one pair, the
 * middle AB).  max_gap <= 0: 3 x the median gap between adjacent
 * starts of the merged order -- the runs' own pace, so that base runs
 * stored a day before the head's pair with none of them.  Runs made at
 * another time stay unpaired.  pa[k], pb[k]
 * get the indices of pair k (arrays of min(na, nb)); returns the pairs.
 * A start time that is not finite pairs with nothing.
 */
size_t stats_pair_runs(const double *ta, size_t na, const double *tb,
		       size_t nb, double max_gap, size_t *pa, size_t *pb);

/*
 * The interval of a KPI's relative change, head vs base, in %:
 *  - from pairs when there are at least 3: a t interval on the pairs'
 *    log ratios log(a/b) (n - 1 degrees of freedom), back-transformed,
 *    so that a slow drift of the machine's speed, shared by both runs of
 *    a pair, cancels; the unpaired runs are then left out;
 *  - else Welch's t interval on the logs of every run of both sides
 *    (Welch-Satterthwaite degrees of freedom);
 * either at the two-sided `level` (0.001 is a 99.9% interval).  A side
 * with a value <= 0 has no logs: the difference of the means relative
 * to the base's mean instead (pairs: differences over the base's mean).
 * change is the interval's centre (the ratio of geometric means, or of
 * means), noise the sd of one pair's change in % (unpaired: sqrt(2) x
 * the pooled sd of one run), so that a runs-a-side estimate is one
 * formula for both.  Fewer than 2 runs a side: lo = -inf, hi = inf.
 */
struct kpi_interval {
	double change, lo, hi; /* % */
	double noise;          /* % per pair of runs */
	size_t pairs;          /* 0: unpaired */
	size_t na, nb;         /* runs used */
};
void stats_kpi_interval(const double *a, size_t na, const double *b,
			size_t nb, const size_t *pa, const size_t *pb,
			size_t npairs, double level, struct kpi_interval *iv);

/*
 * A KPI's three-way verdict:
 *  - changed: the interval excludes 0 and |change| >= min_effect;
 *  - same: the interval lies inside +-min_effect;
 *  - unknown (undecided): anything else.  *more_runs gets the runs a
 *    side (pairs) that would likely decide: a change beyond min_effect,
 *    those giving the test at `level` 80% power (n = ((z_level + z_0.8)
 *    s / d)^2, s the noise of a pair, d the change, in %); within it,
 *    those narrowing the interval into the margin (n = (z_level s /
 *    (min_effect - d))^2); never fewer than 3 a side in all; at least 1,
 *    at most 999.  0 in *more_runs unless unknown.
 * LKP's min/max test has no say here (compare keeps it in its column).
 */
struct kpi_verdict_params {
	double min_effect; /* % (declared, the calibrated floor, or 2) */
	double level;      /* the interval's two-sided level */
};
enum stats_verdict stats_kpi_verdict(const struct kpi_interval *iv,
				     const struct kpi_verdict_params *kp,
				     unsigned *more_runs);

/*
 * Can more runs of the head alone still decide an undecided KPI?  (`run
 * --until-decided` adds runs to the head only.)  No when, even granting
 * the head's remaining noise (z s_h / sqrt(n_h)) its most helpful sign
 * and the head infinitely many runs, the base's own noise keeps the
 * change both below significance (|d| + z s_h/sqrt(n_h) < t
 * s_b/sqrt(n_b)) and out of the margin (|d| - z s_h/sqrt(n_h) + t
 * s_b/sqrt(n_b) > min_effect), z = z(level/2) for the head, t the t
 * quantile at n_b - 1 degrees of freedom for the base (its few runs stay
 * few).  Noises in % of the base mean (sample standard deviations), d
 * the change in %.
 */
bool stats_head_can_decide(double change_pct, double base_noise_pct,
			   size_t nb, double head_noise_pct, size_t nh,
			   const struct kpi_verdict_params *kp);

#endif
