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
#include "util/strbuf.h"

struct job;
struct sampler;

/*
 * What the sampler has said about monitors it cannot sample here, kept by
 * the caller across the runs of one command so that each is said once.
 */
struct sampler_notes {
	struct strbuf said; /* one "<monitor>: not available: <why>\n" each */
	/*
	 * A file shared by the commands of a longer whole -- the robot's
	 * pass runs each run as a `perfsift run` of its own -- named by
	 * $PERFSIFT_MONITOR_NOTES: what it holds was said already, and
	 * what is said is appended.  NULL: this command only.
	 */
	char *file;
};
#define SAMPLER_NOTES_INIT { STRBUF_INIT, NULL }
/* notes with what $PERFSIFT_MONITOR_NOTES's file says was said */
void sampler_notes_init(struct sampler_notes *notes);
void sampler_notes_release(struct sampler_notes *notes);

/*
 * Start the monitors the job names (or the default set for benchmark
 * jobs), reading sources under sysroot ("/" normally).  A monitor whose
 * source is missing is skipped, never fatal: `<m>: not available: <why>`
 * goes to stderr unless notes show it was said before (notes NULL: always
 * said), and into <out_dir>/monitors.log, so every run records it.
 * Never fails and never returns NULL: a monitor that cannot be sampled
 * is left out (said as above), a raw file that cannot be created is a
 * warning, and a sampler thread that cannot start leaves the start and
 * stop samples -- a run is never lost for its monitors' sake.
 */
struct sampler *sampler_start(const struct job *job, const char *out_dir,
			      const char *sysroot, struct sampler_notes *notes);
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

/*
 * Benchmarks: sample every periodic monitor now, in the calling thread,
 * as a tick of the clock does (never at the same time as one); when
 * cost_ns is not NULL, cost_ns[i] gets the CPU time of monitor i (in
 * sampler_stats() order, periodic monitors only).
 */
void sampler_tick_now(struct sampler *s, uint64_t *cost_ns);

/* take the final sample, stop, close every source, free; 0 or -1 */
int sampler_stop(struct sampler *s);

#endif
