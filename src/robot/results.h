/*
 * results.h: "get results for commit C of job J" -- the one step of the
 * robot that differs between running here and running in a lab.  A pass
 * asks for results and, when they are there, reads them from the job's
 * result root; the bisect gets its ops (struct bisect_ops) from here too,
 * so that the search, the classifier and the confirmation are bisect's
 * own whichever way the runs happen.
 *
 * The local implementation (robot/local.c) checks the commit out in a
 * worktree of the robot's mirror, builds and installs it and runs the job
 * there through `perfsift run`, as `perfsift bisect` does.  The lab's
 * (robot/via_lab.c, a PostgreSQL store) queues the job for the lab's
 * workers, answers ROBOT_PENDING, and finds the results in the shared
 * store at a later pass.
 */
#ifndef PERFSIFT_ROBOT_RESULTS_H
#define PERFSIFT_ROBOT_RESULTS_H

#include "util/compat.h"

struct bisect_ops;
struct robot_job;
struct robot_repo;
struct strbuf;

enum robot_ready {
	ROBOT_READY = 0,   /* the results are in the result root */
	ROBOT_PENDING = 1, /* queued: come back at a later pass */
};

struct robot_results {
	/*
	 * Make sure commit sha has at least runs complete runs of the job:
	 * ROBOT_READY, ROBOT_PENDING, or -1 with err (the commit does not
	 * build, the job fails).  Runs the index already holds are not run
	 * again: this is how a killed robot runs nothing twice.
	 */
	int (*ensure)(struct robot_results *r, const char *sha, size_t runs,
		      struct strbuf *err);
	/*
	 * One more run of sha, its worktree slot (0 the base, 1 the head:
	 * interleaved runs do not rebuild at every turn): ROBOT_READY once
	 * it is in the index, ROBOT_PENDING when queued (a task already at
	 * it counts), -1 with err (the commit does not build, the run gave
	 * no complete result twice running).
	 */
	int (*run_one)(struct robot_results *r, const char *sha, int slot,
		       struct strbuf *err);
	/* the complete runs the index holds for sha (*n); 0 or -1 with err */
	int (*count)(struct robot_results *r, const char *sha, size_t *n,
		     struct strbuf *err);
	/*
	 * The ops of a bisect whose notes (its verdict log, its
	 * confirmation's counts) live in dir, kept until bisect_done: a
	 * bisect killed halfway goes on from them at the next start.
	 */
	int (*bisect_ops)(struct robot_results *r, const char *dir,
			  struct bisect_ops *ops, struct strbuf *err);
	/* the bisect of bisect_ops() is over: drop its worktrees and notes */
	void (*bisect_done)(struct robot_results *r);
	void (*release)(struct robot_results *r);
	/*
	 * true when this pass queued work (or found it queued) and must come
	 * back later: a bisect that stopped for it is pending, not
	 * interrupted.  NULL: never (the local implementation).
	 */
	bool (*pending)(struct robot_results *r);

	const char *result_root; /* where this job's results are read */
	const char *store_url;   /* NULL: that root's SQLite */
	void *priv;
};

struct bisect_exec;

/*
 * What both implementations share (robot/local.c): x set for job of
 * repo over the robot's mirror, runs and samples in result_root (and
 * store_url, NULL: its SQLite), the repo's install step only when
 * `install` (the lab's workers install themselves).
 */
void robot_exec_setup(struct bisect_exec *x, const struct robot_repo *repo,
		      const struct robot_job *job, const char *mirror,
		      const char *result_root, const char *store_url,
		      bool install);
/*
 * A bisect's exec of its own, its notes in dir (created): the previous
 * one released first (*bisecting), worktrees under dir when
 * `worktrees`.  x's fields are set up as robot_exec_setup's by the
 * caller's `setup` copy.  0, or -1 with err.
 */
int robot_exec_begin(struct bisect_exec *bx, bool *bisecting,
		     const struct bisect_exec *setup, const char *dir,
		     bool worktrees, struct strbuf *err);

/*
 * The local implementation for job of repo: mirror is the robot's bare
 * clone, work a directory of its own for the worktrees, result_root the
 * job's result root (created).  0, or -1 with err.
 */
int robot_results_local(struct robot_results *r, const struct robot_repo *repo,
			const struct robot_job *job, const char *mirror,
			const char *work, const char *result_root,
			struct strbuf *err);

/*
 * The lab's implementation (robot/via_lab.c) for a PostgreSQL store_url: as
 * the local one, but the runs are queued for the workers of the job's
 * testbox_group and read from the store; work must be on a path the
 * workers share (the task's job runs in the worktree built there).
 */
int robot_results_lab(struct robot_results *r, const struct robot_repo *repo,
		      const struct robot_job *job, const char *mirror,
		      const char *work, const char *result_root,
		      const char *store_url, struct strbuf *err);

#endif
