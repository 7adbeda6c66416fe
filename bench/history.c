/*
 * bench/history.c: how fast change-point detection is (docs/performance.md).
 *
 *  1. history_detect() on one 10,000-point series (10,000 commits x 1 run
 *     and 3,334 x 3, five steps of 2-5 sd), t-test and permutation test;
 *  2. `perfsift history --all` over a result root of 1,000 groups x 500
 *     commits x 3 runs (two KPIs and a monitor stat per run, a step in a
 *     fifth of the series), synthesized in the SQLite index alone;
 *  3. `perfsift site -o DIR` on that root (when the command exists):
 *     its time and its largest page;
 *  4. issue 25's F8, a long CSV: history_detect() beside
 *     history_detect_reference() (the plain search, O(n^2 / W) on a ramp)
 *     in this process, on 10^4, 10^5 and 10^6 commits x 1 run, a ramp
 *     (every commit a change point) and a step series (a 5 sd step every
 *     1,000 commits); CPU time of this thread, so the machine's load
 *     inflates it less; then `perfsift history --csv FILE --stat m` on
 *     the same rows as a child (CPU and peak RSS).  The reference runs up
 *     to --ref-max rows (default 100,000), once above 10^4.
 *
 *   build/bench/history [--groups N] [--commits N] [--repeat K] [--keep DIR]
 *                       [--csv-max N] [--ref-max N] [--only-csv]
 *   (PERFSIFT names the binary, default build/perfsift)
 */
#include "util/compat.h"
#include <dirent.h>
#include <getopt.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "history/history.h"
#include "result/reduce.h"
#include "result/stats.h"
#include "store/store.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"
#include "lib/timing.h"

static void report(const char *what, double *t, int k)
{
	bench_sort(t, (size_t)k);
	printf("%-46s median %.3f s (%.3f-%.3f, %d runs)\n", what, t[k / 2], t[0],
	       t[k - 1], k);
	fflush(stdout);
}

/* ---- F8: a long series, the new search beside the plain one ---- */

static double thread_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* commit i of a ramp (step == 0) or of a 5 sd step every 1,000 commits */
static double long_value(size_t i, int step, uint64_t *rng)
{
	return step ? (double)(i / 1000 % 2) * 5 + history_gauss(rng) : (double)i;
}

/*
 * K runs of detect on pts[0..n) with P (the one timing loop of this
 * bench): median and range of the thread's CPU time, which a busy
 * neighbour inflates less than the wall clock.
 */
static size_t time_detect(void (*detect)(const struct history_point *,
					 size_t, const struct history_params *,
					 struct history_result *),
			  const struct history_point *pts, size_t n,
			  const struct history_params *p, int k,
			  const char *what)
{
	double t[16];
	size_t found = 0;
	int i;

	if (k > 16)
		k = 16;
	for (i = 0; i < k; i++) {
		struct history_result r;
		double t0 = thread_cpu_s();

		detect(pts, n, p, &r);
		t[i] = thread_cpu_s() - t0;
		found = r.nchanges;
		history_result_release(&r);
	}
	{
		char label[96];

		snprintf(label, sizeof(label), "%s (%zu change points), CPU", what,
			 found);
		report(label, t, k);
	}
	return found;
}

static void bench_series(size_t ncommits, size_t nruns, enum history_test test,
			 int repeat)
{
	double *v = xmalloc(ncommits * nruns * sizeof(double));
	struct history_point *pts = xmalloc(ncommits * sizeof(*pts));
	struct history_params p;
	uint64_t rng = 42;
	size_t at[5], i;
	char what[96];

	history_synth(&rng, ncommits, nruns, 5, 2, 5, 100, v, at);
	for (i = 0; i < ncommits; i++) {
		pts[i].v = v + i * nruns;
		pts[i].n = nruns;
	}
	history_params_init(&p);
	history_params_set_test(&p, test);
	snprintf(what, sizeof(what), "series %zu x %zu (%s, 5 planted)",
		 ncommits, nruns, test == HISTORY_TTEST ? "t" : "permutation");
	time_detect(history_detect, pts, ncommits, &p, repeat, what);
	free(v);
	free(pts);
}

