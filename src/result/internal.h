/*
 * internal.h: what the three files of the result root share -- result.c
 * (a run's life: its directory, finishing, restat, pruning), parse_run.c
 * (parsing and reducing a run directory, writing what it gives) and
 * index.c (a group's matrix.json and the index).  Not for other modules:
 * they use result.h, which stays the one interface.
 */
#ifndef PERFSIFT_RESULT_INTERNAL_H
#define PERFSIFT_RESULT_INTERNAL_H

#include "util/compat.h"
#include "result/reduce.h"

struct job;
struct strbuf;
struct run_group;

/* run numbers go up to this (a group of a million runs is no group) */
#define MAX_RUNS 1000000

/* ------------------------------------------------------ parse_run.c */

/* what parsing a run directory produced, before anything is written */
struct run_output {
	char **names; /* <group>.json file names */
	struct strbuf *texts;
	size_t n, alloc;
	struct reduce_stats stats;
	struct run_group *groups;
	size_t ngroups, galloc;
	bool same_stats; /* stats.json would be written as it is: leave it */
};

void run_output_init(struct run_output *o);
void run_output_release(struct run_output *o);
/*
 * Parse and reduce every raw file of run_dir that has a parser, and every
 * <group>.json whose raw file is not there.  Nothing is written.  -2 with
 * err naming a file that cannot be read or parsed; with `lenient` (a cut
 * run) such a file is a warning and left out.
 */
int result_parse_run(const char *run_dir, bool lenient, struct run_output *o,
		     struct strbuf *err);
/*
 * A run rebuilt that has files already: keep what has no source left
 * (see parse_run.c).  0, 1 when there is nothing to write, -2 with err when
 * rewriting would lose a stat.
 */
int result_keep_what_is_there(const char *dir, struct run_output *o,
			      struct strbuf *err);
/*
 * The <group>.json files and stats.json of o into dir, each atomically
 * and only when it does not hold those bytes already; *wrote (when not
 * NULL) says whether any file was written.
 */
int result_write_output(const char *dir, const struct run_output *o,
			bool *wrote, struct strbuf *err);
/* dir/name := t, atomically, unless it holds t already; -1 with err */
int result_write_text(const char *dir, const char *name,
		      const struct strbuf *t, struct strbuf *err);
/* one more lost name for refuse_loss's message (the first three named) */
void result_add_lost(struct strbuf *lost, size_t *nlost, const char *name);
/* err: rebuilding path would lose nlost stats; returns -2 */
int result_refuse_loss(const char *path, size_t nlost,
		       const struct strbuf *lost, struct strbuf *err);
/*
 * A run's job.yaml, the one job it holds, read leniently (NULL: none or
 * unreadable; `warn` names a file that is not YAML at all).
 */
struct job *result_read_run_job(const char *run_dir, bool warn);

/* ------------------------------------------------------ result.c */

/* LKP's last_state says the run was cut ("is_incomplete_run: 1") */
bool result_run_incomplete(const char *run_dir);
/* qsort/bsearch order of ints */
int result_cmp_int(const void *a, const void *b);
/* the run numbers present in group_dir (directories named by digits), sorted */
int result_group_runs(const char *group_dir, int **nums, size_t *n,
		      struct strbuf *err);

/* ------------------------------------------------------ index.c */

/* a run ready for the index */
struct index_item {
	const char *dir; /* absolute */
	int number;
	bool complete;
	const struct reduce_stats *stats;
};

/*
 * matrix.json (and LKP's avg.json, stddev.json) from the group's complete
 * runs nums[0..n); -2 with err rather than lose a value.
 */
int result_rebuild_matrix(const char *group_dir, const int *nums, size_t n,
			  struct strbuf *err);
/* index items of one group, forgetting its runs not in nums */
int result_index_runs(const char *root, const char *store_url,
		      const char *group_dir, const int *nums, size_t n,
		      const struct index_item *items, size_t nitems,
		      struct strbuf *err);
/*
 * under the group lock: matrix.json, then the one run in the index;
 * forget: drop the group's indexed runs this root does not hold (false
 * for a store several roots share)
 */
int result_publish_run(const char *root, const char *store_url,
		       const char *group_dir, const char *run_dir, int number,
		       bool complete, const struct reduce_stats *stats,
		       bool forget, struct strbuf *err);

#endif
