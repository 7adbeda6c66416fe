/*
 * programs.c: the one table of programs and job keys (see programs.h).
 * Program options and their path_params roles follow LKP's
 * program-options output (tests/data/lkp/program-options.txt); monitors
 * are every name in that file and in LKP's include/category/benchmark
 * default set.  A top-level key that is neither in job_keys[] nor a
 * program is a plain job key (LKP exports it as an environment variable).
 * Adding an option is one line here plus its use.
 */
#include "util/compat.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "benchmarks/bench.h"
#include "benchmarks/vmscal_cases.h"
#include "benchmarks/wis.h"
#include "benchmarks/wis_cases.h"
#include "job/plugins.h"
#include "job/programs_int.h"
#include "monitors/parsers.h"
#include "monitors/perf_profile.h"
#include "monitors/sampling.h"
#include "job/programs.h"
#include "setup/setup.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/usage.h"

/* ------------------------------------------------------------ job keys */

/*
 * The top-level keys perfsift knows.  runtime, nr_task and size are also
 * options of vm-scalability (LKP flattens the two levels): the program
 * reads its option first, then the top-level key.
 */
static const struct program_option job_keys[] = {
	{"arch", OPT_STRING, 0, 0, .help = "the machine's architecture (filled in by split and run)"},
	O_STR("branch", 0, NULL, "the kernel branch the commit is on"),
	{"category", OPT_STRING, 0, OPTF_SINGLE, .help = "`benchmark` samples LKP's default monitor set"},
	O_STR("commit", 0, NULL, "the kernel commit (run: --commit, else uname -r)"),
	O_STR("compiler", 0, NULL, "the compiler the kernel was built with"),
	O_STR("disable_monitors", 0, NULL, "monitors not to sample, comma-separated"),
	{"env", OPT_ANY, 0, 0, .help = "environment for the benchmark (LKP's env)"},
	{"hw", OPT_ANY, 0, 0, .help = "the machine's description (LKP's hw)"},
	{"including", OPT_LIST, 0, 0, .help = "job files LKP includes (kept, not read)"},
	{"job_origin", OPT_STRING, 0, OPTF_SINGLE, .help = "the job file the atomic job came from (filled in by split)"},
	O_STR("kconfig", 0, NULL, "the kernel configuration"),
	O_STR("kernel", 0, NULL, "the kernel image to boot in a VM and run the job in (LKP's; run --kernel)"),
	{"kpi", OPT_ANY, 0, 0, .help = "the stats that gate CI, and which way is better: {STAT: higher|lower} or {STAT: {better: B, threshold: T}}"},
	{"memory", OPT_SIZE, 0, 0, .help = "the machine's memory (filled in by run)"},
	O_STR("model", 0, NULL, "the CPU model (filled in by run)"),
	O_STR("monitors", 0, NULL, "the monitors to sample, comma-separated (replaces the default set)"),
	{"need_*", OPT_ANY, 0, 0, .help = "requirements (need_kconfig, need_memory, ...), any shape"},
	{"nr_cpu", OPT_COUNT, 0, 0, 1, 1 << 20, .help = "the machine's CPUs (filled in by run)"},
	{"nr_node", OPT_COUNT, 0, 0, 1, 1 << 16, .help = "the machine's NUMA nodes"},
	O_CPUS("nr_task", 0, "100%", "tasks the benchmark runs: a count or a share of the CPUs"),
	O_CPUS("nr_threads", 0, "100%", "threads the benchmark runs: a count or a share of the CPUs"),
	{"packages", OPT_LIST, 0, 0, .help = "Debian packages `perfsift install` installs"},
	{"pp", OPT_ANY, 0, 0, .help = "LKP's program parameters (kept, not read)"},
	O_STR("queue", 0, NULL, "the LKP queue the job came from"),
	O_STR("rootfs", 0, NULL, "the root file system (filled in by run)"),
	O_SECS("runtime", 0, 0, MAX_SECONDS, NULL, "how long the benchmark runs (300, 300s, 5m, 1h)"),
	O_SIZE("size", 0, NULL, "the benchmark's working size (16G)"),
	{"stats_part_begin", OPT_SECONDS, 0, 0, 0, MAX_SECONDS, .help = "stats from this second of the run on"},
	{"stats_part_end", OPT_SECONDS, 0, 0, 0, MAX_SECONDS, .help = "stats up to this second of the run"},
	{"suite", OPT_STRING, 0, OPTF_SINGLE | OPTF_NONEMPTY, .help = "the benchmark suite"},
	O_STR("tbox_group", 0, NULL, "the machine's group: testbox minus a trailing -N"),
	{"testbox", OPT_STRING, 0, 0, .help = "the machine (split: --testbox, else the host name)"},
	{"testcase", OPT_STRING, 0, OPTF_SINGLE | OPTF_NONEMPTY, .help = "the result group's first directory (LKP's testcase)"},
	O_SECS("timeout", 0, 0, MAX_SECONDS, NULL, "the benchmark is stopped after this long (0: never)"),
};

