/*
 * sqlite_floor.c: the SQLite backend's noise floors (store.h's put_floor
 * and get_floor; result/floor.h): one row per series in noise_floors,
 * one per stat in noise_floor_stats, replaced whole in one IMMEDIATE
 * transaction so that a calibration killed half-way leaves the old floor
 * as it was, and a compare never reads half of a new one.
 */
#include "util/compat.h"
#include <sqlite3.h>
#include <stdlib.h>
#include "result/floor.h"
#include "store/sqlite_internal.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* the connection (sqlite.c's own helper is static to it) */
static sqlite3 *db_of(struct store *st)
{
	return ((struct sqlite_priv *)st->priv)->db;
}

/* BEGIN, COMMIT: no parameters, no rows */
static int exec_plain(struct store *st, const char *sql, struct strbuf *err)
{
	if (sqlite3_exec(db_of(st), sql, NULL, NULL, NULL) != SQLITE_OK)
		return sq_error(st, err, sql);
	return 0;
}

/*
 * The series' rows gone, from both tables, stats first: inside the
 * caller's transaction, so a reader never sees a head without its stats.
 */
static int delete_floor(struct store *st, const char *series,
			struct strbuf *err)
{
	static const char *const sql[] = {
		"DELETE FROM noise_floor_stats WHERE series = ?",
		"DELETE FROM noise_floors WHERE series = ?",
	};
	sqlite3_stmt *stmt = NULL;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sql); i++) {
		if (sq_prepare(st, &stmt, sql[i], err))
			return -1;
		sq_bind(stmt, 1, series);
		if (sqlite3_step(stmt) != SQLITE_DONE) {
			sqlite3_finalize(stmt);
			return sq_error(st, err, "noise floor");
		}
		sqlite3_finalize(stmt);
	}
	return 0;
}

/* the floor's head row and its stats' rows */
static int insert_floor(struct store *st, const struct noise_floor *f,
			struct strbuf *err)
{
	sqlite3_stmt *head = NULL, *stat = NULL;
	size_t i;
	int ret = -1;

	if (sq_prepare(st, &head, "INSERT INTO noise_floors (series, machine,"
		       " commit_id, calibrated_at, runs) VALUES (?, ?, ?, ?, ?)",
		       err) ||
	    sq_prepare(st, &stat, "INSERT INTO noise_floor_stats (series, name,"
		       " pct) VALUES (?, ?, ?)", err))
		goto out;
	sq_bind(head, 1, f->series);
	sq_bind(head, 2, f->machine);
	sq_bind(head, 3, f->commit);
	sqlite3_bind_int64(head, 4, f->calibrated_at);
	sqlite3_bind_int(head, 5, f->runs);
	if (sqlite3_step(head) != SQLITE_DONE) {
		sq_error(st, err, "noise floor");
		goto out;
	}
	/* one prepared statement for every stat: 50,000 rows in one go */
	for (i = 0; i < f->n; i++) {
		sqlite3_reset(stat);
		sq_bind(stat, 1, f->series);
		sq_bind(stat, 2, f->items[i].name);
		sqlite3_bind_double(stat, 3, f->items[i].pct);
		if (sqlite3_step(stat) != SQLITE_DONE) {
			sq_error(st, err, "noise floor stats");
			goto out;
		}
	}
	ret = 0;
out:
	sqlite3_finalize(head);
	sqlite3_finalize(stat);
	return ret;
}

/*
 * IMMEDIATE: the write lock at BEGIN, so a second writer (another
 * calibrate, a run being indexed) waits on the busy timeout instead of
 * failing half-way; the ROLLBACK leaves the old floor as it was.
 */
int sqlite_put_floor(struct store *st, const struct noise_floor *f,
		     struct strbuf *err)
{
	if (exec_plain(st, "BEGIN IMMEDIATE", err))
		return -1;
	if (delete_floor(st, f->series, err) || insert_floor(st, f, err) ||
	    exec_plain(st, "COMMIT", err)) {
		sqlite3_exec(db_of(st), "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return 0;
}

/* the stats of the series' floor, appended to out (sorted by the query) */
static int read_floor_stats(struct store *st, const char *series,
			    struct noise_floor *out, struct strbuf *err)
{
	sqlite3_stmt *stmt = NULL;
	int rc;

	if (sq_prepare(st, &stmt, "SELECT name, pct FROM noise_floor_stats"
		       " WHERE series = ? ORDER BY name", err))
		return -1;
	sq_bind(stmt, 1, series);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
		noise_floor_add(out, (const char *)sqlite3_column_text(stmt, 0),
				sqlite3_column_double(stmt, 1));
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		return sq_error(st, err, "noise floor stats");
	/* ORDER BY name is SQLite's BINARY collation: strcmp's order */
	return 0;
}

/* the head row of the series' floor, when there is one */
static int read_floor_head(struct store *st, const char *series,
			   struct noise_floor *out, bool *found,
			   struct strbuf *err)
{
	sqlite3_stmt *stmt = NULL;
	int rc;

	if (sq_prepare(st, &stmt, "SELECT machine, commit_id, calibrated_at, runs"
		       " FROM noise_floors WHERE series = ?", err))
		return -1;
	sq_bind(stmt, 1, series);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		out->series = xstrdup(series);
		out->machine = xstrdup((const char *)sqlite3_column_text(stmt, 0));
		out->commit = xstrdup((const char *)sqlite3_column_text(stmt, 1));
		out->calibrated_at = sqlite3_column_int64(stmt, 2);
		out->runs = sqlite3_column_int(stmt, 3);
		*found = true;
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return sq_error(st, err, "noise floor");
	return 0;
}

int sqlite_get_floor(struct store *st, const char *series,
		     struct noise_floor *out, bool *found, struct strbuf *err)
{
	/* both reads in one snapshot: a put between them is not seen half */
	if (exec_plain(st, "BEGIN", err))
		return -1;
	if (read_floor_head(st, series, out, found, err) ||
	    (*found && read_floor_stats(st, series, out, err))) {
		sqlite3_exec(db_of(st), "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return exec_plain(st, "COMMIT", err);
}
