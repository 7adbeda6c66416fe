/*
 * task_queue.c: the lab's queue in SQL (lab.h): enqueueing, listing,
 * cancelling and retrying tasks, and what a worker does to one -- claim,
 * heartbeat, release, fail, finish, and the (task, run index) ledger that
 * keeps each run stored exactly once.
 *
 * Every write a worker makes for a task checks its lease, (task, worker,
 * attempt) with state 'leased', under the task row's lock, so a worker
 * that lost its lease (expired, retaken, cancelled) changes nothing.
 * Workers wait on LISTEN/NOTIFY: whatever makes a task claimable or ends
 * one notifies LAB_CHANNEL with the task's group, inside the transaction
 * (PostgreSQL delivers it at commit).
 */
#include "util/compat.h"

#ifdef HAVE_LIBPQ
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lab/lab.h"
#include "util/trust.h"
#include "store/pq_lazy.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* the CHECK constraint of lab_tasks.state (schema.c), in enum order */
static const char *const state_names[] = {
	"queued", "leased", "done", "failed", "cancelled",
};

const char *lab_state_name(enum lab_state s)
{
	return state_names[s];
}

int lab_state_parse(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(state_names); i++)
		if (!strcmp(name, state_names[i]))
			return (int)i;
	return -1;
}

/* every string of a task is its own (lab_task_of copies them) */
void lab_task_release(struct lab_task *t)
{
	free(t->group);
	free(t->job_name);
	free(t->job_yaml);
	free(t->commit);
	free(t->workdir);
	free(t->kernel);
	free(t->worker);
	free(t->last_error);
	memset(t, 0, sizeof(*t));
}