/* ------------------------------------------------------------- programs */

/* where each option goes in struct vmscal_opts (bench/vmscal_cases.h) */
#define VMS(f) .at = PARAM_AT(struct vmscal_opts, f)

static const struct program_option vm_scalability_opts[] = {
	{"runtime", OPT_SECONDS, '-', OPTF_ZERO_DEFAULT, 0, MAX_SECONDS, LKP_RUNTIME_TEXT, .help = "each case repeats its work until then (0: LKP's " LKP_RUNTIME_TEXT ")", VMS(runtime)},
	{"nr_task", OPT_CPUS, '-', 0, .dflt = "100%", .help = "processes or threads of the case", VMS(nr_task)},
	{"test", OPT_ENUM, '-', OPTF_REQUIRED | OPTF_CASE, .known = vmscal_case_known, .nth = vmscal_case_name,
	 .what = "a case of vm-scalability (the cases: docs/lkp-compat.md)",
	 .help = "the case to run; required", VMS(test)},
	{"size", OPT_SIZE, '-', 0, .help = "the work of the whole run; repeated until runtime (none: one pass)", VMS(size)},
	{"unit_size", OPT_SIZE, '-', 0, .help = "the work of one pass (none: the case's own)", VMS(unit_size)},
	O_STR("fs", '-', NULL, "LKP's file system of the file cases (perfsift uses its scratch directory)"),
	{"pre_setup", OPT_BOOL, '-', 0, .dflt = "0", .help = "the tmpfs is already there: mount none", VMS(pre_setup)},
	{"sync_rw", OPT_BOOL, '-', 0, .dflt = "0", .help = "usemem's readers and writers start together", VMS(sync_rw)},
	{"bind_cpu", OPT_COUNT, '-', 0, 0, 1 << 30, .help = "CPUs per task to bind to (0: nr_cpu/2/nr_task)", VMS(bind_cpu),
	 .given_at = PARAM_AT(struct vmscal_opts, bind_set)},
	{"repeat", OPT_COUNT, '-', 0, 0, 1 << 30, .help = "usemem's passes over its memory (-r)", VMS(repeat)},
	{"cpu_delay", OPT_NSEC, '-', 0, .help = "usemem's delay per page (-e): ns, or with u / m", VMS(cpu_delay)},
	{"sync_free", OPT_BOOL, '-', 0, .dflt = "0", .help = "usemem's workers free their memory together", VMS(sync_free)},
	O_STR("timed_wp", '-', NULL, "LKP's timed write-protect case option (not used)"),
	/* perfsift's: the memory hw_vars sees (scales every size), and leave to size what does not fit */
	{"mem", OPT_MEM, '=', 0, .help = "the memory the case sizes itself for: a size or a share of MemTotal (none: all)", VMS(mem)},
	{"allow_oom", OPT_BOOL, '=', 0, .dflt = "0", .help = "run a footprint larger than the machine as asked (else it is capped)", VMS(allow_oom)},
	END,
};

/* LKP declares `- mytest`; perfsift's external command lives in cmdline */
static const struct program_option mytest_opts[] = {
	O_STR("mytest", '-', NULL, "LKP's mytest parameter"),
	{"cmdline", OPT_STRING, '-', 0, .help = "the command, run by /bin/sh -c (or give it after `--`)"},
	END,
};
static const struct program_option mytest_value = {
	"mytest", OPT_STRING, '-', 0, .help = "the command (as cmdline)"};

/* the program of LKP's split-job fixtures (spec/fixtures/split-job) */
static const struct program_option split_job_opts[] = {
	O_STR("group", '-', NULL, "a group of the fixture"),
	O_STR("test", '-', NULL, "a test of the fixture"),
	END,
};

static const char *const thp_modes[] = {"always", "madvise", "never", NULL};
static const char *const thp_defrag_modes[] = {
	"always", "defer", "defer+madvise", "madvise", "never", NULL};
static const char *const shmem_modes[] = {
	"always", "within_size", "advise", "never", "deny", "force", NULL};
static const char *const mthp_modes[] = {
	"always", "inherit", "madvise", "never", NULL};

static const struct program_option thp_opts[] = {
	O_ENUM("thp_enabled", '-', thp_modes, NULL, "transparent_hugepage/enabled"),
	O_ENUM("thp_defrag", '-', thp_defrag_modes, NULL, "transparent_hugepage/defrag"),
	O_ENUM("shmem_enabled", '-', shmem_modes, NULL, "transparent_hugepage/shmem_enabled"),
	O_ENUM("enabled_64kB", '-', mthp_modes, NULL, "hugepages-64kB/enabled"),
	O_ENUM("enabled_32kB", '-', mthp_modes, NULL, "hugepages-32kB/enabled"),
	O_ENUM("enabled_16kB", '-', mthp_modes, NULL, "hugepages-16kB/enabled"),
	/* perfsift's: the huge zero page on or off */
	O_COUNT("use_zero_page", '=', 0, 1, NULL, "transparent_hugepage/use_zero_page (1: read faults map the huge zero page)"),
	END,
};

