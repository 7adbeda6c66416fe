/*
 * driver.c: the bisect driver (see bisect.h): the endpoints and the
 * choice of the KPI, testing each commit the search asks for, the ABAB
 * confirmation and the summary; the classifier and the search it drives
 * are search.c.  The world (git, builds, runs, the index) is reached only through
 * struct bisect_ops, which is how resume works: a commit whose samples the
 * index already holds is classified from them and never run again.
 */
#include "util/compat.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "bisect/bisect.h"
#include "job/kpi.h"
#include "result/matrix.h"
#include "result/stats.h"
#include "util/short_sha.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/xalloc.h"

/* ---- the driver ---- */

struct driver {
	struct bisect_state *st;
	const struct bisect_options *opt;
	const struct bisect_ops *ops;
	struct strbuf *err;
	double *good, *bad; /* the references: the endpoints' KPI samples */
	size_t ngood, nbad;
	/* the endpoints' every stat, for compare's three-way verdict */
	struct matrix mgood, mbad;
	bool until_decided; /* !opt->no_until_decided */
	const char *slot_sha[BISECT_SLOTS]; /* what each slot holds, built */
	struct stat_rules rules; /* rules.h's classes of stats */
};

static void progress(struct driver *d, const char *fmt, ...)
	PRINTF_LIKE(2, 3);
static void progress(struct driver *d, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!d->ops->progress)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	d->ops->progress(d->ops->data, sb.buf);
	strbuf_release(&sb);
}

static bool interrupted(struct driver *d)
{
	return d->ops->interrupted && d->ops->interrupted(d->ops->data);
}

static void short_sha(const char *sha, char out[SHORT_SHA_LEN + 1])
{
	snprintf(out, SHORT_SHA_LEN + 1, "%.*s", SHORT_SHA_LEN, sha);
}

/* the KPI's samples of m into a new array; false when m lacks the stat */
static bool kpi_values(const struct matrix *m, const char *stat,
		       double **out, size_t *n)
{
	ssize_t s = stat ? matrix_find(m, stat) : -1;

	free(*out);
	*out = NULL;
	*n = 0;
	if (s < 0)
		return false;
	/* the runs that have it: a run without the KPI is no sample of 0 */
	*out = matrix_real_dup(m, (size_t)s, n);
	return *n > 0;
}

static int load(struct driver *d, const char *sha, struct matrix *m)
{
	matrix_release(m);
	return d->ops->samples(d->ops->data, sha, m, d->err);
}

/*
 * When each run of m (sha's samples) began, into *t (freed and
 * replaced): NULL when the ops cannot say or no run's time is known
 * (the runs are then judged unpaired).  0, or -1 with err.
 */
static int starts_of(struct driver *d, const char *sha, const struct matrix *m,
		     double **t)
{
	size_t r;

	FREE_AND_NULL(*t);
	if (!d->ops->starts || !m->nruns)
		return 0;
	*t = xcalloc(m->nruns, sizeof(double));
	if (d->ops->starts(d->ops->data, sha, m, *t, d->err) < 0) {
		FREE_AND_NULL(*t);
		return -1;
	}
	for (r = 0; r < m->nruns; r++)
		if (isfinite((*t)[r]))
			return 0;
	FREE_AND_NULL(*t);
	return 0;
}

/* samples and start times of sha, both reloaded */
static int load_timed(struct driver *d, const char *sha, struct matrix *m,
		      double **t)
{
	if (load(d, sha, m) < 0)
		return -1;
	return starts_of(d, sha, m, t);
}

/*
 * Make sure slot holds commit c, built and installed: 0, 1 when it cannot
 * be used (why filled), -1 on error (why filled).
 */
static int ensure_slot(struct driver *d, int slot, struct bisect_commit *c,
		       struct strbuf *why)
{
	int r;

	if (d->slot_sha[slot] && !strcmp(d->slot_sha[slot], c->sha))
		return 0;
	d->slot_sha[slot] = NULL;
	r = d->ops->prepare(d->ops->data, slot, c->sha, why);
	if (!r)
		d->slot_sha[slot] = c->sha;
	return r;
}

static int measure_once(struct driver *d, int slot, struct bisect_commit *c)
{
	if (interrupted(d))
		return -1;
	if (d->ops->measure(d->ops->data, slot, c->sha, d->err) < 0)
		return -1;
	c->runs++;
	d->st->runs++;
	return interrupted(d) ? -1 : 0;
}

/*
 * Run party c (role: "good", "commit", ...) once more in slot, which
 * holds it, and reload its samples into m (its start times into *t
 * too, when t is not NULL).  A run that gave no complete run is retried
 * by BISECT_RUN_RETRIES' rule (bisect.h): up to that many times in a row
 * when m held complete runs before, never when it held none.  0 with a
 * complete run added; 1 when none came (why: the failure, its reason and
 * how often); -1 on error or interruption (d->err).
 */
static int run_party(struct driver *d, int slot, struct bisect_commit *c,
		     const char *role, struct matrix *m, double **t,
		     struct strbuf *why)
{
	size_t had = m->nruns;
	unsigned failed = 0;

