/*
 * sqlite.c: the SQLite store backend (see store.h): one database per
 * result root, WAL mode so readers never wait for the one writer, every
 * run indexed in one IMMEDIATE transaction (a second perfsift waits on the
 * busy timeout instead of failing).  Directories are kept relative to the
 * result root, so a root can be moved or copied with its index.  The
 * queries are sqlite_read.c.
 */
#include "util/compat.h"
#include <errno.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include "result/matrix.h"
#include "result/reduce.h"
#include "store/sqlite_internal.h"
#include "store/store.h"
#include "result/unite.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define SCHEMA_VERSION 4
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
	"  mtime_ns INTEGER NOT NULL) WITHOUT ROWID;"
	/* noise floors of A/A calibrations (result/floor.h), per series:
	 * the group directory without its commit */
	"CREATE TABLE IF NOT EXISTS noise_floors ("
	"  series TEXT PRIMARY KEY,"
	"  machine TEXT NOT NULL, commit_id TEXT NOT NULL,"
	"  calibrated_at INTEGER NOT NULL, runs INTEGER NOT NULL) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS noise_floor_stats ("
	"  series TEXT NOT NULL, name TEXT NOT NULL, pct REAL NOT NULL,"
	"  PRIMARY KEY (series, name)) WITHOUT ROWID;";

/* PRAGMA application_id of a perfsift index: "PSFT" */
#define APPLICATION_ID 0x50534654

/* the connection of a SQLite store (store.h's st->priv) */
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

/*
 * Below this much room, an I/O error of the index is taken for a full
 * file system: SQLite grows its -shm by 32 KiB and writes 64 KiB pages.
 */
#define FULL_FREE_BYTES (1024 * 1024)

/*
 * On a full disk SQLite says only "disk I/O error" (it cannot grow
 * perfsift.db-shm), even to a reading command: when the failure is an
 * I/O error, a full one or a file not opened, and the index's file
 * system has (almost) no room or no inode left -- or the system call
 * said ENOSPC -- append what is wrong and what to do (the third
 * attack, L9).  db may be NULL (the open itself failed).
 */
static void full_hint(const char *path, sqlite3 *db, int rc,
		      struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT;
	struct statvfs sv;
	unsigned long long room;
	bool enospc = db && sqlite3_system_errno(db) == ENOSPC;

	rc &= 0xff;
	if (rc != SQLITE_IOERR && rc != SQLITE_FULL && rc != SQLITE_CANTOPEN)
		return;
	path_dirname(&dir, path);
	if (statvfs(dir.buf, &sv) < 0)
		goto out;
	room = (unsigned long long)sv.f_bavail * sv.f_frsize;
	if (!enospc && room >= FULL_FREE_BYTES && sv.f_favail)
		goto out;
	strbuf_addf(err, " (the file system of '%s' is full: ", dir.buf);
	if (sv.f_favail || !sv.f_files)
		strbuf_addf(err, "%llu KiB free", room / 1024);
	else
		strbuf_addstr(err, "no inode free");
	strbuf_addstr(err, "; perfsift writes its index even to read it, "
		      "SQLite's write-ahead log: free some space there, or move "
		      "the result root to a larger file system, and run the "
		      "command again)");
out:
	strbuf_release(&dir);
}

/* damage first: an error from a damaged file must not read as a miss */
int sq_error(struct store *st, struct strbuf *err, const char *what)
{
	int rc = sqlite3_extended_errcode(db_of(st));

	check_corrupt(st, rc);
	strbuf_addf(err, "index: %s: %s", what, sqlite3_errmsg(db_of(st)));
	full_hint(((struct sqlite_priv *)st->priv)->path, db_of(st), rc, err);
	return -1;
}

