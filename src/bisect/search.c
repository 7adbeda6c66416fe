/*
 * search.c: the pure halves of bisect (bisect.h) that need no world:
 * the good/bad classifier over LKP's change test in distance mode, the
 * search over the first-parent path with its skips, and the state the
 * driver fills.  Apart from the driver (driver.c) because these are what
 * the unit tests pin down number by number, and what a resumed bisect
 * must decide exactly as the interrupted one did.
 */
#include "util/compat.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bisect/bisect.h"
#include "util/usage.h"
#include "util/xalloc.h"

void bisect_summarize(const double *v, size_t n, struct lkp_summary *out)
{
	lkp_summarize(v, n, BISECT_MIN_MARGIN, out);
}

bool bisect_lkp_changed(const struct stat_rules *r, const char *stat,
			const double *a, size_t na, const double *b, size_t nb,
			double distance)
{
	struct lkp_options o;

	if (!na || !nb)
		return false;
	/*
	 * Forced: no floors and no run minimum -- good and bad already
	 * differ, and a bisect of a 100 ms program must work as well as one
	 * of a 300 s benchmark (docs/lkp-compat.md).
	 */
	lkp_options_init(&o);
	o.force = true;
	o.distance = distance;
	o.min_margin = BISECT_MIN_MARGIN;
	return lkp_changed(r, stat, a, na, b, nb, true, &o, NULL) ==
	       LKP_CHANGED;
}

const char *bisect_verdict_name(enum bisect_verdict v)
{
	switch (v) {
	case BISECT_UNTESTED:
		return "untested";
	case BISECT_GOOD:
		return "good";
	case BISECT_BAD:
		return "bad";
	case BISECT_SKIP:
		return "skip";
	case BISECT_UNCLEAR:
		return "unclear";
	case BISECT_UNDECIDED:
		return "undecided";
	}
	return "?";
}

enum bisect_verdict bisect_classify(const struct stat_rules *r,
				    const char *stat, const double *g,
				    size_t ng, const double *b, size_t nb,
				    const double *c, size_t nc,
				    double *position)
{
	struct lkp_summary sg, sb, sc;
	double p;

	if (position)
		*position = NAN;
	if (!ng || !nb || !nc)
		return BISECT_UNCLEAR;
	bisect_summarize(g, ng, &sg);
	bisect_summarize(b, nb, &sb);
	bisect_summarize(c, nc, &sc);
	if (sb.median == sg.median)
		return BISECT_UNCLEAR;
	/*
	 * Where the commit's median lies between good (0) and bad (1): the
	 * side it is nearer is the one it must be shown to differ from the
	 * other of -- a commit is bad when it is changed from good, not
	 * merely when it is not proven equal to bad.
	 */
	p = (sc.median - sg.median) / (sb.median - sg.median);
	if (position)
		*position = p;
	if (p >= 0.5)
		return bisect_lkp_changed(r, stat, c, nc, g, ng, 0) ?
			       BISECT_BAD :
			       BISECT_UNCLEAR;
	return bisect_lkp_changed(r, stat, c, nc, b, nb, 0) ? BISECT_GOOD :
							       BISECT_UNCLEAR;
}

/*
 * The order in which bisect prefers a stat to follow: a KPI with a
 * direction first (its regression is what the user asked about), then a
 * KPI, then any stat with a direction; never a failure stat nor one
 * LKP's deny-list calls not bisectable (-1).
 */
int bisect_kpi_priority(const struct stat_rules *r, const char *stat)
{
	if (stat_is_function(r, stat) || !stat_is_bisectable(r, stat))
		return -1;
	return (stat_is_kpi(r, stat) ? 2 : 0) +
	       (stat_direction(r, stat) ? 1 : 0);
}

/* ---- search ---- */

void bisect_search_init(struct bisect_search *s, size_t n)
{
	s->n = n;
	s->state = xcalloc(n ? n : 1, sizeof(*s->state));
}

void bisect_search_release(struct bisect_search *s)
{
	FREE_AND_NULL(s->state);
	s->n = 0;
}

void bisect_search_mark(struct bisect_search *s, size_t i,
			enum bisect_verdict v)
{
	if (i >= s->n)
		BUG("bisect index %zu out of %zu", i, s->n);
	s->state[i] = v;
}

/*
 * The range still open: from the last good commit below the first bad
 * one.  Bounds are recomputed from the marks, never kept, so that a
 * resumed bisect (marks read back from the index) is in the same place.
 */
static void search_bounds(const struct bisect_search *s, size_t *lo,
			  size_t *hi)
{
	size_t i;

	/* the lowest bad commit; the endpoint n-1 is bad by definition */
	*hi = s->n - 1;
	for (i = 0; i < s->n; i++)
		if (s->state[i] == BISECT_BAD) {
			*hi = i;
			break;
		}
	*lo = 0;
	for (i = 0; i < *hi; i++)
		if (s->state[i] == BISECT_GOOD)
			*lo = i;
}

ssize_t bisect_search_next(const struct bisect_search *s)
{
	size_t lo, hi, mid, d;

	if (s->n < 3)
		return -1;
	search_bounds(s, &lo, &hi);
	if (hi <= lo + 1)
		return -1;
	mid = lo + (hi - lo) / 2;
	/* the middle, else its nearest testable neighbour, later side first */
	for (d = 0; d < hi - lo; d++) {
		if (mid + d < hi && s->state[mid + d] == BISECT_UNTESTED)
			return (ssize_t)(mid + d);
		if (d && mid > lo + d && s->state[mid - d] == BISECT_UNTESTED)
			return (ssize_t)(mid - d);
	}
	return -1;
}

/* the skipped commits inside the final range make it a range, not a
 * single culprit: the caller reports them */
void bisect_search_result(const struct bisect_search *s, size_t *lo,
			  size_t *first_bad, size_t *nskipped)
{
	size_t i, l, h, k = 0;

	search_bounds(s, &l, &h);
	for (i = l + 1; i < h; i++)
		if (bisect_verdict_skips(s->state[i]))
			k++;
	*lo = l;
	*first_bad = h;
	*nskipped = k;
}

/* ---- state ---- */

void bisect_state_init(struct bisect_state *st)
{
	memset(st, 0, sizeof(*st));
}

void bisect_state_release(struct bisect_state *st)
{
	size_t i;

	for (i = 0; i < st->ncommits; i++) {
		free(st->commits[i].sha);
		free(st->commits[i].subject);
		free(st->commits[i].kpi);
		free(st->commits[i].why);
	}
	free(st->commits);
	free(st->stat);
	free(st->confirm_a);
	free(st->confirm_b);
	bisect_state_init(st);
}

void bisect_state_add_commit(struct bisect_state *st, const char *sha,
			     const char *subject)
{
	struct bisect_commit *c;

	ALLOC_GROW(st->commits, st->ncommits + 1, st->alloc);
	c = &st->commits[st->ncommits++];
	memset(c, 0, sizeof(*c));
	c->sha = xstrdup(sha);
	c->subject = xstrdup(subject ? subject : "");
}
