/*
 * monitor-overhead.c: what the monitors cost a benchmark.
 *
 *   build/bench/monitor-overhead [ROUNDS] [MIB] [TICKS]    (defaults 30 64 1000)
 *
 * 1. The sampler's own CPU per tick, no workload: TICKS ticks, 5 ms apart,
 *    each sampling every default periodic /proc monitor (the sampler's own
 *    code, sampler_tick_now()), so every monitor is due on every tick.
 *    Per tick: median and spread of the thread's CPU time (user + system),
 *    and the user/system split; per monitor: the same, and its split
 *    measured in a loop of its own; per source file: the kernel's cost of
 *    generating it (pread to end of file), which no user space can save.
 * 2. The cost to a benchmark: vm-scalability's anon-r-seq (its usemem
 *    options -- read-only private /dev/zero mapping, one process per CPU --
 *    with MIB MiB per process instead of its runtime limit, so the work is
 *    fixed) with no monitor, the default monitors of a benchmark job
 *    without perf-profile, perf-profile alone, and every default monitor;
 *    ROUNDS rounds, the configurations interleaved (the order rotates).
 *    Per configuration: throughput (bytes touched / elapsed) and system
 *    time, median and spread; against "none", the mean of the per-round
 *    ratios with its 95% confidence interval, and whether 1% is resolved.
 */
#include "util/compat.h"
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "benchmarks/vmscal_cases.h"
#include "job/job.h"
#include "monitors/monitor.h"
#include "monitors/sampling.h"
#include "run/sampler.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/timeutil.h"

#define MAX_MON 32

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* the q-quantile (0..1) of v[0..n-1], sorted in place */
static double quantile(double *v, size_t n, double q)
{
	double pos, frac;
	size_t i;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	pos = q * (double)(n - 1);
	i = (size_t)pos;
	frac = pos - (double)i;
	return i + 1 < n ? v[i] * (1 - frac) + v[i + 1] * frac : v[i];
}

static double thread_cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void thread_rusage(double *user_us, double *sys_us)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	*user_us = (double)ru.ru_utime.tv_sec * 1e6 + (double)ru.ru_utime.tv_usec;
	*sys_us = (double)ru.ru_stime.tv_sec * 1e6 + (double)ru.ru_stime.tv_usec;
}

static void pause_ms(long ms)
{
	struct timespec ts = {0, ms * 1000000};

	nanosleep(&ts, NULL);
}

static struct job *load_job(const char *text)
{
	struct strbuf err = STRBUF_INIT;
	struct job **jobs, *j;
	size_t n;

	if (job_load_string(text, "bench", &jobs, &n, &err)) {
		fprintf(stderr, "monitor-overhead: %s\n", err.buf);
		exit(1);
	}
	j = jobs[0];
	free(jobs);
	strbuf_release(&err);
	return j;
}

/* the default monitors sampled on a clock from /proc, /sys and /dev/kmsg */
static size_t periodic_proc_monitors(const struct monitor_ops **out)
{
	size_t i, n = 0;
	const struct monitor_ops *m;

	for (i = 0; i < monitor_count() && n < MAX_MON; i++) {
		m = monitor_at(i);
		if (!m->sampling || !m->sampling->in_default_set ||
		    m->sampling->default_interval <= 0 ||
		    !strcmp(m->name, "perf-stat") || !strcmp(m->name, "perf-profile"))
			continue;
		out[n++] = m;
	}
	return n;
}

/* a sampler of the given monitors whose clock never fires during the bench */
static struct sampler *start_quiet(const struct monitor_ops **mons, size_t n,
				   const char *dir, struct sampler_notes *notes,
				   struct job **jobp)
{
	struct strbuf text = STRBUF_INIT;
	struct sampler *s;
	size_t i;