static void bench_long(size_t csv_max, size_t ref_max, int repeat,
		       const char *bin)
{
	size_t n, i;
	int step;

	struct history_params p;

	history_params_init(&p);
	bench_print_load("before the long series");
	for (n = 10000; n <= csv_max; n *= 10) {
		for (step = 0; step < 2; step++) {
			double *v = xmalloc(n * sizeof(double));
			struct history_point *pts = xmalloc(n * sizeof(*pts));
			struct strbuf csv = STRBUF_INIT, path = STRBUF_INIT;
			char what[96], tmpl[] = "/tmp/perfsift-bench-f8.XXXXXX";
			struct bench_run br[16];
			double wall[16], cpu[16], rss = 0;
			uint64_t rng = 8;
			size_t a, b = 0;
			int k, kk = n > 100000 ? 3 : repeat;

			strbuf_addstr(&csv, "commit,m\n");
			for (i = 0; i < n; i++) {
				v[i] = long_value(i, step, &rng);
				pts[i].v = v + i;
				pts[i].n = 1;
				strbuf_addf(&csv, "c%zu,%.17g\n", i, v[i]);
			}
			snprintf(what, sizeof(what), "%zu x 1, %s: history_detect", n,
				 step ? "steps" : "ramp");
			a = time_detect(history_detect, pts, n, &p, kk, what);
			if (n <= ref_max) {
				snprintf(what, sizeof(what), "%zu x 1, %s: the plain search",
					 n, step ? "steps" : "ramp");
				b = time_detect(history_detect_reference, pts, n, &p,
						n > 10000 ? 1 : repeat, what);
				if (a != b)
					printf("  DIFFERENT: %zu against %zu change points\n",
					       a, b);
			}
			if (mkdtemp(tmpl)) {
				char *args[] = { (char *)bin, (char *)"history",
						 (char *)"--csv", NULL,
						 (char *)"--stat", (char *)"m", NULL };

				path_join(&path, tmpl, "long.csv");
				args[3] = path.buf;
				if (!write_file_atomic(path.buf, csv.buf, csv.len)) {
					for (k = 0; k < kk; k++) {
						if (bench_run_child(args, &br[k]))
							break;
						wall[k] = br[k].wall;
						cpu[k] = br[k].cpu;
						if (br[k].rss_mb > rss)
							rss = br[k].rss_mb;
					}
					if (k == kk) {
						snprintf(what, sizeof(what),
							 "  history --csv, %zu rows, CPU", n);
						report(what, cpu, kk);
						report("  its wall time", wall, kk);
						printf("  its peak RSS %.0f MB\n", rss);
					} else {
						printf("  history --csv failed\n");
					}
				}
				remove_tree(tmpl);
			}
			strbuf_release(&csv);
			strbuf_release(&path);
			free(v);
			free(pts);
		}
	}
	bench_print_load("after the long series");
}

/* ---- a synthetic root, in the index alone ---- */

