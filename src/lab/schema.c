/*
 * schema.c: the lab's tables, made and migrated by perfsift itself, and
 * the connection the queue and the workers use (lab.h).
 *
 * The lab lives in the PostgreSQL store beside the index (store/pg.c),
 * with its own version row in perfsift_meta ('lab_schema'), so a store
 * made before the lab existed -- or by a perfsift that has no lab --
 * gains the queue's tables on the first `queue` or `worker` command and
 * keeps every run it had.  Each step of `steps` takes the tables from
 * one version to the next; they run in one transaction under the same
 * advisory lock the index's creation takes, so two workers starting at
 * once on a fresh store make the tables once.
 */
#include "util/compat.h"

#ifdef HAVE_LIBPQ
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lab/lab.h"
#include "store/pq_lazy.h"
#include "util/strbuf.h"

/* steps[v] takes the lab's tables from version v to v + 1 */
static const char *const steps[LAB_SCHEMA_VERSION] = {
	/* 0 -> 1: tasks, their runs, workers */
	"CREATE TABLE lab_tasks ("
	"  id BIGSERIAL PRIMARY KEY,"
	"  state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN"
	"    ('queued', 'leased', 'done', 'failed', 'cancelled')),"
	"  tbox_group TEXT NOT NULL,"
	"  job_name TEXT NOT NULL, job_yaml TEXT NOT NULL,"
	"  commit_id TEXT, kernel TEXT,"
	"  runs INTEGER NOT NULL, runs_done INTEGER NOT NULL DEFAULT 0,"
	"  priority INTEGER NOT NULL DEFAULT 0,"
	"  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),"
	"  worker TEXT, lease_s INTEGER, lease_until TIMESTAMPTZ,"
	"  attempts INTEGER NOT NULL DEFAULT 0,"
	"  max_attempts INTEGER NOT NULL DEFAULT 3,"
	"  last_error TEXT, finished_at TIMESTAMPTZ,"
	/* the attempt whose install hook ran (kernel tasks: after a boot) */
	"  install_attempt INTEGER NOT NULL DEFAULT 0);"
	/* the claim's order, over queued tasks only (a partial index) */
	"CREATE INDEX lab_tasks_claim ON lab_tasks"
	"  (tbox_group, priority DESC, id) WHERE state = 'queued';"
	"CREATE INDEX lab_tasks_leased ON lab_tasks (tbox_group, lease_until)"
	"  WHERE state = 'leased';"
	/*
	 * A run of a task: its number in its result group is reserved once
	 * for (task, run index), so whichever worker stores it stores it
	 * under that number, and a run is never in the store twice.
	 */
	"CREATE TABLE lab_task_runs ("
	"  task_id BIGINT NOT NULL, run_index INTEGER NOT NULL,"
	"  group_dir TEXT NOT NULL, number INTEGER NOT NULL,"
	"  stored BOOLEAN NOT NULL DEFAULT false,"
	"  worker TEXT, stored_at TIMESTAMPTZ,"
	"  PRIMARY KEY (task_id, run_index), UNIQUE (group_dir, number));"
	"CREATE TABLE lab_workers ("
	"  name TEXT PRIMARY KEY, tbox_group TEXT NOT NULL, facts TEXT,"
	"  started_at TIMESTAMPTZ NOT NULL DEFAULT now(),"
	"  last_seen TIMESTAMPTZ NOT NULL DEFAULT now(), task_id BIGINT);"
	/* a run's files (files.c), compressed by the server (TOAST) */
	"CREATE TABLE lab_run_files ("
	"  group_dir TEXT NOT NULL, number INTEGER NOT NULL,"
	"  name TEXT NOT NULL, data BYTEA NOT NULL,"
	"  PRIMARY KEY (group_dir, number, name));",
	/*
	 * 1 -> 2: where a task's job runs on the box.  The robot's lab mode
	 * (docs/robot.md) builds a commit's worktree on a path its workers
	 * share and queues the job to run there, as a local run would.
	 */
	"ALTER TABLE lab_tasks ADD COLUMN workdir TEXT;",
	/*
	 * 2 -> 3: what a task runs is fixed when it is queued (issue 25
	 * F3).  A worker may change a task's state, lease, attempts and
	 * result -- never its job, commit, kernel, workdir, boxes or number
	 * of runs, or one box could rewrite every box's next job.  The
	 * column-level GRANT of docs/lab.md says so too; this trigger holds
	 * whatever the GRANTs are (a store set up with the older
	 * table-wide GRANT UPDATE, or a role given too much), for every
	 * role but one that may drop it (the owner, who queues).  Made
	 * again when a store is migrated twice (tests set the version back).
	 */
	"CREATE OR REPLACE FUNCTION lab_tasks_fixed() RETURNS trigger LANGUAGE plpgsql AS $f$"
	" BEGIN"
	"  IF (NEW.id, NEW.tbox_group, NEW.job_name, NEW.job_yaml, NEW.commit_id,"
	"      NEW.kernel, NEW.workdir, NEW.runs, NEW.priority, NEW.max_attempts,"
	"      NEW.created_at) IS DISTINCT FROM"
	"     (OLD.id, OLD.tbox_group, OLD.job_name, OLD.job_yaml, OLD.commit_id,"
	"      OLD.kernel, OLD.workdir, OLD.runs, OLD.priority, OLD.max_attempts,"
	"      OLD.created_at) THEN"
	"   RAISE EXCEPTION 'lab_tasks %: what a task runs is fixed when it is"
	" queued (only its state, lease and result change)', OLD.id"
	"    USING ERRCODE = 'insufficient_privilege';"
	"  END IF;"
	"  RETURN NEW;"
	" END $f$;"
	"DROP TRIGGER IF EXISTS lab_tasks_fixed ON lab_tasks;"
	"CREATE TRIGGER lab_tasks_fixed BEFORE UPDATE ON lab_tasks"
	"  FOR EACH ROW EXECUTE FUNCTION lab_tasks_fixed();",
};

