/*
 * compare.h: the comparison of result groups -- LKP's table, its numbers
 * and its row order, plus perfsift's statistics -- as data (struct
 * compare_result) and renderers into a caller's strbuf (LKP text table,
 * JSON, CSV).  Pure computation and formatting, no I/O: the groups come
 * from select.h, the printing is cmd/compare.c's.
 *
 * Column 0 is the base; every further column is compared with it.
 */
#ifndef PERFSIFT_COMPARE_H
#define PERFSIFT_COMPARE_H

#include "util/compat.h"
#include "compare/lkp_change.h"
#include "result/stats.h"

struct noise_floor;
struct strbuf;
struct result_group;

enum compare_method {
	COMPARE_LKP,   /* LKP's selection rules (default) */
	COMPARE_STATS, /* verdict "changed" (Welch + BH q + bootstrap) */
};

/* what a row's change means for the stat's direction */
enum compare_effect {
	EFFECT_UNDEFINED,
	EFFECT_IMPROVEMENT,
	EFFECT_REGRESSION,
};
const char *compare_effect_name(enum compare_effect e);

struct compare_options {
	enum compare_method method;
	bool all;   /* --all: every stat */
	bool more;  /* --more: LKP's `more` (no bisectable/allow-list filter) */
	bool kpi;   /* --kpi: the KPIs only, every one, changed or not */
	bool kpi_rows; /* every KPI a row, beside the changed stats (report) */
	const char *stat_regex; /* --stat: only stats matching (POSIX ERE) */
	double alpha;           /* q level, 0.05 */
	double margin;          /* equivalence margin, % of the base mean, 2 */
	unsigned boot_iters;    /* bootstrap resamples, 0 = no interval */
	uint64_t seed;          /* bootstrap seed (fixed by default) */
	/* skip the statistics (p, q, interval, verdict) when nothing needs
	 * them: the default text table */
	bool no_statistics;
	/*
	 * LKP mode's noise guard: when either side has fewer than
	 * guard_runs runs, a stat LKP's rules select must also have a
	 * moderated-t or Welch p (stats.h) below guard_level.  LKP's range
	 * test passes by chance for 4.8% of stats at 5 + 5 runs.  lkp_exact
	 * turns the guard off: LKP's rules alone, as its own reports.
	 */
	bool lkp_exact;
	/*
	 * LKP's test forced for every stat (lkp_change.h): no small-change
	 * filter and no run minimum.  Bisect's verdicts (bisect/step_verdict.c):
	 * its good and bad already differ, and a 100 ms program's 5% step
	 * must count as a 300 s benchmark's does.
	 */
	bool force;
	double guard_level;  /* 0.001 */
	size_t guard_runs;   /* 10 */
	/*
	 * The noise floors `perfsift calibrate` stored (result_group.floor):
	 * a stat whose change is within floor_k x its floor is not flagged
	 * (stat_within_noise_floor(), rules.h).  no_calibration
	 * (--no-calibration) and lkp_exact leave the floors unused.
	 */
	bool no_calibration;
	double floor_k;      /* 2 */
	/*
	 * The two-sided level of a KPI verdict's interval (0.001: a 99.9%
	 * interval), strict because the robot and bisect look again after
	 * every pair: docs/detection.md measures what it gives.
	 */
	double kpi_level;
};
void compare_options_init(struct compare_options *o);

/* one column of one row: the group's numbers, and their change vs base */
struct compare_cell {
	bool present;      /* the group has the stat (a perf stat: in a run) */
	size_t nruns;      /* runs the numbers come from */
	size_t missing;    /* the group's runs without the stat (perf stats:
			    * left out of the numbers, not counted as 0) */
	double mean;       /* the display mean over those runs (a perf stat
			    * no run has: NAN; a failure stat: 0) */
	double stddev;     /* population stddev, -1 when nruns <= 1 */
	double fails;      /* failure stats: sum over the runs */
	/* columns 1..: vs column 0 */
	double change;     /* %change (relative for every stat, as the
			    * seed), or %reproduction for failure stats;
			    * NAN when a side has no value (never a change) */
	bool changed;      /* selected by the method in this column */
	enum lkp_outcome lkp;   /* LKP's test */
	double p_welch, p_mwu, q; /* NAN when not computed */
	double p_guard;         /* the noise guard's p, NAN when not applied */
	/* the default rule (rules.h) that took the cell out of the
	 * selection, NOISE_RULE_PASS when none did */
	enum stat_noise_rule noise_rule;
	double ci_lo, ci_hi;    /* bootstrap 95% interval of %change */
	enum stats_verdict verdict;
	unsigned more_runs;     /* for VERDICT_UNKNOWN */
	enum compare_effect effect;
	/*
	 * A KPI's three-way verdict (stats_kpi_verdict: changed, same or
	 * undecided, with the runs a side that would likely decide), when
	 * kpi_judged: every KPI column except with --lkp-exact.
	 */
	bool kpi_judged;
	enum stats_verdict kpi_verdict;
	unsigned kpi_more_runs;
	/* the verdict's interval of the %change (stats_kpi_interval, at
	 * kpi_level), the pairs it came from (0: unpaired, every run) and
	 * the minimum effect it was held to, in % */
	double kpi_lo, kpi_hi;
	size_t kpi_pairs;
	double kpi_min_effect;
	/* undecided, and more runs of this column alone would not decide it
	 * (stats_head_can_decide): the base's runs limit it */
	bool kpi_base_limited;
	/*
	 * The stat's calibrated noise floor for this column (% of its
	 * median; the larger of the base's and this group's), NAN when none
	 * is used; within_floor: the change was within floor_k x it, so the
	 * floor kept the cell from being flagged.
	 */
	double floor_pct;
	bool within_floor;
};