	for (;;) {
		struct strbuf reason = STRBUF_INIT;

		if (measure_once(d, slot, c) < 0 ||
		    (t ? load_timed(d, c->sha, m, t) : load(d, c->sha, m)) < 0)
			return -1;
		if (m->nruns > had)
			return 0;
		failed++;
		if (d->ops->failure)
			d->ops->failure(d->ops->data, c->sha, &reason);
		if (!had || failed > BISECT_RUN_RETRIES) {
			strbuf_addstr(why, "the job gave no complete run");
			if (had)
				strbuf_addf(why, " in %u runs in a row (after %zu "
					    "complete ones)", failed, had);
			if (reason.len)
				strbuf_addf(why, ": %s", reason.buf);
			strbuf_release(&reason);
			return 1;
		}
		progress(d,
			 "%s %.*s: the run failed%s%s; it gave %zu complete "
			 "runs before: retry %u of %d",
			 role, SHORT_SHA_LEN, c->sha, reason.len ? ": " : "",
			 reason.buf, had, failed, BISECT_RUN_RETRIES);
		strbuf_release(&reason);
	}
}

/*
 * Bring two commits to `want` samples each, measuring interleaved: A B A
 * B.  Samples count from base_a / base_b (the confirmation counts only its
 * own runs; the endpoints count from 0).  Each round begins with the side
 * that has fewer: the same A B A B here, and in a lab, where every
 * measure is one queued task and the pass stops there (robot/via_lab.c),
 * the next pass measures the other side, not A again until A has `want`.
 * Prepares a slot only when it must run.  0 ok, 1 one side could not be
 * prepared or gave no samples (err says), -1 error / interrupted.
 */
static int measure_pair(struct driver *d, struct bisect_commit *a, int slot_a,
			struct matrix *ma, struct bisect_commit *b, int slot_b,
			struct matrix *mb, size_t want, size_t base_a,
			size_t base_b)
{
	struct bisect_commit *side[2] = {a, b};
	struct matrix *mat[2] = {ma, mb};
	int slot[2] = {slot_a, slot_b};
	size_t base[2];
	int i, k, r;

	/* the endpoints' runs (setup_endpoints), else the confirmation's */
	const char *role[2] = { "parent", "culprit" };

	if (a == &d->st->commits[0] &&
	    b == &d->st->commits[d->st->ncommits - 1]) {
		role[0] = "good";
		role[1] = "bad";
	}
	base[0] = base_a;
	base[1] = base_b;
	for (;;) {
		bool any = false;
		int first = mat[1]->nruns - base[1] < mat[0]->nruns - base[0];

		for (i = 0; i < 2; i++) {
			size_t have;
			struct strbuf why = STRBUF_INIT;

			k = (first + i) % 2;
			have = mat[k]->nruns - base[k];

			if (have >= want)
				continue;
			any = true;
			r = ensure_slot(d, slot[k], side[k], &why);
			if (r) {
				if (r > 0)
					strbuf_addf(d->err,
						    "cannot use %.*s: %s",
						    SHORT_SHA_LEN, side[k]->sha,
						    why.buf);
				else
					strbuf_addbuf(d->err, &why);
				strbuf_release(&why);
				return r > 0 ? 1 : -1;
			}
			r = run_party(d, slot[k], side[k], role[k], mat[k], NULL,
				      &why);
			if (r > 0)
				strbuf_addf(d->err, "%s %.*s: %s", role[k],
					    SHORT_SHA_LEN, side[k]->sha,
					    why.buf);
			strbuf_release(&why);
			if (r)
				return r;
		}
		if (!any)
			return 0;
	}
}

/* relative change of the medians, bounded: |b - a| / max(|a|, |b|) */
static double rel_change(double ma, double mb)
{
	double den = fmax(fabs(ma), fabs(mb));

	return den > 0 ? fabs(mb - ma) / den : 0;
}

/* stat s's samples in m: one row of the stat-major matrix */
static const double *row_of(const struct matrix *m, size_t s)
{
	return m->values + s * m->nruns;
}

/*
 * Do good and bad differ in stat?  LKP's distance mode (the test that
 * starts LKP's bisects) or, once both endpoints have had every run they
 * may get (last), LKP's default test; and in both cases the compare
 * module's significance: Welch's test, q <= BISECT_ALPHA once the
 * Benjamini-Hochberg correction over every candidate stat is applied
 * (with dozens of stats, the range tests alone find a "change" in one of
 * them by chance more often than not).
 */
static bool endpoints_differ(struct driver *d, const char *stat,
			     const double *g, size_t ng, const double *b,
			     size_t nb, bool last, double q)
{
	if (!bisect_lkp_changed(&d->rules, stat, b, nb, g, ng,
				BISECT_DISTANCE) &&
	    !(last && bisect_lkp_changed(&d->rules, stat, b, nb, g, ng, 0)))
		return false;
	return q <= BISECT_ALPHA;
}

/*
 * Until decided: good and bad differ when the KPI rule calls the bad
 * endpoint changed from the good one (bisect_stat_verdict(), its minimum
 * effect compare's default margin, 2%) -- the rule the robot's head test
 * used, so that LKP's min/max range, which two noisy groups of 20 runs
 * never clear, does not refuse a change the head test found.  1 differ,
 * 0 not (yet), -1 with d->err.
 */
#define ENDPOINT_MIN_EFFECT 2.0

static int endpoints_decided(struct driver *d, const struct matrix *mg,
			     const struct matrix *mb)
{
	struct bisect_stat_verdict v;
	struct bisect_runs g = { mg, NULL }, b = { mb, NULL };
	double *tg = NULL, *tb = NULL;
	int ret = -1;

	/* measured interleaved (measure_pair): paired by their start times */
	if (starts_of(d, d->st->commits[0].sha, mg, &tg) < 0 ||
	    starts_of(d, d->st->commits[d->st->ncommits - 1].sha, mb, &tb) < 0)
		goto out;
	g.start = tg;
	b.start = tb;
	if (bisect_stat_verdict(&g, &b, d->st->stat, d->opt->testcase,
				ENDPOINT_MIN_EFFECT, &v, d->err))
		goto out;
	ret = v.verdict == VERDICT_CHANGED;
out:
	free(tg);
	free(tb);
	return ret;
}

