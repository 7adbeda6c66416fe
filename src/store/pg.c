/*
 * pg.c: the PostgreSQL store backend (see store.h), for a lab whose test
 * boxes share one result root and one index: `--store postgresql://...`
 * (or PERFSIFT_STORE).  The same tables as the SQLite backend; each run is
 * indexed in one transaction, its values sent as arrays (unnest) rather
 * than one statement per value, so a run of 50,000 stats is a handful of
 * round trips.  No foreign keys (as in SQLite, which does not enforce
 * them by default): every write is a transaction of perfsift's that keeps
 * the tables consistent, and 100,000 key checks a run cost seconds.
 * Built when libpq is found (HAVE_LIBPQ).
 */
#include "util/compat.h"
#include <limits.h>

#ifdef HAVE_LIBPQ
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "result/floor.h"
#include "result/matrix.h"
#include "result/reduce.h"
#include "store/pq_lazy.h"
#include "store/store.h"
#include "result/unite.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/trust.h"
#include "util/xalloc.h"

#define SCHEMA_VERSION "3"

/* schema 3: the noise floors (result/floor.h), per series */
#define FLOOR_SCHEMA \
	"CREATE TABLE IF NOT EXISTS noise_floors (" \
	"  series TEXT PRIMARY KEY, machine TEXT NOT NULL," \
	"  commit_id TEXT NOT NULL, calibrated_at BIGINT NOT NULL," \
	"  runs INTEGER NOT NULL);" \
	"CREATE TABLE IF NOT EXISTS noise_floor_stats (" \
	"  series TEXT NOT NULL, name TEXT NOT NULL," \
	"  pct DOUBLE PRECISION NOT NULL, PRIMARY KEY (series, name));"

/*
 * The tables, as the SQLite backend's (store/sqlite.c), so that the two
 * answer every query the same way.  groups.dir is the identity (a result
 * path below the root) and is UNIQUE, so two boxes indexing the same new
 * group at once make one row; stat names have their own table because a
 * name is shared by every run that has it, so stat_values holds a number
 * per value rather than the text.
 * runs.stats is the packed blob (store.c) a matrix is loaded from in one
 * row per run; stat_values is what queries by stat (history) read.
 */
static const char schema[] =
	"CREATE TABLE IF NOT EXISTS perfsift_meta ("
	"  key TEXT PRIMARY KEY, value TEXT NOT NULL);"
	"CREATE TABLE IF NOT EXISTS groups ("
	"  id BIGSERIAL PRIMARY KEY,"
	"  dir TEXT NOT NULL UNIQUE,"
	"  testcase TEXT NOT NULL, path_params TEXT NOT NULL,"
	"  tbox_group TEXT NOT NULL, rootfs TEXT NOT NULL,"
	"  kconfig TEXT NOT NULL, compiler TEXT NOT NULL,"
	"  commit_id TEXT NOT NULL);"
	"CREATE INDEX IF NOT EXISTS groups_commit ON groups(commit_id);"
	"CREATE TABLE IF NOT EXISTS params ("
	"  group_id BIGINT NOT NULL,"
	"  key TEXT NOT NULL, value TEXT NOT NULL, kind INTEGER NOT NULL,"
	"  PRIMARY KEY (group_id, key));"
	"CREATE INDEX IF NOT EXISTS params_kv ON params(key, value);"
	"CREATE TABLE IF NOT EXISTS runs ("
	"  id BIGSERIAL PRIMARY KEY,"
	"  group_id BIGINT NOT NULL,"
	"  number INTEGER NOT NULL, complete INTEGER NOT NULL,"
	"  dir TEXT NOT NULL, indexed_at BIGINT NOT NULL, stats BYTEA,"
	"  UNIQUE (group_id, number));"
	"CREATE TABLE IF NOT EXISTS stat_names ("
	"  id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL UNIQUE);"
	"CREATE TABLE IF NOT EXISTS stat_values ("
	"  run_id BIGINT NOT NULL,"
	"  stat_id BIGINT NOT NULL,"
	"  value DOUBLE PRECISION NOT NULL, is_int SMALLINT NOT NULL,"
	"  PRIMARY KEY (run_id, stat_id));"
	FLOOR_SCHEMA;

static PGconn *conn_of(struct store *st)
{
	return st->priv;
}

/*
 * Run one statement with text parameters (NULL entries are SQL NULL);
 * the result, or NULL with err.  `binary` asks for binary results.
 */
