/*
 * internal.h: what the files of compare/ share and no other module needs
 * (they use compare.h): the state of one comparison (struct walk) and the
 * steps of compare_groups() that live outside groups.c.
 *
 * compare_groups() runs four phases over one struct walk, in this order
 * because each needs the one before: the union walk (groups.c: LKP's
 * test per stat, the rows kept), the noise guard (judge.c: needs every
 * stat's variance, so only after the walk), the q-values (judge.c: need
 * every stat's p), then the selection (groups.c: needs the verdicts).
 */
#ifndef PERFSIFT_COMPARE_INTERNAL_H
#define PERFSIFT_COMPARE_INTERNAL_H

#include "util/compat.h"
#include <regex.h>
#include "compare/compare.h"

struct walk {
	const struct compare_options *o;
	const struct result_group *const *g;
	size_t n;
	struct stat_rules rules;
	struct lkp_options lkp;
	struct stats_scratch scratch;
	regex_t stat_re;
	bool have_stat_re;
	bool need_stats; /* p-values and q-values wanted (compare.h) */
	double *zeros;
	double **buf; /* per group: a row's real values, when some are missing */
	/* every stat's Welch p per column (for the q-values) */
	double *p_all;
	size_t alloc_p_all;
	/* rows kept, with their index in the union for p_all, and each
	 * group's index of the stat (-1: absent), nrows x n */
	size_t *row_union;
	size_t alloc_row_union;
	ssize_t *row_idx;
	size_t alloc_row_idx;
	size_t nunion; /* stats in the union of the groups */
	/* a KPI cell's runs' start times and its pairs, maxruns each */
	double *ta, *tb;
	size_t *pair_a, *pair_b;
	/* the noise guard's prior per column (NULL: guard off) */
	struct stats_noise_prior *prior;
};

/*
 * Stat idx of group c: the values of the runs that have it (*n of them;
 * none when the group lacks the stat).  `padded` (failure stats): every
 * run, 0 where the stat is absent -- "did not happen" is a real 0 there.
 */
const double *walk_side(const struct walk *w, size_t c, ssize_t idx,
			bool padded, size_t *n);
/* walk_side() of row i for column c (*a, head) and for the base (*b) */
void walk_cell_sides(const struct walk *w, size_t i, size_t c, bool padded,
		     const double **a, size_t *na, const double **b, size_t *nb);

/*
 * Row i's pairs of head (column c) and base runs by their start times
 * (stats_pair_runs over walk_cell_sides()' runs): pa[k], pb[k] index
 * walk_cell_sides()' arrays.  0 when a group's start times are unknown.
 */
size_t walk_cell_pairs(const struct walk *w, size_t i, size_t c, size_t *pa,
		       size_t *pb);

/* ---- judge.c: the judgements that need the whole walk ---- */

/* the noise guard: which columns it covers (before the walk) */
void guard_init(struct walk *w);
/* does the guard test column c? (its prior gathers the walk's variances) */
bool guard_on(const struct walk *w, size_t c);
/* phase 2: fit the priors, then test the rows LKP's rules selected */
void guard_apply(struct walk *w, struct compare_result *res);
/*
 * phase 2b (not --lkp-exact): perfsift's rules for machine-state stats,
 * perf-profile's small shares and identifiers (rules.h) over the rows
 * LKP's rules and the guard selected
 */
void noise_rules_apply(struct walk *w, struct compare_result *res);
/* phase 3: q-values over every stat, per column, and the verdicts */
void walk_qvalues(struct walk *w, struct compare_result *res);
/*
 * The calibrated noise floors (compare_options.no_calibration): a cell
 * whose change is within floor_k x its stat's floor is no longer
 * changed; every cell with a floor records it.  After the method's
 * selection and before the KPIs' verdicts, which then judge such a KPI
 * as "same" or undecided -- never leave it out.
 */
void floor_apply(struct walk *w, struct compare_result *res);
/* each KPI cell's three-way verdict, after the method's selection */
void kpi_judge(struct walk *w, struct compare_result *res);

/* a judged KPI cell neither changed nor the same */
static inline bool cell_undecided(const struct compare_cell *cell)
{
	return cell->kpi_judged && cell->kpi_verdict == VERDICT_UNKNOWN;
}

/* with --lkp-exact the selection is LKP's alone: no verdicts beyond it */
static inline bool kpi_judging(const struct compare_options *o)
{
	return !o->lkp_exact;
}

/* "higher", "lower" or "undefined", as the JSON and the CSV name it */
static inline const char *direction_name(int d)
{
	return d > 0 ? "higher" : d < 0 ? "lower" : "undefined";
}

#endif
