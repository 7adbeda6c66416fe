/*
 * state.c: the robot's memory in the result root's SQLite store (see
 * robot/state.h).  The store is opened once through store_open() with
 * STORE_CREATE first, so the file is perfsift's own (application id,
 * schema) before the robot adds its tables beside the index's; then the
 * robot talks SQL to it on a connection of its own, since its rows are
 * not results and the store interface has no business knowing them.
 */
#include "util/compat.h"
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "robot/state.h"
#include "store/store.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* the index's own busy wait: another perfsift may be indexing a run */
#define ROBOT_BUSY_MS 30000

/*
 * The robot's tables.  robot_branch is what --status shows and what
 * decides "new since the last pass"; robot_test keeps one job's verdict
 * on one head, so that a pass killed between two jobs does not judge the
 * first again; robot_mail is the once-only record of each culprit's mail
 * (state 0 none, 1 pending, 2 sent; offset: where an mbox append began);
 * robot_judging holds, per head under judgement, which runs of the base
 * and of the head were made beside each other (robot/verdict.c's record:
 * only those decide, across passes, whatever else ran on the base).
 * IF NOT EXISTS: opening is also creating, for a root of any age.
 */
static const char robot_schema[] =
	"CREATE TABLE IF NOT EXISTS robot_repo ("
	" repo TEXT PRIMARY KEY, error TEXT, checked INTEGER);"
	"CREATE TABLE IF NOT EXISTS robot_branch ("
	" repo TEXT, branch TEXT, head TEXT, base TEXT, verdict TEXT,"
	" stat TEXT, change REAL, culprit TEXT, detail TEXT, done INTEGER,"
	" mailed INTEGER, updated INTEGER, PRIMARY KEY (repo, branch));"
	"CREATE TABLE IF NOT EXISTS robot_test ("
	" repo TEXT, branch TEXT, head TEXT, job TEXT, base TEXT,"
	" verdict TEXT, stat TEXT, change REAL, culprit TEXT, detail TEXT,"
	" done INTEGER, mailed INTEGER, updated INTEGER,"
	" PRIMARY KEY (repo, branch, head, job));"
	"CREATE TABLE IF NOT EXISTS robot_mail ("
	" repo TEXT, culprit TEXT, job TEXT, state INTEGER,"
	" message_id TEXT, offset INTEGER, updated INTEGER,"
	" PRIMARY KEY (repo, culprit, job));"
	"CREATE TABLE IF NOT EXISTS robot_judging ("
	" repo TEXT, branch TEXT, head TEXT, job TEXT, runs TEXT,"
	" updated INTEGER, PRIMARY KEY (repo, branch, head, job));";

static int db_err(struct robot_state *s, struct strbuf *err, const char *what)
{
	strbuf_addf(err, "robot state: %s: %s", what, sqlite3_errmsg(s->db));
	return -1;
}

int robot_state_open(struct robot_state *s, const char *root,
		     struct strbuf *err)
{
	struct store st;
	struct strbuf path = STRBUF_INIT;
	sqlite3 *db = NULL;
	int ret = -1;

