/*
 * unite.c: a result group's matrix from its runs' stats (see unite.h).
 *
 * LKP's matrix.json is a table: one row per stat, one column per run, in
 * the runs' order.  Uniting is a merge of sorted name lists, so the runs
 * are kept sorted by name (reduce and the loaders already give them so;
 * unite_add_run checks rather than sorts every time), and a group whose
 * runs all have the same stats -- the usual case -- takes the first run's
 * names as they are and needs no presence bitmap at all.
 */
#include "util/compat.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "result/matrix.h"
#include "result/reduce.h"
#include "result/samples.h"
#include "result/unite.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

void unite_init(struct unite *u)
{
	memset(u, 0, sizeof(*u));
}

void unite_release(struct unite *u)
{
	size_t i;

	for (i = 0; i < u->n; i++) {
		reduce_stats_release(&u->runs[i]);
		free(u->sources[i]);
	}
	free(u->runs);
	free(u->sources);
	unite_init(u);
}

/*
 * sched_debug.<...>.<digits>: per-CPU values, which LKP drops across
 * runs: the CPU numbers differ between boxes, and a thousand per-CPU
 * rows would drown the comparison.
 */
static bool is_per_cpu_sched_debug(const char *name)
{
	const char *dot = strrchr(name, '.');

	if (strncmp(name, "sched_debug.", 12) || !dot || !dot[1])
		return false;
	for (dot++; *dot; dot++)
		if (*dot < '0' || *dot > '9')
			return false;
	return true;
}

/*
 * st is taken over, not copied (it is left empty), so a group of many
 * runs is united without a second copy of every run's stats.
 */
void unite_add_run(struct unite *u, const char *source,
		   struct reduce_stats *st)
{
	size_t i;

	if (u->n + 1 > u->alloc) {
		u->alloc = alloc_nr(u->alloc);
		u->runs = xreallocarray(u->runs, u->alloc, sizeof(*u->runs));
		u->sources = xreallocarray(u->sources, u->alloc,
					   sizeof(*u->sources));
	}
	u->runs[u->n] = *st;
	reduce_stats_init(st);
	/* sorted already when it came from reduce or a loader: check first */
	for (i = 1; i < u->runs[u->n].n; i++)
		if (strcmp(u->runs[u->n].items[i - 1].name,
			   u->runs[u->n].items[i].name) >= 0) {
			reduce_stats_sort(&u->runs[u->n]);
			break;
		}
	u->sources[u->n++] = xstrdup(source ? source : "");
}

/* sorted union of two sorted name lists, into a new array */
static const char **merge_names(const char *const *a, size_t na,
				const char *const *b, size_t nb, size_t *n)
{
	const char **out = xcalloc(st_add(na, nb) ? na + nb : 1, sizeof(*out));
	size_t i = 0, j = 0, k = 0;

	while (i < na || j < nb) {
		/* cppcheck-suppress nullPointer ; b is NULL only with nb == 0,
		 * and then j == nb stops before b[j] */
		int c = i == na ? 1 : j == nb ? -1 : strcmp(a[i], b[j]);

		if (c <= 0)
			out[k++] = a[i++];
		else
			out[k++] = b[j++];
		if (!c)
			j++;
	}
	*n = k;
	return out;
}

/* pointer equality first: the columns of a store's group share names */
static bool same_names(const struct unite_column *a,
		       const struct unite_column *b)
{
	size_t i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (a->names[i] != b->names[i] && strcmp(a->names[i], b->names[i]))
			return false;
	return true;
}

/*
 * The matrix of the columns, with LKP's two drop rules applied after the
 * union: a stat whose every value is an integer 0 is not a row (LKP
 * drops them: an all-zero counter says nothing and there are thousands
 * of them in /proc), and per-CPU sched_debug rows are not either.  A
 * stat a run lacks is marked missing in `present` rather than read as 0,
 * so the statistics can tell "no value" from "zero" (matrix.h), though
 * matrix.json still pads it with 0 as LKP does.
 */
void unite_columns(const struct unite_column *cols, size_t ncols,
		   struct matrix *m)
{
	const char **all = NULL;
	const char *const *names;
	size_t nall = 0, i, r, s, keep;
	bool same = true;

	matrix_init(m);
	for (r = 1; r < ncols && same; r++)
		same = same_names(&cols[0], &cols[r]);
	if (!ncols) {
		names = NULL;
	} else if (same) {
		names = cols[0].names;
		nall = cols[0].n;
	} else {
		all = merge_names(cols[0].names, cols[0].n, NULL, 0, &nall);
		for (r = 1; r < ncols; r++) {
			const char **next = merge_names(all, nall, cols[r].names,
							cols[r].n, &nall);

			free(all);
			all = next;
		}
		names = all;
	}