/* a stat both endpoints have, with its priority and change */
struct candidate {
	size_t ig, ib;   /* its rows in the good and the bad matrix */
	int priority;    /* bisect_kpi_priority() */
	double change;   /* relative change of the medians */
	double p, q;
};

/*
 * The stats that may be the KPI: in both matrices and of priority >= 0,
 * with Welch's p and the q-values over all of them.  Caller frees.
 */
static struct candidate *candidates(struct driver *d, const struct matrix *g,
				    const struct matrix *b, size_t *n)
{
	struct candidate *c = xcalloc(g->nstats ? g->nstats : 1, sizeof(*c));
	double *p, *q;
	size_t i, k = 0;

	for (i = 0; i < g->nstats; i++) {
		ssize_t j = matrix_find(b, g->names[i]);
		int prio = bisect_kpi_priority(&d->rules, g->names[i]);
		struct lkp_summary sg, sb;

		/* the KPI is one every run of both endpoints has: a stat some
		 * runs lack is not compared over padding zeros */
		if (j < 0 || prio < 0 || matrix_nreal(g, i) != g->nruns ||
		    matrix_nreal(b, (size_t)j) != b->nruns)
			continue;
		c[k].ig = i;
		c[k].ib = (size_t)j;
		c[k].priority = prio;
		bisect_summarize(row_of(g, i), g->nruns, &sg);
		bisect_summarize(row_of(b, (size_t)j), b->nruns, &sb);
		c[k].change = rel_change(sg.median, sb.median);
		c[k].p = stats_welch_p(row_of(b, (size_t)j), b->nruns,
				       row_of(g, i), g->nruns);
		k++;
	}
	p = xcalloc(k ? k : 1, sizeof(*p));
	q = xcalloc(k ? k : 1, sizeof(*q));
	for (i = 0; i < k; i++)
		p[i] = c[i].p;
	stats_bh_qvalues(p, k, q);
	for (i = 0; i < k; i++)
		c[i].q = q[i];
	free(p);
	free(q);
	*n = k;
	return c;
}

/*
 * Choose the KPI: of the stats whose change between good and bad is
 * significant (endpoints_differ()), the one of the highest priority
 * (bisect_kpi_priority()), then of the largest change.
 */
static char *choose_stat(struct driver *d, const struct matrix *g,
			 const struct matrix *b, bool last)
{
	size_t i, n;
	struct candidate *c = candidates(d, g, b, &n), *best = NULL;
	char *ret;

	for (i = 0; i < n; i++) {
		const char *name = g->names[c[i].ig];

		if (best && (c[i].priority < best->priority ||
			     (c[i].priority == best->priority &&
			      c[i].change <= best->change)))
			continue;
		if (endpoints_differ(d, name, row_of(g, c[i].ig), g->nruns,
				     row_of(b, c[i].ib), b->nruns, last,
				     c[i].q))
			best = &c[i];
	}
	ret = best ? xstrdup(g->names[best->ig]) : NULL;
	free(c);
	return ret;
}

static int cmp_change(const void *x, const void *y)
{
	const struct candidate *a = x, *b = y;

	return (a->change < b->change) - (a->change > b->change);
}

/* the numbers of a refusal: the largest changes that did not pass */
static void explain_no_change(struct driver *d, const struct matrix *g,
			      const struct matrix *b)
{
	struct bisect_commit *cg = &d->st->commits[0];
	struct bisect_commit *cb = &d->st->commits[d->st->ncommits - 1];
	struct candidate *c;
	size_t i, n;

	if (d->opt->stat) {
		strbuf_addf(d->err,
			    "good and bad do not differ significantly in '%s':\n",
			    d->opt->stat);
		bisect_describe(d->err, "good", cg, d->good, d->ngood);
		strbuf_addch(d->err, '\n');
		bisect_describe(d->err, "bad", cb, d->bad, d->nbad);
		return;
	}
	c = candidates(d, g, b, &n);
	strbuf_addf(
		d->err,
		"good %.*s (%zu runs) and bad %.*s (%zu runs) do not differ "
		"significantly in any of %zu bisectable stats",
		SHORT_SHA_LEN, cg->sha, g->nruns, SHORT_SHA_LEN, cb->sha,
		b->nruns, n);
	/* the three largest relative changes, for the user to judge */
	qsort(c, n, sizeof(*c), cmp_change);
	for (i = 0; i < n && i < 3; i++) {
		struct lkp_summary sg, sb;

		bisect_summarize(row_of(g, c[i].ig), g->nruns, &sg);
		bisect_summarize(row_of(b, c[i].ib), b->nruns, &sb);
		strbuf_addf(d->err,
			    "\n  %s: good median %.6g [%.6g - %.6g], "
			    "bad median %.6g [%.6g - %.6g], q %.2g",
			    g->names[c[i].ig], sg.median, sg.min, sg.max,
			    sb.median, sb.min, sb.max, c[i].q);
	}
	free(c);
}

/*
 * The endpoints: measure what the index lacks, settle the KPI, refuse when
 * good and bad do not differ.  0 ok, 1 refused, -1 error.
 */
