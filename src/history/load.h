/*
 * load.h: the series `perfsift history` and `perfsift site` look
 * at, read from the index in one pass (store_stat_values) or from a CSV
 * file in Otava's layout.
 *
 * A series is one stat of one group of results -- every axis but the
 * commit (<testcase>/<path_params>/<tbox_group>/<rootfs>/<kconfig>/
 * <compiler>) -- over its commits, in the order of the repository's
 * first-parent history (--repo) or else of the time the runs were
 * indexed, each commit with the values of all its complete runs.
 */
#ifndef PERFSIFT_HISTORY_LOAD_H
#define PERFSIFT_HISTORY_LOAD_H

#include "util/compat.h"
#include <stdio.h>
#include "store/store.h"

struct strbuf;
struct history_point;
struct stat_rules;

struct history_commit {
	const char *commit;  /* borrowed from the set */
	const char *dir;     /* the group directory below the root, or NULL */
	int64_t group_id;    /* -1 for a CSV row */
	int64_t time;        /* the earliest run's index time, or the order */
	double *v;           /* the runs' values */
	int *runs;           /* their run numbers */
	size_t n, alloc;
};

/* a result group as the loader keeps it (strings owned by the set) */
struct history_group {
	int64_t id;
	const char *dir;      /* below the root */
	const char *testcase;
	const char *commit;
};

struct history_series {
	const char *key;      /* the group's directory without the commit
			       * (relative to the root), or the CSV file */
	const char *testcase; /* NULL for CSV */
	const char *stat;
	int direction;        /* history_direction() */
	bool is_kpi;
	struct history_commit *commits; /* in order */
	size_t n;
};

struct history_set {
	struct history_series *items; /* by key, then stat */
	size_t n, alloc;
	size_t off_path;     /* commits left out: not on the first-parent line */
	char *root;          /* the result root (absolute), or NULL */
	/* what the series borrow */
	struct history_group *groups;
	size_t ngroups, alloc_groups;
	struct store_name_list names;
	char **strings;
	size_t nstrings, alloc_strings;
};
void history_set_init(struct history_set *s);
void history_set_release(struct history_set *s);

/* the points of a series for history_detect() (caller frees) */
struct history_point *history_points(const struct history_series *s);

struct history_query {
	const char *const *selectors; /* every one must match (AND) */
	size_t nselectors;
	const char *stat;  /* NULL: every KPI of each group */
	const char *repo;  /* order by its first-parent history of HEAD */
};

/* the series of the groups selected; 0, or -1 with err */
int history_load_store(struct store *st, const struct history_query *q,
		       struct history_set *out, struct strbuf *err);

/* what a CSV may hold (one clear error past it): a line, the file, its lines */
#define HISTORY_CSV_MAX_LINE (1 << 20)
#define HISTORY_CSV_MAX_BYTES (512 << 20)
#define HISTORY_CSV_MAX_ROWS 5000000

/*
 * A CSV file: a header line, the first column a commit or a time, the
 * others metrics; rows with the same first column in a row are runs of
 * one commit.  stat NULL: every column.  -1 with err "FILE:LINE: COLUMN:
 * ..." for bad input.  path is a regular file (open_regular(): a FIFO or
 * a device is refused), or "-" for stdin ("stdin:LINE: ...").
 */
int history_load_csv(const char *path, const char *stat,
		     struct history_set *out, struct strbuf *err);
/*
 * The same from an open stream, path naming it in errors, with the stat
 * rules (KPI directions) the caller made once: for callers that read many
 * CSV texts, such as the fuzzer, since stat_rules_init() compiles LKP's
 * tables and costs far more than a small file.
 */
int history_read_csv(FILE *fp, const char *path, const char *stat,
		     struct stat_rules *rules, struct history_set *out,
		     struct strbuf *err);

#endif
