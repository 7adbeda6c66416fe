/*
 * wis.h: the built-in will-it-scale (wis.c): its typed options as the
 * program table fills them, and the measurement of one testcase in one
 * mode, which the benchmark runs and bench/will-it-scale.c times against
 * a plain loop.
 */
#ifndef PERFSIFT_WIS_H
#define PERFSIFT_WIS_H

#include "util/compat.h"
#include "job/params.h"

struct strbuf;
struct wis_case;

/* the job's will-it-scale options (programs.c, params.h): typed, checked */
struct wis_opts {
	const char *test;           /* the testcase (borrowed from the job) */
	const char *mode;           /* process, thread or both (LKP's default) */
	double runtime;             /* seconds per mode; none or 0: LKP_RUNTIME */
	struct param_share nr_task; /* of the CPUs */
	bool no_affinity;           /* do not bind task i to CPU i */
};

/* what one mode of one testcase did */
struct wis_result {
	uint64_t ops;     /* operations per second, all tasks together */
	double idle_pct;  /* the machine's idle CPU time in the window, % */
	double seconds;   /* the measured window */
	uint64_t total;   /* every operation counted, the warm-up's too */
};

/*
 * Run testcase c with nr_tasks processes (threads: threads of one
 * process), each bound to a CPU of this process's set unless affinity is
 * false: warmup_s seconds first, then the window of duration_s seconds --
 * longer when no operation was counted yet, so that a loaded machine still
 * gives a sample.  Files go into dir.  0, or -1 with err (a task failed:
 * its message is on stdout).
 */
int wis_measure(const struct wis_case *c, bool threads, unsigned nr_tasks,
		const char *dir, bool affinity, double warmup_s,
		double duration_s, struct wis_result *r, struct strbuf *err);

/* the warm-up and the measured window of a runtime (LKP: 5 s, runtime - 5) */
void wis_split_runtime(double runtime_s, double *warmup_s, double *duration_s);

#endif