	strbuf_addstr(&text, "monitors: ");
	for (i = 0; i < n; i++)
		strbuf_addf(&text, "%s%s", i ? ", " : "", mons[i]->name);
	strbuf_addch(&text, '\n');
	for (i = 0; i < n; i++)
		strbuf_addf(&text, "%s: {interval: 100000}\n", mons[i]->name);
	*jobp = load_job(text.buf);
	s = sampler_start(*jobp, dir, "/", notes);
	strbuf_release(&text);
	return s;
}

/* the kernel's cost of generating one source: pread from 0 to end of file */
static void source_cost(const char *path)
{
	static char buf[1 << 20];
	double t0, v[400];
	ssize_t n, total = 0;
	off_t off;
	int fd = open(path, O_RDONLY | O_CLOEXEC), k;

	if (fd < 0)
		return;
	for (k = 0; k < 400; k++) {
		t0 = thread_cpu_us();
		for (off = 0; (n = pread(fd, buf, sizeof(buf), off)) > 0; off += n)
			;
		v[k] = thread_cpu_us() - t0;
		total = off;
		if (k % 50 == 49)
			pause_ms(1);
	}
	close(fd);
	printf("  %-42s %7zd B  %7.1f us  (p10 %.1f, p90 %.1f)\n", path, total,
	       quantile(v, 400, 0.5), quantile(v, 400, 0.1), quantile(v, 400, 0.9));
}

/* the default set of a benchmark job here, clocked every second */
static size_t default_one_second(const char *dir, struct sampler_notes *notes,
				 const struct monitor_ops **out)
{
	struct job *job = load_job("category: benchmark\n");
	struct sampler_stat *st;
	struct sampler_ticks tk;
	struct sampler *s;
	size_t i, n, k = 0;
	const struct monitor_ops *m;

	s = sampler_start(job, dir, "/", notes);
	sampler_stats(s, &st, &n, &tk);
	for (i = 0; i < n; i++) {
		m = monitor_find(st[i].name);
		if (st[i].periodic && m->sampling->default_interval == 1 &&
		    strcmp(m->name, "perf-stat") && strcmp(m->name, "perf-profile"))
			out[k++] = m;
	}
	free(st);
	sampler_stop(s);
	job_free(job);
	return k;
}

/* CPU per tick of the monitors mons, ticks pause_ms apart: median etc. */
static void time_ticks(const struct monitor_ops **mons, size_t n,
		       const char *dir, struct sampler_notes *notes, int nticks,
		       long pause, const char *title)
{
	struct job *job;
	struct sampler *s = start_quiet(mons, n, dir, notes, &job);
	double *v = calloc((size_t)nticks, sizeof(*v)), u0, s0, u1, s1, t0;
	int k;

	thread_rusage(&u0, &s0);
	for (k = 0; k < nticks; k++) {
		t0 = thread_cpu_us();
		sampler_tick_now(s, NULL);
		v[k] = thread_cpu_us() - t0;
		pause_ms(pause);
	}
	thread_rusage(&u1, &s1);
	sampler_stop(s);
	job_free(job);
	printf("  %s, %d ticks %ld ms apart:\n"
	       "    median %6.1f us  p10 %6.1f  p90 %6.1f  least %6.1f;"
	       " user %.0f%% / system %.0f%% (rusage over the ticks)\n",
	       title, nticks, pause, quantile(v, (size_t)nticks, 0.5),
	       quantile(v, (size_t)nticks, 0.1), quantile(v, (size_t)nticks, 0.9),
	       quantile(v, (size_t)nticks, 0), (u1 - u0) / (u1 - u0 + s1 - s0 + 1e-9) * 100,
	       (s1 - s0) / (u1 - u0 + s1 - s0 + 1e-9) * 100);
	free(v);
}