	s->db = NULL;
	/* the index's own open first: it stamps a new file as perfsift's and
	 * refuses a SQLite file of something else, before we write to it */
	if (store_open(&st, root, NULL, STORE_CREATE, err) < 0)
		return -1;
	store_close(&st);
	path_join(&path, root, "perfsift.db");
	if (sqlite3_open_v2(path.buf, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		strbuf_addf(err, "cannot open '%s': %s", path.buf,
			    db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		goto out;
	}
	s->db = db;
	sqlite3_busy_timeout(db, ROBOT_BUSY_MS);
	if (sqlite3_exec(db, robot_schema, NULL, NULL, NULL) != SQLITE_OK) {
		db_err(s, err, "schema");
		robot_state_close(s);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&path);
	return ret;
}

void robot_state_close(struct robot_state *s)
{
	if (s->db)
		sqlite3_close(s->db);
	s->db = NULL;
}

void robot_verdict_release(struct robot_verdict *v)
{
	free(v->head);
	free(v->base);
	free(v->verdict);
	free(v->stat);
	free(v->culprit);
	free(v->detail);
	memset(v, 0, sizeof(*v));
}

/* a text column as a new string; NULL stays NULL (no verdict yet) */
static char *col_str(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? xstrdup((const char *)t) : NULL;
}

/* NULL binds as SQL NULL, so that "no culprit" reads back as NULL */
static void bind_str(sqlite3_stmt *st, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* the verdict columns, in this order, in every SELECT below */
#define VERDICT_COLS "head, base, verdict, stat, change, culprit, detail, done, mailed"

static void read_verdict(sqlite3_stmt *st, int from, struct robot_verdict *v)
{
	robot_verdict_release(v);
	v->head = col_str(st, from);
	v->base = col_str(st, from + 1);
	v->verdict = col_str(st, from + 2);
	v->stat = col_str(st, from + 3);
	v->change = sqlite3_column_double(st, from + 4);
	v->culprit = col_str(st, from + 5);
	v->detail = col_str(st, from + 6);
	v->done = sqlite3_column_int(st, from + 7) != 0;
	v->mailed = sqlite3_column_int(st, from + 8) != 0;
}

static void bind_verdict(sqlite3_stmt *st, int from,
			 const struct robot_verdict *v)
{
	bind_str(st, from, v->head);
	bind_str(st, from + 1, v->base);
	bind_str(st, from + 2, v->verdict);
	bind_str(st, from + 3, v->stat);
	sqlite3_bind_double(st, from + 4, v->change);
	bind_str(st, from + 5, v->culprit);
	bind_str(st, from + 6, v->detail);
	sqlite3_bind_int(st, from + 7, v->done);
	sqlite3_bind_int(st, from + 8, v->mailed);
	sqlite3_bind_int64(st, from + 9, (sqlite3_int64)time(NULL));
}

/*
 * One SELECT of at most one row with up to four text keys: 1 and fn
 * called on it, 0 no row, -1 error.
 */
static int select_one(struct robot_state *s, const char *sql,
		      const char *const *keys, size_t nkeys,
		      void (*fn)(sqlite3_stmt *, void *), void *ctx,
		      struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	size_t i;
	int rc;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_err(s, err, "read");
	for (i = 0; i < nkeys; i++)
		bind_str(st, (int)i + 1, keys[i]);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		fn(st, ctx);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return db_err(s, err, "read");
}

/* select_one()'s callback for the verdict columns */
static void verdict_row(sqlite3_stmt *st, void *ctx)
{
	read_verdict(st, 0, ctx);
}

int robot_state_branch(struct robot_state *s, const char *repo,
		       const char *branch, struct robot_verdict *v,
		       struct strbuf *err)
{
	const char *keys[] = {repo, branch};

	return select_one(s, "SELECT " VERDICT_COLS " FROM robot_branch"
			  " WHERE repo = ?1 AND branch = ?2",
			  keys, 2, verdict_row, v, err);
}

int robot_state_test(struct robot_state *s, const char *repo,
		     const char *branch, const char *head, const char *job,
		     struct robot_verdict *v, struct strbuf *err)
{
	const char *keys[] = {repo, branch, head, job};

	return select_one(s, "SELECT " VERDICT_COLS " FROM robot_test"
			  " WHERE repo = ?1 AND branch = ?2 AND head = ?3"
			  " AND job = ?4",
			  keys, 4, verdict_row, v, err);
}

/* a prepared INSERT OR REPLACE with text keys, then more binds, run */
static int write_row(struct robot_state *s, const char *sql,
		     const char *const *keys, size_t nkeys,
		     const struct robot_verdict *v, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	size_t i;
	int rc;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_err(s, err, "write");
	for (i = 0; i < nkeys; i++)
		bind_str(st, (int)i + 1, keys[i]);
	bind_verdict(st, (int)nkeys + 1, v);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_err(s, err, "write");
}

int robot_state_set_branch(struct robot_state *s, const char *repo,
			   const char *branch, const struct robot_verdict *v,
			   struct strbuf *err)
{
	const char *keys[] = {repo, branch};

	return write_row(s, "INSERT OR REPLACE INTO robot_branch (repo, branch, "
			 VERDICT_COLS ", updated) VALUES (?1, ?2, ?3, ?4, ?5,"
			 " ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
			 keys, 2, v, err);
}

int robot_state_set_test(struct robot_state *s, const char *repo,
			 const char *branch, const char *head, const char *job,
			 const struct robot_verdict *v, struct strbuf *err)
{
	const char *keys[] = {repo, branch, job};
	/* a shallow copy: only its head is replaced, nothing is freed */
	struct robot_verdict w = *v;

	/* the test's head is its key: the verdict's head is the same */
	w.head = (char *)head;
	return write_row(s, "INSERT OR REPLACE INTO robot_test (repo, branch, job, "
			 VERDICT_COLS ", updated) VALUES (?1, ?2, ?3, ?4, ?5,"
			 " ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
			 keys, 3, &w, err);
}

/* select_one()'s callback for a mail row; no offset reads as -1 */
static void mail_row(sqlite3_stmt *st, void *ctx)
{
	struct robot_mail_row *row = ctx;

	row->state = (enum robot_mail_state)sqlite3_column_int(st, 0);
	free(row->message_id);
	row->message_id = col_str(st, 1);
	row->offset = sqlite3_column_type(st, 2) == SQLITE_NULL ?
			      -1 : sqlite3_column_int64(st, 2);
}

int robot_state_mail(struct robot_state *s, const char *repo,
		     const char *culprit, const char *job,
		     struct robot_mail_row *row, struct strbuf *err)
{
	const char *keys[] = {repo, culprit, job};

	/* no row: never tried, which is what NONE and -1 say */
	row->state = ROBOT_MAIL_NONE;
	row->offset = -1;
	return select_one(s, "SELECT state, message_id, offset FROM robot_mail"
			  " WHERE repo = ?1 AND culprit = ?2 AND job = ?3",
			  keys, 3, mail_row, row, err);
}

int robot_state_set_mail(struct robot_state *s, const char *repo,
			 const char *culprit, const char *job,
			 const struct robot_mail_row *row, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(s->db,
			       "INSERT OR REPLACE INTO robot_mail (repo, culprit,"
			       " job, state, message_id, offset, updated)"
			       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
			       -1, &st, NULL) != SQLITE_OK)
		return db_err(s, err, "write");
	bind_str(st, 1, repo);
	bind_str(st, 2, culprit);
	bind_str(st, 3, job);
	sqlite3_bind_int(st, 4, (int)row->state);
	bind_str(st, 5, row->message_id);
	/* -1 (no mbox append begun) is stored as NULL, not as an offset */
	if (row->offset >= 0)
		sqlite3_bind_int64(st, 6, row->offset);
	else
		sqlite3_bind_null(st, 6);
	sqlite3_bind_int64(st, 7, (sqlite3_int64)time(NULL));
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_err(s, err, "write");
}

/* select_one()'s callback for a judging row */
static void judging_row(sqlite3_stmt *st, void *ctx)
{
	char **runs = ctx;

	free(*runs);
	*runs = col_str(st, 0);
}

int robot_state_judging(struct robot_state *s, const char *repo,
			const char *branch, const char *head, const char *job,
			char **runs, struct strbuf *err)
{
	const char *keys[] = {repo, branch, head, job};

	*runs = NULL;
	return select_one(s, "SELECT runs FROM robot_judging"
			  " WHERE repo = ?1 AND branch = ?2 AND head = ?3"
			  " AND job = ?4", keys, 4, judging_row, runs, err);
}

int robot_state_set_judging(struct robot_state *s, const char *repo,
			    const char *branch, const char *head,
			    const char *job, const char *runs,
			    struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(s->db,
			       "INSERT OR REPLACE INTO robot_judging (repo,"
			       " branch, head, job, runs, updated)"
			       " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
			       -1, &st, NULL) != SQLITE_OK)
		return db_err(s, err, "write");
	bind_str(st, 1, repo);
	bind_str(st, 2, branch);
	bind_str(st, 3, head);
	bind_str(st, 4, job);
	bind_str(st, 5, runs);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)time(NULL));
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_err(s, err, "write");
}

