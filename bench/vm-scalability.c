/*
 * bench/vm-scalability.c: how fast perfsift's usemem engine is, against
 * the limits of the machine it runs on.
 *
 *   build/bench/vm-scalability [MIB_PER_WORKER [RUNS [WORKERS]]]   (1024 5 1)
 *
 * 1. Limits: read and write (memset) bandwidth of already-faulted memory;
 *    the rate of a minimal fault loop (one touch per page) on 4 KiB pages
 *    and on THP (MADV_NOHUGEPAGE / MADV_HUGEPAGE, so the global THP knob
 *    is never touched), for read faults (zero page) and write faults.
 * 2. Cases: anon-r-seq, anon-w-seq, anon-r-rand, anon-cow-seq and
 *    mmap-pread-seq at the same size, each run by the usemem engine and
 *    by a plain C loop that does the same accesses (8-byte volatile
 *    loads/stores, same order, lrand48_r indices for random) on the same
 *    kind of mapping, faults included, timed the same way (from before
 *    the fork to the end of the pass).  The ratio plain time / usemem
 *    time is the engine's efficiency; the goal is >= 0.90.  "cpu" is the
 *    same ratio of CPU time (user + system of the workers, from
 *    RUSAGE_CHILDREN): on a shared machine the wall clock also counts the
 *    time a worker waited for a CPU, the CPU time only the work.
 * 3. With USEMEM=/path/to/the/suite's/usemem in the environment, each
 *    case is also run by the original usemem with the same options and
 *    size, alternating with perfsift's, and the time ratio printed
 *    (>= 1.0: perfsift is no slower).
 * Every figure is the median of RUNS runs, with the range beside it.
 */
#include "util/compat.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "benchmarks/usemem.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "lib/timing.h"

#define MAX_RUNS 64

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct stat3 {
	double med, lo, hi;
};

static struct stat3 summarize(double *v, int n)
{
	struct stat3 s;

	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	s.lo = v[0];
	s.hi = v[n - 1];
	s.med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	return s;
}

/* CPU seconds (user + system) of the reaped children so far */
static double children_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_CHILDREN, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* ------------------------------------------------------------ limits */

static double bw_read(size_t bytes)
{
	uint64_t *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, t;
	size_t i, n = bytes / 8;
	volatile uint64_t sink;

	if (p == MAP_FAILED)
		return 0;
	memset(p, 1, bytes);
	t = time_mono_ns();
	for (i = 0; i + 4 <= n; i += 4) {
		s0 += p[i];
		s1 += p[i + 1];
		s2 += p[i + 2];
		s3 += p[i + 3];
	}
	t = time_mono_ns() - t;
	sink = s0 + s1 + s2 + s3;
	(void)sink;
	munmap(p, bytes);
	return (double)bytes / (double)t; /* GB/s */
}

static double bw_write(size_t bytes)
{
	char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	uint64_t t;

	if (p == MAP_FAILED)
		return 0;
	memset(p, 1, bytes);
	t = time_mono_ns();
	memset(p, 2, bytes);
	__asm__ __volatile__("" : : "r"(p) : "memory");
	t = time_mono_ns() - t;
	munmap(p, bytes);
	return (double)bytes / (double)t;
}

/* faults per second of one touch per page; huge: MADV_HUGEPAGE */
static double fault_rate(size_t bytes, bool huge, bool write)
{
	size_t step = huge ? 2u << 20 : 4096, i, align = 2u << 20;
	char *raw = mmap(NULL, bytes + align, write ? PROT_READ | PROT_WRITE : PROT_READ,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	volatile char *p;
	uint64_t t;

	if (raw == MAP_FAILED)
		return 0;
	p = (volatile char *)(((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1));
	madvise((void *)p, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	t = time_mono_ns();
	for (i = 0; i < bytes; i += step) {
		if (write)
			p[i] = 1;
		else
			(void)p[i];
	}
	t = time_mono_ns() - t;
	munmap(raw, bytes + align);
	return (double)(bytes / step) / ((double)t / 1e9);
}

/* ------------------------------------------------------------- cases */

enum bcase { B_R_SEQ, B_W_SEQ, B_R_RAND, B_COW_SEQ, B_PREAD_SEQ, B_N };
static const char *const bnames[B_N] = {
	"anon-r-seq", "anon-w-seq", "anon-r-rand", "anon-cow-seq", "mmap-pread-seq",
};

static void case_opts(enum bcase c, struct usemem_opts *o, uint64_t size,
		      unsigned workers, const char *file)
{
	usemem_opts_init(o);
	o->size = size;
	o->nproc = workers;
	o->readonly = c == B_R_SEQ || c == B_R_RAND || c == B_PREAD_SEQ;
	o->random = c == B_R_RAND;
	o->prealloc = o->prefault = c == B_COW_SEQ;
	o->seed_set = true;
	o->seed = 42;
	if (c == B_PREAD_SEQ)
		o->file = file;
}

static int fresh_file(const char *path, uint64_t size)
{
	int fd;

	unlink(path);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)size) < 0)
		return -1;
	close(fd);
	return 0;
}