static void tick_costs(const char *dir, struct sampler_notes *notes, int nticks)
{
	static const char *const sources[] = {
		"/proc/vmstat", "/proc/meminfo", "/proc/stat", "/proc/diskstats",
		"/proc/slabinfo", "/proc/interrupts", "/proc/softirqs",
		"/sys/devices/system/node/node0/meminfo",
		"/sys/devices/system/node/node0/vmstat",
		"/sys/devices/system/node/node0/numastat",
	};
	const struct monitor_ops *mons[MAX_MON], *dflt[MAX_MON];
	struct sampler_stat *st;
	struct sampler_ticks tk;
	struct sampler *s;
	struct job *job;
	uint64_t cost[MAX_MON];
	double *per[MAX_MON], cadence = 0;
	size_t n, nm, nd, i, k, half = (size_t)nticks / 2;
	struct strbuf names = STRBUF_INIT;

	nd = default_one_second(dir, notes, dflt);
	for (i = 0; i < nd; i++)
		strbuf_addf(&names, "%s%s", i ? ", " : "", dflt[i]->name);
	n = periodic_proc_monitors(mons);
	printf("sampler CPU per tick (user + system of the sampling thread, no workload):\n");
	time_ticks(dflt, nd, dir, notes, nticks / 10, 100, "the default set here with a 1 s clock, all due");
	printf("    (%s)\n", names.buf);
	time_ticks(dflt, nd, dir, notes, nticks, 5, "the same");
	time_ticks(mons, n, dir, notes, nticks / 2, 5, "every periodic /proc monitor, all due (numa-* on one node, slabinfo, sched_debug too)");

	/* per monitor: each measured inside a whole tick */
	s = start_quiet(mons, n, dir, notes, &job);
	sampler_stats(s, &st, &nm, &tk);
	for (i = 0; i < nm; i++)
		per[i] = calloc(half, sizeof(double));
	for (k = 0; k < half; k++) {
		sampler_tick_now(s, cost);
		for (i = 0; i < nm; i++)
			per[i][k] = (double)cost[i] / 1e3;
		pause_ms(5);
	}
	printf("  per monitor, inside those ticks (median us, p10-p90; user/system in a loop of its own):\n");
	for (i = 0; i < nm; i++) {
		const struct monitor_ops *one = monitor_find(st[i].name);
		struct sampler *s1m;
		struct job *j1;
		double med = quantile(per[i], half, 0.5), interval;
		double uu0, ss0, uu1, ss1;
		int reps;

		interval = one->sampling->default_interval;
		cadence += med / interval;
		s1m = start_quiet(&one, 1, dir, notes, &j1);
		/* at least 50 ms of CPU, so the tick-sampled split means something */
		reps = med > 0 ? (int)(50000 / med) + 1 : 100;
		if (reps > 5000)
			reps = 5000;
		thread_rusage(&uu0, &ss0);
		for (k = 0; k < (size_t)reps; k++)
			sampler_tick_now(s1m, NULL);
		thread_rusage(&uu1, &ss1);
		sampler_stop(s1m);
		job_free(j1);
		printf("    %-14s every %4.0f s  %7.1f us  (%6.1f-%6.1f)  user %3.0f%% system %3.0f%%\n",
		       st[i].name, interval, med, quantile(per[i], half, 0.1),
		       quantile(per[i], half, 0.9),
		       (uu1 - uu0) / (uu1 - uu0 + ss1 - ss0 + 1e-9) * 100,
		       (ss1 - ss0) / (uu1 - uu0 + ss1 - ss0 + 1e-9) * 100);
	}
	printf("  every monitor above at its LKP default interval: %.1f us of CPU per second\n",
	       cadence);
	printf("kernel cost of generating each source (pread to end of file, 400 reads\n"
	       "in bursts of 50: warm caches, so a floor):\n");
	for (i = 0; i < ARRAY_SIZE(sources); i++)
		source_cost(sources[i]);
	free(st);
	sampler_stop(s);
	job_free(job);
	for (i = 0; i < nm; i++)
		free(per[i]);
	strbuf_release(&names);
}

