/*
 * statistics.c: the statistics perfsift adds beyond LKP's rules (stats.h):
 * display mean and stddev, Welch's t, Mann-Whitney U, the bootstrap
 * interval, the moderated t of the noise guard, Benjamini-Hochberg
 * q-values and the verdicts.
 *
 * Why it stays in result/: it knows numbers, not stat names or LKP's
 * tables, and every stage that reads results uses it (compare, bisect,
 * history); LKP's rules and change test are compare-stage logic and live
 * in compare/rules.c and compare/lkp_change.c.  Pure computation: no
 * I/O, no globals; per-stat buffers live in the caller's scratch.
 */
#include "util/compat.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_psi.h>
#include "result/stats.h"
#include "util/hash.h"
#include "util/xalloc.h"

/* ---- display numbers ---- */

double stats_mean(const double *v, size_t n)
{
	double sum = 0;
	size_t i;

	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

/*
 * The population stddev (divided by n, not n - 1): LKP's table shows it,
 * and the table must read the same as LKP's for the same runs.
 */
double stats_stddev(const double *v, size_t n, double mean)
{
	double ss = 0;
	size_t i;

	if (n <= 1)
		return -1;
	for (i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return sqrt(ss / (double)n);
}

/* ---- beyond LKP ---- */

void stats_scratch_init(struct stats_scratch *s)
{
	memset(s, 0, sizeof(*s));
}

void stats_scratch_release(struct stats_scratch *s)
{
	free(s->buf);
	free(s->mwu_cdf);
	memset(s, 0, sizeof(*s));
}

/* grown, never shrunk: the next stat of a comparison needs as much */
static double *scratch_buf(struct stats_scratch *s, size_t n)
{
	ALLOC_GROW(s->buf, n, s->alloc);
	return s->buf;
}

/* mean and sample variance (n - 1): the tests' estimate, not LKP's */
static void mean_var(const double *v, size_t n, double *mean, double *var)
{
	double m = stats_mean(v, n), ss = 0;
	size_t i;

	for (i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	*mean = m;
	*var = n > 1 ? ss / (double)(n - 1) : 0;
}

/*
 * Welch, not Student: the base and the head are different kernels whose
 * noise need not be the same, and the test must not assume it is.
 */
double stats_welch_p(const double *a, size_t na, const double *b, size_t nb)
{
	double ma, va, mb, vb, sa, sb, se2, t, df, scale;

	if (na < 2 || nb < 2)
		return 1;
	mean_var(a, na, &ma, &va);
	mean_var(b, nb, &mb, &vb);
	sa = va / (double)na;
	sb = vb / (double)nb;
	se2 = sa + sb;
	/* variance below rounding noise of the means: treat as exact */
	scale = fmax(fabs(ma), fabs(mb));
	if (se2 <= 0 || sqrt(se2) <= 1e-12 * scale)
		return ma == mb || fabs(ma - mb) <= 1e-12 * scale ? 1 : 0;
	t = (ma - mb) / sqrt(se2);
	df = se2 * se2 / (sa * sa / (double)(na - 1) +
			  sb * sb / (double)(nb - 1));
	return fmin(1, 2 * gsl_cdf_tdist_Q(fabs(t), df));
}

/* ---- the noise guard: a moderated t (stats.h) ---- */

void stats_noise_prior_init(struct stats_noise_prior *np, size_t na,
			    size_t nb)
{
	memset(np, 0, sizeof(*np));
	np->na = na;
	np->nb = nb;
	np->d = na + nb >= 2 ? (double)(na + nb - 2) : 0;
}

double stats_rel_var(const double *a, size_t na, const double *b, size_t nb)
{
	double ma, va, mb, vb;

	/* one run on a side is fine: the other side gives the noise */
	if (!na || !nb || na + nb < 3)
		return -1;
	mean_var(a, na, &ma, &va);
	mean_var(b, nb, &mb, &vb);
	if (mb == 0 || !isfinite(va) || !isfinite(vb))
		return -1;
	return (va * (double)(na - 1) + vb * (double)(nb - 1)) /
	       (double)(na + nb - 2) / (mb * mb);
}

void stats_noise_prior_add(struct stats_noise_prior *np, double rel_var)
{
	double z;

	if (!(rel_var > 0) || !isfinite(rel_var))
		return; /* constant stats carry no noise to learn from */
	z = log(rel_var);
	np->sum_z += z;
	np->sum_z2 += z * z;
	np->n++;
}

/* the y with trigamma(y) = x: Newton's method as in limma */
static double trigamma_inverse(double x)
{
	double y;
	int i;

	if (x > 1e7)
		return 1 / sqrt(x);
	if (x < 1e-6)
		return 1 / x;
	y = 0.5 + 1 / x;
	for (i = 0; i < 50; i++) {
		double tri = gsl_sf_psi_1(y);
		double dif = tri * (1 - tri / x) / gsl_sf_psi_n(2, y);

		y += dif;
		if (-dif / y < 1e-8)
			break;
	}
	return y;
}

/*
 * Smyth's moment estimate: log s^2 has mean log s0^2 + psi(d/2) -
 * log(d/2) - psi(d0/2) + log(d0/2) and variance psi'(d/2) + psi'(d0/2).
 */
void stats_noise_prior_fit(struct stats_noise_prior *np)
{
	double n = (double)np->n, zmean, zvar, emean, evar;

	np->d0 = 0;
	np->s02 = 0;
	if (np->n < 3 || np->d <= 0)
		return;
	zmean = np->sum_z / n;
	zvar = (np->sum_z2 - n * zmean * zmean) / (n - 1);
	emean = zmean - gsl_sf_psi(np->d / 2) + log(np->d / 2);
	evar = zvar - gsl_sf_psi_1(np->d / 2);
	if (evar > 0) {
		np->d0 = 2 * trigamma_inverse(evar);
		np->s02 = exp(emean + gsl_sf_psi(np->d0 / 2) - log(np->d0 / 2));
	} else {
		np->d0 = INFINITY;
		np->s02 = exp(emean);
	}
}

double stats_moderated_p(const struct stats_noise_prior *np, const double *a,
			 const double *b)
{
	double ma = stats_mean(a, np->na), mb = stats_mean(b, np->nb);
	double s2 = stats_rel_var(a, np->na, b, np->nb), post, t, df;

	/* no relative variance (a zero base mean): nothing to shrink */
	if (s2 < 0)
		return stats_welch_p(a, np->na, b, np->nb);
	/* the posterior variance: the prior's d0 "runs" of s0^2 pooled with
	 * the stat's own d; an infinite d0 means all stats share s0^2 */
	if (isinf(np->d0))
		post = np->s02;
	else
		post = (np->d0 * np->s02 + np->d * s2) / (np->d0 + np->d);
	if (!(post > 0))
		return ma == mb ? 1 : 0;
	t = (ma - mb) / fabs(mb) /
	    sqrt(post * (1 / (double)np->na + 1 / (double)np->nb));
	df = np->d + np->d0;
	/* GSL's t takes no infinite df: that limit is the normal */
	if (isinf(df))
		return fmin(1, 2 * gsl_cdf_ugaussian_Q(fabs(t)));
	return fmin(1, 2 * gsl_cdf_tdist_Q(fabs(t), df));
}

struct ranked {
	double v;
	int from_a;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	return (a->v > b->v) - (a->v < b->v);
}

/* P(U <= u) for sizes (m, n) without ties, into s->mwu_cdf */
static void mwu_exact_cdf(struct stats_scratch *s, size_t m, size_t n)
{
	size_t umax = m * n, i, j, u;
	double *f, *g, total = 0;

	if (s->mwu_cdf && s->mwu_na == m && s->mwu_nb == n)
		return;
	free(s->mwu_cdf);
	/* f[j][u]: arrangements of i a's and j b's with U = u, built up in i */
	f = xcalloc((n + 1) * (umax + 1), sizeof(double));
	g = xcalloc((n + 1) * (umax + 1), sizeof(double));
	for (j = 0; j <= n; j++)
		f[j * (umax + 1)] = 1; /* i = 0: U = 0 */
	for (i = 1; i <= m; i++) {
		memset(g, 0, (n + 1) * (umax + 1) * sizeof(double));
		for (j = 0; j <= n; j++)
			for (u = 0; u <= umax; u++) {
				/* last element an a (beats j b's) or a b */
				double v = 0;

				if (u >= j)
					v += f[j * (umax + 1) + u - j];
				if (j)
					v += g[(j - 1) * (umax + 1) + u];
				g[j * (umax + 1) + u] = v;
			}
		memcpy(f, g, (n + 1) * (umax + 1) * sizeof(double));
	}
	s->mwu_cdf = xcalloc(umax + 1, sizeof(double));
	for (u = 0; u <= umax; u++)
		total += f[n * (umax + 1) + u];
	for (u = 0; u <= umax; u++)
		s->mwu_cdf[u] = (u ? s->mwu_cdf[u - 1] : 0) +
				f[n * (umax + 1) + u] / total;
	free(f);
	free(g);
	s->mwu_na = m;
	s->mwu_nb = n;
}

/*
 * Exact two-sided p with ties: enumerate the null distribution of the
 * doubled rank sum of a over all C(N, na) subsets by counting (N <= 14).
 */
static double mwu_exact_ties(const int *r2, size_t N, size_t na, int obs2)
{
	size_t maxsum = 0, i, k, sidx;
	double *cnt, total = 0, ge = 0;
	double mean2;

	for (i = 0; i < N; i++)
		maxsum += (size_t)r2[i];
	cnt = xcalloc((na + 1) * (maxsum + 1), sizeof(double));
	cnt[0] = 1;
	for (i = 0; i < N; i++)
		for (k = (i + 1 < na ? i + 1 : na); k >= 1; k--)
			for (sidx = maxsum; sidx >= (size_t)r2[i]; sidx--)
				cnt[k * (maxsum + 1) + sidx] +=
					cnt[(k - 1) * (maxsum + 1) + sidx -
					    (size_t)r2[i]];
	mean2 = (double)na * (double)(N + 1); /* E[doubled rank sum] */
	for (sidx = 0; sidx <= maxsum; sidx++) {
		double c = cnt[na * (maxsum + 1) + sidx];

		total += c;
		/* two-sided: as far from the mean as observed, or further */
		if (fabs((double)sidx - mean2) >= fabs((double)obs2 - mean2) - 1e-9)
			ge += c;
	}
	free(cnt);
	return total > 0 ? fmin(1, ge / total) : 1;
}

double stats_mwu_p(struct stats_scratch *s, const double *a, size_t na,
		   const double *b, size_t nb, double *u_out)
{
	size_t N = na + nb, i, j;
	struct ranked stack[64], *all = stack;
	int r2stack[64], *r2 = r2stack;
	double ra2 = 0, u, tie_term = 0, p;
	bool ties = false;

	if (u_out)
		*u_out = 0;
	if (!na || !nb)
		return 1;
	if (N > ARRAY_SIZE(stack)) {
		all = xmalloc(N * sizeof(*all));
		r2 = xmalloc(N * sizeof(*r2));
	}
	for (i = 0; i < na; i++) {
		all[i].v = a[i];
		all[i].from_a = 1;
	}
	for (i = 0; i < nb; i++) {
		all[na + i].v = b[i];
		all[na + i].from_a = 0;
	}
	qsort(all, N, sizeof(*all), cmp_ranked);
	/*
	 * Doubled midranks: ranks i+1 .. j share (i+1 + j).  Doubling keeps
	 * a tied rank an integer, so the exact distribution with ties can
	 * count rank sums in an integer-indexed table.
	 */
	for (i = 0; i < N; i = j) {
		size_t t;

		for (j = i + 1; j < N && all[j].v == all[i].v; j++)
			;
		t = j - i;
		if (t > 1) {
			ties = true;
			tie_term += (double)t * (double)t * (double)t - (double)t;
		}
		for (size_t k = i; k < j; k++)
			r2[k] = (int)(i + 1 + j);
	}
	for (i = 0; i < N; i++)
		if (all[i].from_a)
			ra2 += r2[i];
	u = ra2 / 2 - (double)na * (double)(na + 1) / 2;
	if (u_out)
		*u_out = u;
	if (tie_term == (double)N * N * N - (double)N) {
		p = 1; /* every value equal */
	} else if (!ties && N <= 20) {
		size_t ui = (size_t)llround(u);
		double lo, hi;

		mwu_exact_cdf(s, na, nb);
		lo = s->mwu_cdf[ui];
		hi = 1 - (ui ? s->mwu_cdf[ui - 1] : 0);
		p = fmin(1, 2 * fmin(lo, hi));
	} else if (ties && N <= 14) {
		p = mwu_exact_ties(r2, N, na, (int)llround(ra2));
	} else {
		double mu = (double)na * (double)nb / 2;
		double sigma2 = (double)na * (double)nb / 12 *
				((double)(N + 1) - tie_term / ((double)N * (double)(N - 1)));
		double z;

		if (sigma2 <= 0) {
			p = 1;
		} else {
			z = (fabs(u - mu) - 0.5) / sqrt(sigma2);
			p = z <= 0 ? 1 : fmin(1, 2 * gsl_cdf_ugaussian_Q(z));
		}
	}
	if (all != stack) {
		free(all);
		free(r2);
	}
	return p;
}

uint64_t stats_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* a constant side resamples to itself: the bootstrap skips drawing it */
static bool constant(const double *v, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i] != v[0])
			return false;
	return true;
}

/*
 * Mean of n draws with replacement from v.  Each 64-bit output gives two
 * draws (its halves, mapped by multiply-shift: a bias of n / 2^32 at
 * most), which halves the bootstrap's cost.
 */
static double resample_mean(const double *v, size_t n, uint64_t *state)
{
	uint64_t m = (uint64_t)n;
	double sum = 0;
	size_t i;

	for (i = 0; i + 1 < n; i += 2) {
		uint64_t x = stats_splitmix64(state);

		sum += v[((x >> 32) * m) >> 32];
		sum += v[((x & 0xffffffffu) * m) >> 32];
	}
	if (i < n)
		sum += v[((stats_splitmix64(state) >> 32) * m) >> 32];
	return sum / (double)n;
}

/*
 * The lo-th smallest and the hi-th smallest of v[0..n) (0-based, lo <=
 * hi) when both lie in a short tail: one pass keeping the smallest lo + 1
 * and the largest n - hi values, sorted by insertion.  The bootstrap's
 * 2.5% and 97.5% points of 1,000 resamples need 25 values at each end;
 * two quickselects cost a fifth of the bootstrap.  false when a tail is
 * too long for this.
 */
#define TAIL_MAX 64
static bool select_tails(const double *v, size_t n, size_t lo, size_t hi,
			 double *vlo, double *vhi)
{
	double low[TAIL_MAX], high[TAIL_MAX];
	size_t nl = lo + 1, nh = n - hi, cl = 0, ch = 0, i, j;

	if (lo > hi || hi >= n || nl > TAIL_MAX || nh > TAIL_MAX)
		return false;
	for (i = 0; i < n; i++) {
		double x = v[i];

		/* low: ascending, the nl smallest so far */
		if (cl < nl || x < low[cl - 1]) {
			if (cl < nl)
				cl++;
			for (j = cl - 1; j > 0 && low[j - 1] > x; j--)
				low[j] = low[j - 1];
			low[j] = x;
		}
		/* high: descending, the nh largest so far */
		if (ch < nh || x > high[ch - 1]) {
			if (ch < nh)
				ch++;
			for (j = ch - 1; j > 0 && high[j - 1] < x; j--)
				high[j] = high[j - 1];
			high[j] = x;
		}
	}
	*vlo = low[nl - 1];
	*vhi = high[nh - 1];
	return true;
}

/*
 * Hoare's quickselect: the bootstrap needs two order statistics of
 * 1000 values per stat, and a full sort of each was most of its time.
 */
double stats_select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		double pivot = v[lo + (hi - lo) / 2];
		size_t i = lo, j = hi;

		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				double t = v[i];

				v[i] = v[j];
				v[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return v[k];
}

void stats_bootstrap_ci(struct stats_scratch *s, const double *a, size_t na,
			const double *b, size_t nb, const char *name,
			uint64_t seed, unsigned iters, double *lo, double *hi)
{
	uint64_t state = seed ^ fnv1a64(FNV1A64_INIT, name, strlen(name));
	double ma = stats_mean(a, na), mb = stats_mean(b, nb);
	bool ca = constant(a, na), cb = constant(b, nb);
	double *v;
	size_t k = 0, i, klo, khi;

	if (!na || !nb || mb == 0 || !iters) {
		*lo = -INFINITY;
		*hi = INFINITY;
		return;
	}
	if (ca && cb) {
		*lo = *hi = 100 * (ma - mb) / mb;
		return;
	}
	v = scratch_buf(s, iters);
	for (i = 0; i < iters; i++) {
		double xa = ca ? ma : resample_mean(a, na, &state);
		double xb = cb ? mb : resample_mean(b, nb, &state);

		if (xb == 0)
			continue;
		v[k++] = 100 * (xa - xb) / xb;
	}
	if (!k) {
		*lo = -INFINITY;
		*hi = INFINITY;
		return;
	}
	/* percentile interval: the 2.5% and 97.5% points */
	klo = (size_t)floor(0.025 * (double)(k - 1));
	khi = (size_t)ceil(0.975 * (double)(k - 1));
	if (!select_tails(v, k, klo, khi, lo, hi)) {
		*lo = stats_select_kth(v, k, klo);
		*hi = stats_select_kth(v, k, khi);
	}
}

struct pidx {
	double p;
	size_t i;
};

static int cmp_pidx(const void *pa, const void *pb)
{
	const struct pidx *a = pa, *b = pb;

	if (a->p != b->p)
		return (a->p > b->p) - (a->p < b->p);
	return (a->i > b->i) - (a->i < b->i);
}

/*
 * Benjamini-Hochberg step-up: q of the k-th smallest p is the least
 * p_j n / j over j >= k, so q is monotone in p.  A NaN p (no test) is
 * 1: it takes part in n but never looks significant.  Ties keep their
 * input order (cmp_pidx) so the q-values do not depend on qsort.
 */
void stats_bh_qvalues(const double *p, size_t n, double *q)
{
	struct pidx *v;
	double running = 1;
	size_t k;

	if (!n)
		return;
	v = xmalloc(n * sizeof(*v));
	for (k = 0; k < n; k++) {
		v[k].p = isnan(p[k]) ? 1 : p[k];
		v[k].i = k;
	}
	qsort(v, n, sizeof(*v), cmp_pidx);
	for (k = n; k-- > 0;) {
		double qk = v[k].p * (double)n / (double)(k + 1);

		if (qk < running)
			running = qk;
		q[v[k].i] = running;
	}
	free(v);
}

const char *stats_verdict_name(enum stats_verdict v)
{
	switch (v) {
	case VERDICT_CHANGED: return "changed";
	case VERDICT_SAME: return "same";
	case VERDICT_UNKNOWN: return "unknown";
	}
	return "?";
}

enum stats_verdict stats_verdict(double q, double ci_lo, double ci_hi,
				 double change_pct, double rel_noise_pct,
				 size_t n, const struct verdict_params *vp,
				 unsigned *more_runs)
{
	double d = fabs(change_pct), s = rel_noise_pct, need;

	*more_runs = 0;
	if (q <= vp->alpha && (ci_lo > 0 || ci_hi < 0))
		return VERDICT_CHANGED;
	if (ci_lo >= -vp->margin && ci_hi <= vp->margin)
		return VERDICT_SAME;
	/*
	 * Runs per side for the interval to clear 0 with 80% power (when the
	 * change is beyond the margin) or to fit inside the margin (when it
	 * is within): n = 2 (z s / gap)^2, normal approximation.
	 */
	if (!isfinite(s) || !isfinite(d) || s <= 0) {
		need = (double)n + 1;
	} else if (d >= vp->margin) {
		need = 2 * pow((1.96 + 0.84) * s / d, 2);
	} else {
		need = 2 * pow(1.96 * s / (vp->margin - d), 2);
	}
	if (need > (double)n + 999 || isnan(need))
		*more_runs = 999;
	else if (need <= (double)n)
		*more_runs = 1;
	else
		*more_runs = (unsigned)ceil(need - (double)n);
	return VERDICT_UNKNOWN;
}

/* ---- a KPI's verdict from the data's own noise ---- */

struct timed_run {
	double t;
	size_t i;
	bool head;
};

static int cmp_timed(const void *x, const void *y)
{
	const struct timed_run *a = x, *b = y;

	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	/* equal times: a stable order (head first, then index) */
	if (a->head != b->head)
		return a->head ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

size_t stats_pair_runs(const double *ta, size_t na, const double *tb,
		       size_t nb, double max_gap, size_t *pa, size_t *pb)
{
	struct timed_run *v = xcalloc(na + nb + 1, sizeof(*v));
	size_t n = 0, k, np = 0;

	for (k = 0; k < na; k++)
		if (isfinite(ta[k]))
			v[n++] = (struct timed_run){ ta[k], k, true };
	for (k = 0; k < nb; k++)
		if (isfinite(tb[k]))
			v[n++] = (struct timed_run){ tb[k], k, false };
	qsort(v, n, sizeof(*v), cmp_timed);
	if (!(max_gap > 0) && n > 1) {
		/* the runs' own pace: 3 x the median gap between starts */
		double *gap = xcalloc(n - 1, sizeof(*gap));

		for (k = 0; k + 1 < n; k++)
			gap[k] = v[k + 1].t - v[k].t;
		max_gap = 3 * stats_select_kth(gap, n - 1, (n - 1) / 2);
		free(gap);
	}
	for (k = 0; k + 1 < n; k++) {
		if (v[k].head == v[k + 1].head ||
		    !(v[k + 1].t - v[k].t <= max_gap))
			continue;
		pa[np] = v[k].head ? v[k].i : v[k + 1].i;
		pb[np] = v[k].head ? v[k + 1].i : v[k].i;
		np++;
		k++; /* both are used */
	}
	free(v);
	return np;
}

static bool all_positive(const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!(v[i] > 0))
			return false;
	return true;
}

/* the paired interval: a t interval on the pairs' log ratios */
static void paired_interval(const double *a, const double *b,
			    const size_t *pa, const size_t *pb, size_t np,
			    double level, struct kpi_interval *iv)
{
	double *d = xcalloc(np, sizeof(*d));
	bool logs = true, same_all = true;
	double mb = 0, m, var, half, t;
	size_t k;

	for (k = 0; k < np; k++) {
		logs &= a[pa[k]] > 0 && b[pb[k]] > 0;
		mb += b[pb[k]];
	}
	mb /= (double)np;
	for (k = 0; k < np; k++)
		d[k] = logs ? log(a[pa[k]] / b[pb[k]]) :
			      (a[pa[k]] - b[pb[k]]) / fabs(mb);
	for (k = 1; k < np; k++)
		same_all &= d[k] == d[0];
	mean_var(d, np, &m, &var);
	free(d);
	t = gsl_cdf_tdist_Qinv(level / 2, (double)(np - 1));
	half = same_all ? 0 : t * sqrt(var / (double)np);
	iv->pairs = iv->na = iv->nb = np;
	if (logs) {
		iv->change = 100 * expm1(m);
		iv->lo = 100 * expm1(m - half);
		iv->hi = 100 * expm1(m + half);
		iv->noise = 100 * sqrt(var);
	} else {
		iv->change = 100 * m;
		iv->lo = 100 * (m - half);
		iv->hi = 100 * (m + half);
		iv->noise = 100 * sqrt(var);
	}
}

/* Welch's interval, on the logs where every value is positive */
static void welch_interval(const double *a, size_t na, const double *b,
			   size_t nb, double level, struct kpi_interval *iv)
{
	bool logs = all_positive(a, na) && all_positive(b, nb);
	double *la = xcalloc(na, sizeof(*la)), *lb = xcalloc(nb, sizeof(*lb));
	double ma, va, mb, vb, sa, sb, se, df, half, scale;
	size_t i;

	for (i = 0; i < na; i++)
		la[i] = logs ? log(a[i]) : a[i];
	for (i = 0; i < nb; i++)
		lb[i] = logs ? log(b[i]) : b[i];
	mean_var(la, na, &ma, &va);
	mean_var(lb, nb, &mb, &vb);
	free(la);
	free(lb);
	/* the raw values' scale: relative to the base's mean */
	scale = logs ? 1 : fabs(mb);
	if (scale == 0)
		scale = 1;
	sa = va / (double)na;
	sb = vb / (double)nb;
	se = sqrt(sa + sb);
	if (se > 0) {
		df = (sa + sb) * (sa + sb) /
		     (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
		half = gsl_cdf_tdist_Qinv(level / 2, df) * se;
	} else {
		half = 0; /* both sides constant: the change is exact */
	}
	iv->pairs = 0;
	iv->na = na;
	iv->nb = nb;
	iv->noise = 100 * sqrt(va + vb) / scale; /* sqrt(2) x pooled sd */
	if (logs) {
		iv->change = 100 * expm1(ma - mb);
		iv->lo = 100 * expm1(ma - mb - half);
		iv->hi = 100 * expm1(ma - mb + half);
	} else {
		iv->change = 100 * (ma - mb) / scale;
		iv->lo = 100 * (ma - mb - half) / scale;
		iv->hi = 100 * (ma - mb + half) / scale;
	}
}

void stats_kpi_interval(const double *a, size_t na, const double *b,
			size_t nb, const size_t *pa, const size_t *pb,
			size_t npairs, double level, struct kpi_interval *iv)
{
	memset(iv, 0, sizeof(*iv));
	iv->change = NAN;
	iv->lo = -INFINITY;
	iv->hi = INFINITY;
	iv->noise = INFINITY;
	iv->na = na;
	iv->nb = nb;
	if (npairs >= 3)
		paired_interval(a, b, pa, pb, npairs, level, iv);
	else if (na >= 2 && nb >= 2)
		welch_interval(a, na, b, nb, level, iv);
	else if (na && nb && stats_mean(b, nb) != 0)
		iv->change = 100 * (stats_mean(a, na) - stats_mean(b, nb)) /
			     fabs(stats_mean(b, nb));
}

bool stats_head_can_decide(double change_pct, double base_noise_pct,
			   size_t nb, double head_noise_pct, size_t nh,
			   const struct kpi_verdict_params *kp)
{
	double d = fabs(change_pct), eh, eb, z, tb;

	if (nb < 2 || !nh || !isfinite(d) || !isfinite(base_noise_pct) ||
	    !isfinite(head_noise_pct))
		return true; /* nothing to go by: let runs tell */
	/* the base's share of the interval keeps its own few degrees of
	 * freedom however many runs the head gets */
	z = gsl_cdf_ugaussian_Qinv(kp->level / 2);
	tb = gsl_cdf_tdist_Qinv(kp->level / 2, (double)(nb - 1));
	eh = z * head_noise_pct / sqrt((double)nh);
	eb = tb * base_noise_pct / sqrt((double)nb);
	if (d + eh >= eb)
		return true; /* could become significant */
	return fmax(d - eh, 0) + eb <= kp->min_effect; /* could fit the margin */
}

enum stats_verdict stats_kpi_verdict(const struct kpi_interval *iv,
				     const struct kpi_verdict_params *kp,
				     unsigned *more_runs)
{
	double d = fabs(iv->change), s = iv->noise, m = kp->min_effect, need;
	double z = gsl_cdf_ugaussian_Qinv(kp->level / 2);
	size_t n = iv->na < iv->nb ? iv->na : iv->nb;

	*more_runs = 0;
	if ((iv->lo > 0 || iv->hi < 0) && d >= m)
		return VERDICT_CHANGED;
	if (iv->lo >= -m && iv->hi <= m)
		return VERDICT_SAME;
	if (!isfinite(s) || !isfinite(d) || s <= 0)
		need = (double)n + 1; /* no noise to go by: one more */
	else if (d >= m)
		need = pow((z + 0.84) * s / d, 2);
	else
		need = pow(z * s / (m - d), 2);
	if (need < 3)
		need = 3; /* no interval worth the name below 3 a side */
	if (isnan(need) || need > (double)n + 999)
		*more_runs = 999;
	else if (need <= (double)n)
		*more_runs = 1;
	else
		*more_runs = (unsigned)ceil(need - (double)n);
	return VERDICT_UNKNOWN;
}
