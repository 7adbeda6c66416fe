/*
 * unite.c: a result group's matrix from its runs' stats (see unite.h).
 */
#include "util/compat.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "matrix.h"
#include "reduce.h"
#include "samples.h"
#include "unite.h"
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

void unite_add_run(struct unite *u, const char *source,
		   const struct reduce_stats *st)
{
	struct reduce_stats *copy;
	size_t i;

	if (u->n + 1 > u->alloc) {
		u->alloc = alloc_nr(u->alloc);
		u->runs = xreallocarray(u->runs, u->alloc, sizeof(*u->runs));
		u->sources = xreallocarray(u->sources, u->alloc,
					   sizeof(*u->sources));
	}
	copy = &u->runs[u->n];
	reduce_stats_init(copy);
	for (i = 0; i < st->n; i++)
		reduce_stats_add(copy, st->items[i].name, st->items[i].value,
				 st->items[i].is_int);
	reduce_stats_sort(copy);
	u->sources[u->n++] = xstrdup(source ? source : "");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* sched_debug.<...>.<digits>: per-CPU values LKP drops across runs */
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

void unite_to_matrix(const struct unite *u, struct matrix *m)
{
	const char **all = NULL;
	size_t nall = 0, alloc = 0, i, j, r, s, keep;

	matrix_init(m);
	for (r = 0; r < u->n; r++)
		for (i = 0; i < u->runs[r].n; i++) {
			ALLOC_GROW(all, nall + 1, alloc);
			all[nall++] = u->runs[r].items[i].name;
		}
	if (nall)
		qsort(all, nall, sizeof(*all), cmp_str);
	for (i = j = 0; i < nall; i++)
		if (!j || strcmp(all[j - 1], all[i]))
			all[j++] = all[i];
	nall = j;

	m->nruns = u->n;
	m->nstats = nall;
	m->names = xcalloc(nall ? nall : 1, sizeof(*m->names));
	m->values = xcalloc(st_mult(nall ? nall : 1, u->n ? u->n : 1),
			    sizeof(*m->values));
	m->is_int = xcalloc(nall ? nall : 1, 1);
	for (s = 0; s < nall; s++) {
		m->names[s] = xstrdup(all[s]);
		m->is_int[s] = 1;
	}
	for (r = 0; r < u->n; r++) {
		const struct reduce_stats *st = &u->runs[r];

		/* both lists are sorted: one merge pass per run */
		for (i = s = 0; i < st->n; i++) {
			while (strcmp(m->names[s], st->items[i].name))
				s++;
			m->values[s * u->n + r] = st->items[i].value;
			if (!st->items[i].is_int)
				m->is_int[s] = 0;
		}
	}
	/* LKP's drop rules, compacting in place */
	for (s = keep = 0; s < nall; s++) {
		bool zero = m->is_int[s];

		for (r = 0; zero && r < u->n; r++)
			if (m->values[s * u->n + r] != 0)
				zero = false;
		if (zero || is_per_cpu_sched_debug(m->names[s])) {
			free(m->names[s]);
			continue;
		}
		if (keep != s) {
			m->names[keep] = m->names[s];
			m->is_int[keep] = m->is_int[s];
			memmove(&m->values[keep * u->n], &m->values[s * u->n],
				u->n * sizeof(*m->values));
		}
		keep++;
	}
	m->nstats = keep;
	m->sources = xcalloc(u->n ? u->n : 1, sizeof(*m->sources));
	for (r = 0; r < u->n; r++)
		m->sources[r] = xstrdup(u->sources[r]);
	free(all);
}

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

		for (r = 0; r < m->nruns; r++)
			mean += matrix_at(m, s, r);
		mean /= (double)m->nruns;
		for (r = 0; r < m->nruns; r++) {
			double d = matrix_at(m, s, r) - mean;

			var += d * d;
		}
		strbuf_addstr(out, "  ");
		strbuf_add_json_str(out, m->names[s]);
		strbuf_addstr(out, ": ");
		/* population standard deviation, as LKP's statistics.rb */
		samples_add_number(out, stddev ? sqrt(var / (double)m->nruns)
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