/*
 * LKP's list is cut short upstream (program-options.txt ends mid-way);
 * every sc_* name is an option of sysctl (option_prefix), these are the
 * declared ones, for reference.
 */
#define SC(n) O_STR(n, '-', NULL, "a sysctl under /proc/sys")
static const struct program_option sysctl_opts[] = {
	SC("sc_vsyscall32"), SC("sc_exception_trace"),
	SC("sc_kprobes_optimization"), SC("sc_aio_max_nr"), SC("sc_aio_nr"),
	SC("sc_dentry_state"), SC("sc_dir_notify_enable"), SC("sc_file_max"),
	SC("sc_file_nr"), SC("sc_inode_nr"), SC("sc_inode_state"),
	SC("sc_lease_break_time"), SC("sc_leases_enable"),
	SC("sc_mount_max"), SC("sc_nr_open"), SC("sc_overflowgid"),
	SC("sc_overflowuid"), SC("sc_pipe_max_size"),
	SC("sc_pipe_user_pages_hard"), SC("sc_pipe_user_pages_soft"),
	SC("sc_protected_hardlinks"), SC("sc_protected_symlinks"),
	SC("sc_suid_dumpable"), SC("sc_acct"), SC("sc_acpi_video_flags"),
	SC("sc_auto_msgmni"), SC("sc_bootloader_type"),
	SC("sc_bootloader_version"), SC("sc_cad_pid"), SC("sc_cap_last_cap"),
	SC("sc_core_pattern"), SC("sc_core_pipe_limit"),
	SC("sc_core_uses_pid"), SC("sc_ctrl_alt_del"),
	SC("sc_dmesg_restrict"), SC("sc_domainname"),
	SC("sc_ftrace_dump_on_oops"), SC("sc_ftrace_enabled"),
	SC("sc_hardlockup_all_cpu_backtrace"), END,
};
/* the option returned for any sysctl sc_* name not in the list above */
static const struct program_option sysctl_any = SC("sc_*");

static const struct program_option cpufreq_value = {
	"cpufreq_governor", OPT_STRING, '-', 0, .help = "the governor of every CPU (performance, powersave, ...)"};
static const struct program_option drop_caches_value = {
	"drop_caches", OPT_COUNT, '-', 0, 1, 3, "3", .help = "what to drop: 1 page cache, 2 slab, 3 both"};

#define INTERVAL(d) O_SECS("interval", '-', MIN_INTERVAL, MAX_INTERVAL, d, "seconds between two samples")

#define INTERVAL_MS O_COUNT("interval_ms", '-', 10, 86400000, NULL, "milliseconds between two samples (instead of interval)")

/* the periodic monitors' options; interval's default is the sampler's (sampling.h) */
static const struct program_option interval_opts[] = {INTERVAL(NULL), INTERVAL_MS, END};

/* options the default monitor set passes (include/category/benchmark) */
static const struct program_option perf_c2c_opts[] = {
	O_BOOL("debug_mode", '-', "0", "keep intermediate data"), END,
};

#define PP(f) .at = PARAM_AT(struct pp_opts, f)

static const struct program_option perf_profile_opts[] = {
	O_BOOL("debug_mode", '-', "0", "keep intermediate data"),
	/*
	 * 100, not 1000: cpu-clock (no PMU, a VM) samples from an hrtimer
	 * interrupt charged to the interrupted work, and at 1000 Hz a
	 * fault-bound benchmark lost ~7% while sampled (docs/performance.md
	 * "monitors"); 100 Hz still gives 2,000 samples a 10 s window on two
	 * CPUs, a 1% symbol to +-0.2%.  PMU cycles keep LKP's period.
	 */
	{"freq", OPT_COUNT, '-', 0, 1, 1000000, "100", .help = "cpu-clock samples per second per CPU (where there is no PMU)", PP(freq)},
	{"period", OPT_COUNT, '-', 0, 0, 1e15, .help = "events per sample (instead of freq)", PP(period)},
	{"legacy_keys", OPT_BOOL, '-', 0, .dflt = "1", .help = "also LKP's older key names", PP(legacy_keys)},
	INTERVAL(NULL),
	{"delay", OPT_SECONDS, '-', 0, 0, MAX_SECONDS, .help = "start of the profiled window (none: half the runtime)", PP(delay),
	 .given_at = PARAM_AT(struct pp_opts, delay_given)},
	{"duration", OPT_SECONDS, '-', 0, 0, MAX_SECONDS, .help = "length of the profiled window (none: 10 s with a runtime)", PP(duration),
	 .given_at = PARAM_AT(struct pp_opts, duration_given)},
	END,
};

