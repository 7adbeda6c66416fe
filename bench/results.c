/*
 * bench/results.c: what the result module costs after a run.  Times
 *  - dump-stat + reduction of a proc-vmstat-sized stream (200 keys a
 *    record, RECORDS records: 1 Hz for RECORDS seconds),
 *  - unite + matrix.json text of a group of RUNS runs x STATS stats,
 *  - indexing RUNS runs of STATS stats each in a fresh SQLite index (one
 *    transaction a run), loading the group's matrix back, and a commit
 *    prefix lookup,
 *  - checking the group for runs of different jobs (result_group_mixed():
 *    each run's job.yaml read and its parameters compared), what
 *    `results`, compare and the start of a run pay on top,
 * each repeated and reported as median and quartiles.
 *
 *   build/bench/results [STATS [RUNS [RECORDS [STORE_URL]]]]
 *       (default 5000 10 600, the temporary root's SQLite file)
 */
#include "util/compat.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "result/matrix.h"
#include "result/reduce.h"
#include "result/result.h"
#include "result/samples.h"
#include "store/store.h"
#include "result/unite.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "lib/timing.h"

#define REPEAT 7

static void report(const char *what, double *v, int n)
{
	bench_sort(v, (size_t)n);
	printf("%-44s median %9.2f ms   q1 %9.2f   q3 %9.2f\n", what,
	       v[n / 2] * 1e3, v[n / 4] * 1e3, v[3 * n / 4] * 1e3);
}

static void make_stats(struct reduce_stats *st, int nstats, int run)
{
	struct strbuf name = STRBUF_INIT;
	int s;

	reduce_stats_init(st);
	for (s = 0; s < nstats; s++) {
		strbuf_reset(&name);
		strbuf_addf(&name, "bench.group%02d.stat_%05d", s % 37, s);
		reduce_stats_add(st, name.buf, 1000.0 + s * 3.5 + run, s % 2);
	}
	reduce_stats_sort(st);
	strbuf_release(&name);
}

