/*
 * programs_ext.c: the program table's block of external benchmarks (see
 * programs_int.h): the programs perfsift runs from Debian packages
 * (src/external/) and LKP's benchmarks it can only parse, each declared
 * once with its options, parser, runner and package.
 */
#include "util/compat.h"
#include "external/ext_params.h"
#include "external/external.h"
#include "job/programs_int.h"
#include "monitors/parsers.h"

/* ------------------------------------------- external benchmarks (progs) */

/*
 * The programs perfsift runs from Debian packages (src/external/), and
 * LKP's benchmarks it can only parse.  They are a block of their own,
 * sorted like programs[] and searched beside it (program_find,
 * program_at merge the two), so that adding one touches only this block.
 * Options are LKP's job keys with LKP's defaults (programs/<name>/run);
 * `ops` and `events` are perfsift's, for fixed work instead of a clock.
 */
#define HB(f) .at = PARAM_AT(struct hackbench_opts, f)
static const char *const hb_modes[] = {"process", "threads", NULL};
static const char *const ipc_kinds[] = {"pipe", "socket", NULL};
static const struct program_option hackbench_opts[] = {
	{"runtime", OPT_SECONDS, '-', 0, 0, MAX_SECONDS, "600", .help = "without iterations: passes until then", HB(runtime)},
	{"nr_threads", OPT_CPUS, '-', 0, .dflt = "100%", .help = "groups (-g): a count or a share of the CPUs", HB(nr_threads)},
	O_STR("nr_threads_by_instance", '-', NULL, "LKP's per-instance groups (one instance here)"),
	{"fds", OPT_COUNT, '-', 0, 1, 1 << 16, "20", .help = "senders and receivers per group (-f)", HB(fds)},
	{"mode", OPT_ENUM, '-', 0, .dflt = "process", .choices = hb_modes, .help = "tasks are processes or threads", HB(mode)},
	{"ipc", OPT_ENUM, '-', 0, .dflt = "socket", .choices = ipc_kinds, .help = "messages over pipes or sockets", HB(ipc)},
	{"iterations", OPT_COUNT, '-', 0, 1, 1 << 20, .help = "passes per run (none: until runtime)", HB(iterations)},
	{"loops", OPT_COUNT, '-', 0, 1, 1e12, .help = "messages per sender (-l; none: 30000 * nr_cpu / groups)", HB(loops)},
	{"datasize", OPT_COUNT, '-', 0, 1, 1 << 30, "100", .help = "bytes per message (-s)", HB(datasize)},
	END,
};

#define SNG(f) .at = PARAM_AT(struct stress_ng_opts, f)
static const struct program_option stress_ng_opts[] = {
	{"testtime", OPT_SECONDS, '-', 0, 1, MAX_SECONDS, "1", .help = "stress-ng --timeout", SNG(testtime)},
	{"class", OPT_STRING, '-', 0, .help = "a class of stressors, run in sequence (without test)", SNG(klass)},
	{"nr_threads", OPT_CPUS, '-', 0, .dflt = "100%", .help = "instances of the stressor", SNG(nr_threads)},
	{"test", OPT_STRING, '-', OPTF_CASE, .help = "the stressor (stress-ng --TEST)", SNG(test)},
	{"method", OPT_STRING, '-', 0, .help = "the stressor's method (--TEST-method)", SNG(method)},
	{"sched", OPT_STRING, '-', 0, .help = "the scheduler policy (--sched)", SNG(sched)},
	{"ops", OPT_COUNT, '=', 0, 1, 1e15, .help = "perfsift's: bogo ops per instance (--TEST-ops), fixed work", SNG(ops)},
	END,
};

#define FIO(f) .at = PARAM_AT(struct fio_opts, f)
static const char *const fio_rw[] = {"read", "write", "randread", "randwrite",
				     "rw", "readwrite", "randrw", NULL};
