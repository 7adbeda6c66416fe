/*
 * sqlite.c: the SQLite store backend (see store.h): one database per
 * result root, WAL mode so readers never wait for the one writer, every
 * run indexed in one IMMEDIATE transaction (a second perfsift waits on the
 * busy timeout instead of failing).  Directories are kept relative to the
 * result root, so a root can be moved or copied with its index.
 */
#include "util/compat.h"
#include <errno.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "result/matrix.h"
#include "result/reduce.h"
#include "store/store.h"
#include "result/unite.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define SCHEMA_VERSION 3
#define BUSY_TIMEOUT_MS 30000

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS groups ("
	"  id INTEGER PRIMARY KEY,"
	"  dir TEXT NOT NULL UNIQUE,"          /* relative to the root */
	"  testcase TEXT NOT NULL, path_params TEXT NOT NULL,"
	"  tbox_group TEXT NOT NULL, rootfs TEXT NOT NULL,"
	"  kconfig TEXT NOT NULL, compiler TEXT NOT NULL,"
	"  commit_id TEXT NOT NULL);"
	"CREATE INDEX IF NOT EXISTS groups_commit ON groups(commit_id);"
	/* every job parameter and axis, for key=value selectors */
	"CREATE TABLE IF NOT EXISTS params ("
	"  group_id INTEGER NOT NULL REFERENCES groups(id),"
	"  key TEXT NOT NULL, value TEXT NOT NULL,"
	"  kind INTEGER NOT NULL,"             /* enum store_param_kind */
	"  PRIMARY KEY (group_id, key)) WITHOUT ROWID;"
	"CREATE INDEX IF NOT EXISTS params_kv ON params(key, value);"
	"CREATE TABLE IF NOT EXISTS runs ("
	"  id INTEGER PRIMARY KEY,"
	"  group_id INTEGER NOT NULL REFERENCES groups(id),"
	"  number INTEGER NOT NULL,"
	"  complete INTEGER NOT NULL,"
	"  dir TEXT NOT NULL,"                 /* relative to the root */
	"  indexed_at INTEGER NOT NULL,"
	"  stats BLOB,"                        /* the values again, packed */
	"  UNIQUE (group_id, number));"
	"CREATE TABLE IF NOT EXISTS stat_names ("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL UNIQUE);"
	"CREATE TABLE IF NOT EXISTS stat_values ("
	"  run_id INTEGER NOT NULL REFERENCES runs(id),"
	"  stat_id INTEGER NOT NULL REFERENCES stat_names(id),"
	"  value REAL NOT NULL,"
	"  is_int INTEGER NOT NULL,"
	"  PRIMARY KEY (run_id, stat_id)) WITHOUT ROWID;"
	/* directories as last checked against the disk (result_sync_index) */
	"CREATE TABLE IF NOT EXISTS dir_marks ("
	"  dir TEXT PRIMARY KEY,"              /* relative to the root */
	"  mtime_ns INTEGER NOT NULL) WITHOUT ROWID;";

/* PRAGMA application_id of a perfsift index: "PSFT" */
#define APPLICATION_ID 0x50534654

struct sqlite_priv {
	sqlite3 *db;
	char *path;
};

static sqlite3 *db_of(struct store *st)
{
	return ((struct sqlite_priv *)st->priv)->db;
}

/*
 * SQLite says its file is damaged: never answer from it (a compare with
 * rows missing would say "no regression"), the same way whatever the
 * command (store_corrupt() exits with status 3).
 */
static void check_corrupt(struct store *st, int rc)
{
	struct sqlite_priv *p = st->priv;

	rc &= 0xff;
	if (rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB)
		store_corrupt(p->path, sqlite3_errmsg(p->db));
}

static int db_error(struct store *st, struct strbuf *err, const char *what)
{
	check_corrupt(st, sqlite3_extended_errcode(db_of(st)));
	strbuf_addf(err, "index: %s: %s", what, sqlite3_errmsg(db_of(st)));
	return -1;
}

