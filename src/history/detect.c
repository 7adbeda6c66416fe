/*
 * detect.c: change points and outliers of a stat's history (history.h).
 *
 * The energy statistic of a split is computed for every commit boundary
 * of a window at once in O(S log S) for S runs: the within-sums of
 * |x_i - x_k| of every prefix (and suffix) grow by one rank query per run
 * in a Fenwick tree over the window's sorted values, and the cross-sum is
 * what the total leaves.  So a window costs a sort and two passes, and a
 * permutation test is affordable.
 */
#include "util/compat.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include "history/history.h"
#include "compare/rules.h"
#include "result/stats.h"
#include "util/xalloc.h"

void history_params_init(struct history_params *p)
{
	memset(p, 0, sizeof(*p));
	p->test = HISTORY_TTEST;
	p->p_max = 1e-5;
	p->p_local = 1e-5;
	p->min_segment = 3;
	p->window = 50;
	p->outlier_sd = 5;
	p->min_change_pct = 0;
	p->permutations = 199;
	p->seed = 20140101;
}

void history_params_set_test(struct history_params *p, enum history_test t)
{
	p->test = t;
	/* 199 permutations cannot give p below 0.005 */
	p->p_max = t == HISTORY_PERMUTATION ? 0.01 : 1e-5;
}

void history_result_init(struct history_result *r)
{
	memset(r, 0, sizeof(*r));
}

void history_result_release(struct history_result *r)
{
	free(r->changes);
	free(r->outliers);
	memset(r, 0, sizeof(*r));
}

/* ---- small helpers ---- */

