/*
 * test_store.c: unit tests for the store (store.c + the SQLite backend):
 * indexing runs, every selector kind with its ambiguities, the matrix of
 * complete runs, re-indexing and pruning, an empty store on a fresh root,
 * and two processes writing one index at once.
 */
#include "util/compat.h"
#include <math.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>
#include "result/floor.h"
#include "result/matrix.h"
#include "result/reduce.h"
#include "store/store.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#ifdef HAVE_LIBPQ
#define HAVE_PG 1
#else
#define HAVE_PG 0
#endif

/*
 * One fixture for every test: a fresh root (and, under t0210, a fresh
 * PostgreSQL database), the store opened on it (setup_open) and filled
 * with fill()'s groups (setup_filled), an error buffer.
 */
struct fixture {
	char root[64];
	char *url; /* NULL: the root's SQLite file; else a fresh PostgreSQL db */
	char *db;
	struct store st; /* open when is_open */
	bool is_open;
	struct strbuf err;
};

/*
 * PERFSIFT_TEST_PG_HOST=<socket dir> (t0210 starts a throwaway server)
 * runs every backend-neutral test against PostgreSQL, each in a database
 * of its own; without it the tests use SQLite.
 */
static const char *pg_host(void)
{
	return getenv("PERFSIFT_TEST_PG_HOST");
}

static int pg_admin(const char *sql)
{
	char *cmd = xasprintf("psql -q -h '%s' -U postgres -d postgres -c '%s'",
			      pg_host(), sql);
	int ret = system(cmd);

	free(cmd);
	return ret;
}

