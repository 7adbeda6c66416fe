/*
 * compare.c: result groups compared stat by stat (compare.h).  The union
 * of the groups' stats is walked once: LKP's display numbers and change
 * test for every stat, perfsift's statistics when asked for; then the
 * rows are filtered, put in LKP's order and rendered -- the text table
 * byte for byte as the seed prints it (spec/lkp-compare.md §3, 2016
 * formats: `±` on every row, relative %change for every stat).
 */
#include "util/compat.h"
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare.h"
#include "job/kpi.h"
#include "result/matrix.h"
#include "select/select.h"
#include "result/stats.h"
#include "util/sorted.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define LABEL0_WIDTH 16 /* the seed's column labels: 16 and 26 characters */
#define LABEL_WIDTH 26
#define RULE_WIDTH 89

const char *compare_effect_name(enum compare_effect e)
{
	switch (e) {
	case EFFECT_IMPROVEMENT: return "improvement";
	case EFFECT_REGRESSION: return "regression";
	case EFFECT_UNDEFINED: return "undefined";
	}
	return "?";
}

void compare_options_init(struct compare_options *o)
{
	memset(o, 0, sizeof(*o));
	o->method = COMPARE_LKP;
	o->alpha = 0.05;
	o->margin = 2.0;
	o->boot_iters = 1000;
	o->seed = 20160405; /* fixed: the same data give the same interval */
	o->guard_level = 0.001;
	o->guard_runs = 10;
}

void compare_result_init(struct compare_result *res)
{
	memset(res, 0, sizeof(*res));
}

void compare_result_release(struct compare_result *res)
{
	size_t i;

	for (i = 0; i < res->nrows; i++) {
		free(res->rows[i].name);
		free(res->rows[i].cells);
	}
	free(res->rows);
	if (res->labels)
		for (i = 0; i < res->ncols; i++)
			free(res->labels[i]);
	free(res->labels);
	free(res->header_keys);
	free(res->header_values);
	free(res->compare_keys);
	compare_result_init(res);
}

/* ---- the header: common axes, compare axes, labels ---- */

static bool axis_common(const struct result_group *const *g, size_t n,
			const char *key, const char *value)
{
	size_t i;

	for (i = 1; i < n; i++) {
		const char *v = result_group_axis(g[i], key);

		if (!v || strcmp(v, value))
			return false;
	}
	return true;
}

static void build_header(struct compare_result *res,
			 const struct result_group *const *g, size_t n)
{
	struct strbuf keys = STRBUF_INIT, values = STRBUF_INIT;
	struct strbuf ckeys = STRBUF_INIT;
	size_t i, c;
	bool any_diff = false, commits_differ = false;

	/* common axes (commit excluded), alphabetical as LKP's DataStore */
	for (i = 0; i < g[0]->naxes; i++) {
		const struct group_axis *ax = &g[0]->axes[i];

		if (!strcmp(ax->key, "commit") ||
		    !axis_common(g, n, ax->key, ax->value))
			continue;
		if (keys.len) {
			strbuf_addch(&keys, '/');
			strbuf_addch(&values, '/');
		}
		strbuf_addstr(&keys, ax->key);
		strbuf_addstr(&values, ax->value);
	}
	if (keys.len) {
		res->header_keys = strbuf_detach(&keys, NULL);
		res->header_values = strbuf_detach(&values, NULL);
	}
	strbuf_release(&keys);
	strbuf_release(&values);

	/*
	 * The compare axes: those that are not common, commit aside.  Two
	 * settings of one commit are labelled by their differing parameters
	 * (`thp_enabled`), everything else by commit, as LKP -- groups of
	 * different commits too, even when a plain LKP matrix.json directory
	 * (no axes but its name) is one of them.
	 */
	for (c = 1; c < n; c++)
		if (strcmp(g[0]->label ? g[0]->label : "",
			   g[c]->label ? g[c]->label : ""))
			commits_differ = true;
	for (c = 0; c < n && !commits_differ; c++)
		for (i = 0; i < g[c]->naxes; i++) {
			const struct group_axis *ax = &g[c]->axes[i];

			if (!strcmp(ax->key, "commit"))
				continue;
			if (result_group_axis(g[0], ax->key) &&
			    axis_common(g, n, ax->key, ax->value))
				continue;
			if (c && result_group_axis(g[0], ax->key))
				continue; /* seen with group 0 */
			any_diff = true;
			if (ckeys.len)
				strbuf_addch(&ckeys, '/');
			strbuf_addstr(&ckeys, ax->key);
		}
	res->labels = xcalloc(n, sizeof(*res->labels));
	if (!any_diff) {
		res->compare_keys = xstrdup("commit");
		for (c = 0; c < n; c++)
			res->labels[c] = xstrdup(g[c]->label ? g[c]->label : "");
	} else {
		res->compare_keys = strbuf_detach(&ckeys, NULL);
		for (c = 0; c < n; c++) {
			struct strbuf lab = STRBUF_INIT;
			const char *k = res->compare_keys;

			while (*k) {
				const char *end = strchrnul(k, '/');
				char *key = xstrndup(k, (size_t)(end - k));
				const char *v = result_group_axis(g[c], key);

				if (lab.len)
					strbuf_addch(&lab, '/');
				strbuf_addstr(&lab, v ? v : "");
				free(key);
				k = *end ? end + 1 : end;
			}
			res->labels[c] = strbuf_detach(&lab, NULL);
		}
	}
	strbuf_release(&ckeys);
}

/* ---- the walk over the union of stats ---- */

struct union_cursor {
	const struct result_group *const *g;
	size_t n;
	size_t *pos; /* next index in each matrix */
};