static const struct program_option perf_stat_opts[] = {
	O_STR("events", '-', NULL, "the events to count, comma-separated (none: LKP's groups without the fault events)"),
	O_STR("revents", '-', NULL, "raw events (LKP's; not used)"),
	O_SECS("delay", '-', 0, MAX_SECONDS, NULL, "LKP's start delay (not used)"),
	O_SECS("duration", '-', 0, MAX_SECONDS, NULL, "LKP's duration (not used)"),
	O_STR("command", '-', NULL, "LKP's command to count (not used)"),
	O_BOOL("per_socket", '-', "0", "LKP's per-socket counts (not used)"),
	O_BOOL("per_die", '-', "0", "LKP's per-die counts (not used)"),
	INTERVAL_MS,
	O_STR("rmetrics", '-', NULL, "LKP's raw metrics (not used)"),
	O_STR("metrics", '-', NULL, "LKP's metrics (not used)"),
	O_BOOL("metric_only", '-', "0", "LKP's metric-only output (not used)"),
	O_BOOL("list_pmu_events", '-', "0", "LKP's PMU event list (not used)"),
	INTERVAL(NULL),
	END,
};

static const struct program_option perf_sched_opts[] = {
	O_BOOL("lite_mode", '-', "0", "LKP: keep less raw data"), END,
};

/* ------------------------------------------------------- will-it-scale */

/*
 * LKP's programs/will-it-scale parameters (runtime, test, mode, nr_task,
 * no_affinity; smt, numactl, numa_node accepted for LKP's jobs), into
 * struct wis_opts (benchmarks/wis.h).
 */
#define WIS(f) .at = PARAM_AT(struct wis_opts, f)

static const char *const wis_modes[] = {"process", "thread", "both", NULL};

static const struct program_option will_it_scale_opts[] = {
	{"runtime", OPT_SECONDS, '-', OPTF_ZERO_DEFAULT, 0, MAX_SECONDS, LKP_RUNTIME_TEXT, .help = "seconds per mode: a warm-up (5 s), then the measured window (0: LKP's " LKP_RUNTIME_TEXT ")", WIS(runtime)},
	{"test", OPT_ENUM, '-', OPTF_REQUIRED | OPTF_CASE, .known = wis_case_known, .nth = wis_case_name,
	 .what = "a testcase of will-it-scale (the testcases: docs/lkp-compat.md)",
	 .help = "the testcase to run; required", WIS(test)},
	{"mode", OPT_ENUM, '-', 0, .dflt = "both", .choices = wis_modes,
	 .help = "tasks as processes, threads, or both one after the other", WIS(mode)},
	{"nr_task", OPT_CPUS, '-', 0, .dflt = "100%", .help = "tasks: a count or a share of the CPUs", WIS(nr_task)},
	{"no_affinity", OPT_BOOL, '-', 0, .dflt = "0", .help = "do not bind task i to the i-th CPU", WIS(no_affinity)},
	O_BOOL("smt", '-', "0", "LKP's SMT layout switch (not used: tasks go CPU by CPU)"),
	O_BOOL("numactl", '-', "0", "LKP's numactl binding (not used: one node)"),
	O_STR("numa_node", '-', NULL, "LKP's node for numactl (not used)"),
	END,
};

extern const struct bench_ops bench_will_it_scale;

extern const struct bench_ops bench_vm_scalability;

/* one line per program; sorted by name (strcmp order): searched by halves */
#define MON(n, o, parse, samp, h) {n, PROG_MONITOR, o, .mon = {n, parse, samp}, .help = h}
#define LKP_MON(n, o, h) MON(n, o, NULL, NULL, h " (LKP's; perfsift does not sample it)")

