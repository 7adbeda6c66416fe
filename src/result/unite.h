/*
 * unite.h: a result group's matrix.json from its runs' stats (LKP's
 * unite_to, spec/lkp-compare.md 1.5): one column per complete run, in run
 * order, stats_source naming each run's stats.json.
 *
 * The matrix is rebuilt from scratch (idempotent) rather than appended to:
 * a stat first seen in a later run is 0 in the earlier columns and a stat
 * missing from a later run is 0 there (LKP's writer pads in front and its
 * readers pad at the end: the same numbers), and marked missing in the
 * matrix's `present` (matrix.h).  Per-CPU sched_debug stats and stats that
 * are integer 0 in every run are dropped, as LKP drops them.
 */
#ifndef PERFSIFT_UNITE_H
#define PERFSIFT_UNITE_H

#include "util/compat.h"

struct matrix;
struct reduce_stats;
struct strbuf;

struct unite {
	struct reduce_stats *runs; /* one sorted stats list per column */
	char **sources;
	size_t n, alloc;
};

void unite_init(struct unite *u);
void unite_release(struct unite *u);
/*
 * Add one run's column: the unite takes over st's stats (st is left empty
 * and may be reused); source is the run's stats_source entry.
 */
void unite_add_run(struct unite *u, const char *source,
		   struct reduce_stats *st);
/* the united matrix (m is initialised here; caller releases it) */
void unite_to_matrix(const struct unite *u, struct matrix *m);

/*
 * The same from borrowed arrays, for loaders that hold the stats in their
 * own buffers (the store): one column per run, names sorted by strcmp.
 * Linear when every run has the same stats (the usual case).
 */
struct unite_column {
	const char *source;
	const char *const *names;
	const double *values;
	const unsigned char *is_int;
	size_t n;
};
void unite_columns(const struct unite_column *cols, size_t ncols,
		   struct matrix *m);

/*
 * avg.json and stddev.json beside matrix.json: each stat's arithmetic
 * mean and population standard deviation over the runs that have it
 * (LKP writes both, over every run, a missing value counting 0).
 */
void unite_avg_json(const struct matrix *m, struct strbuf *out);
void unite_stddev_json(const struct matrix *m, struct strbuf *out);

#endif
