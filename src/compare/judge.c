/*
 * judge.c: the judgements of a comparison that need the whole union walk
 * first (internal.h): the noise guard of LKP mode, which fits a prior to
 * every stat's variance before it can test one; the q-values, which need
 * every stat's p; and the KPIs' three-way verdicts, which come after the
 * method's selection because that selection is what "changed" means.
 */
#include "util/compat.h"
#include <math.h>
#include <stdlib.h>
#include "compare/internal.h"
#include "result/floor.h"
#include "select/select.h"
#include "util/xalloc.h"

/* the pooled relative noise and the change of the means, in % of b's */
static void noise_and_change(const double *a, size_t na, const double *b,
			     size_t nb, double *noise, double *change)
{
	double ma = stats_mean(a, na), mb = stats_mean(b, nb);
	double va = 0, vb = 0;
	size_t i;

	for (i = 0; i < na; i++)
		va += (a[i] - ma) * (a[i] - ma);
	for (i = 0; i < nb; i++)
		vb += (b[i] - mb) * (b[i] - mb);
	va = na > 1 ? va / (double)(na - 1) : 0;
	vb = nb > 1 ? vb / (double)(nb - 1) : 0;
	*noise = mb != 0 ? 100 * sqrt((va + vb) / 2) / fabs(mb) : INFINITY;
	*change = mb != 0 ? 100 * (ma - mb) / fabs(mb) : INFINITY;
}