/* ------------------------------------------------------------- workload */

struct result {
	double elapsed, sys, tput; /* s, s, MiB/s */
};

static struct result run_anon_r_seq(const struct usemem_opts *o)
{
	struct result r = {0, 0, 0};
	struct strbuf err = STRBUF_INIT;
	struct rusage ru;
	uint64_t t0 = time_mono_ns();
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(usemem_run(o, &err));
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0 ||
	    !WIFEXITED(status) || WEXITSTATUS(status))
		return r;
	r.elapsed = (double)(time_mono_ns() - t0) / 1e9;
	r.sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	r.tput = (double)(o->size >> 20) * o->nproc / r.elapsed;
	return r;
}

/* Student's t 0.975 quantile for df degrees of freedom */
static double t975(int df)
{
	static const double t[] = {0, 12.71, 4.30, 3.18, 2.78, 2.57, 2.45, 2.36,
				   2.31, 2.26, 2.23, 2.20, 2.18, 2.16, 2.14,
				   2.13, 2.12, 2.11, 2.10, 2.09, 2.09};

	if (df < 1)
		return 0;
	if (df <= 20)
		return t[df];
	return df <= 30 ? 2.05 : df <= 60 ? 2.01 : 1.98;
}

/* mean and 95% CI half-width of the per-round ratios x/base - 1, in % */
static void ratio_ci(const double *x, const double *base, int n, double *mean,
		     double *half)
{
	double s = 0, ss = 0, d;
	int i;

	for (i = 0; i < n; i++)
		s += x[i] / base[i] - 1;
	*mean = s / n;
	for (i = 0; i < n; i++) {
		d = x[i] / base[i] - 1 - *mean;
		ss += d * d;
	}
	*half = n > 1 ? t975(n - 1) * sqrt(ss / (n - 1) / n) : 0;
	*mean *= 100;
	*half *= 100;
}

