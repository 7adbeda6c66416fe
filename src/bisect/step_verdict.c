/*
 * step_verdict.c: bisect's three-way verdicts (bisect.h, "until decided"): a
 * commit's samples against the good and the bad reference, and the
 * culprit's against its parent in the confirmation, each judged by
 * compare_groups() with the bisected stat as a declared KPI -- the very
 * verdict (changed / same / undecided, stats_kpi_verdict) that `perfsift
 * run --until-decided` stops on and `perfsift compare --kpi` prints.  No
 * statistics of bisect's own: only the combination is bisect's (the side
 * of the midpoint, in logs of the ratio wherever they apply: see
 * midpoint_side), and the margin of compare's "same", half the good-bad
 * step, where they do not -- so that "the same as good" and "the same as
 * bad" can never both hold and "same" means "on this side of the
 * midpoint, beyond doubt".
 */
#include "util/compat.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bisect/bisect.h"
#include "compare/compare.h"
#include "result/matrix.h"
#include "result/stats.h"
#include "select/select.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* a result group over runs r, borrowed (unborrow() gives it back) */
static void borrow(struct result_group *g, const struct bisect_runs *r,
		   const char *testcase, const char *label, const char *kpi)
{
	result_group_init(g);
	g->matrix = *r->m;
	/* compare pairs head and base runs by these (never freed here) */
	g->run_start = (double *)r->start;
	if (testcase)
		result_group_set_axis(g, "testcase", testcase);
	result_group_set_axis(g, "commit", label);
	g->label = xstrdup(label);
	g->kpi = xstrdup(kpi);
}

static void unborrow(struct result_group *g)
{
	matrix_init(&g->matrix); /* the caller's: not freed here */
	g->run_start = NULL;
	result_group_release(g);
}

/* s with the characters special to an ERE (prefix '\\') or a glob escaped */
static void escape(struct strbuf *out, const char *s, const char *special)
{
	for (; *s; s++) {
		if (strchr(special, *s))
			strbuf_addch(out, '\\');
		strbuf_addch(out, *s);
	}
}

/*
 * The centre of a KPI interval [lo, hi] in %: the t interval is
 * symmetric in the logs of the ratio when both ends allow them (then the
 * centre is the ratio of geometric means, or the paired ratio), else in
 * the difference itself.
 */
static double centre_of(double lo, double hi)
{
	if (!isfinite(lo) || !isfinite(hi))
		return NAN;
	if (lo > -100 && hi > -100)
		return 100 * (sqrt((1 + lo / 100) * (1 + hi / 100)) - 1);
	return (lo + hi) / 2;
}

int bisect_stat_verdict(const struct bisect_runs *base,
			const struct bisect_runs *head, const char *stat,
			const char *testcase, double margin_pct,
			struct bisect_stat_verdict *out, struct strbuf *err)
{
	struct result_group g[2];
	const struct result_group *gp[2] = { &g[0], &g[1] };
	struct strbuf kpi = STRBUF_INIT, re = STRBUF_INIT;
	struct compare_options o;
	struct compare_result res;
	size_t i;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	out->verdict = VERDICT_UNKNOWN;
	out->change = out->lo = out->hi = out->centre = NAN;
	/*
	 * The stat declared a KPI without a direction or threshold (so the
	 * margin below is what "same" means), its glob characters escaped:
	 * a perf-profile symbol may hold a '['.
	 */
	escape(&kpi, stat, "*?[\\");
	strbuf_addstr(&kpi, ": none");
	strbuf_addch(&re, '^');
	escape(&re, stat, ".[]()*+?{}|^$\\");
	strbuf_addch(&re, '$');
	borrow(&g[0], base, testcase, "base", kpi.buf);
	borrow(&g[1], head, testcase, "head", kpi.buf);
	compare_options_init(&o);
	o.kpi = true;           /* the KPI a row whatever its verdict */
	o.no_statistics = true; /* the KPI's own are computed anyway */
	o.stat_regex = re.buf;  /* that row only: the q-values see every stat */
	o.margin = margin_pct;
	o.force = true;         /* no floors: good and bad already differ */
	/*
	 * A 99% interval, not compare's 99.9%: a bisect step needs both of
	 * its verdicts to agree before it moves (above), and the culprit is
	 * confirmed ABAB at the end; docs/detection.md measures the flow.
	 */
	o.kpi_level = 0.01;
	if (compare_groups(gp, 2, &o, &res, err))
		goto out;
	for (i = 0; i < res.nrows; i++) {
		const struct compare_cell *c = &res.rows[i].cells[1];

		if (strcmp(res.rows[i].name, stat) || !c->kpi_judged)
			continue;
		out->judged = true;
		out->verdict = c->kpi_verdict;
		out->more_runs = c->kpi_more_runs;
		out->base_limited = c->kpi_base_limited;
		out->change = c->change;
		out->lo = c->kpi_lo;
		out->hi = c->kpi_hi;
		out->centre = centre_of(c->kpi_lo, c->kpi_hi);
		out->pairs = c->kpi_pairs;
	}
	compare_result_release(&res);
	ret = 0;
out:
	unborrow(&g[0]);
	unborrow(&g[1]);
	strbuf_release(&kpi);
	strbuf_release(&re);
	return ret;
}