static PGresult *run(struct store *st, const char *sql, int n,
		     const char *const *params, bool binary, struct strbuf *err)
{
	/* the simple protocol takes several statements (the schema) */
	PGresult *res = !n && !binary ? PQexec(conn_of(st), sql) :
		PQexecParams(conn_of(st), sql, n, NULL, params, NULL, NULL,
			     binary);
	ExecStatusType s = PQresultStatus(res);

	if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK)
		return res;
	strbuf_addf(err, "index: %s", PQresultErrorMessage(res));
	strbuf_rtrim(err);
	PQclear(res);
	return NULL;
}

static int run_ok(struct store *st, const char *sql, int n,
		  const char *const *params, struct strbuf *err)
{
	PGresult *res = run(st, sql, n, params, false, err);

	PQclear(res);
	return res ? 0 : -1;
}

/* a text[] literal: {"a","b\"c"} */
static void add_array_str(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, sb->len ? ',' : '{');
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, '"');
}

static void end_array(struct strbuf *sb)
{
	if (!sb->len)
		strbuf_addch(sb, '{');
	strbuf_addch(sb, '}');
}

/*
 * Connect, then make or check the schema under one advisory lock (the
 * same number the lab's tables take, lab/schema.c), because two workers
 * starting on a fresh database would otherwise both see no tables and
 * both create them.  A schema this perfsift does not know is refused
 * rather than written to: a newer perfsift may have changed what a
 * column means.  2 -> 3 only adds the floors' tables, so it is done here.
 */
static int pg_open(struct store *st, const char *location, unsigned flags,
		   struct strbuf *err)
{
	PGconn *c;
	PGresult *res;
	const char *v;

	if (pq_lazy_load(err) < 0)
		return -1;
	c = PQconnectdb(location);
	st->priv = c;
	if (PQstatus(c) != CONNECTION_OK) {
		struct strbuf why = STRBUF_INIT;

		/*
		 * a password in the URL is never printed (util/trust.h), nor
		 * through libpq's message, which quotes a URI it cannot parse
		 * whole ("[::1" with no "]")
		 */
		strbuf_addstr(&why, PQerrorMessage(c));
		trust_redact_text(&why, location);
		strbuf_addf(err, "cannot connect to '%s': %s",
			    trust_redacted(location), why.buf);
		strbuf_release(&why);
		strbuf_rtrim(err);
		goto fail;
	}
	res = PQexec(c, "SET client_min_messages = warning");
	PQclear(res);
	/* one creator at a time: CREATE ... IF NOT EXISTS is not atomic */
	if (run_ok(st, "BEGIN", 0, NULL, err) ||
	    run_ok(st, "SELECT pg_advisory_xact_lock(7234151)", 0, NULL, err))
		goto fail_tx;
	res = run(st, "SELECT to_regclass('perfsift_meta') IS NOT NULL", 0, NULL,
		  false, err);
	if (!res)
		goto fail_tx;
	v = PQgetvalue(res, 0, 0);
	/*
	 * A lab's database is perfsift's own: the tables are made on first
	 * use, by readers too (flags does not matter here).
	 */
	(void)flags;
	if (strcmp(v, "t")) {
		PQclear(res);
		if (run_ok(st, schema, 0, NULL, err) ||
		    run_ok(st, "INSERT INTO perfsift_meta VALUES ('schema', '"
			   SCHEMA_VERSION "')", 0, NULL, err))
			goto fail_tx;
	} else {
		PQclear(res);
		res = run(st, "SELECT value FROM perfsift_meta WHERE key = 'schema'",
			  0, NULL, false, err);
		if (!res)
			goto fail_tx;
		/* schema 2 -> 3: the noise floors' tables, nothing else */
		if (PQntuples(res) == 1 && !strcmp(PQgetvalue(res, 0, 0), "2")) {
			PQclear(res);
			if (run_ok(st, FLOOR_SCHEMA, 0, NULL, err) ||
			    run_ok(st, "UPDATE perfsift_meta SET value = '"
				   SCHEMA_VERSION "' WHERE key = 'schema'", 0,
				   NULL, err))
				goto fail_tx;
			res = run(st, "SELECT value FROM perfsift_meta WHERE"
				  " key = 'schema'", 0, NULL, false, err);
			if (!res)
				goto fail_tx;
		}
		if (PQntuples(res) != 1 ||
		    strcmp(PQgetvalue(res, 0, 0), SCHEMA_VERSION)) {
			strbuf_addf(err, "index '%s' has schema %s, this perfsift "
				    "reads %s", location,
				    PQntuples(res) ? PQgetvalue(res, 0, 0) : "?",
				    SCHEMA_VERSION);
			PQclear(res);
			goto fail_tx;
		}
		PQclear(res);
	}
	if (run_ok(st, "COMMIT", 0, NULL, err))
		goto fail;
	return 0;
fail_tx:
	PQclear(PQexec(c, "ROLLBACK"));
fail:
	PQfinish(c);
	st->priv = NULL;
	return -1;
}