	m->nruns = ncols;
	m->nstats = nall;
	m->names = xcalloc(nall ? nall : 1, sizeof(*m->names));
	m->values = xcalloc(st_mult(nall ? nall : 1, ncols ? ncols : 1),
			    sizeof(*m->values));
	m->is_int = xcalloc(nall ? nall : 1, 1);
	memset(m->is_int, 1, nall);
	/* a run without a stat: missing there (0 in the file, LKP's padding) */
	if (!same) {
		m->present = xcalloc(st_mult(nall ? nall : 1, ncols ? ncols : 1), 1);
	}
	for (r = 0; r < ncols; r++) {
		const struct unite_column *c = &cols[r];

		/* both lists are sorted: one merge pass per run */
		for (i = s = 0; i < c->n; i++) {
			if (!same)
				while (strcmp(names[s], c->names[i]))
					s++;
			else
				s = i;
			m->values[s * ncols + r] = c->values[i];
			if (m->present)
				m->present[s * ncols + r] = 1;
			if (!c->is_int[i])
				m->is_int[s] = 0;
		}
	}
	/* LKP's drop rules, compacting in place */
	for (s = keep = 0; s < nall; s++) {
		bool zero = m->is_int[s];

		for (r = 0; zero && r < ncols; r++)
			if (m->values[s * ncols + r] != 0)
				zero = false;
		if (zero || is_per_cpu_sched_debug(names[s]))
			continue;
		m->names[keep] = xstrdup(names[s]);
		m->is_int[keep] = m->is_int[s];
		if (keep != s) {
			memmove(&m->values[keep * ncols], &m->values[s * ncols],
				ncols * sizeof(*m->values));
			if (m->present)
				memmove(&m->present[keep * ncols],
					&m->present[s * ncols], ncols);
		}
		keep++;
	}
	m->nstats = keep;
	if (m->present && !memchr(m->present, 0, keep * ncols))
		FREE_AND_NULL(m->present); /* every run has every stat left */
	m->sources = xcalloc(ncols ? ncols : 1, sizeof(*m->sources));
	for (r = 0; r < ncols; r++)
		m->sources[r] = xstrdup(cols[r].source ? cols[r].source : "");
	free(all);
}

/*
 * The runs as columns over three flat arrays: one allocation each rather
 * than one per run, and the names are borrowed from the runs.
 */
void unite_to_matrix(const struct unite *u, struct matrix *m)
{
	struct unite_column *cols = xcalloc(u->n ? u->n : 1, sizeof(*cols));
	const char **names;
	double *values;
	unsigned char *is_int;
	size_t total = 0, r, i, k = 0;

	for (r = 0; r < u->n; r++)
		total += u->runs[r].n;
	names = xcalloc(total ? total : 1, sizeof(*names));
	values = xcalloc(total ? total : 1, sizeof(*values));
	is_int = xcalloc(total ? total : 1, 1);
	for (r = 0; r < u->n; r++) {
		cols[r].source = u->sources[r];
		cols[r].names = names + k;
		cols[r].values = values + k;
		cols[r].is_int = is_int + k;
		cols[r].n = u->runs[r].n;
		for (i = 0; i < u->runs[r].n; i++, k++) {
			names[k] = u->runs[r].items[i].name;
			values[k] = u->runs[r].items[i].value;
			is_int[k] = u->runs[r].items[i].is_int;
		}
	}
	unite_columns(cols, u->n, m);
	free(cols);
	free(names);
	free(values);
	free(is_int);
}

/*
 * avg.json or stddev.json: LKP writes both beside matrix.json, and tools
 * that read LKP result roots read them rather than the matrix.
 */
static void per_stat_json(const struct matrix *m, struct strbuf *out,
			  bool stddev)
{
	size_t s, r;

	if (!m->nstats || !m->nruns) {
		strbuf_addstr(out, "{}");
		return;
	}
	strbuf_addstr(out, "{\n");
	for (s = 0; s < m->nstats; s++) {
		double mean = 0, var = 0;
		size_t n = 0;

		/* over the runs that have the stat (LKP: padded with 0) */
		for (r = 0; r < m->nruns; r++)
			if (matrix_has(m, s, r)) {
				mean += matrix_at(m, s, r);
				n++;
			}
		mean /= (double)(n ? n : 1);
		for (r = 0; r < m->nruns; r++) {
			double d = matrix_at(m, s, r) - mean;

			if (matrix_has(m, s, r))
				var += d * d;
		}
		strbuf_addstr(out, "  ");
		strbuf_add_json_str(out, m->names[s]);
		strbuf_addstr(out, ": ");
		/* population standard deviation, as LKP's statistics.rb */
		samples_add_number(out, stddev ? sqrt(var / (double)(n ? n : 1))
					       : mean, false);
		strbuf_addstr(out, s + 1 < m->nstats ? ",\n" : "\n");
	}
	strbuf_addstr(out, "}");
}

void unite_avg_json(const struct matrix *m, struct strbuf *out)
{
	per_stat_json(m, out, false);
}

void unite_stddev_json(const struct matrix *m, struct strbuf *out)
{
	per_stat_json(m, out, true);
}
