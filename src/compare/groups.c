/*
 * groups.c: result groups compared stat by stat (compare.h).  The union
 * of the groups' stats is walked once: LKP's display numbers and change
 * test for every stat, perfsift's statistics when asked for; then the
 * rows are judged (judge.c), filtered, put in LKP's order, and rendered
 * by text.c (the table, CSV) and json.c.
 *
 * compare_groups() is four phases over one struct walk (internal.h):
 * the union walk, the noise guard, the q-values and the selection.
 */
#include "util/compat.h"
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/internal.h"
#include "job/kpi.h"
#include "result/matrix.h"
#include "select/select.h"
#include "util/sorted.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

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
	o->floor_k = 2;
	o->kpi_level = 0.001;
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

/* does every other group have key = value?  (then it is no column) */
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

/*
 * The table's header and column labels, as LKP's: what the groups share
 * goes above the table once, what tells them apart labels the columns.
 */
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

/*
 * The smallest next name over all groups, or NULL at the end; idx[c]
 * gets its index in group c (-1 where group c lacks it).  A k-way merge
 * of sorted names: every stat once, in order, without a hash table.
 */
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

/* does m hold any stat starting with prefix? */
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

/*
 * Stat idx of group c: the values of the runs that have it (*n of them;
 * none when the group lacks the stat).  `padded` (failure stats): every
 * run, 0 where the stat is absent -- "did not happen" is a real 0 there.
 */
