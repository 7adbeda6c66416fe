/*
 * lab.h: the lab -- a job queue in the PostgreSQL store and the workers
 * that drain it (docs/lab.md).  PostgreSQL is the coordinator: a task is
 * one atomic job of RUNS runs for one test-box group; a worker claims the
 * next task of its group (SELECT ... FOR UPDATE SKIP LOCKED, priority then
 * age), holds it by a lease it renews, and records each finished run in
 * the store at once, keyed by (task, run index), so a run is never stored
 * twice or lost whatever happens to the worker.
 *
 * A lease is named by (task, worker, attempt): claiming a task counts an
 * attempt, so a worker whose lease expired and was taken over can no
 * longer write anything for the task -- every write checks the triple.
 *
 * schema.c makes and migrates the lab's tables (their own version row
 * beside the index's), task_queue.c is the queue's SQL, worker_loop.c
 * the worker.
 */
#ifndef PERFSIFT_LAB_H
#define PERFSIFT_LAB_H

#include "util/compat.h"
#include "store/store.h"

struct strbuf;

/* the lab's tables' version: perfsift_meta's 'lab_schema' row */
#define LAB_SCHEMA_VERSION 3
/* the channel of LISTEN/NOTIFY: a task of the payload's group changed */
#define LAB_CHANNEL "perfsift_lab"

/* a connection to the lab: the store it lives in */
struct lab {
	struct store st; /* the PostgreSQL store (its connection is ours) */
	void *conn;      /* the store's PGconn */
};

/*
 * Open the lab of the store at url (a postgresql:// store; anything else
 * is an error saying the lab needs one), making or migrating its tables.
 * root is the result root the store's run directories are relative to.
 */
int lab_open(struct lab *lab, const char *root, const char *url,
	     struct strbuf *err);
void lab_close(struct lab *lab);
/* the lab's tables at LAB_SCHEMA_VERSION (schema.c; lab_open calls it) */
int lab_migrate(struct lab *lab, struct strbuf *err);

/* ---- SQL helpers (schema.c): text parameters, NULL entries are NULL ---- */
struct lab_rows {
	void *res;  /* the PGresult */
	int n;      /* rows */
};
int lab_query(struct lab *lab, const char *sql, int n,
	      const char *const *params, struct lab_rows *out,
	      struct strbuf *err);
int lab_exec(struct lab *lab, const char *sql, int n,
	     const char *const *params, struct strbuf *err);
/* a value of a row ("" for NULL) and whether it is NULL */
const char *lab_get(const struct lab_rows *r, int row, int col);
bool lab_null(const struct lab_rows *r, int row, int col);
void lab_rows_release(struct lab_rows *r);

/* ---- tasks ---- */
enum lab_state { LAB_QUEUED, LAB_LEASED, LAB_DONE, LAB_FAILED, LAB_CANCELLED };
/* "queued" ...; lab_state_parse() -1 for a name that is none */
const char *lab_state_name(enum lab_state s);
int lab_state_parse(const char *name);

/* the most runs one task asks for (`queue add -n`; a worker refuses more) */
#define LAB_TASK_RUNS_MAX 99

struct lab_task {
	int64_t id;
	enum lab_state state;
	char *group, *job_name, *job_yaml, *commit, *kernel;
	char *worker, *last_error;
	/* where the job runs on the box (the robot's built worktree), or NULL:
	 * the worker's own working directory */
	char *workdir;
	int runs, runs_done, priority, attempts, max_attempts, lease_s;
	int install_attempt; /* the attempt whose install hook ran, or 0 */
};
struct lab_task_list {
	struct lab_task *items; /* by id */
	size_t n, alloc;
};
void lab_task_release(struct lab_task *t);
void lab_task_list_release(struct lab_task_list *l);

/* one task to enqueue (borrowed strings; commit, kernel, workdir may be NULL) */
struct lab_new_task {
	const char *group, *job_name, *job_yaml, *commit, *kernel;
	const char *workdir;
	int runs, priority, max_attempts;
};
/*
 * The tasks of n atomic jobs: each a copy of tmpl (commit, kernel,
 * workdir, runs, priority, max_attempts) with the job's own tbox_group
 * (NULL when it has none), file name and YAML, owned by the batch.
 */
struct job;
struct lab_task_batch {
	struct lab_new_task *t; /* n */
	struct strbuf *names, *yaml;
	size_t n;
};
void lab_task_batch_init(struct lab_task_batch *b, struct job *const *atoms,
			 size_t n, const struct lab_new_task *tmpl);
void lab_task_batch_release(struct lab_task_batch *b);

/* all of them in one transaction (ids[i] the new ids), then NOTIFY */
int lab_add_tasks(struct lab *lab, const struct lab_new_task *t, size_t n,
		  int64_t *ids, struct strbuf *err);
/* the tasks, by id; state -1 for every state */
int lab_list_tasks(struct lab *lab, int state, struct lab_task_list *out,
		   struct strbuf *err);
/* queued/leased -> cancelled; failed/cancelled -> queued (attempts 0) */
int lab_cancel_task(struct lab *lab, int64_t id, struct strbuf *err);
int lab_retry_task(struct lab *lab, int64_t id, struct strbuf *err);