static const struct program programs[] = {
	LKP_MON("bdi_dev_mapping", interval_opts, "block devices and their backing devices"),
	LKP_MON("boot-time", NULL, "the kernel's boot time"),
	MON("buddyinfo", interval_opts, parse_buddyinfo, &sampling_buddyinfo, "/proc/buddyinfo: free pages by order"),
	LKP_MON("cpufreq-stats", interval_opts, "cpufreq time in state"),
	{"cpufreq_governor", PROG_SETUP, NULL, &cpufreq_value, .setup = setup_cpufreq,
	 .help = "sets every CPU's cpufreq governor"},
	MON("cpuidle", interval_opts, parse_cpuidle, &sampling_cpuidle, "cpuidle states' usage and time"),
	MON("diskstats", interval_opts, parse_diskstats, &sampling_diskstats, "/proc/diskstats"),
	MON("dmesg", NULL, parse_dmesg, NULL, "the console of a run in a VM (run --kernel); not sampled"),
	{"drop_caches", PROG_SETUP, NULL, &drop_caches_value, .setup = setup_drop_caches,
	 .help = "drops the page cache before each run"},
	LKP_MON("heartbeat", interval_opts, "a sign of life"),
	MON("interrupts", interval_opts, parse_interrupts, &sampling_interrupts, "/proc/interrupts"),
	LKP_MON("iostat", interval_opts, "iostat(1)"),
	MON("kmsg", interval_opts, parse_kmsg, &sampling_kmsg, "the kernel log during the run"),
	MON("latency_stats", interval_opts, parse_latency_stats, &sampling_latency_stats, "/proc/latency_stats, at the end"),
	LKP_MON("lock_stat", NULL, "/proc/lock_stat"),
	MON("meminfo", interval_opts, parse_meminfo, &sampling_meminfo, "/proc/meminfo"),
	MON("mpstat", interval_opts, parse_mpstat, &sampling_mpstat, "mpstat -P ALL -o JSON (sysstat)"),
	{"mytest", PROG_TEST, mytest_opts, &mytest_value, .mon = {"mytest", parse_mytest, NULL},
	 .help = "an external command as the benchmark; `key: value` lines it prints are stats"},
	LKP_MON("nfsstat", interval_opts, "nfsstat(8)"),
	MON("numa-meminfo", interval_opts, parse_numa_meminfo, &sampling_numa_meminfo, "per-node meminfo"),
	MON("numa-numastat", interval_opts, parse_numa_vmstat, &sampling_numa_numastat, "per-node numastat"),
	MON("numa-vmstat", interval_opts, parse_numa_vmstat, &sampling_numa_vmstat, "per-node vmstat"),
	MON("pagetypeinfo", interval_opts, parse_pagetypeinfo, &sampling_pagetypeinfo, "/proc/pagetypeinfo"),
	LKP_MON("perf-c2c", perf_c2c_opts, "perf c2c"),
	{"perf-profile", PROG_MONITOR, perf_profile_opts, .mon = {"perf-profile", parse_perf_profile, &sampling_perf_profile},
	 .help = "call chains sampled in a window of the run", .params_size = sizeof(struct pp_opts)},
	LKP_MON("perf-sched", perf_sched_opts, "perf sched"),
	MON("perf-stat", perf_stat_opts, parse_perf_stat, &sampling_perf_stat, "hardware and software event counts"),
	MON("proc-stat", interval_opts, parse_proc_stat, &sampling_proc_stat, "/proc/stat"),
	MON("proc-vmstat", interval_opts, parse_proc_vmstat, &sampling_proc_vmstat, "/proc/vmstat"),
	MON("sched_debug", interval_opts, parse_sched_debug, &sampling_sched_debug, "/proc/sched_debug"),
	MON("slabinfo", interval_opts, parse_slabinfo, &sampling_slabinfo, "/proc/slabinfo"),
	MON("softirqs", interval_opts, parse_softirqs, &sampling_softirqs, "/proc/softirqs"),
	{"split-job", PROG_TEST, split_job_opts, .help = "the program of LKP's split-job fixtures (does not run)"},
	{"sysctl", PROG_SETUP, sysctl_opts, .option_prefix = "sc_", .setup = setup_sysctl,
	 .check = setup_sysctl_check, .help = "sets sysctls: sc_NAME is /proc/sys/<dir>/NAME"},
	{"time", PROG_OUTPUT, .mon = {"time", parse_time, NULL},
	 .help = "the benchmark's resource usage (every run's time file)"},
	{"transparent_hugepage", PROG_SETUP, thp_opts, .setup = setup_thp,
	 .help = "sets transparent huge pages"},
	MON("turbostat", interval_opts, parse_turbostat, &sampling_turbostat, "turbostat(8)"),
	LKP_MON("uptime", interval_opts, "/proc/uptime"),
	{"vm-scalability", PROG_TEST, vm_scalability_opts, .mon = {"vm-scalability", parse_vm_scalability, NULL},
	 .bench = &bench_vm_scalability, .help = "LKP's vm-scalability suite, built in",
	 .params_size = sizeof(struct vmscal_opts)},
	MON("vmstat", interval_opts, parse_vmstat, &sampling_vmstat, "vmstat(8)"),
	{"will-it-scale", PROG_TEST, will_it_scale_opts, .mon = {"will-it-scale", parse_will_it_scale, NULL},
	 .bench = &bench_will_it_scale, .help = "LKP's will-it-scale suite, built in",
	 .params_size = sizeof(struct wis_opts)},
};

static int program_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct program *)elem)->name);
}

/*
 * An entry of either block by name, PROG_OUTPUT too; else a plug-in
 * found on the search path so far (plugins.h): the table's own names
 * come first, so a plug-in never stands in for one of them.
 */
