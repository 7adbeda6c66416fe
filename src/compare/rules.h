/*
 * rules.h: LKP's rules for stats (spec/lkp-compare.md §2), compiled from
 * LKP's own tables (lkp_tables.h) once into a struct stat_rules: the
 * stat classes (failure, perf metric, bisectable, report allow-list,
 * KPI), the better direction, and LKP's reasonable-change floors.  The
 * change test that uses them is lkp_change.h; the statistics beyond LKP
 * are result/stats.h.
 */
#ifndef PERFSIFT_RULES_H
#define PERFSIFT_RULES_H

#include "util/compat.h"
#include <string.h>
#include "job/kpi.h"

/* ---- LKP's tables, compiled ---- */

struct stat_regex; /* a compiled pattern with its literal prefilter */

struct stat_rules {
	struct stat_regex *failure, *pass, *perf_patterns, *report_allow,
		*stat_allow, *stat_deny, *threshold, *index_perf,
		*index_latency;
	size_t nfailure, npass, nperf_patterns, nreport_allow, nstat_allow,
		nstat_deny, nthreshold, nindex_perf, nindex_latency;
	/* the benchmarks of the comparison (testcases): `<name>.` is a perf
	 * metric and a KPI; set with stat_rules_add_benchmark() */
	char **benchmarks;
	size_t nbenchmarks, alloc_benchmarks;
	/*
	 * Declared KPIs (stat_rules_add_kpi()): when there is any, they are
	 * the KPIs, instead of the benchmarks' own stats.
	 */
	struct stat_kpi *kpis;
	size_t nkpis, alloc_kpis;
	/*
	 * LKP's floors assume 300 s runs: the floors of time-valued stats
	 * (`*.time.*_time`, `*elapsed_time*`) are multiplied by this factor,
	 * runtime / 300 s, never above 1.  1 by default.
	 */
	double time_floor_scale;
};

/*
 * LKP's tables; each pattern is compiled on its first use (a pattern that
 * does not compile is a BUG then); stat_rules_compile_all() compiles
 * every one now, for the tests.
 */
void stat_rules_init(struct stat_rules *r);
void stat_rules_compile_all(struct stat_rules *r);
void stat_rules_release(struct stat_rules *r);
/* `mytest` is always one: a mytest job's stats are its own, whatever its testcase */
void stat_rules_add_benchmark(struct stat_rules *r, const char *name);
/*
 * Forget the benchmarks and declared KPIs (mytest stays one), keeping
 * the compiled tables: for a caller that looks at many jobs' stats in
 * turn (history, the site) with one set of rules.
 */
void stat_rules_reset_job(struct stat_rules *r);
/* declare a KPI (a pattern declared twice keeps its first declaration) */
void stat_rules_add_kpi(struct stat_rules *r, const char *pattern,
			int direction, double threshold);
/*
 * Every KPI of kpi_format()'s text (job/kpi.h: a group's or a run's
 * declaration) declared in r; -1 when the text is malformed.
 */
int kpi_declare(struct stat_rules *r, const char *text);
/* runtime_s / 300, capped at 1 (ignored when runtime_s <= 0) */
void stat_rules_set_runtime(struct stat_rules *r, double runtime_s);

/* failure ("function") stat: etc/failure or etc/pass, not .time. etc. */
bool stat_is_function(const struct stat_rules *r, const char *name);
/* perf metric: etc/perf-metrics-{patterns,prefixes} or a benchmark's */
bool stat_is_perf_metric(const struct stat_rules *r, const char *name);
/* bisectable: in etc/stat-allowlist, or not in etc/stat-denylist */
bool stat_is_bisectable(const struct stat_rules *r, const char *name);
bool stat_in_report_allowlist(const struct stat_rules *r, const char *name);
/*
 * KPI: a declared KPI's pattern matches (when any is declared), else one
 * of the benchmark's own stats, `<testcase>.*` (mytest.* among them),
 * leaving out the time monitor's `time.*` and `<testcase>.time.*` (how
 * fast the machine was, which must not gate CI unless declared)
 */
bool stat_is_kpi(const struct stat_rules *r, const char *name);
/* the declaration matching name (first declared first), or NULL */
const struct stat_kpi *stat_kpi_decl(const struct stat_rules *r,
				     const char *name);
/*
 * LKP's index tables alone (index-perf-all.yaml, then
 * index-latency-all.yaml, first whole-name match): the sign of the
 * weight, 0 when neither names the stat.  What built-in benchmarks
 * declare their KPIs from.
 */