static int exec_sql(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		fprintf(stderr, "bench: %s\n", msg ? msg : "sqlite error");
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static int make_root(const char *root, size_t ngroups, size_t ncommits)
{
	static const char *const names[] = {
		"bench.latency_ms", "bench.score", "vmstat.cs",
	};
	struct store st;
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT, dir = STRBUF_INIT;
	struct strbuf blob = STRBUF_INIT;
	sqlite3 *db;
	sqlite3_stmt *g = NULL, *r = NULL, *v = NULL;
	uint64_t rng = 7;
	int64_t gid = 0, rid = 0;
	size_t s, c, k, n;

	if (store_open(&st, root, NULL, STORE_CREATE, &err)) {
		fprintf(stderr, "bench: %s\n", err.buf);
		return -1;
	}
	store_close(&st);
	path_join(&path, root, "perfsift.db");
	if (sqlite3_open(path.buf, &db) != SQLITE_OK)
		return -1;
	if (exec_sql(db, "PRAGMA synchronous=OFF; BEGIN;"
		     "INSERT INTO stat_names (id, name) VALUES"
		     " (1, 'bench.latency_ms'), (2, 'bench.score'), (3, 'vmstat.cs');"))
		return -1;
	sqlite3_prepare_v2(db, "INSERT INTO groups (id, dir, testcase, path_params,"
			   " tbox_group, rootfs, kconfig, compiler, commit_id)"
			   " VALUES (?, ?, 'bench', ?, 'vm', 'debian', 'defconfig',"
			   " 'gcc-12', ?)", -1, &g, NULL);
	sqlite3_prepare_v2(db, "INSERT INTO runs (id, group_id, number, complete,"
			   " dir, indexed_at, stats) VALUES (?, ?, ?, 1, ?, ?, ?)",
			   -1, &r, NULL);
	sqlite3_prepare_v2(db, "INSERT INTO stat_values (run_id, stat_id, value,"
			   " is_int) VALUES (?, ?, ?, 0)", -1, &v, NULL);
	for (s = 0; s < ngroups; s++) {
		char pp[32];
		/* a step in a fifth of the series, at a random commit */
		size_t step = s % 5 ? SIZE_MAX :
			      50 + (size_t)(stats_splitmix64(&rng) % (ncommits - 100));

		snprintf(pp, sizeof(pp), "size-%zu", s);
		for (c = 0; c < ncommits; c++) {
			char commit[64];
			double lvl = c >= step ? 0.95 : 1;

			/* 40 hex digits, as a git sha */
			snprintf(commit, sizeof(commit), "%08zx%016" PRIx64
				 "%016" PRIx64, c, (uint64_t)0x5eedbeef5eedbeefULL,
				 (uint64_t)c * (uint64_t)0x9e3779b97f4a7c15ULL);
			strbuf_reset(&dir);
			strbuf_addf(&dir, "bench/%s/vm/debian/defconfig/gcc-12/%s",
				    pp, commit);
			sqlite3_reset(g);
			sqlite3_bind_int64(g, 1, ++gid);
			sqlite3_bind_text(g, 2, dir.buf, -1, SQLITE_TRANSIENT);
			sqlite3_bind_text(g, 3, pp, -1, SQLITE_TRANSIENT);
			sqlite3_bind_text(g, 4, commit, -1, SQLITE_TRANSIENT);
			if (sqlite3_step(g) != SQLITE_DONE)
				return -1;
			for (k = 0; k < 3; k++) {
				struct reduce_stats rs;
				double val[3];

				val[0] = 2.0 / lvl * (1 + 0.01 * history_gauss(&rng));
				val[1] = 1000 * lvl * (1 + 0.01 * history_gauss(&rng));
				val[2] = 5e4 * (1 + 0.05 * history_gauss(&rng));
				reduce_stats_init(&rs);
				for (n = 0; n < 3; n++)
					reduce_stats_add(&rs, names[n], val[n], false);
				strbuf_reset(&blob);
				store_pack_stats(&blob, &rs);
				reduce_stats_release(&rs);
				sqlite3_reset(r);
				sqlite3_bind_int64(r, 1, ++rid);
				sqlite3_bind_int64(r, 2, gid);
				sqlite3_bind_int(r, 3, (int)k);
				strbuf_addf(&dir, "/%zu", k);
				sqlite3_bind_text(r, 4, dir.buf, -1, SQLITE_TRANSIENT);
				strbuf_setlen(&dir, dir.len - 2);
				sqlite3_bind_int64(r, 5, 1700000000 + (int64_t)c * 60);
				sqlite3_bind_blob(r, 6, blob.buf, (int)blob.len,
						  SQLITE_TRANSIENT);
				if (sqlite3_step(r) != SQLITE_DONE)
					return -1;
				for (n = 0; n < 3; n++) {
					sqlite3_reset(v);
					sqlite3_bind_int64(v, 1, rid);
					sqlite3_bind_int64(v, 2, (int64_t)n + 1);
					sqlite3_bind_double(v, 3, val[n]);
					if (sqlite3_step(v) != SQLITE_DONE)
						return -1;
				}
			}
		}
	}
	sqlite3_finalize(g);
	sqlite3_finalize(r);
	sqlite3_finalize(v);
	if (exec_sql(db, "COMMIT;"))
		return -1;
	sqlite3_close(db);
	strbuf_release(&err);
	strbuf_release(&path);
	strbuf_release(&dir);
	strbuf_release(&blob);
	return 0;
}

/* run argv; its wall time (and CPU time in *cpu), or -1 when it failed */
static double run_timed(char *const argv[], double *cpu)
{
	struct bench_run r;

	if (bench_run_child(argv, &r))
		return -1;
	*cpu = r.cpu;
	return r.wall;
}

/* the largest file directly in dir, in bytes; its count in *n */
static off_t largest_file(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	off_t max = 0;

	*n = 0;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		struct strbuf p = STRBUF_INIT;
		struct stat sb;

		path_join(&p, dir, e->d_name);
		if (!stat(p.buf, &sb) && S_ISREG(sb.st_mode)) {
			(*n)++;
			if (sb.st_size > max)
				max = sb.st_size;
		}
		strbuf_release(&p);
	}
	closedir(d);
	return max;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "groups", required_argument, NULL, 'g' },
		{ "commits", required_argument, NULL, 'c' },
		{ "repeat", required_argument, NULL, 'k' },
		{ "keep", required_argument, NULL, 'K' },
		{ "csv-max", required_argument, NULL, 'C' },
		{ "ref-max", required_argument, NULL, 'R' },
		{ "only-csv", no_argument, NULL, 'O' },
		{ NULL, 0, NULL, 0 },
	};
	size_t ngroups = 1000, ncommits = 500, csv_max = 1000000, ref_max = 100000;
	int repeat = 5, c, k, only_csv = 0;
	const char *keep = NULL, *bin = getenv("PERFSIFT");
	char tmpl[] = "/tmp/perfsift-bench-history.XXXXXX", label[96];
	struct strbuf root = STRBUF_INIT, site = STRBUF_INIT, db = STRBUF_INIT;
	double t[16], cpu[16];

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'g': ngroups = (size_t)strtoul(optarg, NULL, 10); break;
		case 'c': ncommits = (size_t)strtoul(optarg, NULL, 10); break;
		case 'k': repeat = (int)strtol(optarg, NULL, 10); break;
		case 'K': keep = optarg; break;
		case 'C': csv_max = (size_t)strtoul(optarg, NULL, 10); break;
		case 'R': ref_max = (size_t)strtoul(optarg, NULL, 10); break;
		case 'O': only_csv = 1; break;
		default:
			fprintf(stderr, "usage: %s [--groups N] [--commits N] "
				"[--repeat K] [--keep DIR] [--csv-max N] "
				"[--ref-max N] [--only-csv]\n", argv[0]);
			return 2;
		}
	}
	if (repeat < 1 || repeat > 16 || ncommits < 200)
		return 2;
	if (!bin)
		bin = "build/perfsift";

	bench_long(csv_max, ref_max, repeat, bin);
	if (only_csv)
		return 0;
	bench_series(10000, 1, HISTORY_TTEST, repeat);
	bench_series(3334, 3, HISTORY_TTEST, repeat);
	bench_series(10000, 1, HISTORY_PERMUTATION, repeat);

	if (keep) {
		strbuf_addstr(&root, keep);
	} else {
		if (!mkdtemp(tmpl))
			return 3;
		strbuf_addstr(&root, tmpl);
	}
	path_join(&db, root.buf, "perfsift.db");
	if (!file_exists(db.buf)) {
		double t0 = time_mono_s();

		mkdir_p(root.buf, 0777);
		if (make_root(root.buf, ngroups, ncommits)) {
			fprintf(stderr, "bench: cannot make the root\n");
			return 3;
		}
		printf("synthesized %zu groups x %zu commits x 3 runs in %.1f s\n",
		       ngroups, ncommits, time_mono_s() - t0);
	}
	{
		char *args[] = { (char *)bin, (char *)"--result-root", root.buf,
				 (char *)"history", (char *)"--all", NULL };

		for (k = 0; k < repeat; k++)
			if ((t[k] = run_timed(args, &cpu[k])) < 0) {
				fprintf(stderr, "bench: perfsift history --all failed\n");
				return 3;
			}
		snprintf(label, sizeof(label), "history --all, %zu x %zu",
			 ngroups, ncommits);
		report(label, t, repeat);
		report("  its CPU time (user + system)", cpu, repeat);
	}
	path_join(&site, root.buf, "site");
	{
		char *args[] = { (char *)bin, (char *)"--result-root", root.buf,
				 (char *)"site", (char *)"-o", site.buf, NULL };
		size_t nfiles;
		off_t max;

		for (k = 0; k < repeat; k++) {
			remove_tree(site.buf);
			if ((t[k] = run_timed(args, &cpu[k])) < 0)
				break;
		}
		if (k == repeat) {
			snprintf(label, sizeof(label), "site -o DIR, %zu x %zu",
				 ngroups, ncommits);
			report(label, t, repeat);
			report("  its CPU time (user + system)", cpu, repeat);
			max = largest_file(site.buf, &nfiles);
			printf("site: %zu pages, the largest %.2f MB\n", nfiles,
			       (double)max / 1e6);
		} else {
			printf("site: not measured (the command failed or is not built)\n");
		}
	}
	if (!keep)
		remove_tree(root.buf);
	strbuf_release(&root);
	strbuf_release(&site);
	strbuf_release(&db);
	return 0;
}
