/*
 * parsers.h: the parse functions of monitors/, benchmarks/ and external/ (monitor_parse_fn
 * in monitor.h), one declaration per parser.
 */
#ifndef PERFSIFT_PARSERS_H
#define PERFSIFT_PARSERS_H

#include "monitors/monitor.h"

#define DECLARE_PARSER(fn)                                                     \
	int fn(const char *raw, size_t len, const char *path,                  \
	       struct strbuf *out, struct strbuf *err)

DECLARE_PARSER(parse_buddyinfo);
DECLARE_PARSER(parse_cpuidle);
DECLARE_PARSER(parse_diskstats);
DECLARE_PARSER(parse_interrupts);
DECLARE_PARSER(parse_kmsg);
DECLARE_PARSER(parse_dmesg);
DECLARE_PARSER(parse_latency_stats);
DECLARE_PARSER(parse_meminfo);
DECLARE_PARSER(parse_mytest);
DECLARE_PARSER(parse_numa_meminfo);
DECLARE_PARSER(parse_numa_vmstat);
DECLARE_PARSER(parse_pagetypeinfo);
DECLARE_PARSER(parse_perf_profile);
DECLARE_PARSER(parse_perf_stat);
DECLARE_PARSER(parse_proc_stat);
DECLARE_PARSER(parse_proc_vmstat);
DECLARE_PARSER(parse_sched_debug);
DECLARE_PARSER(parse_slabinfo);
DECLARE_PARSER(parse_softirqs);
DECLARE_PARSER(parse_time);
DECLARE_PARSER(parse_turbostat);
DECLARE_PARSER(parse_vm_scalability);
DECLARE_PARSER(parse_vmstat);
/* will-it-scale (src/benchmarks/wis_parse.c) */
DECLARE_PARSER(parse_will_it_scale);

/* src/monitors/mpstat.c and the external benchmarks (src/external/) */
DECLARE_PARSER(parse_mpstat);
DECLARE_PARSER(parse_aim9);
DECLARE_PARSER(parse_fio);
DECLARE_PARSER(parse_hackbench);
DECLARE_PARSER(parse_netperf);
DECLARE_PARSER(parse_perf_futex);
DECLARE_PARSER(parse_perf_mem);
DECLARE_PARSER(parse_perf_sched_messaging);
DECLARE_PARSER(parse_perf_sched_pipe);
DECLARE_PARSER(parse_stress_ng);
DECLARE_PARSER(parse_sysbench);
DECLARE_PARSER(parse_unixbench);

#endif