/* the smallest next name over all groups, or NULL at the end */
static const char *union_next(struct union_cursor *u, ssize_t *idx)
{
	const char *best = NULL;
	size_t c;

	for (c = 0; c < u->n; c++) {
		const struct matrix *m = &u->g[c]->matrix;

		if (u->pos[c] < m->nstats &&
		    (!best || strcmp(m->names[u->pos[c]], best) < 0))
			best = m->names[u->pos[c]];
	}
	if (!best)
		return NULL;
	for (c = 0; c < u->n; c++) {
		const struct matrix *m = &u->g[c]->matrix;

		if (u->pos[c] < m->nstats && !strcmp(m->names[u->pos[c]], best))
			idx[c] = (ssize_t)u->pos[c];
		else
			idx[c] = -1;
	}
	for (c = 0; c < u->n; c++)
		if (idx[c] >= 0)
			u->pos[c]++;
	return best;
}

static bool has_prefix_stat(const struct matrix *m, const char *prefix)
{
	/* names are sorted: the first >= prefix is the one that may have it */
	size_t at = sorted_lower_bound(prefix, m->names, m->nstats,
				       sizeof(*m->names), matrix_cmp_name);

	return at < m->nstats && !strncmp(m->names[at], prefix, strlen(prefix));
}

/* runtime for the floors: the job's, else the measured elapsed time */
static double group_runtime(const struct result_group *g)
{
	static const char *const elapsed[] = { "time.elapsed_time" };
	const char *tc = result_group_axis(g, "testcase");
	ssize_t i = -1;

	if (g->runtime_s > 0)
		return g->runtime_s;
	if (tc) {
		char *name = xasprintf("%s.time.elapsed_time", tc);

		i = matrix_find(&g->matrix, name);
		free(name);
	}
	if (i < 0)
		i = matrix_find(&g->matrix, elapsed[0]);
	if (i < 0 || !g->matrix.nruns)
		return 0;
	{
		size_t n;
		double *v = matrix_real_dup(&g->matrix, (size_t)i, &n);
		double mean = n ? stats_mean(v, n) : 0;

		free(v);
		return mean;
	}
}

struct walk {
	const struct compare_options *o;
	const struct result_group *const *g;
	size_t n;
	struct stat_rules rules;
	struct lkp_options lkp;
	struct stats_scratch scratch;
	regex_t stat_re;
	bool have_stat_re;
	double *zeros;
	double **buf; /* per group: a row's real values, when some are missing */
	/* every stat's Welch p per column (for the q-values) */
	double *p_all;
	size_t np_all, alloc_p_all;
	/* rows kept, with their index in the union for p_all, and each
	 * group's index of the stat (-1: absent), nrows x n */
	size_t *row_union;
	size_t alloc_row_union;
	ssize_t *row_idx;
	size_t alloc_row_idx;
	/* the noise guard's prior per column (NULL: guard off) */
	struct stats_noise_prior *prior;
	struct compare_row cur;
};

/*
 * Stat idx of group c: the values of the runs that have it (*n of them;
 * none when the group lacks the stat).  `padded` (failure stats): every
 * run, 0 where the stat is absent -- "did not happen" is a real 0 there.
 */
static const double *side_values(const struct walk *w, size_t c, ssize_t idx,
				 bool padded, size_t *n)
{
	const struct matrix *m = &w->g[c]->matrix;

	if (idx < 0) {
		*n = padded ? m->nruns : 0;
		return w->zeros;
	}
	if (padded) {
		*n = m->nruns;
		return m->values + (size_t)idx * m->nruns;
	}
	return matrix_real(m, (size_t)idx, w->buf[c], n);
}

/* does every run of every group have the stat? */
static bool row_complete(const struct walk *w, const ssize_t *idx)
{
	size_t c;

	for (c = 0; c < w->n; c++) {
		const struct matrix *m = &w->g[c]->matrix;

		if (idx[c] < 0 || (m->present &&
				   memchr(m->present + (size_t)idx[c] * m->nruns,
					  0, m->nruns)))
			return false;
	}
	return true;
}

static void cell_numbers(struct compare_cell *cell, const double *v, size_t n,
			 size_t group_runs, bool present, bool is_func)
{
	size_t i;

	/* a perf stat no run has is absent: no numbers, not zeros */
	if (!is_func && !n)
		present = false;
	cell->present = present;
	cell->nruns = n;
	cell->missing = group_runs > n ? group_runs - n : 0;
	cell->mean = present ? stats_mean(v, n) : is_func ? 0 : NAN;
	cell->stddev = present ? stats_stddev(v, n, cell->mean) : -1;
	cell->fails = 0;
	if (is_func && present)
		for (i = 0; i < n; i++)
			cell->fails += v[i];
	cell->p_welch = cell->p_mwu = cell->q = cell->p_guard = NAN;
	cell->ci_lo = cell->ci_hi = NAN;
	cell->verdict = VERDICT_UNKNOWN;
	cell->more_runs = 0;
}

/* the display change of column cell vs base (compare.rb:738-803) */
static void cell_change(struct compare_cell *cell,
			const struct compare_cell *base, bool is_func)
{
	if (is_func) {
		/*
		 * %reproduction; each column divided by its own run count
		 * (LKP divides column i by the runs of column i-1).
		 */
		double fa = cell->nruns ? cell->fails / (double)cell->nruns : 0;
		double fb = base->nruns ? base->fails / (double)base->nruns : 0;

		cell->change = 100 * (fa - fb);
		return;
	}
	if (!cell->present || !base->present) {
		cell->change = NAN; /* one side has no value: no change */
		return;
	}
	cell->change = 100 * (cell->mean - base->mean) /
		       (base->mean == 0 ? 1e-100 : base->mean);
}

static enum compare_effect effect_of(int direction, double change)
{
	if (!direction || isnan(change))
		return EFFECT_UNDEFINED;
	return (double)direction * change < 0 ? EFFECT_REGRESSION
					      : EFFECT_IMPROVEMENT;
}

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

static bool name_wanted(struct walk *w, const char *name)
{
	if (w->have_stat_re && regexec(&w->stat_re, name, 0, NULL, 0))
		return false;
	if (w->o->kpi && !stat_is_kpi(&w->rules, name))
		return false;
	return true;
}