static void pg_close(struct store *st)
{
	if (st->priv)
		PQfinish(conn_of(st));
	st->priv = NULL;
}

/* names first, in their own short transaction: no lock held for long */
static int put_names(struct store *st, const struct reduce_stats *stats,
		     struct strbuf *err)
{
	struct strbuf names = STRBUF_INIT;
	const char *p[1];
	size_t i;
	int ret;

	for (i = 0; stats && i < stats->n; i++)
		add_array_str(&names, stats->items[i].name);
	end_array(&names);
	p[0] = names.buf;
	/* sorted names: concurrent writers take the same order, no deadlock */
	ret = run_ok(st, "INSERT INTO stat_names (name) SELECT n FROM"
		     " unnest($1::text[]) AS t(n) ORDER BY n"
		     " ON CONFLICT (name) DO NOTHING", 1, p, err);
	strbuf_release(&names);
	return ret;
}

/*
 * The group's row, inserted or updated in place (its id into gid, so
 * that its runs keep pointing at it), and its parameters replaced by the
 * run's: one statement each, the lists sent as arrays.
 */
static int put_group(struct store *st, const struct store_index *ix,
		     char gid[32], struct strbuf *err)
{
	const struct store_run_record *rec = ix->rec;
	struct strbuf keys = STRBUF_INIT, vals = STRBUF_INIT, kinds = STRBUF_INIT;
	const char *p[9];
	PGresult *res;
	size_t i;
	int a, ret = -1;

	p[0] = ix->group_rel;
	for (a = 0; a < STORE_NAXES; a++)
		p[a + 1] = rec->axes[a] ? rec->axes[a] : "";
	res = run(st, "INSERT INTO groups (dir, testcase, path_params, tbox_group,"
		  " rootfs, kconfig, compiler, commit_id) VALUES ($1, $2, $3, $4,"
		  " $5, $6, $7, $8) ON CONFLICT (dir) DO UPDATE SET testcase = $2,"
		  " path_params = $3, tbox_group = $4, rootfs = $5, kconfig = $6,"
		  " compiler = $7, commit_id = $8 RETURNING id", 8, p, false, err);
	if (!res)
		return -1;
	snprintf(gid, 32, "%s", PQgetvalue(res, 0, 0));
	PQclear(res);

	for (i = 0; i < ix->nparams; i++) {
		add_array_str(&keys, ix->params[i].key);
		add_array_str(&vals, ix->params[i].value);
		strbuf_addf(&kinds, "%s%d", kinds.len ? "," : "{",
			    (int)ix->params[i].kind);
	}
	end_array(&keys);
	end_array(&vals);
	end_array(&kinds);
	p[0] = gid;
	p[1] = keys.buf;
	p[2] = vals.buf;
	p[3] = kinds.buf;
	if (!run_ok(st, "DELETE FROM params WHERE group_id = $1", 1, p, err) &&
	    !run_ok(st, "INSERT INTO params (group_id, key, value, kind)"
		    " SELECT $1, k, v, kd FROM unnest($2::text[], $3::text[],"
		    " $4::int[]) AS t(k, v, kd)", 4, p, err))
		ret = 0;
	strbuf_release(&keys);
	strbuf_release(&vals);
	strbuf_release(&kinds);
	return ret;
}

/*
 * The run's stat values, one statement: the names joined to their ids
 * in the server, not one round trip a stat (a run has thousands).
 */
static int put_stats(struct store *st, const struct store_run_record *rec,
		     const char *rid, struct strbuf *err)
{
	struct strbuf snames = STRBUF_INIT;
	struct strbuf svals = STRBUF_INIT, sints = STRBUF_INIT;
	const char *p[4];
	size_t i;
	int ret;

	for (i = 0; rec->stats && i < rec->stats->n; i++) {
		const struct reduce_stat *s = &rec->stats->items[i];

		add_array_str(&snames, s->name);
		strbuf_addf(&svals, "%s%.17g", svals.len ? "," : "{", s->value);
		strbuf_addf(&sints, "%s%d", sints.len ? "," : "{", s->is_int);
	}
	end_array(&snames);
	end_array(&svals);
	end_array(&sints);
	p[0] = rid;
	p[1] = snames.buf;
	p[2] = svals.buf;
	p[3] = sints.buf;
	ret = run_ok(st, "INSERT INTO stat_values (run_id, stat_id, value, is_int)"
		     " SELECT $1, n.id, t.v, t.i FROM unnest($2::text[],"
		     " $3::float8[], $4::int2[]) AS t(name, v, i)"
		     " JOIN stat_names n ON n.name = t.name", 4, p, err);
	strbuf_release(&snames);
	strbuf_release(&svals);
	strbuf_release(&sints);
	return ret;
}

