/*
 * bench/compare.c: how fast `perfsift compare` is.  Generates two result
 * groups (2 commits x 10 runs x N stats with real-looking names, 1%
 * noise, a known 5% of the stats shifted by 5-20%), writes them as LKP
 * result groups (matrix.json + runs) and indexes them in a store, then
 * runs the real binary on them -- from the matrix.json directories and
 * from the index (commit ids) -- and reports the median and spread of
 * the wall time and the peak RSS over several runs.
 *
 *   build/bench/compare [--stats N]... [--runs R] [--repeat K] [--keep DIR]
 *   (default: --stats 5000 --stats 50000, 10 runs, 5 repeats; add
 *    --stats 500000 for the linearity figure.  --keep DIR keeps the
 *    generated result roots, DIR/<stats>x<runs>, and reuses them on the
 *    next run: generating and indexing 500,000 stats takes minutes)
 */
#include "util/compat.h"
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "result/matrix.h"
#include "result/reduce.h"
#include "store/store.h"
#include "util/fileutil.h"
#include "result/stats.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"
#include "lib/timing.h"

static const char *const prefixes[] = {
	"proc-vmstat.", "perf-stat.", "numa-vmstat.node0.", "numa-meminfo.node1.",
	"slabinfo.", "interrupts.CPU3.", "softirqs.CPU1.", "meminfo.",
	"sched_debug.cpu.", "perf-profile.children.cycles-pp.", "vmstat.",
	"turbostat.", "cpuidle.", "latency_stats.sum.", "vm-scalability.",
	"iostat.sda.", "mpstat.cpu.all.", "lock_stat.", "pagetypeinfo.",
	"buddyinfo.",
};

static uint64_t rng_state = 0x5eed;