const double *walk_side(const struct walk *w, size_t c, ssize_t idx,
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

/* row i's values in column c (*a) and in the base's column 0 (*b) */
void walk_cell_sides(const struct walk *w, size_t i, size_t c, bool padded,
		     const double **a, size_t *na, const double **b, size_t *nb)
{
	*a = walk_side(w, c, w->row_idx[i * w->n + c], padded, na);
	*b = walk_side(w, 0, w->row_idx[i * w->n], padded, nb);
}

/*
 * The start times of the runs of group c that have stat idx, in
 * walk_side()'s order (NAN where a run's time is unknown); *n of them.
 */
static void side_starts(const struct walk *w, size_t c, ssize_t idx,
			double *t, size_t *n)
{
	const struct result_group *g = w->g[c];
	const struct matrix *m = &g->matrix;
	size_t r;

	*n = 0;
	if (idx < 0)
		return;
	for (r = 0; r < m->nruns; r++)
		if (matrix_has(m, (size_t)idx, r))
			t[(*n)++] = g->run_start ? g->run_start[r] : NAN;
}

size_t walk_cell_pairs(const struct walk *w, size_t i, size_t c, size_t *pa,
		       size_t *pb)
{
	size_t na, nb;

	if (!w->g[c]->run_start || !w->g[0]->run_start)
		return 0;
	side_starts(w, c, w->row_idx[i * w->n + c], w->ta, &na);
	side_starts(w, 0, w->row_idx[i * w->n], w->tb, &nb);
	return stats_pair_runs(w->ta, na, w->tb, nb, 0, pa, pb);
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

/*
 * A kept row's display numbers for one group; the tests' fields start as
 * NaN ("not computed"), which the JSON writes as null and the CSV as an
 * empty field, so that an untested cell never looks like p = 0.
 */
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
	cell->kpi_lo = cell->kpi_hi = cell->kpi_min_effect = NAN;
	cell->floor_pct = NAN;
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

/* better or worse, from the stat's direction: no direction, no effect */
static enum compare_effect effect_of(int direction, double change)
{
	if (!direction || isnan(change))
		return EFFECT_UNDEFINED;
	return (double)direction * change < 0 ? EFFECT_REGRESSION
					      : EFFECT_IMPROVEMENT;
}
/* --stat REGEX and --kpi narrow the rows shown, never the q-values */
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

/*
 * Rows in LKP's order (Compare.sort_stats): failure stats first, then
 * the KPIs, then the benchmark's own stats, then the monitors' stats, a
 * monitor with fewer rows before one with more; equal scores by name.
 * row_union moves with the rows.
 */
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


/* ---- compare_groups: setup, four phases, release ---- */

/*
 * The walk's state: the rules with the groups' benchmarks and declared
 * KPIs, the floors' runtime, LKP's options and the buffers sized for the
 * largest group.  -1 with err for a --stat that is not a regex (nothing
 * allocated then).
 */
static int walk_init(struct walk *w, const struct result_group *const *groups,
		     size_t ngroups, const struct compare_options *o,
		     struct strbuf *err)
{
	size_t c, maxruns = 0;

	memset(w, 0, sizeof(*w));
	w->o = o;
	w->g = groups;
	w->n = ngroups;
	w->need_stats = o->method == COMPARE_STATS || !o->no_statistics;
	if (o->stat_regex) {
		int rc = regcomp(&w->stat_re, o->stat_regex,
				 REG_EXTENDED | REG_NOSUB);

		if (rc) {
			char msg[256];

			regerror(rc, &w->stat_re, msg, sizeof(msg));
			strbuf_addf(err, "--stat '%s': %s", o->stat_regex, msg);
			return -1;
		}
		w->have_stat_re = true;
	}
	stat_rules_init(&w->rules);
	for (c = 0; c < ngroups; c++) {
		stat_rules_add_benchmark(&w->rules,
					 result_group_axis(groups[c], "testcase"));
		if (groups[c]->matrix.nruns > maxruns)
			maxruns = groups[c]->matrix.nruns;
	}
	/* declared KPIs: the head's first, then the base's */
	for (c = ngroups; c-- > 0;)
		if (groups[c]->kpi)
			kpi_declare(&w->rules, groups[c]->kpi);
	stat_rules_set_runtime(&w->rules, group_runtime(groups[0]));
	lkp_options_init(&w->lkp);
	w->lkp.more = o->more;
	w->lkp.force = o->force;
	w->lkp.base = &groups[0]->matrix;
	/* LKP's "newly added monitor" rule asks whether the base ran it */
	w->lkp.base_has_perf_profile =
		has_prefix_stat(&groups[0]->matrix, "perf-profile.");
	w->lkp.base_has_lock_stat =
		has_prefix_stat(&groups[0]->matrix, "lock_stat.");
	stats_scratch_init(&w->scratch);
	/* the values of an absent stat (zeros) and of a row some runs lack */
	w->zeros = xcalloc(maxruns ? maxruns : 1, sizeof(double));
	/* a KPI cell's start times and pairs (walk_cell_pairs) */
	w->ta = xcalloc(maxruns ? maxruns : 1, sizeof(double));
	w->tb = xcalloc(maxruns ? maxruns : 1, sizeof(double));
	w->pair_a = xcalloc(maxruns ? maxruns : 1, sizeof(size_t));
	w->pair_b = xcalloc(maxruns ? maxruns : 1, sizeof(size_t));
	w->buf = xcalloc(ngroups, sizeof(*w->buf));
	for (c = 0; c < ngroups; c++)
		w->buf[c] = xcalloc(groups[c]->matrix.nruns ?
				    groups[c]->matrix.nruns : 1, sizeof(double));
	return 0;
}

static void walk_release(struct walk *w)
{
	size_t c;

	free(w->zeros);
	free(w->ta);
	free(w->tb);
	free(w->pair_a);
	free(w->pair_b);
	for (c = 0; c < w->n; c++)
		free(w->buf[c]);
	free(w->buf);
	free(w->p_all);
	free(w->row_union);
	free(w->row_idx);
	free(w->prior);
	stats_scratch_release(&w->scratch);
	stat_rules_release(&w->rules);
	if (w->have_stat_re)
		regfree(&w->stat_re);
}

/*
 * LKP's test of one stat in every column against the base, with what
 * the later phases need of every stat (kept or not): its variance for
 * the guard's prior, its Welch p for the q-values.  Returns whether LKP
 * mode keeps the row; *is_func gets the stat's class.
 */
static bool walk_columns(struct walk *w, const char *name, const ssize_t *idx,
			 bool padded, struct compare_row *row, bool *is_func)
{
	size_t c, nb, ngroups = w->n;
	const double *b = walk_side(w, 0, idx[0], padded, &nb);
	bool keep = false;

	if (w->need_stats)
		ALLOC_GROW(w->p_all, (w->nunion + 1) * (ngroups - 1),
			   w->alloc_p_all);
	for (c = 1; c < ngroups; c++) {
		size_t na;
		const double *a = walk_side(w, c, idx[c], padded, &na);
		enum lkp_outcome out;
		struct lkp_record rec;

		out = lkp_changed(&w->rules, name, a, na, b, nb, idx[0] >= 0,
				  &w->lkp, &rec);
		*is_func = rec.is_function;
		if (guard_on(w, c) && !*is_func && idx[0] >= 0 && idx[c] >= 0)
			stats_noise_prior_add(&w->prior[c],
					      stats_rel_var(a, na, b, nb));
		if (w->need_stats)
			w->p_all[w->nunion * (ngroups - 1) + c - 1] =
				stats_welch_p(a, na, b, nb);
		if (!row->cells)
			row->cells = xcalloc(ngroups, sizeof(*row->cells));
		row->cells[c].lkp = out;
		/* a failure stat is LKP's in every method: stats mode has
		 * no test of "did it happen" */
		if (out == LKP_CHANGED &&
		    (w->o->method == COMPARE_LKP || *is_func)) {
			row->cells[c].changed = true;
			keep = true;
		}
	}
	return keep;
}

/* keep the row of the stat: its display numbers and where it came from */
static void walk_keep(struct walk *w, struct compare_result *res,
		      struct compare_row *row, const char *name,
		      const ssize_t *idx, bool is_func)
{
	size_t c, ngroups = w->n;

	ALLOC_GROW(res->rows, res->nrows + 1, res->alloc_rows);
	ALLOC_GROW(w->row_union, res->nrows + 1, w->alloc_row_union);
	row->name = xstrdup(name);
	row->is_function = is_func;
	row->is_kpi = stat_is_kpi(&w->rules, name);
	/* direction: in the selection, for the rows shown only */
	for (c = 0; c < ngroups; c++) {
		size_t n;
		const double *v = walk_side(w, c, idx[c], is_func, &n);

		cell_numbers(&row->cells[c], v, n, w->g[c]->matrix.nruns,
			     idx[c] >= 0, is_func);
	}
	w->row_union[res->nrows] = w->nunion;
	ALLOC_GROW(w->row_idx, (res->nrows + 1) * ngroups, w->alloc_row_idx);
	memcpy(w->row_idx + res->nrows * ngroups, idx, ngroups * sizeof(*idx));
	res->rows[res->nrows++] = *row;
}

/* one stat of the union: test it, keep its row or drop it */
static void walk_stat(struct walk *w, struct compare_result *res,
		      const char *name, const ssize_t *idx)
{
	const struct compare_options *o = w->o;
	struct compare_row row;
	bool keep, is_func = false, padded = false;

	/*
	 * Some runs lack the stat: a perf stat is compared over the runs
	 * that have it, a failure stat over every run (absent = did not
	 * happen).  Only such rows pay for the classification.
	 */
	if (!row_complete(w, idx))
		padded = stat_is_function(&w->rules, name);
	memset(&row, 0, sizeof(row));
	keep = walk_columns(w, name, idx, padded, &row, &is_func);
	/* every KPI is judged (kpi_judge), shown or not */
	if (!is_func && (kpi_judging(o) || o->kpi || o->kpi_rows) &&
	    stat_is_kpi(&w->rules, name))
		keep = true;
	/* stats mode decides after the q-values: keep candidates */
	if (o->method == COMPARE_STATS && !is_func)
		keep = true;
	if ((keep || o->all) && name_wanted(w, name))
		walk_keep(w, res, &row, name, idx, is_func);
	else
		free(row.cells);
	w->nunion++;
}

/*
 * Phase 1: the union of the groups' stats, in name order (each matrix
 * is sorted, so one merge pass: no hash of 50,000 names).
 */
static void walk_union(struct walk *w, struct compare_result *res)
{
	struct union_cursor u;
	ssize_t *idx = xcalloc(w->n, sizeof(*idx));
	const char *name;

	u.g = w->g;
	u.n = w->n;
	u.pos = xcalloc(w->n, sizeof(*u.pos));
	while ((name = union_next(&u, idx)))
		walk_stat(w, res, name, idx);
	res->nstats = w->nunion;
	free(idx);
	free(u.pos);
}

/*
 * Phase 4: a row is changed when any column is; unchanged rows go
 * unless --all or a KPI shown anyway; the rows left get their
 * direction, display change and effect, and decide the exit status.
 */
static void walk_select(struct walk *w, struct compare_result *res)
{
	const struct compare_options *o = w->o;
	size_t kept = 0, i, c, ngroups = w->n;

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
		/* hundreds of LKP patterns: only for the rows shown (stats
		 * mode holds every stat until here) */
		row->direction = stat_direction(&w->rules, row->name);
		for (c = 1; c < ngroups; c++) {
			struct compare_cell *cell = &row->cells[c];

			cell_change(cell, &row->cells[0], row->is_function);
			cell->effect = effect_of(row->direction, cell->change);
			if (row->is_kpi && cell->effect == EFFECT_REGRESSION &&
			    (cell->kpi_judged ?
				     cell->kpi_verdict == VERDICT_CHANGED :
				     cell->changed))
				res->kpi_regressed = true;
			if (cell_undecided(cell))
				res->nundecided++;
		}
		w->row_union[kept] = w->row_union[i];
		res->rows[kept++] = *row;
	}
	res->nrows = kept;
}

int compare_groups(const struct result_group *const *groups, size_t ngroups,
		   const struct compare_options *o, struct compare_result *res,
		   struct strbuf *err)
{
	struct walk w;

	compare_result_init(res);
	if (ngroups < 2) {
		strbuf_addstr(err, "compare needs a base and at least one more group");
		return -1;
	}
	res->ncols = ngroups;
	res->groups = groups;
	res->method = o->method;
	if (walk_init(&w, groups, ngroups, o, err))
		return -1;
	res->guard_level = o->lkp_exact ? 0 : o->guard_level;
	build_header(res, groups, ngroups);
	guard_init(&w);

	walk_union(&w, res);
	guard_apply(&w, res);
	if (!o->lkp_exact)
		noise_rules_apply(&w, res);
	walk_qvalues(&w, res);
	/* after either method's selection: the floor can only unflag */
	floor_apply(&w, res);
	/* after the method's selection, which decides "changed" */
	if (kpi_judging(o))
		kpi_judge(&w, res);
	walk_select(&w, res);
	lkp_order(res, &w.rules, w.row_union);
	walk_release(&w);
	return 0;
}
