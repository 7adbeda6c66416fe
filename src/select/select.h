/*
 * select.h: what BASE and HEAD (and further columns) of `perfsift compare`
 * name, resolved to result groups.  In order:
 *
 *  1. an existing directory: a run directory (its parent group is used), a
 *     commit directory ("_result_root", holding matrix.json and/or runs),
 *     or any directory holding an LKP matrix.json (a plain LKP result
 *     root works);
 *  2. a commit id, a unique prefix of one, or a tag name, looked up under
 *     the result root;
 *  3. `key=value[,key=value]` selectors over the groups' axes (job
 *     parameters and machine facts).
 *
 * An ambiguous or empty selection is an error listing the candidates; a
 * group holding runs of different jobs (result_group_mixed()) is an error
 * naming the parameter they differ in.
 * Each group comes with its matrix (complete runs only) and its axes, as
 * LKP's DataStore gives them (sorted by key), for the table's header.
 */
#ifndef PERFSIFT_SELECT_H
#define PERFSIFT_SELECT_H

#include "util/compat.h"
#include "result/matrix.h"

struct noise_floor;
struct strbuf;

struct group_axis {
	char *key;
	char *value;
};

struct result_group {
	char *spec;   /* what the user wrote */
	char *label;  /* the commit block / column label: commit (tag or sha),
		       * else the directory's name */
	char *dir;    /* the group directory (absolute), or NULL */
	struct group_axis *axes; /* sorted by key; includes "commit" */
	size_t naxes, alloc_axes;
	struct matrix matrix;    /* complete runs only */
	double runtime_s;        /* the job's runtime, 0 when unknown */
	/* the job's declared KPIs, kpi_format()'s line (kpi.h); NULL: none */
	char *kpi;
	/*
	 * The noise floor `perfsift calibrate` stored for the group's series
	 * (result/floor.h: its job on its machine), found by select_group()
	 * in the root's index; NULL when none was calibrated.
	 */
	struct noise_floor *floor;
	/* a run's job.yaml (absolute), which `perfsift run` runs again into
	 * this group (the command that would decide an undecided KPI);
	 * NULL when the group's runs are not on this disk */
	char *job_file;
	/*
	 * When each run started (seconds since the epoch, matrix.nruns of
	 * them, in the matrix's run order; NAN where unknown), from the runs'
	 * start_time files; NULL when no run has one.  compare pairs head
	 * and base runs made beside each other by them.
	 */
	double *run_start;
};

void result_group_init(struct result_group *g);
void result_group_release(struct result_group *g);
/* value of axis key, or NULL */
const char *result_group_axis(const struct result_group *g, const char *key);
/* set (add or replace) an axis; keeps axes sorted */
void result_group_set_axis(struct result_group *g, const char *key,
			   const char *value);

struct select_ctx {
	const char *result_root; /* where commit ids and selectors are looked up */
	const char *store_url;   /* NULL: the root's SQLite index, if any */
};

/*
 * Resolve spec into g (initialised here), with the noise floor of its
 * series when the index holds one (g->floor).  0, or -1 with err holding one
 * clear message (for an ambiguous or empty selection, the candidates,
 * one per line).
 */
int select_group(const struct select_ctx *ctx, const char *spec,
		 struct result_group *g, struct strbuf *err);
/*
 * select_group() of each of n specs into groups[] (all initialised here,
 * so the caller releases all n whatever the result), the index opened and
 * checked against the disk once for all of them; 0, or -1 with err (the
 * first spec that fails), or SELECT_NO_STORE with err when the index
 * could not be opened -- a runtime error (a full disk, L9), not a bad
 * spec.
 */
#define SELECT_NO_STORE (-2)
int select_groups(const struct select_ctx *ctx, const char *const *specs,
		  size_t n, struct result_group *groups, struct strbuf *err);

struct store;
struct store_group;
/*
 * Load a group found in an open store (its matrix, its axes): what
 * select_group() does once the index named the group.  g is initialised
 * by the caller (result_group_init); 0 or -1 with err.
 */
int select_group_store(struct store *st, const struct store_group *sg,
		       struct result_group *g, struct strbuf *err);

/*
 * When the run in run_dir began: its start_time file (`perfsift run`
 * writes it as the run begins; seconds since the epoch) into *t.  0, or
 * -1 when there is none or it is not a number.
 */
int select_run_start(const char *run_dir, double *t);

/*
 * Load a group from a directory: matrix.json (or, failing that, the
 * stats.json of its complete runs) and the axes from a run's job.yaml.
 */
int select_group_dir(const char *dir, struct result_group *g,
		     struct strbuf *err);

#endif