/* group score per stat base (Compare.sort_stats, compare.rb:820-841) */
struct base_score {
	const char *base;
	size_t len;
	long score;
};

struct sort_item {
	long score;
	const char *name;
	size_t row;
};

static int cmp_sort_item(const void *pa, const void *pb)
{
	const struct sort_item *a = pa, *b = pb;

	if (a->score != b->score)
		return a->score < b->score ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void lkp_order(struct compare_result *res, const struct stat_rules *r,
		      size_t *row_union)
{
	struct base_score *scores = NULL;
	struct sort_item *items;
	struct compare_row *rows;
	size_t *ru;
	size_t nscores = 0, alloc = 0, i, k;

	if (!res->nrows)
		return;
	for (i = 0; i < res->nrows; i++) {
		const char *name = res->rows[i].name;
		size_t len = strcspn(name, ".");

		for (k = 0; k < nscores; k++)
			if (scores[k].len == len &&
			    !strncmp(scores[k].base, name, len))
				break;
		if (k == nscores) {
			ALLOC_GROW(scores, nscores + 1, alloc);
			scores[k].base = name;
			scores[k].len = len;
			scores[k].score = res->rows[i].is_function ? -10000 : 0;
			nscores++;
		}
		scores[k].score++;
	}
	/* the benchmarks' own stats come first among the monitors */
	for (k = 0; k < nscores; k++) {
		size_t b;

		for (b = 0; b < r->nbenchmarks; b++)
			if (strlen(r->benchmarks[b]) == scores[k].len &&
			    !strncmp(r->benchmarks[b], scores[k].base,
				     scores[k].len) &&
			    scores[k].score > 0)
				scores[k].score = 0;
	}
	items = xcalloc(res->nrows, sizeof(*items));
	for (i = 0; i < res->nrows; i++) {
		const char *name = res->rows[i].name;
		size_t len = strcspn(name, ".");

		for (k = 0; k < nscores; k++)
			if (scores[k].len == len &&
			    !strncmp(scores[k].base, name, len))
				break;
		/* KPIs first, after the failure stats */
		items[i].score = res->rows[i].is_kpi && !res->rows[i].is_function &&
					 scores[k].score >= 0 ? -1 : scores[k].score;
		items[i].name = name;
		items[i].row = i;
	}
	qsort(items, res->nrows, sizeof(*items), cmp_sort_item);
	rows = xcalloc(res->nrows, sizeof(*rows));
	ru = xcalloc(res->nrows, sizeof(*ru));
	for (i = 0; i < res->nrows; i++) {
		rows[i] = res->rows[items[i].row];
		ru[i] = row_union[items[i].row];
	}
	memcpy(res->rows, rows, res->nrows * sizeof(*rows));
	memcpy(row_union, ru, res->nrows * sizeof(*ru));
	free(rows);
	free(ru);
	free(items);
	free(scores);
}

/* ---- KPIs: judged three ways, never withheld ---- */

/* a judged KPI cell neither changed nor the same */
static bool cell_undecided(const struct compare_cell *cell)
{
	return cell->kpi_judged && cell->kpi_verdict == VERDICT_UNKNOWN;
}

/* with --lkp-exact the selection is LKP's alone: no verdicts beyond it */
static bool kpi_judging(const struct compare_options *o)
{
	return !o->lkp_exact;
}

/* a KPI row shown although unchanged: --kpi, or one cell undecided */
static bool kpi_shown(const struct compare_options *o,
		      const struct compare_row *row, size_t ncols)
{
	size_t c;

	if (!row->is_kpi || row->is_function)
		return false;
	if (o->kpi || o->kpi_rows)
		return true;
	for (c = 1; c < ncols; c++)
		if (cell_undecided(&row->cells[c]))
			return true;
	return false;
}

/* stat idx of group c: its values and their count */
static const double *kpi_side(const struct walk *w, size_t c, ssize_t idx,
			      size_t *n)
{
	/* a KPI is a perf stat: only the runs that have it (side_values) */
	return side_values(w, c, idx, false, n);
}

/*
 * Each KPI cell's verdict (stats_kpi_verdict), for the KPIs declared or
 * with a direction: the method's selection
 * decides "changed" (and a declared threshold must be reached, else the
 * cell is no longer selected); the bootstrap interval, computed here
 * when the method did not, decides "same"; the rest is undecided, with
 * the runs a side that would likely decide it.
 */
static void kpi_judge(struct walk *w, struct compare_result *res)
{
	size_t i, c;

	for (i = 0; i < res->nrows; i++) {
		struct compare_row *row = &res->rows[i];
		const struct stat_kpi *decl;
		struct kpi_verdict_params kp;

		if (!row->is_kpi || row->is_function)
			continue;
		decl = stat_kpi_decl(&w->rules, row->name);
		/*
		 * An implicit KPI without a direction (a command's resident
		 * set size) decides nothing: not judged, so not shown
		 * undecided either.  A declared one always is.
		 */
		if (!decl && !stat_direction(&w->rules, row->name))
			continue;
		kp.threshold = decl ? decl->threshold : 0;
		kp.margin = w->o->margin;
		kp.level = w->o->method == COMPARE_STATS ? w->o->alpha
							 : w->o->guard_level;
		for (c = 1; c < w->n; c++) {
			struct compare_cell *cell = &row->cells[c];
			ssize_t ia = w->row_idx[i * w->n + c];
			ssize_t ib = w->row_idx[i * w->n];
			const double *a, *b;
			double noise, change;
			size_t na, nb;

			a = kpi_side(w, c, ia, &na);
			b = kpi_side(w, 0, ib, &nb);
			if (!na || !nb)
				continue; /* a side lacks it: nothing to judge */
			if (isnan(cell->ci_lo) && w->o->boot_iters)
				stats_bootstrap_ci(&w->scratch, a, na, b, nb,
						   row->name, w->o->seed,
						   w->o->boot_iters,
						   &cell->ci_lo, &cell->ci_hi);
			noise_and_change(a, na, b, nb, &noise, &change);
			cell->kpi_judged = true;
			cell->kpi_verdict = stats_kpi_verdict(
				cell->changed, cell->ci_lo, cell->ci_hi, change,
				noise, na < nb ? na : nb, &kp,
				&cell->kpi_more_runs);
			if (cell->kpi_verdict == VERDICT_UNKNOWN)
				cell->kpi_base_limited = !stats_head_can_decide(
					change, rel_sd(b, nb, b, nb), nb,
					rel_sd(a, na, b, nb), na, &kp);
			if (cell->kpi_verdict != VERDICT_CHANGED)
				cell->changed = false;
		}
	}
}

/* the noise guard: which columns it covers, and their priors */
static void guard_init(struct walk *w)
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

static bool guard_on(const struct walk *w, size_t c)
{
	return w->prior && w->prior[c].d > 0;
}

/*
 * Fit each column's prior, then test the rows LKP's rules selected:
 * those whose guard p (the smaller of the moderated t's and Welch's) is
 * not below the level are no longer changed in LKP mode (the p is
 * reported in every mode).
 */
static void guard_apply(struct walk *w, struct compare_result *res)
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
			a = side_values(w, c, ia, false, &na);
			b = side_values(w, 0, ib, false, &nb);
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

int compare_groups(const struct result_group *const *groups, size_t ngroups,
		   const struct compare_options *o, struct compare_result *res,
		   struct strbuf *err)
{
	struct walk w;
	struct union_cursor u;
	ssize_t *idx;
	size_t c, maxruns = 0, nunion = 0, i;
	const char *name;
	bool need_stats = o->method == COMPARE_STATS || !o->no_statistics;
	int ret = -1;

	compare_result_init(res);
	if (ngroups < 2) {
		strbuf_addstr(err, "compare needs a base and at least one more group");
		return -1;
	}
	memset(&w, 0, sizeof(w));
	w.o = o;
	w.g = groups;
	w.n = ngroups;
	res->ncols = ngroups;
	res->groups = groups;
	res->method = o->method;
	if (o->stat_regex) {
		int rc = regcomp(&w.stat_re, o->stat_regex,
				 REG_EXTENDED | REG_NOSUB);

		if (rc) {
			char msg[256];

			regerror(rc, &w.stat_re, msg, sizeof(msg));
			strbuf_addf(err, "--stat '%s': %s", o->stat_regex, msg);
			return -1;
		}
		w.have_stat_re = true;
	}
	stat_rules_init(&w.rules);
	for (c = 0; c < ngroups; c++) {
		stat_rules_add_benchmark(&w.rules,
					 result_group_axis(groups[c], "testcase"));
		if (groups[c]->matrix.nruns > maxruns)
			maxruns = groups[c]->matrix.nruns;
	}
	/* declared KPIs: the head's first, then the base's */
	for (c = ngroups; c-- > 0;)
		if (groups[c]->kpi)
			kpi_declare(&w.rules, groups[c]->kpi);
	stat_rules_set_runtime(&w.rules, group_runtime(groups[0]));
	res->guard_level = o->lkp_exact ? 0 : o->guard_level;
	lkp_options_init(&w.lkp);
	w.lkp.more = o->more;
	w.lkp.base = &groups[0]->matrix;
	w.lkp.base_has_perf_profile =
		has_prefix_stat(&groups[0]->matrix, "perf-profile.");
	w.lkp.base_has_lock_stat =
		has_prefix_stat(&groups[0]->matrix, "lock_stat.");
	stats_scratch_init(&w.scratch);
	w.zeros = xcalloc(maxruns ? maxruns : 1, sizeof(double));
	w.buf = xcalloc(ngroups, sizeof(*w.buf));
	for (c = 0; c < ngroups; c++)
		w.buf[c] = xcalloc(groups[c]->matrix.nruns ?
				   groups[c]->matrix.nruns : 1, sizeof(double));
	build_header(res, groups, ngroups);
	guard_init(&w);

	idx = xcalloc(ngroups, sizeof(*idx));
	u.g = groups;
	u.n = ngroups;
	u.pos = xcalloc(ngroups, sizeof(*u.pos));
	while ((name = union_next(&u, idx))) {
		const double *b;
		size_t nb;
		struct compare_row row;
		bool keep = false, is_func = false, classified = false;
		bool padded = false;

		/*
		 * Some runs lack the stat: a perf stat is compared over the
		 * runs that have it, a failure stat over every run (absent =
		 * did not happen).  Only such rows pay for the classification.
		 */
		if (!row_complete(&w, idx))
			padded = stat_is_function(&w.rules, name);
		b = side_values(&w, 0, idx[0], padded, &nb);
		memset(&row, 0, sizeof(row));
		row.cells = NULL;
		if (need_stats) {
			ALLOC_GROW(w.p_all, (nunion + 1) * (ngroups - 1),
				   w.alloc_p_all);
		}
		for (c = 1; c < ngroups; c++) {
			size_t na;
			const double *a = side_values(&w, c, idx[c], padded, &na);
			enum lkp_outcome out;
			struct lkp_record rec;

			out = lkp_changed(&w.rules, name, a, na, b, nb,
					  idx[0] >= 0, &w.lkp, &rec);
			is_func = rec.is_function;
			classified = true;
			if (guard_on(&w, c) && !is_func && idx[0] >= 0 &&
			    idx[c] >= 0)
				stats_noise_prior_add(&w.prior[c],
					stats_rel_var(a, na, b, nb));
			if (need_stats)
				w.p_all[nunion * (ngroups - 1) + c - 1] =
					stats_welch_p(a, na, b, nb);
			if (!row.cells)
				row.cells = xcalloc(ngroups, sizeof(*row.cells));
			row.cells[c].lkp = out;
			if (out == LKP_CHANGED && (o->method == COMPARE_LKP || is_func)) {
				row.cells[c].changed = true;
				keep = true;
			}
		}
		if (!classified)
			is_func = stat_is_function(&w.rules, name);
		/* every KPI is judged (kpi_judge), shown or not */
		if (!is_func && (kpi_judging(o) || o->kpi || o->kpi_rows) &&
		    stat_is_kpi(&w.rules, name))
			keep = true;
		/* stats mode decides after the q-values: keep candidates */
		if (o->method == COMPARE_STATS && !is_func)
			keep = true;
		if ((keep || o->all) && name_wanted(&w, name)) {
			ALLOC_GROW(res->rows, res->nrows + 1, res->alloc_rows);
			ALLOC_GROW(w.row_union, res->nrows + 1,
				   w.alloc_row_union);
			row.name = xstrdup(name);
			row.is_function = is_func;
			row.is_kpi = stat_is_kpi(&w.rules, name);
			/* direction: below, for the rows shown only */
			for (c = 0; c < ngroups; c++) {
				size_t n;
				const double *v = side_values(&w, c, idx[c],
							      is_func, &n);

				cell_numbers(&row.cells[c], v, n,
					     groups[c]->matrix.nruns,
					     idx[c] >= 0, is_func);
			}
			w.row_union[res->nrows] = nunion;
			ALLOC_GROW(w.row_idx, (res->nrows + 1) * ngroups,
				   w.alloc_row_idx);
			memcpy(w.row_idx + res->nrows * ngroups, idx,
			       ngroups * sizeof(*idx));
			res->rows[res->nrows++] = row;
		} else {
			free(row.cells);
		}
		nunion++;
	}
	res->nstats = nunion;
	guard_apply(&w, res);

	/* q-values over every stat of the comparison, per column */
	if (need_stats && nunion) {
		size_t ncmp = ngroups - 1;
		double *p = xcalloc(nunion, sizeof(double));
		double *q = xcalloc(nunion, sizeof(double));

		for (c = 1; c < ngroups; c++) {
			for (i = 0; i < nunion; i++)
				p[i] = w.p_all[i * ncmp + c - 1];
			stats_bh_qvalues(p, nunion, q);
			for (i = 0; i < res->nrows; i++) {
				struct compare_row *row = &res->rows[i];
				struct compare_cell *cell = &row->cells[c];
				const double *a, *b;
				size_t na, nb;
				ssize_t ia = w.row_idx[i * ngroups + c];
				ssize_t ib = w.row_idx[i * ngroups];

				a = side_values(&w, c, ia, row->is_function, &na);
				b = side_values(&w, 0, ib, row->is_function, &nb);
				cell->q = q[w.row_union[i]];
				cell->p_welch = p[w.row_union[i]];
				if (!na || !nb)
					continue; /* one side has no value */
				cell->p_mwu = stats_mwu_p(&w.scratch, a, na, b,
							  nb, NULL);
				/*
				 * The interval only where it can matter: stats
				 * mode drops rows with q > alpha unless --all.
				 */
				if (o->method != COMPARE_STATS || o->all ||
				    cell->q <= o->alpha)
					cell_verdict(&w, cell, row->name, a,
						     na, b, nb);
				if (o->method == COMPARE_STATS && !row->is_function)
					cell->changed = cell->verdict ==
							VERDICT_CHANGED;
			}
		}
		free(p);
		free(q);
	}

	/* after the method's selection, which decides "changed" */
	if (kpi_judging(o))
		kpi_judge(&w, res);

	/* changes, effects, final selection */
	{
		size_t kept = 0;

		for (i = 0; i < res->nrows; i++) {
			struct compare_row *row = &res->rows[i];

			row->changed = false;
			for (c = 1; c < ngroups; c++)
				row->changed |= row->cells[c].changed;
			if (!row->changed && !o->all && !kpi_shown(o, row, ngroups)) {
				free(row->name);
				free(row->cells);
				continue;
			}
			/* hundreds of LKP patterns: only for the rows shown
			 * (stats mode holds every stat until here) */
			row->direction = stat_direction(&w.rules, row->name);
			for (c = 1; c < ngroups; c++) {
				struct compare_cell *cell = &row->cells[c];

				cell_change(cell, &row->cells[0],
					    row->is_function);
				cell->effect = effect_of(row->direction,
							 cell->change);
				if (row->is_kpi && cell->effect == EFFECT_REGRESSION &&
				    (cell->kpi_judged ?
					     cell->kpi_verdict == VERDICT_CHANGED :
					     cell->changed))
					res->kpi_regressed = true;
				if (cell_undecided(cell))
					res->nundecided++;
			}
			w.row_union[kept] = w.row_union[i];
			res->rows[kept++] = *row;
		}
		res->nrows = kept;
	}
	lkp_order(res, &w.rules, w.row_union);
	ret = 0;

	free(idx);
	free(u.pos);
	free(w.zeros);
	for (c = 0; c < ngroups; c++)
		free(w.buf[c]);
	free(w.buf);
	free(w.p_all);
	free(w.row_union);
	free(w.row_idx);
	free(w.prior);
	stats_scratch_release(&w.scratch);
	stat_rules_release(&w.rules);
	if (w.have_stat_re)
		regfree(&w.stat_re);
	return ret;
}

/* ---- the text table ---- */

void compare_format_mean(struct strbuf *out, double mean)
{
	if (fabs(mean) < 1000)
		strbuf_addf(out, "%10.2f", mean);
	else if (fabs(mean) > 100000000)
		strbuf_addf(out, "%10.4g", mean);
	else
		strbuf_addf(out, "%10lld", (long long)mean);
}

void compare_format_stddev(struct strbuf *out, double mean, double stddev)
{
	double pct;

	/* the seed shows ± on every row; n <= 1 has no spread to show */
	if (stddev < 0) {
		strbuf_addstr(out, "      ");
		return;
	}
	pct = mean != 0 ? 100 * stddev / fabs(mean) : stddev;
	if (pct > 999999)
		pct = 999999;
	strbuf_addf(out, " \xc2\xb1%3lld%%", (long long)pct);
}

void compare_format_change(struct strbuf *out, double change)
{
	if (fabs(change) < 100000)
		strbuf_addf(out, "%+10.1f%% ", change);
	else
		strbuf_addf(out, "%+10.2g%% ", change);
}

static void render_fail_row(struct strbuf *out, const struct compare_row *row,
			    size_t ncols)
{
	size_t c;

	for (c = 0; c < ncols; c++) {
		const struct compare_cell *cell = &row->cells[c];
		long long fails = (long long)cell->fails;

		if (c)
			strbuf_addf(out, "%10.0f%% ", cell->change);
		if (fails)
			strbuf_addf(out, "%11lld", fails);
		else
			strbuf_addchars(out, ' ', 11);
		strbuf_addf(out, ":%-4zu", cell->nruns);
	}
	strbuf_addf(out, "  %s\n", row->name);
}

static void render_perf_row(struct strbuf *out, const struct compare_row *row,
			    size_t ncols)
{
	size_t c;

	for (c = 0; c < ncols; c++) {
		const struct compare_cell *cell = &row->cells[c];

		/*
		 * A side without the stat: "-" for its mean, and in place of
		 * a %change what happened -- never LKP's -100% or +5e+101%.
		 */
		if (c && !isnan(cell->change)) {
			compare_format_change(out, cell->change);
			/* an undecided KPI: `?` after its %change (the
			 * format ends in a blank) */
			if (cell_undecided(cell))
				out->buf[out->len - 1] = '?';
		} else if (c) {
			strbuf_addf(out, "%11s ", !cell->present ? "gone"
					  : !row->cells[0].present ? "new" : "");
		}
		if (!cell->present) {
			strbuf_addf(out, "%10s      ", "-");
			continue;
		}
		compare_format_mean(out, cell->mean);
		compare_format_stddev(out, cell->mean, cell->stddev);
	}
	strbuf_addf(out, "  %s\n", row->name);
}

static void add_label(struct strbuf *out, const char *label, int width)
{
	strbuf_addf(out, "%*.*s ", width, width, label);
}

void compare_kpi_tally(const struct compare_result *res,
		       struct compare_kpi_tally *t)
{
	size_t i, c;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < res->nrows; i++)
		for (c = 1; c < res->ncols; c++) {
			const struct compare_cell *cell = &res->rows[i].cells[c];

			if (!cell->kpi_judged)
				continue;
			if (!t->worst)
				t->worst = &res->rows[i];
			switch (cell->kpi_verdict) {
			case VERDICT_CHANGED:
				t->changed++;
				break;
			case VERDICT_SAME:
				t->same++;
				break;
			case VERDICT_UNKNOWN:
				if (!t->undecided || cell->kpi_more_runs > t->more_runs) {
					t->more_runs = cell->kpi_more_runs;
					t->worst = &res->rows[i];
				}
				t->undecided++;
				t->base_limited += cell->kpi_base_limited;
				break;
			}
		}
}