static int setup_endpoints(struct driver *d)
{
	struct bisect_state *st = d->st;
	struct bisect_commit *cg = &st->commits[0];
	struct bisect_commit *cb = &st->commits[st->ncommits - 1];
	struct matrix mg, mb;
	size_t want = d->opt->runs;
	int ret = -1, r;

	matrix_init(&mg);
	matrix_init(&mb);
	if (load(d, cg->sha, &mg) < 0 || load(d, cb->sha, &mb) < 0)
		goto out;
	cg->reused = mg.nruns >= want;
	cb->reused = mb.nruns >= want;
	for (;;) {
		r = measure_pair(d, cg, 1, &mg, cb, 2, &mb, want, 0, 0);
		if (r) {
			ret = r > 0 ? -1 : r;
			goto out;
		}
		if (!st->stat && d->opt->stat)
			st->stat = xstrdup(d->opt->stat);
		if (!d->opt->stat) {
			free(st->stat);
			st->stat = choose_stat(d, &mg, &mb,
					       want >= d->opt->max_runs);
			st->stat_chosen = true;
		}
		if (st->stat) {
			if (!kpi_values(&mg, st->stat, &d->good, &d->ngood) ||
			    !kpi_values(&mb, st->stat, &d->bad, &d->nbad)) {
				strbuf_addf(
					d->err,
					"stat '%s' is not in the results of "
					"%s %.*s",
					st->stat, d->ngood ? "bad" : "good",
					SHORT_SHA_LEN,
					d->ngood ? cb->sha : cg->sha);
				ret = 1;
				goto out;
			}
			/* a chosen stat passed the test among all candidates */
			if (st->stat_chosen)
				break;
			r = d->until_decided ?
				    endpoints_decided(d, &mg, &mb) :
				    endpoints_differ(d, st->stat, d->good,
						     d->ngood, d->bad, d->nbad,
						     want >= d->opt->max_runs,
						     stats_welch_p(d->bad, d->nbad,
								   d->good,
								   d->ngood));
			if (r < 0)
				goto out;
			if (r)
				break;
		}
		/* not clear yet: more samples of both, up to the cap */
		if (want >= d->opt->max_runs) {
			explain_no_change(d, &mg, &mb);
			ret = 1;
			goto out;
		}
		want += d->opt->runs;
		if (want > d->opt->max_runs)
			want = d->opt->max_runs;
		progress(d, "good and bad not clearly apart yet: %zu runs each",
			 want);
	}
	cg->verdict = BISECT_GOOD;
	cb->verdict = BISECT_BAD;
	cg->kpi = xmalloc(st_mult(d->ngood, sizeof(double)));
	memcpy(cg->kpi, d->good, d->ngood * sizeof(double));
	cg->nkpi = d->ngood;
	cb->kpi = xmalloc(st_mult(d->nbad, sizeof(double)));
	memcpy(cb->kpi, d->bad, d->nbad * sizeof(double));
	cb->nkpi = d->nbad;
	/* the references of the three-way verdicts (step_verdict.c) */
	d->mgood = mg;
	d->mbad = mb;
	matrix_init(&mg);
	matrix_init(&mb);
	{
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "KPI %s%s\n", st->stat,
			    st->stat_chosen ? " (chosen automatically)" : "");
		bisect_describe(&sb, "good", cg, d->good, d->ngood);
		strbuf_addstr(&sb, cg->reused ? " (from the index)\n" : "\n");
		bisect_describe(&sb, "bad", cb, d->bad, d->nbad);
		strbuf_addstr(&sb, cb->reused ? " (from the index)" : "");
		progress(d, "%s", sb.buf);
		strbuf_release(&sb);
	}
	ret = 0;
out:
	matrix_release(&mg);
	matrix_release(&mb);
	return ret;
}

/*
 * The endpoint's runs m (moved here) become the reference: the three-way
 * verdicts' matrix and the KPI's samples.  0, or -1 with err when m
 * lacks the KPI.
 */
static int set_reference(struct driver *d, bool bad_side, struct matrix *m)
{
	struct bisect_state *st = d->st;
	struct bisect_commit *e = bad_side ? &st->commits[st->ncommits - 1] :
					     &st->commits[0];

	if (!kpi_values(m, st->stat, bad_side ? &d->bad : &d->good,
			bad_side ? &d->nbad : &d->ngood)) {
		strbuf_addf(d->err, "'%s' is gone from the results of %.*s",
			    st->stat, SHORT_SHA_LEN, e->sha);
		return -1;
	}
	matrix_release(bad_side ? &d->mbad : &d->mgood);
	*(bad_side ? &d->mbad : &d->mgood) = *m;
	matrix_init(m);
	free(e->kpi);
	e->nkpi = bad_side ? d->nbad : d->ngood;
	e->kpi = xmalloc(st_mult(e->nkpi, sizeof(double)));
	memcpy(e->kpi, bad_side ? d->bad : d->good, e->nkpi * sizeof(double));
	return 0;
}

/*
 * LKP's classifier (--no-until-decided): one run of the good (bad_side
 * false) or bad endpoint, right after a commit was judged the other way:
 * a burst of load on the machine that shifted the commit's runs shifts
 * this one too, and the commit turns unclear instead of wrong.  The
 * endpoint's samples (the reference) are re-read with it.  0, or -1
 * with err.
 */
