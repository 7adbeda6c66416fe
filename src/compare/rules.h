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

/* ---- LKP's tables, compiled ---- */

struct stat_regex; /* a compiled pattern with its literal prefilter */

/*
 * A declared KPI (a job's `kpi:` key, kpi.h): a shell glob over stat
 * names, the better direction (+1 higher, -1 lower, 0 none given) and the
 * smallest change that matters, in percent (0: none given).
 */
struct stat_kpi {
	char *pattern;
	int direction;
	double threshold;
};

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
/* declare a KPI (a pattern declared twice keeps its first declaration) */
void stat_rules_add_kpi(struct stat_rules *r, const char *pattern,
			int direction, double threshold);
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
