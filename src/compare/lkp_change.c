/*
 * lkp_change.c: LKP's test of whether one stat changed between two
 * samples (spec/lkp-compare.md §2.2.2; lkp_change.h): margin trimming,
 * the median/range separation of LKP::ChangedStat and its gap, variance
 * and distance variants, the record LKP keeps per changed stat, and the
 * small-change filter.
 *
 * Why it lives in compare/: it is the decision of LKP mode's comparison
 * (groups.c's selection) and of bisect's good/bad test above it; it
 * needs the rules (rules.h) and nothing of the statistics in
 * result/statistics.c, so it is its own module beside the rules.
 */
#include "util/compat.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/lkp_change.h"
#include "result/matrix.h"
#include "util/xalloc.h"

void lkp_options_init(struct lkp_options *o)
{
	memset(o, 0, sizeof(*o));
	o->perf_profile = true;
}

const char *lkp_outcome_name(enum lkp_outcome o)
{
	switch (o) {
	case LKP_CHANGED: return "changed";
	case LKP_NOT_CHANGED: return "not-changed";
	case LKP_SKIP_FILTER: return "skip-filter";
	case LKP_SKIP_FUNCTION: return "skip-function";
	case LKP_SKIP_FEW_RUNS: return "skip-few-runs";
	case LKP_SKIP_NO_BASE: return "skip-no-base";
	case LKP_SKIP_SMALL: return "skip-small-change";
	case LKP_SKIP_PERF: return "skip-not-perf";
	case LKP_SKIP_MISSING: return "skip-missing";
	}
	return "?";
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* insertion sort: LKP's samples are a handful of runs */
static void sort_small(double *v, size_t n)
{
	size_t i, j;

	if (n > 32) {
		qsort(v, n, sizeof(*v), cmp_double);
		return;
	}
	for (i = 1; i < n; i++) {
		double x = v[i];

		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

size_t lkp_trim(double *v, size_t n, size_t cap)
{
	size_t margin = n >> 5, skip = 0;

	if (margin > cap)
		margin = cap;
	sort_small(v, n);
	/* LKP's sort drops leading -1 ("empty data point") values */
	while (skip < n && v[skip] == -1)
		skip++;
	if (skip)
		memmove(v, v + skip, (n - skip) * sizeof(*v));
	n -= skip;
	if (n <= 2 * margin)
		return n;
	memmove(v, v + margin, (n - 2 * margin) * sizeof(*v));
	return n - 2 * margin;
}

/* v sorted and trimmed from n0 to n: trim more to min_margin a side */
static size_t trim_min_margin(double *v, size_t n0, size_t n,
			      size_t min_margin)
{
	size_t done = (n0 - n) / 2, more;

	if (n0 < 6 || done >= min_margin)
		return n;
	more = min_margin - done;
	if (n <= 2 * more)
		return n;
	memmove(v, v + more, (n - 2 * more) * sizeof(*v));
	return n - 2 * more;
}

void lkp_summarize(const double *v, size_t n, size_t min_margin,
		   struct lkp_summary *out)
{
	double buf[128], *s = n > ARRAY_SIZE(buf) ? xmalloc(n * sizeof(*s)) : buf;

	memset(out, 0, sizeof(*out));
	if (n) {
		memcpy(s, v, n * sizeof(*s));
		out->n = trim_min_margin(s, n, lkp_trim(s, n, 3), min_margin);
		if (out->n) {
			out->min = s[0];
			out->max = s[out->n - 1];
			out->median = s[out->n / 2];
		}
	}
	if (s != buf)
		free(s);
}

static bool all_integral(const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] != floor(v[i]))
			return false;
	return true;
}

/* the part of name before a trailing .error/.warn/.fail/.pass */
static size_t function_stem(const char *name, const char *const *suffixes,
			    size_t nsuffixes)
{
	size_t i, n = strlen(name);

	for (i = 0; i < nsuffixes; i++)
		if (stat_has_suffix(name, suffixes[i]))
			return n - strlen(suffixes[i]);
	return 0;
}

static bool base_has_variant(const struct matrix *base, const char *name,
			     size_t stem, const char *const *suffixes,
			     size_t nsuffixes)
{
	char buf[4096];
	size_t i;

	/*
	 * A name too long for buf (no real stat is) counts as having its
	 * counterpart: the stat is then judged, never silently skipped.
	 * The longest suffix is 6 bytes, so stem + 8 leaves room for it and
	 * its NUL; snprintf keeps that bound in the code, not in a comment.
	 */
	if (stem + 8 >= sizeof(buf))
		return true;
	memcpy(buf, name, stem);
	for (i = 0; i < nsuffixes; i++) {
		snprintf(buf + stem, sizeof(buf) - stem, "%s", suffixes[i]);
		if (matrix_find(base, buf) >= 0)
			return true;
	}
	return false;
}

/* error/pass stats need their counterpart in the base (stats.rb:572-584) */
static bool skip_function_stat(const struct lkp_options *o, const char *name)
{
	static const char *const bad[] = { ".error", ".warn", ".fail" };
	static const char *const good[] = { ".pass" };
	size_t stem;

	if (!o->base || stat_has_prefix(name, "dmesg.") || stat_has_prefix(name, "kmsg.") ||
	    stat_has_prefix(name, "last_state.") || stat_has_prefix(name, "stderr."))
		return false;
	stem = function_stem(name, bad, ARRAY_SIZE(bad));
	if (stem)
		return !base_has_variant(o->base, name, stem, good, 1);
	stem = function_stem(name, good, 1);
	if (stem)
		return !base_has_variant(o->base, name, stem, bad,
					 ARRAY_SIZE(bad));
	return false;
}

/* LKP::ChangedStat#change? (changed_stat.rb:43-85) */
static bool changed_stat(const struct lkp_record *s, bool integral,
			 const struct lkp_options *o)
{
	double len_a = s->max_a - s->min_a, len_b = s->max_b - s->min_b;

	if (o->distance > 0) {
		double gap = fmax(s->min_a - s->max_b, s->min_b - s->max_a);
		double gd = o->gap_distance > 0 ? o->gap_distance : 2;

		if (integral && (s->min_a - s->max_b == 1 ||
				 s->min_b - s->max_a == 1))
			return false;
		if (s->na < 3 || s->nb < 3)
			return gap > o->distance * fmax(len_a, len_b);
		return gap > 0 &&
		       gap > fabs(s->median_b - s->median_a) / gd;
	}
	return (s->min_b > s->median_a && s->median_b > s->max_a) ||
	       (s->min_a > s->median_b && s->median_a > s->max_b);
}

/*
 * The checks that need no number (stats.rb's early returns), cheapest
 * first, so that most of 50,000 stats never get copied or sorted.
 * Returns the outcome that ends the test, or LKP_CHANGED to go on.
 */
static enum lkp_outcome lkp_screen(const struct stat_rules *r,
				   const char *name, size_t na, size_t nb,
				   bool base_has, const struct lkp_options *o,
				   bool is_func)
{
	if (o->perf_only && !is_func && !stat_is_perf_metric(r, name))
		return LKP_SKIP_PERF;
	/*
	 * A perf stat one side has no value of is not a change: a missing
	 * value is missing (LKP compares zeros: -100%, or +5e+101% vs 0).
	 * A failure stat's absence is "did not happen", its zeros are real.
	 */
	if (!is_func && (!na || !nb))
		return nb ? LKP_SKIP_MISSING : LKP_SKIP_NO_BASE;
	/* the bisectable / allow-list filter (step 2) is checked after the
	 * change test: same decision, but 300 patterns only for candidates */
	if (is_func) {
		if (skip_function_stat(o, name))
			return LKP_SKIP_FUNCTION;
	} else if (!o->force && na < 3 && nb < 3) {
		return LKP_SKIP_FEW_RUNS;
	}
	/* a monitor newly added to the head has no base to compare with,
	 * unless the base ran that monitor and merely lacks this one stat */
	if (!base_has && !is_func &&
	    !(stat_has_prefix(name, "perf-profile.") &&
	      o->base_has_perf_profile) &&
	    !(stat_has_prefix(name, "lock_stat.") && o->base_has_lock_stat))
		return LKP_SKIP_NO_BASE;
	if (!na)
		return LKP_NOT_CHANGED;
	return LKP_CHANGED;
}

/*
 * Sort and trim both sides (sa, sb hold copies) and fill the record's
 * sizes, minima, medians and maxima.  False when a side is left empty.
 * Margins: n/32 capped at 3 (perf) or 0 (function), a's at 1 when b has
 * 3 runs or fewer, as stats.rb; then bisect's min_margin for perf stats.
 */
static bool lkp_trim_sides(double *sa, size_t na, double *sb, size_t nb,
			   bool is_func, const struct lkp_options *o,
			   struct lkp_record *s)
{
	size_t cap_b = is_func ? 0 : 3, cap_a = cap_b;

	if (nb <= 3 && cap_a > 1)
		cap_a = 1;
	s->na = lkp_trim(sa, na, cap_a);
	s->nb = lkp_trim(sb, nb, cap_b);
	if (!is_func) {
		s->na = trim_min_margin(sa, na, s->na, o->min_margin);
		s->nb = trim_min_margin(sb, nb, s->nb, o->min_margin);
	}
	if (!s->na || !s->nb)
		return false;
	s->min_a = sa[0];
	s->max_a = sa[s->na - 1];
	s->median_a = sa[s->na / 2];
	s->min_b = sb[0];
	s->max_b = sb[s->nb - 1];
	s->median_b = sb[s->nb / 2];
	return true;
}

/* the change test, first matching branch (stats.rb:521-531) */
static bool lkp_test(struct lkp_record *s, bool is_func, bool integral,
		     const struct lkp_options *o)
{
	double len_a = s->max_a - s->min_a, len_b = s->max_b - s->min_b;

	if (is_func)
		return s->max_a != s->max_b;
	if (o->variance > 0 && s->na >= 10 && s->nb >= 10)
		return len_a * s->median_b > o->variance * len_b * s->median_a ||
		       len_b * s->median_a > o->variance * len_a * s->median_b;
	if (o->gap > 0) {
		double gap = fmax(s->min_a - s->max_b, s->min_b - s->max_a);

		return gap > 0 &&
		       gap > o->gap * fabs(s->median_a - s->median_b);
	}
	/* recorded: the record of this test carries its gap_distance */
	s->used_changed_stat = true;
	return changed_stat(s, integral, o);
}

/* the record's metrics (calc_stats_metrics, stats.rb:657-682) */
static void lkp_metrics(struct lkp_record *s)
{
	double len_a = s->max_a - s->min_a, len_b = s->max_b - s->min_b;
	bool a_high = s->median_a > s->median_b;
	double med_hi = a_high ? s->median_a : s->median_b;
	double med_lo = a_high ? s->median_b : s->median_a;
	double min_hi = a_high ? s->min_a : s->min_b;
	double max_lo = a_high ? s->max_b : s->max_a;

	s->ratio = med_lo <= 0 ? 5 : med_hi / med_lo;
	if (s->ratio > 5)
		s->ratio = 5;
	s->delta = med_hi - med_lo;
	s->y = fmax(0, min_hi - max_lo);
	s->x = (s->na <= 2 && len_a < len_b) ? len_b : len_a;
	s->z = len_b;
	s->max = fmax(s->max_a, s->max_b);
}

/* the small-change filter (skip_small_change?, stats.rb:599-608) */
static bool lkp_small_change(const struct stat_rules *r, const char *name,
			     const struct lkp_record *s, bool is_func,
			     const struct lkp_options *o)
{
	if (is_func || o->force ||
	    (stat_has_prefix(name, "perf-profile.") && o->perf_profile))
		return false;
	return !(s->ratio > 1.01) ||
	       (!(s->ratio > 1.05) && !stat_is_perf_metric(r, name)) ||
	       !stat_reasonable_change(r, name, s->delta, s->max);
}

/*
 * The numeric part of the test, on copies (sort and trim reorder them):
 * trim, test, then -- for candidates only -- the interval text, the
 * pattern filter, the metrics and the small-change filter.
 */
static enum lkp_outcome lkp_judge(const struct stat_rules *r,
				  const char *name, double *sa, size_t na,
				  double *sb, size_t nb, bool is_func,
				  const struct lkp_options *o,
				  struct lkp_record *s)
{
	bool integral = all_integral(sa, na) && all_integral(sb, nb);

	if (!lkp_trim_sides(sa, na, sb, nb, is_func, o, s) ||
	    !lkp_test(s, is_func, integral, o))
		return LKP_NOT_CHANGED;
	/* formatted only for candidates: four %g per stat were a tenth of
	 * compare's time on 50,000 stats */
	snprintf(s->interval, sizeof(s->interval),
		 "[ %-10.5g - %-10.5g ] -- [ %-10.5g - %-10.5g ]", s->min_a,
		 s->max_a, s->min_b, s->max_b);
	if (!o->more && !o->force && !stat_in_report_allowlist(r, name) &&
	    !stat_is_bisectable(r, name))
		return LKP_SKIP_FILTER;
	lkp_metrics(s);
	if (lkp_small_change(r, name, s, is_func, o))
		return LKP_SKIP_SMALL;
	return LKP_CHANGED;
}

enum lkp_outcome lkp_changed(const struct stat_rules *r, const char *name,
			     const double *a, size_t na, const double *b,
			     size_t nb, bool base_has,
			     const struct lkp_options *o,
			     struct lkp_record *rec)
{
	/* zeroed here as well as by the memset below: cppcheck cannot see
	 * through the ?: that s is local's address */
	struct lkp_record local = { .is_function = false };
	struct lkp_record *s = rec ? rec : &local;
	/* LKP's samples are a handful of runs: no malloc for those */
	double abuf[128], bbuf[128], *sa = abuf, *sb = bbuf;
	bool is_func = stat_is_function(r, name);
	enum lkp_outcome ret;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->is_function = is_func;
	s->nr_run = na;
	ret = lkp_screen(r, name, na, nb, base_has, o, is_func);
	if (ret != LKP_CHANGED)
		return ret;

	if (na > ARRAY_SIZE(abuf))
		sa = xmalloc(na * sizeof(*sa));
	if (nb > ARRAY_SIZE(bbuf))
		sb = xmalloc(nb * sizeof(*sb));
	memcpy(sa, a, na * sizeof(*sa));
	if (b)
		memcpy(sb, b, nb * sizeof(*sb));
	else
		for (i = 0; i < nb; i++)
			sb[i] = 0; /* a missing stat is zeros (stats.rb:698) */
	ret = lkp_judge(r, name, sa, na, sb, nb, is_func, o, s);
	if (sa != abuf)
		free(sa);
	if (sb != bbuf)
		free(sb);
	return ret;
}