int main(int argc, char **argv)
{
	/* a bench tool's own arguments, not input: strtol without checks is fine here */
	int nstats = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 5000;
	int nruns = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 10;
	int nrec = argc > 3 ? (int)strtol(argv[3], NULL, 10) : 600;
	const char *url = argc > 4 ? argv[4] : NULL;
	double t[REPEAT], t2[REPEAT], *ti;
	struct unite_column *cols;
	const char **names;
	double *values;
	unsigned char *is_int;
	struct strbuf stream = STRBUF_INIT, err = STRBUF_INIT, out = STRBUF_INIT;
	struct strbuf group = STRBUF_INIT, run = STRBUF_INIT;
	struct reduce_stats *runs;
	char root[] = "/tmp/perfsift-bench-XXXXXX";
	struct store st;
	struct store_group g;
	struct matrix m;
	int i, r, k;

	if (nstats < 1 || nruns < 1 || nrec < 2)
		return 2;
	/* a proc-vmstat-like stream: counters and gauges, 200 keys a record */
	for (r = 0; r < nrec; r++) {
		strbuf_addf(&stream, "time: %d\n", 1796020101 + r);
		for (k = 0; k < 200; k++)
			strbuf_addf(&stream, "%s_%03d: %d\n", k % 2 ? "pgx" : "nr_x",
				    k, 1000000 + r * (k + 1));
	}
	for (i = 0; i < REPEAT; i++) {
		struct samples s;
		struct reduce_stats rs;
		double t0 = time_mono_s();

		samples_init(&s, "proc-vmstat");
		if (samples_parse(&s, stream.buf, stream.len, "bench", &err))
			return 1;
		samples_finish(&s);
		strbuf_reset(&out);
		samples_to_json(&s, &out);
		reduce_stats_init(&rs);
		reduce_samples(&s, NULL, &rs);
		reduce_stats_sort(&rs);
		t[i] = time_mono_s() - t0;
		reduce_stats_release(&rs);
		samples_release(&s);
	}
	printf("stream: %d records x 200 keys (%zu bytes); group: %d runs x %d stats\n",
	       nrec, stream.len, nruns, nstats);
	report("dump-stat + <m>.json + reduce", t, REPEAT);

	runs = calloc((size_t)nruns, sizeof(*runs));
	cols = calloc((size_t)nruns, sizeof(*cols));
	for (r = 0; r < nruns; r++) {
		make_stats(&runs[r], nstats, r);
		cols[r].source = "/x/stats.json";
		cols[r].n = runs[r].n;
		cols[r].names = names = calloc(runs[r].n, sizeof(*names));
		cols[r].values = values = calloc(runs[r].n, sizeof(*values));
		cols[r].is_int = is_int = calloc(runs[r].n, 1);
		for (k = 0; k < (int)runs[r].n; k++) {
			names[k] = runs[r].items[k].name;
			values[k] = runs[r].items[k].value;
			is_int[k] = runs[r].items[k].is_int;
		}
	}
	for (i = 0; i < REPEAT; i++) {
		double t0 = time_mono_s();

		unite_columns(cols, (size_t)nruns, &m);
		t[i] = time_mono_s() - t0;
		t2[i] = time_mono_s();
		strbuf_reset(&out);
		matrix_to_json(&m, &out);
		t2[i] = time_mono_s() - t2[i];
		matrix_release(&m);
	}
	report("unite (same stats in every run)", t, REPEAT);
	report("matrix.json text", t2, REPEAT);

	if (!mkdtemp(root) || store_open(&st, root, url, STORE_CREATE, &err)) {
		fprintf(stderr, "%s\n", err.buf);
		return 1;
	}
	/* a fresh commit id each time, for a shared PostgreSQL index */
	strbuf_addf(&group, "%s/bench/defaults/box/debian/defconfig/gcc-12/cafe%ld",
		    st.root, (long)getpid());
	ti = calloc((size_t)nruns, sizeof(*ti));
	for (r = 0; r < nruns; r++) {
		struct store_run_record rec = {0};
		double t0;

		strbuf_reset(&run);
		strbuf_addf(&run, "%s/%d", group.buf, r);
		rec.group_dir = group.buf;
		rec.axes[STORE_TESTCASE] = "bench";
		rec.axes[STORE_COMMIT] = path_basename(group.buf);
		rec.number = r;
		rec.complete = true;
		rec.run_dir = run.buf;
		rec.stats = &runs[r];
		t0 = time_mono_s();
		if (store_index_run(&st, &rec, &err)) {
			fprintf(stderr, "%s\n", err.buf);
			return 1;
		}
		ti[r] = time_mono_s() - t0;
	}
	report("index one run (one transaction)", ti, nruns);
	if (store_resolve(&st, path_basename(group.buf), &g, &err)) {
		fprintf(stderr, "%s\n", err.buf);
		return 1;
	}
	for (i = 0; i < REPEAT; i++) {
		double t0 = time_mono_s();

		if (store_load_matrix(&st, g.id, &m, &err))
			return 1;
		t[i] = time_mono_s() - t0;
		matrix_release(&m);
	}
	report("load the group's matrix from the index", t, REPEAT);
	for (i = 0; i < REPEAT; i++) {
		struct store_group h;
		double t0 = time_mono_s();

		if (store_resolve(&st, path_basename(group.buf), &h, &err))
			return 1;
		t[i] = time_mono_s() - t0;
		store_group_release(&h);
	}
	report("resolve a commit id", t, REPEAT);
	/* a job.yaml as `perfsift run` writes it, in every run directory */
	for (r = 0; r < nruns; r++) {
		static const char job[] =
			"---\nsuite: vm-scalability\ntestcase: vm-scalability\n"
			"category: benchmark\nruntime: 300s\n"
			"cpufreq_governor: performance\nvm-scalability:\n"
			"  test: anon-r-seq\nperf-stat:\n  interval_ms: 1000\n"
			"vmstat:\nproc-vmstat:\nmeminfo:\ntestbox: box-1\n"
			"tbox_group: box\narch: x86_64\nkconfig: defconfig\n"
			"commit: cafe\nrootfs: debian\ncompiler: gcc-12\n"
			"nr_cpu: 2\nmemory: 24G\nmodel: AMD EPYC\n"
			"env_kernel_cmdline: root=/dev/vda1 quiet\n"
			"env_thp_enabled: madvise\nenv_thp_defrag: madvise\n"
			"env_cpufreq_governor: none\n"
			"env_kconfig_hash: fnv1a64:0123456789abcdef\n";
		strbuf_reset(&run);
		strbuf_addf(&run, "%s/%d", group.buf, r);
		if (mkdir_p(run.buf, 0777) < 0)
			return 1;
		strbuf_addstr(&run, "/job.yaml");
		if (write_file_atomic(run.buf, job, sizeof(job) - 1) < 0) {
			fprintf(stderr, "cannot write '%s'\n", run.buf);
			return 1;
		}
	}
	for (i = 0; i < REPEAT; i++) {
		struct strbuf why = STRBUF_INIT;
		double t0 = time_mono_s();

		if (result_group_mixed(group.buf, &why))
			return 1;
		t[i] = time_mono_s() - t0;
		strbuf_release(&why);
	}
	report("check the group for runs of different jobs", t, REPEAT);
	if (url && store_forget_group(&st, g.id, &err))
		fprintf(stderr, "%s\n", err.buf);
	store_group_release(&g);
	store_close(&st);
	remove_tree(root);
	for (r = 0; r < nruns; r++) {
		reduce_stats_release(&runs[r]);
		free((void *)cols[r].names);
		free((void *)cols[r].values);
		free((void *)cols[r].is_int);
	}
	free(runs);
	free(cols);
	free(ti);
	strbuf_release(&stream);
	strbuf_release(&err);
	strbuf_release(&out);
	strbuf_release(&group);
	strbuf_release(&run);
	return 0;
}
