/*
 * bench/will-it-scale.c: how close perfsift's will-it-scale harness comes
 * to a plain C loop of the same operations.
 *
 *   build/bench/will-it-scale [SECONDS [RUNS [TASKS]]]      (2 5 1)
 *
 * For page_fault1, context_switch1, pipe1, getppid1 and read1: each run
 * measures the testcase through wis_measure() -- the benchmark's own
 * path: tasks forked and bound to a CPU, counting in shared memory, the
 * harness reading the counters over the window -- and through a plain
 * loop of the same operations in TASKS processes bound the same way,
 * counting in a local variable and reading the clock every few thousand
 * operations, over the same warm-up and window.  The two alternate within
 * each run (which goes first alternates too), so drift of the shared
 * machine falls on both.  Printed per testcase: the median ops/s of
 * each side with its range, the ratio of the medians (the goal: >= 0.90),
 * the same ratio of operations per CPU second ("cpu": every operation the
 * tasks counted over their user + system time, from RUSAGE_CHILDREN; on a
 * shared machine the wall clock also counts the time a task waited for a
 * CPU, the CPU time only the work; context_switch1's partner is on
 * neither side's bill), and perfsift's run-to-run noise over the RUNS
 * runs (range / median, and the relative standard deviation).
 */
#include "util/compat.h"
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "benchmarks/wis.h"
#include "benchmarks/wis_cases.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "lib/timing.h"

#define MAX_RUNS 64
#define WARMUP_S 0.2
#define MAP_SIZE (128ul << 20)

/* ------------------------------------------------ the plain loops */

/* a plain loop: runs until the clock passes end_ns, returns its count */
typedef uint64_t (*plain_fn)(uint64_t end_ns, const char *dir);

static uint64_t plain_page_fault1(uint64_t end_ns, const char *dir)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), i;
	uint64_t n = 0;

	(void)dir;
	while (time_mono_ns() < end_ns) {
		char *c = mmap(NULL, MAP_SIZE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (c == MAP_FAILED)
			_exit(1);
		for (i = 0; i < MAP_SIZE; i += pg) {
			c[i] = 0;
			n++;
		}
		munmap(c, MAP_SIZE);
	}
	return n;
}

static uint64_t plain_getppid1(uint64_t end_ns, const char *dir)
{
	uint64_t n = 0;
	int i;

	(void)dir;
	while (time_mono_ns() < end_ns)
		for (i = 0; i < 4096; i++, n++)
			syscall(SYS_getppid);
	return n;
}

static uint64_t plain_pipe1(uint64_t end_ns, const char *dir)
{
	uint64_t n = 0;
	int fd[2], i;
	char c = 0;

	(void)dir;
	if (pipe(fd) < 0)
		_exit(1);
	while (time_mono_ns() < end_ns)
		for (i = 0; i < 1024; i++, n++)
			if (write(fd[1], &c, 1) != 1 || read(fd[0], &c, 1) != 1)
				_exit(1);
	return n;
}

static uint64_t plain_context_switch1(uint64_t end_ns, const char *dir)
{
	int to[2], back[2], i;
	uint64_t n = 0;
	pid_t pid;
	char c = 0;

	(void)dir;
	if (pipe(to) < 0 || pipe(back) < 0)
		_exit(1);
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			if (read(to[0], &c, 1) != 1 || write(back[1], &c, 1) != 1)
				_exit(1);
	}
	while (time_mono_ns() < end_ns)
		for (i = 0; i < 256; i++, n += 2)
			if (write(to[1], &c, 1) != 1 || read(back[0], &c, 1) != 1)
				_exit(1);
	/* killed, not reaped here: like perfsift's partner, off the CPU bill */
	kill(pid, SIGKILL);
	return n;
}

static uint64_t plain_read1(uint64_t end_ns, const char *dir)
{
	static char buf[1 << 20];
	char path[4096];
	uint64_t n = 0;
	int fd, i;

	snprintf(path, sizeof(path), "%s/plain.XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0 || unlink(path) < 0 || write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		_exit(1);
	lseek(fd, 0, SEEK_SET);
	while (time_mono_ns() < end_ns)
		for (i = 0; i < 1024; i++, n++)
			if (read(fd, buf, 4096) == 0)
				lseek(fd, 0, SEEK_SET);
	return n;
}

static const struct {
	const char *name;
	plain_fn plain;
} cases[] = {
	{"page_fault1", plain_page_fault1},
	{"context_switch1", plain_context_switch1},
	{"pipe1", plain_pipe1},
	{"getppid1", plain_getppid1},
	{"read1", plain_read1},
};

/* the CPUs this process may use, as wis_measure binds its tasks */
static int nth_cpu(unsigned i)
{
	cpu_set_t set;
	unsigned k = 0, n = 0;
	int c;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -1;
	for (c = 0; c < CPU_SETSIZE; c++)
		n += CPU_ISSET(c, &set) ? 1 : 0;
	for (c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set) && k++ == i % n)
			return c;
	return -1;
}

/* CPU seconds (user + system) of the reaped children so far */
static double children_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_CHILDREN, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* what a plain task reports: its rate over its window, and every operation */
struct plain_out {
	double rate;
	uint64_t total;
};

