/*
 * monitor-overhead.c: what the monitors cost a benchmark.  A fixed CPU-
 * and page-fault-bound workload (anonymous memory mapped, touched and
 * unmapped in a loop, in a child process) runs with no monitor, with every
 * default monitor of a benchmark job, and with perf-profile alone, the
 * three interleaved run by run so that drift hits them alike.  Prints the
 * median and spread of the workload's elapsed and system time per
 * configuration, the difference to "none", and the sampler's own CPU time
 * per sample.
 *
 *   build/bench/monitor-overhead [RUNS] [MIB] [LOOPS]     (defaults 10 64 4)
 */
#include "util/compat.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "job.h"
#include "sampler.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/timeutil.h"

struct result {
	double elapsed, sys, cpu; /* cpu: user + system */
};

static void workload(size_t mib, int loops)
{
	size_t len = mib << 20, i;
	volatile unsigned long sink = 0;
	unsigned long x = 1;
	int l;
	char *p;

	for (l = 0; l < loops; l++) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			_exit(1);
		for (i = 0; i < len; i += 4096) {
			p[i] = (char)i;
			x = x * 6364136223846793005ul + 1442695040888963407ul;
		}
		for (i = 0; i < 20000000; i++)
			x = x * 6364136223846793005ul + 1442695040888963407ul;
		sink += x;
		munmap(p, len);
	}
	(void)sink;
}

static struct result run_once(size_t mib, int loops)
{
	struct result r = {0, 0, 0};
	struct rusage ru;
	uint64_t t0 = time_mono_ns();
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		workload(mib, loops);
		_exit(0);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
		return r;
	r.elapsed = (double)(time_mono_ns() - t0) / 1e9;
	r.sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	r.cpu = r.sys + (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	return r;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void summary(const char *name, double *v, int n, double base_median)
{
	double med;

	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	printf("  %-22s median %8.4f  min %8.4f  max %8.4f", name, med, v[0],
	       v[n - 1]);
	if (base_median > 0)
		printf("  (%+.2f%% vs none)", (med / base_median - 1) * 100);
	printf("\n");
}

static double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The sampler's own CPU time per tick with every default periodic /proc
 * monitor (and kmsg) due on each tick: 0.1 s clock for 3 s while idle.
 * The median is the figure (a VM's steal time lands in whoever runs).
 */
static void proc_tick_cost(const char *dir)
{
	static const char job_text[] =
		"monitors: kmsg, vmstat, proc-vmstat, meminfo, numa-meminfo, numa-vmstat, numa-numastat, slabinfo, proc-stat, diskstats\n"
		"kmsg: {interval: 0.1}\nvmstat: {interval: 0.1}\nproc-vmstat: {interval: 0.1}\n"
		"meminfo: {interval: 0.1}\nnuma-meminfo: {interval: 0.1}\nnuma-vmstat: {interval: 0.1}\n"
		"numa-numastat: {interval: 0.1}\nslabinfo: {interval: 0.1}\nproc-stat: {interval: 0.1}\n"
		"diskstats: {interval: 0.1}\n";
	struct strbuf err = STRBUF_INIT;
	struct sampler_ticks t;
	struct sampler_stat *st;
	struct job **jobs;
	size_t njobs, n;
	struct sampler *s;

	if (job_load_string(job_text, "bench", &jobs, &njobs, &err)) {
		fprintf(stderr, "%s\n", err.buf);
		return;
	}
	s = sampler_start(jobs[0], dir, "/", &err);
	sleep(3);
	sampler_stats(s, &st, &n, &t);
	printf("sampler CPU per tick, all default periodic /proc monitors due (%zu monitors, %" PRIu64 " ticks):\n"
	       "  median %.1f us, least %.1f us, mean %.1f us\n",
	       n, t.n, (double)t.median_ns / 1e3, (double)t.min_ns / 1e3,
	       t.n ? (double)t.cpu_ns / (double)t.n / 1e3 : 0);
	free(st);
	sampler_stop(s);
	job_free_all(jobs, njobs);
	strbuf_release(&err);
}

int main(int argc, char **argv)
{
	static const char *const conf_name[] = {"none", "default monitors", "perf-profile only"};
	static const char *const conf_job[] = {
		"monitors: none\n", "category: benchmark\n", "monitors: perf-profile\n",
	};
	int runs = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 10;
	size_t mib = argc > 2 ? (size_t)strtoul(argv[2], NULL, 10) : 64;
	int loops = argc > 3 ? (int)strtol(argv[3], NULL, 10) : 4;
	double *el[3], *sy[3], *cp[3], base, own_cpu = 0, own_wall = 0;
	struct strbuf err = STRBUF_INIT;
	char dir[] = "/tmp/perfsift-monbench.XXXXXX";
	struct job **jobs[3];
	size_t njobs[3], n, i;
	int r, c;

	if (runs < 1 || runs > 1000 || !mib || loops < 1)
		return 2;
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	for (c = 0; c < 3; c++) {
		el[c] = calloc((size_t)runs, sizeof(double));
		sy[c] = calloc((size_t)runs, sizeof(double));
		cp[c] = calloc((size_t)runs, sizeof(double));
		if (job_load_string(conf_job[c], "bench", &jobs[c], &njobs[c], &err)) {
			fprintf(stderr, "%s\n", err.buf);
			return 1;
		}
	}
	printf("monitor-overhead: %d runs per configuration, interleaved; workload %zu MiB x %d loops\n",
	       runs, mib, loops);
	for (r = 0; r < runs; r++) {
		for (c = 0; c < 3; c++) {
			/* rotate the order so no configuration always goes first */
			int k = (c + r) % 3;
			struct sampler *s = sampler_start(jobs[k][0], dir, "/", &err);
			struct result res = run_once(mib, loops);
			struct sampler_stat *st;
			struct sampler_ticks ticks;

			sampler_stats(s, &st, &n, &ticks);
			if (k == 1) {
				/* the sampler's own CPU: the clock's ticks and the start samples */
				own_cpu += (double)ticks.cpu_ns / 1e9;
				for (i = 0; i < n; i++)
					own_cpu += (double)st[i].cpu_ns / 1e9;
				own_wall += res.elapsed;
			}
			free(st);
			sampler_stop(s);
			el[k][r] = res.elapsed;
			sy[k][r] = res.sys;
			cp[k][r] = res.cpu;
		}
	}
	printf("elapsed seconds:\n");
	base = median_of(el[0], runs);
	for (c = 0; c < 3; c++)
		summary(conf_name[c], el[c], runs, c ? base : 0);
	printf("workload CPU seconds (user + system; waiting for a CPU not counted):\n");
	base = median_of(cp[0], runs);
	for (c = 0; c < 3; c++)
		summary(conf_name[c], cp[c], runs, c ? base : 0);
	printf("system seconds:\n");
	base = median_of(sy[0], runs);
	for (c = 0; c < 3; c++)
		summary(conf_name[c], sy[c], runs, c ? base : 0);
	if (own_wall > 0)
		printf("sampler CPU with the default monitors (start samples and clock, stop excluded): %.3f s in %.1f s of runs = %.3f%% of one CPU\n",
		       own_cpu, own_wall, own_cpu / own_wall * 100);
	proc_tick_cost(dir);
	remove_tree(dir);
	strbuf_release(&err);
	return 0;
}
