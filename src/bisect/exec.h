/*
 * exec.h: the real world behind struct bisect_ops -- two git
 * worktrees of perfsift's own (the user's checkout is never touched), the
 * user's build and install commands run in them, the job run through
 * `perfsift run --commit SHA` as a child with the worktree as its working
 * directory (so every sample lands in the normal result root and index),
 * and samples read back per commit.  Shared by `bisect` and `bisect-step`.
 */
#ifndef PERFSIFT_BISECT_EXEC_H
#define PERFSIFT_BISECT_EXEC_H

#include "util/compat.h"
#include "bisect/bisect.h"

struct bisect_ops;
struct exec_seen;
struct matrix;
struct spawn_user;
struct store;
struct strbuf;

struct bisect_exec {
	const char *repo;         /* the user's repository (toplevel) */
	const char *job;          /* the job file, absolute */
	const char *const *cmd;   /* `-- CMD ARGS` (NULL-terminated) or NULL */
	const char *build;        /* --build, or NULL */
	const char *install;      /* --install, or NULL */
	/*
	 * --kernel: the built kernel's path in the worktree, or NULL.  Set,
	 * the job runs under `perfsift run --kernel` on that image, every
	 * slot builds in the one worktree wt0 (a kernel build is incremental
	 * there: a step rebuilds what its commit changed), and each commit's
	 * image is kept in <state_dir>/kernels/<sha>-<hash of --kernel and
	 * --build> for its later runs.
	 */
	const char *kernel;
	/* cleanup leaves the worktrees and the kernels kept in place */
	bool keep_worktrees;
	const char *result_root;  /* absolute */
	const char *store_url;    /* NULL = the result root's SQLite */
	/*
	 * The user checkout, build and install run as (the robot's
	 * build_user), NULL: us.  The run stays ours (root): before it, the
	 * worktree is handed to root and every process of that user is
	 * killed, so nothing of the builder's changes what root runs.
	 */
	const struct spawn_user *user;
	char *self;               /* the perfsift binary */
	char *wt[BISECT_SLOTS];   /* worktree per slot (NULL: run in cwd) */
	char *prepared[BISECT_SLOTS]; /* sha checked out and built per slot */
	char *group;              /* result group prefix, once known */
	char *state_dir;          /* where bisect keeps its own notes */
	char *installed;          /* sha whose --install ran last (this process) */
	/* the samples op's: the store, open for the bisect, and the runs
	 * it took of each commit (exec.c, struct exec_seen) */
	struct store *store;
	struct exec_seen *seen;
	size_t nseen, alloc_seen;
};

/*
 * Fill the fields that follow from the others: the perfsift binary, and
 * (when wt_base is not NULL) the worktree directories under it (one for
 * all slots when x->kernel is set, which must be set before).
 */
int bisect_exec_init(struct bisect_exec *x, const char *wt_base,
		     struct strbuf *err);
void bisect_exec_release(struct bisect_exec *x);
/* remove the worktrees and kernel images (a finished bisect; not when
 * keep_worktrees) and the notes of state_dir */
void bisect_exec_cleanup(struct bisect_exec *x);

/*
 * Claim state_dir's notes (the verdict log, the step and confirmation
 * counts a resumed bisect goes on from) for this bisect: x's repository,
 * result root, job (path and text), build, and the range good..bad and
 * stat.  Notes another bisect left there (a --worktree DIR used again,
 * or a killed run's) are removed, with a line saying so, and never read:
 * counted against other runs, they would make this bisect fail or lie.
 * Nothing without a state_dir.  0, or -1 with err.
 */
int bisect_exec_own_notes(struct bisect_exec *x, const char *good,
			  const char *bad, const char *stat, struct strbuf *err);

/* ops whose data is x */
void bisect_exec_ops(struct bisect_exec *x, struct bisect_ops *ops);

/* the ops, callable directly (bisect-step) */
int bisect_exec_measure(struct bisect_exec *x, int slot, const char *sha,
			struct strbuf *err);
int bisect_exec_samples(struct bisect_exec *x, const char *sha,
			struct matrix *m, struct strbuf *err);

/* the complete runs the index holds for sha under x's job (*n) */
int bisect_exec_count_runs(struct bisect_exec *x, const char *sha, size_t *n,
			   struct strbuf *err);

/*
 * SIGINT / SIGTERM set a flag instead of killing perfsift: the run in
 * progress finishes (and is stored), then bisect stops, resumable.
 */
void bisect_exec_catch_signals(void);
bool bisect_exec_interrupted(void);

#endif