static const char *const fio_direct[] = {"direct", "buffered", "1", "0", NULL};
static const struct program_option fio_opts[] = {
	{"runtime", OPT_SECONDS, '-', 0, 1, MAX_SECONDS, LKP_RUNTIME_TEXT, .help = "fio's runtime", FIO(runtime)},
	{"nr_task", OPT_CPUS, '-', 0, .dflt = "1", .help = "jobs (numjobs)", FIO(nr_task)},
	{"rw", OPT_ENUM, '-', OPTF_CASE, .dflt = "read", .choices = fio_rw, .help = "the I/O pattern", FIO(rw)},
	{"bs", OPT_STRING, '-', 0, .dflt = "4k", .help = "block size", FIO(bs)},
	{"ioengine", OPT_STRING, '-', 0, .dflt = "sync", .help = "fio's ioengine", FIO(ioengine)},
	{"iodepth", OPT_COUNT, '-', 0, 1, 1 << 16, "32", .help = "I/Os in flight", FIO(iodepth)},
	{"test_size", OPT_SIZE, '-', 0, .dflt = "128M", .help = "the bytes of all jobs' files", FIO(test_size)},
	{"nr_files", OPT_COUNT, '-', 0, 1, 1 << 20, "1", .help = "files per job", FIO(nr_files)},
	{"direct", OPT_ENUM, '-', 0, .dflt = "buffered", .choices = fio_direct, .help = "O_DIRECT or the page cache", FIO(direct)},
	{"time_based", OPT_BOOL, '-', 0, .dflt = "0", .help = "run for runtime, not for the size", FIO(time_based)},
	{"fallocate", OPT_STRING, '-', 0, .dflt = "posix", .help = "how the files are laid out", FIO(fallocate)},
	END,
};

#define PB(f) .at = PARAM_AT(struct perf_bench_opts, f)
static const char *const pb_msg_modes[] = {"process", "thread", NULL};
static const char *const pb_futex_tests[] = {"hash", "wake", "wake-parallel", "requeue", "lock-pi", NULL};
static const char *const pb_mem_tests[] = {"memcpy", "memset", NULL};
static const struct program_option perf_messaging_opts[] = {
	{"loops", OPT_COUNT, '-', 0, 1, 1e12, .help = "--nr_loops (none: perf's 100)", PB(loops)},
	{"groups", OPT_COUNT, '-', 0, 1, 1 << 16, .help = "--group (none: perf's 10)", PB(groups)},
	{"ipc", OPT_ENUM, '-', 0, .dflt = "socket", .choices = ipc_kinds, .help = "pipes or sockets", PB(ipc)},
	{"mode", OPT_ENUM, '-', 0, .dflt = "process", .choices = pb_msg_modes, .help = "processes or threads", PB(mode)},
	END,
};
static const struct program_option perf_pipe_opts[] = {
	{"loops", OPT_COUNT, '-', 0, 1, 1e12, "1000000", .help = "round trips (-l; LKP writes 10000000ops)", .suffix = "ops", PB(loops)},
	{"mode", OPT_ENUM, '-', 0, .dflt = "process", .choices = hb_modes, .help = "two processes or two threads (-T)", PB(mode)},
	END,
};
static const struct program_option perf_futex_opts[] = {
	{"runtime", OPT_SECONDS, '-', 0, 0, MAX_SECONDS, .help = "hash and lock-pi: --runtime", PB(runtime)},
	{"nr_task", OPT_CPUS, '-', 0, .help = "--threads (none: perf's, one per CPU)", PB(nr_task)},
	{"test", OPT_ENUM, '-', OPTF_REQUIRED | OPTF_CASE, .choices = pb_futex_tests, .help = "the futex benchmark; required", PB(test)},
	{"shared", OPT_BOOL, '-', 0, .dflt = "0", .help = "process-shared futexes", PB(shared)},
	{"futexes", OPT_COUNT, '-', 0, 1, 1 << 30, .help = "hash: futexes per thread", PB(futexes)},
	{"nwakes", OPT_COUNT, '-', 0, 1, 1 << 30, .help = "wake: threads woken at a time", PB(nwakes)},
	{"nwakers", OPT_COUNT, '-', 0, 1, 1 << 20, .help = "wake-parallel: waking threads", PB(nwakers)},
	{"nrequeue", OPT_COUNT, '-', 0, 1, 1 << 20, .help = "requeue: threads requeued at a time", PB(nrequeue)},
	{"multi", OPT_BOOL, '-', 0, .dflt = "0", .help = "lock-pi: a futex per thread", PB(multi)},
	END,
};
/* LKP's programs/perf-bench-mem: each option passed only when given */
static const struct program_option perf_mem_opts[] = {
	{"op", OPT_ENUM, '-', OPTF_REQUIRED | OPTF_CASE, .choices = pb_mem_tests, .help = "memcpy or memset; required", PB(test)},
	{"function", OPT_STRING, '-', 0, .help = "--function: one of perf's routines, or all (none: perf's default)", PB(function)},
	{"size", OPT_SIZE, '-', 0, .help = "bytes per pass (--size; none: perf's 1MB)", PB(size)},
	{"nr_loops", OPT_COUNT, '-', 0, 1, 1 << 30, .help = "passes (--nr_loops; none: perf's 1)", PB(loops)},
	{"chunk", OPT_STRING, '-', 0, .help = "--chunk, as the job writes it (a perf that has it)", PB(chunk)},
	END,
};