static const struct program *program_any(const char *name)
{
	const struct program *p = bsearch(name, programs, ARRAY_SIZE(programs),
					  sizeof(programs[0]), program_cmp);

	if (!p)
		p = bsearch(name, external_programs, external_program_count,
			    sizeof(external_programs[0]), program_cmp);
	return p ? p : plugin_registered(name);
}

const struct program *program_find(const char *name)
{
	const struct program *p = program_any(name);

	return p && p->kind != PROG_OUTPUT ? p : NULL;
}

const struct program_option *program_option(const struct program *p,
					    const char *opt)
{
	const struct program_option *o;
	size_t n;

	for (o = p->options; o && o->name; o++)
		if (!strcmp(o->name, opt))
			return o;
	n = p->option_prefix ? strlen(p->option_prefix) : 0;
	if (n && !strncmp(opt, p->option_prefix, n) && opt[n])
		return &sysctl_any;
	return NULL;
}

size_t program_count(void)
{
	return ARRAY_SIZE(programs) + external_program_count;
}

/* the i-th entry in name order: the two sorted blocks merged */
const struct program *program_at(size_t i)
{
	size_t a = 0, b = 0;

	if (i >= program_count())
		return NULL;
	for (;;) {
		bool take_a = b == external_program_count ||
			      (a < ARRAY_SIZE(programs) &&
			       strcmp(programs[a].name, external_programs[b].name) < 0);
		const struct program *p = take_a ? &programs[a++] : &external_programs[b++];

		if (!i--)
			return p;
	}
}

const char *program_kind_name(enum program_kind kind)
{
	switch (kind) {
	case PROG_TEST:
		return "benchmark";
	case PROG_MONITOR:
		return "monitor";
	case PROG_SETUP:
		return "setup";
	case PROG_OUTPUT:
		return "output parser";
	}
	return "?";
}

/* ------------------------------------------------- the other registries */

/*
 * monitor.h, bench.h: the same table seen as monitors / parsers (every
 * entry with a parser or a sampler, in name order) and as built-in
 * benchmarks.
 */
static bool is_monitor_entry(const struct program *p)
{
	return p->mon.parse || p->mon.sampling;
}

const struct monitor_ops *monitor_find(const char *name)
{
	const struct program *p = program_any(name);

	return p && is_monitor_entry(p) ? &p->mon : NULL;
}

size_t monitor_count(void)
{
	size_t i, n = 0;

	for (i = 0; i < program_count(); i++)
		n += is_monitor_entry(program_at(i));
	return n;
}

const struct monitor_ops *monitor_at(size_t i)
{
	size_t k;

	for (k = 0; k < program_count(); k++)
		if (is_monitor_entry(program_at(k)) && !i--)
			return &program_at(k)->mon;
	return NULL;
}

const struct bench_ops *bench_find(const char *name)
{
	const struct program *p = program_find(name);

	return p ? p->bench : NULL;
}

/* ------------------------------------------------------------- job keys */

const struct program_option *job_key_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(job_keys); i++)
		if (!strcmp(job_keys[i].name, name))
			return &job_keys[i];
	/* need_kconfig, need_memory, ...: requirements, any shape */
	if (!strncmp(name, "need_", 5))
		return job_key_find("need_*");
	return NULL;
}

size_t job_key_count(void)
{
	return ARRAY_SIZE(job_keys);
}

const struct program_option *job_key_at(size_t i)
{
	return i < ARRAY_SIZE(job_keys) ? &job_keys[i] : NULL;
}

/* ---------------------------------------------------------------- types */

const char *opt_type_name(enum opt_type type)
{
	static const char *const names[] = {
		[OPT_STRING] = "string", [OPT_ENUM] = "enum",
		[OPT_BOOL] = "bool",	 [OPT_COUNT] = "count",
		[OPT_SIZE] = "size",	 [OPT_SECONDS] = "seconds",
		[OPT_CPUS] = "cpus",	 [OPT_MEM] = "size|%mem",
		[OPT_NSEC] = "ns",	 [OPT_LIST] = "list",
		[OPT_ANY] = "any",
	};

	return (size_t)type < ARRAY_SIZE(names) ? names[type] : "?";
}

void opt_range(const struct program_option *o, double *min, double *max)
{
	*min = o->min;
	*max = o->max;
	if (o->min || o->max)
		return;
	switch (o->type) {
	case OPT_COUNT:
		*max = 1 << 30;
		break;
	case OPT_SIZE:
	case OPT_MEM:
		*max = 0x1p62; /* 4 EiB */
		break;
	case OPT_SECONDS:
		*max = MAX_SECONDS;
		break;
	case OPT_CPUS:
		*min = 1;
		*max = 1 << 20;
		break;
	case OPT_NSEC:
		*max = 0x1p40 * 1e6; /* 2^40 milliseconds */
		break;
	default:
		break;
	}
}

