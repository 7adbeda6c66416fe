/*
 * sampler.h: the monitors that run beside a benchmark.  The runner starts
 * the sampler just before the benchmark and stops it right after; between
 * the two, one sampler (a thread or one child) reads every periodic
 * monitor's sources on a fixed-rate clock and appends LKP's raw format to
 * <out_dir>/<monitor>.  Stopping takes a final sample.
 *
 * Owned by the monitors module (sampler.c); the runner is the caller.
 */
#ifndef PERFSIFT_SAMPLER_H
#define PERFSIFT_SAMPLER_H

#include "util/compat.h"

struct job;
struct strbuf;
struct sampler;

/*
 * Start the monitors the job names (or the default set for benchmark
 * jobs), reading sources under sysroot ("/" normally).  Monitors whose
 * source is missing are reported once and skipped.  NULL with err only
 * when nothing can be started for a reason the user must hear about.
 */
struct sampler *sampler_start(const struct job *job, const char *out_dir,
			      const char *sysroot, struct strbuf *err);
/* the sampler's own cost so far, per monitor (bench/monitor-overhead) */
struct sampler_stat {
	const char *name;
	unsigned long samples;
	uint64_t cpu_ns;   /* CPU time of its start and stop samples */
	bool periodic;     /* sampled on the clock (not only start and stop) */
};
/* the clock's ticks: how many, their total, median and least CPU time */
struct sampler_ticks {
	uint64_t n, cpu_ns, median_ns, min_ns;
};
/* *st is a new array of *n entries (caller frees) */
void sampler_stats(const struct sampler *s, struct sampler_stat **st,
		   size_t *n, struct sampler_ticks *ticks);

/* take the final sample, stop, close every source, free; 0 or -1 */
int sampler_stop(struct sampler *s);

#endif