static int verify(struct driver *d, bool bad_side)
{
	struct bisect_state *st = d->st;
	struct bisect_commit *e = bad_side ? &st->commits[st->ncommits - 1] :
					     &st->commits[0];
	struct strbuf why = STRBUF_INIT;
	struct matrix m;
	int r, ret = -1;

	matrix_init(&m);
	r = ensure_slot(d, bad_side ? 2 : 1, e, &why);
	if (r) {
		strbuf_addf(d->err, "cannot use %.*s again: %s", SHORT_SHA_LEN,
			    e->sha, why.buf);
		goto out;
	}
	if (measure_once(d, bad_side ? 2 : 1, e) < 0 || load(d, e->sha, &m) < 0)
		goto out;
	ret = set_reference(d, bad_side, &m);
out:
	strbuf_release(&why);
	matrix_release(&m);
	return ret;
}

/*
 * Commit c built into the measuring slot (slot 0), to run it once more:
 * 0 when it is there; 1 when it cannot be built or installed, which
 * skips the commit (c->why says why: a broken commit is a skip, not the
 * end of the bisect); -1 with d->err for a failure of the world.
 */
static int slot_for(struct driver *d, struct bisect_commit *c)
{
	struct strbuf why = STRBUF_INIT;
	int r = ensure_slot(d, 0, c, &why);

	if (r < 0) {
		strbuf_addbuf(d->err, &why);
		strbuf_release(&why);
		return -1;
	}
	if (r > 0) {
		c->verdict = BISECT_SKIP;
		c->why = strbuf_detach(&why, NULL);
		return 1;
	}
	strbuf_release(&why);
	return 0;
}

/*
 * The progress line of a tested commit: its verdict, its median, and
 * where the runs came from -- so that a resumed bisect shows which
 * verdicts it took from the index instead of measuring again.
 */
static void announce(struct driver *d, size_t i, const char *sha)
{
	const struct bisect_state *st = d->st;
	const struct bisect_commit *c = &st->commits[i];
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "[%zu/%zu] %s %s", i, st->ncommits - 1, sha,
		    bisect_verdict_name(c->verdict));
	if (c->nkpi) {
		struct lkp_summary s;

		bisect_summarize(c->kpi, c->nkpi, &s);
		strbuf_addf(&sb, ": median %.6g", s.median);
	}
	if (c->why)
		strbuf_addf(&sb, " (%s%s)", c->why,
			    c->reused ? ", from the index" : "");
	else if (c->reused)
		strbuf_addf(&sb, " (%zu runs from the index)", c->nkpi);
	else
		strbuf_addf(&sb, " (%zu runs)", c->runs);
	strbuf_addf(&sb, "  %s", c->subject);
	progress(d, "%s", sb.buf);
	strbuf_release(&sb);
}

/*
 * Until decided, the step on commit c (index i): c measured in triplets
 * with fresh runs of both endpoints -- good, c, bad, then bad, c, good
 * (bisect_step_next) -- and judged against each by bisect_decide() on
 * the pairs their start times make: runs made beside each other, so the
 * machine's slow drift, shared by both runs of a pair, cancels.  Every
 * run the index holds takes part, so a step cut short goes on from its
 * runs, but runs of other times pair with none and decide nothing: a
 * comparison needs STEP_MIN_PAIRS pairs.  Without start times (ops
 * without starts()) the step's own runs are judged, unpaired.
 *
 * The step is not src/decide/'s decide_until(): that loop drives two
 * sides, base then head, and stops on one comparison's tally; a step
 * has three parties, the commit between the endpoints in every triplet,
 * and its verdict is bisect_decide()'s combination of two comparisons
 * (the same as one side and not the other, or changed from both).  A
 * triplet is no pair of that loop, and its lone runs of one side (where
 * one side's spread limits) would break the triplets.
 *
 * Budget: --max-runs runs of the commit (those the index held
 * included, as before); the endpoints get one run a triplet.  0 with
 * c->verdict set (a skip or undecided said in c->why), -1 with err.
 */
#define STEP_MIN_PAIRS 3 /* the paired interval's own minimum (stats.h) */