/* warnings of the server (a notice) are not the user's business */
static void quiet_notice(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

int lab_query(struct lab *lab, const char *sql, int n,
	      const char *const *params, struct lab_rows *out,
	      struct strbuf *err)
{
	PGresult *res = PQexecParams(lab->conn, sql, n, NULL, params, NULL,
				     NULL, 0);
	ExecStatusType s = PQresultStatus(res);

	out->res = NULL;
	out->n = 0;
	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
		strbuf_addf(err, "lab: %s", PQresultErrorMessage(res));
		strbuf_rtrim(err);
		PQclear(res);
		return -1;
	}
	out->res = res;
	out->n = PQntuples(res);
	return 0;
}

int lab_exec(struct lab *lab, const char *sql, int n,
	     const char *const *params, struct strbuf *err)
{
	struct lab_rows r;

	if (lab_query(lab, sql, n, params, &r, err) < 0)
		return -1;
	lab_rows_release(&r);
	return 0;
}

const char *lab_get(const struct lab_rows *r, int row, int col)
{
	return PQgetvalue(r->res, row, col);
}

bool lab_null(const struct lab_rows *r, int row, int col)
{
	return PQgetisnull(r->res, row, col) != 0;
}

void lab_rows_release(struct lab_rows *r)
{
	if (r->res)
		PQclear(r->res);
	r->res = NULL;
	r->n = 0;
}

/* the version perfsift_meta records (0: no lab yet) */
static int lab_version(struct lab *lab, int *v, struct strbuf *err)
{
	struct lab_rows r;

	if (lab_query(lab, "SELECT value FROM perfsift_meta WHERE key ="
		      " 'lab_schema'", 0, NULL, &r, err) < 0)
		return -1;
	*v = r.n ? (int)strtol(lab_get(&r, 0, 0), NULL, 10) : 0;
	lab_rows_release(&r);
	return 0;
}

int lab_migrate(struct lab *lab, struct strbuf *err)
{
	char ver[16];
	const char *p[1] = {ver};
	int v;

	if (lab_version(lab, &v, err) < 0)
		return -1;
	if (v == LAB_SCHEMA_VERSION)
		return 0;
	/* the lock store/pg.c takes to make the index: one maker at a time */
	if (lab_exec(lab, "BEGIN", 0, NULL, err) < 0 ||
	    lab_exec(lab, "SELECT pg_advisory_xact_lock(7234151)", 0, NULL,
		     err) < 0 ||
	    lab_version(lab, &v, err) < 0)
		goto fail;
	if (v > LAB_SCHEMA_VERSION) {
		strbuf_addf(err, "the store's lab tables have version %d, this "
			    "perfsift knows %d: upgrade perfsift", v,
			    LAB_SCHEMA_VERSION);
		goto fail;
	}
	for (; v < LAB_SCHEMA_VERSION; v++) {
		PGresult *res = PQexec(lab->conn, steps[v]);

		if (PQresultStatus(res) != PGRES_COMMAND_OK) {
			strbuf_addf(err, "lab: making the lab's tables (version "
				    "%d): %s", v + 1, PQresultErrorMessage(res));
			strbuf_rtrim(err);
			PQclear(res);
			goto fail;
		}
		PQclear(res);
	}
	snprintf(ver, sizeof(ver), "%d", LAB_SCHEMA_VERSION);
	if (lab_exec(lab, "INSERT INTO perfsift_meta VALUES ('lab_schema', $1)"
		     " ON CONFLICT (key) DO UPDATE SET value = $1", 1, p,
		     err) < 0 ||
	    lab_exec(lab, "COMMIT", 0, NULL, err) < 0)
		goto fail;
	return 0;
fail:
	PQclear(PQexec(lab->conn, "ROLLBACK"));
	return -1;
}

/* libpq's messages run over lines ("\n\tIs the server running ..."): one */
static void one_line(struct strbuf *err)
{
	size_t i, j = 0;

	for (i = 0; i < err->len; i++) {
		char c = err->buf[i] == '\n' || err->buf[i] == '\t' ? ' ' :
			err->buf[i];

		if (c == ' ' && j && err->buf[j - 1] == ' ')
			continue;
		err->buf[j++] = c;
	}
	strbuf_setlen(err, j);
}

int lab_open(struct lab *lab, const char *root, const char *url,
	     struct strbuf *err)
{
	memset(lab, 0, sizeof(*lab));
	if (!url || (strncmp(url, "postgresql://", 13) &&
		     strncmp(url, "postgres://", 11))) {
		strbuf_addstr(err, "the lab's queue lives in a PostgreSQL store: "
			      "give --store postgresql://... (or PERFSIFT_STORE)");
		return -1;
	}
	if (store_open(&lab->st, root, url, STORE_CREATE, err) < 0) {
		one_line(err);
		return -1;
	}
	/* store/pg.c's private state is its PGconn */
	lab->conn = lab->st.priv;
	PQsetNoticeProcessor(lab->conn, quiet_notice, NULL);
	if (lab_migrate(lab, err) < 0) {
		lab_close(lab);
		return -1;
	}
	return 0;
}

void lab_close(struct lab *lab)
{
	if (lab->conn)
		store_close(&lab->st);
	memset(lab, 0, sizeof(*lab));
}

int lab_listen(struct lab *lab, struct strbuf *err)
{
	return lab_exec(lab, "LISTEN " LAB_CHANNEL, 0, NULL, err);
}
#else
/* no libpq: no lab (the commands say so) */
typedef int lab_schema_unused;
#endif /* HAVE_LIBPQ */
