/*
 * input.h: the samples `perfsift plot` draws: one stat's per-run
 * values on both sides of a comparison, or one run's per-sample values
 * of a monitor stat (<monitor>.json: {"<monitor>.<key>": [v0, v1, ...]}).
 */
#ifndef PERFSIFT_PLOT_INPUT_H
#define PERFSIFT_PLOT_INPUT_H

#include "util/compat.h"
#include "select/select.h"

struct strbuf;

struct plot_sides {
	struct result_group base, head;
	double *good, *bad; /* STAT's values per run (base, head) */
	size_t ngood, nbad;
};

/*
 * Resolve BASE and HEAD as compare does (select.h) and
 * take STAT's per-run values from each; a side lacking the stat gives no
 * samples, a stat on neither side is an error.  -1 with err.
 */
int plot_sides_load(struct plot_sides *s, const char *root,
		    const char *store_url, const char *base, const char *head,
		    const char *stat, struct strbuf *err);
void plot_sides_release(struct plot_sides *s);

/*
 * STAT's per-sample array in run directory dir: dir/<monitor>.json where
 * <monitor> is the text before the first '.', else any other per-sample
 * JSON file holding the key.  null entries become NaN (a gap).  *v is
 * malloc'd.  -1 with err.
 */
int plot_load_run_series(const char *dir, const char *stat, double **v,
			 size_t *n, struct strbuf *err);

#endif
