/*
 * decide.h: the decision loop -- run, compare, decide, run again -- as
 * one pure module above compare/ (docs/design.md "decide/"), shared by
 * the robot's judgement of a head, bisect's re-measured endpoints and
 * the bench of detection rates.  It makes no runs and computes no
 * statistics itself: the caller's ops run one side and judge what has
 * been run; decide_until() only says which side runs next and when to
 * stop.
 *
 * The order (state once, followed everywhere):
 *  - runs come in interleaved pairs, base first, then head (ABAB), so
 *    that whatever else the machine does falls on both sides alike;
 *  - at least budget.min_runs pairs are made by this call, whatever the
 *    caller already holds (budget.start): runs of another time may add
 *    to a side's count but never decide alone;
 *  - after each pair (once min_runs pairs are made) judge() is asked;
 *    no KPI undecided stops it (so does one changed, with
 *    budget.first_change);
 *  - where judge() says one side's spread alone limits the decision
 *    (tally.want), that side gets the next run alone -- but never more
 *    than twice the other side's runs: beyond that the run is a pair
 *    again, so no side's runs all come from one stretch of time;
 *  - a side at budget.max_runs gets no more runs; when the side(s) that
 *    would run are both at it, the budget is spent: verdict undecided.
 */
#ifndef PERFSIFT_DECIDE_H
#define PERFSIFT_DECIDE_H

#include "util/compat.h"
#include <stdbool.h>
#include <stddef.h>

struct strbuf;

enum decide_side { DECIDE_BASE, DECIDE_HEAD };

/* what judge() says limits the undecided KPIs */
enum decide_want {
	DECIDE_WANT_BOTH = 0, /* a pair: the default */
	DECIDE_WANT_BASE,     /* the base's spread alone limits */
	DECIDE_WANT_HEAD,     /* the head's spread alone limits */
};

enum decide_verdict {
	DECIDE_UNDECIDED = 0, /* a state, never an answer: more runs decide */
	DECIDE_CHANGED,
	DECIDE_SAME,
};

enum decide_stop {
	DECIDE_STOP_DECIDED = 0, /* no KPI undecided (or one changed) */
	DECIDE_STOP_BUDGET,      /* max_runs reached while undecided */
	DECIDE_STOP_PENDING,     /* run() queued its run(s): judge later */
};

struct decide_tally {
	/* judge() fills these: its KPIs by verdict, and what limits them */
	size_t changed, same, undecided;
	enum decide_want want;
	/* decide_until() keeps these */
	size_t runs[2];  /* a side (DECIDE_BASE, DECIDE_HEAD): start + made */
	size_t made[2];  /* of them made (or queued) by this call */
	size_t pairs;    /* base-then-head pairs made by this call */
	size_t judged;   /* times judge() was asked */
	enum decide_verdict verdict;
	enum decide_stop stop;
};

struct decide_ops {
	void *data;
	/*
	 * One more run of side: 0 done, 1 queued (its result comes later:
	 * the rest of the pair is queued too, then decide_until() stops
	 * with DECIDE_STOP_PENDING), -1 error (err says why).
	 */
	int (*run)(void *data, enum decide_side side, struct strbuf *err);
	/*
	 * Judge the runs so far (t->runs, t->pairs are current): fill
	 * t->changed, t->same, t->undecided and t->want.  0, or -1 (err).
	 */
	int (*judge)(void *data, struct decide_tally *t, struct strbuf *err);
	/* optional: called before each run, for "pair 4 of 10" in the log */
	void (*progress)(void *data, enum decide_side side,
			 const struct decide_tally *t, size_t max_runs);
};

struct decide_budget {
	size_t min_runs;  /* pairs this call makes before judging (>= 1) */
	size_t max_runs;  /* the most runs a side, start included */
	size_t start[2];  /* runs a side the caller already holds */
	bool first_change; /* stop at the first changed KPI (each on its own) */
};

/*
 * The defaults of every caller's budget, said once here: the robot's
 * config (robot/config.c), bisect (cmd/bisect.c) and `run
 * --until-decided` (cmd/run.c, run/schedule.c) start with RUNS a side
 * and stop at MAX_RUNS.  3 because LKP's rules judge nothing below 3 runs
 * a side.  30: bench/detection (docs/detection.md) calls a 30% slowdown
 * at +-20% per-run noise regressed in 100% of 600 seeded heads at 30
 * pairs (95.0% at 20, 99.3% at 25), and an unchanged head falsely
 * regressed in 1.3% (bisect then mails nothing).  Bisect's own step
 * budget is BISECT_DEFAULT_MAX_RUNS (bisect/bisect.h).  The _TEXT forms
 * are for usage text, made from the numbers so that the help and the
 * code cannot disagree.
 */
#define DECIDE_DEFAULT_RUNS 3
#define DECIDE_DEFAULT_MAX_RUNS 30
#define DECIDE_DEFAULT_RUNS_TEXT STRINGIFY(DECIDE_DEFAULT_RUNS)
#define DECIDE_DEFAULT_MAX_RUNS_TEXT STRINGIFY(DECIDE_DEFAULT_MAX_RUNS)

/*
 * Run and judge until decided or the budget is spent (the rule above).
 * The verdict: changed when a KPI is (each KPI on its own: an undecided
 * one holds no changed one back), same when every KPI is, else
 * undecided.  0 with *out filled (verdict, stop, runs, pairs), -1 when
 * run() or
 * judge() failed (err says why; *out holds the runs made so far).  A
 * budget with min_runs 0 judges what the caller holds before any run.
 */
int decide_until(const struct decide_ops *ops, const struct decide_budget *b,
		 struct decide_tally *out, struct strbuf *err);

/* "changed", "same", "undecided" */
const char *decide_verdict_name(enum decide_verdict v);

#endif
