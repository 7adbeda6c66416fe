/*
 * monitor-overhead.c: what the monitors cost a benchmark.
 *
 *   build/bench/monitor-overhead [--attribute] [--with 'JOB TEXT']...
 *       [--case anon-r-seq|anon-w-seq]... [PAIRS [SECONDS [TICKS]]]
 *                                              (defaults 100 4 1000)
 *
 * 1. The sampler's own CPU per tick, no workload (TICKS 0 skips it):
 *    TICKS ticks, 5 ms apart, each sampling every default periodic /proc
 *    monitor (the sampler's own code, sampler_tick_now()), so every
 *    monitor is due on every tick.  Per tick: median and spread of the
 *    thread's CPU time (user + system), and the user/system split; per
 *    monitor: the same, and its split measured in a loop of its own; per
 *    source file: the kernel's cost of generating it (pread to end of
 *    file), which no user space can save.
 * 2. The cost to a benchmark, per case (vm-scalability's anon-r-seq and
 *    anon-w-seq: their usemem options, one process per CPU): a run is a
 *    fixed amount of work sized once, before the pairs, so that a run
 *    without monitors takes SECONDS -- K back-to-back usemem passes of a
 *    fixed size, so the work stays fault-bound without holding much
 *    memory -- run the way `perfsift run` runs a benchmark: forked first,
 *    the sampler started, then the workload let go, the sampler stopped
 *    after it is reaped.  The monitors are those of a real benchmark job
 *    (`category: benchmark`, `runtime: SECONDS`, so perf-profile's window
 *    is the real one: from half the runtime on, 10 s); "none" is
 *    `monitors: none`.  The configurations are interleaved, a pair (or
 *    round, with --attribute or --with) at a time, the order alternating;
 *    --attribute adds "default - perf-profile" and "perf-profile only",
 *    --with TEXT a configuration of the default job plus TEXT (e.g. an
 *    older default, to compare side by side).  Per case and measure
 *    (throughput = bytes touched / wall time of the run; system time of
 *    the workload, from wait4): the median and p10-p90 of each
 *    configuration, and against "none" the mean of the per-pair ratios
 *    with its 95% confidence interval (Student's t), the median ratio and
 *    the pair count; whether the cost is under 1% (the centre) and under
 *    2% (the interval's upper end), and how many pairs would resolve 1%.
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <gsl/gsl_cdf.h>
#include "benchmarks/vmscal_cases.h"
#include "job/job.h"
#include "monitors/monitor.h"
#include "monitors/sampling.h"
#include "run/sampler.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "lib/timing.h"

#define MAX_MON 32

/* the q-quantile (0..1) of v[0..n-1], sorted in place */
static double quantile(double *v, size_t n, double q)
{
	double pos, frac;
	size_t i;

	if (!n)
		return 0;
	bench_sort(v, n);
	pos = q * (double)(n - 1);
	i = (size_t)pos;
	frac = pos - (double)i;
	return i + 1 < n ? v[i] * (1 - frac) + v[i + 1] * frac : v[i];
}

static double thread_cpu_us(void)
{
	return (double)time_thread_cpu_ns() / 1e3;
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

#define MAX_CONF 8

/*
 * SIGINT or SIGTERM: finish the pair under way and report the pairs
 * measured so far (a long measurement cut short still says something).
 */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}
#define MAX_WITH (MAX_CONF - 4)

/* one measured run: wall and system seconds of the workload, MiB/s */
struct result {
	double elapsed, sys, tput;
};

/* a case: its vm-scalability name and the MiB per process of one pass */
struct wcase {
	const char *name;
	uint64_t mib;
};

static const struct wcase cases[] = {
	/* read faults map the zero page: only the page tables are held */
	{"anon-r-seq", 4096},
	/* write faults allocate: 2 x 1 GiB held at once, freed every pass */
	{"anon-w-seq", 1024},
};

/* a configuration of the monitors: a name and the job that starts them */
struct conf {
	char name[48];
	struct job *job;
};

struct overhead {
	const char *dir; /* scratch: one run directory at a time */
	struct sampler_notes *notes;
	int pairs;
	double seconds;
	uint64_t mib; /* --mib: the MiB per process of a pass, 0: the case's */
	struct conf conf[MAX_CONF]; /* conf[0] is "none", conf[1] "all default" */
	int nconf;
};

/*
 * One run as `perfsift run` makes it (run/engine.c): the workload forked
 * first and held on a pipe, so no sampler thread exists at fork time;
 * the sampler started; the workload let go (the clock starts); reaped;
 * the sampler stopped (its final sample and perf-profile's report fall
 * after the workload, as in a real run).  ticks, when not NULL, gets
 * the sampler's clock ticks during the run.  0, or -1 if it failed.
 */