/* ---- workers ---- */
struct lab_lease {
	int64_t task;
	const char *worker;
	int attempt;
};
/* register (or re-register) a worker and its box's facts */
int lab_worker_hello(struct lab *lab, const char *name, const char *group,
		     const char *facts, struct strbuf *err);
/* the worker's last_seen and current task (0: none) */
int lab_worker_seen(struct lab *lab, const char *name, int64_t task,
		    struct strbuf *err);
/* `queue workers`: one line per worker, appended to out */
int lab_workers_table(struct lab *lab, struct strbuf *out, struct strbuf *err);

/*
 * Leases of the group that ran out go back to the queue, or end `failed`
 * when they had max_attempts: the worker that held one is gone.
 */
int lab_reap(struct lab *lab, const char *group, struct strbuf *err);
/*
 * Claim the next queued task of group for worker (priority, then age),
 * leased for lease_s seconds: 1 with *t filled, 0 when none is queued.
 * With resume, the task this worker already holds is taken back first (a
 * worker restarted after its box rebooted).
 */
int lab_claim(struct lab *lab, const char *worker, const char *group,
	      int lease_s, bool resume, struct lab_task *t, struct strbuf *err);
/* renew the lease: 0, 1 when it is lost (expired and taken, cancelled) */
int lab_heartbeat(struct lab *lab, const struct lab_lease *l,
		  struct strbuf *err);
/* give the task back without counting the attempt (SIGTERM); 1: lost */
int lab_release(struct lab *lab, const struct lab_lease *l, struct strbuf *err);
/* the attempt failed: queued again, or failed after max_attempts */
int lab_fail_attempt(struct lab *lab, const struct lab_lease *l,
		     const char *reason, struct strbuf *err);
/* the install hook runs for this attempt (kernel.c): 0, 1 lost */
int lab_mark_install(struct lab *lab, const struct lab_lease *l,
		     struct strbuf *err);
/* the running kernel's release (<PERFSIFT_SYSROOT>/proc/sys/kernel/osrelease) */
int lab_running_kernel(struct strbuf *out, struct strbuf *err);
/*
 * r may be a kernel release (uname -r; the Makefile's KERNELRELEASE):
 * letters, digits and ".-_+~", 1 to 64 of them, not beginning with '-'.  It
 * reaches the install hook as $PERFSIFT_KERNEL, where "-x" would be an
 * option and "a b; c" words of a shell.
 */
bool lab_release_ok(const char *r);
/* the install hook's exit status that asks for a reboot (docs/lab.md) */
#define LAB_EXIT_REBOOT 100
/* every run is stored: done (0), or 1 when the lease was lost */
int lab_finish(struct lab *lab, const struct lab_lease *l, struct strbuf *err);

/*
 * Run idx of the task, before it is stored: its number in group_dir (the
 * result group, relative to the root), reserved for (task, idx) once and
 * for all.  Returns 1 when the run is stored already (by this lease's
 * predecessor: nothing to do), 0 with *number to store it under, -1 with
 * err (the lease lost: err says so, *lost set).
 */
int lab_run_reserve(struct lab *lab, const struct lab_lease *l, int idx,
		    const char *group_dir, int *number, bool *lost,
		    struct strbuf *err);
/* run idx is in the store: counted (runs_done) */
int lab_run_stored(struct lab *lab, const struct lab_lease *l, int idx,
		   struct strbuf *err);
/*
 * The runs of the task stored so far, as a bitmap of run indexes (out[i]
 * true), after adopting reserved runs the store already holds (the last
 * holder stored one and died before counting it).
 */
int lab_runs_done(struct lab *lab, const struct lab_lease *l, bool *out,
		  int nruns, struct strbuf *err);

/*
 * A run's files (files.c): every file below run_dir into the store as
 * the files of run number of group_rel (replacing what it had), and back
 * into dest.  *nfiles counts them.
 */
int lab_put_run_files(struct lab *lab, const char *group_rel, int number,
		      const char *run_dir, size_t *nfiles, struct strbuf *err);
int lab_get_run_files(struct lab *lab, const char *group_rel, int number,
		      const char *dest, size_t *nfiles, struct strbuf *err);
/*
 * One file row (name: its path in the run directory, name_len bytes, as
 * stored) written below dest: a name trust_relpath_why_len() refuses
 * (empty, absolute, a NUL, a control character, an empty, "." or ".."
 * part) is not written.  0, or -1 with err.
 */
int lab_write_file_row(const char *dest, const char *name, size_t name_len,
		       const void *data, size_t len, struct strbuf *err);

/*
 * What --drain waits for: the tasks of group queued or leased (*active),
 * and the seconds until the first lease runs out (*next_s, -1 if none).
 */
int lab_pending(struct lab *lab, const char *group, int *active,
		double *next_s, struct strbuf *err);
/* LISTEN on LAB_CHANNEL */
int lab_listen(struct lab *lab, struct strbuf *err);
/*
 * Sleep until a notification, a signal (the caller's mask: sigmask is
 * what ppoll installs while waiting) or timeout_ms (-1: none).  1 when a
 * notification came, 0 otherwise.
 */
int lab_wait(struct lab *lab, int timeout_ms, const void *sigmask,
	     struct strbuf *err);

#endif
