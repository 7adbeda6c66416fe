/*
 * registry.c: the table of monitors and output parsers (see monitor.h).
 * One line per entry; keep it sorted by name.
 */
#include "util/compat.h"
#include <string.h>
#include "monitor.h"
#include "monitors/parsers.h"

static const struct monitor_ops monitors[] = {
	{"buddyinfo", parse_buddyinfo},
	{"cpuidle", parse_cpuidle},
	{"diskstats", parse_diskstats},
	{"interrupts", parse_interrupts},
	{"kmsg", parse_kmsg},
	{"latency_stats", parse_latency_stats},
	{"meminfo", parse_meminfo},
	{"mytest", parse_mytest},
	{"numa-meminfo", parse_numa_meminfo},
	{"numa-numastat", parse_numa_vmstat},
	{"numa-vmstat", parse_numa_vmstat},
	{"pagetypeinfo", parse_pagetypeinfo},
	{"perf-profile", parse_perf_profile},
	{"perf-stat", parse_perf_stat},
	{"proc-stat", parse_proc_stat},
	{"proc-vmstat", parse_proc_vmstat},
	{"sched_debug", parse_sched_debug},
	{"slabinfo", parse_slabinfo},
	{"softirqs", parse_softirqs},
	{"time", parse_time},
	{"turbostat", parse_turbostat},
	{"vm-scalability", parse_vm_scalability},
	{"vmstat", parse_vmstat},
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