/*
 * One run in one transaction: its group and parameters, the run replacing
 * its old self (and the group's runs gone from disk forgotten), its
 * packed stats and its values.  A failure rolls all of it back.
 */
static int pg_index_run(struct store *st, const struct store_index *ix,
			struct strbuf *err)
{
	const struct store_run_record *rec = ix->rec;
	struct strbuf present = STRBUF_INIT;
	char num[32], gid[32], rid[32], comp[8];
	const char *p[2];
	PGresult *res = NULL;
	size_t i;
	int ret = -1;

	if (put_names(st, rec->stats, err) || run_ok(st, "BEGIN", 0, NULL, err))
		goto out;
	if (put_group(st, ix, gid, err))
		goto fail;

	/* this run replaces its old self; runs gone from disk go */
	snprintf(num, sizeof(num), "%d", rec->number);
	p[0] = gid;
	p[1] = num;
	if (run_ok(st, "DELETE FROM stat_values WHERE run_id IN (SELECT id FROM"
		   " runs WHERE group_id = $1 AND number = $2)", 2, p, err) ||
	    run_ok(st, "DELETE FROM runs WHERE group_id = $1 AND number = $2",
		   2, p, err))
		goto fail;
	if (rec->present_runs) {
		for (i = 0; i < rec->npresent; i++)
			strbuf_addf(&present, "%s%d", i ? "," : "{",
				    rec->present_runs[i]);
		end_array(&present);
		p[1] = present.buf;
		if (run_ok(st, "DELETE FROM stat_values WHERE run_id IN (SELECT id"
			   " FROM runs WHERE group_id = $1 AND NOT"
			   " (number = ANY($2::int[])))", 2, p, err) ||
		    run_ok(st, "DELETE FROM runs WHERE group_id = $1 AND NOT"
			   " (number = ANY($2::int[]))", 2, p, err))
			goto fail;
	}

	/* the run, its packed stats (bytea as a binary parameter) */
	snprintf(comp, sizeof(comp), "%d", rec->complete ? 1 : 0);
	{
		const char *rp[5] = {gid, num, comp, ix->run_rel, ix->blob};
		int lens[5] = {0, 0, 0, 0, (int)ix->blob_len};
		int fmts[5] = {0, 0, 0, 0, 1};

		res = PQexecParams(conn_of(st),
				   "INSERT INTO runs (group_id, number, complete,"
				   " dir, indexed_at, stats) VALUES ($1, $2, $3, $4,"
				   " extract(epoch from now())::bigint, $5)"
				   " RETURNING id", 5, NULL, rp, lens, fmts, 0);
		if (PQresultStatus(res) != PGRES_TUPLES_OK) {
			strbuf_addf(err, "index: %s", PQresultErrorMessage(res));
			strbuf_rtrim(err);
			goto fail;
		}
		snprintf(rid, sizeof(rid), "%s", PQgetvalue(res, 0, 0));
		PQclear(res);
		res = NULL;
	}
	if (put_stats(st, rec, rid, err) || run_ok(st, "COMMIT", 0, NULL, err))
		goto fail;
	ret = 0;
	goto out;
fail:
	PQclear(res);
	PQclear(PQexec(conn_of(st), "ROLLBACK"));
out:
	strbuf_release(&present);
	return ret;
}

static const char group_cols[] =
	"SELECT g.id, g.dir, g.testcase, g.path_params, g.tbox_group, g.rootfs,"
	" g.kconfig, g.compiler, g.commit_id,"
	" (SELECT count(*) FROM runs r WHERE r.group_id = g.id AND r.complete = 1),"
	" (SELECT count(*) FROM runs r WHERE r.group_id = g.id AND r.complete = 0)"
	" FROM groups g";

/*
 * One SELECT per selector kind (store.c says what a selector is).  A
 * directory matches the group itself, the group of a run directory, and
 * every group below it; KEY=VALUE pairs intersect; a commit matches
 * exactly when some group has that commit, else by prefix -- so that a
 * full hash never matches a longer one by accident and a short one still
 * works.  Ordered by dir in the C collation, as SQLite's, so both
 * backends list groups in the same order whatever the server's locale.
 */