void lab_task_list_release(struct lab_task_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		lab_task_release(&l->items[i]);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

/* the columns lab_task_of() reads, in its order */
#define TASK_COLS "id, state, tbox_group, job_name, job_yaml, commit_id," \
	" kernel, worker, last_error, runs, runs_done, priority, attempts," \
	" max_attempts, coalesce(lease_s, 0), install_attempt, workdir"

/* NULL stays NULL: an unset commit or kernel is not an empty one */
static char *dup_or_null(const struct lab_rows *r, int row, int col)
{
	return lab_null(r, row, col) ? NULL : xstrdup(lab_get(r, row, col));
}

/*
 * One row of TASK_COLS into t.  A state this perfsift does not know (a
 * newer one wrote it) reads as failed: nothing claims or touches it.
 */
static void lab_task_of(const struct lab_rows *r, int row, struct lab_task *t)
{
	int st = lab_state_parse(lab_get(r, row, 1));

	t->id = strtoll(lab_get(r, row, 0), NULL, 10);
	t->state = st < 0 ? LAB_FAILED : (enum lab_state)st;
	t->group = xstrdup(lab_get(r, row, 2));
	t->job_name = xstrdup(lab_get(r, row, 3));
	t->job_yaml = xstrdup(lab_get(r, row, 4));
	t->commit = dup_or_null(r, row, 5);
	t->workdir = dup_or_null(r, row, 16);
	t->kernel = dup_or_null(r, row, 6);
	t->worker = dup_or_null(r, row, 7);
	t->last_error = dup_or_null(r, row, 8);
	t->runs = (int)strtol(lab_get(r, row, 9), NULL, 10);
	t->runs_done = (int)strtol(lab_get(r, row, 10), NULL, 10);
	t->priority = (int)strtol(lab_get(r, row, 11), NULL, 10);
	t->attempts = (int)strtol(lab_get(r, row, 12), NULL, 10);
	t->max_attempts = (int)strtol(lab_get(r, row, 13), NULL, 10);
	t->lease_s = (int)strtol(lab_get(r, row, 14), NULL, 10);
	t->install_attempt = (int)strtol(lab_get(r, row, 15), NULL, 10);
}

/* end the transaction a failed statement left aborted; always -1 */
static int rollback(struct lab *lab)
{
	PQclear(PQexec(lab->conn, "ROLLBACK"));
	return -1;
}

/*
 * One transaction for the whole job: either every atomic job is queued,
 * or (a failure halfway) none is -- `queue add` never leaves half a job.
 */
int lab_add_tasks(struct lab *lab, const struct lab_new_task *t, size_t n,
		  int64_t *ids, struct strbuf *err)
{
	size_t i;

	if (lab_exec(lab, "BEGIN", 0, NULL, err) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		char runs[16], prio[16], maxa[16];
		const char *p[9] = {t[i].group, t[i].job_name, t[i].job_yaml,
				    t[i].commit, t[i].kernel, runs, prio, maxa,
				    t[i].workdir};
		struct lab_rows r;

		snprintf(runs, sizeof(runs), "%d", t[i].runs);
		snprintf(prio, sizeof(prio), "%d", t[i].priority);
		snprintf(maxa, sizeof(maxa), "%d", t[i].max_attempts);
		if (lab_query(lab, "INSERT INTO lab_tasks (tbox_group, job_name,"
			      " job_yaml, commit_id, kernel, runs, priority,"
			      " max_attempts, workdir) VALUES ($1, $2, $3, $4,"
			      " $5, $6, $7, $8, $9) RETURNING id", 9, p, &r,
			      err) < 0)
			return rollback(lab);
		ids[i] = strtoll(lab_get(&r, 0, 0), NULL, 10);
		lab_rows_release(&r);
		/* one notification per group is enough (sent at commit) */
		if ((!i || strcmp(t[i].group, t[i - 1].group)) &&
		    lab_exec(lab, "SELECT pg_notify('" LAB_CHANNEL "', $1)", 1,
			     p, err) < 0)
			return rollback(lab);
	}
	return lab_exec(lab, "COMMIT", 0, NULL, err) < 0 ? rollback(lab) : 0;
}

/* $1 NULL: every state (one statement either way) */
int lab_list_tasks(struct lab *lab, int state, struct lab_task_list *out,
		   struct strbuf *err)
{
	const char *p[1] = {state >= 0 ? state_names[state] : NULL};
	struct lab_rows r;
	int i;

	if (lab_query(lab, "SELECT " TASK_COLS " FROM lab_tasks WHERE"
		      " $1::text IS NULL OR state = $1 ORDER BY id", 1, p, &r,
		      err) < 0)
		return -1;
	for (i = 0; i < r.n; i++) {
		ALLOC_GROW(out->items, out->n + 1, out->alloc);
		memset(&out->items[out->n], 0, sizeof(out->items[0]));
		lab_task_of(&r, i, &out->items[out->n++]);
	}
	lab_rows_release(&r);
	return 0;
}

/*
 * Move task id from one of the states `from` (a text[] literal) to `to`;
 * err says what the task is when it is in none of them.
 */
static int move_task(struct lab *lab, int64_t id, const char *from,
		     const char *set, const char *what, struct strbuf *err)
{
	char idt[32];
	const char *p[2] = {idt, from};
	struct strbuf sql = STRBUF_INIT;
	struct lab_rows r;
	int ret = -1;

	snprintf(idt, sizeof(idt), "%" PRId64, id);
	if (lab_exec(lab, "BEGIN", 0, NULL, err) < 0)
		return -1;
	if (lab_query(lab, "SELECT state, tbox_group FROM lab_tasks WHERE"
		      " id = $1 FOR UPDATE", 1, p, &r, err) < 0)
		goto out;
	if (!r.n) {
		strbuf_addf(err, "no task %" PRId64 " in the queue", id);
	} else if (!strstr(from, lab_get(&r, 0, 0))) {
		strbuf_addf(err, "task %" PRId64 " is %s: nothing to %s", id,
			    lab_get(&r, 0, 0), what);
	} else {
		const char *g[1] = {lab_get(&r, 0, 1)};

		strbuf_addf(&sql, "UPDATE lab_tasks SET %s WHERE id = $1", set);
		if (!lab_exec(lab, sql.buf, 1, p, err) &&
		    !lab_exec(lab, "SELECT pg_notify('" LAB_CHANNEL "', $1)", 1,
			      g, err) &&
		    !lab_exec(lab, "COMMIT", 0, NULL, err))
			ret = 0;
	}
	lab_rows_release(&r);
out:
	strbuf_release(&sql);
	return ret ? rollback(lab) : 0;
}

int lab_cancel_task(struct lab *lab, int64_t id, struct strbuf *err)
{
	/* a worker holding it finds its lease gone at its next heartbeat */
	return move_task(lab, id, "queued leased", "state = 'cancelled',"
			 " lease_until = NULL, finished_at = now()", "cancel",
			 err);
}

int lab_retry_task(struct lab *lab, int64_t id, struct strbuf *err)
{
	/* the runs stored so far stay: the retry goes on from them */
	return move_task(lab, id, "failed cancelled", "state = 'queued',"
			 " attempts = 0, worker = NULL, finished_at = NULL",
			 "retry", err);
}

/* ---- workers ---- */

/*
 * A worker's row is keyed by its name, so a box that restarts (a reboot)
 * updates its row instead of adding a ghost beside it.
 */
int lab_worker_hello(struct lab *lab, const char *name, const char *group,
		     const char *facts, struct strbuf *err)
{
	const char *p[3] = {name, group, facts};

	return lab_exec(lab, "INSERT INTO lab_workers (name, tbox_group, facts)"
			" VALUES ($1, $2, $3) ON CONFLICT (name) DO UPDATE SET"
			" tbox_group = $2, facts = $3, started_at = now(),"
			" last_seen = now()", 3, p, err);
}

/* the heartbeat of the worker itself, task or not: `queue workers` */
int lab_worker_seen(struct lab *lab, const char *name, int64_t task,
		    struct strbuf *err)
{
	char id[32];
	const char *p[2] = {name, id};

	snprintf(id, sizeof(id), "%" PRId64, task);
	if (!task)
		p[1] = NULL;
	return lab_exec(lab, "UPDATE lab_workers SET last_seen = now(),"
			" task_id = $2 WHERE name = $1", 2, p, err);
}

/* the age of the heartbeat is the server's: no clock skew between boxes */
int lab_workers_table(struct lab *lab, struct strbuf *out, struct strbuf *err)
{
	struct lab_rows r;
	int i;

	if (lab_query(lab, "SELECT name, tbox_group,"
		      " to_char(last_seen, 'YYYY-MM-DD HH24:MI:SS'),"
		      " extract(epoch from now() - last_seen)::bigint,"
		      " coalesce(task_id::text, '-'), coalesce(facts, '')"
		      " FROM lab_workers ORDER BY name", 0, NULL, &r, err) < 0)
		return -1;
	strbuf_addf(out, "%-16s %-12s %-27s %-6s %s\n", "worker", "group",
		    "last heartbeat", "task", "box");
	for (i = 0; i < r.n; i++) {
		char seen[64];

		snprintf(seen, sizeof(seen), "%s (%ss ago)", lab_get(&r, i, 2),
			 lab_get(&r, i, 3));
		/* a worker writes its own row: escaped, no ESC reaches the terminal */
		strbuf_addf(out, "%-16s %-12s %-27s %-6s %s\n",
			    trust_shown(lab_get(&r, i, 0)),
			    trust_shown(lab_get(&r, i, 1)), seen, lab_get(&r, i, 4),
			    trust_shown(lab_get(&r, i, 5)));
	}
	lab_rows_release(&r);
	return 0;
}

int lab_reap(struct lab *lab, const char *group, struct strbuf *err)
{
	const char *p[1] = {group};
	struct lab_rows r;
	int n;

	/* locked rows are a worker's heartbeat or another reaper: skipped */
	if (lab_query(lab, "UPDATE lab_tasks SET state = CASE WHEN attempts >="
		      " max_attempts THEN 'failed' ELSE 'queued' END,"
		      " last_error = 'the lease of ' || coalesce(worker, '?') ||"
		      " ' ran out (attempt ' || attempts || ' of ' ||"
		      " max_attempts || ')', lease_until = NULL,"
		      " finished_at = CASE WHEN attempts >= max_attempts THEN"
		      " now() END WHERE id IN (SELECT id FROM lab_tasks WHERE"
		      " state = 'leased' AND tbox_group = $1 AND lease_until <"
		      " now() FOR UPDATE SKIP LOCKED) RETURNING id", 1, p, &r,
		      err) < 0)
		return -1;
	n = r.n;
	lab_rows_release(&r);
	if (n && lab_exec(lab, "SELECT pg_notify('" LAB_CHANNEL "', $1)", 1, p,
			  err) < 0)
		return -1;
	return 0;
}

int lab_claim(struct lab *lab, const char *worker, const char *group,
	      int lease_s, bool resume, struct lab_task *t, struct strbuf *err)
{
	char ls[16];
	const char *p[3] = {group, worker, ls};
	struct lab_rows r;
	int got;

	snprintf(ls, sizeof(ls), "%d", lease_s);
	/* a rebooted worker's own task first: same attempt, a new lease */
	if (resume) {
		if (lab_query(lab, "UPDATE lab_tasks SET lease_s = $3::int,"
			      " lease_until = now() + make_interval(secs =>"
			      " $3::int) WHERE id = (SELECT id FROM lab_tasks"
			      " WHERE state = 'leased' AND tbox_group = $1 AND"
			      " worker = $2 ORDER BY id LIMIT 1 FOR UPDATE)"
			      " RETURNING " TASK_COLS, 3, p, &r, err) < 0)
			return -1;
		if (r.n)
			goto got;
		lab_rows_release(&r);
	}
	/*
	 * One statement: the next queued task of the group by priority then
	 * age, skipping rows another worker is claiming this instant.
	 */
	if (lab_query(lab, "UPDATE lab_tasks SET state = 'leased', worker = $2,"
		      " attempts = attempts + 1, lease_s = $3::int,"
		      " lease_until = now() + make_interval(secs => $3::int)"
		      " WHERE id = (SELECT id FROM lab_tasks WHERE state ="
		      " 'queued' AND tbox_group = $1 ORDER BY priority DESC, id"
		      " LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING " TASK_COLS,
		      3, p, &r, err) < 0)
		return -1;
got:
	got = r.n > 0;
	if (got)
		lab_task_of(&r, 0, t);
	lab_rows_release(&r);
	return got;
}

/* the lease's three parameters: $1 task, $2 worker, $3 attempt */
/*
 * The lease's text parameters; p[3..5] are free for a statement's own.
 * PostgreSQL wants every parameter sent to be used by the statement, so
 * a statement that needs fewer passes fewer.
 */
struct lease_params {
	char task[32], attempt[16];
	const char *p[6];
};

static void lease_params(struct lease_params *lp, const struct lab_lease *l)
{
	snprintf(lp->task, sizeof(lp->task), "%" PRId64, l->task);
	snprintf(lp->attempt, sizeof(lp->attempt), "%d", l->attempt);
	lp->p[0] = lp->task;
	lp->p[1] = l->worker;
	lp->p[2] = lp->attempt;
	lp->p[3] = lp->p[4] = lp->p[5] = NULL;
}

#define LEASE_IS " id = $1 AND worker = $2 AND attempts = $3::int AND" \
	" state = 'leased'"

/* one UPDATE under the lease: 0, 1 when the lease is lost */
/*
 * The lease check and the change in one statement (a CTE), and the
 * group notified in the same transaction: a worker waiting with --drain
 * wakes when a task of its group ends or comes back.
 */
static int lease_update(struct lab *lab, const struct lab_lease *l,
			const char *set, const char *arg4, const char *arg5,
			struct strbuf *err)
{
	struct lease_params lp = { 0 }; /* all set by lease_params; zeroed for cppcheck's cross-file check */
	struct strbuf sql = STRBUF_INIT;
	struct lab_rows r;
	int n;

	lease_params(&lp, l);
	lp.p[3] = arg4;
	lp.p[4] = arg5;
	strbuf_addf(&sql, "WITH t AS (UPDATE lab_tasks SET %s WHERE" LEASE_IS
		    " RETURNING tbox_group) SELECT pg_notify('" LAB_CHANNEL
		    "', tbox_group) FROM t", set);
	n = lab_query(lab, sql.buf, arg5 ? 5 : arg4 ? 4 : 3, lp.p, &r, err);
	strbuf_release(&sql);
	if (n < 0)
		return -1;
	n = r.n;
	lab_rows_release(&r);
	return n ? 0 : 1;
}

int lab_heartbeat(struct lab *lab, const struct lab_lease *l,
		  struct strbuf *err)
{
	struct lease_params lp = { 0 }; /* all set by lease_params; zeroed for cppcheck's cross-file check */
	struct lab_rows r;
	int n;

	/* no NOTIFY: a renewed lease changes nothing a worker waits for */
	lease_params(&lp, l);
	if (lab_query(lab, "UPDATE lab_tasks SET lease_until = now() +"
		      " make_interval(secs => lease_s) WHERE" LEASE_IS
		      " RETURNING id", 3, lp.p, &r, err) < 0)
		return -1;
	n = r.n;
	lab_rows_release(&r);
	return n ? 0 : 1;
}

int lab_release(struct lab *lab, const struct lab_lease *l, struct strbuf *err)
{
	return lease_update(lab, l, "state = 'queued', worker = NULL,"
			    " attempts = attempts - 1, lease_until = NULL",
			    NULL, NULL, err);
}

/*
 * The attempt was counted at the claim, so attempts >= max_attempts here
 * means this was the last one.
 */
int lab_fail_attempt(struct lab *lab, const struct lab_lease *l,
		     const char *reason, struct strbuf *err)
{
	return lease_update(lab, l, "state = CASE WHEN attempts >= max_attempts"
			    " THEN 'failed' ELSE 'queued' END, last_error = $4,"
			    " lease_until = NULL, finished_at = CASE WHEN"
			    " attempts >= max_attempts THEN now() END", reason,
			    NULL, err) < 0 ? -1 : 0;
}

int lab_mark_install(struct lab *lab, const struct lab_lease *l,
		     struct strbuf *err)
{
	return lease_update(lab, l, "install_attempt = attempts", NULL, NULL,
			    err);
}

int lab_finish(struct lab *lab, const struct lab_lease *l, struct strbuf *err)
{
	return lease_update(lab, l, "state = 'done', lease_until = NULL,"
			    " finished_at = now()", NULL, NULL, err);
}

/* lock the task row if this lease still holds it: 0, 1 lost, -1 */
/*
 * The task row's lock orders this against a reaper or a new claim: once
 * we hold it, the lease cannot run out and be retaken under us.
 */
static int lock_lease(struct lab *lab, const struct lease_params *lp,
		      struct strbuf *err)
{
	struct lab_rows r;
	int n;

	if (lab_query(lab, "SELECT 1 FROM lab_tasks WHERE" LEASE_IS
		      " FOR UPDATE", 3, lp->p, &r, err) < 0)
		return -1;
	n = r.n;
	lab_rows_release(&r);
	return n ? 0 : 1;
}

/*
 * The next number of a group is one more than the highest in the store
 * and in the ledger: runs that are reserved but not stored yet count, so
 * two workers storing into one group never pick the same number.
 */
int lab_run_reserve(struct lab *lab, const struct lab_lease *l, int idx,
		    const char *group_dir, int *number, bool *lost,
		    struct strbuf *err)
{
	struct lease_params lp = { 0 }; /* all set by lease_params; zeroed for cppcheck's cross-file check */
	struct lab_rows r;
	char ix[16];
	int ret = -1, locked;

	*lost = false;
	lease_params(&lp, l);
	snprintf(ix, sizeof(ix), "%d", idx);
	lp.p[3] = ix;
	lp.p[4] = group_dir;
	if (lab_exec(lab, "BEGIN", 0, NULL, err) < 0)
		return -1;
	locked = lock_lease(lab, &lp, err);
	if (locked) {
		if (locked > 0) {
			*lost = true;
			strbuf_addf(err, "the lease of task %" PRId64 " is lost",
				    l->task);
		}
		return rollback(lab);
	}
	/* one numberer per group at a time; the store's runs count too */
	if (lab_exec(lab, "SELECT pg_advisory_xact_lock(hashtext($1))", 1,
		     &group_dir, err) < 0 ||
	    lab_query(lab, "INSERT INTO lab_task_runs (task_id, run_index,"
		      " group_dir, number, worker) SELECT $1, $4::int, $5,"
		      " 1 + greatest((SELECT max(number) FROM lab_task_runs"
		      " WHERE group_dir = $5), (SELECT max(r.number) FROM runs r"
		      " JOIN groups g ON g.id = r.group_id WHERE g.dir = $5),"
		      " -1), $2 WHERE $3::int > 0 ON CONFLICT (task_id, run_index) DO UPDATE SET"
		      " worker = $2 RETURNING number, stored, group_dir", 5, lp.p,
		      &r, err) < 0)
		return rollback(lab);
	*number = (int)strtol(lab_get(&r, 0, 0), NULL, 10);
	if (strcmp(lab_get(&r, 0, 2), group_dir)) {
		/* the same job went to another group: the task changed */
		strbuf_addf(err, "run %d of task %" PRId64 " was reserved in '%s',"
			    " not '%s'", idx, l->task, lab_get(&r, 0, 2),
			    group_dir);
		lab_rows_release(&r);
		return rollback(lab);
	}
	ret = !strcmp(lab_get(&r, 0, 1), "t");
	lab_rows_release(&r);
	return lab_exec(lab, "COMMIT", 0, NULL, err) < 0 ? rollback(lab) : ret;
}

/* runs_done from the ledger, in the lease's transaction */
static const char count_runs[] =
	"UPDATE lab_tasks SET runs_done = (SELECT count(*) FROM lab_task_runs"
	" WHERE task_id = $1 AND stored) WHERE id = $1";

int lab_run_stored(struct lab *lab, const struct lab_lease *l, int idx,
		   struct strbuf *err)
{
	struct lease_params lp = { 0 }; /* all set by lease_params; zeroed for cppcheck's cross-file check */
	char ix[16];

	lease_params(&lp, l);
	snprintf(ix, sizeof(ix), "%d", idx);
	lp.p[3] = ix;
	/*
	 * Even when the lease was lost meanwhile: the run is in the store
	 * under its reserved number, and the ledger must say so.
	 */
	if (lab_exec(lab, "BEGIN", 0, NULL, err) < 0 ||
	    lab_exec(lab, "UPDATE lab_task_runs SET stored = true, stored_at ="
		     " now(), worker = $2 WHERE task_id = $1 AND run_index ="
		     " $4::int AND $3::int IS NOT NULL", 4, lp.p, err) < 0 ||
	    lab_exec(lab, count_runs, 1, lp.p, err) < 0 ||
	    lab_exec(lab, "COMMIT", 0, NULL, err) < 0)
		return rollback(lab);
	return 0;
}

int lab_runs_done(struct lab *lab, const struct lab_lease *l, bool *out,
		  int nruns, struct strbuf *err)
{
	struct lease_params lp = { 0 }; /* all set by lease_params; zeroed for cppcheck's cross-file check */
	struct lab_rows r;
	int i;

	lease_params(&lp, l);
	memset(out, 0, (size_t)nruns * sizeof(*out));
	/*
	 * A reserved run the store holds, files and all, was stored by a
	 * worker gone before it counted it (worker_loop.c stores the files last).
	 */
	if (lab_exec(lab, "BEGIN", 0, NULL, err) < 0 ||
	    lab_exec(lab, "UPDATE lab_task_runs t SET stored = true, stored_at ="
		     " now() FROM runs r JOIN groups g ON g.id = r.group_id"
		     " WHERE t.task_id = $1 AND NOT t.stored AND g.dir ="
		     " t.group_dir AND r.number = t.number AND EXISTS (SELECT 1"
		     " FROM lab_run_files f WHERE f.group_dir = t.group_dir AND"
		     " f.number = t.number)", 1, lp.p, err) < 0 ||
	    lab_exec(lab, count_runs, 1, lp.p, err) < 0 ||
	    lab_query(lab, "SELECT run_index FROM lab_task_runs WHERE task_id ="
		      " $1 AND stored", 1, lp.p, &r, err) < 0)
		return rollback(lab);
	for (i = 0; i < r.n; i++) {
		int ix = (int)strtol(lab_get(&r, i, 0), NULL, 10);

		if (ix >= 0 && ix < nruns)
			out[ix] = true;
	}
	lab_rows_release(&r);
	return lab_exec(lab, "COMMIT", 0, NULL, err) < 0 ? rollback(lab) : 0;
}

/* lease_until - now() from the server's clock, as the reaper compares */
int lab_pending(struct lab *lab, const char *group, int *active,
		double *next_s, struct strbuf *err)
{
	const char *p[1] = {group};
	struct lab_rows r;

	if (lab_query(lab, "SELECT count(*), extract(epoch from min(lease_until)"
		      " - now()) FROM lab_tasks WHERE tbox_group = $1 AND state"
		      " IN ('queued', 'leased')", 1, p, &r, err) < 0)
		return -1;
	*active = (int)strtol(lab_get(&r, 0, 0), NULL, 10);
	*next_s = lab_null(&r, 0, 1) ? -1 : strtod(lab_get(&r, 0, 1), NULL);
	if (*next_s < 0 && !lab_null(&r, 0, 1))
		*next_s = 0;
	lab_rows_release(&r);
	return 0;
}

/* drop the notifications read so far: 1 if there was one */
/* libpq keeps notifications that came with other results: read them all */
static int drain_notifies(struct lab *lab)
{
	PGnotify *n;
	int got = 0;

	while ((n = PQnotifies(lab->conn))) {
		got = 1;
		PQfreemem(n);
	}
	return got;
}

/*
 * ppoll with the caller's mask: the worker blocks SIGTERM and SIGCHLD
 * everywhere else, so a signal is taken only here and in its waits, and
 * never cuts a statement or a write halfway.
 */
int lab_wait(struct lab *lab, int timeout_ms, const void *sigmask,
	     struct strbuf *err)
{
	struct pollfd pfd;
	struct timespec ts, *tsp = NULL;
	int r;

	if (drain_notifies(lab))
		return 1;
	pfd.fd = PQsocket(lab->conn);
	pfd.events = POLLIN;
	if (timeout_ms >= 0) {
		ts.tv_sec = timeout_ms / 1000;
		ts.tv_nsec = (long)(timeout_ms % 1000) * 1000000L;
		tsp = &ts;
	}
	r = ppoll(&pfd, 1, tsp, sigmask);
	if (r < 0 && errno != EINTR) {
		strbuf_addf(err, "lab: waiting for the store: %s", strerror(errno));
		return -1;
	}
	if (r > 0 && !PQconsumeInput(lab->conn)) {
		strbuf_addf(err, "lab: the store's connection: %s",
			    PQerrorMessage(lab->conn));
		strbuf_rtrim(err);
		return -1;
	}
	return drain_notifies(lab);
}
#else
typedef int lab_queue_unused;
#endif /* HAVE_LIBPQ */