static int run_once(const struct overhead *ov, const struct usemem_opts *um,
		    unsigned passes, const struct job *job,
		    struct sampler_ticks *ticks, struct result *r)
{
	struct strbuf err = STRBUF_INIT, rundir = STRBUF_INIT;
	struct sampler_stat *st;
	struct sampler_ticks tk;
	struct sampler *s;
	struct rusage ru;
	uint64_t t0;
	size_t n;
	int go[2], status = -1;
	unsigned k;
	char c = 1;
	pid_t pid;

	strbuf_addf(&rundir, "%s/run", ov->dir);
	if (mkdir(rundir.buf, 0700) < 0 || pipe(go) < 0) {
		perror(rundir.buf);
		exit(1);
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		for (k = 0; k < passes; k++)
			if (usemem_run(um, &err)) {
				fprintf(stderr, "monitor-overhead: usemem: %s\n", err.buf);
				_exit(1);
			}
		_exit(0);
	}
	close(go[0]);
	s = sampler_start(job, rundir.buf, "/", ov->notes);
	t0 = time_mono_ns();
	if (pid > 0 && write(go[1], &c, 1) == 1 && wait4(pid, &status, 0, &ru) == pid &&
	    WIFEXITED(status) && !WEXITSTATUS(status)) {
		r->elapsed = (double)(time_mono_ns() - t0) / 1e9;
		r->sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
		r->tput = (double)passes * um->nproc * (double)(um->size >> 20) /
			  r->elapsed;
		status = 0;
	} else {
		status = -1;
	}
	close(go[1]);
	if (ticks) {
		sampler_stats(s, &st, &n, &tk);
		free(st);
		*ticks = tk;
	}
	sampler_stop(s);
	remove_tree(rundir.buf);
	strbuf_release(&rundir);
	strbuf_release(&err);
	return status;
}

/* the mean of the per-pair ratios x/base - 1 (%), its 95% CI, the median */
struct ratio {
	double mean, lo, hi, median;
};

static struct ratio pair_ratio(const double *x, const double *base, int n)
{
	double *d = calloc((size_t)n, sizeof(*d)), s = 0, ss = 0, half = 0;
	struct ratio r;
	int i;

	for (i = 0; i < n; i++) {
		d[i] = (x[i] / base[i] - 1) * 100;
		s += d[i];
	}
	r.mean = s / n;
	for (i = 0; i < n; i++)
		ss += (d[i] - r.mean) * (d[i] - r.mean);
	if (n > 1)
		half = gsl_cdf_tdist_Pinv(0.975, n - 1) * sqrt(ss / (n - 1) / n);
	r.lo = r.mean - half;
	r.hi = r.mean + half;
	r.median = quantile(d, (size_t)n, 0.5);
	free(d);
	return r;
}

/* "yes"/"no": is the cost's centre under 1% and its upper end under 2% */
static void verdict(const char *what, double centre, double upper, double half,
		    int n)
{
	printf("      %s cost %+.2f%% (upper end %+.2f%%): centre %s 1%%, upper end %s 2%%",
	       what, centre, upper, centre < 1 ? "under" : "NOT under",
	       upper < 2 ? "under" : "NOT under");
	if (half < 1)
		printf("; 1%% resolved\n");
	else /* the half-width shrinks as 1/sqrt(pairs) */
		printf("; 1%% not resolved: about %.0f pairs would\n",
		       ceil(n * half * half));
}

static void print_spread(double *v, int n, const char *fmt)
{
	char buf[96];

	snprintf(buf, sizeof(buf), fmt, quantile(v, (size_t)n, 0.5),
		 quantile(v, (size_t)n, 0.1), quantile(v, (size_t)n, 0.9));
	printf(" %-28s", buf);
}