#define SB(f) .at = PARAM_AT(struct sysbench_opts, f)
#define SB_COMMON(threads)                                                                      \
	{"runtime", OPT_SECONDS, '-', 0, 0, MAX_SECONDS, "600", .help = "sysbench --time", SB(runtime)}, \
	{"nr_threads", OPT_CPUS, '-', 0, .dflt = threads, .help = "--threads", SB(nr_threads)},       \
	{"events", OPT_COUNT, '=', 0, 1, 1e15, .help = "perfsift's: a fixed number of events (--events, --time=0)", SB(events)}
static const char *const sb_opers[] = {"read", "write", "none", NULL};
static const char *const sb_access[] = {"seq", "rnd", NULL};
static const struct program_option sysbench_cpu_opts[] = {
	SB_COMMON("1"),
	{"cpu_max_prime", OPT_COUNT, '-', 0, 3, 1e12, "10000", .help = "primes up to this (--cpu-max-prime)", SB(cpu_max_prime)},
	END,
};
static const struct program_option sysbench_memory_opts[] = {
	SB_COMMON("1"),
	{"memory_block_size", OPT_SIZE, '-', 0, .dflt = "1K", .help = "--memory-block-size", SB(memory_block_size)},
	{"memory_total_size", OPT_SIZE, '-', 0, .dflt = "100G", .help = "--memory-total-size", SB(memory_total_size)},
	{"memory_oper", OPT_ENUM, '-', 0, .dflt = "write", .choices = sb_opers, .help = "--memory-oper", SB(memory_oper)},
	{"memory_access_mode", OPT_ENUM, '-', 0, .dflt = "seq", .choices = sb_access, .help = "--memory-access-mode", SB(memory_access_mode)},
	END,
};
static const struct program_option sysbench_threads_opts[] = {
	SB_COMMON("1"),
	{"thread_yields", OPT_COUNT, '-', 0, 1, 1e12, "1000", .help = "--thread-yields", SB(thread_yields)},
	{"thread_locks", OPT_COUNT, '-', 0, 1, 1 << 20, "8", .help = "--thread-locks", SB(thread_locks)},
	END,
};
static const struct program_option sysbench_mutex_opts[] = {
	SB_COMMON("1"),
	{"mutex_num", OPT_COUNT, '-', 0, 1, 1 << 30, "4096", .help = "--mutex-num", SB(mutex_num)},
	{"mutex_locks", OPT_COUNT, '-', 0, 1, 1e12, "50000", .help = "--mutex-locks", SB(mutex_locks)},
	{"mutex_loops", OPT_COUNT, '-', 0, 1, 1e12, "10000", .help = "--mutex-loops", SB(mutex_loops)},
	END,
};