/* ops/s of TASKS plain loops, bound and timed as wis_measure's tasks */
static double plain_rate(plain_fn fn, unsigned tasks, double secs, const char *dir,
			 uint64_t *total)
{
	uint64_t t0, end;
	double rate = 0;
	int fd[2];
	unsigned i;

	*total = 0;
	if (pipe(fd) < 0)
		return 0;
	t0 = time_mono_ns() + (uint64_t)(WARMUP_S * 1e9);
	end = t0 + (uint64_t)(secs * 1e9);
	for (i = 0; i < tasks; i++) {
		if (fork() == 0) {
			struct plain_out o;
			cpu_set_t set;
			uint64_t n;
			int cpu = nth_cpu(i);

			if (cpu >= 0) {
				CPU_ZERO(&set);
				CPU_SET(cpu, &set);
				sched_setaffinity(0, sizeof(set), &set);
			}
			o.total = fn(t0, dir); /* the warm-up */
			n = fn(end, dir);
			o.total += n;
			/* a loop stops at its first clock check past the end: its own window */
			o.rate = (double)n / ((double)(time_mono_ns() - t0) / 1e9);
			if (write(fd[1], &o, sizeof(o)) != sizeof(o))
				_exit(1);
			_exit(0);
		}
	}
	close(fd[1]);
	for (i = 0; i < tasks; i++) {
		struct plain_out o;

		if (read(fd[0], &o, sizeof(o)) == sizeof(o)) {
			rate += o.rate;
			*total += o.total;
		}
	}
	close(fd[0]);
	while (wait(NULL) > 0)
		;
	return rate;
}

/* ---------------------------------------------------- figures */

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct stat3 {
	double med, lo, hi, rsd;
};

static struct stat3 summarize(const double *in, int n)
{
	double v[MAX_RUNS], mean = 0, var = 0;
	struct stat3 s;
	int i;

	memcpy(v, in, (size_t)n * sizeof(*v));
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	s.lo = v[0];
	s.hi = v[n - 1];
	s.med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	for (i = 0; i < n; i++)
		mean += v[i] / n;
	for (i = 0; i < n; i++)
		var += (v[i] - mean) * (v[i] - mean) / n;
	s.rsd = mean > 0 ? 100 * sqrt(var) / mean : 0;
	return s;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? strtod(argv[1], NULL) : 2;
	int runs = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 5;
	unsigned tasks = argc > 3 ? (unsigned)strtol(argv[3], NULL, 10) : 1;
	char dir[] = "/tmp/perfsift-bench-wis.XXXXXX";
	size_t k;

	if (secs <= 0 || runs < 1 || runs > MAX_RUNS || tasks < 1 || !mkdtemp(dir)) {
		fprintf(stderr, "usage: will-it-scale [SECONDS [RUNS [TASKS]]]\n");
		return 2;
	}
	printf("will-it-scale: %g s window after %g s warm-up, %d runs, %u task(s), processes\n",
	       secs, WARMUP_S, runs, tasks);
	bench_print_load("before");
	printf("%-16s %12s %21s %12s %21s %6s %6s %7s %6s\n", "testcase", "perfsift",
	       "(range)", "plain loop", "(range)", "ratio", "cpu", "noise", "rsd");
	for (k = 0; k < ARRAY_SIZE(cases); k++) {
		const struct wis_case *c = wis_case_find(cases[k].name);
		double ps[MAX_RUNS], pl[MAX_RUNS], pc[MAX_RUNS], lc[MAX_RUNS];
		struct stat3 a, b, ac, bc;
		int i;

		for (i = 0; i < runs; i++) {
			struct strbuf err = STRBUF_INIT;
			struct wis_result r;
			bool plain_first = i % 2;
			uint64_t n;
			double cpu;

			if (plain_first) {
				cpu = children_cpu();
				pl[i] = plain_rate(cases[k].plain, tasks, secs, dir, &n);
				lc[i] = (double)n / (children_cpu() - cpu);
			}
			cpu = children_cpu();
			if (wis_measure(c, false, tasks, dir, true, WARMUP_S, secs, &r, &err) < 0) {
				fprintf(stderr, "%s: %s\n", c->name, err.buf);
				return 1;
			}
			ps[i] = (double)r.ops;
			pc[i] = (double)r.total / (children_cpu() - cpu);
			if (!plain_first) {
				cpu = children_cpu();
				pl[i] = plain_rate(cases[k].plain, tasks, secs, dir, &n);
				lc[i] = (double)n / (children_cpu() - cpu);
			}
			strbuf_release(&err);
		}
		a = summarize(ps, runs);
		b = summarize(pl, runs);
		ac = summarize(pc, runs);
		bc = summarize(lc, runs);
		printf("%-16s %12.0f (%9.0f..%9.0f) %12.0f (%9.0f..%9.0f) %6.3f %6.3f %6.1f%% %5.1f%%\n",
		       c->name, a.med, a.lo, a.hi, b.med, b.lo, b.hi,
		       b.med > 0 ? a.med / b.med : 0, bc.med > 0 ? ac.med / bc.med : 0,
		       a.med > 0 ? 100 * (a.hi - a.lo) / a.med : 0, a.rsd);
		fflush(stdout);
	}
	bench_print_load("after");
	remove_tree(dir);
	return 0;
}
