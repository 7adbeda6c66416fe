/*
 * stats.h: the numbers behind `perfsift compare` -- pure computation, no
 * I/O.  Two halves:
 *
 *  - LKP's rules (spec/lkp-compare.md §2): stat classes from LKP's own
 *    tables (compiled once into a struct stat_rules), the display mean and
 *    population stddev, and the "changed stat" test with its margin
 *    trimming, median/range separation, ratio floors and per-stat floors;
 *  - beyond LKP: Welch's t-test, Mann-Whitney U, a bootstrap interval for
 *    the %change, Benjamini-Hochberg q-values and a verdict per stat.
 *
 * Throughout, `a` is the new (head) sample and `b` the base, as in LKP.
 */
#ifndef PERFSIFT_STATS_H
#define PERFSIFT_STATS_H

#include "util/compat.h"

struct strbuf;
struct matrix;

/* ---- LKP's tables, compiled ---- */

struct stat_regex; /* a compiled pattern with its literal prefilter */

/*
 * A declared KPI (a job's `kpi:` key, kpi.h): a shell glob over stat
 * names, the better direction (+1 higher, -1 lower, 0 none given) and the
 * smallest change that matters, in percent (0: none given).
 */
struct stat_kpi {
	char *pattern;
	int direction;
	double threshold;
};

struct stat_rules {
	struct stat_regex *failure, *pass, *perf_patterns, *report_allow,
		*stat_allow, *stat_deny, *threshold, *index_perf,
		*index_latency;
	size_t nfailure, npass, nperf_patterns, nreport_allow, nstat_allow,
		nstat_deny, nthreshold, nindex_perf, nindex_latency;
	/* the benchmarks of the comparison (testcases): `<name>.` is a perf
	 * metric and a KPI; set with stat_rules_add_benchmark() */
	char **benchmarks;
	size_t nbenchmarks, alloc_benchmarks;
	/*
	 * Declared KPIs (stat_rules_add_kpi()): when there is any, they are
	 * the KPIs, instead of the benchmarks' own stats.
	 */
	struct stat_kpi *kpis;
	size_t nkpis, alloc_kpis;
	/*
	 * LKP's floors assume 300 s runs: the floors of time-valued stats
	 * (`*.time.*_time`, `*elapsed_time*`) are multiplied by this factor,
	 * runtime / 300 s, never above 1.  1 by default.
	 */
	double time_floor_scale;
};

/*
 * LKP's tables; each pattern is compiled on its first use (a pattern that
 * does not compile is a BUG then); stat_rules_compile_all() compiles
 * every one now, for the tests.
 */
void stat_rules_init(struct stat_rules *r);
void stat_rules_compile_all(struct stat_rules *r);
void stat_rules_release(struct stat_rules *r);
/* `mytest` is always one: a mytest job's stats are its own, whatever its testcase */
void stat_rules_add_benchmark(struct stat_rules *r, const char *name);
/* declare a KPI (a pattern declared twice keeps its first declaration) */
void stat_rules_add_kpi(struct stat_rules *r, const char *pattern,
			int direction, double threshold);
/* runtime_s / 300, capped at 1 (ignored when runtime_s <= 0) */
void stat_rules_set_runtime(struct stat_rules *r, double runtime_s);

/* failure ("function") stat: etc/failure or etc/pass, not .time. etc. */
bool stat_is_function(const struct stat_rules *r, const char *name);
/* perf metric: etc/perf-metrics-{patterns,prefixes} or a benchmark's */
bool stat_is_perf_metric(const struct stat_rules *r, const char *name);
/* bisectable: in etc/stat-allowlist, or not in etc/stat-denylist */
bool stat_is_bisectable(const struct stat_rules *r, const char *name);
bool stat_in_report_allowlist(const struct stat_rules *r, const char *name);
/*
 * KPI: a declared KPI's pattern matches (when any is declared), else one
 * of the benchmark's own stats, `<testcase>.*` (mytest.* among them)
 */
bool stat_is_kpi(const struct stat_rules *r, const char *name);
/* the declaration matching name (first declared first), or NULL */
const struct stat_kpi *stat_kpi_decl(const struct stat_rules *r,
				     const char *name);
/*
 * LKP's index tables alone (index-perf-all.yaml, then
 * index-latency-all.yaml, first whole-name match): the sign of the
 * weight, 0 when neither names the stat.  What built-in benchmarks
 * declare their KPIs from.
 */
int stat_index_direction(const struct stat_rules *r, const char *name);
/* the time-valued stats whose floors are scaled by the runtime */
bool stat_is_time_valued(const char *name);

/*
 * Direction: +1 higher is better, -1 lower is better, 0 undefined.  A
 * declared KPI's direction when it gives one; else LKP's
 * index-perf-all.yaml, then index-latency-all.yaml (first whole-name
 * match, the sign of its weight), then perfsift's lower-is-better rules
 * (`*.time.*_time`, latencies, `*seconds`, `*_ms`, `*_us`, `*_ns`).
 */
int stat_direction(const struct stat_rules *r, const char *name);

/*
 * LKP's reasonable_perf_change?: the first etc/perf-metrics-threshold.yaml
 * pattern matching the whole name decides (reject when max < T, or when
 * T is an integer and delta < T/2), else the built-in fallbacks.
 */
bool stat_reasonable_change(const struct stat_rules *r, const char *name,
			    double delta, double max);

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
 * A KPI's three-way verdict, Pinpoint's different / same / unknown: the
 * method's own selection decides "changed" (LKP's rules and the noise
 * guard, or the statistics' verdict), so a KPI is changed exactly when
 * its row would be; beyond that:
 *
 *  - changed: `selected` and the change is at least the threshold;
 *  - same: the 95% interval of the %change lies within +-margin (the
 *    declared threshold when there is one, else --margin);
 *  - unknown (undecided): anything else.  *more_runs gets the runs per
 *    side that would likely decide: for a change beyond the margin, those
 *    giving a two-sided test at `level` 80% power (n = 2 ((z_level +
 *    z_0.8) s / d)^2, normal approximation, s the pooled relative noise
 *    and d the change, both in %); within it, those narrowing the interval
 *    into the margin (n = 2 (z_0.975 s / (margin - d))^2); never fewer
 *    than LKP's 3 runs a side; at least 1, at most 999.
 *
 * n is the smaller side's runs.  0 in *more_runs unless unknown.
 */
struct kpi_verdict_params {
	double threshold; /* the declared threshold in %, 0: none */
	double margin;    /* the equivalence margin in % */
	double level;     /* the selection's two-sided level */
};
enum stats_verdict stats_kpi_verdict(bool selected, double ci_lo,
				     double ci_hi, double change_pct,
				     double rel_noise_pct, size_t n,
				     const struct kpi_verdict_params *kp,
				     unsigned *more_runs);

/*
 * Can more runs of the head alone still decide an undecided KPI?  (`run
 * --until-decided` adds runs to the head only.)  No when, even granting
 * the head's remaining noise (1.96 s_h / sqrt(n_h)) its most helpful
 * sign and the head infinitely many runs, the base's own noise keeps the
 * change both below significance at kp->level (|d| + 1.96 s_h/sqrt(n_h) <
 * z(level/2) s_b/sqrt(n_b)) and out of the margin (|d| - 1.96
 * s_h/sqrt(n_h) + 1.96 s_b/sqrt(n_b) > margin).  Noises in % of the
 * base mean (sample standard deviations), d the change in %.
 */
bool stats_head_can_decide(double change_pct, double base_noise_pct,
			   size_t nb, double head_noise_pct, size_t nh,
			   const struct kpi_verdict_params *kp);

#endif