static int step_commit(struct driver *d, size_t i, struct bisect_commit *c,
		       bool *tried)
{
	static const int slot[3] = { 1, 0, 2 }; /* good, commit, bad */
	static const char *const name[3] = { "good", "commit", "bad" };
	struct bisect_state *st = d->st;
	struct bisect_commit *party[3];
	struct matrix m[3], cols[3];
	double *t[3] = { NULL, NULL, NULL };
	size_t base[3], made[3], k, j, triplets;
	struct strbuf how = STRBUF_INIT, why = STRBUF_INIT;
	char sha[SHORT_SHA_LEN + 1];
	int ret = -1, p, r;

	party[0] = &st->commits[0];
	party[1] = c;
	party[2] = &st->commits[st->ncommits - 1];
	short_sha(c->sha, sha);
	for (k = 0; k < 3; k++) {
		matrix_init(&m[k]);
		matrix_init(&cols[k]);
	}
	for (k = 0; k < 3; k++)
		if (load_timed(d, party[k]->sha, &m[k], &t[k]) < 0)
			goto out;
	if (!d->ops->step_base ||
	    !d->ops->step_base(d->ops->data, c->sha, base, false) ||
	    base[0] > m[0].nruns || base[1] > m[1].nruns ||
	    base[2] > m[2].nruns) {
		for (k = 0; k < 3; k++)
			base[k] = m[k].nruns;
		if (d->ops->step_base)
			d->ops->step_base(d->ops->data, c->sha, base, true);
	}
	triplets = d->opt->max_runs > base[1] ? d->opt->max_runs - base[1] : 0;
	for (;;) {
		bool paired = t[0] && t[1] && t[2];
		struct bisect_runs rg, rb, rc;
		struct bisect_decision dec;

		for (k = 0; k < 3; k++)
			made[k] = m[k].nruns - base[k];
		j = made[0] < made[1] ? made[0] : made[1];
		j = j < made[2] ? j : made[2];
		/* judged between triplets, once the commit has -n runs */
		if (made[0] == j && made[1] == j && made[2] == j &&
		    (paired ? m[1].nruns : j) >= d->opt->runs) {
			if (!kpi_values(&m[1], st->stat, &c->kpi, &c->nkpi)) {
				c->verdict = BISECT_SKIP;
				c->why = xasprintf("its results lack '%s'",
						   st->stat);
				break;
			}
			for (k = 0; k < 3; k++) {
				matrix_release(&cols[k]);
				if (!paired)
					matrix_columns_from(&m[k], base[k],
							      &cols[k]);
			}
			rg = (struct bisect_runs){ paired ? &m[0] : &cols[0], t[0] };
			rc = (struct bisect_runs){ paired ? &m[1] : &cols[1], t[1] };
			rb = (struct bisect_runs){ paired ? &m[2] : &cols[2], t[2] };
			r = bisect_decide(&d->mgood, &d->mbad, &rg, &rb, &rc,
					  st->stat, d->opt->testcase,
					  paired ? STEP_MIN_PAIRS : 0, &dec,
					  d->err);
			if (r < 0)
				goto out;
			strbuf_reset(&how);
			bisect_decision_text(&dec, &how);
			if (r != BISECT_UNCLEAR) {
				c->verdict = (enum bisect_verdict)r;
				break;
			}
			if (m[1].nruns >= d->opt->max_runs) {
				/* never called good or bad: a skip, said so */
				c->verdict = BISECT_UNDECIDED;
				c->why = xasprintf("undecided after %zu runs: %s",
						   m[1].nruns, how.buf);
				break;
			}
			progress(d, "%s undecided (at %.2f between good and bad; "
				    "%s; on %zu and %zu pairs), %zu runs",
				 sha, dec.position, how.buf, dec.vs_good.pairs,
				 dec.vs_bad.pairs, m[1].nruns + 1);
		}
		if (made[0] == j && made[1] == j && made[2] == j)
			progress(d, "commit %zu of %zu (%s): triplet %zu of %zu, %s",
				 i, st->ncommits - 1, sha, j + 1, triplets,
				 j % 2 ? "bad, commit, good" :
					 "good, commit, bad");
		p = bisect_step_next(made);
		if (p == BISECT_PARTY_COMMIT) {
			r = slot_for(d, c);
			if (r < 0)
				goto out;
			if (r > 0)
				break; /* a skip: slot_for() says why */
		} else {
			strbuf_reset(&why);
			r = ensure_slot(d, slot[p], party[p], &why);
			if (r) {
				strbuf_addf(d->err, "cannot use %.*s again: %s",
					    SHORT_SHA_LEN, party[p]->sha,
					    why.buf);
				goto out;
			}
		}
		*tried = true;
		strbuf_reset(&why);
		r = run_party(d, slot[p], party[p], name[p], &m[p], &t[p], &why);
		if (r < 0)
			goto out;
		if (!r)
			continue;
		if (p == BISECT_PARTY_COMMIT) {
			c->verdict = BISECT_SKIP;
			c->why = strbuf_detach(&why, NULL);
			break;
		}
		strbuf_addf(d->err, "%s %.*s: %s", name[p], SHORT_SHA_LEN,
			    party[p]->sha, why.buf);
		goto out;
	}
	kpi_values(&m[1], st->stat, &c->kpi, &c->nkpi);
	/* the step's endpoint runs join the references (the step's size) */
	if ((m[0].nruns > d->mgood.nruns && set_reference(d, false, &m[0]) < 0) ||
	    (m[2].nruns > d->mbad.nruns && set_reference(d, true, &m[2]) < 0))
		goto out;
	ret = 0;
out:
	for (k = 0; k < 3; k++) {
		matrix_release(&m[k]);
		matrix_release(&cols[k]);
		free(t[k]);
	}
	strbuf_release(&how);
	strbuf_release(&why);
	return ret;
}

/*
 * LKP's classifier (--no-until-decided), -runs at a time: commit c's
 * samples m against the references.  A verdict reached on runs made now
 * is checked against one fresh run of the other side (verify()); a
 * verdict from the index alone stands.  0 with c->verdict set, -1.
 */
static int classic_commit(struct driver *d, struct bisect_commit *c,
			  struct matrix *m, bool *tried)
{
	struct bisect_state *st = d->st;
	struct strbuf why = STRBUF_INIT;
	size_t target = d->opt->runs;
	bool verified = false;
	double pos = NAN;
	int r;
	char sha[SHORT_SHA_LEN + 1];