const char *compare_kpi_verdict_name(const struct compare_cell *cell)
{
	if (!cell->kpi_judged)
		return NULL;
	return cell->kpi_verdict == VERDICT_UNKNOWN ?
		       "undecided" :
		       stats_verdict_name(cell->kpi_verdict);
}

void compare_undecided_line(const struct compare_result *res,
			    const struct compare_row *row, size_t c,
			    struct strbuf *out)
{
	const struct compare_cell *cell = &row->cells[c];
	size_t n = cell->nruns < row->cells[0].nruns ? cell->nruns
						      : row->cells[0].nruns;

	strbuf_addf(out, "undecided: %u more run%s a side would likely decide %s",
		    cell->kpi_more_runs, cell->kpi_more_runs == 1 ? "" : "s",
		    row->name);
	if (res->ncols > 2)
		strbuf_addf(out, " in %s", res->labels[c]);
	strbuf_addf(out, " (%+.1f%%, ", cell->change);
	if (cell->lkp == LKP_SKIP_FEW_RUNS)
		strbuf_addstr(out, "fewer than 3 runs a side");
	else if (cell->lkp == LKP_CHANGED && !isnan(cell->p_guard) &&
		 res->guard_level > 0 && !(cell->p_guard < res->guard_level))
		strbuf_addf(out, "the noise guard's p %.2g is not below %g",
			    cell->p_guard, res->guard_level);
	else
		strbuf_addf(out, "within its noise at %zu run%s a side", n,
			    n == 1 ? "" : "s");
	strbuf_addch(out, ')');
}