/* a root and a database, nothing opened */
static int setup(void **state)
{
	static int seq;
	struct fixture *f = calloc(1, sizeof(*f));
	char *sql;

	snprintf(f->root, sizeof(f->root), "/tmp/perfsift-store-XXXXXX");
	strbuf_init(&f->err, 0);
	if (!mkdtemp(f->root))
		return -1;
	if (pg_host()) {
		f->db = xasprintf("perfsift_t%ld_%d", (long)getpid(), seq++);
		sql = xasprintf("CREATE DATABASE %s", f->db);
		if (pg_admin(sql))
			return -1;
		free(sql);
		f->url = xasprintf("postgresql:///%s?host=%s&user=postgres", f->db,
				   pg_host());
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (f->is_open)
		store_close(&f->st);
	if (f->db) {
		char *sql = xasprintf("DROP DATABASE %s WITH (FORCE)", f->db);

		pg_admin(sql);
		free(sql);
	}
	remove_tree(f->root);
	strbuf_release(&f->err);
	free(f->url);
	free(f->db);
	free(f);
	return 0;
}

/* a run to index: run `number` of group <root>/<rel>, stats to fill */
struct run_rec {
	struct store_run_record rec;
	struct strbuf group, run;
	struct reduce_stats stats;
};

static void run_rec_init(struct run_rec *r, const char *root, const char *rel,
			 const char *commit, int number, bool complete)
{
	memset(&r->rec, 0, sizeof(r->rec));
	strbuf_init(&r->group, 0);
	strbuf_init(&r->run, 0);
	reduce_stats_init(&r->stats);
	strbuf_addf(&r->group, "%s/%s", root, rel);
	strbuf_addf(&r->run, "%s/%d", r->group.buf, number);
	r->rec.group_dir = r->group.buf;
	r->rec.axes[STORE_COMMIT] = commit;
	r->rec.number = number;
	r->rec.complete = complete;
	r->rec.run_dir = r->run.buf;
	r->rec.stats = &r->stats;
}

static void run_rec_release(struct run_rec *r)
{
	strbuf_release(&r->group);
	strbuf_release(&r->run);
	reduce_stats_release(&r->stats);
}

/* index run `number` of group <root>/tc/pp/box/debian/defconfig/gcc-12/<commit> */
static void index_run(struct store *st, const char *root, const char *commit,
		      const char *pp, int number, bool complete, double value)
{
	struct strbuf rel = STRBUF_INIT, err = STRBUF_INIT;
	struct store_param params[] = {
		{(char *)"test", (char *)pp, STORE_PARAM_JOB},
		{(char *)"nr_cpu", (char *)"2", STORE_PARAM_FACT},
	};
	struct run_rec r;

	strbuf_addf(&rel, "tc/%s/box/debian/defconfig/gcc-12/%s", pp, commit);
	run_rec_init(&r, root, rel.buf, commit, number, complete);
	reduce_stats_add(&r.stats, "tc.throughput", value, false);
	reduce_stats_add(&r.stats, "tc.time.elapsed_time", 10 + number, false);
	if (number == 1)
		reduce_stats_add(&r.stats, "tc.only_in_1", 5, true);
	reduce_stats_sort(&r.stats);
	r.rec.axes[STORE_TESTCASE] = "tc";
	r.rec.axes[STORE_PATH_PARAMS] = pp;
	r.rec.axes[STORE_TBOX_GROUP] = "box";
	r.rec.axes[STORE_ROOTFS] = "debian";
	r.rec.axes[STORE_KCONFIG] = "defconfig";
	r.rec.axes[STORE_COMPILER] = "gcc-12";
	r.rec.params = params;
	r.rec.nparams = ARRAY_SIZE(params);
	if (store_index_run(st, &r.rec, &err))
		fail_msg("index: %s", err.buf);
	run_rec_release(&r);
	strbuf_release(&rel);
	strbuf_release(&err);
}

static void open_store(struct store *st, const struct fixture *f)
{
	struct strbuf err = STRBUF_INIT;

	if (store_open(st, f->root, f->url, STORE_CREATE, &err))
		fail_msg("open: %s", err.buf);
	strbuf_release(&err);
}

static void fill(struct store *st, const char *root)
{
	index_run(st, root, "aaaa1111", "anon-r-seq", 0, true, 100);
	index_run(st, root, "aaaa1111", "anon-r-seq", 1, true, 110);
	index_run(st, root, "aaaa1111", "anon-r-seq", 2, false, 5);
	index_run(st, root, "aaaa2222", "anon-r-seq", 0, true, 200);
	index_run(st, root, "aaaa2222", "anon-w-seq", 0, true, 300);
	index_run(st, root, "bbbb", "anon-r-seq", 0, true, 400);
}

/* setup, and the store opened (created) */
static int setup_open(void **state)
{
	struct fixture *f;

	if (setup(state))
		return -1;
	f = *state;
	open_store(&f->st, f);
	f->is_open = true;
	return 0;
}

/* setup_open, and fill()'s runs indexed */
static int setup_filled(void **state)
{
	struct fixture *f;

	if (setup_open(state))
		return -1;
	f = *state;
	fill(&f->st, f->root);
	return 0;
}

static size_t count(struct store *st, const char *sel)
{
	struct store_group_list l = {0};
	struct strbuf err = STRBUF_INIT;
	size_t n;

	if (store_find_groups_text(st, sel, &l, &err))
		fail_msg("find '%s': %s", sel ? sel : "(all)", err.buf);
	n = l.n;
	store_group_list_release(&l);
	strbuf_release(&err);
	return n;
}

static void test_selectors(void **state)
{
	struct fixture *f = *state;
	struct store *st = &f->st;
	struct store_group g;
	struct store_group_list l = {0};
	struct strbuf *err = &f->err, dir = STRBUF_INIT;

	assert_int_equal(count(st, NULL), 4);
	/* commits: exact, unique prefix, ambiguous prefix, none */
	assert_int_equal(count(st, "aaaa1111"), 1);
	assert_int_equal(count(st, "aaaa1"), 1);
	assert_int_equal(count(st, "aaaa"), 3);
	assert_int_equal(count(st, "cccc"), 0);
	/* key=value on job parameters, axes and facts */
	assert_int_equal(count(st, "test=anon-r-seq"), 3);
	assert_int_equal(count(st, "test=anon-r-seq,commit=aaaa2222"), 1);
	assert_int_equal(count(st, "nr_cpu=2"), 4);
	assert_int_equal(count(st, "tbox_group=box,test=nothing"), 0);
	assert_int_equal(store_find_groups_text(st, "a=b,=c", &l, err), -1);
	assert_non_null(strstr(err->buf, "expected key=value"));
	strbuf_reset(err);

	/* directories: a group, a run in it, a directory above groups */
	strbuf_addf(&dir, "%s/tc/anon-r-seq/box/debian/defconfig/gcc-12/aaaa1111",
		    f->root);
	assert_int_equal(mkdir_p(dir.buf, 0777), 0);
	assert_int_equal(count(st, dir.buf), 1);
	strbuf_addstr(&dir, "/1");
	assert_int_equal(mkdir_p(dir.buf, 0777), 0);
	assert_int_equal(count(st, dir.buf), 1);
	strbuf_reset(&dir);
	strbuf_addf(&dir, "%s/tc/anon-r-seq", f->root);
	assert_int_equal(count(st, dir.buf), 3);
	assert_int_equal(count(st, f->root), 4);
	assert_int_equal(count(st, "/"), 0); /* outside the root */

	/* resolve: one group, or an error listing the candidates */
	assert_int_equal(store_resolve(st, "aaaa1", &g, err), 0);
	assert_string_equal(g.axes[STORE_COMMIT], "aaaa1111");
	assert_int_equal(g.nruns, 2);
	assert_int_equal(g.nincomplete, 1);
	assert_non_null(strstr(g.dir, "/tc/anon-r-seq/box/debian/defconfig/gcc-12/aaaa1111"));
	store_group_release(&g);
	assert_int_equal(store_resolve(st, "aaaa", &g, err), -1);
	assert_non_null(strstr(err->buf, "'aaaa' is ambiguous: it matches 3 result groups\n  "));
	strbuf_reset(err);
	assert_int_equal(store_resolve(st, "zzz", &g, err), -1);
	assert_string_equal(err->buf, "'zzz' matches no result group");
	strbuf_release(&dir);
}

static void test_matrix_runs_params(void **state)
{
	struct fixture *f = *state;
	struct store *st = &f->st;
	struct store_group g;
	struct store_run_list runs = {0};
	struct store_param_list params = {0};
	struct reduce_stats stats;
	struct matrix m;
	struct strbuf *err = &f->err;
	ssize_t i;
	size_t k;
	bool seen_axis = false, seen_fact = false;

	assert_int_equal(store_resolve(st, "aaaa1111", &g, err), 0);
	/* the matrix has the complete runs only, padded with 0 */
	assert_int_equal(store_load_matrix(st, g.id, &m, err), 0);
	assert_int_equal(m.nruns, 2);
	i = matrix_find(&m, "tc.throughput");
	assert_true(i >= 0);
	assert_true(matrix_at(&m, (size_t)i, 0) == 100);
	assert_true(matrix_at(&m, (size_t)i, 1) == 110);
	i = matrix_find(&m, "tc.only_in_1");
	assert_true(matrix_at(&m, (size_t)i, 0) == 0 && m.is_int[i]);
	assert_non_null(strstr(m.sources[1], "/aaaa1111/1/stats.json"));
	matrix_release(&m);

	assert_int_equal(store_group_runs(st, g.id, &runs, err), 0);
	assert_int_equal(runs.n, 3);
	assert_false(runs.items[2].complete);
	reduce_stats_init(&stats);
	assert_int_equal(store_run_stats(st, runs.items[1].id, &stats, err), 0);
	assert_int_equal(stats.n, 3);
	assert_string_equal(stats.items[0].name, "tc.only_in_1");
	reduce_stats_release(&stats);
	store_run_list_release(&runs);

	assert_int_equal(store_group_params(st, g.id, &params, err), 0);
	for (k = 0; k < params.n; k++) {
		if (!strcmp(params.items[k].key, "commit")) {
			assert_string_equal(params.items[k].value, "aaaa1111");
			seen_axis = params.items[k].kind == STORE_PARAM_AXIS;
		}
		if (!strcmp(params.items[k].key, "nr_cpu"))
			seen_fact = params.items[k].kind == STORE_PARAM_FACT;
		if (k)
			assert_true(strcmp(params.items[k - 1].key,
					   params.items[k].key) < 0);
	}
	assert_true(seen_axis && seen_fact);
	store_param_list_release(&params);

	/* re-indexing replaces the run; the incomplete run can complete */
	index_run(st, f->root, "aaaa1111", "anon-r-seq", 2, true, 120);
	assert_int_equal(store_load_matrix(st, g.id, &m, err), 0);
	assert_int_equal(m.nruns, 3);
	i = matrix_find(&m, "tc.throughput");
	assert_true(matrix_at(&m, (size_t)i, 2) == 120);
	matrix_release(&m);
	store_group_release(&g);
}

static void test_prune(void **state)
{
	struct fixture *f = *state;
	struct store *st = &f->st;
	struct store_group g;
	struct run_rec r;
	struct strbuf *err = &f->err;
	int present[] = {1};

	/* run 0 was deleted on disk: re-indexing run 1 forgets it */
	run_rec_init(&r, f->root,
		     "tc/anon-r-seq/box/debian/defconfig/gcc-12/aaaa1111",
		     "aaaa1111", 1, true);
	reduce_stats_add(&r.stats, "tc.throughput", 1, true);
	r.rec.axes[STORE_TESTCASE] = "tc";
	r.rec.present_runs = present;
	r.rec.npresent = 1;
	assert_int_equal(store_index_run(st, &r.rec, err), 0);
	assert_int_equal(store_resolve(st, "aaaa1111", &g, err), 0);
	assert_int_equal(g.nruns, 1);
	assert_int_equal(g.nincomplete, 0);
	store_group_release(&g);
	/* a run outside the root is refused, and changes nothing */
	r.rec.run_dir = "/elsewhere/1";
	assert_int_equal(store_index_run(st, &r.rec, err), -1);
	assert_non_null(strstr(err->buf, "not below the result root"));
	assert_int_equal(store_resolve(st, "aaaa1111", &g, err), 0);
	assert_int_equal(g.nruns, 1);
	store_group_release(&g);
	run_rec_release(&r);
}

static void test_empty_and_bad_urls(void **state)
{
	struct fixture *f = *state;
	struct store st;
	struct strbuf err = STRBUF_INIT, db = STRBUF_INIT;

	if (f->url)
		skip(); /* the SQLite file and URL forms */
	/* reading a fresh root: an empty store, and no file is created */
	assert_int_equal(store_open(&st, f->root, NULL, 0, &err), 0);
	assert_int_equal(count(&st, NULL), 0);
	store_close(&st);
	path_join(&db, f->root, "perfsift.db");
	assert_false(file_exists(db.buf));
	assert_int_equal(store_open(&st, f->root, "mysql://x", 0, &err), -1);
	assert_non_null(strstr(err.buf, "unknown kind"));
	strbuf_reset(&err);
	assert_int_equal(store_open(&st, f->root,
				    "postgresql:///x?host=/nonexistent", 0, &err), -1);
	assert_non_null(strstr(err.buf, HAVE_PG ? "cannot connect" : "libpq"));
	strbuf_reset(&err);
	/* sqlite:PATH puts the index elsewhere */
	strbuf_reset(&db);
	strbuf_addf(&db, "sqlite:%s/other.db", f->root);
	assert_int_equal(store_open(&st, f->root, db.buf, STORE_CREATE, &err), 0);
	index_run(&st, f->root, "cafe", "x", 0, true, 1);
	store_close(&st);
	strbuf_reset(&db);
	strbuf_addf(&db, "%s/other.db", f->root);
	assert_true(file_exists(db.buf));
	strbuf_release(&err);
	strbuf_release(&db);
}

static void test_concurrent_writers(void **state)
{
	struct fixture *f = *state;
	struct store st;
	struct store_group_list l = {0};
	struct strbuf err = STRBUF_INIT;
	pid_t pids[2];
	int i, status;

	/* create the schema first, as the first run of a root does */
	open_store(&st, f);
	store_close(&st);
	for (i = 0; i < 2; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (!pids[i]) {
			struct store cs;
			int n;

			if (store_open(&cs, f->root, f->url, STORE_CREATE, &err))
				_exit(1);
			for (n = 0; n < 20; n++)
				index_run(&cs, f->root, i ? "c1" : "c0", "p",
					  n, true, n);
			store_close(&cs);
			_exit(0);
		}
	}
	for (i = 0; i < 2; i++) {
		assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	open_store(&st, f);
	assert_int_equal(store_find_groups_text(&st, NULL, &l, &err), 0);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.items[0].nruns, 20);
	assert_int_equal(l.items[1].nruns, 20);
	store_group_list_release(&l);
	store_close(&st);
	strbuf_release(&err);
}

/* runs indexed before the packed column existed are read from the rows */
static void test_matrix_without_blobs(void **state)
{
	struct fixture *f = *state;
	struct store *st = &f->st;
	struct store_group g;
	struct matrix with, without;
	struct strbuf *err = &f->err, db = STRBUF_INIT;
	sqlite3 *h;
	size_t s, r;

	if (f->url)
		skip(); /* reaches into the SQLite file */
	assert_int_equal(store_resolve(st, "aaaa1111", &g, err), 0);
	assert_int_equal(store_load_matrix(st, g.id, &with, err), 0);
	path_join(&db, f->root, "perfsift.db");
	assert_int_equal(sqlite3_open(db.buf, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "UPDATE runs SET stats = NULL WHERE number = 1",
				      NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	assert_int_equal(store_load_matrix(st, g.id, &without, err), 0);
	assert_int_equal(with.nstats, without.nstats);
	assert_int_equal(with.nruns, without.nruns);
	for (s = 0; s < with.nstats; s++) {
		assert_string_equal(with.names[s], without.names[s]);
		assert_int_equal(with.is_int[s], without.is_int[s]);
		for (r = 0; r < with.nruns; r++)
			assert_true(matrix_at(&with, s, r) == matrix_at(&without, s, r));
	}
	matrix_release(&with);
	matrix_release(&without);
	store_group_release(&g);
	strbuf_release(&db);
}

/* a caller's unsorted stats are indexed sorted (the loader merges) */
static void test_unsorted_stats(void **state)
{
	struct fixture *f = *state;
	struct store *st = &f->st;
	struct store_group g;
	struct run_rec r;
	struct matrix m;
	struct strbuf *err = &f->err;

	run_rec_init(&r, f->root, "t/p/b/r/k/c/feed", "feed", 0, true);
	reduce_stats_add(&r.stats, "z", 1, true);
	reduce_stats_add(&r.stats, "a", 2, true);
	reduce_stats_add(&r.stats, "m", 3, true);
	assert_int_equal(store_index_run(st, &r.rec, err), 0);
	assert_int_equal(store_resolve(st, "feed", &g, err), 0);
	assert_int_equal(store_load_matrix(st, g.id, &m, err), 0);
	assert_int_equal(m.nstats, 3);
	assert_string_equal(m.names[0], "a");
	assert_true(matrix_at(&m, 2, 0) == 1);
	matrix_release(&m);
	store_group_release(&g);
	run_rec_release(&r);
}

/* a run whose names are those of another borrows them; values its own */
static void test_unpack_like(void **state)
{
	struct reduce_stats a, b, c;
	struct strbuf ba = STRBUF_INIT, bb = STRBUF_INIT, bc = STRBUF_INIT;
	struct store_packed pa = {0}, pb = {0}, pc = {0};

	(void)state;
	reduce_stats_init(&a);
	reduce_stats_init(&b);
	reduce_stats_init(&c);
	reduce_stats_add(&a, "x.one", 1, true);
	reduce_stats_add(&a, "x.two", 2.5, false);
	reduce_stats_add(&b, "x.one", 10, true);
	reduce_stats_add(&b, "x.two", 20, true);
	reduce_stats_add(&c, "x.one", 7, true);
	reduce_stats_add(&c, "x.tw0", 8, true);
	store_pack_stats(&ba, &a);
	store_pack_stats(&bb, &b);
	store_pack_stats(&bc, &c);
	assert_int_equal(store_unpack_stats(&pa, ba.buf, ba.len), 0);
	assert_int_equal(store_unpack_stats_like(&pb, bb.buf, bb.len, &pa), 0);
	assert_true(pb.shared_names);
	assert_ptr_equal(pb.names, pa.names);
	assert_true(pb.values[0] == 10 && pb.values[1] == 20);
	assert_true(pb.is_int[0] && pb.is_int[1] && !pa.is_int[1]);
	/* same count, another name: its own names */
	assert_int_equal(store_unpack_stats_like(&pc, bc.buf, bc.len, &pa), 0);
	assert_false(pc.shared_names);
	assert_string_equal(pc.names[1], "x.tw0");
	assert_true(pc.values[1] == 8);
	store_packed_release(&pb);
	store_packed_release(&pc);
	store_packed_release(&pa);
	reduce_stats_release(&a);
	reduce_stats_release(&b);
	reduce_stats_release(&c);
	strbuf_release(&ba);
	strbuf_release(&bb);
	strbuf_release(&bc);
}

/* a floor of series with stats x.a = pa and x.b = 2 pa */
static void put_floor(struct store *st, const char *series, double pa, int runs)
{
	struct strbuf err = STRBUF_INIT;
	struct noise_floor f;

	noise_floor_init(&f);
	f.series = xstrdup(series);
	f.machine = xstrdup("box");
	f.commit = xstrdup("aaaa1111");
	f.calibrated_at = 1796137531;
	f.runs = runs;
	noise_floor_add(&f, "x.b", 2 * pa);
	noise_floor_add(&f, "x.a", pa);
	noise_floor_sort(&f);
	if (store_put_floor(st, &f, &err))
		fail_msg("put floor: %s", err.buf);
	noise_floor_release(&f);
	strbuf_release(&err);
}

/*
 * Noise floors: stored and read back per series; a second calibration
 * replaces the first whole (no stat of the old one left over); another
 * series is untouched; a series never calibrated is "not found".
 */
static void test_floors(void **state)
{
	struct fixture *f = *state;
	struct strbuf err = STRBUF_INIT;
	struct noise_floor g;
	bool found = true;

	noise_floor_init(&g);
	assert_int_equal(store_get_floor(&f->st, "tc/pp", &g, &found, &err), 0);
	assert_false(found);
	put_floor(&f->st, "tc/pp", 1.5, 5);
	put_floor(&f->st, "tc/other", 7, 3);
	assert_int_equal(store_get_floor(&f->st, "tc/pp", &g, &found, &err), 0);
	assert_true(found);
	assert_string_equal(g.series, "tc/pp");
	assert_string_equal(g.machine, "box");
	assert_string_equal(g.commit, "aaaa1111");
	assert_true(g.calibrated_at == 1796137531);
	assert_int_equal(g.runs, 5);
	assert_int_equal(g.n, 2);
	assert_float_equal(noise_floor_find(&g, "x.a"), 1.5, 0);
	assert_float_equal(noise_floor_find(&g, "x.b"), 3, 0);
	noise_floor_release(&g);

	/* re-calibrated with one stat only: the old x.b is gone */
	{
		struct noise_floor one;

		noise_floor_init(&one);
		one.series = xstrdup("tc/pp");
		one.machine = xstrdup("box");
		one.commit = xstrdup("bbbb");
		one.runs = 4;
		noise_floor_add(&one, "x.a", 0.25);
		assert_int_equal(store_put_floor(&f->st, &one, &err), 0);
		noise_floor_release(&one);
	}
	assert_int_equal(store_get_floor(&f->st, "tc/pp", &g, &found, &err), 0);
	assert_true(found);
	assert_string_equal(g.commit, "bbbb");
	assert_int_equal(g.n, 1);
	assert_float_equal(noise_floor_find(&g, "x.a"), 0.25, 0);
	assert_true(isnan(noise_floor_find(&g, "x.b")));
	noise_floor_release(&g);
	assert_int_equal(store_get_floor(&f->st, "tc/other", &g, &found, &err), 0);
	assert_true(found);
	assert_float_equal(noise_floor_find(&g, "x.b"), 14, 0);
	noise_floor_release(&g);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_selectors, setup_filled,
						teardown),
		cmocka_unit_test_setup_teardown(test_matrix_runs_params,
						setup_filled, teardown),
		cmocka_unit_test_setup_teardown(test_prune, setup_filled,
						teardown),
		cmocka_unit_test_setup_teardown(test_empty_and_bad_urls, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_concurrent_writers, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_matrix_without_blobs,
						setup_filled, teardown),
		cmocka_unit_test_setup_teardown(test_unsorted_stats, setup_open,
						teardown),
		cmocka_unit_test(test_unpack_like),
		cmocka_unit_test_setup_teardown(test_floors, setup_open, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