/* the mean of stat's real values in m (NAN when m lacks it) */
static double stat_mean(const struct matrix *m, const char *stat)
{
	ssize_t s = matrix_find(m, stat);
	double *v, mean;
	size_t n;

	if (s < 0)
		return NAN;
	v = matrix_real_dup(m, (size_t)s, &n);
	mean = n ? stats_mean(v, n) : NAN;
	free(v);
	return mean;
}

double bisect_half_step(const struct matrix *good, const struct matrix *bad,
			const char *stat, bool of_bad)
{
	double mg = stat_mean(good, stat), mb = stat_mean(bad, stat);
	double ref = of_bad ? mb : mg;

	if (!isfinite(mg) || !isfinite(mb) || ref == 0)
		return NAN;
	return 50 * fabs(mb - mg) / fabs(ref);
}

/*
 * May v be read in logs of the ratio?  A judged interval, both ends
 * above -100% (a ratio above 0): compare's interval for positive data.
 */
static bool in_logs(const struct bisect_stat_verdict *v)
{
	return v->judged && isfinite(v->lo) && isfinite(v->hi) &&
	       v->lo > -100 && v->hi > -100;
}

/*
 * Where an end of a change (in %) of the commit over a side puts it on
 * the good (0) -> bad (1) axis, s = log(bad / good) of the references'
 * means: from side 0 (good) or 1 (bad), c lies at side + log(c/side)/s.
 */
static double log_position(double pct, double s, int side)
{
	return side + log1p(pct / 100) / s;
}

/*
 * Does the commit lie on one side of the midpoint beyond doubt, in logs?
 * The good side when even the far end of the interval vs good lies below
 * 0.5, the bad side when the near end of the interval vs bad lies above
 * it (each side judged by its own comparison: the commit's runs paired
 * with that side's).  This is "the same as good" (or bad) with a margin
 * symmetric in logs -- half the step in log(ratio) -- and one-sided: a
 * commit beyond good (faster than good, when bad is slower) is on good's
 * side too, as "changed from both" always put it.  Why logs: a
 * benchmark's noise is multiplicative (a run 2x faster is as likely as
 * one 2x slower; TCG's runs spread 0.5-2.6 M ops), so its interval is
 * symmetric in log(ratio), and a linear margin of half the step, +-48.7%
 * for a -97.5% step, rejects an interval like [-20.9%, +53.8%] that
 * lies at -0.06..+0.12 of the way to bad (t6200's good commit stayed
 * undecided for 20 runs so).  A commit at the midpoint -- a figure
 * alternating between good's and bad's -- is never called by which side
 * of 0.5 its noise fell (it would be named the culprit by a coin): its
 * intervals straddle 0.5 however many runs it has.
 * 0 good, 1 bad, -1 neither (yet): also when both claim their side (two
 * comparisons on different runs that disagree: more runs), so "the same
 * as good" and "the same as bad" stay exclusive.
 */
static int midpoint_side(const struct bisect_stat_verdict *g,
			 const struct bisect_stat_verdict *b, double s)
{
	bool good = in_logs(g) && fmax(log_position(g->lo, s, 0),
				       log_position(g->hi, s, 0)) < 0.5;
	bool bad = in_logs(b) && fmin(log_position(b->lo, s, 1),
				      log_position(b->hi, s, 1)) > 0.5;

	if (good == bad)
		return -1;
	return bad;
}