/* LKP's options of the parse-only programs: a job naming them still loads */
static const struct program_option unixbench_opts[] = {
	O_STR("runtime", '-', NULL, "LKP's"), O_STR("nr_task", '-', NULL, "LKP's"),
	O_STR("test", '-', NULL, "LKP's"), END,
};
static const struct program_option netperf_opts[] = {
	O_STR("ip", '-', NULL, "LKP's"), O_STR("runtime", '-', NULL, "LKP's"),
	O_STR("nr_threads", '-', NULL, "LKP's"), O_STR("cluster", '-', NULL, "LKP's"),
	O_STR("send_size", '-', NULL, "LKP's"), O_STR("test", '-', NULL, "LKP's"), END,
};
/* LKP's oom-killer monitor, which stress-ng's jobs configure */
static const struct program_option oom_killer_opts[] = {
	O_BOOL("ignored", 0, "0", "an OOM kill does not fail the job (LKP's; not a path_params key: LKP declares no options for it)"), END,
};
static const struct program_option aim9_opts[] = {
	O_STR("testtime", '-', NULL, "LKP's"), O_STR("test", '-', NULL, "LKP's"), END,
};

#define EXT(n, o, parse, b, cmd, pkg, ps, h)                                   \
	{n, PROG_TEST, o, .mon = {n, parse, NULL}, .bench = b, .command = cmd,  \
	 .package = pkg, .params_size = sizeof(ps), .help = h}
#define PARSE_ONLY(n, o, parse, h)                                             \
	{n, PROG_TEST, o, .mon = {n, parse, NULL}, .parse_only = true,        \
	 .help = h " (not in Debian main: perfsift parses its output, it does not run it)"}

const struct program external_programs[] = {
	PARSE_ONLY("aim9", aim9_opts, parse_aim9, "AIM Independent Resource Benchmark, suite IX"),
	EXT("fio", fio_opts, parse_fio, &bench_fio, "fio", "fio", struct fio_opts,
	    "fio, as LKP's fio-basic: a task file from the job's keys"),
	EXT("hackbench", hackbench_opts, parse_hackbench, &bench_hackbench, "hackbench", "rt-tests",
	    struct hackbench_opts, "hackbench (rt-tests): scheduler and IPC throughput"),
	PARSE_ONLY("netperf", netperf_opts, parse_netperf, "netperf"),
	{"oom-killer", PROG_MONITOR, oom_killer_opts,
	 .help = "LKP's OOM watcher (perfsift records OOM kills in every run itself: oom_killed)"},
	EXT("perf-bench-futex", perf_futex_opts, parse_perf_futex, &bench_perf_futex, "perf", "linux-perf",
	    struct perf_bench_opts, "perf bench futex TEST"),
	EXT("perf-bench-mem", perf_mem_opts, parse_perf_mem, &bench_perf_mem, "perf", "linux-perf",
	    struct perf_bench_opts, "perf bench mem memcpy|memset"),
	EXT("perf-bench-sched-messaging", perf_messaging_opts, parse_perf_sched_messaging,
	    &bench_perf_sched_messaging, "perf", "linux-perf", struct perf_bench_opts,
	    "perf bench sched messaging (hackbench in perf)"),
	EXT("perf-bench-sched-pipe", perf_pipe_opts, parse_perf_sched_pipe, &bench_perf_sched_pipe,
	    "perf", "linux-perf", struct perf_bench_opts, "perf bench sched pipe"),
	EXT("stress-ng", stress_ng_opts, parse_stress_ng, &bench_stress_ng, "stress-ng", "stress-ng",
	    struct stress_ng_opts, "stress-ng: one stressor (test) or a class"),
	EXT("sysbench-cpu", sysbench_cpu_opts, parse_sysbench, &bench_sysbench_cpu, "sysbench", "sysbench",
	    struct sysbench_opts, "sysbench cpu"),
	EXT("sysbench-memory", sysbench_memory_opts, parse_sysbench, &bench_sysbench_memory,
	    "sysbench", "sysbench", struct sysbench_opts, "sysbench memory"),
	EXT("sysbench-mutex", sysbench_mutex_opts, parse_sysbench, &bench_sysbench_mutex,
	    "sysbench", "sysbench", struct sysbench_opts, "sysbench mutex"),
	EXT("sysbench-threads", sysbench_threads_opts, parse_sysbench, &bench_sysbench_threads,
	    "sysbench", "sysbench", struct sysbench_opts, "sysbench threads"),
	PARSE_ONLY("unixbench", unixbench_opts, parse_unixbench, "UnixBench (byte-unixbench)"),
};

const size_t external_program_count = ARRAY_SIZE(external_programs);