static int pg_find_groups(struct store *st, const struct store_selector *sel,
			  struct store_group_list *out, struct strbuf *err)
{
	struct strbuf sql = STRBUF_INIT;
	const char **p = NULL;
	char *parent = NULL;
	PGresult *res = NULL;
	int n = 0, row, a, ret = -1;
	size_t i;

	p = xcalloc(2 * sel->nkv + 2, sizeof(*p));
	strbuf_addstr(&sql, group_cols);
	switch (sel->kind) {
	case STORE_SEL_ALL:
		break;
	case STORE_SEL_DIR:
		if (!sel->dir) {
			ret = 0;
			goto out;
		}
		parent = store_selector_run_group(sel);
		p[n++] = sel->dir;
		p[n++] = parent ? parent : "";
		strbuf_addstr(&sql, " WHERE $1::text = '' OR g.dir = $1::text"
			      " OR ($2::text <> '' AND g.dir = $2::text)"
			      " OR left(g.dir, length($1::text) + 1) = $1::text || '/'");
		break;
	case STORE_SEL_PARAMS:
		strbuf_addstr(&sql, " WHERE g.id IN (");
		for (i = 0; i < sel->nkv; i++) {
			strbuf_addf(&sql, "%sSELECT group_id FROM params WHERE"
				    " key = $%d AND value = $%d",
				    i ? " INTERSECT " : "", n + 1, n + 2);
			p[n++] = sel->kv[i].key;
			p[n++] = sel->kv[i].value;
		}
		strbuf_addch(&sql, ')');
		break;
	case STORE_SEL_COMMIT:
		p[n++] = sel->commit;
		strbuf_addstr(&sql, " WHERE CASE WHEN EXISTS (SELECT 1 FROM groups"
			      " WHERE commit_id = $1) THEN g.commit_id = $1"
			      " ELSE left(g.commit_id, length($1)) = $1 END");
		break;
	}
	strbuf_addstr(&sql, " ORDER BY g.dir COLLATE \"C\"");
	res = run(st, sql.buf, n, p, false, err);
	if (!res)
		goto out;
	for (row = 0; row < PQntuples(res); row++) {
		const char *axes[STORE_NAXES];

		for (a = 0; a < STORE_NAXES; a++)
			axes[a] = PQgetvalue(res, row, a + 2);
		store_group_list_add(out, st,
				     strtoll(PQgetvalue(res, row, 0), NULL, 10),
				     PQgetvalue(res, row, 1), axes,
				     (size_t)strtoull(PQgetvalue(res, row, 9),
						      NULL, 10),
				     (size_t)strtoull(PQgetvalue(res, row, 10),
						      NULL, 10));
	}
	ret = 0;
out:
	PQclear(res);
	free(parent);
	free(p);
	strbuf_release(&sql);
	return ret;
}

/* sql whose one parameter $1 is id; the result, or NULL with err */
static PGresult *run_id(struct store *st, const char *sql, int64_t id,
			bool binary, struct strbuf *err)
{
	char buf[32];
	const char *p[1] = {buf};

	snprintf(buf, sizeof(buf), "%" PRId64, id);
	return run(st, sql, 1, p, binary, err);
}

/*
 * An integer column of a row, through strnum rather than atoi's silent 0:
 * PostgreSQL prints its integer types in plain decimal, so a value that
 * does not parse means a table perfsift did not make -- an error naming
 * the column, not a wrong answer.
 */
static int col_int(PGresult *res, int row, int col, const char *name,
		   int *out, struct strbuf *err)
{
	const char *text = PQgetvalue(res, row, col), *why;
	long long v;

	if (strnum_ll(text, INT_MIN, INT_MAX, &v, &why)) {
		strbuf_addf(err, "index: %s: '%s' is %s", name, text, why);
		return -1;
	}
	*out = (int)v;
	return 0;
}

/* every row of sql (one parameter: id) through row(); 0 or -1 */
static int each_row(struct store *st, const char *sql, int64_t id,
		    int (*row)(struct store *st, PGresult *res, int i,
			       void *out, struct strbuf *err),
		    void *out, struct strbuf *err)
{
	PGresult *res = run_id(st, sql, id, false, err);
	int i, ret = 0;

	if (!res)
		return -1;
	for (i = 0; i < PQntuples(res) && !ret; i++)
		ret = row(st, res, i, out, err);
	PQclear(res);
	return ret;
}