int bisect_decide_sides(const struct bisect_stat_verdict *vs_good,
			const struct bisect_stat_verdict *vs_bad, double rg,
			double rb)
{
	int side;

	/*
	 * In logs wherever they apply: both references' means positive and
	 * apart, every judged interval a ratio's (a comparison that
	 * decides nothing, on too few pairs, claims nothing either way).
	 * Then the side of the midpoint in logs, beyond doubt, is the whole
	 * rule (midpoint_side).  It holds every "changed from both" the
	 * linear rule decided, and every linear "same as" the side of the
	 * larger mean; the linear margin of the other side reaches past
	 * the midpoint in logs (the arithmetic midpoint lies beyond the
	 * geometric one), so there the log rule asks more.
	 */
	if (rg > 0 && rb > 0 && rg != rb && isfinite(rg) && isfinite(rb) &&
	    (!vs_good->judged || in_logs(vs_good)) &&
	    (!vs_bad->judged || in_logs(vs_bad))) {
		side = midpoint_side(vs_good, vs_bad, log(rb / rg));
		return side < 0 ? BISECT_UNCLEAR : side ? BISECT_BAD : BISECT_GOOD;
	}
	/*
	 * Else (a mean or an end at or below 0: the values are no ratios)
	 * linear: within half the step of one side, beyond doubt, and not
	 * shown the same as the other.  Anything else -- changed from one
	 * side and not yet shown the same as the other -- is undecided: one
	 * more run.  (Deciding on "changed from the other side" alone calls
	 * a noisy commit wrong 8.5% of the time where this rule does 1%:
	 * docs/kernel-bisect.md.)
	 */
	if (vs_good->verdict == VERDICT_SAME && vs_bad->verdict != VERDICT_SAME)
		return BISECT_GOOD;
	if (vs_bad->verdict == VERDICT_SAME && vs_good->verdict != VERDICT_SAME)
		return BISECT_BAD;
	return BISECT_UNCLEAR;
}

/* a comparison on fewer than min_pairs pairs decides nothing */
static void need_pairs(struct bisect_stat_verdict *v, size_t min_pairs)
{
	if (min_pairs && v->pairs < min_pairs) {
		v->verdict = VERDICT_UNKNOWN;
		v->judged = false; /* nor its interval (midpoint_side) */
	}
}

int bisect_decide(const struct matrix *ref_good, const struct matrix *ref_bad,
		  const struct bisect_runs *good, const struct bisect_runs *bad,
		  const struct bisect_runs *c, const char *stat,
		  const char *testcase, size_t min_pairs,
		  struct bisect_decision *d, struct strbuf *err)
{
	double mg = stat_mean(good->m, stat), mb = stat_mean(bad->m, stat);
	double mc = stat_mean(c->m, stat);
	double hg = bisect_half_step(ref_good, ref_bad, stat, false);
	double hb = bisect_half_step(ref_good, ref_bad, stat, true);
	double rg = stat_mean(ref_good, stat), rb = stat_mean(ref_bad, stat);
	double lg, lb;

	memset(d, 0, sizeof(*d));
	d->position = mb != mg ? (mc - mg) / (mb - mg) : NAN;
	d->vs_good.verdict = d->vs_bad.verdict = VERDICT_UNKNOWN;
	if (!isfinite(hg) || !isfinite(hb) || !isfinite(mc))
		return BISECT_UNCLEAR; /* no step to measure against */
	if (bisect_stat_verdict(good, c, stat, testcase, hg, &d->vs_good, err) ||
	    bisect_stat_verdict(bad, c, stat, testcase, hb, &d->vs_bad, err))
		return -1;
	need_pairs(&d->vs_good, min_pairs);
	need_pairs(&d->vs_bad, min_pairs);
	d->more_runs = d->vs_good.more_runs > d->vs_bad.more_runs ?
			       d->vs_good.more_runs : d->vs_bad.more_runs;
	/*
	 * Paired, the position comes from the pairs' own changes (c over
	 * good, c over bad, each made beside each other), not from means
	 * over runs of other times: c/g = 1 + cg, c/b = 1 + cb, so c lies
	 * at log(c/g) / log(b/g) of the way.
	 */
	if (d->vs_good.pairs && d->vs_bad.pairs &&
	    d->vs_good.centre > -100 && d->vs_bad.centre > -100) {
		lg = log1p(d->vs_good.centre / 100);
		lb = log1p(d->vs_bad.centre / 100);
		if (lg != lb)
			d->position = lg / (lg - lb);
	}
	return bisect_decide_sides(&d->vs_good, &d->vs_bad, rg, rb);
}

void bisect_decision_text(const struct bisect_decision *d, struct strbuf *out)
{
	strbuf_addf(out, "vs good %s, vs bad %s",
		    d->vs_good.verdict == VERDICT_UNKNOWN ?
			    "undecided" : stats_verdict_name(d->vs_good.verdict),
		    d->vs_bad.verdict == VERDICT_UNKNOWN ?
			    "undecided" : stats_verdict_name(d->vs_bad.verdict));
}

int bisect_step_next(const size_t made[3])
{
	static const int order[2][3] = {
		{ BISECT_PARTY_GOOD, BISECT_PARTY_COMMIT, BISECT_PARTY_BAD },
		{ BISECT_PARTY_BAD, BISECT_PARTY_COMMIT, BISECT_PARTY_GOOD },
	};
	size_t j = made[0], k;

	/* the triplet under way: the fewest runs any party has made */
	for (k = 1; k < 3; k++)
		if (made[k] < j)
			j = made[k];
	for (k = 0; k < 3; k++)
		if (made[order[j % 2][k]] == j)
			return order[j % 2][k];
	return BISECT_PARTY_COMMIT; /* not reached: one party has made j */
}