static void report_case(const struct overhead *ov, double *tp[], double *sy[],
			double *el[], int n)
{
	double *tmp = calloc((size_t)n, sizeof(*tmp));
	int c;

	printf("  %-26s %-28s %-28s %s\n", "", "throughput MiB/s (p10-p90)",
	       "system s (p10-p90)", "elapsed s (p10-p90)");
	for (c = 0; c < ov->nconf; c++) {
		printf("  %-26s", ov->conf[c].name);
		memcpy(tmp, tp[c], (size_t)n * sizeof(*tmp));
		print_spread(tmp, n, "%.0f (%.0f-%.0f)");
		memcpy(tmp, sy[c], (size_t)n * sizeof(*tmp));
		print_spread(tmp, n, "%.3f (%.3f-%.3f)");
		memcpy(tmp, el[c], (size_t)n * sizeof(*tmp));
		print_spread(tmp, n, "%.2f (%.2f-%.2f)");
		printf("\n");
	}
	printf("  against none: mean of the %d per-pair ratios, 95%% CI, median ratio:\n", n);
	for (c = 1; c < ov->nconf; c++) {
		struct ratio t = pair_ratio(tp[c], tp[0], n);
		struct ratio s = pair_ratio(sy[c], sy[0], n);

		printf("    %-26s throughput %+.2f%% [%+.2f, %+.2f] (median %+.2f%%), "
		       "system time %+.2f%% [%+.2f, %+.2f] (median %+.2f%%), %d pairs\n",
		       ov->conf[c].name, t.mean, t.lo, t.hi, t.median, s.mean,
		       s.lo, s.hi, s.median, n);
		/* a fall in throughput is the cost; its upper end is -lo */
		verdict("throughput", -t.mean, -t.lo, (t.hi - t.lo) / 2, n);
		verdict("system time", s.mean, s.hi, (s.hi - s.lo) / 2, n);
	}
	free(tmp);
}

static void print_load(const char *when)
{
	double la[3];

	if (getloadavg(la, 3) == 3)
		printf("  load average %.2f %.2f %.2f %s\n", la[0], la[1], la[2], when);
}

/* the case's usemem options on this machine, a pass of c->mib per process */
static void plan_case(const struct wcase *wc, uint64_t mib, int out_fd,
		      struct usemem_opts *um)
{
	struct vmscal_hw hw = {0};
	struct vmscal_params p = {0};
	struct vmscal_plan plan;
	struct strbuf err = STRBUF_INIT;

	hw.nr_cpu = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	hw.nr_node = 1;
	hw.mem = hw.mem_avail = hw.mem_free = 1ull << 34;
	p.test = wc->name;
	if (vmscal_plan(&hw, &p, &plan, &err)) {
		fprintf(stderr, "monitor-overhead: %s\n", err.buf);
		exit(1);
	}
	*um = plan.um;
	um->size = mib << 20;
	um->runtime = 0;
	um->out_fd = out_fd;
	strbuf_release(&err);
}

static void one_case(const struct overhead *ov, const struct wcase *wc, int out_fd)
{
	struct usemem_opts um;
	struct result res;
	struct sampler_ticks tk;
	double *tp[MAX_CONF], *sy[MAX_CONF], *el[MAX_CONF], *cpu[MAX_CONF];
	double *ticks, t0 = time_mono_s(), least = 1e30;
	unsigned passes;
	int p, k, c, n = ov->pairs;

	plan_case(wc, ov->mib ? ov->mib : wc->mib, out_fd, &um);
	/* size the work: the quickest of three runs without monitors */
	for (k = 0; k < 3; k++) {
		if (run_once(ov, &um, 1, ov->conf[0].job, NULL, &res) < 0)
			exit(1);
		least = res.elapsed < least ? res.elapsed : least;
	}
	passes = (unsigned)ceil(ov->seconds / least);
	passes = passes < 1 ? 1 : passes > 10000 ? 10000 : passes;
	printf("%s (usemem %s%u processes x %" PRIu64 " MiB, %u passes a run: "
	       "%.1f s without monitors; job runtime %g s), %d pairs:\n",
	       wc->name, um.readonly ? "--readonly, " : "", um.nproc, um.size >> 20,
	       passes, passes * least, ov->seconds, n);
	print_load("at start");
	for (c = 0; c < ov->nconf; c++) {
		tp[c] = calloc((size_t)n, sizeof(double));
		sy[c] = calloc((size_t)n, sizeof(double));
		el[c] = calloc((size_t)n, sizeof(double));
		cpu[c] = calloc((size_t)n, sizeof(double));
	}
	ticks = calloc((size_t)n, sizeof(double));
	for (p = 0; p < n && !interrupted; p++) {
		/* forward, then backward: a drift falls on every side alike */
		for (k = 0; k < ov->nconf; k++) {
			c = p % 2 ? ov->nconf - 1 - k : k;
			if (run_once(ov, &um, passes, ov->conf[c].job, &tk,
				     &res) < 0) {
				fprintf(stderr, "monitor-overhead: %s failed\n", wc->name);
				exit(1);
			}
			tp[c][p] = res.tput;
			sy[c][p] = res.sys;
			el[c][p] = res.elapsed;
			cpu[c][p] = (double)tk.cpu_ns / 1e6;
			if (c == 1)
				ticks[p] = (double)tk.n;
		}
		if (p % 10 == 9)
			fprintf(stderr, "monitor-overhead: %s: %d of %d pairs\n",
				wc->name, p + 1, n);
	}
	if (p < n)
		printf("  interrupted: %d of %d pairs measured\n", p, n);
	n = p;
	/* no interval from fewer than two pairs */
	if (n >= 2) {
		report_case(ov, tp, sy, el, n);
		printf("  the sampler's own CPU during a run (its ticks, median ms):");
		for (c = 1; c < ov->nconf; c++)
			printf("%s %s %.1f", c > 1 ? "," : "", ov->conf[c].name,
			       quantile(cpu[c], (size_t)n, 0.5));
		printf("\n  the sampler's clock ticked %.0f times a run with all default monitors (median; 1 s monitors: every tick)\n",
		       quantile(ticks, (size_t)n, 0.5));
	}
	print_load("at end");
	printf("  %.1f minutes\n", (time_mono_s() - t0) / 60);
	for (c = 0; c < ov->nconf; c++) {
		free(tp[c]);
		free(sy[c]);
		free(el[c]);
		free(cpu[c]);
	}
	free(ticks);
}

