/*
 * build.h: from two result groups to a struct report -- the
 * comparison table (compare.h, LKP's default selection), the headline KPI,
 * the ranked stats that explain it (compare.h's statistics over every
 * stat), the charts, the test box -- and the commit's subject from git.
 */
#ifndef PERFSIFT_REPORT_BUILD_H
#define PERFSIFT_REPORT_BUILD_H

#include "util/compat.h"
#include "compare/compare.h"
#include "report/report.h"
#include "util/strbuf.h"

struct job;
struct result_group;

/* owns everything its struct report points to */
struct report_data {
	struct report r;
	struct compare_result table_res, all_res;
	struct strbuf table;
	struct report_stat *rows, *all;
	struct report_param *params;
	size_t nall;
	const struct report_stat *explain[REPORT_MAX_EXPLAIN];
	const struct report_stat *charts[REPORT_MAX_CHARTS];
	struct report_stat chart_own[REPORT_MAX_CHARTS]; /* report_chart_samples */
	double **owned; /* samples of stats some runs lack (the charts') */
	size_t nowned, alloc_owned;
	struct job *head_job, *base_job;
	char *commit, *subject;
	struct strbuf base_setting, head_setting;
	struct strbuf settings; /* r.box.settings */
	struct strbuf undecided; /* r.undecided's lines */
	/* the jobs to attach (report_repro_job()), empty when none; the
	 * base's is attached apart only when it differs (r.repro) */
	struct strbuf head_job_yaml, base_job_yaml;
	struct strbuf base_sel, head_sel; /* r.repro's compare selectors */
	bool kpi_regressed; /* exit status 1, as compare */
};

/*
 * Compare head with base and fill d (initialised here; the groups must
 * outlive it: the charts borrow their samples).  -1 with err.
 */
int report_build(struct report_data *d, const struct result_group *base,
		 const struct result_group *head, struct strbuf *err);

/*
 * The runs "what explains it" is judged on when there are more than the
 * two groups': every run judged good (the base side) and every run
 * judged bad (the head side) -- a bisect's good and bad commits, the
 * robot's interleaved confirmation.  Borrowed.
 */
struct report_pool {
	const struct matrix *const *good, *const *bad;
	size_t ngood, nbad;
};

/* separation needed to explain (docs/lkp-compat.md "report") */
#define REPORT_MIN_SEPARATION 0.8
/* runs a side for the pool alone to decide, without compare's verdict */
#define REPORT_POOL_MIN_RUNS 5

/*
 * report_build(), with "what explains it" judged on pool's runs (NULL:
 * the two groups'): a stat explains when its separation of the good runs
 * from the bad is at least REPORT_MIN_SEPARATION, ranked by separation,
 * then by report_rank_score().  With at least REPORT_POOL_MIN_RUNS runs a
 * side in the pool -- runs interleaved in time, so a stat that merely
 * drifted with the machine does not separate them -- the separation
 * alone decides; else compare's verdict on the two groups must also say
 * changed.
 */
int report_build_pooled(struct report_data *d, const struct result_group *base,
			const struct result_group *head,
			const struct report_pool *pool, struct strbuf *err);

/*
 * How well a stat separates the bad runs from the good: |2 AUC - 1|,
 * AUC the Mann-Whitney probability that a bad run's value is above a
 * good run's (ties count half) -- 1 when every bad run lies beyond every
 * good one, 0 when the two are interleaved at random.  Rank-based, so a
 * stat's scale and one wild run do not matter.  NAN with fewer than 3
 * values a side.
 */
double report_separation(const double *good, size_t ngood, const double *bad,
			 size_t nbad);
/*
 * Make stat the headline KPI and the first chart (a bisect's KPI, which
 * the bisect found moved: its word is its effect, never "unchanged"),
 * the other charts following as report_build() ranked them.  -1 with
 * err when the comparison has no such stat.
 */
int report_focus(struct report_data *d, const char *stat, struct strbuf *err);
/*
 * Draw chart k from these samples instead of the two groups' ('*' the
 * base series, 'O' the head's): a bisect's every bisect-good and
 * bisect-bad sample.  Borrowed: they must outlive the rendering.
 */
void report_chart_samples(struct report_data *d, size_t k,
			  const double *base_v, size_t nbase,
			  const double *head_v, size_t nhead);
/* ask git in repo for the commit's full id and subject (best effort) */
int report_git_commit(struct report_data *d, const char *repo,
		      struct strbuf *err);
void report_data_release(struct report_data *d);

/*
 * The rank of a stat among the explaining ones: the size of the change on
 * a log scale, |ln(head/base)| (a fall to 1% is 4.6, a rise to 6x 1.8:
 * a relative change would rank them the other way round), capped at
 * ln(1000) for a side at zero, weighted by its significance (the q-value:
 * 1 at q <= 0.001, falling towards 0 as q nears 1).
 */
double report_rank_score(const struct report_stat *s);
/*
 * The name a stat shares with its aliases, into out: `<testcase>.time.X`
 * is `time.X`; `numa_local` is `numa_hit` (equal on a one-node box, and
 * moving together on most others); a perf-profile symbol's calltrace,
 * children, self and legacy rows are `perf-profile:SYMBOL`.  Other names
 * are their own.
 */
void report_alias_key(const char *name, struct strbuf *out);

#endif
