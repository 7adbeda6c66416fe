/*
 * decide.c: the decision loop (decide/decide.h): which side runs next,
 * when to judge, when to stop.  Pure -- the caller's ops do the runs and
 * the statistics -- so the robot, bisect and bench/detection.c decide by
 * one rule and its unit test can drive it with seeded synthetic runs.
 */
#include "util/compat.h"
#include <string.h>
#include "decide/decide.h"
#include "util/strbuf.h"

struct loop {
	const struct decide_ops *ops;
	const struct decide_budget *b;
	struct decide_tally *t;
	struct strbuf *err;
	bool pending; /* a run was queued: stop once the pair is queued */
};

/* one run of side: 0 done or queued, -1 error */
static int one(struct loop *l, enum decide_side side)
{
	int r;

	if (l->ops->progress)
		l->ops->progress(l->ops->data, side, l->t, l->b->max_runs);
	r = l->ops->run(l->ops->data, side, l->err);
	if (r < 0)
		return -1;
	if (r > 0)
		l->pending = true;
	l->t->runs[side]++;
	l->t->made[side]++;
	return 0;
}

/* base, then head: the pair that shares whatever the machine was doing */
static int pair(struct loop *l)
{
	if (one(l, DECIDE_BASE) || one(l, DECIDE_HEAD))
		return -1;
	l->t->pairs++;
	return 0;
}

static bool room(const struct loop *l, enum decide_side s)
{
	return l->t->runs[s] < l->b->max_runs;
}

/*
 * The side that alone gets the next run (judge's want), or -1 for a
 * pair: a lone run only while that side has room and stays within twice
 * the other side's runs.
 */
static int lone_side(const struct loop *l)
{
	enum decide_side s, o;

	if (l->t->want == DECIDE_WANT_BOTH)
		return -1;
	s = l->t->want == DECIDE_WANT_BASE ? DECIDE_BASE : DECIDE_HEAD;
	o = s == DECIDE_BASE ? DECIDE_HEAD : DECIDE_BASE;
	if (!room(l, s) || l->t->runs[s] + 1 > 2 * l->t->runs[o])
		return -1;
	return (int)s;
}

static enum decide_verdict verdict_of(const struct decide_tally *t)
{
	if (t->changed)
		return DECIDE_CHANGED; /* each KPI on its own */
	return t->undecided ? DECIDE_UNDECIDED : DECIDE_SAME;
}

int decide_until(const struct decide_ops *ops, const struct decide_budget *b,
		 struct decide_tally *out, struct strbuf *err)
{
	struct loop l = { ops, b, out, err, false };
	int s;

	memset(out, 0, sizeof(*out));
	out->runs[DECIDE_BASE] = b->start[DECIDE_BASE];
	out->runs[DECIDE_HEAD] = b->start[DECIDE_HEAD];
	out->verdict = DECIDE_UNDECIDED;
	while (out->pairs < b->min_runs && room(&l, DECIDE_BASE) &&
	       room(&l, DECIDE_HEAD) && !l.pending)
		if (pair(&l))
			return -1;
	for (;;) {
		if (l.pending) {
			out->stop = DECIDE_STOP_PENDING;
			return 0;
		}
		out->changed = out->same = out->undecided = 0;
		out->want = DECIDE_WANT_BOTH;
		if (ops->judge(ops->data, out, err))
			return -1;
		out->judged++;
		out->verdict = verdict_of(out);
		if (!out->undecided || (b->first_change && out->changed)) {
			out->stop = DECIDE_STOP_DECIDED;
			return 0;
		}
		s = lone_side(&l);
		if (s >= 0) {
			if (one(&l, (enum decide_side)s))
				return -1;
			continue;
		}
		if (!room(&l, DECIDE_BASE) || !room(&l, DECIDE_HEAD)) {
			out->stop = DECIDE_STOP_BUDGET;
			return 0;
		}
		if (pair(&l))
			return -1;
	}
}

const char *decide_verdict_name(enum decide_verdict v)
{
	switch (v) {
	case DECIDE_CHANGED:
		return "changed";
	case DECIDE_SAME:
		return "same";
	default:
		return "undecided";
	}
}