static int exec_sql(struct store *st, const char *sql, struct strbuf *err)
{
	char *msg = NULL;
	int rc = sqlite3_exec(db_of(st), sql, NULL, NULL, &msg);

	if (rc != SQLITE_OK) {
		check_corrupt(st, rc);
		strbuf_addf(err, "index: %s", msg ? msg : "sqlite3_exec failed");
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

/*
 * A read came back looking wrong (a run's packed stats unreadable, a
 * complete run without values): ask SQLite whether the file is damaged.
 */
static void suspect(struct store *st, const char *what)
{
	sqlite3_stmt *stmt = NULL;
	const char *res;
	int rc;

	rc = sqlite3_prepare_v2(db_of(st), "PRAGMA quick_check(1)", -1, &stmt,
				NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(stmt);
	res = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(stmt, 0) : NULL;
	if (rc != SQLITE_ROW)
		check_corrupt(st, sqlite3_extended_errcode(db_of(st)));
	if (rc == SQLITE_ROW && res && strcmp(res, "ok")) {
		char *why = xasprintf("%s (%s)", what, res);

		sqlite3_finalize(stmt);
		store_corrupt(((struct sqlite_priv *)st->priv)->path, why);
	}
	sqlite3_finalize(stmt);
}

static int prepare(struct store *st, sqlite3_stmt **stmt, const char *sql,
		   struct strbuf *err)
{
	if (sqlite3_prepare_v2(db_of(st), sql, -1, stmt, NULL) != SQLITE_OK)
		return db_error(st, err, "prepare");
	return 0;
}

bool store_sqlite_damaged(const char *path, struct strbuf *why)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *stmt = NULL;
	bool bad = true;
	int rc;

	rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &stmt, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		const char *res = (const char *)sqlite3_column_text(stmt, 0);

		bad = !res || strcmp(res, "ok");
		if (bad) {
			size_t i, from = why->len;

			strbuf_addstr(why, res ? res : "quick_check failed");
			for (i = from; i < why->len; i++) /* one line */
				if (why->buf[i] == '\n')
					why->buf[i] = ' ';
		}
	} else {
		/* a busy or locked file is not a damaged one */
		bad = (rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB;
		if (bad)
			strbuf_addstr(why, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
	}
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	return bad;
}

static int sqlite_open(struct store *st, const char *location, unsigned flags,
		       struct strbuf *err)
{
	struct sqlite_priv *p = xcalloc(1, sizeof(*p));
	bool memory = false, has_runs;
	int rc, version = 0, app_id, ntables;
	sqlite3_stmt *stmt = NULL;

	st->priv = p;
	p->path = xstrdup(location);
	if (!(flags & STORE_CREATE) && access(location, F_OK) < 0 &&
	    errno == ENOENT)
		memory = true; /* nothing indexed yet: an empty store */
	rc = sqlite3_open_v2(memory ? ":memory:" : location, &p->db,
			     SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			     SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		strbuf_addf(err, "cannot open index '%s': %s", location,
			    p->db ? sqlite3_errmsg(p->db) : sqlite3_errstr(rc));
		goto fail;
	}
	sqlite3_busy_timeout(p->db, BUSY_TIMEOUT_MS);
	/*
	 * mmap_size: pages are read in place instead of pread into the page
	 * cache's copies -- loading a group's blobs (megabytes of overflow
	 * pages) was a tenth of compare's time through pread.  page_size:
	 * a run's stats are one blob of megabytes, which SQLite assembles
	 * from a chain of overflow pages; 64 KiB pages make that chain 16x
	 * shorter (compare from the index -23%).  It only takes effect when
	 * the file is created; an older index keeps its pages.
	 */
	if (!memory && exec_sql(st, "PRAGMA page_size=65536;"
				"PRAGMA journal_mode=WAL;"
				"PRAGMA synchronous=NORMAL;"
				"PRAGMA mmap_size=1073741824;", err))
		goto fail;
	/*
	 * perfsift's own file?  Ours carry application_id "PSFT" (older ones
	 * schema version 1 or 2 and a runs table); a new file is empty.  The
	 * schema is never written into another program's database.
	 */
	if (prepare(st, &stmt, "SELECT (SELECT application_id FROM pragma_application_id),"
		    " (SELECT user_version FROM pragma_user_version),"
		    " (SELECT count(*) FROM sqlite_master),"
		    " (SELECT count(*) FROM sqlite_master WHERE name = 'runs')", err))
		goto fail;
	rc = sqlite3_step(stmt);
	if (rc != SQLITE_ROW) {
		db_error(st, err, "schema");
		sqlite3_finalize(stmt);
		goto fail;
	}
	app_id = sqlite3_column_int(stmt, 0);
	version = sqlite3_column_int(stmt, 1);
	ntables = sqlite3_column_int(stmt, 2);
	has_runs = sqlite3_column_int(stmt, 3) > 0;
	sqlite3_finalize(stmt);
	if (app_id != APPLICATION_ID &&
	    (app_id || (ntables && !(version >= 1 && version <= 2 && has_runs)))) {
		strbuf_addf(err, "'%s' is not a perfsift index (a SQLite file of "
			    "something else): refusing to use it", location);
		goto fail;
	}
	if (version > SCHEMA_VERSION) {
		strbuf_addf(err, "index '%s' has schema %d, newer than this "
			    "perfsift's %d", location, version, SCHEMA_VERSION);
		goto fail;
	}
	if (version < SCHEMA_VERSION) {
		struct strbuf sql = STRBUF_INIT;
		int r;

		/* 1 -> 2: the packed stats column (NULL: read the rows);
		 * 2 -> 3: dir_marks (the schema's IF NOT EXISTS makes it) */
		strbuf_addf(&sql, "BEGIN IMMEDIATE;%s%sPRAGMA user_version=%d;"
			    "PRAGMA application_id=%d;COMMIT;",
			    version == 1 ? "ALTER TABLE runs ADD COLUMN stats BLOB;" : "",
			    schema, SCHEMA_VERSION, APPLICATION_ID);
		r = exec_sql(st, sql.buf, err);
		strbuf_release(&sql);
		if (r) {
			exec_sql(st, "ROLLBACK", err);
			goto fail;
		}
	}
	return 0;
fail:
	sqlite3_close(p->db);
	free(p->path);
	free(p);
	st->priv = NULL;
	return -1;
}

static void sqlite_close(struct store *st)
{
	struct sqlite_priv *p = st->priv;

	if (!p)
		return;
	sqlite3_close(p->db);
	free(p->path);
	free(p);
	st->priv = NULL;
}

static void bind_text(sqlite3_stmt *stmt, int i, const char *s)
{
	sqlite3_bind_text(stmt, i, s ? s : "", -1, SQLITE_TRANSIENT);
}

static int64_t upsert_group(struct store *st, const struct store_index *ix,
			    struct strbuf *err)
{
	sqlite3_stmt *stmt = NULL;
	int64_t id = -1;
	int a;

	if (prepare(st, &stmt,
		    "INSERT INTO groups (dir, testcase, path_params, tbox_group,"
		    " rootfs, kconfig, compiler, commit_id)"
		    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
		    " ON CONFLICT (dir) DO UPDATE SET testcase = ?2,"
		    " path_params = ?3, tbox_group = ?4, rootfs = ?5,"
		    " kconfig = ?6, compiler = ?7, commit_id = ?8"
		    " RETURNING id", err))
		return -1;
	bind_text(stmt, 1, ix->group_rel);
	for (a = 0; a < STORE_NAXES; a++)
		bind_text(stmt, a + 2, ix->rec->axes[a]);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		id = sqlite3_column_int64(stmt, 0);
	else
		db_error(st, err, "group");
	sqlite3_finalize(stmt);
	return id;
}

static int put_params(struct store *st, int64_t gid,
		      const struct store_index *ix, struct strbuf *err)
{
	sqlite3_stmt *del = NULL, *ins = NULL;
	size_t i;
	int ret = -1;

	if (prepare(st, &del, "DELETE FROM params WHERE group_id = ?", err) ||
	    prepare(st, &ins, "INSERT INTO params (group_id, key, value, kind)"
		    " VALUES (?, ?, ?, ?)", err))
		goto out;
	sqlite3_bind_int64(del, 1, gid);
	if (sqlite3_step(del) != SQLITE_DONE) {
		db_error(st, err, "params");
		goto out;
	}
	for (i = 0; i < ix->nparams; i++) {
		sqlite3_reset(ins);
		sqlite3_bind_int64(ins, 1, gid);
		bind_text(ins, 2, ix->params[i].key);
		bind_text(ins, 3, ix->params[i].value);
		sqlite3_bind_int(ins, 4, (int)ix->params[i].kind);
		if (sqlite3_step(ins) != SQLITE_DONE) {
			db_error(st, err, "params");
			goto out;
		}
	}
	ret = 0;
out:
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
	return ret;
}

static int delete_runs(struct store *st, int64_t gid, const char *where,
		       int number, struct strbuf *err)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *stmt = NULL;
	int pass, ret = -1;

	for (pass = 0; pass < 2; pass++) {
		strbuf_reset(&sql);
		if (!pass)
			strbuf_addf(&sql, "DELETE FROM stat_values WHERE run_id IN"
				    " (SELECT id FROM runs WHERE group_id = ?1 AND %s)",
				    where);
		else
			strbuf_addf(&sql, "DELETE FROM runs WHERE group_id = ?1 AND %s",
				    where);
		if (prepare(st, &stmt, sql.buf, err))
			goto out;
		sqlite3_bind_int64(stmt, 1, gid);
		if (strstr(where, "?2"))
			sqlite3_bind_int(stmt, 2, number);
		if (sqlite3_step(stmt) != SQLITE_DONE) {
			db_error(st, err, "delete runs");
			goto out;
		}
		sqlite3_finalize(stmt);
		stmt = NULL;
	}
	ret = 0;
out:
	sqlite3_finalize(stmt);
	strbuf_release(&sql);
	return ret;
}

static int put_values(struct store *st, int64_t run_id,
		      const struct reduce_stats *stats, struct strbuf *err)
{
	sqlite3_stmt *name = NULL, *id = NULL, *val = NULL;
	size_t i;
	int ret = -1;

	if (prepare(st, &name, "INSERT OR IGNORE INTO stat_names (name) VALUES (?)",
		    err) ||
	    prepare(st, &id, "SELECT id FROM stat_names WHERE name = ?", err) ||
	    prepare(st, &val, "INSERT OR REPLACE INTO stat_values"
		    " (run_id, stat_id, value, is_int) VALUES (?, ?, ?, ?)", err))
		goto out;
	for (i = 0; stats && i < stats->n; i++) {
		const struct reduce_stat *s = &stats->items[i];
		int64_t sid;

		sqlite3_reset(name);
		bind_text(name, 1, s->name);
		if (sqlite3_step(name) != SQLITE_DONE) {
			db_error(st, err, "stat names");
			goto out;
		}
		sqlite3_reset(id);
		bind_text(id, 1, s->name);
		if (sqlite3_step(id) != SQLITE_ROW) {
			db_error(st, err, "stat names");
			goto out;
		}
		sid = sqlite3_column_int64(id, 0);
		sqlite3_reset(val);
		sqlite3_bind_int64(val, 1, run_id);
		sqlite3_bind_int64(val, 2, sid);
		sqlite3_bind_double(val, 3, s->value);
		sqlite3_bind_int(val, 4, s->is_int);
		if (sqlite3_step(val) != SQLITE_DONE) {
			db_error(st, err, "stat values");
			goto out;
		}
	}
	ret = 0;
out:
	sqlite3_finalize(name);
	sqlite3_finalize(id);
	sqlite3_finalize(val);
	return ret;
}

static int prune_runs(struct store *st, int64_t gid,
		      const struct store_run_record *rec, struct strbuf *err)
{
	struct strbuf where = STRBUF_INIT;
	size_t i;
	int ret;

	strbuf_addstr(&where, "number NOT IN (");
	for (i = 0; i < rec->npresent; i++)
		strbuf_addf(&where, "%s%d", i ? "," : "", rec->present_runs[i]);
	strbuf_addch(&where, ')');
	ret = delete_runs(st, gid, rec->npresent ? where.buf : "1", 0, err);
	strbuf_release(&where);
	return ret;
}

static int sqlite_index_run(struct store *st, const struct store_index *ix,
			    struct strbuf *err)
{
	const struct store_run_record *rec = ix->rec;
	sqlite3_stmt *stmt = NULL;
	int64_t gid, run_id;

	if (exec_sql(st, "BEGIN IMMEDIATE", err))
		return -1;
	gid = upsert_group(st, ix, err);
	if (gid < 0 || put_params(st, gid, ix, err) ||
	    delete_runs(st, gid, "number = ?2", rec->number, err))
		goto fail;
	if (rec->present_runs && prune_runs(st, gid, rec, err))
		goto fail;
	if (prepare(st, &stmt, "INSERT INTO runs (group_id, number, complete, dir,"
		    " indexed_at, stats) VALUES (?, ?, ?, ?, strftime('%s', 'now'),"
		    " ?) RETURNING id", err))
		goto fail;
	sqlite3_bind_int64(stmt, 1, gid);
	sqlite3_bind_int(stmt, 2, rec->number);
	sqlite3_bind_int(stmt, 3, rec->complete);
	bind_text(stmt, 4, ix->run_rel);
	sqlite3_bind_blob64(stmt, 5, ix->blob, ix->blob_len, SQLITE_TRANSIENT);
	if (sqlite3_step(stmt) != SQLITE_ROW) {
		db_error(st, err, "run");
		goto fail;
	}
	run_id = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	stmt = NULL;
	if (put_values(st, run_id, rec->stats, err))
		goto fail;
	if (exec_sql(st, "COMMIT", err))
		goto fail;
	return 0;
fail:
	sqlite3_finalize(stmt);
	sqlite3_exec(db_of(st), "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* the groups query: a WHERE clause per selector kind, bound by the caller */
static const char group_cols[] =
	"SELECT g.id, g.dir, g.testcase, g.path_params, g.tbox_group, g.rootfs,"
	" g.kconfig, g.compiler, g.commit_id,"
	" (SELECT count(*) FROM runs r WHERE r.group_id = g.id AND r.complete),"
	" (SELECT count(*) FROM runs r WHERE r.group_id = g.id AND NOT r.complete)"
	" FROM groups g";

static int run_group_query(struct store *st, sqlite3_stmt *stmt,
			   struct store_group_list *out, struct strbuf *err)
{
	const char *axes[STORE_NAXES];
	int rc, a;

	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		for (a = 0; a < STORE_NAXES; a++)
			axes[a] = (const char *)sqlite3_column_text(stmt, a + 2);
		store_group_list_add(out, st, sqlite3_column_int64(stmt, 0),
				     (const char *)sqlite3_column_text(stmt, 1),
				     axes,
				     (size_t)sqlite3_column_int64(stmt, 9),
				     (size_t)sqlite3_column_int64(stmt, 10));
	}
	if (rc != SQLITE_DONE)
		return db_error(st, err, "groups");
	return 0;
}

static int sqlite_find_groups(struct store *st, const struct store_selector *sel,
			      struct store_group_list *out, struct strbuf *err)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *stmt = NULL;
	size_t i;
	int ret = -1;

	strbuf_addstr(&sql, group_cols);
	switch (sel->kind) {
	case STORE_SEL_ALL:
		break;
	case STORE_SEL_DIR:
		if (!sel->dir) { /* outside the root: nothing indexed there */
			ret = 0;
			goto out;
		}
		/* the group itself, the group of a run, or groups below */
		strbuf_addstr(&sql, " WHERE ?1 = '' OR g.dir = ?1"
			      " OR (?2 <> '' AND g.dir = ?2)"
			      " OR substr(g.dir, 1, length(?1) + 1) = ?1 || '/'");
		break;
	case STORE_SEL_PARAMS:
		strbuf_addstr(&sql, " WHERE g.id IN (");
		for (i = 0; i < sel->nkv; i++)
			strbuf_addf(&sql, "%sSELECT group_id FROM params"
				    " WHERE key = ?%zu AND value = ?%zu",
				    i ? " INTERSECT " : "", 2 * i + 1, 2 * i + 2);
		strbuf_addch(&sql, ')');
		break;
	case STORE_SEL_COMMIT:
		/* an exact id wins; else every id starting with the text */
		strbuf_addstr(&sql, " WHERE CASE WHEN EXISTS (SELECT 1 FROM groups"
			      " WHERE commit_id = ?1) THEN g.commit_id = ?1"
			      " ELSE substr(g.commit_id, 1, length(?1)) = ?1 END");
		break;
	}
	strbuf_addstr(&sql, " ORDER BY g.dir");
	if (prepare(st, &stmt, sql.buf, err))
		goto out;
	if (sel->kind == STORE_SEL_DIR) {
		/* a run directory <group>/<digits> names its group */
		char *parent = store_selector_run_group(sel);

		bind_text(stmt, 1, sel->dir);
		bind_text(stmt, 2, parent ? parent : "");
		free(parent);
	} else if (sel->kind == STORE_SEL_PARAMS) {
		for (i = 0; i < sel->nkv; i++) {
			bind_text(stmt, (int)(2 * i + 1), sel->kv[i].key);
			bind_text(stmt, (int)(2 * i + 2), sel->kv[i].value);
		}
	} else if (sel->kind == STORE_SEL_COMMIT) {
		bind_text(stmt, 1, sel->commit);
	}
	ret = run_group_query(st, stmt, out, err);
out:
	sqlite3_finalize(stmt);
	strbuf_release(&sql);
	return ret;
}

/* prepare sql, whose one parameter is id; 0 or -1 */
static int prepare_id(struct store *st, sqlite3_stmt **stmt, const char *sql,
		      int64_t id, struct strbuf *err)
{
	if (prepare(st, stmt, sql, err))
		return -1;
	sqlite3_bind_int64(*stmt, 1, id);
	return 0;
}

/* every row of sql (one parameter: id) through row(); 0 or -1 */
static int each_row(struct store *st, const char *sql, int64_t id,
		    void (*row)(struct store *st, sqlite3_stmt *stmt, void *out),
		    void *out, const char *what, struct strbuf *err)
{
	sqlite3_stmt *stmt = NULL;
	int rc;

	if (prepare_id(st, &stmt, sql, id, err))
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
		row(st, stmt, out);
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		return db_error(st, err, what);
	return 0;
}

static const char *text_col(sqlite3_stmt *stmt, int col)
{
	return (const char *)sqlite3_column_text(stmt, col);
}

static void param_row(struct store *st, sqlite3_stmt *stmt, void *out)
{
	(void)st;
	store_param_list_add(out, text_col(stmt, 0), text_col(stmt, 1),
			     sqlite3_column_int(stmt, 2));
}

static int sqlite_group_params(struct store *st, int64_t group_id,
			       struct store_param_list *out, struct strbuf *err)
{
	return each_row(st, "SELECT key, value, kind FROM params"
			" WHERE group_id = ? ORDER BY key", group_id, param_row,
			out, "params", err);
}

static void run_row(struct store *st, sqlite3_stmt *stmt, void *out)
{
	store_run_list_add(out, st, sqlite3_column_int64(stmt, 0),
			   sqlite3_column_int(stmt, 1),
			   sqlite3_column_int(stmt, 2) != 0, text_col(stmt, 3));
}

static int sqlite_group_runs(struct store *st, int64_t group_id,
			     struct store_run_list *out, struct strbuf *err)
{
	return each_row(st, "SELECT id, number, complete, dir FROM runs"
			" WHERE group_id = ? ORDER BY number", group_id, run_row,
			out, "runs", err);
}

static void stat_row(struct store *st, sqlite3_stmt *stmt, void *out)
{
	(void)st;
	reduce_stats_add(out, text_col(stmt, 0), sqlite3_column_double(stmt, 1),
			 sqlite3_column_int(stmt, 2) != 0);
}

/* SQL's ORDER BY collates as memcmp: the same order as strcmp */
static int sqlite_run_stats(struct store *st, int64_t run_id,
			    struct reduce_stats *out, struct strbuf *err)
{
	return each_row(st, "SELECT n.name, v.value, v.is_int"
			" FROM stat_values v JOIN stat_names n ON n.id = v.stat_id"
			" WHERE v.run_id = ? ORDER BY n.name", run_id, stat_row,
			out, "stat values", err);
}

static int sqlite_load_matrix(struct store *st, int64_t group_id,
			      struct matrix *m, struct strbuf *err)
{
	sqlite3_stmt *stmt = NULL;
	struct store_matrix_builder b;
	int rc, ret = -1;

	matrix_init(m);
	store_matrix_builder_init(&b);
	if (prepare_id(st, &stmt, "SELECT id, dir, stats FROM runs WHERE"
		       " group_id = ? AND complete ORDER BY number", group_id,
		       err))
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		const char *dir = (const char *)sqlite3_column_text(stmt, 1);
		struct reduce_stats rows;

		if (!store_matrix_builder_add(&b, st, dir,
					      sqlite3_column_blob(stmt, 2),
					      (size_t)sqlite3_column_bytes(stmt, 2)))
			continue;
		/* perfsift never writes a blob that does not unpack */
		if (sqlite3_column_type(stmt, 2) != SQLITE_NULL) {
			suspect(st, "a run's packed stats do not unpack");
			store_corrupt(((struct sqlite_priv *)st->priv)->path,
				      "a run's packed stats do not unpack");
		}
		/* a run indexed before the packed blob: its rows */
		reduce_stats_init(&rows);
		if (sqlite_run_stats(st, sqlite3_column_int64(stmt, 0), &rows,
				     err)) {
			reduce_stats_release(&rows);
			goto out;
		}
		if (!rows.n)
			suspect(st, "a complete run has no values");
		store_matrix_builder_add_stats(&b, st, dir, &rows);
		reduce_stats_release(&rows);
	}
	if (rc != SQLITE_DONE) {
		db_error(st, err, "runs");
		goto out;
	}
	store_matrix_builder_finish(&b, m);
	ret = 0;
out:
	sqlite3_finalize(stmt);
	store_matrix_builder_release(&b);
	return ret;
}

static int sqlite_forget_group(struct store *st, int64_t group_id,
			       struct strbuf *err)
{
	static const char *const sql[] = {
		"DELETE FROM stat_values WHERE run_id IN"
		" (SELECT id FROM runs WHERE group_id = ?)",
		"DELETE FROM runs WHERE group_id = ?",
		"DELETE FROM params WHERE group_id = ?",
		"DELETE FROM groups WHERE id = ?",
	};
	sqlite3_stmt *stmt = NULL;
	size_t i;

	if (exec_sql(st, "BEGIN IMMEDIATE", err))
		return -1;
	for (i = 0; i < ARRAY_SIZE(sql); i++) {
		if (prepare(st, &stmt, sql[i], err))
			goto fail;
		sqlite3_bind_int64(stmt, 1, group_id);
		if (sqlite3_step(stmt) != SQLITE_DONE) {
			db_error(st, err, "forget group");
			goto fail;
		}
		sqlite3_finalize(stmt);
		stmt = NULL;
	}
	if (exec_sql(st, "COMMIT", err))
		goto fail;
	return 0;
fail:
	sqlite3_finalize(stmt);
	sqlite3_exec(db_of(st), "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

static void mark_row(struct store *st, sqlite3_stmt *stmt, void *out)
{
	(void)st;
	store_dir_mark_list_add(out, text_col(stmt, 0),
				sqlite3_column_int64(stmt, 1));
}

static int sqlite_dir_marks(struct store *st, struct store_dir_mark_list *out,
			    struct strbuf *err)
{
	/* each_row binds its id to a statement that takes none: harmless */
	return each_row(st, "SELECT dir, mtime_ns FROM dir_marks WHERE ?1 = ?1",
			0, mark_row, out, "dir marks", err);
}

static int sqlite_save_dir_marks(struct store *st,
				 const struct store_dir_mark_list *set,
				 const struct store_dir_mark_list *drop,
				 struct strbuf *err)
{
	sqlite3_stmt *ins = NULL, *del = NULL;
	size_t i;

	if (exec_sql(st, "BEGIN IMMEDIATE", err))
		return -1;
	if (prepare(st, &ins, "INSERT OR REPLACE INTO dir_marks (dir, mtime_ns)"
		    " VALUES (?, ?)", err) ||
	    prepare(st, &del, "DELETE FROM dir_marks WHERE dir = ?", err))
		goto fail;
	for (i = 0; i < set->n; i++) {
		sqlite3_reset(ins);
		bind_text(ins, 1, set->items[i].dir);
		sqlite3_bind_int64(ins, 2, set->items[i].mtime_ns);
		if (sqlite3_step(ins) != SQLITE_DONE) {
			db_error(st, err, "dir marks");
			goto fail;
		}
	}
	for (i = 0; i < drop->n; i++) {
		sqlite3_reset(del);
		bind_text(del, 1, drop->items[i].dir);
		if (sqlite3_step(del) != SQLITE_DONE) {
			db_error(st, err, "dir marks");
			goto fail;
		}
	}
	sqlite3_finalize(ins);
	sqlite3_finalize(del);
	ins = del = NULL;
	if (exec_sql(st, "COMMIT", err))
		goto fail;
	return 0;
fail:
	sqlite3_finalize(ins);
	sqlite3_finalize(del);
	sqlite3_exec(db_of(st), "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* the ids of the stat names (-1 for a name never indexed) */
static int name_ids(struct store *st, const char *const *names, size_t n,
		    int64_t *ids, struct strbuf *err)
{
	sqlite3_stmt *stmt = NULL;
	size_t i;

	if (prepare(st, &stmt, "SELECT id FROM stat_names WHERE name = ?", err))
		return -1;
	for (i = 0; i < n; i++) {
		int rc;

		sqlite3_reset(stmt);
		bind_text(stmt, 1, names[i]);
		rc = sqlite3_step(stmt);
		/* an error is not "never indexed" (a damaged index) */
		if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
			db_error(st, err, "stat names");
			sqlite3_finalize(stmt);
			return -1;
		}
		ids[i] = rc == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : -1;
	}
	sqlite3_finalize(stmt);
	return 0;
}

static int sqlite_stat_values(struct store *st, const int64_t *group_ids,
			      size_t ngroups, const char *const *names,
			      size_t nnames, store_value_fn fn, void *ctx,
			      struct strbuf *err)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *stmt = NULL;
	int64_t *ids = xcalloc(nnames, sizeof(*ids));
	size_t i, nid = 0;
	int rc, ret = -1;

	if (name_ids(st, names, nnames, ids, err))
		goto out;
	/*
	 * runs first (CROSS JOIN keeps that order): each complete run probes
	 * its values' primary key (run_id, stat_id) once per stat, instead
	 * of a scan over every value of the index
	 */
	strbuf_addstr(&sql, "SELECT r.group_id, r.number, r.indexed_at, v.stat_id,"
		      " v.value FROM runs r CROSS JOIN stat_values v"
		      " WHERE v.run_id = r.id AND r.complete AND v.stat_id IN (");
	for (i = 0; i < nnames; i++)
		if (ids[i] >= 0)
			strbuf_addf(&sql, "%s%" PRId64, nid++ ? "," : "", ids[i]);
	strbuf_addch(&sql, ')');
	if (!nid) {
		ret = 0;
		goto out;
	}
	if (group_ids) {
		strbuf_addstr(&sql, " AND r.group_id IN (");
		for (i = 0; i < ngroups; i++)
			strbuf_addf(&sql, "%s%" PRId64, i ? "," : "", group_ids[i]);
		strbuf_addch(&sql, ')');
	}
	if (prepare(st, &stmt, sql.buf, err))
		goto out;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		struct store_value v;
		int64_t sid = sqlite3_column_int64(stmt, 3);

		v.group_id = sqlite3_column_int64(stmt, 0);
		v.run = sqlite3_column_int(stmt, 1);
		v.time = sqlite3_column_int64(stmt, 2);
		v.value = sqlite3_column_double(stmt, 4);
		for (v.stat = 0; v.stat < nnames && ids[v.stat] != sid; v.stat++)
			;
		fn(ctx, &v);
	}
	if (rc != SQLITE_DONE) {
		db_error(st, err, "stat values");
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(stmt);
	strbuf_release(&sql);
	free(ids);
	return ret;
}

static int sqlite_group_rows(struct store *st, store_group_row_fn fn, void *ctx,
			     struct strbuf *err)
{
	sqlite3_stmt *stmt = NULL;
	int rc;

	if (prepare(st, &stmt, "SELECT id, dir, testcase, commit_id FROM groups"
		    " ORDER BY dir", err))
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
		fn(ctx, sqlite3_column_int64(stmt, 0), text_col(stmt, 1),
		   text_col(stmt, 2), text_col(stmt, 3));
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		return db_error(st, err, "groups");
	return 0;
}

static void name_row(struct store *st, sqlite3_stmt *stmt, void *out)
{
	struct store_name_list *l = out;

	(void)st;
	ALLOC_GROW(l->items, l->n + 1, l->alloc);
	l->items[l->n++] = xstrdup(text_col(stmt, 0));
}

static int sqlite_stat_names(struct store *st, const char *prefix,
			     struct store_name_list *out, struct strbuf *err)
{
	sqlite3_stmt *stmt = NULL;
	int rc;

	/* a range over the names' unique index: [prefix, prefix + U+10FFFF) */
	if (prepare(st, &stmt, "SELECT name FROM stat_names WHERE name >= ?1"
		    " AND substr(name, 1, length(?1)) = ?1 ORDER BY name", err))
		return -1;
	bind_text(stmt, 1, prefix);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
		name_row(st, stmt, out);
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		return db_error(st, err, "stat names");
	return 0;
}

const struct store_ops store_sqlite_ops = {
	.name = "sqlite",
	.open = sqlite_open,
	.close = sqlite_close,
	.index_run = sqlite_index_run,
	.find_groups = sqlite_find_groups,
	.group_params = sqlite_group_params,
	.group_runs = sqlite_group_runs,
	.load_matrix = sqlite_load_matrix,
	.run_stats = sqlite_run_stats,
	.forget_group = sqlite_forget_group,
	.dir_marks = sqlite_dir_marks,
	.save_dir_marks = sqlite_save_dir_marks,
	.stat_values = sqlite_stat_values,
	.group_rows = sqlite_group_rows,
	.stat_names = sqlite_stat_names,
};