/* one line under the table per undecided KPI cell, marked as its row */
static void render_undecided(const struct compare_result *res,
			     struct strbuf *out)
{
	size_t i, c;

	for (i = 0; i < res->nrows; i++)
		for (c = 1; c < res->ncols; c++) {
			const struct compare_row *row = &res->rows[i];

			if (!cell_undecided(&row->cells[c]))
				continue;
			strbuf_addstr(out, "? ");
			compare_undecided_line(res, row, c, out);
			strbuf_addch(out, '\n');
		}
}

void compare_render_text(const struct compare_result *res, struct strbuf *out)
{
	size_t c, i, nfail = 0;

	strbuf_addchars(out, '=', RULE_WIDTH);
	strbuf_addch(out, '\n');
	if (res->header_keys)
		strbuf_addf(out, "%s:\n  %s\n", res->header_keys,
			    res->header_values);
	strbuf_addf(out, "\n%s: \n", res->compare_keys);
	for (c = 0; c < res->ncols; c++)
		strbuf_addf(out, "  %s\n", res->labels[c]);
	strbuf_addch(out, '\n');
	for (c = 0; c < res->ncols; c++)
		add_label(out, res->labels[c], c ? LABEL_WIDTH : LABEL0_WIDTH);
	strbuf_addch(out, '\n');
	for (c = 0; c < res->ncols; c++) {
		strbuf_addchars(out, '-', c ? LABEL_WIDTH : LABEL0_WIDTH);
		strbuf_addch(out, ' ');
	}
	strbuf_addch(out, '\n');

	for (i = 0; i < res->nrows; i++)
		nfail += res->rows[i].is_function;
	if (nfail) {
		strbuf_addstr(out, "       fail:runs");
		for (c = 1; c < res->ncols; c++)
			strbuf_addstr(out, "  %reproduction    fail:runs");
		strbuf_addstr(out, "\n           |    ");
		for (c = 1; c < res->ncols; c++)
			strbuf_addstr(out, "         |             |    ");
		strbuf_addch(out, '\n');
		for (i = 0; i < res->nrows; i++)
			if (res->rows[i].is_function)
				render_fail_row(out, &res->rows[i], res->ncols);
	}
	strbuf_addstr(out, "         %stddev");
	for (c = 1; c < res->ncols; c++)
		strbuf_addstr(out, "     %change         %stddev");
	strbuf_addstr(out, "\n             \\  ");
	for (c = 1; c < res->ncols; c++)
		strbuf_addstr(out, "        |                \\  ");
	strbuf_addch(out, '\n');
	for (i = 0; i < res->nrows; i++)
		if (!res->rows[i].is_function)
			render_perf_row(out, &res->rows[i], res->ncols);
	render_undecided(res, out);
	strbuf_addch(out, '\n');
}

