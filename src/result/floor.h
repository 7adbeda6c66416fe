/*
 * floor.h: a per-stat noise floor learned from an A/A calibration
 * (`perfsift calibrate JOB`): how far a stat moves between runs of the
 * same kernel on the same machine, in percent of its median, so that a
 * comparison can leave unflagged a change no larger than k times that
 * (compare/rules.h, stat_within_noise_floor()).  Pure computation and a
 * sorted table, no I/O: the store keeps it (store.h), select.h attaches
 * the floor of a group's series to the group.
 *
 * A floor belongs to a "series": the group directory without its last
 * component (the commit) -- testcase/path_params/tbox_group/rootfs/
 * kconfig/compiler, i.e. the job's identity on one machine, whatever
 * kernel it runs.
 */
#ifndef PERFSIFT_FLOOR_H
#define PERFSIFT_FLOOR_H

#include "util/compat.h"

struct strbuf;

struct noise_floor_stat {
	char *name;
	double pct; /* the floor, % of the stat's median (finite, >= 0) */
};

struct noise_floor {
	char *series;          /* testcase/.../compiler, relative to the root */
	char *machine;         /* the tbox_group the A/A ran on */
	char *commit;          /* the kernel the A/A ran */
	int64_t calibrated_at; /* seconds since the epoch */
	int runs;              /* runs a half (the A/A made 2 x runs) */
	struct noise_floor_stat *items; /* sorted by name once finished */
	size_t n, alloc;
};

void noise_floor_init(struct noise_floor *f);
void noise_floor_release(struct noise_floor *f);
/* append a stat (name copied); noise_floor_sort() before a lookup */
void noise_floor_add(struct noise_floor *f, const char *name, double pct);
void noise_floor_sort(struct noise_floor *f);
/* the stat's floor, or NAN when the calibration has none for it */
double noise_floor_find(const struct noise_floor *f, const char *name);

/*
 * The noise floor of one stat from its A/A values: a (the first half's
 * runs) and b (the second's, interleaved with a's), in % of the median
 * of all the values:
 *
 *   within  = 1.4826 x MAD, the median absolute deviation of each value
 *             from its own half's median (pooled over both halves): a
 *             run-to-run standard deviation that one outlier run cannot
 *             inflate (1.4826 makes it one for normal noise);
 *   between = |median(a) - median(b)|: the drift between the halves,
 *             which the interleaving spreads over both but a machine
 *             whose state wanders still shows;
 *   floor   = max(within, between).
 *
 * NAN when it cannot be said: fewer than 2 values on a side, or a
 * median of 0 (no relative floor; such a stat is judged as before).
 * scratch holds na + nb doubles.
 */
double noise_floor_of(const double *a, size_t na, const double *b, size_t nb,
		      double *scratch);

/* "2026-12-01 14:59 UTC" of a floor's calibrated_at, appended to out */
void noise_floor_date(int64_t when, struct strbuf *out);

/*
 * The series of group directory `group_dir` below result root `root`
 * (both absolute or both as given): "" appended to out, and -1, when
 * the group is not below the root or has fewer than two components.
 */
int noise_floor_series(const char *root, const char *group_dir,
		       struct strbuf *out);

#endif