/* the sample standard deviation of v in % of ref's mean */
static double rel_sd(const double *v, size_t n, const double *ref, size_t nref)
{
	double m = stats_mean(v, n), mr = stats_mean(ref, nref), ss = 0;
	size_t i;

	for (i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	if (n < 2 || mr == 0)
		return n < 2 ? 0 : INFINITY;
	return 100 * sqrt(ss / (double)(n - 1)) / fabs(mr);
}

/* the bootstrap interval and the verdict, once q is known */
static void cell_verdict(struct walk *w, struct compare_cell *cell,
			 const char *name, const double *a, size_t na,
			 const double *b, size_t nb)
{
	struct verdict_params vp = { w->o->alpha, w->o->margin };
	double noise, change;

	if (w->o->boot_iters)
		stats_bootstrap_ci(&w->scratch, a, na, b, nb, name, w->o->seed,
				   w->o->boot_iters, &cell->ci_lo, &cell->ci_hi);
	noise_and_change(a, na, b, nb, &noise, &change);
	cell->verdict = stats_verdict(cell->q, cell->ci_lo, cell->ci_hi,
				      change, noise, na < nb ? na : nb, &vp,
				      &cell->more_runs);
}

/*
 * Phase 3: Benjamini-Hochberg over every stat of the comparison, per
 * column -- every stat, not only the rows kept, or a comparison of
 * 50,000 stats would look as significant as one of 50.  Then, for the
 * rows kept, Mann-Whitney's p and (where it can matter) the bootstrap
 * interval and the verdict; stats mode selects by that verdict.
 */
void walk_qvalues(struct walk *w, struct compare_result *res)
{
	const struct compare_options *o = w->o;
	size_t ncmp = w->n - 1, nunion = w->nunion, c, i;
	double *p, *q;

	if (!w->need_stats || !nunion)
		return;
	p = xcalloc(nunion, sizeof(double));
	q = xcalloc(nunion, sizeof(double));
	for (c = 1; c < w->n; c++) {
		for (i = 0; i < nunion; i++)
			p[i] = w->p_all[i * ncmp + c - 1];
		stats_bh_qvalues(p, nunion, q);
		for (i = 0; i < res->nrows; i++) {
			struct compare_row *row = &res->rows[i];
			struct compare_cell *cell = &row->cells[c];
			const double *a, *b;
			size_t na, nb;

			walk_cell_sides(w, i, c, row->is_function, &a, &na, &b, &nb);
			cell->q = q[w->row_union[i]];
			cell->p_welch = p[w->row_union[i]];
			if (!na || !nb)
				continue; /* one side has no value */
			cell->p_mwu = stats_mwu_p(&w->scratch, a, na, b, nb,
						  NULL);
			/*
			 * The interval only where it can matter: stats
			 * mode drops rows with q > alpha unless --all.
			 */
			if (o->method != COMPARE_STATS || o->all ||
			    cell->q <= o->alpha)
				cell_verdict(w, cell, row->name, a, na, b, nb);
			if (o->method == COMPARE_STATS && !row->is_function)
				cell->changed = cell->verdict == VERDICT_CHANGED;
		}
	}
	free(p);
	free(q);
}

/* ---- the calibrated noise floor ---- */

/* are the floors used at all, and which calibration does the header name */
static bool floors_on(const struct walk *w, struct compare_result *res)
{
	size_t c;

	res->floor = NULL;
	res->floor_k = w->o->floor_k;
	if (w->o->no_calibration || w->o->lkp_exact)
		return false;
	for (c = 0; c < w->n && !res->floor; c++)
		res->floor = w->g[c]->floor;
	return res->floor != NULL;
}

/*
 * A stat's floor for column c: the larger of the base's and the head's
 * (two series, e.g. two settings, each calibrated: the noisier one
 * bounds what their difference can show by chance); NAN when neither
 * group's calibration has the stat.
 */
static double cell_floor(const struct walk *w, size_t c, const char *name)
{
	double fb = noise_floor_find(w->g[0]->floor, name);
	double fa = noise_floor_find(w->g[c]->floor, name);

	if (isnan(fb))
		return fa;
	return isnan(fa) ? fb : fmax(fa, fb);
}

void floor_apply(struct walk *w, struct compare_result *res)
{
	size_t i, c;

	if (!floors_on(w, res))
		return;
	for (i = 0; i < res->nrows; i++) {
		struct compare_row *row = &res->rows[i];

		/* a failure stat's "did it happen" has no noise to floor */
		if (row->is_function)
			continue;
		for (c = 1; c < w->n; c++) {
			struct compare_cell *cell = &row->cells[c];
			const double *a, *b;
			double noise, change;
			size_t na, nb;

			cell->floor_pct = cell_floor(w, c, row->name);
			if (isnan(cell->floor_pct))
				continue;
			walk_cell_sides(w, i, c, false, &a, &na, &b, &nb);
			if (!na || !nb)
				continue; /* a side lacks it: no change to judge */
			noise_and_change(a, na, b, nb, &noise, &change);
			cell->within_floor = stat_within_noise_floor(
				change, cell->floor_pct, w->o->floor_k);
			if (cell->within_floor)
				cell->changed = false;
		}
	}
}

/* ---- KPIs: judged three ways, never withheld ---- */

/*
 * A KPI cell's minimum effect: the declared one (`min_effect:` or
 * `threshold:`), else the calibrated floor as the floor rule uses it
 * (floor_k x the floor), else --margin (2%): docs/detection.md says why.
 */
static double kpi_min_effect(const struct walk *w, const struct stat_kpi *decl,
			     const struct compare_cell *cell)
{
	if (decl && decl->threshold > 0)
		return decl->threshold;
	if (!isnan(cell->floor_pct))
		return fmax(w->o->floor_k * cell->floor_pct, 0.1);
	return w->o->margin;
}

/*
 * Each KPI cell's verdict from the data's own noise (stats_kpi_verdict
 * over stats_kpi_interval, docs/detection.md): changed when the interval
 * excludes 0 and the change reaches the minimum effect, same inside
 * +-it, else undecided with the runs a side that would likely decide.
 * Every KPI is judged -- declared, with a direction, or a benchmark's
 * own stat without one (mytest.score of a job with no `kpi:`) -- and
 * the verdict replaces the selection for the row: LKP's min/max test
 * stays in its column (cell->lkp) and vetoes nothing.  The runs paired
 * by their start times (the groups' run_start) give the interval where
 * there are 3 pairs or more; the cell says how many it used.
 */
void kpi_judge(struct walk *w, struct compare_result *res)
{
	size_t i, c;

	for (i = 0; i < res->nrows; i++) {
		struct compare_row *row = &res->rows[i];
		const struct stat_kpi *decl;
		struct kpi_verdict_params kp;

		if (!row->is_kpi || row->is_function)
			continue;
		decl = stat_kpi_decl(&w->rules, row->name);
		kp.level = w->o->kpi_level;
		for (c = 1; c < w->n; c++) {
			struct compare_cell *cell = &row->cells[c];
			struct kpi_interval iv;
			const double *a, *b;
			size_t na, nb, np;

			/* a KPI is a perf stat: only the runs that have it */
			walk_cell_sides(w, i, c, false, &a, &na, &b, &nb);
			if (!na || !nb)
				continue; /* a side lacks it: nothing to judge */
			kp.min_effect = kpi_min_effect(w, decl, cell);
			np = walk_cell_pairs(w, i, c, w->pair_a, w->pair_b);
			stats_kpi_interval(a, na, b, nb, w->pair_a, w->pair_b,
					   np, kp.level, &iv);
			cell->kpi_judged = true;
			cell->kpi_lo = iv.lo;
			cell->kpi_hi = iv.hi;
			cell->kpi_pairs = iv.pairs;
			cell->kpi_min_effect = kp.min_effect;
			cell->kpi_verdict = stats_kpi_verdict(
				&iv, &kp, &cell->kpi_more_runs);
			if (cell->kpi_verdict == VERDICT_UNKNOWN && !iv.pairs)
				cell->kpi_base_limited = !stats_head_can_decide(
					iv.change, rel_sd(b, nb, b, nb), nb,
					rel_sd(a, na, b, nb), na, &kp);
			cell->changed = cell->kpi_verdict == VERDICT_CHANGED;
		}
	}
}

/* the noise guard: which columns it covers, and their priors */
void guard_init(struct walk *w)
{
	size_t c, nb = w->g[0]->matrix.nruns;

	if (w->o->lkp_exact || w->o->guard_level <= 0)
		return;
	w->prior = xcalloc(w->n, sizeof(*w->prior));
	for (c = 1; c < w->n; c++) {
		size_t na = w->g[c]->matrix.nruns;

		stats_noise_prior_init(&w->prior[c], na, nb);
		if (na >= w->o->guard_runs && nb >= w->o->guard_runs)
			w->prior[c].d = 0; /* enough runs: no guard */
	}
}

bool guard_on(const struct walk *w, size_t c)
{
	return w->prior && w->prior[c].d > 0;
}

/*
 * Fit each column's prior, then test the rows LKP's rules selected:
 * those whose guard p (the smaller of the moderated t's and Welch's) is
 * not below the level are no longer changed in LKP mode (the p is
 * reported in every mode).
 */
void guard_apply(struct walk *w, struct compare_result *res)
{
	size_t c, i;

	if (!w->prior)
		return;
	for (c = 1; c < w->n; c++)
		if (guard_on(w, c))
			stats_noise_prior_fit(&w->prior[c]);
	for (i = 0; i < res->nrows; i++) {
		struct compare_row *row = &res->rows[i];
		ssize_t ib;

		if (row->is_function)
			continue;
		ib = w->row_idx[i * w->n];
		for (c = 1; c < w->n; c++) {
			struct compare_cell *cell = &row->cells[c];
			struct stats_noise_prior prior;
			const double *a, *b;
			size_t na, nb;
			ssize_t ia;

			if (!guard_on(w, c) || cell->lkp != LKP_CHANGED || ib < 0)
				continue;
			ia = w->row_idx[i * w->n + c];
			if (ia < 0)
				continue;
			a = walk_side(w, c, ia, false, &na);
			b = walk_side(w, 0, ib, false, &nb);
			/* a stat some runs lack: the runs that have it */
			prior = w->prior[c];
			if (na != prior.na || nb != prior.nb) {
				prior.na = na;
				prior.nb = nb;
				prior.d = na + nb >= 2 ? (double)(na + nb - 2) : 0;
			}
			/*
			 * Significant against the comparison's pooled noise
			 * (moderated t) or against the stat's own (Welch): a
			 * steady KPI among noisy monitors is not shrunk
			 * towards their noise, nor a stat constant on each
			 * side.
			 */
			cell->p_guard = fmin(stats_moderated_p(&prior, a, b),
					     stats_welch_p(a, na, b, nb));
			if (w->o->method == COMPARE_LKP &&
			    !(cell->p_guard < w->o->guard_level))
				cell->changed = false;
		}
	}
}

/*
 * Phase 2b: perfsift's default rules (rules.h, stat_noise_rule) over the
 * cells LKP's rules and the noise guard left selected, in LKP mode and
 * not with --lkp-exact: identifiers, perf-profile's small shares, and
 * machine-state stats that do not stand out of their own spread and
 * class floor.  A KPI is the job's own figure, never the machine's: it
 * keeps LKP's and the guard's verdict, and a failure stat LKP's rule.
 */
void noise_rules_apply(struct walk *w, struct compare_result *res)
{
	size_t c, i;

	if (w->o->method != COMPARE_LKP)
		return;
	for (i = 0; i < res->nrows; i++) {
		struct compare_row *row = &res->rows[i];
		ssize_t ib = w->row_idx[i * w->n];

		if (row->is_function || row->is_kpi || ib < 0)
			continue;
		for (c = 1; c < w->n; c++) {
			struct compare_cell *cell = &row->cells[c];
			ssize_t ia = w->row_idx[i * w->n + c];
			const double *a, *b;
			size_t na, nb;

			if (!cell->changed || ia < 0)
				continue;
			a = walk_side(w, c, ia, false, &na);
			b = walk_side(w, 0, ib, false, &nb);
			cell->noise_rule = stat_noise_rule(
				row->name, a, na, b, nb,
				STAT_MACHINE_STATE_FLOOR_PCT);
			if (cell->noise_rule != NOISE_RULE_PASS)
				cell->changed = false;
		}
	}
}
