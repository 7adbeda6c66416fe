/*
 * sqlite_read.c: the SQLite backend's queries (see store.h): groups by
 * selector, a group's parameters and runs, a run's stats, a group's
 * matrix and the values of named stats across groups.  Every query
 * checks for SQLITE_DONE after its rows, so that an error half-way is
 * an error and never a shorter answer (a compare with rows missing
 * would say "no regression").
 */
#include "util/compat.h"
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include "result/matrix.h"
#include "result/reduce.h"
#include "store/sqlite_internal.h"
#include "store/store.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* the groups query: a WHERE clause per selector kind, bound by the caller */
static const char group_cols[] =
	"SELECT g.id, g.dir, g.testcase, g.path_params, g.tbox_group, g.rootfs,"
	" g.kconfig, g.compiler, g.commit_id,"
	" (SELECT count(*) FROM runs r WHERE r.group_id = g.id AND r.complete),"
	" (SELECT count(*) FROM runs r WHERE r.group_id = g.id AND NOT r.complete)"
	" FROM groups g";

/* the rows of a prepared groups query (group_cols) into out */
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
		return sq_error(st, err, "groups");
	return 0;
}

int sqlite_find_groups(struct store *st, const struct store_selector *sel,
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
	if (sq_prepare(st, &stmt, sql.buf, err))
		goto out;
	if (sel->kind == STORE_SEL_DIR) {
		/* a run directory <group>/<digits> names its group */
		char *parent = store_selector_run_group(sel);

		sq_bind(stmt, 1, sel->dir);
		sq_bind(stmt, 2, parent ? parent : "");
		free(parent);
	} else if (sel->kind == STORE_SEL_PARAMS) {
		for (i = 0; i < sel->nkv; i++) {
			sq_bind(stmt, (int)(2 * i + 1), sel->kv[i].key);
			sq_bind(stmt, (int)(2 * i + 2), sel->kv[i].value);
		}
	} else if (sel->kind == STORE_SEL_COMMIT) {
		sq_bind(stmt, 1, sel->commit);
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
	if (sq_prepare(st, stmt, sql, err))
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
		return sq_error(st, err, what);
	return 0;
}

/* a text column; SQLite's unsigned char * as the char * C wants */
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

int sqlite_group_params(struct store *st, int64_t group_id,
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

int sqlite_group_runs(struct store *st, int64_t group_id,
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
int sqlite_run_stats(struct store *st, int64_t run_id,
		     struct reduce_stats *out, struct strbuf *err)
{
	return each_row(st, "SELECT n.name, v.value, v.is_int"
			" FROM stat_values v JOIN stat_names n ON n.id = v.stat_id"
			" WHERE v.run_id = ? ORDER BY n.name", run_id, stat_row,
			out, "stat values", err);
}

/*
 * A group's matrix from its complete runs' packed stats, one blob a run;
 * a run indexed before the blobs existed is read from its rows instead.
 */
int sqlite_load_matrix(struct store *st, int64_t group_id,
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
			sq_suspect(st, "a run's packed stats do not unpack");
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
			sq_suspect(st, "a complete run has no values");
		store_matrix_builder_add_stats(&b, st, dir, &rows);
		reduce_stats_release(&rows);
	}
	if (rc != SQLITE_DONE) {
		sq_error(st, err, "runs");
		goto out;
	}
	store_matrix_builder_finish(&b, m);
	ret = 0;
out:
	sqlite3_finalize(stmt);
	store_matrix_builder_release(&b);
	return ret;
}

/* the ids of the stat names (-1 for a name never indexed) */
static int name_ids(struct store *st, const char *const *names, size_t n,
		    int64_t *ids, struct strbuf *err)
{
	sqlite3_stmt *stmt = NULL;
	size_t i;

	if (sq_prepare(st, &stmt, "SELECT id FROM stat_names WHERE name = ?", err))
		return -1;
	for (i = 0; i < n; i++) {
		int rc;

		sqlite3_reset(stmt);
		sq_bind(stmt, 1, names[i]);
		rc = sqlite3_step(stmt);
		/* an error is not "never indexed" (a damaged index) */
		if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
			sq_error(st, err, "stat names");
			sqlite3_finalize(stmt);
			return -1;
		}
		ids[i] = rc == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : -1;
	}
	sqlite3_finalize(stmt);
	return 0;
}

int sqlite_stat_values(struct store *st, const int64_t *group_ids,
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
	if (sq_prepare(st, &stmt, sql.buf, err))
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
		sq_error(st, err, "stat values");
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(stmt);
	strbuf_release(&sql);
	free(ids);
	return ret;
}

/* every group without counting its runs: history reads 500,000 of them */
int sqlite_group_rows(struct store *st, store_group_row_fn fn, void *ctx,
		      struct strbuf *err)
{
	sqlite3_stmt *stmt = NULL;
	int rc;

	if (sq_prepare(st, &stmt, "SELECT id, dir, testcase, commit_id FROM groups"
		       " ORDER BY dir", err))
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
		fn(ctx, sqlite3_column_int64(stmt, 0), text_col(stmt, 1),
		   text_col(stmt, 2), text_col(stmt, 3));
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		return sq_error(st, err, "groups");
	return 0;
}

static void name_row(struct store *st, sqlite3_stmt *stmt, void *out)
{
	struct store_name_list *l = out;

	(void)st;
	ALLOC_GROW(l->items, l->n + 1, l->alloc);
	l->items[l->n++] = xstrdup(text_col(stmt, 0));
}

int sqlite_stat_names(struct store *st, const char *prefix,
		      struct store_name_list *out, struct strbuf *err)
{
	sqlite3_stmt *stmt = NULL;
	int rc;

	/* a range over the names' unique index: [prefix, prefix + U+10FFFF) */
	if (sq_prepare(st, &stmt, "SELECT name FROM stat_names WHERE name >= ?1"
		       " AND substr(name, 1, length(?1)) = ?1 ORDER BY name", err))
		return -1;
	sq_bind(stmt, 1, prefix);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
		name_row(st, stmt, out);
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		return sq_error(st, err, "stat names");
	return 0;
}

static void mark_row(struct store *st, sqlite3_stmt *stmt, void *out)
{
	(void)st;
	store_dir_mark_list_add(out, text_col(stmt, 0),
				sqlite3_column_int64(stmt, 1));
}

int sqlite_dir_marks(struct store *st, struct store_dir_mark_list *out,
		     struct strbuf *err)
{
	/* each_row binds its id to a statement that takes none: harmless */
	return each_row(st, "SELECT dir, mtime_ns FROM dir_marks WHERE ?1 = ?1",
			0, mark_row, out, "dir marks", err);
}
