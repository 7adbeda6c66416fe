/*
 * bench.h: the interface of built-in benchmarks (LKP's test programs,
 * written in C inside perfsift).  The runner looks a job's test program up
 * in the program table (programs.c; bench_find), fills the benchmark's
 * typed parameters from the job there (params.h: the job's values were
 * checked when it was read) and, for each run:
 *
 *   prepare()  in perfsift itself: check what the case needs, make scratch
 *              mounts/files, set knobs through knob.h; may decline with a
 *              reason (the run is then recorded as "skipped: <reason>");
 *   run()      in a child process (so that wait4() measures it, and it
 *              can be killed as a process group): does the work, writes
 *              its output in the suite's own text format to stdout, and
 *              returns the exit status;
 *   cleanup()  in perfsift, exactly once whenever prepare() was called,
 *              whatever prepare() returned (OK, SKIP or an error) and also
 *              after SIGINT or a timeout: removes every mapping, file and
 *              mount prepare() made, and frees ctx->priv.  So cleanup()
 *              must take a half-made state: prepare() stores its state in
 *              ctx->priv before it can fail, and leaves what it did not
 *              get to NULL or zero.
 *
 * Owned by the benchmarks module (src/benchmarks/); the run engine
 * (run/engine.h) is the caller, and keeps the cleanup() promise.
 */
#ifndef PERFSIFT_BENCH_H
#define PERFSIFT_BENCH_H

#include "util/compat.h"

struct job;
struct strbuf;

enum bench_status {
	BENCH_OK = 0,
	BENCH_SKIP = 1,  /* cannot run on this machine: skip_reason says why */
	BENCH_ERROR = -1 /* err says why */
};

struct bench_ctx {
	const struct job *job; /* the atomic job (program options inside) */
	const char *scratch;   /* a private scratch directory for this run */
	const char *sysroot;   /* "/" normally; a fake tree in tests */
	unsigned nr_cpu;       /* online CPUs */
	uint64_t mem_total;    /* bytes (MemTotal) */
	/*
	 * read faults allocate a page each (the machine facts' zero_page
	 * "no", env_zero_page in job.yaml): given here, beside the other
	 * facts, so a benchmark never reads the job tree for what the
	 * engine probed, and --list-cases sees it too
	 */
	bool no_zero_page;
	/*
	 * the benchmark's options, typed and checked: the struct its
	 * program-table entry declares (params_size), filled by param_fill()
	 */
	const void *params;
	struct strbuf *skip_reason;
	void *priv;            /* the benchmark's own state, prepare -> cleanup */
};

struct bench_ops {
	const char *name; /* the LKP program name: "vm-scalability" */
	/*
	 * the benchmark's KPIs as kpi_format() writes them (kpi.h), from
	 * LKP's index-perf-all.yaml / index-latency-all.yaml; NULL: none
	 */
	const char *kpi;
	int (*prepare)(struct bench_ctx *ctx, struct strbuf *err);
	int (*run)(struct bench_ctx *ctx); /* in the child: exit status */
	void (*cleanup)(struct bench_ctx *ctx);
	/*
	 * Whether this machine can run the job's case, asked without doing
	 * anything (`perfsift run JOB --list-cases`): prepare()'s own checks
	 * of the machine, reading only -- nothing set, made or mounted.
	 * BENCH_OK, BENCH_SKIP with ctx->skip_reason, BENCH_ERROR with err;
	 * ctx->priv is left as it was.  NULL: every case runs wherever the
	 * program does.
	 */
	int (*probe)(struct bench_ctx *ctx, struct strbuf *err);
};

/* the built-in benchmark called name, or NULL */
const struct bench_ops *bench_find(const char *name);


#endif