/* median of v[0..n), which is reordered; NAN for n == 0 */
static double median_inplace(double *v, size_t n)
{
	double hi, lo;
	size_t i;

	if (!n)
		return NAN;
	if (n <= 32) {
		/* the sides of a commit are a few runs: an insertion sort */
		size_t j;

		for (i = 1; i < n; i++) {
			double x = v[i];

			for (j = i; j > 0 && v[j - 1] > x; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	/* a whole series' deviations: selection, not a sort */
	hi = stats_select_kth(v, n, n / 2);
	if (n % 2)
		return hi;
	/* the lower middle: the largest of what selection left below */
	lo = v[0];
	for (i = 1; i < n / 2; i++)
		if (v[i] > lo)
			lo = v[i];
	return (lo + hi) / 2;
}

/*
 * The cleaned series the detection works on: commits that kept at least
 * one run, their runs flattened (start[i] .. start[i + 1]) and their means.
 */
struct series {
	size_t m;          /* commits */
	size_t *orig;      /* index in the caller's series */
	size_t *start;     /* m + 1 offsets into z */
	double *z;         /* the runs, centred on the median */
	size_t *rank;      /* 1-based rank of each run among all of them */
	size_t ntotal;     /* runs */
	double *mean;      /* commit means (centred) */
	double centre;     /* what was subtracted */
};

/*
 * Scratch space of the energy statistic.  The Fenwick trees are indexed
 * by a run's rank in the whole series (sorted once): a window's trees
 * are then built without sorting it, and emptied by undoing its inserts.
 */
struct energy {
	double *cnt, *sum; /* Fenwick trees, ntotal + 1 */
	double *wl, *wr;   /* within-sums of prefixes / suffixes */
	double *perm;      /* permuted runs */
	size_t *prank;     /* their ranks */
	size_t *pstart;    /* permuted commit offsets */
	size_t *idx;       /* commit permutation */
	size_t alloc, alloc_c, ntotal;
};

static void energy_init(struct energy *e, size_t ntotal)
{
	memset(e, 0, sizeof(*e));
	e->ntotal = ntotal;
	e->cnt = xcalloc(ntotal + 1, sizeof(double));
	e->sum = xcalloc(ntotal + 1, sizeof(double));
}

static void energy_grow(struct energy *e, size_t s, size_t c)
{
	if (s + 1 > e->alloc) {
		e->alloc = s + 1;
		e->wl = xreallocarray(e->wl, e->alloc + 1, sizeof(double));
		e->wr = xreallocarray(e->wr, e->alloc + 1, sizeof(double));
		e->perm = xreallocarray(e->perm, e->alloc, sizeof(double));
		e->prank = xreallocarray(e->prank, e->alloc, sizeof(size_t));
	}
	if (c + 1 > e->alloc_c) {
		e->alloc_c = c + 1;
		e->pstart = xreallocarray(e->pstart, e->alloc_c, sizeof(size_t));
		e->idx = xreallocarray(e->idx, e->alloc_c, sizeof(size_t));
	}
}

static void energy_release(struct energy *e)
{
	free(e->prank);
	free(e->cnt);
	free(e->sum);
	free(e->wl);
	free(e->wr);
	free(e->perm);
	free(e->pstart);
	free(e->idx);
}

struct ranked {
	double v;
	size_t i;
};

static int cmp_ranked(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->v, y = ((const struct ranked *)b)->v;

	return x < y ? -1 : x > y;
}

/*
 * w[k] = sum over i < j < k of |v[i] - v[j]| for k = 0..s, walking v in
 * the direction dir (+1 from the front, -1 from the back); rank[i] is the
 * rank of v[i] in the whole series (equal values may share a rank or
 * not: |x - y| is 0 either way).
 */
static void within_sums(struct energy *e, const double *v, const size_t *rank,
			size_t s, int dir, double *w)
{
	double total = 0;
	size_t k, j, n = e->ntotal;

	w[0] = 0;
	for (k = 0; k < s; k++) {
		size_t i = dir > 0 ? k : s - 1 - k;
		double x = v[i], c_le = 0, s_le = 0;

		for (j = rank[i]; j > 0; j -= j & -j) {
			c_le += e->cnt[j];
			s_le += e->sum[j];
		}
		w[k + 1] = w[k] + x * c_le - s_le +
			   (total - s_le) - x * ((double)k - c_le);
		total += x;
		for (j = rank[i]; j <= n; j += j & -j) {
			e->cnt[j] += 1;
			e->sum[j] += x;
		}
	}
	/* empty the trees again: only the nodes touched */
	for (k = 0; k < s; k++)
		for (j = rank[k]; j <= n; j += j & -j)
			e->cnt[j] = e->sum[j] = 0;
}

/*
 * The E-Divisive statistic of every split of the window's commits
 * c0..c1 (runs v[start[c] - start[c0]], their ranks rank[...]): the
 * split before commit c for c0 + ms <= c <= c1 - ms.  Returns the best
 * split, or 0 when none; *q_at gets the statistic at commit `at`.
 */
static size_t energy_best(struct energy *e, const double *v,
			  const size_t *rank, const size_t *start, size_t c0,
			  size_t c1, size_t ms, double *best_q, double *q_at,
			  size_t at)
{
	size_t s = start[c1] - start[c0], c, best = 0;
	double bq = -INFINITY;

	within_sums(e, v, rank, s, 1, e->wl);
	within_sums(e, v, rank, s, -1, e->wr);
	for (c = c0 + ms; c + ms <= c1; c++) {
		double m = (double)(start[c] - start[c0]);
		double n = (double)(start[c1] - start[c]);
		double wl = e->wl[start[c] - start[c0]];
		double wr = e->wr[start[c1] - start[c]];
		double cross = e->wl[s] - wl - wr, ev, q;

		if (m < 1 || n < 1)
			continue;
		ev = 2 * cross / (m * n) - (m > 1 ? wl / (m * (m - 1) / 2) : 0) -
		     (n > 1 ? wr / (n * (n - 1) / 2) : 0);
		q = m * n / (m + n) * ev;
		if (c == at && q_at)
			*q_at = q;
		if (q > bq) {
			bq = q;
			best = c;
		}
	}
	*best_q = bq;
	return best;
}

/* ---- significance ---- */

struct test_out {
	double p, before, after, change_pct, ci_lo, ci_hi;
	size_t nbefore, nafter;
};

/*
 * Student's t between the commit means of [a, c) and [c, b), the
 * variance pooled: under "no change" both sides have one variance, and
 * pooling keeps a short side whose few means happen to agree from
 * looking certain (Welch's degrees of freedom grow with that luck, and
 * flat series then showed 6% false change points instead of 1%).
 */
static void student_between(const struct series *sr, size_t a, size_t c,
			    size_t b, struct test_out *t)
{
	const double *x = sr->mean + a, *y = sr->mean + c;
	size_t nx = c - a, ny = b - c, i;
	double mx = 0, my = 0, ss = 0, df, d, base, half = 0, se;

	for (i = 0; i < nx; i++)
		mx += x[i];
	for (i = 0; i < ny; i++)
		my += y[i];
	mx /= (double)nx;
	my /= (double)ny;
	for (i = 0; i < nx; i++)
		ss += (x[i] - mx) * (x[i] - mx);
	for (i = 0; i < ny; i++)
		ss += (y[i] - my) * (y[i] - my);
	t->nbefore = nx;
	t->nafter = ny;
	t->before = mx + sr->centre;
	t->after = my + sr->centre;
	d = my - mx;
	df = (double)(nx + ny) - 2;
	se = df > 0 ? sqrt(ss / df * (1 / (double)nx + 1 / (double)ny)) : 0;
	/* a spread below the rounding of the means: exact */
	if (!(se > 1e-12 * fmax(fabs(t->before), fabs(t->after)))) {
		t->p = fabs(d) <= 1e-12 * fmax(fabs(t->before), fabs(t->after)) ?
		       1 : 0;
	} else {
		t->p = fmin(1, 2 * gsl_cdf_tdist_Q(fabs(d) / se, df));
		half = gsl_cdf_tdist_Qinv(0.025, df) * se;
	}
	base = fabs(t->before);
	if (base > 0) {
		t->change_pct = 100 * d / base;
		t->ci_lo = 100 * (d - half) / base;
		t->ci_hi = 100 * (d + half) / base;
	} else {
		t->change_pct = d == 0 ? 0 : copysign(INFINITY, d);
		t->ci_lo = t->ci_hi = t->change_pct;
	}
}

/* a generator stream per test: the seed and where the test is */
static uint64_t perm_state(const struct history_params *p, size_t a, size_t b)
{
	uint64_t x = p->seed ^ ((uint64_t)a << 32) ^ (uint64_t)b;

	(void)stats_splitmix64(&x);
	return x;
}

/*
 * Permutation p of the split at c in the commits [a, b): whole commits
 * are shuffled (runs of one commit stay together, so noise shared by a
 * commit's runs is not mistaken for a signal).  fixed: the statistic is
 * the divergence at c's position; else the maximum over every split, as
 * for the observed one.
 */
static double perm_p(const struct series *sr, struct energy *e, size_t a,
		     size_t c, size_t b, size_t ms, bool fixed,
		     const struct history_params *p)
{
	size_t nc = b - a, i, r, exceed = 0;
	size_t pos = c - a; /* the split position in commits */
	double obs, q, qat = -INFINITY;
	uint64_t x = perm_state(p, a, b);
	double *v;
	size_t *st;

	energy_grow(e, sr->start[b] - sr->start[a], nc);
	v = e->perm;
	st = xmalloc((nc + 1) * sizeof(size_t));
	for (i = 0; i < nc; i++)
		st[i] = sr->start[a + i] - sr->start[a];
	st[nc] = sr->start[b] - sr->start[a];
	energy_best(e, sr->z + sr->start[a], sr->rank + sr->start[a], st, 0, nc,
		    ms, &obs, &qat, pos);
	if (fixed)
		obs = qat;
	for (r = 0; r < p->permutations; r++) {
		size_t k = 0;

		for (i = 0; i < nc; i++)
			e->idx[i] = a + i;
		for (i = nc; i > 1; i--) {
			size_t j = (size_t)(stats_splitmix64(&x) % i), t;

			t = e->idx[i - 1];
			e->idx[i - 1] = e->idx[j];
			e->idx[j] = t;
		}
		for (i = 0; i < nc; i++) {
			size_t src = e->idx[i];
			size_t len = sr->start[src + 1] - sr->start[src];

			e->pstart[i] = k;
			memcpy(v + k, sr->z + sr->start[src], len * sizeof(double));
			memcpy(e->prank + k, sr->rank + sr->start[src],
			       len * sizeof(size_t));
			k += len;
		}
		e->pstart[nc] = k;
		qat = -INFINITY;
		energy_best(e, v, e->prank, e->pstart, 0, nc, ms, &q, &qat, pos);
		if ((fixed ? qat : q) >= obs)
			exceed++;
	}
	free(st);
	return (double)(exceed + 1) / (double)(p->permutations + 1);
}

/*
 * The split of the commits [a, b) with the largest Student's t between
 * the means before and after (prefix sums, no sort); 0 when too short.
 * Only for a side of a test: is there a step inside it?
 */
static size_t tsplit_of(const struct series *sr, size_t a, size_t b,
			size_t ms, double *t_out)
{
	double s1 = 0, s2 = 0, tot1 = 0, tot2 = 0, best = -1;
	size_t i, c, found = 0, n = b - a;

	if (n < 2 * ms || n < 3)
		return 0;
	for (i = a; i < b; i++) {
		tot1 += sr->mean[i];
		tot2 += sr->mean[i] * sr->mean[i];
	}
	for (c = a; c + ms <= b; c++) {
		double nx = (double)(c - a), ny = (double)(b - c), mx, my, ss, t;

		if (c >= a + ms) {
			mx = s1 / nx;
			my = (tot1 - s1) / ny;
			/* within sums of squares of both sides */
			ss = (s2 - nx * mx * mx) + (tot2 - s2 - ny * my * my);
			if (ss < 0)
				ss = 0;
			t = ss > 0 ? fabs(my - mx) / sqrt(ss / (double)(n - 2) *
						 (1 / nx + 1 / ny)) :
				     (my != mx ? INFINITY : 0);
			if (t > best) {
				best = t;
				found = c;
			}
		}
		s1 += sr->mean[c];
		s2 += sr->mean[c] * sr->mean[c];
	}
	*t_out = best;
	return found;
}

/*
 * The test of a split at c within the segment [lo, hi): W commits each
 * side at most, and less when that side itself holds a significant step
 * (Student's t at p_local): a regression fixed 20 commits later is then tested
 * against its own 20 commits, not diluted by the fix's.  The permutation
 * test (when chosen) replaces the t-test's p; the means and the interval
 * are the t-test's either way.
 */
static void test_split(const struct series *sr, struct energy *e, size_t lo,
		       size_t c, size_t hi, const struct history_params *p,
		       bool fixed, struct test_out *t)
{
	size_t a = c - lo > p->window ? c - p->window : lo;
	size_t b = hi - c > p->window ? c + p->window : hi;
	size_t ms = p->min_segment, s;
	struct test_out sub;
	double tmax;

	s = tsplit_of(sr, c, b, ms, &tmax);
	if (s) {
		student_between(sr, c, s, b, &sub);
		if (sub.p <= p->p_local)
			b = s;
	}
	s = tsplit_of(sr, a, c, ms, &tmax);
	if (s) {
		student_between(sr, a, s, c, &sub);
		if (sub.p <= p->p_local)
			a = s;
	}
	student_between(sr, a, c, b, t);
	if (p->test == HISTORY_PERMUTATION)
		t->p = perm_p(sr, e, a, c, b, p->min_segment, fixed, p);
}

static bool passes(const struct test_out *t, const struct history_params *p)
{
	return t->p <= p->p_max && !(fabs(t->change_pct) < p->min_change_pct);
}

/* ---- segmentation ---- */

/* the windows of a segment [lo, hi): w0 = lo + k h for k < nfull, then one last */
static size_t full_windows(size_t lo, size_t hi, size_t span)
{
	size_t h = span / 2;

	return hi - lo > span ? (hi - lo - span + h - 1) / h : 0;
}

static size_t span_of(const struct history_params *p)
{
	size_t ms = p->min_segment;

	return 2 * p->window < 2 * ms ? 2 * ms : 2 * p->window;
}

/*
 * The plain search, as first written (history_detect_reference): every
 * window of the segment evaluated.  E-Divisive's argmax in each window of
 * 2W commits (half-overlapping, the last one ending at hi), the candidate
 * with the smallest p (then the largest divergence) wins.  Returns 0
 * when the segment is too short.
 */
static size_t best_split_plain(const struct series *sr, struct energy *e,
			       size_t lo, size_t hi,
			       const struct history_params *p,
			       struct test_out *best)
{
	size_t ms = p->min_segment, span = span_of(p), w0, found = 0;
	double best_q = -INFINITY;

	if (hi - lo < 2 * ms)
		return 0;
	for (w0 = lo;; w0 += span / 2) {
		size_t w1 = w0 + span < hi ? w0 + span : hi, c;
		double q;
		struct test_out t;

		if (w1 == hi && hi - lo > span)
			w0 = hi - span; /* the last window, full size */
		energy_grow(e, sr->start[w1] - sr->start[w0], w1 - w0);
		c = energy_best(e, sr->z + sr->start[w0], sr->rank + sr->start[w0],
				sr->start, w0, w1, ms, &q, NULL, 0);
		if (c) {
			if (p->test == HISTORY_PERMUTATION) {
				/* one costly test: for the largest divergence */
				if (q > best_q) {
					best_q = q;
					found = c;
				}
			} else {
				test_split(sr, e, lo, c, hi, p, false, &t);
				if (!found || t.p < best->p ||
				    (t.p == best->p && q > best_q)) {
					*best = t;
					best_q = q;
					found = c;
				}
			}
		}
		if (w1 == hi)
			break;
	}
	if (found && p->test == HISTORY_PERMUTATION)
		test_split(sr, e, lo, found, hi, p, false, best);
	return found;
}

/*
 * The windows, remembered.  A segment's windows start at lo, lo + h,
 * lo + 2h, ... (h = W); a window's E-Divisive argmax depends on the
 * window alone, and the t-test of its candidate on the segment only when
 * the candidate is within W of lo or hi.  Binary segmentation looks at
 * the same windows again: all of them in the left half of a split, and
 * those of one residue lo mod h in every segment starting there.  So per
 * residue r, leaf j is the window at r + j h (its candidate, q, and the p
 * of its test away from the ends), and a segment tree over the leaves --
 * a node filled the first time a query covers it -- gives the best of a
 * segment's middle windows in O(log n).  Each window is computed once at
 * most: a series where every commit is a change point (a ramp: the plain
 * search rescans it for every split, O(n^2 / W) windows, issue 25's F8)
 * costs at most n windows, and the result is the plain search's, bit for
 * bit (the same functions on the same windows, the same order of ties).
 */
#define NODE_UNKNOWN UINT32_MAX
#define NODE_NONE (UINT32_MAX - 1)

struct residue {
	size_t n;            /* leaves: windows r + j h with r + j h + span <= m */
	uint32_t *c;         /* the window's candidate, 0 when none */
	double *q, *p;       /* its divergence; its p away from the ends */
	unsigned char *have; /* 1: c and q known, 2: p too */
	uint32_t *node;      /* a node's best leaf, NODE_UNKNOWN or NODE_NONE */
};

struct windows {
	const struct series *sr;
	struct energy *e;
	const struct history_params *p;
	size_t h, span;
	struct residue *res; /* h of them, filled when first used */
};

static void windows_init(struct windows *w, const struct series *sr,
			 struct energy *e, const struct history_params *p)
{
	w->sr = sr;
	w->e = e;
	w->p = p;
	w->span = span_of(p);
	w->h = w->span / 2;
	/* no residue has a leaf when no window fits the series */
	w->res = w->span <= sr->m ? xcalloc(w->h, sizeof(*w->res)) : NULL;
}

static void windows_release(struct windows *w)
{
	size_t r;

	for (r = 0; w->res && r < w->h; r++) {
		free(w->res[r].c);
		free(w->res[r].q);
		free(w->res[r].p);
		free(w->res[r].have);
		free(w->res[r].node);
	}
	free(w->res);
}

static struct residue *residue_of(struct windows *w, size_t r)
{
	struct residue *rs = &w->res[r];

	if (!rs->c) {
		size_t n = (w->sr->m - w->span - r) / w->h + 1;

		rs->n = n;
		rs->c = xmalloc(st_mult(n, sizeof(*rs->c)));
		rs->q = xmalloc(st_mult(n, sizeof(*rs->q)));
		rs->p = xcalloc(n, sizeof(*rs->p)); /* read, unused, by the permutation test */
		rs->have = xcalloc(n, 1);
		rs->node = xmalloc(st_mult(2 * n, sizeof(*rs->node)));
		memset(rs->node, 0xff, 2 * n * sizeof(*rs->node));
	}
	return rs;
}

/* the full-size window at w0: its candidate (0 none), *q its divergence */
static size_t window_at(struct windows *w, size_t w0, double *q)
{
	struct residue *rs = residue_of(w, w0 % w->h);
	size_t j = w0 / w->h;

	if (!rs->have[j]) {
		const struct series *sr = w->sr;
		size_t w1 = w0 + w->span;

		energy_grow(w->e, sr->start[w1] - sr->start[w0], w->span);
		rs->c[j] = (uint32_t)energy_best(w->e, sr->z + sr->start[w0],
						 sr->rank + sr->start[w0],
						 sr->start, w0, w1,
						 w->p->min_segment, &rs->q[j],
						 NULL, 0);
		rs->have[j] = 1;
	}
	*q = rs->q[j];
	return rs->c[j];
}

/* leaf j of residue r as a tree's leaf: itself, or NODE_NONE */
static uint32_t leaf(struct windows *w, size_t r, size_t j)
{
	struct residue *rs = &w->res[r];
	double q;
	size_t c = window_at(w, r + j * w->h, &q);

	if (!c)
		return NODE_NONE;
	if (rs->have[j] < 2 && w->p->test == HISTORY_TTEST) {
		struct test_out t;

		/* away from the ends: the segment's bounds do not matter */
		test_split(w->sr, w->e, 0, c, w->sr->m, w->p, false, &t);
		rs->p[j] = t.p;
		rs->have[j] = 2;
	}
	return (uint32_t)j;
}

/*
 * Whether candidate (bp, bq) beats the earlier (ap, aq): best_split's
 * order -- the smaller p, then the larger divergence (the t-test), or the
 * larger divergence alone (the permutation test); an earlier one wins a
 * tie.
 */
static bool beats(const struct history_params *p, double bp, double bq,
		  double ap, double aq)
{
	if (p->test == HISTORY_PERMUTATION)
		return bq > aq;
	return bp < ap || (bp == ap && bq > aq);
}

static uint32_t better_leaf(struct windows *w, struct residue *rs, uint32_t a,
			    uint32_t b)
{
	if (a == NODE_NONE)
		return b;
	if (b == NODE_NONE)
		return a;
	return beats(w->p, rs->p[b], rs->q[b], rs->p[a], rs->q[a]) ? b : a;
}

/*
 * The best leaf of [ql, qr) below node v, which covers [nl, nr) (its
 * children v + 1 and v + 2 (mid - nl)); NODE_NONE when none.
 */
static uint32_t tree_best(struct windows *w, size_t r, size_t v, size_t nl,
			  size_t nr, size_t ql, size_t qr)
{
	struct residue *rs = &w->res[r];
	size_t mid = nl + (nr - nl) / 2;
	uint32_t a, b;
	bool all = ql <= nl && nr <= qr;

	if (qr <= nl || nr <= ql)
		return NODE_NONE;
	if (all && rs->node[v] != NODE_UNKNOWN)
		return rs->node[v];
	if (nr - nl == 1) {
		a = leaf(w, r, nl);
	} else {
		a = tree_best(w, r, v + 1, nl, mid, ql, qr);
		b = tree_best(w, r, v + 2 * (mid - nl), mid, nr, ql, qr);
		a = better_leaf(w, rs, a, b);
	}
	if (all)
		rs->node[v] = a;
	return a;
}

struct pick {
	size_t c;
	double p, q;
};

static void consider(const struct history_params *p, struct pick *best,
		     size_t c, double tp, double q)
{
	if (c && (!best->c || beats(p, tp, q, best->p, best->q))) {
		best->c = c;
		best->p = tp;
		best->q = q;
	}
}

/* window k of the segment [lo, hi), all its windows' test its own */
static void consider_window(struct windows *w, struct pick *best, size_t lo,
			    size_t hi, size_t w0)
{
	struct test_out t;
	double q;
	size_t c = window_at(w, w0, &q);

	t.p = 0;
	if (c && w->p->test == HISTORY_TTEST)
		test_split(w->sr, w->e, lo, c, hi, w->p, false, &t);
	consider(w->p, best, c, t.p, q);
}

/*
 * best_split_plain()'s answer from the remembered windows: the windows
 * near either end of the segment one by one (their tests depend on it),
 * the middle ones from the residue's tree, in the same order.
 */
static size_t best_split(struct windows *w, size_t lo, size_t hi,
			 struct test_out *out)
{
	const struct history_params *p = w->p;
	size_t h = w->h, span = w->span, k, r = lo % h, j0 = lo / h;
	size_t nfull = full_windows(lo, hi, span), mid_lo = nfull, mid_hi = nfull;
	struct pick best = { 0, 0, 0 };

	if (hi - lo < 2 * p->min_segment)
		return 0;
	if (p->test == HISTORY_PERMUTATION) {
		/* the divergence alone decides: every full window is a leaf */
		mid_lo = 0;
	} else if (hi >= lo + span + p->window + 1) {
		/* candidates more than W from lo and from hi */
		mid_lo = (p->window + 1 + h - 1) / h;
		mid_hi = (hi - lo - span - p->window - 1) / h + 1;
		if (mid_hi > nfull)
			mid_hi = nfull;
		if (mid_lo > mid_hi)
			mid_lo = mid_hi;
	}
	for (k = 0; k < mid_lo; k++)
		consider_window(w, &best, lo, hi, lo + k * h);
	if (mid_lo < mid_hi) {
		struct residue *rs = residue_of(w, r);
		uint32_t b = tree_best(w, r, 0, 0, rs->n, j0 + mid_lo, j0 + mid_hi);

		if (b != NODE_NONE)
			consider(p, &best, rs->c[b], rs->p[b], rs->q[b]);
	}
	for (k = mid_hi; k < nfull; k++)
		consider_window(w, &best, lo, hi, lo + k * h);
	if (hi - lo > span) {
		consider_window(w, &best, lo, hi, hi - span);
	} else {
		/* the one window is the whole segment: not a leaf */
		struct energy *e = w->e;
		const struct series *sr = w->sr;
		struct test_out t;
		double q;
		size_t c;

		energy_grow(e, sr->start[hi] - sr->start[lo], hi - lo);
		c = energy_best(e, sr->z + sr->start[lo], sr->rank + sr->start[lo],
				sr->start, lo, hi, p->min_segment, &q, NULL, 0);
		t.p = 0;
		if (c && p->test == HISTORY_TTEST)
			test_split(sr, e, lo, c, hi, p, false, &t);
		consider(p, &best, c, t.p, q);
	}
	if (best.c)
		test_split(w->sr, w->e, lo, best.c, hi, p, false, out);
	return best.c;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* the change points of the cleaned series, sorted (count returned) */
static size_t segment(const struct series *sr, struct energy *e,
		      const struct history_params *p, bool plain, size_t **out)
{
	size_t *cps = NULL, ncp = 0, alloc = 0;
	size_t (*stack)[2] = NULL, nstack = 0, alloc_stack = 0;
	struct windows w;

	windows_init(&w, sr, e, p);
	ALLOC_GROW(stack, 1, alloc_stack);
	stack[nstack][0] = 0;
	stack[nstack][1] = sr->m;
	nstack++;
	while (nstack) {
		size_t lo = stack[nstack - 1][0], hi = stack[nstack - 1][1], c;
		struct test_out t;

		nstack--;
		c = plain ? best_split_plain(sr, e, lo, hi, p, &t) :
			    best_split(&w, lo, hi, &t);
		if (!c || !passes(&t, p))
			continue;
		ALLOC_GROW(cps, ncp + 1, alloc);
		cps[ncp++] = c;
		ALLOC_GROW(stack, nstack + 2, alloc_stack);
		stack[nstack][0] = lo;
		stack[nstack][1] = c;
		stack[nstack + 1][0] = c;
		stack[nstack + 1][1] = hi;
		nstack += 2;
	}
	windows_release(&w);
	free(stack);
	if (ncp)
		qsort(cps, ncp, sizeof(*cps), cmp_size);
	*out = cps;
	return ncp;
}

/*
 * Each change point again, between its final neighbours: the weakest one
 * that no longer passes is dropped, until every one does.  t[] gets the
 * final tests.  The plain pruning, as first written: every change point
 * retested in every round.
 */
static size_t prune_plain(const struct series *sr, struct energy *e,
			  const struct history_params *p, size_t *cps,
			  size_t ncp, struct test_out **tout)
{
	struct test_out *t = xcalloc(ncp ? ncp : 1, sizeof(*t));

	for (;;) {
		size_t i, worst = ncp;
		double worst_p = -1;

		for (i = 0; i < ncp; i++) {
			size_t lo = i ? cps[i - 1] : 0;
			size_t hi = i + 1 < ncp ? cps[i + 1] : sr->m;

			test_split(sr, e, lo, cps[i], hi, p, true, &t[i]);
			if (!passes(&t[i], p) && t[i].p > worst_p) {
				worst_p = t[i].p;
				worst = i;
			}
		}
		if (worst == ncp)
			break;
		memmove(cps + worst, cps + worst + 1,
			(ncp - worst - 1) * sizeof(*cps));
		ncp--;
	}
	*tout = t;
	return ncp;
}

/*
 * prune_plain()'s answer in O(n log n): a test depends only on its change
 * point's neighbours, so a drop retests the two beside it, and a tree
 * over the change points keeps the weakest failing one (the largest p,
 * the first on a tie, as a plain round finds it).
 */
struct prune_state {
	const struct series *sr;
	struct energy *e;
	const struct history_params *p;
	const size_t *cps;
	size_t *prev, *next; /* neighbours still in, SIZE_MAX at the ends */
	struct test_out *t;
	double *key;         /* p when failing, -1 when passing or dropped */
	size_t *tree, size;  /* leaf i at size + i: i, or SIZE_MAX when dropped */
};

static void prune_retest(struct prune_state *s, size_t i)
{
	size_t lo = s->prev[i] == SIZE_MAX ? 0 : s->cps[s->prev[i]];
	size_t hi = s->next[i] == SIZE_MAX ? s->sr->m : s->cps[s->next[i]];

	test_split(s->sr, s->e, lo, s->cps[i], hi, s->p, true, &s->t[i]);
	s->key[i] = !passes(&s->t[i], s->p) && s->t[i].p > -1 ? s->t[i].p : -1;
}

/* node v again from its children: the larger key, the earlier on a tie */
static void prune_node(struct prune_state *s, size_t v)
{
	size_t a = s->tree[2 * v], b = s->tree[2 * v + 1];

	s->tree[v] = b == SIZE_MAX || (a != SIZE_MAX && s->key[a] >= s->key[b]) ?
		     a : b;
}

static void prune_update(struct prune_state *s, size_t i)
{
	size_t v;

	for (v = (s->size + i) / 2; v >= 1; v /= 2)
		prune_node(s, v);
}

static size_t prune(const struct series *sr, struct energy *e,
		    const struct history_params *p, size_t *cps, size_t ncp,
		    struct test_out **tout)
{
	struct prune_state s;
	size_t i, k;

	s.sr = sr;
	s.e = e;
	s.p = p;
	s.cps = cps;
	s.t = xcalloc(ncp ? ncp : 1, sizeof(*s.t));
	s.prev = xmalloc((ncp + 1) * sizeof(size_t));
	s.next = xmalloc((ncp + 1) * sizeof(size_t));
	s.key = xmalloc((ncp + 1) * sizeof(double));
	for (s.size = 1; s.size < ncp; s.size *= 2)
		;
	s.tree = xmalloc(2 * s.size * sizeof(size_t));
	for (i = 0; i < ncp; i++) {
		s.prev[i] = i ? i - 1 : SIZE_MAX;
		s.next[i] = i + 1 < ncp ? i + 1 : SIZE_MAX;
		prune_retest(&s, i);
	}
	for (i = 0; i < s.size; i++)
		s.tree[s.size + i] = i < ncp ? i : SIZE_MAX;
	for (i = s.size - 1; i >= 1; i--)
		prune_node(&s, i);
	for (;;) {
		size_t worst = s.tree[1], before, after;

		if (worst == SIZE_MAX || !(s.key[worst] > -1))
			break;
		before = s.prev[worst];
		after = s.next[worst];
		if (before != SIZE_MAX)
			s.next[before] = after;
		if (after != SIZE_MAX)
			s.prev[after] = before;
		s.tree[s.size + worst] = SIZE_MAX;
		prune_update(&s, worst);
		if (before != SIZE_MAX) {
			prune_retest(&s, before);
			prune_update(&s, before);
		}
		if (after != SIZE_MAX) {
			prune_retest(&s, after);
			prune_update(&s, after);
		}
	}
	/* the survivors, in order, with their last tests */
	for (i = 0, k = 0; i < ncp; i++) {
		if (s.tree[s.size + i] == SIZE_MAX)
			continue;
		cps[k] = cps[i];
		s.t[k++] = s.t[i];
	}
	free(s.prev);
	free(s.next);
	free(s.tree);
	free(s.key);
	*tout = s.t;
	return k;
}

/* ---- outliers ---- */

#define OUTLIER_SIDE 3 /* commits each side that say what is normal */

/*
 * The median of the runs of commits [a, b) except those marked gone,
 * NAN when there are none.  buf holds enough room.
 */
static double side_median(const struct history_point *pts, size_t a, size_t b,
			  double *buf)
{
	size_t i, j, k = 0;

	for (i = a; i < b; i++)
		for (j = 0; j < pts[i].n; j++)
			if (isfinite(pts[i].v[j]))
				buf[k++] = pts[i].v[j];
	return median_inplace(buf, k);
}

static void find_outliers(const struct history_point *pts, size_t n,
			  const struct history_params *p,
			  struct history_result *res, bool **gone_out)
{
	size_t i, j, total = 0, nd = 0, maxside = 0;
	double *ml, *mr, *dev, *buf, scale;
	bool *gone;
	size_t *first;

	first = xcalloc(n + 1, sizeof(*first));
	for (i = 0; i < n; i++) {
		first[i] = total;
		total += pts[i].n;
	}
	first[n] = total;
	gone = xcalloc(total ? total : 1, sizeof(*gone));
	*gone_out = gone;
	ml = xmalloc((n ? n : 1) * sizeof(double));
	mr = xmalloc((n ? n : 1) * sizeof(double));
	for (i = 0; i < n; i++) {
		size_t a = i > OUTLIER_SIDE ? i - OUTLIER_SIDE : 0;
		size_t b = i + 1 + OUTLIER_SIDE < n ? i + 1 + OUTLIER_SIDE : n;

		if (first[i] - first[a] > maxside)
			maxside = first[i] - first[a];
		if (first[b] - first[i + 1] > maxside)
			maxside = first[b] - first[i + 1];
	}
	buf = xmalloc((maxside + total + 1) * sizeof(double));
	dev = buf + maxside + 1;
	for (i = 0; i < n; i++) {
		size_t a = i > OUTLIER_SIDE ? i - OUTLIER_SIDE : 0;
		size_t b = i + 1 + OUTLIER_SIDE < n ? i + 1 + OUTLIER_SIDE : n;

		ml[i] = side_median(pts, a, i, buf);
		mr[i] = side_median(pts, i + 1, b, buf);
	}
	/* the scale: the median distance of a run from its left side */
	for (i = 0; i < n; i++)
		for (j = 0; j < pts[i].n; j++)
			if (isfinite(pts[i].v[j]) && isfinite(ml[i]))
				dev[nd++] = fabs(pts[i].v[j] - ml[i]);
	scale = nd ? 1.4826 * median_inplace(dev, nd) : 0;
	if (!(scale > 0)) {
		/* a constant series: any other value stands out */
		double level = nd ? fabs(ml[n - 1]) : 0;

		scale = level > 0 ? 1e-9 * level : 1e-300;
	}
	res->noise = scale;
	for (i = 0; i < n; i++) {
		for (j = 0; j < pts[i].n; j++) {
			double x = pts[i].v[j], dl, dr, d, e;
			struct history_outlier *o;

			if (!isfinite(x)) {
				gone[first[i] + j] = true;
				continue;
			}
			dl = isfinite(ml[i]) ? fabs(x - ml[i]) : INFINITY;
			dr = isfinite(mr[i]) ? fabs(x - mr[i]) : INFINITY;
			d = dl < dr ? dl : dr;
			e = dl < dr ? ml[i] : mr[i];
			if (!isfinite(d) || d <= p->outlier_sd * scale)
				continue;
			gone[first[i] + j] = true;
			ALLOC_GROW(res->outliers, res->noutliers + 1,
				   res->alloc_outliers);
			o = &res->outliers[res->noutliers++];
			o->index = i;
			o->run = j;
			o->value = x;
			o->expected = e;
		}
	}
	free(ml);
	free(mr);
	free(buf);
	free(first);
}

/* ---- the whole ---- */

static void detect(const struct history_point *pts, size_t n,
		   const struct history_params *p, struct history_result *res,
		   bool plain)
{
	struct series sr;
	struct energy e;
	struct test_out *t = NULL;
	bool *gone;
	size_t i, j, k, total = 0, g = 0, *cps = NULL, ncp;

	history_result_init(res);
	find_outliers(pts, n, p, res, &gone);
	for (i = 0; i < n; i++)
		total += pts[i].n;
	memset(&sr, 0, sizeof(sr));
	sr.orig = xmalloc((n + 1) * sizeof(size_t));
	sr.start = xmalloc((n + 1) * sizeof(size_t));
	sr.z = xmalloc((total + 1) * sizeof(double));
	sr.mean = xmalloc((n + 1) * sizeof(double));
	for (i = 0, k = 0; i < n; i++) {
		size_t k0 = k;

		for (j = 0; j < pts[i].n; j++, g++)
			if (!gone[g])
				sr.z[k++] = pts[i].v[j];
		if (k == k0)
			continue; /* every run an outlier: the commit is out */
		sr.orig[sr.m] = i;
		sr.start[sr.m++] = k0;
	}
	sr.start[sr.m] = k;
	sr.ntotal = k;
	/*
	 * One sort: every run's rank (the energy statistic's trees), and the
	 * median the runs are centred on, so the rank sums do not cancel
	 * digits.
	 */
	sr.rank = xmalloc((k + 1) * sizeof(size_t));
	if (k) {
		struct ranked *o = xmalloc(k * sizeof(*o));

		for (i = 0; i < k; i++) {
			o[i].v = sr.z[i];
			o[i].i = i;
		}
		qsort(o, k, sizeof(*o), cmp_ranked);
		for (i = 0; i < k; i++)
			sr.rank[o[i].i] = i + 1;
		sr.centre = k % 2 ? o[k / 2].v : (o[k / 2 - 1].v + o[k / 2].v) / 2;
		free(o);
	}
	for (i = 0; i < k; i++)
		sr.z[i] -= sr.centre;
	energy_init(&e, k);
	for (i = 0; i < sr.m; i++) {
		double s = 0;

		for (j = sr.start[i]; j < sr.start[i + 1]; j++)
			s += sr.z[j];
		sr.mean[i] = s / (double)(sr.start[i + 1] - sr.start[i]);
	}

	/* a leaf's candidate is kept in 32 bits */
	if (sr.m >= NODE_NONE)
		plain = true;
	ncp = segment(&sr, &e, p, plain, &cps);
	ncp = (plain ? prune_plain : prune)(&sr, &e, p, cps, ncp, &t);
	for (i = 0; i < ncp; i++) {
		struct history_change *c;

		ALLOC_GROW(res->changes, res->nchanges + 1, res->alloc_changes);
		c = &res->changes[res->nchanges++];
		c->index = sr.orig[cps[i]];
		c->before = t[i].before;
		c->after = t[i].after;
		c->change_pct = t[i].change_pct;
		c->ci_lo = t[i].ci_lo;
		c->ci_hi = t[i].ci_hi;
		c->p = t[i].p;
		c->nbefore = t[i].nbefore;
		c->nafter = t[i].nafter;
	}
	free(t);
	free(cps);
	free(gone);
	free(sr.orig);
	free(sr.start);
	free(sr.z);
	free(sr.rank);
	free(sr.mean);
	energy_release(&e);
}

void history_detect(const struct history_point *pts, size_t n,
		    const struct history_params *p, struct history_result *res)
{
	detect(pts, n, p, res, false);
}

void history_detect_reference(const struct history_point *pts, size_t n,
			      const struct history_params *p,
			      struct history_result *res)
{
	detect(pts, n, p, res, true);
}

/* ---- directions ---- */

int history_direction(struct stat_rules *rules, const char *testcase,
		      const char *stat, bool *is_kpi)
{
	/*
	 * a KPI as compare has it (stat_is_kpi: the declared ones, else the
	 * testcase's and mytest's own stats, not the time monitor's); the
	 * caller has set rules to the job's (a CSV column has no job)
	 */
	*is_kpi = testcase && stat_is_kpi(rules, stat);
	return stat_direction(rules, stat);
}

bool history_is_outlier(const struct history_result *r, size_t index,
			size_t run)
{
	size_t lo = 0, hi = r->noutliers;

	/* by index, then run: a binary search (asked once per run) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct history_outlier *o = &r->outliers[mid];

		if (o->index < index || (o->index == index && o->run < run))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->noutliers && r->outliers[lo].index == index &&
	       r->outliers[lo].run == run;
}

const char *history_effect(int direction, double change_pct)
{
	if (!direction || change_pct == 0 || isnan(change_pct))
		return "undefined";
	return (double)direction * change_pct < 0 ? "regression" : "improvement";
}

/* ---- synthetic series ---- */

double history_gauss(uint64_t *rng)
{
	double u, v;

	/* Box-Muller on two uniforms in (0, 1) */
	u = ((double)(stats_splitmix64(rng) >> 11) + 0.5) / 9007199254740992.0;
	v = ((double)(stats_splitmix64(rng) >> 11) + 0.5) / 9007199254740992.0;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

void history_synth(uint64_t *rng, size_t ncommits, size_t nruns,
		   size_t nsteps, double min_sd, double max_sd, size_t gap,
		   double *values, size_t *at)
{
	size_t i, j, k;
	double level = 100;

	/* step positions: drawn until every gap holds (rejection) */
	for (;;) {
		bool ok = true;

		for (k = 0; k < nsteps; k++)
			at[k] = gap + (size_t)(stats_splitmix64(rng) %
					       (ncommits - 2 * gap));
		qsort(at, nsteps, sizeof(*at), cmp_size);
		for (k = 1; k < nsteps; k++)
			ok = ok && at[k] - at[k - 1] >= gap;
		if (ok)
			break;
	}
	for (i = 0, k = 0; i < ncommits; i++) {
		if (k < nsteps && at[k] == i) {
			double u = (double)(stats_splitmix64(rng) >> 11) /
				   9007199254740992.0;
			double mag = min_sd + (max_sd - min_sd) * u;

			level += stats_splitmix64(rng) & 1 ? mag : -mag;
			k++;
		}
		for (j = 0; j < nruns; j++)
			values[i * nruns + j] = level + history_gauss(rng);
	}
}