int stat_index_direction(const struct stat_rules *r, const char *name);
/* the time-valued stats whose floors are scaled by the runtime */
bool stat_is_time_valued(const char *name);

/*
 * Direction: +1 higher is better, -1 lower is better, 0 undefined.  A
 * declared KPI's direction when it gives one; else LKP's
 * index-perf-all.yaml, then index-latency-all.yaml (first whole-name
 * match, the sign of its weight), then perfsift's lower-is-better rules
 * (`*.time.*_time`, latencies, `*seconds`, `*_ms`, `*_us`, `*_ns`).
 */
int stat_direction(const struct stat_rules *r, const char *name);

/*
 * LKP's reasonable_perf_change?: the first etc/perf-metrics-threshold.yaml
 * pattern matching the whole name decides (reject when max < T, or when
 * T is an integer and delta < T/2), else the built-in fallbacks.
 */
bool stat_reasonable_change(const struct stat_rules *r, const char *name,
			    double delta, double max);

/*
 * ---- perfsift's default rules beyond LKP's (compare without --lkp-exact) ----
 *
 * A real A/A on a shared machine (bench/aa.sh, docs/performance.md)
 * flags stats that describe the machine rather than the workload: its
 * idle time and CPU shares, the scheduler's averages and run queues, its
 * free memory, page cache, slab and other processes' page tables, and
 * perf-profile's system-wide samples.  They move whenever anything else
 * on the machine changes, so between two batches of runs they step by
 * more than the runs of either batch spread.  These rules are applied to
 * a stat LKP's rules and the noise guard selected (judge.c); a declared
 * or implicit KPI and a failure stat are never subject to them.  Why each
 * rule is what it is: docs/lkp-compat.md, "Machine-state stats".
 */
enum stat_noise_rule {
	NOISE_RULE_PASS,        /* no rule objects: the selection stands */
	NOISE_RULE_IDENTIFIER,  /* not a measurement (a PID) */
	NOISE_RULE_SMALL_SHARE, /* perf-profile under 1% of samples both sides */
	NOISE_RULE_FEW_RUNS,    /* machine state: a side with < 3 runs of it */
	NOISE_RULE_SPREAD,      /* machine state: sides not apart by a spread */
	NOISE_RULE_FLOOR,       /* machine state: change under the class floor */
};

/* the default class floor of machine-state stats, in % of the base mean */
#define STAT_MACHINE_STATE_FLOOR_PCT 10.0

/* the rule's name in the JSON (`noise_rule`), "" for NOISE_RULE_PASS */
const char *stat_noise_rule_name(enum stat_noise_rule rule);
/* a number that identifies, not measures: `sched_debug.*curr->pid*` */
bool stat_is_identifier(const char *name);
/*
 * A stat of the whole machine's state (the list and its reasons in
 * rules.c): a gauge of a /proc monitor that is not one of LKP's event
 * counters (etc/event-counter-prefixes), the machine's CPU shares and
 * idle time, the scheduler's state, and perf-profile's system-wide
 * shares.
 */
bool stat_is_machine_state(const char *name);
/*
 * Should the change of stat name, a (head) vs b (base), the values of the
 * runs that have it, stay selected?  floor_pct: the machine-state floor
 * in % of the base mean (STAT_MACHINE_STATE_FLOOR_PCT, or a floor
 * measured for this stat).  Checked in the enum's order; the first rule
 * that objects is returned.
 */
enum stat_noise_rule stat_noise_rule(const char *name, const double *a,
				     size_t na, const double *b, size_t nb,
				     double floor_pct);

/*
 * perfsift's calibrated noise floor (`perfsift calibrate`, result/floor.h):
 * a change of change_pct % is within the stat's run-to-run noise when
 * |change_pct| <= k x floor_pct, the floor its A/A measured on this job
 * and machine.  Such a change is not flagged, whatever LKP's rules say:
 * they know only stat classes, not how noisy this stat is here.  False
 * when there is no floor (NAN) or no change to judge.
 */
bool stat_within_noise_floor(double change_pct, double floor_pct, double k);

/*
 * Name tests the rules and the change test share (LKP's rules are mostly
 * "starts with" / "ends with" over stat names).
 */
static inline bool stat_has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static inline bool stat_has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !memcmp(s + n - m, suffix, m);
}

#endif