struct compare_row {
	char *name;
	bool is_function; /* failure stat: fails:runs and %reproduction */
	bool is_kpi;
	int direction;    /* +1 higher is better, -1 lower, 0 undefined */
	bool changed;     /* selected by the method (any column) */
	struct compare_cell *cells; /* ncols */
};

struct compare_result {
	size_t ncols;
	const struct result_group *const *groups; /* borrowed, ncols */
	struct compare_row *rows; /* shown rows, in LKP's order */
	size_t nrows, alloc_rows;
	size_t nstats;            /* stats considered (union of the groups) */
	enum compare_method method;
	/*
	 * a KPI changed for the worse (with a direction, and decided: an
	 * undecided KPI never counts)
	 */
	bool kpi_regressed;
	size_t nundecided;        /* undecided KPI cells shown */
	double guard_level;       /* the noise guard's level, 0: off */
	/*
	 * The calibration the comparison used (the base's floor, else the
	 * first column's with one; borrowed from the group), NULL when none
	 * did: the text header's "noise floor:" line.
	 */
	const struct noise_floor *floor;
	double floor_k;
	char *header_keys;        /* common axes: "k1/k2/..." or NULL */
	char *header_values;
	char *compare_keys;       /* the axes that differ ("commit") */
	char **labels;            /* ncols column labels */
};

void compare_result_init(struct compare_result *res);
void compare_result_release(struct compare_result *res);

/*
 * Compare groups[1..n) against groups[0]; fills res (rows selected by the
 * method, or all with o->all, then --stat / --kpi filters, LKP's order).
 * -1 with err on a bad --stat regex.
 */
int compare_groups(const struct result_group *const *groups, size_t ngroups,
		   const struct compare_options *o, struct compare_result *res,
		   struct strbuf *err);

/*
 * LKP's text table (the seed's 2016 layout), appended to out.  An
 * undecided KPI's %change carries a `?` and a line under the table says
 * how many more runs a side would likely decide it.
 */
void compare_render_text(const struct compare_result *res, struct strbuf *out);
/* {"schema": "perfsift-compare/1", ...}: data only */
void compare_render_json(const struct compare_result *res,
			 const struct compare_options *o, struct strbuf *out);
/* one line per (stat, column), header first */
void compare_render_csv(const struct compare_result *res, struct strbuf *out);

/*
 * The judged KPI cells of a comparison by verdict (run --until-decided
 * asks it after each run; compare with o.kpi so that "same" KPIs are
 * rows too), each KPI on its own (text.c says how): `worst` is the KPI
 * row the messages name.
 */
struct compare_kpi_tally {
	size_t changed, same;
	/* changed for the worse: the head is regressed, whatever the rest */
	size_t regressed;
	const struct compare_row *regressed_row; /* the first of them */
	/* undecided KPIs that still hold the head back (0 once one is
	 * regressed: each KPI on its own), and every undecided one */
	size_t undecided, undecided_all;
	size_t base_limited; /* undecided ones the base's runs limit */
	/* runs a side likely to decide the head: the fewest any undecided
	 * KPI pointing to a regression asks for, else the most any asks */
	unsigned more_runs;
	const struct compare_row *worst;
};
void compare_kpi_tally(const struct compare_result *res,
		       struct compare_kpi_tally *t);

/* "changed", "same", "undecided" for a judged KPI cell, else NULL */
const char *compare_kpi_verdict_name(const struct compare_cell *cell);
/*
 * The line under the table for one undecided KPI cell (column c of row):
 * "undecided: N more runs a side would likely decide STAT (+X%, why)".
 */
void compare_undecided_line(const struct compare_result *res,
			    const struct compare_row *row, size_t c,
			    struct strbuf *out);

/*
 * The command that would decide column c's undecided KPIs (those more
 * runs of the head can decide): `perfsift --result-root ROOT run JOB
 * --commit C --until-decided BASE --max-runs N` -- JOB the head group's
 * run job.yaml (select.h's job_file), ROOT its result root, C the
 * group's commit (the runs must measure it), BASE the base group's
 * directory, N the runs the group has plus the most more any of them
 * asks for (3 to 99: --max-runs counts every run of the group).  Appended to out; false (nothing appended) when none is undecided,
 * the base's runs are what limits them, or the head's runs are not on
 * this disk.
 */
bool compare_decide_command(const struct compare_result *res, size_t c,
			    struct strbuf *out);
/* "<prefix>to decide: <the command>\n", when there is one */
void compare_decide_line(const struct compare_result *res, size_t c,
			 const char *prefix, struct strbuf *out);

/* the table's number formats, exposed for tests and the report */
void compare_format_mean(struct strbuf *out, double mean);
void compare_format_stddev(struct strbuf *out, double mean, double stddev);
void compare_format_change(struct strbuf *out, double change);

#endif