/* the longest "usecs" of a worker's stats line in out, in seconds */
static double worst_pass(const char *out)
{
	const char *p;
	double worst = 0;

	for (p = out; (p = strstr(p, " bytes / ")); p++) {
		double us = strtod(p + 9, NULL) / 1e6;

		if (us > worst)
			worst = us;
	}
	return worst;
}

/* seconds of the slowest worker's pass, as usemem reports it */
static double run_usemem(const struct usemem_opts *base)
{
	struct usemem_opts o = *base;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	char tmpl[] = "/tmp/bench-vmscal.XXXXXX";
	int fd = mkstemp(tmpl);
	double worst;

	if (fd < 0)
		return 0;
	unlink(tmpl);
	o.out_fd = fd;
	if (usemem_run(&o, &err))
		fprintf(stderr, "usemem: %s\n", err.buf);
	lseek(fd, 0, SEEK_SET);
	strbuf_read_fd(&out, fd, 0);
	close(fd);
	worst = worst_pass(out.buf);
	strbuf_release(&out);
	strbuf_release(&err);
	return worst;
}

/*
 * The original suite's usemem ($USEMEM, when the machine has it), with
 * the options of the same case; seconds of the slowest worker as it
 * reports them, 0 when it cannot run.
 */
static double run_original(const char *usemem, const struct usemem_opts *o)
{
	char size[32], nproc[16];
	const char *argv[16];
	struct strbuf out = STRBUF_INIT;
	int n = 0, pfd[2], st;
	double worst;
	pid_t pid;

	snprintf(size, sizeof(size), "%" PRIu64, o->size);
	snprintf(nproc, sizeof(nproc), "%u", o->nproc ? o->nproc : 1);
	argv[n++] = usemem;
	argv[n++] = "-n";
	argv[n++] = nproc;
	if (o->readonly)
		argv[n++] = "--readonly";
	if (o->random)
		argv[n++] = "--random";
	if (o->prealloc)
		argv[n++] = "--prealloc";
	if (o->prefault)
		argv[n++] = "--prefault";
	if (o->file) {
		argv[n++] = "-f";
		argv[n++] = o->file;
	}
	argv[n++] = size;
	argv[n] = NULL;
	if (pipe(pfd) < 0)
		return 0;
	pid = fork();
	if (!pid) {
		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		execv(usemem, (char *const *)argv);
		_exit(127);
	}
	close(pfd[1]);
	strbuf_read_fd(&out, pfd[0], 0);
	close(pfd[0]);
	waitpid(pid, &st, 0);
	worst = WIFEXITED(st) && !WEXITSTATUS(st) ? worst_pass(out.buf) : 0;
	strbuf_release(&out);
	return worst;
}

/* the plain loop of one worker: same mapping, same accesses */
static void plain_worker(const struct usemem_opts *o, char *pre, uint64_t start,
			 int wfd)
{
	uint64_t n = o->size / 8, i, t;
	volatile uint64_t *p;
	int fd = -1;

	if (pre) {
		p = (volatile uint64_t *)(void *)pre;
	} else {
		fd = open(o->file ? o->file : "/dev/zero", o->file ? O_RDONLY : O_RDWR);
		p = mmap(NULL, o->size, o->readonly ? PROT_READ : PROT_READ | PROT_WRITE,
			 o->file ? MAP_SHARED : MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED)
			_exit(1);
	}
	if (o->random) {
		struct drand48_data r;
		long a;

		srand48_r(o->seed, &r);
		for (i = 0; i < n; i++) {
			lrand48_r(&r, &a);
			(void)p[(uint64_t)a % n];
		}
	} else if (o->readonly) {
		for (i = 0; i < n; i++)
			(void)p[i];
	} else {
		for (i = 0; i < n; i++)
			p[i] = i;
	}
	t = time_mono_ns() - start;
	if (write(wfd, &t, sizeof(t)) < 0)
		_exit(1);
	_exit(0);
}

static double run_plain(const struct usemem_opts *o)
{
	uint64_t start = time_mono_ns(), t, worst = 0;
	unsigned i, n = o->nproc ? o->nproc : 1;
	char *pre = NULL;
	int pfd[2];

	if (pipe(pfd) < 0)
		return 0;
	if (o->prealloc) {
		int fd = open("/dev/zero", O_RDWR);

		pre = mmap(NULL, o->size, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | (o->prefault ? MAP_POPULATE : 0), fd, 0);
		close(fd);
	}
	for (i = 0; i < n; i++)
		if (!fork())
			plain_worker(o, pre, start, pfd[1]);
	close(pfd[1]);
	while (read(pfd[0], &t, sizeof(t)) == sizeof(t))
		if (t > worst)
			worst = t;
	close(pfd[0]);
	while (wait(NULL) > 0)
		;
	if (pre)
		munmap(pre, o->size);
	return (double)worst / 1e9;
}