	short_sha(c->sha, sha);
	for (;;) {
		if (m->nruns >= target) {
			enum bisect_verdict v;

			if (!kpi_values(m, st->stat, &c->kpi, &c->nkpi)) {
				c->verdict = BISECT_SKIP;
				c->why = xasprintf("its results lack '%s'",
						   st->stat);
				return 0;
			}
			v = bisect_classify(&d->rules, st->stat, d->good,
					    d->ngood, d->bad, d->nbad, c->kpi,
					    c->nkpi, &pos);
			if (v != BISECT_UNCLEAR && (!c->runs || verified)) {
				c->verdict = v;
				return 0;
			}
			if (v != BISECT_UNCLEAR) {
				if (verify(d, v == BISECT_GOOD) < 0)
					return -1;
				verified = true;
				continue;
			}
			if (m->nruns >= d->opt->max_runs) {
				c->verdict = BISECT_SKIP;
				c->why = xasprintf("still unclear after %zu runs",
						   m->nruns);
				return 0;
			}
			target = m->nruns + d->opt->runs;
			if (target > d->opt->max_runs)
				target = d->opt->max_runs;
			verified = false;
			progress(d, "%s unclear (at %.2f between good and bad), "
				    "%zu runs", sha, pos, target);
		}
		*tried = true;
		r = slot_for(d, c);
		if (r)
			return r < 0 ? -1 : 0;
		r = run_party(d, 0, c, "commit", m, NULL, &why);
		if (r) {
			if (r > 0) {
				c->verdict = BISECT_SKIP;
				c->why = strbuf_detach(&why, NULL);
			}
			strbuf_release(&why);
			return r < 0 ? -1 : 0;
		}
	}
}

/*
 * Test commit i: a verdict kept from before an interruption (recall),
 * else a step until decided (step_commit) or LKP's classifier.
 */
static int test_commit(struct driver *d, size_t i)
{
	struct bisect_state *st = d->st;
	struct bisect_commit *c = &st->commits[i];
	struct matrix m;
	bool tried = false;
	int ret = -1;
	char sha[SHORT_SHA_LEN + 1];

	short_sha(c->sha, sha);
	matrix_init(&m);
	if (load(d, c->sha, &m) < 0)
		goto out;
	if (d->ops->recall &&
	    d->ops->recall(d->ops->data, c->sha, st->stat, &c->verdict, &c->why,
			   false)) {
		/* judged before this bisect was interrupted */
		kpi_values(&m, st->stat, &c->kpi, &c->nkpi);
		c->reused = true;
		goto judged;
	}
	if ((d->until_decided ? step_commit(d, i, c, &tried) :
				classic_commit(d, c, &m, &tried)) < 0)
		goto out;
	if (d->ops->recall)
		d->ops->recall(d->ops->data, c->sha, st->stat, &c->verdict,
			       &c->why, true);
	c->reused = !tried;
judged:
	if (c->runs)
		st->measured++;
	else if (c->reused)
		st->reused++;
	st->tested++;
	announce(d, i, sha);
	ret = 0;
out:
	matrix_release(&m);
	return ret;
}

/*
 * Has the confirmation's runs (parent a's and culprit b's from base_a /
 * base_b on) shown the change again?  LKP's test: changed in the good ->
 * bad direction (same_way) is confirmed, else not yet (0).  Until
 * decided, compare's three-way verdict of the culprit against the parent
 * with half the good-bad step as the margin: changed the same way,
 * confirmed; the same, or changed the other way, not reproducible (1,
 * st->confirm set); undecided, 0.  -1 with err.
 */
static int confirm_judge(struct driver *d, const struct bisect_commit *a,
			 const struct matrix *ma, size_t base_a,
			 const struct bisect_commit *b, const struct matrix *mb,
			 size_t base_b, bool same_way)
{
	struct bisect_state *st = d->st;
	struct bisect_stat_verdict sv;
	struct bisect_runs ra, rb;
	struct matrix ca, cb;
	double bad_way, *ta = NULL, *tb = NULL;
	int r;

	if (!d->until_decided) {
		if (!bisect_lkp_changed(&d->rules, st->stat, st->confirm_b,
					st->nconfirm_b, st->confirm_a,
					st->nconfirm_a, 0) || !same_way)
			return 0;
		st->confirm = BISECT_CONFIRMED;
		return 1;
	}
	/* this confirmation's runs (A B A B), paired by their start times */
	if (starts_of(d, a->sha, ma, &ta) < 0 || starts_of(d, b->sha, mb, &tb) < 0) {
		free(ta);
		return -1;
	}
	matrix_columns_from(ma, base_a, &ca);
	matrix_columns_from(mb, base_b, &cb);
	ra = (struct bisect_runs){ &ca, ta && ca.nruns ? ta + base_a : NULL };
	rb = (struct bisect_runs){ &cb, tb && cb.nruns ? tb + base_b : NULL };
	r = bisect_stat_verdict(&ra, &rb, st->stat, d->opt->testcase,
				bisect_half_step(&d->mgood, &d->mbad, st->stat,
						 false),
				&sv, d->err);
	matrix_release(&ca);
	matrix_release(&cb);
	free(ta);
	free(tb);
	if (r < 0)
		return -1;
	bad_way = stats_mean(d->bad, d->nbad) - stats_mean(d->good, d->ngood);
	if (sv.verdict == VERDICT_CHANGED)
		st->confirm = sv.change * bad_way > 0 ? BISECT_CONFIRMED :
							BISECT_NOT_REPRODUCIBLE;
	else if (sv.verdict == VERDICT_SAME)
		st->confirm = BISECT_NOT_REPRODUCIBLE;
	else
		return 0;
	return 1;
}

/*
 * Parent vs culprit, re-run interleaved (ABAB), `runs` new samples each:
 * the change must show again, in the same direction.
 */