/* ---- JSON and CSV ---- */

static void json_num(struct strbuf *out, double v)
{
	strbuf_add_json_num(out, v);
}

/* `, "key": number` */
static void json_field(struct strbuf *out, const char *key, double v)
{
	strbuf_addf(out, ", \"%s\": ", key);
	json_num(out, v);
}

static const char *direction_name(int d)
{
	return d > 0 ? "higher" : d < 0 ? "lower" : "undefined";
}

/* `, "kpi_verdict": ..., "kpi_more_runs": N` (null / 0 for non-KPIs) */
static void json_kpi_verdict(struct strbuf *out, const struct compare_cell *cell)
{
	const char *v = compare_kpi_verdict_name(cell);

	strbuf_addstr(out, ", \"kpi_verdict\": ");
	if (v)
		strbuf_addf(out, "\"%s\"", v);
	else
		strbuf_addstr(out, "null");
	strbuf_addf(out, ", \"kpi_more_runs\": %u", cell->kpi_more_runs);
}

/* "undecided": every undecided KPI cell, with the line the table prints */
static void json_undecided(const struct compare_result *res, struct strbuf *out)
{
	struct strbuf line = STRBUF_INIT;
	size_t i, c, k = 0;

	strbuf_addstr(out, "  \"undecided\": [");
	for (i = 0; i < res->nrows; i++)
		for (c = 1; c < res->ncols; c++) {
			const struct compare_row *row = &res->rows[i];

			if (!cell_undecided(&row->cells[c]))
				continue;
			strbuf_addstr(out, k++ ? ",\n    {\"stat\": " : "\n    {\"stat\": ");
			strbuf_add_json_str(out, row->name);
			strbuf_addf(out, ", \"group\": %zu, \"more_runs\": %u, \"text\": ",
				    c, row->cells[c].kpi_more_runs);
			strbuf_reset(&line);
			compare_undecided_line(res, row, c, &line);
			strbuf_add_json_str(out, line.buf);
			strbuf_addch(out, '}');
		}
	strbuf_addstr(out, k ? "\n  ]\n" : "]\n");
	strbuf_release(&line);
}