static int param_row(struct store *st, PGresult *res, int i, void *out,
		     struct strbuf *err)
{
	int kind;

	(void)st;
	if (col_int(res, i, 2, "params.kind", &kind, err))
		return -1;
	store_param_list_add(out, PQgetvalue(res, i, 0), PQgetvalue(res, i, 1),
			     (enum store_param_kind)kind);
	return 0;
}

static int pg_group_params(struct store *st, int64_t group_id,
			   struct store_param_list *out, struct strbuf *err)
{
	return each_row(st, "SELECT key, value, kind FROM params WHERE"
			" group_id = $1 ORDER BY key COLLATE \"C\"", group_id,
			param_row, out, err);
}

static int run_row(struct store *st, PGresult *res, int i, void *out,
		   struct strbuf *err)
{
	int number, complete;

	if (col_int(res, i, 1, "runs.number", &number, err) ||
	    col_int(res, i, 2, "runs.complete", &complete, err))
		return -1;
	store_run_list_add(out, st, strtoll(PQgetvalue(res, i, 0), NULL, 10),
			   number, complete != 0, PQgetvalue(res, i, 3));
	return 0;
}

static int pg_group_runs(struct store *st, int64_t group_id,
			 struct store_run_list *out, struct strbuf *err)
{
	return each_row(st, "SELECT id, number, complete, dir FROM runs"
			" WHERE group_id = $1 ORDER BY number", group_id,
			run_row, out, err);
}

static int stat_row(struct store *st, PGresult *res, int i, void *out,
		    struct strbuf *err)
{
	int is_int;

	(void)st;
	if (col_int(res, i, 2, "stat_values.is_int", &is_int, err))
		return -1;
	/* strtod: float8 prints NaN and Infinity too, which strnum refuses */
	reduce_stats_add(out, PQgetvalue(res, i, 0),
			 strtod(PQgetvalue(res, i, 1), NULL), is_int != 0);
	return 0;
}

static int pg_run_stats(struct store *st, int64_t run_id_,
			struct reduce_stats *out, struct strbuf *err)
{
	return each_row(st, "SELECT n.name, v.value, v.is_int FROM stat_values v"
			" JOIN stat_names n ON n.id = v.stat_id WHERE"
			" v.run_id = $1 ORDER BY n.name COLLATE \"C\"", run_id_,
			stat_row, out, err);
}

/*
 * A group's matrix from its complete runs' packed blobs, in run order:
 * one row per run rather than one per value, which is what keeps a
 * comparison of large groups from being round-trip bound.  A run without
 * its blob is an index written by an older perfsift: the error says how
 * to refill it.
 */
static int pg_load_matrix(struct store *st, int64_t group_id, struct matrix *m,
			  struct strbuf *err)
{
	PGresult *res;
	struct store_matrix_builder b;
	int row, ret = -1;

	matrix_init(m);
	store_matrix_builder_init(&b);
	/* binary results: the packed stats as they were sent */
	res = run_id(st, "SELECT id, dir, stats FROM runs WHERE group_id = $1"
		     " AND complete = 1 ORDER BY number", group_id, true, err);
	if (!res)
		return -1;
	for (row = 0; row < PQntuples(res); row++) {
		struct strbuf dir = STRBUF_INIT;
		int bad;

		strbuf_add(&dir, PQgetvalue(res, row, 1),
			   (size_t)PQgetlength(res, row, 1));
		bad = PQgetisnull(res, row, 2) ||
		      store_matrix_builder_add(&b, st, dir.buf,
					       PQgetvalue(res, row, 2),
					       (size_t)PQgetlength(res, row, 2));
		strbuf_release(&dir);
		if (bad) {
			strbuf_addf(err, "index: run %d of group %" PRId64
				    " has no packed stats (run `perfsift stats`"
				    " on it)", row, group_id);
			goto out;
		}
	}
	store_matrix_builder_finish(&b, m);
	ret = 0;
out:
	PQclear(res);
	store_matrix_builder_release(&b);
	return ret;
}

/*
 * In one transaction, children first: there are no foreign keys (the
 * header says why), so the order is what keeps a reader from seeing
 * values of a run that no longer exists.
 */
static int pg_forget_group(struct store *st, int64_t group_id,
			   struct strbuf *err)
{
	char id[32];
	const char *p[1] = {id};

