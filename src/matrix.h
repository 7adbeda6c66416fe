/*
 * matrix.h: a result group's per-run values, as LKP's matrix.json holds
 * them: {"stat": [run0, run1, ...], ..., "stats_source": [...]}.
 *
 * Stats are kept sorted by name (matrix_find is a binary search); values
 * are stored stat-major, values[s * nruns + r].  Arrays shorter than the
 * run count are padded with 0 on load, as LKP's loaders do.
 *
 * Owned by the compare module; the store, plot and report use it.
 */
#ifndef PERFSIFT_MATRIX_H
#define PERFSIFT_MATRIX_H

#include "util/compat.h"
#include <sys/types.h>

struct strbuf;

struct matrix {
	size_t nstats;
	size_t nruns;
	char **names;     /* nstats names, sorted (strcmp) */
	double *values;   /* nstats * nruns */
	unsigned char *is_int; /* nstats flags: every value was an integer */
	char **sources;   /* nruns stats_source entries, or NULL */
	/* when set (the JSON reader), every name points into this one block:
	 * names are not freed one by one -- a matrix that builds its own
	 * names leaves it NULL */
	char *names_pool;
};

void matrix_init(struct matrix *m);
void matrix_release(struct matrix *m);
static inline double matrix_at(const struct matrix *m, size_t s, size_t r)
{
	return m->values[s * m->nruns + r];
}
/* index of stat `name`, or -1 */
ssize_t matrix_find(const struct matrix *m, const char *name);
/*
 * Read an LKP matrix.json; -1 with err "FILE:LINE: what".  Keys in any
 * order (sorted here; a duplicate key: the last one wins), null as 0,
 * arrays padded with 0 (or cut) to the run count.
 */
int matrix_load_json(struct matrix *m, const char *path, struct strbuf *err);
/* the same from memory; name stands in for the file in errors */
int matrix_parse_json(struct matrix *m, const char *text, size_t len,
		      const char *name, struct strbuf *err);
/* LKP's shape, stats sorted, appended to out */
void matrix_to_json(const struct matrix *m, struct strbuf *out);

#endif