static double uniform(void)
{
	return ((double)(stats_splitmix64(&rng_state) >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* the two groups' matrices: same names, base and head values */
static void make_matrices(size_t nstats, size_t nruns, struct matrix *m0,
			  struct matrix *m1)
{
	struct matrix *ms[2] = { m0, m1 };
	size_t s, r, k;

	for (k = 0; k < 2; k++) {
		matrix_init(ms[k]);
		ms[k]->nstats = nstats;
		ms[k]->nruns = nruns;
		ms[k]->names = xcalloc(nstats, sizeof(char *));
		ms[k]->values = xcalloc(nstats * nruns, sizeof(double));
		ms[k]->is_int = xcalloc(nstats, 1);
		ms[k]->sources = xcalloc(nruns, sizeof(char *));
		for (r = 0; r < nruns; r++)
			ms[k]->sources[r] = xasprintf("/bench/%zu/%zu/stats.json", k, r);
	}
	for (s = 0; s < nstats; s++) {
		double mean = exp(uniform() * 20); /* 1 .. 5e8 */
		bool shifted = s % 20 == 7;        /* a known 5% */
		double shift = shifted ? 1 + 0.05 + 0.15 * uniform() : 1;
		char name[128];

		snprintf(name, sizeof(name), "%s%s_%06zu",
			 prefixes[s % ARRAY_SIZE(prefixes)],
			 s % 3 ? "nr_pages" : "event", s);
		for (k = 0; k < 2; k++) {
			ms[k]->names[s] = xstrdup(name);
			for (r = 0; r < nruns; r++)
				ms[k]->values[s * nruns + r] =
					mean * (k ? shift : 1) * (1 + 0.01 * gauss());
		}
	}
	/* names sorted: matrix.h's invariant */
	for (k = 0; k < 2; k++) {
		struct strbuf sb = STRBUF_INIT;
		struct strbuf err = STRBUF_INIT;
		struct matrix sorted;

		matrix_to_json(ms[k], &sb);
		if (matrix_parse_json(&sorted, sb.buf, sb.len, "gen", &err))
			fprintf(stderr, "bench: %s\n", err.buf), exit(3);
		matrix_release(ms[k]);
		*ms[k] = sorted;
		strbuf_release(&sb);
		strbuf_release(&err);
	}
}

static void group_dir(const char *root, const char *commit, struct strbuf *dir)
{
	strbuf_reset(dir);
	strbuf_addf(dir, "%s/bench/defaults/box/debian/defconfig/gcc-12/%s",
		    root, commit);
}

/* write a group: matrix.json, job.yaml, and runs indexed in the store */
static int write_group(struct store *st, const char *root, const char *commit,
		       const struct matrix *m, struct strbuf *dir)
{
	static const char *const axes_fmt[STORE_NAXES] = {
		"bench", "defaults", "box", "debian", "defconfig", "gcc-12", NULL,
	};
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT, path = STRBUF_INIT;
	int *present = xcalloc(m->nruns, sizeof(int));
	size_t r, s;
	int ret = -1;

	group_dir(root, commit, dir);
	if (mkdir_p(dir->buf, 0755))
		goto out;
	matrix_to_json(m, &sb);
	path_join(&path, dir->buf, "matrix.json");
	if (write_file_atomic(path.buf, sb.buf, sb.len))
		goto out;
	strbuf_reset(&sb);
	strbuf_addf(&sb, "testcase: bench\ntbox_group: box\ncommit: %s\n", commit);
	path_join(&path, dir->buf, "job.yaml");
	if (write_file_atomic(path.buf, sb.buf, sb.len))
		goto out;
	for (r = 0; r < m->nruns; r++)
		present[r] = (int)r;
	for (r = 0; r < m->nruns; r++) {
		struct reduce_stats rs;
		struct store_run_record rec;
		struct strbuf run = STRBUF_INIT;

		reduce_stats_init(&rs);
		for (s = 0; s < m->nstats; s++)
			reduce_stats_add(&rs, m->names[s], matrix_at(m, s, r), false);
		strbuf_addf(&run, "%s/%zu", dir->buf, r);
		mkdir_p(run.buf, 0755);
		memset(&rec, 0, sizeof(rec));
		rec.group_dir = dir->buf;
		for (s = 0; s < STORE_NAXES; s++)
			rec.axes[s] = axes_fmt[s] ? axes_fmt[s] : commit;
		rec.number = (int)r;
		rec.complete = true;
		rec.run_dir = run.buf;
		rec.stats = &rs;
		rec.present_runs = present;
		rec.npresent = m->nruns;
		if (store_index_run(st, &rec, &err)) {
			fprintf(stderr, "bench: %s\n", err.buf);
			reduce_stats_release(&rs);
			strbuf_release(&run);
			goto out;
		}
		reduce_stats_release(&rs);
		strbuf_release(&run);
	}
	ret = 0;
out:
	free(present);
	strbuf_release(&sb);
	strbuf_release(&err);
	strbuf_release(&path);
	return ret;
}

/* run perfsift with args: wall seconds, CPU seconds and peak RSS (MB) */
static int run_timed(char *const argv[], double *wall, double *cpu,
		     double *rss_mb)
{
	struct bench_run r;
	int ret = bench_run_child(argv, &r);

	*wall = r.wall;
	*cpu = r.cpu;
	*rss_mb = r.rss_mb;
	return ret;
}

static void report(const char *what, size_t nstats, double *wall, double *cpu,
		   double *rss, int k)
{
	bench_sort(wall, (size_t)k);
	bench_sort(cpu, (size_t)k);
	bench_sort(rss, (size_t)k);
	printf("%-30s %7zu stats: wall %.3f s (%.3f-%.3f), CPU %.3f s (%.3f-%.3f), "
	       "peak RSS %.0f MB (%.0f-%.0f)\n",
	       what, nstats, wall[k / 2], wall[0], wall[k - 1], cpu[k / 2],
	       cpu[0], cpu[k - 1], rss[k / 2], rss[0], rss[k - 1]);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "stats", required_argument, NULL, 's' },
		{ "runs", required_argument, NULL, 'r' },
		{ "repeat", required_argument, NULL, 'k' },
		{ "keep", required_argument, NULL, 'K' },
		{ NULL, 0, NULL, 0 },
	};
	size_t sizes[8], nsizes = 0, nruns = 10, i;
	int repeat = 5, c;
	const char *keep = NULL;
	char tmpl[] = "/tmp/perfsift-bench-compare.XXXXXX";
	const char *bin = getenv("PERFSIFT");
	char *root;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (nsizes < ARRAY_SIZE(sizes))
				sizes[nsizes++] = strtoul(optarg, NULL, 10);
			break;
		case 'r': nruns = strtoul(optarg, NULL, 10); break;
		case 'k': repeat = (int)strtol(optarg, NULL, 10); break;
		case 'K': keep = optarg; break;
		default:
			fprintf(stderr, "usage: bench/compare [--stats N]... [--runs R] [--repeat K] [--keep DIR]\n");
			return 2;
		}
	}
	if (!nsizes) {
		sizes[nsizes++] = 5000;
		sizes[nsizes++] = 50000;
	}
	if (repeat < 1 || repeat > 50 || nruns < 1)
		return 2;
	if (!bin)
		bin = "build/perfsift";
	root = keep ? xstrdup(keep) : xstrdup(mkdtemp(tmpl));
	if (mkdir_p(root, 0755)) {
		fprintf(stderr, "bench: cannot create %s\n", root);
		return 3;
	}
	printf("bench/compare: 2 commits x %zu runs, 5%% of stats shifted, %d repeats, binary %s\n"
	       "(median and range of the repeats; CPU = user + system of the child)\n",
	       nruns, repeat, bin);
	bench_print_load("at start");
	for (i = 0; i < nsizes; i++) {
		struct matrix m0, m1;
		struct store st;
		struct strbuf err = STRBUF_INIT, d0 = STRBUF_INIT, d1 = STRBUF_INIT;
		struct strbuf rootarg = STRBUF_INIT;
		double wall[50], cpu[50], rss[50];
		int k;

		struct strbuf sroot = STRBUF_INIT, done = STRBUF_INIT;
		static const char *const c0 = "c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0";
		static const char *const c1 = "d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1";

		/* one result root per size; --keep reuses a complete one */
		strbuf_addf(&sroot, "%s/%zux%zu", root, sizes[i], nruns);
		strbuf_addf(&done, "%s/complete", sroot.buf);
		group_dir(sroot.buf, c0, &d0);
		group_dir(sroot.buf, c1, &d1);
		if (!keep || !file_exists(done.buf)) {
			double t0 = time_mono_s();

			remove_tree(sroot.buf);
			mkdir_p(sroot.buf, 0755);
			make_matrices(sizes[i], nruns, &m0, &m1);
			if (store_open(&st, sroot.buf, NULL, STORE_CREATE, &err)) {
				fprintf(stderr, "bench: %s\n", err.buf);
				return 3;
			}
			if (write_group(&st, sroot.buf, c0, &m0, &d0) ||
			    write_group(&st, sroot.buf, c1, &m1, &d1)) {
				fprintf(stderr, "bench: cannot write the groups under %s\n",
					sroot.buf);
				return 3;
			}
			store_close(&st);
			matrix_release(&m0);
			matrix_release(&m1);
			write_file_atomic(done.buf, "", 0);
			printf("(%zu stats generated and indexed in %.1f s)\n",
			       sizes[i], time_mono_s() - t0);
		}
		strbuf_addf(&rootarg, "--result-root=%s", sroot.buf);
		{
			char *files[] = { (char *)bin, (char *)"compare", d0.buf, d1.buf, NULL };
			char *index[] = { (char *)bin, rootarg.buf, (char *)"compare",
					  (char *)"c0c0c0", (char *)"d1d1d1", NULL };
			char *stats[] = { (char *)bin, (char *)"compare", (char *)"--method=stats",
					  d0.buf, d1.buf, NULL };
			char *json[] = { (char *)bin, (char *)"compare", (char *)"--method=stats",
					 (char *)"--all", (char *)"--json", d0.buf, d1.buf, NULL };
			struct {
				const char *what;
				char **argv;
			} cases[] = {
				{ "text table, matrix.json files", files },
				{ "text table, from the index", index },
				{ "--method stats, matrix.json", stats },
				{ "--method stats --all --json", json },
			};
			size_t ci;

			for (ci = 0; ci < ARRAY_SIZE(cases); ci++) {
				for (k = 0; k < repeat; k++)
					if (run_timed(cases[ci].argv, &wall[k], &cpu[k],
						      &rss[k])) {
						fprintf(stderr, "bench: %s failed\n",
							cases[ci].what);
						return 3;
					}
				report(cases[ci].what, sizes[i], wall, cpu, rss,
				       repeat);
			}
		}
		if (!keep)
			remove_tree(sroot.buf);
		strbuf_release(&sroot);
		strbuf_release(&done);
		strbuf_release(&err);
		strbuf_release(&d0);
		strbuf_release(&d1);
		strbuf_release(&rootarg);
	}
	bench_print_load("at end");
	if (!keep)
		remove_tree(root);
	free(root);
	return 0;
}
