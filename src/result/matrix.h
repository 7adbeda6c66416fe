/*
 * matrix.h: a result group's per-run values, as LKP's matrix.json holds
 * them: {"stat": [run0, run1, ...], ..., "stats_source": [...]}.
 *
 * Stats are kept sorted by name (matrix_find is a binary search); values
 * are stored stat-major, values[s * nruns + r].  Arrays shorter than the
 * run count are padded with 0 on load, as LKP's loaders do.
 *
 * A missing value is missing, not zero: LKP's matrix.json pads a stat
 * that some runs lack with 0, so `present` says which values are real.
 * The file keeps LKP's padding (LKP reads it); perfsift writes the truth
 * beside it in matrix-missing.json (the sidecar), and the index knows it
 * from the runs' own stats.  Without a sidecar, the reader assumes what
 * LKP's writer does (matrix_assume_lkp_padding).
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
	/* NULL: every value is real; else nstats * nruns flags, 0 where the
	 * run lacks the stat (its value is then 0, LKP's padding) */
	unsigned char *present;
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
static inline bool matrix_has(const struct matrix *m, size_t s, size_t r)
{
	return !m->present || m->present[s * m->nruns + r];
}
/* the runs that have stat s */
size_t matrix_nreal(const struct matrix *m, size_t s);
/*
 * Stat s's real values: its row when every run has it, else those values
 * copied into buf (room for nruns).  *n = how many.
 */
const double *matrix_real(const struct matrix *m, size_t s, double *buf,
			  size_t *n);
/* the same, into a new array the caller frees (NULL when none) */
double *matrix_real_dup(const struct matrix *m, size_t s, size_t *n);
/*
 * A new matrix of m's runs cols[0..ncols) in that order (a column m does
 * not have is left out): every stat, its values and which runs have it;
 * no sources.  The runs a judgement made beside the other side (the
 * robot's), or those after a bisect's earlier ones.
 */
void matrix_columns(const struct matrix *m, const size_t *cols, size_t ncols,
		    struct matrix *out);
/*
 * A new matrix of a's runs followed by b's, every stat of either (a stat
 * one side lacks is missing in that side's runs); no sources.  The runs
 * of several commits pooled: the robot's mail, good runs against bad.
 */
void matrix_concat(const struct matrix *a, const struct matrix *b,
		   struct matrix *out);
/* m's runs from `from` on (none when from >= nruns), into out */
void matrix_columns_from(const struct matrix *m, size_t from,
			 struct matrix *out);
/* run r lacks stat s (its value becomes 0) */
void matrix_set_missing(struct matrix *m, size_t s, size_t r);
/*
 * No sidecar: what LKP's writer does is all there is to go on.  LKP
 * appends a run's stats, padding a stat first seen in a later run with 0
 * in front, and never pads at the end (the reader marks those values
 * missing already).  So the leading zeros of a stat, before its first
 * non-zero value, are taken as missing; any other 0 is real.
 */
void matrix_assume_lkp_padding(struct matrix *m);

#define MATRIX_MISSING_FILE "matrix-missing.json"
/*
 * The sidecar: {"schema": "perfsift-matrix-missing/1", "stats_source":
 * [...], "missing": {"stat": [run, ...], ...}}, appended to out.
 */
void matrix_missing_to_json(const struct matrix *m, struct strbuf *out);
/*
 * Mark what the sidecar at path says is missing.  1 when used; 0 when
 * there is none or it does not belong to this matrix.json (another
 * stats_source, or a value it calls missing that is not 0: the matrix
 * was rewritten by another tool), and m is left alone; -1 with err
 * "FILE:LINE: what" when it is not a sidecar.
 */
int matrix_load_missing(struct matrix *m, const char *path,
			struct strbuf *err);
/*
 * A group directory's matrix.json with what is missing in it: the
 * sidecar's, else LKP's padding assumed (above).
 */
int matrix_load_group(struct matrix *m, const char *group_dir,
		      struct strbuf *err);

/* index of stat `name`, or -1 */
ssize_t matrix_find(const struct matrix *m, const char *name);
/* names[] order for util/sorted.h: key a name, elem a pointer into names */
int matrix_cmp_name(const void *key, const void *elem);
/*
 * Read an LKP matrix.json; -1 with err "FILE:LINE: what".  Keys in any
 * order (sorted here; a duplicate key: the last one wins), arrays padded
 * (or cut) to the run count.  null and the padding of a short array are
 * missing values (0 in values, 0 in present).
 */
int matrix_load_json(struct matrix *m, const char *path, struct strbuf *err);
/* the same from memory; name stands in for the file in errors */
int matrix_parse_json(struct matrix *m, const char *text, size_t len,
		      const char *name, struct strbuf *err);
/* LKP's shape, stats sorted, missing values as 0, appended to out */
void matrix_to_json(const struct matrix *m, struct strbuf *out);

#endif