void compare_render_json(const struct compare_result *res,
			 const struct compare_options *o, struct strbuf *out)
{
	size_t c, i, k;

	strbuf_addstr(out, "{\n  \"schema\": \"perfsift-compare/1\",\n");
	strbuf_addf(out, "  \"method\": \"%s\",\n",
		    o->method == COMPARE_STATS ? "stats" : "lkp");
	strbuf_addstr(out, "  \"alpha\": ");
	json_num(out, o->alpha);
	strbuf_addstr(out, ",\n  \"margin_pct\": ");
	json_num(out, o->margin);
	strbuf_addf(out, ",\n  \"bootstrap\": {\"iterations\": %u, \"seed\": %" PRIu64 "},\n",
		    o->boot_iters, o->seed);
	if (o->lkp_exact || o->guard_level <= 0) {
		strbuf_addstr(out, "  \"noise_guard\": null,\n");
	} else {
		strbuf_addstr(out, "  \"noise_guard\": {\"test\": \"min(moderated-t, welch)\", \"level\": ");
		json_num(out, o->guard_level);
		strbuf_addf(out, ", \"below_runs\": %zu},\n", o->guard_runs);
	}
	strbuf_addf(out, "  \"nstats\": %zu,\n  \"kpi_regressed\": %s,\n",
		    res->nstats, res->kpi_regressed ? "true" : "false");
	strbuf_addstr(out, "  \"compare_axes\": ");
	strbuf_add_json_str(out, res->compare_keys ? res->compare_keys : "");
	strbuf_addstr(out, ",\n  \"groups\": [\n");
	for (c = 0; c < res->ncols; c++) {
		const struct result_group *g = res->groups[c];

		strbuf_addstr(out, "    {\"label\": ");
		strbuf_add_json_str(out, res->labels[c]);
		strbuf_addstr(out, ", \"spec\": ");
		strbuf_add_json_str(out, g->spec ? g->spec : "");
		strbuf_addstr(out, ", \"dir\": ");
		if (g->dir)
			strbuf_add_json_str(out, g->dir);
		else
			strbuf_addstr(out, "null");
		strbuf_addf(out, ", \"runs\": %zu, \"axes\": {", g->matrix.nruns);
		for (k = 0; k < g->naxes; k++) {
			if (k)
				strbuf_addstr(out, ", ");
			strbuf_add_json_str(out, g->axes[k].key);
			strbuf_addstr(out, ": ");
			strbuf_add_json_str(out, g->axes[k].value);
		}
		strbuf_addf(out, "}}%s\n", c + 1 < res->ncols ? "," : "");
	}
	strbuf_addstr(out, "  ],\n  \"rows\": [");
	for (i = 0; i < res->nrows; i++) {
		const struct compare_row *row = &res->rows[i];

		strbuf_addstr(out, i ? ",\n    {\"stat\": " : "\n    {\"stat\": ");
		strbuf_add_json_str(out, row->name);
		strbuf_addf(out, ", \"kind\": \"%s\", \"kpi\": %s, \"direction\": \"%s\", \"changed\": %s,\n      \"base\": {\"present\": %s, \"runs\": %zu, \"missing_runs\": %zu, \"mean\": ",
			    row->is_function ? "failure" : "perf",
			    row->is_kpi ? "true" : "false",
			    direction_name(row->direction),
			    row->changed ? "true" : "false",
			    row->cells[0].present ? "true" : "false",
			    row->cells[0].nruns, row->cells[0].missing);
		json_num(out, row->cells[0].mean);
		strbuf_addstr(out, ", \"stddev\": ");
		json_num(out, row->cells[0].stddev < 0 ? NAN : row->cells[0].stddev);
		if (row->is_function)
			strbuf_addf(out, ", \"fails\": %.0f", row->cells[0].fails);
		strbuf_addstr(out, "},\n      \"columns\": [");
		for (c = 1; c < res->ncols; c++) {
			const struct compare_cell *cell = &row->cells[c];

			strbuf_addf(out, "%s{\"group\": %zu, \"present\": %s, \"runs\": %zu, \"missing_runs\": %zu, \"mean\": ",
				    c > 1 ? ", " : "", c,
				    cell->present ? "true" : "false", cell->nruns,
				    cell->missing);
			json_num(out, cell->mean);
			strbuf_addstr(out, ", \"stddev\": ");
			json_num(out, cell->stddev < 0 ? NAN : cell->stddev);
			if (row->is_function) {
				strbuf_addf(out, ", \"fails\": %.0f, \"reproduction_pct\": ",
					    cell->fails);
				json_num(out, cell->change);
			} else {
				strbuf_addstr(out, ", \"change_pct\": ");
				json_num(out, cell->change);
			}
			strbuf_addstr(out, ", \"ci95_pct\": [");
			json_num(out, cell->ci_lo);
			strbuf_addstr(out, ", ");
			json_num(out, cell->ci_hi);
			strbuf_addch(out, ']');
			json_field(out, "p_welch", cell->p_welch);
			json_field(out, "p_mwu", cell->p_mwu);
			json_field(out, "q", cell->q);
			json_field(out, "p_guard", cell->p_guard);
			strbuf_addf(out, ", \"verdict\": \"%s\", \"more_runs\": %u, \"lkp\": \"%s\", \"changed\": %s, \"effect\": \"%s\"",
				    stats_verdict_name(cell->verdict),
				    cell->more_runs, lkp_outcome_name(cell->lkp),
				    cell->changed ? "true" : "false",
				    compare_effect_name(cell->effect));
			json_kpi_verdict(out, cell);
			strbuf_addch(out, '}');
		}
		strbuf_addstr(out, "]}");
	}
	strbuf_addstr(out, res->nrows ? "\n  ],\n" : "],\n");
	json_undecided(res, out);
	strbuf_addstr(out, "}\n");
}