/* statements without parameters or rows (BEGIN, COMMIT, the schema) */
static int exec_sql(struct store *st, const char *sql, struct strbuf *err)
{
	char *msg = NULL;
	int rc = sqlite3_exec(db_of(st), sql, NULL, NULL, &msg);

	if (rc != SQLITE_OK) {
		check_corrupt(st, rc);
		strbuf_addf(err, "index: %s", msg ? msg : "sqlite3_exec failed");
		full_hint(((struct sqlite_priv *)st->priv)->path, db_of(st),
			  sqlite3_extended_errcode(db_of(st)), err);
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

/*
 * A read came back looking wrong (a run's packed stats unreadable, a
 * complete run without values): ask SQLite whether the file is damaged.
 */
void sq_suspect(struct store *st, const char *what)
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

int sq_prepare(struct store *st, sqlite3_stmt **stmt, const char *sql,
	       struct strbuf *err)
{
	if (sqlite3_prepare_v2(db_of(st), sql, -1, stmt, NULL) != SQLITE_OK)
		return sq_error(st, err, "prepare");
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

enum store_sqlite_owner store_sqlite_owner(const char *path, struct strbuf *why)
{
	static const char magic[16] = "SQLite format 3";
	struct strbuf err = STRBUF_INIT;
	unsigned char h[100];
	struct stat sb;
	ssize_t n;
	int fd;

	if (stat(path, &sb) < 0 && errno == ENOENT)
		return STORE_SQLITE_NONE;
	/* a FIFO or a device is no index: never opened to block or read on */
	fd = open_regular(path, &err);
	if (fd < 0) {
		int saved = errno;

		strbuf_release(&err);
		strbuf_addstr(why, !stat(path, &sb) && !S_ISREG(sb.st_mode) ?
			      file_kind(sb.st_mode) : strerror(saved));
		return STORE_SQLITE_NOT_DB;
	}
	strbuf_release(&err);
	n = read(fd, h, sizeof(h));
	close(fd);
	if (n == 0)
		return STORE_SQLITE_NONE;
	if (n < (ssize_t)sizeof(h) || memcmp(h, magic, sizeof(magic))) {
		strbuf_addstr(why, n < 0 ? strerror(errno) :
			      "a file that is no SQLite database");
		return STORE_SQLITE_NOT_DB;
	}
	return ((uint32_t)h[68] << 24 | (uint32_t)h[69] << 16 |
		(uint32_t)h[70] << 8 | h[71]) == APPLICATION_ID ?
		STORE_SQLITE_OURS : STORE_SQLITE_OTHER;
}

/*
 * Whether this user may write the index file and its directory, which
 * even a reading command needs: SQLite's write-ahead log (-wal, -shm
 * beside the file) is written by readers too, and the index is repaired
 * from the result root whenever it lags behind it.  When not, err says
 * what to do instead of SQLite's "attempt to write a readonly database"
 * (issue 25, F15).
 */
static bool index_writable(const char *location, struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT;
	struct stat sb;
	bool ok;

	path_dirname(&dir, location);
	ok = !access(location, W_OK) && !access(dir.buf, W_OK | X_OK);
	if (!ok && (errno == EACCES || errno == EPERM || errno == EROFS)) {
		bool ro = errno == EROFS;

		strbuf_addf(err, "'%s' is not writable by this user (uid %ld)%s, "
			    "and perfsift writes its index even to read it "
			    "(SQLite's write-ahead log, the index's repair): ",
			    location, (long)geteuid(),
			    ro ? " (a read-only file system)" : "");
		if (!stat(location, &sb) && !ro)
			strbuf_addf(err, "run the command as its owner (uid %ld), "
				    "give this user write access to the index "
				    "and its directory (a shared group: chgrp "
				    "-R GROUP and chmod -R g+w the result root), "
				    "or read a copy of the result root",
				    (long)sb.st_uid);
		else
			strbuf_addstr(err, "read a copy of the result root on a "
				      "writable file system");
	} else {
		ok = true; /* another trouble: SQLite's own message says it */
	}
	strbuf_release(&dir);
	return ok;
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
	if (flags & STORE_NAMED) {
		struct strbuf why = STRBUF_INIT;

		/*
		 * A file the user named that is no database is refused as it
		 * is: SQLite would call it damaged, and stats --all would move
		 * it aside (the fourth attack, L13)
		 */
		if (store_sqlite_owner(location, &why) == STORE_SQLITE_NOT_DB)
			store_not_ours(location, why.buf);
		strbuf_release(&why);
	}
	if (!(flags & STORE_CREATE) && access(location, F_OK) < 0 &&
	    errno == ENOENT)
		memory = true; /* nothing indexed yet: an empty store */
	if (!memory && !index_writable(location, err))
		goto fail;
	rc = sqlite3_open_v2(memory ? ":memory:" : location, &p->db,
			     SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			     SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		strbuf_addf(err, "cannot open index '%s': %s", location,
			    p->db ? sqlite3_errmsg(p->db) : sqlite3_errstr(rc));
		full_hint(location, p->db, rc, err);
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
	if (sq_prepare(st, &stmt, "SELECT (SELECT application_id FROM pragma_application_id),"
		       " (SELECT user_version FROM pragma_user_version),"
		       " (SELECT count(*) FROM sqlite_master),"
		       " (SELECT count(*) FROM sqlite_master WHERE name = 'runs')", err))
		goto fail;
	rc = sqlite3_step(stmt);
	if (rc != SQLITE_ROW) {
		sq_error(st, err, "schema");
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
		 * 2 -> 3: dir_marks; 3 -> 4: noise_floors and
		 * noise_floor_stats (the schema's IF NOT EXISTS makes them) */
		strbuf_addf(&sql, "BEGIN IMMEDIATE;%s%sPRAGMA user_version=%d;"
			    "PRAGMA application_id=%d;COMMIT;",
			    version == 1 ? "ALTER TABLE runs ADD COLUMN stats BLOB;" : "",
			    schema, SCHEMA_VERSION, APPLICATION_ID);
		r = exec_sql(st, sql.buf, err);
		strbuf_release(&sql);
		if (r) {
			/* its own error would be glued to the first ("...is
			 * fullindex: cannot rollback"): the first is the news */
			sqlite3_exec(p->db, "ROLLBACK", NULL, NULL, NULL);
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

/* copied (SQLITE_TRANSIENT): the caller's string may go before the step */
void sq_bind(sqlite3_stmt *stmt, int i, const char *s)
{
	sqlite3_bind_text(stmt, i, s ? s : "", -1, SQLITE_TRANSIENT);
}

/*
 * The group's row, updated in place when its directory is known: its id
 * stays, and with it the runs that point at it.  The id, or -1.
 */
static int64_t upsert_group(struct store *st, const struct store_index *ix,
			    struct strbuf *err)
{
	sqlite3_stmt *stmt = NULL;
	int64_t id = -1;
	int a;

	if (sq_prepare(st, &stmt,
		       "INSERT INTO groups (dir, testcase, path_params, tbox_group,"
		       " rootfs, kconfig, compiler, commit_id)"
		       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
		       " ON CONFLICT (dir) DO UPDATE SET testcase = ?2,"
		       " path_params = ?3, tbox_group = ?4, rootfs = ?5,"
		       " kconfig = ?6, compiler = ?7, commit_id = ?8"
		       " RETURNING id", err))
		return -1;
	sq_bind(stmt, 1, ix->group_rel);
	for (a = 0; a < STORE_NAXES; a++)
		sq_bind(stmt, a + 2, ix->rec->axes[a]);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		id = sqlite3_column_int64(stmt, 0);
	else
		sq_error(st, err, "group");
	sqlite3_finalize(stmt);
	return id;
}

/* the group's parameters, replaced whole by the run's (the newest wins) */
static int put_params(struct store *st, int64_t gid,
		      const struct store_index *ix, struct strbuf *err)
{
	sqlite3_stmt *del = NULL, *ins = NULL;
	size_t i;
	int ret = -1;

	if (sq_prepare(st, &del, "DELETE FROM params WHERE group_id = ?", err) ||
	    sq_prepare(st, &ins, "INSERT INTO params (group_id, key, value, kind)"
		       " VALUES (?, ?, ?, ?)", err))
		goto out;
	sqlite3_bind_int64(del, 1, gid);
	if (sqlite3_step(del) != SQLITE_DONE) {
		sq_error(st, err, "params");
		goto out;
	}
	for (i = 0; i < ix->nparams; i++) {
		sqlite3_reset(ins);
		sqlite3_bind_int64(ins, 1, gid);
		sq_bind(ins, 2, ix->params[i].key);
		sq_bind(ins, 3, ix->params[i].value);
		sqlite3_bind_int(ins, 4, (int)ix->params[i].kind);
		if (sqlite3_step(ins) != SQLITE_DONE) {
			sq_error(st, err, "params");
			goto out;
		}
	}
	ret = 0;
out:
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
	return ret;
}

/*
 * The group's runs matching `where` (over runs; ?2 is number), values
 * first: no value is ever left without its run.
 */
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
		if (sq_prepare(st, &stmt, sql.buf, err))
			goto out;
		sqlite3_bind_int64(stmt, 1, gid);
		if (strstr(where, "?2"))
			sqlite3_bind_int(stmt, 2, number);
		if (sqlite3_step(stmt) != SQLITE_DONE) {
			sq_error(st, err, "delete runs");
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

/*
 * The run's values by stat id: each name once in stat_names, so that a
 * name shared by many runs is stored once, and a value row is two
 * integers and a number, keyed (run_id, stat_id).
 */
static int put_values(struct store *st, int64_t run_id,
		      const struct reduce_stats *stats, struct strbuf *err)
{
	sqlite3_stmt *name = NULL, *id = NULL, *val = NULL;
	size_t i;
	int ret = -1;

	if (sq_prepare(st, &name, "INSERT OR IGNORE INTO stat_names (name) VALUES (?)",
		       err) ||
	    sq_prepare(st, &id, "SELECT id FROM stat_names WHERE name = ?", err) ||
	    sq_prepare(st, &val, "INSERT OR REPLACE INTO stat_values"
		       " (run_id, stat_id, value, is_int) VALUES (?, ?, ?, ?)", err))
		goto out;
	for (i = 0; stats && i < stats->n; i++) {
		const struct reduce_stat *s = &stats->items[i];
		int64_t sid;

		sqlite3_reset(name);
		sq_bind(name, 1, s->name);
		if (sqlite3_step(name) != SQLITE_DONE) {
			sq_error(st, err, "stat names");
			goto out;
		}
		sqlite3_reset(id);
		sq_bind(id, 1, s->name);
		if (sqlite3_step(id) != SQLITE_ROW) {
			sq_error(st, err, "stat names");
			goto out;
		}
		sid = sqlite3_column_int64(id, 0);
		sqlite3_reset(val);
		sqlite3_bind_int64(val, 1, run_id);
		sqlite3_bind_int64(val, 2, sid);
		sqlite3_bind_double(val, 3, s->value);
		sqlite3_bind_int(val, 4, s->is_int);
		if (sqlite3_step(val) != SQLITE_DONE) {
			sq_error(st, err, "stat values");
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

/* the group's runs no longer on disk (not in rec->present_runs) forgotten */
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

/*
 * One run in one IMMEDIATE transaction: the write lock is taken at
 * BEGIN, so a second writer waits on the busy timeout there instead of
 * failing half-way with SQLITE_BUSY.
 */
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
	if (sq_prepare(st, &stmt, "INSERT INTO runs (group_id, number, complete, dir,"
		       " indexed_at, stats) VALUES (?, ?, ?, ?, strftime('%s', 'now'),"
		       " ?) RETURNING id", err))
		goto fail;
	sqlite3_bind_int64(stmt, 1, gid);
	sqlite3_bind_int(stmt, 2, rec->number);
	sqlite3_bind_int(stmt, 3, rec->complete);
	sq_bind(stmt, 4, ix->run_rel);
	sqlite3_bind_blob64(stmt, 5, ix->blob, ix->blob_len, SQLITE_TRANSIENT);
	if (sqlite3_step(stmt) != SQLITE_ROW) {
		sq_error(st, err, "run");
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

/* a group and everything under it, children first, in one transaction */
static int sqlite_forget_group(struct store *st, int64_t group_id,
			       struct strbuf *err)
{
	/* one literal in parentheses: not a missing comma (clang's
	 * -Wstring-concatenation) */
	static const char *const sql[] = {
		("DELETE FROM stat_values WHERE run_id IN"
		 " (SELECT id FROM runs WHERE group_id = ?)"),
		"DELETE FROM runs WHERE group_id = ?",
		"DELETE FROM params WHERE group_id = ?",
		"DELETE FROM groups WHERE id = ?",
	};
	sqlite3_stmt *stmt = NULL;
	size_t i;

	if (exec_sql(st, "BEGIN IMMEDIATE", err))
		return -1;
	for (i = 0; i < ARRAY_SIZE(sql); i++) {
		if (sq_prepare(st, &stmt, sql[i], err))
			goto fail;
		sqlite3_bind_int64(stmt, 1, group_id);
		if (sqlite3_step(stmt) != SQLITE_DONE) {
			sq_error(st, err, "forget group");
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

/* the sync's directory marks (store.h): set and dropped in one transaction */
static int sqlite_save_dir_marks(struct store *st,
				 const struct store_dir_mark_list *set,
				 const struct store_dir_mark_list *drop,
				 struct strbuf *err)
{
	sqlite3_stmt *ins = NULL, *del = NULL;
	size_t i;

	if (exec_sql(st, "BEGIN IMMEDIATE", err))
		return -1;
	if (sq_prepare(st, &ins, "INSERT OR REPLACE INTO dir_marks (dir, mtime_ns)"
		       " VALUES (?, ?)", err) ||
	    sq_prepare(st, &del, "DELETE FROM dir_marks WHERE dir = ?", err))
		goto fail;
	for (i = 0; i < set->n; i++) {
		sqlite3_reset(ins);
		sq_bind(ins, 1, set->items[i].dir);
		sqlite3_bind_int64(ins, 2, set->items[i].mtime_ns);
		if (sqlite3_step(ins) != SQLITE_DONE) {
			sq_error(st, err, "dir marks");
			goto fail;
		}
	}
	for (i = 0; i < drop->n; i++) {
		sqlite3_reset(del);
		sq_bind(del, 1, drop->items[i].dir);
		if (sqlite3_step(del) != SQLITE_DONE) {
			sq_error(st, err, "dir marks");
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
	.put_floor = sqlite_put_floor,
	.get_floor = sqlite_get_floor,
};