	snprintf(id, sizeof(id), "%" PRId64, group_id);
	if (run_ok(st, "BEGIN", 0, NULL, err))
		return -1;
	if (run_ok(st, "DELETE FROM stat_values WHERE run_id IN"
		   " (SELECT id FROM runs WHERE group_id = $1)", 1, p, err) ||
	    run_ok(st, "DELETE FROM runs WHERE group_id = $1", 1, p, err) ||
	    run_ok(st, "DELETE FROM params WHERE group_id = $1", 1, p, err) ||
	    run_ok(st, "DELETE FROM groups WHERE id = $1", 1, p, err) ||
	    run_ok(st, "COMMIT", 0, NULL, err)) {
		PQclear(PQexec(conn_of(st), "ROLLBACK"));
		return -1;
	}
	return 0;
}

/*
 * Every value of the named stats, over the given groups (NULL: all):
 * the names go as one array and come back as their position in it, so a
 * history of 20 stats over 10,000 runs is one query, and the caller
 * indexes its columns without a string compare per value.
 */
static int pg_stat_values(struct store *st, const int64_t *group_ids,
			  size_t ngroups, const char *const *names,
			  size_t nnames, store_value_fn fn, void *ctx,
			  struct strbuf *err)
{
	struct strbuf narr = STRBUF_INIT, garr = STRBUF_INIT;
	const char *params[2];
	PGresult *res;
	size_t i;
	int row;

	for (i = 0; i < nnames; i++)
		add_array_str(&narr, names[i]);
	end_array(&narr);
	for (i = 0; group_ids && i < ngroups; i++)
		strbuf_addf(&garr, "%s%" PRId64, i ? "," : "{", group_ids[i]);
	if (group_ids)
		end_array(&garr);
	params[0] = narr.buf;
	params[1] = group_ids ? garr.buf : NULL;
	/* the position of the name in the array asked for comes back */
	res = run(st, "SELECT r.group_id, r.number, r.indexed_at, n.i, v.value"
		  " FROM unnest($1::text[]) WITH ORDINALITY AS n(name, i)"
		  " JOIN stat_names s ON s.name = n.name"
		  " JOIN stat_values v ON v.stat_id = s.id"
		  " JOIN runs r ON r.id = v.run_id"
		  " WHERE r.complete = 1"
		  " AND ($2::bigint[] IS NULL OR r.group_id = ANY($2::bigint[]))",
		  2, params, false, err);
	strbuf_release(&narr);
	strbuf_release(&garr);
	if (!res)
		return -1;
	for (row = 0; row < PQntuples(res); row++) {
		struct store_value v;

		v.group_id = strtoll(PQgetvalue(res, row, 0), NULL, 10);
		if (col_int(res, row, 1, "runs.number", &v.run, err)) {
			PQclear(res);
			return -1;
		}
		v.time = strtoll(PQgetvalue(res, row, 2), NULL, 10);
		v.stat = (size_t)strtoull(PQgetvalue(res, row, 3), NULL, 10) - 1;
		v.value = strtod(PQgetvalue(res, row, 4), NULL);
		fn(ctx, &v);
	}
	PQclear(res);
	return 0;
}

static int pg_group_rows(struct store *st, store_group_row_fn fn, void *ctx,
			 struct strbuf *err)
{
	PGresult *res;
	int row;

	res = run(st, "SELECT id, dir, testcase, commit_id FROM groups"
		  " ORDER BY dir COLLATE \"C\"", 0, NULL, false, err);
	if (!res)
		return -1;
	for (row = 0; row < PQntuples(res); row++)
		fn(ctx, strtoll(PQgetvalue(res, row, 0), NULL, 10),
		   PQgetvalue(res, row, 1), PQgetvalue(res, row, 2),
		   PQgetvalue(res, row, 3));
	PQclear(res);
	return 0;
}

/* left(name, length(prefix)): a LIKE would read _ and % in a stat name */
static int pg_stat_names(struct store *st, const char *prefix,
			 struct store_name_list *out, struct strbuf *err)
{
	const char *params[1] = {prefix};
	PGresult *res;
	int row;

	res = run(st, "SELECT name FROM stat_names WHERE"
		  " left(name, length($1)) = $1 ORDER BY name COLLATE \"C\"",
		  1, params, false, err);
	if (!res)
		return -1;
	for (row = 0; row < PQntuples(res); row++) {
		ALLOC_GROW(out->items, out->n + 1, out->alloc);
		out->items[out->n++] = xstrdup(PQgetvalue(res, row, 0));
	}
	PQclear(res);
	return 0;
}

/* ---- noise floors (store.h's put_floor / get_floor) ---- */

/* the series' floor replaced whole: one transaction, stats as arrays */
static int pg_put_floor(struct store *st, const struct noise_floor *f,
			struct strbuf *err)
{
	struct strbuf names = STRBUF_INIT, pcts = STRBUF_INIT;
	char when[32], runs[16];
	const char *p[5];
	size_t i;
	int ret = -1;