static bool word_in(const char *const *words, const char *s)
{
	for (; words && *words; words++)
		if (!strcmp(*words, s))
			return true;
	return false;
}

static void add_words(struct strbuf *sb, const char *const *words)
{
	for (; *words; words++)
		strbuf_addf(sb, "%s%s", *words, words[1] ? ", " : "");
}

/* text without a trailing '%' into num; true when it had one */
static bool cut_pct(const char *text, struct strbuf *num)
{
	size_t len = strlen(text);
	bool pct = len && text[len - 1] == '%';

	strbuf_reset(num);
	strbuf_add(num, text, pct ? len - 1 : len);
	return pct;
}

/* the number of text for the option's type, in its unit; -1 with why */
static int parse_number(const struct program_option *o, const char *text,
			struct opt_value *v, struct strbuf *why)
{
	struct strbuf num = STRBUF_INIT;
	const char *w = NULL;
	uint64_t u;
	long long n;
	int ret = -1;

	switch (o->type) {
	case OPT_COUNT:
		strbuf_addstr(&num, text);
		if (o->suffix && num.len > strlen(o->suffix) &&
		    !strcmp(num.buf + num.len - strlen(o->suffix), o->suffix))
			strbuf_setlen(&num, num.len - strlen(o->suffix));
		/* any whole number: the range check below says what is allowed */
		if (strnum_ll(num.buf, -(1ll << 62), 1ll << 62, &n, &w) == 0) {
			v->num = (double)n;
			ret = 0;
		}
		if (w)
			strbuf_addf(why, "is not a whole number (%s)", w);
		break;
	case OPT_SIZE:
		if (strnum_size(text, &u, &w) == 0) {
			v->num = (double)u;
			ret = 0;
		} else {
			strbuf_addf(why, "is not a size (%s; e.g. 4096, 512M, 16G)", w);
		}
		break;
	case OPT_SECONDS:
		if (strnum_seconds(text, &v->num, &w) == 0)
			ret = 0;
		else
			strbuf_addstr(why, "is not a duration (e.g. 300 or 300s)");
		break;
	case OPT_CPUS:
	case OPT_MEM:
		v->pct = cut_pct(text, &num);
		if (v->pct || o->type == OPT_CPUS) {
			if (strnum_ll(num.buf, -(1ll << 62), 1ll << 62, &n, &w) == 0) {
				v->num = (double)n;
				ret = 0;
			} else {
				strbuf_addf(why, "is not %s (%s)",
					    o->type == OPT_CPUS ?
						    "a count or a percentage of the CPUs (4, 50%)" :
						    "a percentage of MemTotal (10%)",
					    w);
			}
		} else if (strnum_size(text, &u, &w) == 0) {
			v->num = (double)u;
			ret = 0;
		} else {
			strbuf_addf(why, "is not a size or a share of MemTotal (%s; e.g. 512M, 10%%)",
				    w);
		}
		break;
	case OPT_NSEC: {
		double mult = 1;

		strbuf_addstr(&num, text);
		if (num.len && (num.buf[num.len - 1] == 'u' ||
				num.buf[num.len - 1] == 'm')) {
			mult = num.buf[num.len - 1] == 'u' ? 1e3 : 1e6;
			strbuf_setlen(&num, num.len - 1);
		}
		if (strnum_ll(num.buf, 0, 1ll << 40, &n, &w) == 0) {
			v->num = (double)n * mult;
			ret = 0;
		} else {
			strbuf_addf(why, "is not a delay (%s; nanoseconds, or 10u, 2m)", w);
		}
		break;
	}
	default:
		BUG("parse_number: not a number type");
	}
	strbuf_release(&num);
	return ret;
}

int opt_parse(const struct program_option *o, const char *text,
	      struct opt_value *v, struct strbuf *why)
{
	double min, max;

	memset(v, 0, sizeof(*v));
	v->s = text;
	if (!*text) {
		if (!(o->flags & OPTF_NONEMPTY))
			return 0;
		strbuf_addstr(why, "must not be empty");
		return -1;
	}
	switch (o->type) {
	case OPT_STRING:
	case OPT_LIST:
	case OPT_ANY:
		return 0;
	case OPT_ENUM:
		if (o->known ? o->known(text) : word_in(o->choices, text))
			return 0;
		if (o->what) {
			strbuf_addf(why, "is not %s", o->what);
		} else {
			strbuf_addstr(why, "is not one of ");
			add_words(why, o->choices);
		}
		return -1;
	case OPT_BOOL:
		/* LKP's jobs also write the option's own name for "on"
		 * (perf-bench-futex's `shared: [shared, ""]`) */
		if (!strcmp(text, "1") || !strcasecmp(text, "true") ||
		    !strcasecmp(text, "yes") || !strcasecmp(text, "on") ||
		    !strcmp(text, o->name)) {
			v->b = true;
			return 0;
		}
		if (!strcmp(text, "0") || !strcasecmp(text, "false") ||
		    !strcasecmp(text, "no") || !strcasecmp(text, "off"))
			return 0;
		strbuf_addf(why, "is not a bool (1/0, true/false, yes/no, on/off, or '%s')",
			    o->name);
		return -1;
	default:
		break;
	}
	if (parse_number(o, text, v, why) < 0)
		return -1;
	opt_range(o, &min, &max);
	if (v->pct) {
		/* a share of memory is at most all of it; of the CPUs, more is fine */
		min = 1;
		max = o->type == OPT_MEM ? 100 : 1 << 20;
	}
	if (v->num < min || v->num > max) {
		strbuf_addf(why, "is out of range (%.15g%s to %.15g%s)", min,
			    v->pct ? "%" : "", max, v->pct ? "%" : "");
		return -1;
	}
	return 0;
}

