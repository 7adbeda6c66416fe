/*
 * bench/lib/timing.h: what every bench program does to time perfsift --
 * run it as a child and take the child's own figures, repeat, and report
 * the median and the spread.  Linked into each program under bench/ (not
 * into libcore.a: perfsift itself never times itself this way).
 */
#ifndef PERFSIFT_BENCH_TIMING_H
#define PERFSIFT_BENCH_TIMING_H

#include "util/compat.h"

/* one run of a child: wall seconds, CPU seconds (user + system), peak RSS */
struct bench_run {
	double wall, cpu, rss_mb;
};

/*
 * Run argv[0] (a path, no PATH search) with its stdout on /dev/null, so the
 * terminal's speed is not part of the figure; wait4() gives the child's
 * own CPU time and peak RSS, which the load of other processes on the
 * machine does not inflate the way it does wall time.  0 when the child
 * exited 0 or 1 (compare's "changes found" is 1), else -1.
 */
int bench_run_child(char *const argv[], struct bench_run *r);

/* sort v[0..n) ascending: then v[n / 2] is the median, v[0] and v[n - 1]
 * the range the bench programs print beside it */
void bench_sort(double *v, size_t n);

/*
 * `load average WHEN: <the /proc/loadavg line>` on stdout: the machine
 * is shared, so every figure is printed with the load it was measured at.
 */
void bench_print_load(const char *when);

#endif