static void csv_str(struct strbuf *out, const char *s)
{
	strbuf_add_csv_str(out, s);
}

static void csv_num(struct strbuf *out, double v)
{
	strbuf_addch(out, ',');
	if (isfinite(v))
		strbuf_addf(out, "%.12g", v);
}

/* `,kpi_verdict,kpi_more_runs` (empty for a cell not judged) */
static void csv_kpi_verdict(struct strbuf *out, const struct compare_cell *cell)
{
	const char *v = compare_kpi_verdict_name(cell);

	if (v)
		strbuf_addf(out, ",%s,%u\n", v, cell->kpi_more_runs);
	else
		strbuf_addstr(out, ",,\n");
}

void compare_render_csv(const struct compare_result *res, struct strbuf *out)
{
	size_t c, i;

	strbuf_addstr(out, "stat,kind,kpi,direction,column,label,base_runs,base_mean,base_stddev,runs,mean,stddev,change_pct,ci95_lo,ci95_hi,p_welch,p_mwu,q,verdict,more_runs,lkp,changed,effect,base_missing_runs,missing_runs,kpi_verdict,kpi_more_runs\n");
	for (i = 0; i < res->nrows; i++) {
		const struct compare_row *row = &res->rows[i];
		const struct compare_cell *base = &row->cells[0];

		for (c = 1; c < res->ncols; c++) {
			const struct compare_cell *cell = &row->cells[c];

			csv_str(out, row->name);
			strbuf_addf(out, ",%s,%d,%s,%zu,",
				    row->is_function ? "failure" : "perf",
				    row->is_kpi, direction_name(row->direction), c);
			csv_str(out, res->labels[c]);
			strbuf_addf(out, ",%zu", base->nruns);
			csv_num(out, base->mean);
			csv_num(out, base->stddev < 0 ? NAN : base->stddev);
			strbuf_addf(out, ",%zu", cell->nruns);
			csv_num(out, cell->mean);
			csv_num(out, cell->stddev < 0 ? NAN : cell->stddev);
			csv_num(out, cell->change);
			csv_num(out, cell->ci_lo);
			csv_num(out, cell->ci_hi);
			csv_num(out, cell->p_welch);
			csv_num(out, cell->p_mwu);
			csv_num(out, cell->q);
			strbuf_addf(out, ",%s,%u,%s,%d,%s,%zu,%zu",
				    stats_verdict_name(cell->verdict),
				    cell->more_runs, lkp_outcome_name(cell->lkp),
				    cell->changed, compare_effect_name(cell->effect),
				    base->missing, cell->missing);
			csv_kpi_verdict(out, cell);
		}
	}
}