static int confirm(struct driver *d)
{
	struct bisect_state *st = d->st;
	struct bisect_commit *a = &st->commits[st->first_bad - 1];
	struct bisect_commit *b = &st->commits[st->first_bad];
	struct matrix ma, mb;
	size_t base_a, base_b, want;
	struct lkp_summary sa, sb, sg, sbad;
	/* until decided: one pair more at a time */
	size_t step = d->until_decided ? 1 : d->opt->runs;
	int r, ret = -1;

	matrix_init(&ma);
	matrix_init(&mb);
	if (load(d, a->sha, &ma) < 0 || load(d, b->sha, &mb) < 0)
		goto out;
	base_a = ma.nruns;
	base_b = mb.nruns;
	if (!d->ops->confirm_base ||
	    !d->ops->confirm_base(d->ops->data, a->sha, b->sha, &base_a,
				  &base_b, false) ||
	    base_a > ma.nruns || base_b > mb.nruns) {
		base_a = ma.nruns;
		base_b = mb.nruns;
		if (d->ops->confirm_base)
			d->ops->confirm_base(d->ops->data, a->sha, b->sha,
					     &base_a, &base_b, true);
	}
	progress(d, "confirming: %.*s vs %.*s, interleaved", SHORT_SHA_LEN,
		 a->sha, SHORT_SHA_LEN, b->sha);
	bisect_summarize(d->good, d->ngood, &sg);
	bisect_summarize(d->bad, d->nbad, &sbad);
	/*
	 * -n runs each, A B A B; while the change does not show, -n more
	 * each, up to --max-runs: a confirmation must not fail on one burst
	 * of load any more than a verdict may.
	 */
	for (want = d->opt->runs;; want += step) {
		if (want > d->opt->max_runs)
			want = d->opt->max_runs;
		r = measure_pair(d, a, 0, &ma, b, 2, &mb, want, base_a,
				 base_b);
		if (r < 0)
			goto out;
		st->confirm = BISECT_NOT_REPRODUCIBLE;
		if (r > 0) {
			progress(d, "confirmation impossible: %s", d->err->buf);
			strbuf_reset(d->err);
			break;
		}
		kpi_values(&ma, st->stat, &st->confirm_a, &st->nconfirm_a);
		kpi_values(&mb, st->stat, &st->confirm_b, &st->nconfirm_b);
		/* only this confirmation's runs: the newest columns */
		if (st->nconfirm_a > base_a) {
			memmove(st->confirm_a, st->confirm_a + base_a,
				(st->nconfirm_a - base_a) * sizeof(double));
			st->nconfirm_a -= base_a;
		}
		if (st->nconfirm_b > base_b) {
			memmove(st->confirm_b, st->confirm_b + base_b,
				(st->nconfirm_b - base_b) * sizeof(double));
			st->nconfirm_b -= base_b;
		}
		bisect_summarize(st->confirm_a, st->nconfirm_a, &sa);
		bisect_summarize(st->confirm_b, st->nconfirm_b, &sb);
		r = confirm_judge(d, a, &ma, base_a, b, &mb, base_b,
				  (sb.median - sa.median) * (sbad.median - sg.median) > 0);
		if (r < 0)
			goto out;
		if (r > 0)
			break;
		if (want >= d->opt->max_runs) {
			/* not reproduced, or (until decided) not known */
			if (d->until_decided)
				st->confirm = BISECT_CONFIRM_UNDECIDED;
			break;
		}
		progress(d, "not clear yet: %zu runs each", want + step);
	}
	ret = 0;
out:
	matrix_release(&ma);
	matrix_release(&mb);
	return ret;
}

enum bisect_outcome bisect_run(struct bisect_state *st,
			       const struct bisect_options *opt,
			       const struct bisect_ops *ops, struct strbuf *err)
{
	struct driver d;
	struct bisect_search s;
	enum bisect_outcome outcome = BISECT_ERROR;
	ssize_t next;
	int r;

	if (st->ncommits < 2)
		BUG("bisect needs a good and a bad commit");
	memset(&d, 0, sizeof(d));
	d.st = st;
	d.opt = opt;
	d.ops = ops;
	d.err = err;
	d.until_decided = !opt->no_until_decided;
	matrix_init(&d.mgood);
	matrix_init(&d.mbad);
	stat_rules_init(&d.rules);
	if (opt->testcase)
		stat_rules_add_benchmark(&d.rules, opt->testcase);
	if (opt->kpi)
		kpi_declare(&d.rules, opt->kpi);
	bisect_search_init(&s, st->ncommits);
	r = setup_endpoints(&d);
	if (r) {
		if (r > 0)
			outcome = BISECT_NO_CHANGE;
		else if (interrupted(&d))
			outcome = BISECT_INTERRUPTED;
		goto out;
	}
	bisect_search_mark(&s, 0, BISECT_GOOD);
	bisect_search_mark(&s, st->ncommits - 1, BISECT_BAD);
	while ((next = bisect_search_next(&s)) >= 0) {
		if (test_commit(&d, (size_t)next) < 0) {
			if (interrupted(&d))
				outcome = BISECT_INTERRUPTED;
			goto out;
		}
		bisect_search_mark(&s, (size_t)next,
				   st->commits[next].verdict);
	}
	bisect_search_result(&s, &st->lo, &st->first_bad, &st->nskipped);
	outcome = st->nskipped ? BISECT_RANGE : BISECT_FOUND;
	if (outcome == BISECT_FOUND && !opt->no_confirm && confirm(&d) < 0) {
		outcome = interrupted(&d) ? BISECT_INTERRUPTED : BISECT_ERROR;
		goto out;
	}
out:
	bisect_search_release(&s);
	stat_rules_release(&d.rules);
	free(d.good);
	free(d.bad);
	matrix_release(&d.mgood);
	matrix_release(&d.mbad);
	return outcome;
}
