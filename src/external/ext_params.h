/*
 * ext_params.h: the typed parameters of the external benchmarks, filled
 * from the job by the program table (job/programs.c declares every option
 * with its place here; job/params.h says how each type is stored).  The
 * names are LKP's job keys, so an LKP job's values land here unchanged.
 */
#ifndef PERFSIFT_EXT_PARAMS_H
#define PERFSIFT_EXT_PARAMS_H

#include "util/compat.h"
#include "job/params.h"

/* LKP's programs/hackbench/run */
struct hackbench_opts {
	double runtime;                /* without iterations: passes until then */
	struct param_share nr_threads; /* groups (-g), of the CPUs */
	uint64_t fds;                  /* -f: senders (and receivers) per group */
	uint64_t loops;                /* -l; 0: LKP's 30000 * nr_cpu / groups */
	uint64_t datasize;             /* -s */
	uint64_t iterations;           /* 0: run for runtime instead */
	const char *mode, *ipc;        /* process|threads, pipe|socket */
};

/* LKP's programs/stress-ng/run */
struct stress_ng_opts {
	double testtime;               /* --timeout */
	struct param_share nr_threads; /* instances of the stressor */
	const char *test, *klass;      /* one stressor, or a --class in sequence */
	const char *method, *sched;    /* --TEST-method, --sched (LKP's jobs' keys) */
	uint64_t ops;                  /* perfsift's: --TEST-ops, fixed work (0: none) */
};

/* LKP's fio-basic: fio-setup-basic's task file, then programs/fio/run */
struct fio_opts {
	double runtime;
	struct param_share nr_task;    /* numjobs */
	const char *rw, *ioengine, *bs;
	uint64_t iodepth, test_size, nr_files;
	const char *direct;            /* direct|buffered (LKP's words) or 1|0 */
	bool time_based;
	const char *fallocate;
};

/* LKP's perf-bench-* programs (one struct: each reads its own fields) */
struct perf_bench_opts {
	uint64_t loops, groups;        /* sched-messaging, sched-pipe */
	const char *ipc, *mode;        /* sched-messaging: pipe, thread(s) */
	const char *test;              /* futex: hash|wake|...; mem's op: memcpy|memset */
	double runtime;                /* futex hash, lock-pi */
	struct param_share nr_task;    /* futex --threads */
	bool shared, multi;
	uint64_t futexes, nwakes, nwakers, nrequeue;
	uint64_t size;                 /* mem: bytes per pass (0: perf's) */
	const char *function, *chunk;  /* mem: --function, --chunk */
};

/* LKP's sysbench-cpu / -memory / -threads / -mutex */
struct sysbench_opts {
	double runtime;
	struct param_share nr_threads;
	uint64_t events;               /* perfsift's: --events, fixed work (0: none) */
	uint64_t cpu_max_prime;
	uint64_t memory_block_size, memory_total_size;
	const char *memory_oper, *memory_access_mode;
	uint64_t thread_yields, thread_locks;
	uint64_t mutex_num, mutex_locks, mutex_loops;
};

#endif