int main(int argc, char **argv)
{
	uint64_t mib = argc > 1 ? strtoull(argv[1], NULL, 10) : 1024;
	int runs = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 5;
	unsigned workers = argc > 3 ? (unsigned)strtol(argv[3], NULL, 10) : 1;
	uint64_t size = mib << 20;
	const char *file = "/var/tmp/bench-vm-scalability.sparse";
	const char *orig = getenv("USEMEM"); /* the original suite's usemem */
	double v[8][MAX_RUNS];
	struct stat3 s;
	int r, c, k;
	static const char *const lim[8] = {
		"read bandwidth, faulted memory (GB/s)",
		"write bandwidth (memset), faulted memory (GB/s)",
		"read faults, 4 KiB zero page (faults/s)",
		"read faults, THP huge zero page (faults/s)",
		"write faults, 4 KiB (faults/s)",
		"write faults, THP 2 MiB (faults/s)",
	};

	if (runs < 1 || runs > MAX_RUNS || !mib || !workers) {
		fprintf(stderr, "usage: vm-scalability [MIB_PER_WORKER [RUNS [WORKERS]]]\n");
		return 2;
	}
	printf("vm-scalability bench: %" PRIu64 " MiB per worker, %u worker(s), %d runs; median [min-max]\n",
	       mib, workers, runs);
	bench_print_load("at start");
	printf("\n");
	for (r = 0; r < runs; r++) {
		v[0][r] = bw_read(size);
		v[1][r] = bw_write(size);
		v[2][r] = fault_rate(size, false, false);
		v[3][r] = fault_rate(size * 4, true, false);
		v[4][r] = fault_rate(size, false, true);
		v[5][r] = fault_rate(size, true, true);
	}
	for (k = 0; k < 6; k++) {
		s = summarize(v[k], runs);
		printf("  %-50s %12.4g [%.4g-%.4g]\n", lim[k], s.med, s.lo, s.hi);
	}
	printf("\n  %-16s %22s %22s %8s %16s %8s %16s\n", "case", "usemem GB/s",
	       "plain C GB/s", "ratio", "ratio range", "cpu", "cpu range");
	for (c = 0; c < B_N; c++) {
		struct usemem_opts o;
		double ratio[MAX_RUNS], um[MAX_RUNS], pl[MAX_RUNS], cpu[MAX_RUNS];
		struct stat3 su, sp, sr, sc;
		/* accessed bytes per worker: size (8 per access, one access per word) */
		double gb = (double)size / 1e9 * workers;

		case_opts((enum bcase)c, &o, size, workers, file);
		for (r = 0; r < runs; r++) {
			double tu, tp, cu, cp, c0;

			/* alternate the order so that drift hits both alike */
			if (c == B_PREAD_SEQ && fresh_file(file, size) < 0)
				return 1;
			if (r % 2) {
				c0 = children_cpu();
				tp = run_plain(&o);
				cp = children_cpu() - c0;
				if (c == B_PREAD_SEQ)
					fresh_file(file, size);
				c0 = children_cpu();
				tu = run_usemem(&o);
				cu = children_cpu() - c0;
			} else {
				c0 = children_cpu();
				tu = run_usemem(&o);
				cu = children_cpu() - c0;
				if (c == B_PREAD_SEQ)
					fresh_file(file, size);
				c0 = children_cpu();
				tp = run_plain(&o);
				cp = children_cpu() - c0;
			}
			/* CPU time: the work itself, whatever else the machine runs */
			cpu[r] = cu > 0 ? cp / cu : 0;
			um[r] = tu > 0 ? gb / tu : 0;
			pl[r] = tp > 0 ? gb / tp : 0;
			ratio[r] = tu > 0 ? tp / tu : 0;
		}
		su = summarize(um, runs);
		sp = summarize(pl, runs);
		if (orig && *orig) {
			/* the original, run after both (its own order): usemem / original */
			double ro[MAX_RUNS];
			struct stat3 so;

			for (r = 0; r < runs; r++) {
				double to, tu;

				if (c == B_PREAD_SEQ)
					fresh_file(file, size);
				to = run_original(orig, &o);
				if (c == B_PREAD_SEQ)
					fresh_file(file, size);
				tu = run_usemem(&o);
				ro[r] = tu > 0 ? to / tu : 0;
			}
			so = summarize(ro, runs);
			printf("  %-16s original usemem time / perfsift usemem time: %.3f [%.3f-%.3f] (%s)\n",
			       bnames[c], so.med, so.lo, so.hi, orig);
		}
		sr = summarize(ratio, runs);
		sc = summarize(cpu, runs);
		printf("  %-16s %6.3f [%5.3f-%5.3f] %6.3f [%5.3f-%5.3f] %8.3f [%5.3f-%5.3f] %8.3f [%5.3f-%5.3f]\n",
		       bnames[c], su.med, su.lo, su.hi, sp.med, sp.lo, sp.hi,
		       sr.med, sr.lo, sr.hi, sc.med, sc.lo, sc.hi);
	}
	unlink(file);
	printf("\n");
	bench_print_load("at end");
	return 0;
}