/* ----------------------------------------------------------------- help */

/* dflt: the default as shown, when the table's is not the word (or NULL) */
static void help_line(struct strbuf *out, const struct program_option *o,
		      const char *dflt)
{
	struct strbuf type = STRBUF_INIT;
	double min, max;

	opt_range(o, &min, &max);
	/* the range the table gives; a type's own is in its name */
	if (o->min || o->max)
		strbuf_addf(&type, "%.15g..%.15g", min, max);
	strbuf_addf(out, "  %-20s %-9s %-13s %-9s %s", o->name,
		    opt_type_name(o->type), type.buf,
		    dflt ? dflt : o->dflt ? o->dflt : "-", o->help ? o->help : "");
	if (o->type == OPT_ENUM && o->what)
		strbuf_addf(out, " (%s)", o->what);
	if (o->type == OPT_ENUM && o->choices) {
		strbuf_addstr(out, " (");
		add_words(out, o->choices);
		strbuf_addch(out, ')');
	}
	if (o->flags & OPTF_SINGLE)
		strbuf_addstr(out, "; one value, not a list");
	/* the values, with whether each runs here, are the job's business */
	if (o->flags & OPTF_CASE)
		strbuf_addstr(out, "; `perfsift run JOB --list-cases` lists them");
	strbuf_addch(out, '\n');
	strbuf_release(&type);
}

static void help_header(struct strbuf *out)
{
	strbuf_addf(out, "  %-20s %-9s %-13s %-9s %s\n", "KEY", "TYPE", "RANGE",
		    "DEFAULT", "HELP");
}

static void help_program(struct strbuf *out, const struct program *p)
{
	const struct program_option *o;

	strbuf_addf(out, "%s (%s): %s\n", p->name, program_kind_name(p->kind),
		    p->help);
	if (p->kind == PROG_OUTPUT)
		return;
	if (!p->value && !(p->options && p->options->name)) {
		strbuf_addstr(out, "  no options\n");
		return;
	}
	help_header(out);
	if (p->value) {
		struct program_option v = *p->value;

		v.name = "(its value)";
		help_line(out, &v, NULL);
	}
	for (o = p->options; o && o->name; o++) {
		struct strbuf d = STRBUF_INIT;
		const struct monitor_sampling *ms = p->mon.sampling;

		/* the sampler's default interval (sampling.h), not written twice */
		if (!strcmp(o->name, "interval") && !o->dflt && ms) {
			if (ms->default_interval > 0)
				strbuf_addf(&d, "%g", ms->default_interval);
			else
				strbuf_addstr(&d, ms->default_interval < 0 ?
							  "end" :
							  "start+end");
		}
		help_line(out, o, d.len ? d.buf : NULL);
		strbuf_release(&d);
	}
	if (p->option_prefix)
		strbuf_addf(out, "  %s<name>: any name with this prefix\n",
			    p->option_prefix);
}

int program_help(const char *name, struct strbuf *out, struct strbuf *err)
{
	const struct program *p;
	size_t i;

	if (name) {
		p = program_find(name);
		if (!p) {
			strbuf_addf(err, "'%s' is not a program (perfsift help keys lists them)",
				    name);
			return -1;
		}
		help_program(out, p);
		return 0;
	}
	strbuf_addstr(out, "top-level keys (any other key with a value is passed to the benchmark\n"
			   "as an environment variable, as LKP does):\n");
	help_header(out);
	for (i = 0; i < ARRAY_SIZE(job_keys); i++)
		help_line(out, &job_keys[i], NULL);
	for (i = 0; i < program_count(); i++) {
		if (program_at(i)->kind == PROG_OUTPUT)
			continue;
		strbuf_addch(out, '\n');
		help_program(out, program_at(i));
	}
	return 0;
}

const char *program_sysroot(void)
{
	const char *env = getenv("PERFSIFT_SYSROOT");

	return env && *env ? env : "/";
}