/* the repo's row is replaced at every fetch: only the last one matters */
int robot_state_set_repo(struct robot_state *s, const char *repo,
			 const char *error, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(s->db,
			       "INSERT OR REPLACE INTO robot_repo (repo, error,"
			       " checked) VALUES (?1, ?2, ?3)",
			       -1, &st, NULL) != SQLITE_OK)
		return db_err(s, err, "write");
	bind_str(st, 1, repo);
	bind_str(st, 2, error);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)time(NULL));
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_err(s, err, "write");
}

int robot_state_each(struct robot_state *s, robot_status_fn fn, void *ctx,
		     struct strbuf *err)
{
	/* every repo, with its branches when it has any (a repo that never
	 * fetched has none, and its error is what --status must show) */
	static const char sql[] =
		"SELECT r.repo, b.branch, r.error, b.head, b.base, b.verdict,"
		" b.stat, b.change, b.culprit, b.detail, b.done, b.mailed"
		" FROM (SELECT repo, error FROM robot_repo UNION"
		"       SELECT repo, NULL FROM robot_branch"
		"       WHERE repo NOT IN (SELECT repo FROM robot_repo)) r"
		" LEFT JOIN robot_branch b ON b.repo = r.repo"
		" ORDER BY r.repo, b.branch";
	struct robot_verdict v;
	sqlite3_stmt *st = NULL;
	int rc;

	memset(&v, 0, sizeof(v));
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_err(s, err, "read");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		read_verdict(st, 3, &v);
		fn(ctx, (const char *)sqlite3_column_text(st, 0),
		   (const char *)sqlite3_column_text(st, 1),
		   (const char *)sqlite3_column_text(st, 2), &v);
	}
	robot_verdict_release(&v);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_err(s, err, "read");
}