static void overhead(const char *dir, struct sampler_notes *notes, int rounds,
		     size_t mib)
{
	static const char *const name[] = {
		"none", "default - perf-profile", "perf-profile only", "all default",
	};
	static const char *const text[] = {
		"monitors: none\n",
		"category: benchmark\ndisable_monitors: perf-profile\n",
		"monitors: perf-profile\n",
		"category: benchmark\n",
	};
	enum { NC = 4 };
	struct vmscal_hw hw = {0};
	struct vmscal_params p = {0};
	struct vmscal_plan plan;
	struct strbuf err = STRBUF_INIT;
	double *tp[NC], *sy[NC], *tmp, mean, half, tick_med = 0;
	int tick_runs = 0;
	struct job *job[NC];
	int r, c, k, fd;

	hw.nr_cpu = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	hw.nr_node = 1;
	hw.mem = hw.mem_avail = hw.mem_free = 1ull << 34;
	p.test = "anon-r-seq";
	if (vmscal_plan(&hw, &p, &plan, &err)) {
		fprintf(stderr, "monitor-overhead: %s\n", err.buf);
		exit(1);
	}
	plan.um.size = (uint64_t)mib << 20;
	plan.um.runtime = 0;
	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	plan.um.out_fd = fd;
	tmp = calloc((size_t)rounds, sizeof(*tmp));
	for (c = 0; c < NC; c++) {
		tp[c] = calloc((size_t)rounds, sizeof(double));
		sy[c] = calloc((size_t)rounds, sizeof(double));
		job[c] = load_job(text[c]);
	}
	printf("anon-r-seq (usemem --readonly, %u processes x %zu MiB, private /dev/zero), "
	       "%d rounds, configurations interleaved:\n", plan.um.nproc, mib, rounds);
	run_anon_r_seq(&plan.um); /* warm up */
	for (r = 0; r < rounds; r++) {
		for (k = 0; k < NC; k++) {
			struct sampler *s;
			struct result res;
			struct sampler_stat *st;
			struct sampler_ticks tk;
			size_t n;

			c = (k + r) % NC;
			s = sampler_start(job[c], dir, "/", notes);
			res = run_anon_r_seq(&plan.um);
			if (c == 1 && s) {
				sampler_stats(s, &st, &n, &tk);
				if (tk.n) {
					tick_med += (double)tk.median_ns / 1e3;
					tick_runs++;
				}
				free(st);
			}
			sampler_stop(s);
			if (!res.elapsed) {
				fprintf(stderr, "monitor-overhead: anon-r-seq failed\n");
				exit(1);
			}
			tp[c][r] = res.tput;
			sy[c][r] = res.sys;
		}
	}
	printf("  %-24s %-34s %-30s\n", "", "throughput MiB/s median (min-max)",
	       "system s median (min-max)");
	for (c = 0; c < NC; c++) {
		double a, b, e, f, g, h;

		memcpy(tmp, tp[c], (size_t)rounds * sizeof(*tmp));
		a = quantile(tmp, (size_t)rounds, 0.5);
		b = tmp[0];
		e = tmp[rounds - 1];
		memcpy(tmp, sy[c], (size_t)rounds * sizeof(*tmp));
		f = quantile(tmp, (size_t)rounds, 0.5);
		g = tmp[0];
		h = tmp[rounds - 1];
		printf("  %-24s %8.0f (%.0f-%.0f)%*s %7.3f (%.3f-%.3f)\n", name[c], a,
		       b, e, 12, "", f, g, h);
	}
	printf("  against none, mean of the per-round ratios, 95%% confidence interval:\n");
	for (c = 1; c < NC; c++) {
		double tm, th;

		ratio_ci(tp[c], tp[0], rounds, &tm, &th);
		ratio_ci(sy[c], sy[0], rounds, &mean, &half);
		printf("    %-24s throughput %+6.2f%% +- %.2f%%, system time %+6.2f%% +- %.2f%%",
		       name[c], tm, th, mean, half);
		if (th < 1)
			printf("  (1%% resolved)\n");
		else /* the half-width shrinks as 1/sqrt(rounds) */
			printf("  (1%% not resolved: about %.0f rounds would)\n",
			       ceil(rounds * th * th));
	}
	if (tick_runs)
		printf("  sampler tick median during the default-monitor runs: %.1f us (%d runs with a tick)\n",
		       tick_med / tick_runs, tick_runs);
	else
		printf("  sampler ticks during the default-monitor runs: none (each run is shorter than the 1 s interval; the per-tick cost is measured above)\n");
	for (c = 0; c < NC; c++) {
		free(tp[c]);
		free(sy[c]);
		job_free(job[c]);
	}
	free(tmp);
	close(fd);
	strbuf_release(&err);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 30;
	size_t mib = argc > 2 ? (size_t)strtoul(argv[2], NULL, 10) : 64;
	int ticks = argc > 3 ? (int)strtol(argv[3], NULL, 10) : 1000;
	char dir[] = "/tmp/perfsift-monbench.XXXXXX";
	struct sampler_notes notes = SAMPLER_NOTES_INIT;
	double la[3];

	if (rounds < 0 || rounds > 1000 || !mib || ticks < 10 || ticks > 100000) {
		fprintf(stderr, "usage: monitor-overhead [ROUNDS] [MIB] [TICKS]\n");
		return 2;
	}
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	if (getloadavg(la, 3) == 3)
		printf("monitor-overhead: load average %.2f %.2f %.2f at start\n",
		       la[0], la[1], la[2]);
	tick_costs(dir, &notes, ticks);
	if (rounds)
		overhead(dir, &notes, rounds, mib);
	if (getloadavg(la, 3) == 3)
		printf("load average %.2f %.2f %.2f at end\n", la[0], la[1], la[2]);
	remove_tree(dir);
	sampler_notes_release(&notes);
	return 0;
}
