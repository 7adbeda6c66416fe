/*
 * registry.c: the table of monitors and output parsers (see monitor.h).
 * One line per entry; keep it sorted by name.  The third field is the
 * monitor's sampling (monitors/sampling.h), NULL for parsers of output.
 */
#include "util/compat.h"
#include <string.h>
#include "monitor.h"
#include "monitors/parsers.h"
#include "monitors/sampling.h"

static const struct monitor_ops monitors[] = {
	{"buddyinfo", parse_buddyinfo, &sampling_buddyinfo},
	{"cpuidle", parse_cpuidle, &sampling_cpuidle},
	{"diskstats", parse_diskstats, &sampling_diskstats},
	{"interrupts", parse_interrupts, &sampling_interrupts},
	{"kmsg", parse_kmsg, &sampling_kmsg},
	{"latency_stats", parse_latency_stats, &sampling_latency_stats},
	{"meminfo", parse_meminfo, &sampling_meminfo},
	{"mytest", parse_mytest, NULL},
	{"numa-meminfo", parse_numa_meminfo, &sampling_numa_meminfo},
	{"numa-numastat", parse_numa_vmstat, &sampling_numa_numastat},
	{"numa-vmstat", parse_numa_vmstat, &sampling_numa_vmstat},
	{"pagetypeinfo", parse_pagetypeinfo, &sampling_pagetypeinfo},
	{"perf-profile", parse_perf_profile, &sampling_perf_profile},
	{"perf-stat", parse_perf_stat, &sampling_perf_stat},
	{"proc-stat", parse_proc_stat, &sampling_proc_stat},
	{"proc-vmstat", parse_proc_vmstat, &sampling_proc_vmstat},
	{"sched_debug", parse_sched_debug, &sampling_sched_debug},
	{"slabinfo", parse_slabinfo, &sampling_slabinfo},
	{"softirqs", parse_softirqs, &sampling_softirqs},
	{"time", parse_time, NULL},
	{"turbostat", parse_turbostat, &sampling_turbostat},
	{"vm-scalability", parse_vm_scalability, NULL},
	{"vmstat", parse_vmstat, &sampling_vmstat},
};

const struct monitor_ops *monitor_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(monitors); i++)
		if (!strcmp(monitors[i].name, name))
			return &monitors[i];
	return NULL;
}

size_t monitor_count(void)
{
	return ARRAY_SIZE(monitors);
}

const struct monitor_ops *monitor_at(size_t i)
{
	return i < ARRAY_SIZE(monitors) ? &monitors[i] : NULL;
}
