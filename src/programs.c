/*
 * programs.c: the one table of programs a job may name.  The options and
 * their path_params types follow LKP's program-options output
 * (tests/data/lkp/program-options.txt); monitors are every name in that
 * file and in LKP's include/category/benchmark default set.  A key that is
 * not in this table is a plain job key (an environment variable in LKP).
 */
#include "util/compat.h"
#include <stdlib.h>
#include <string.h>
#include "programs.h"

#define OPT(n) {n, '-'}
#define END {NULL, 0}

static const struct program_option vm_scalability_opts[] = {
	OPT("runtime"), OPT("nr_task"), OPT("test"), OPT("size"),
	OPT("unit_size"), OPT("fs"), OPT("pre_setup"), OPT("sync_rw"),
	OPT("bind_cpu"), OPT("repeat"), OPT("cpu_delay"), OPT("sync_free"),
	OPT("timed_wp"),
	/* perfsift's: the memory hw_vars sees (scales every size), and leave to size what does not fit */
	{"mem", '='}, {"allow_oom", '='}, END,
};

/* LKP declares `- mytest`; perfsift's external command lives in cmdline */
static const struct program_option mytest_opts[] = {
	OPT("mytest"), OPT("cmdline"), END,
};

/* the program of LKP's split-job fixtures (spec/fixtures/split-job) */
static const struct program_option split_job_opts[] = {
	OPT("group"), OPT("test"), END,
};

static const struct program_option thp_opts[] = {
	OPT("thp_enabled"), OPT("thp_defrag"), OPT("shmem_enabled"),
	OPT("enabled_64kB"), OPT("enabled_32kB"), OPT("enabled_16kB"),
	{"use_zero_page", '='}, /* perfsift's: the huge zero page on or off */
	END,
};

/*
 * LKP's list is cut short upstream (program-options.txt ends mid-way);
 * program_option() accepts every sc_* name for sysctl, these are the
 * declared ones for reference.
 */
static const struct program_option sysctl_opts[] = {
	OPT("sc_vsyscall32"), OPT("sc_exception_trace"),
	OPT("sc_kprobes_optimization"), OPT("sc_aio_max_nr"), OPT("sc_aio_nr"),
	OPT("sc_dentry_state"), OPT("sc_dir_notify_enable"), OPT("sc_file_max"),
	OPT("sc_file_nr"), OPT("sc_inode_nr"), OPT("sc_inode_state"),
	OPT("sc_lease_break_time"), OPT("sc_leases_enable"),
	OPT("sc_mount_max"), OPT("sc_nr_open"), OPT("sc_overflowgid"),
	OPT("sc_overflowuid"), OPT("sc_pipe_max_size"),
	OPT("sc_pipe_user_pages_hard"), OPT("sc_pipe_user_pages_soft"),
	OPT("sc_protected_hardlinks"), OPT("sc_protected_symlinks"),
	OPT("sc_suid_dumpable"), OPT("sc_acct"), OPT("sc_acpi_video_flags"),
	OPT("sc_auto_msgmni"), OPT("sc_bootloader_type"),
	OPT("sc_bootloader_version"), OPT("sc_cad_pid"), OPT("sc_cap_last_cap"),
	OPT("sc_core_pattern"), OPT("sc_core_pipe_limit"),
	OPT("sc_core_uses_pid"), OPT("sc_ctrl_alt_del"),
	OPT("sc_dmesg_restrict"), OPT("sc_domainname"),
	OPT("sc_ftrace_dump_on_oops"), OPT("sc_ftrace_enabled"),
	OPT("sc_hardlockup_all_cpu_backtrace"), END,
};

static const struct program_option perf_stat_opts[] = {
	OPT("events"), OPT("revents"), OPT("delay"), OPT("duration"),
	OPT("command"), OPT("per_socket"), OPT("per_die"),
	OPT("interval_ms"), OPT("rmetrics"), OPT("metrics"),
	OPT("metric_only"), OPT("list_pmu_events"), END,
};

/* monitors sampled every `interval` seconds (LKP's periodic monitors) */
static const struct program_option interval_opts[] = {
	OPT("interval"), END,
};

/* options the default monitor set passes (include/category/benchmark) */
static const struct program_option debug_mode_opts[] = {
	OPT("debug_mode"), END,
};

/* perf-profile as perfsift samples it (monitors/perf_profile.c) */
static const struct program_option perf_profile_opts[] = {
	OPT("debug_mode"), OPT("freq"), OPT("period"), OPT("legacy_keys"),
	OPT("interval"), END,
};

static const struct program_option perf_sched_opts[] = {
	OPT("lite_mode"), END,
};

/* the option returned for any sysctl sc_* name not in the list above */
static const struct program_option sysctl_any = {"sc_*", '-'};

#define TEST(n, o) {n, PROG_TEST, o, false}
#define MON(n, o) {n, PROG_MONITOR, o, false}
#define SETUP(n, o, v) {n, PROG_SETUP, o, v}

static const struct program programs[] = {
	/* sorted by name (strcmp order): program_find() searches it by halves */
	MON("bdi_dev_mapping", interval_opts),
	MON("boot-time", NULL),
	MON("buddyinfo", interval_opts),
	MON("cpufreq-stats", interval_opts),
	SETUP("cpufreq_governor", NULL, true),
	MON("cpuidle", interval_opts),
	MON("diskstats", interval_opts),
	SETUP("drop_caches", NULL, true),
	MON("heartbeat", interval_opts),
	MON("interrupts", interval_opts),
	MON("iostat", interval_opts),
	MON("kmsg", interval_opts),
	MON("latency_stats", interval_opts),
	MON("lock_stat", NULL),
	MON("meminfo", interval_opts),
	MON("mpstat", interval_opts),
	{"mytest", PROG_TEST, mytest_opts, true},
	MON("nfsstat", interval_opts),
	MON("numa-meminfo", interval_opts),
	MON("numa-numastat", interval_opts),
	MON("numa-vmstat", interval_opts),
	MON("pagetypeinfo", interval_opts),
	MON("perf-c2c", debug_mode_opts),
	MON("perf-profile", perf_profile_opts),
	MON("perf-sched", perf_sched_opts),
	MON("perf-stat", perf_stat_opts),
	MON("proc-stat", interval_opts),
	MON("proc-vmstat", interval_opts),
	MON("sched_debug", interval_opts),
	MON("slabinfo", interval_opts),
	MON("softirqs", interval_opts),
	TEST("split-job", split_job_opts),
	SETUP("sysctl", sysctl_opts, false),
	SETUP("transparent_hugepage", thp_opts, false),
	MON("turbostat", interval_opts),
	MON("uptime", interval_opts),
	TEST("vm-scalability", vm_scalability_opts),
	MON("vmstat", interval_opts),
};

static int program_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct program *)elem)->name);
}

const struct program *program_find(const char *name)
{
	return bsearch(name, programs, ARRAY_SIZE(programs),
		       sizeof(programs[0]), program_cmp);
}

const struct program_option *program_option(const struct program *p,
					    const char *opt)
{
	const struct program_option *o;

	for (o = p->options; o && o->name; o++)
		if (!strcmp(o->name, opt))
			return o;
	if (!strcmp(p->name, "sysctl") && !strncmp(opt, "sc_", 3) && opt[3])
		return &sysctl_any;
	return NULL;
}

size_t program_count(void)
{
	return ARRAY_SIZE(programs);
}

const struct program *program_at(size_t i)
{
	return i < ARRAY_SIZE(programs) ? &programs[i] : NULL;
}