static void add_conf(struct overhead *ov, const char *name, const char *extra)
{
	struct strbuf text = STRBUF_INIT;
	struct conf *c = &ov->conf[ov->nconf++];

	/* a benchmark job of this runtime: the default set, perf-profile's window */
	strbuf_addf(&text, "category: benchmark\nruntime: %g\n%s", ov->seconds, extra);
	if (text.buf[text.len - 1] != '\n')
		strbuf_addch(&text, '\n');
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->job = load_job(text.buf);
	strbuf_release(&text);
}

static int usage(void)
{
	fprintf(stderr, "usage: monitor-overhead [--attribute] [--with 'JOB TEXT']... "
		"[--case NAME]... [--mib N] [PAIRS [SECONDS [TICKS]]]\n");
	return 2;
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/perfsift-monbench.XXXXXX";
	struct sampler_notes notes = SAMPLER_NOTES_INIT;
	struct overhead ov = {0};
	const char *withs[MAX_WITH];
	bool attribute = false, want[ARRAY_SIZE(cases)] = {false}, any = false;
	int i = 1, k, nwith = 0, ticks, fd;
	size_t c;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--attribute")) {
			attribute = true;
		} else if (!strcmp(argv[i], "--with") && i + 1 < argc && nwith < MAX_WITH) {
			withs[nwith++] = argv[++i];
		} else if (!strcmp(argv[i], "--case") && i + 1 < argc) {
			for (c = 0; c < ARRAY_SIZE(cases) && strcmp(cases[c].name, argv[i + 1]); c++)
				;
			if (c == ARRAY_SIZE(cases))
				return usage();
			want[c] = any = true;
			i++;
		} else if (!strcmp(argv[i], "--mib") && i + 1 < argc) {
			ov.mib = strtoull(argv[++i], NULL, 10);
			if (!ov.mib || ov.mib > (1u << 20))
				return usage();
		} else {
			return usage();
		}
	}
	ov.pairs = i < argc ? (int)strtol(argv[i++], NULL, 10) : 100;
	ov.seconds = i < argc ? strtod(argv[i++], NULL) : 4;
	ticks = i < argc ? (int)strtol(argv[i++], NULL, 10) : 1000;
	if (i < argc || ov.pairs < 0 || ov.pairs > 100000 || !(ov.seconds > 0) ||
	    ov.seconds > 3600 || (ticks && (ticks < 10 || ticks > 100000)))
		return usage();
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	ov.dir = dir;
	ov.notes = &notes;
	add_conf(&ov, "none", "monitors: none\n");
	add_conf(&ov, "all default", "");
	if (attribute) {
		add_conf(&ov, "default - perf-profile", "disable_monitors: perf-profile\n");
		add_conf(&ov, "perf-profile only", "monitors: perf-profile\n");
	}
	for (k = 0; k < nwith; k++) {
		char name[48];

		snprintf(name, sizeof(name), "with %s", withs[k]);
		for (c = 0; name[c]; c++)
			if (name[c] == '\n')
				name[c] = ' ';
		add_conf(&ov, name, withs[k]);
	}
	signal(SIGINT, on_interrupt);
	signal(SIGTERM, on_interrupt);
	print_load("at start");
	if (ticks)
		tick_costs(dir, &notes, ticks);
	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	for (c = 0; ov.pairs && c < ARRAY_SIZE(cases) && !interrupted; c++)
		if (!any || want[c])
			one_case(&ov, &cases[c], fd);
	close(fd);
	print_load("at end");
	for (k = 0; k < ov.nconf; k++)
		job_free(ov.conf[k].job);
	remove_tree(dir);
	sampler_notes_release(&notes);
	return 0;
}