	for (i = 0; i < f->n; i++) {
		add_array_str(&names, f->items[i].name);
		/* %.17g: the double back exactly */
		strbuf_addf(&pcts, "%s%.17g", pcts.len ? "," : "{",
			    f->items[i].pct);
	}
	end_array(&names);
	end_array(&pcts);
	snprintf(when, sizeof(when), "%" PRId64, f->calibrated_at);
	snprintf(runs, sizeof(runs), "%d", f->runs);
	p[0] = f->series;
	if (run_ok(st, "BEGIN", 0, NULL, err))
		goto out;
	if (run_ok(st, "DELETE FROM noise_floor_stats WHERE series = $1", 1, p, err) ||
	    run_ok(st, "DELETE FROM noise_floors WHERE series = $1", 1, p, err))
		goto fail;
	p[1] = f->machine;
	p[2] = f->commit;
	p[3] = when;
	p[4] = runs;
	if (run_ok(st, "INSERT INTO noise_floors (series, machine, commit_id,"
		   " calibrated_at, runs) VALUES ($1, $2, $3, $4, $5)", 5, p, err))
		goto fail;
	p[1] = names.buf;
	p[2] = pcts.buf;
	if (run_ok(st, "INSERT INTO noise_floor_stats (series, name, pct)"
		   " SELECT $1, n, v FROM unnest($2::text[], $3::float8[])"
		   " AS t(n, v)", 3, p, err) ||
	    run_ok(st, "COMMIT", 0, NULL, err))
		goto fail;
	ret = 0;
	goto out;
fail:
	PQclear(PQexec(conn_of(st), "ROLLBACK"));
out:
	strbuf_release(&names);
	strbuf_release(&pcts);
	return ret;
}

/*
 * The floor's head and stats in one statement (one snapshot: a put in
 * between is seen whole or not at all); a floor of no stats is one row
 * with NULL name.
 */
static int pg_get_floor(struct store *st, const char *series,
			struct noise_floor *out, bool *found, struct strbuf *err)
{
	const char *p[1] = { series }, *why;
	PGresult *res;
	long long when;
	int i, ret = -1;

	res = run(st, "SELECT h.machine, h.commit_id, h.calibrated_at, h.runs,"
		  " s.name, s.pct FROM noise_floors h LEFT JOIN noise_floor_stats s"
		  " ON s.series = h.series WHERE h.series = $1", 1, p, false, err);
	if (!res)
		return -1;
	if (!PQntuples(res)) {
		ret = 0;
		goto out;
	}
	if (strnum_ll(PQgetvalue(res, 0, 2), LLONG_MIN, LLONG_MAX, &when, &why)) {
		strbuf_addf(err, "index: calibrated_at: '%s' is %s",
			    PQgetvalue(res, 0, 2), why);
		goto out;
	}
	if (col_int(res, 0, 3, "runs", &out->runs, err))
		goto out;
	out->series = xstrdup(series);
	out->machine = xstrdup(PQgetvalue(res, 0, 0));
	out->commit = xstrdup(PQgetvalue(res, 0, 1));
	out->calibrated_at = when;
	for (i = 0; i < PQntuples(res); i++) {
		double v;

		if (PQgetisnull(res, i, 4))
			continue;
		if (strnum_double(PQgetvalue(res, i, 5), &v, &why)) {
			strbuf_addf(err, "index: noise floor of %s: '%s' is %s",
				    PQgetvalue(res, i, 4), PQgetvalue(res, i, 5), why);
			goto out;
		}
		noise_floor_add(out, PQgetvalue(res, i, 4), v);
	}
	noise_floor_sort(out); /* strcmp's order, whatever the collation */
	*found = true;
	ret = 0;
out:
	PQclear(res);
	return ret;
}

const struct store_ops store_pg_ops = {
	.name = "postgresql",
	.open = pg_open,
	.close = pg_close,
	.index_run = pg_index_run,
	.find_groups = pg_find_groups,
	.group_params = pg_group_params,
	.group_runs = pg_group_runs,
	.load_matrix = pg_load_matrix,
	.run_stats = pg_run_stats,
	.forget_group = pg_forget_group,
	.stat_values = pg_stat_values,
	.group_rows = pg_group_rows,
	.stat_names = pg_stat_names,
	.put_floor = pg_put_floor,
	.get_floor = pg_get_floor,
};
#endif /* HAVE_LIBPQ */
