/*
 * test_bisect.c: the bisect driver's pure logic against a synthetic world:
 * a path of commits whose "program" takes t or 2t from commit k on, with or
 * without noise, commits that do not build, an index that remembers every
 * sample (resume) and an interruption after a few runs.
 */
#include "util/compat.h"
#include <math.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "bisect/bisect.h"
#include "bisect/exec.h"
#include "result/matrix.h"
#include "result/stats.h"
#include "util/fileutil.h"
#include "util/short_sha.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define KPI "prog.time.elapsed_time"
#define MAXC 64
#define MAXS 64

/* the fake world: per commit, the samples the index holds */
struct world {
	size_t n;              /* commits on the path */
	size_t k;              /* first bad commit */
	double noise;          /* relative half-width of uniform noise */
	double flat;           /* nonzero: every commit takes this (no change) */
	size_t skip_build;     /* index of a commit that does not build, or 0 */
	size_t noisy_at;       /* index of a commit of noise `noisy`, or 0 */
	double noisy;
	bool flip;             /* noisy_at alternates: good's value, bad's */
	double kpi[MAXC][MAXS];
	double other[MAXC][MAXS]; /* an unrelated, unchanged stat */
	double cs[MAXC][MAXS];    /* a small integer stat that barely moves */
	double start[MAXC][MAXS]; /* when each run began: the world's clock */
	bool no_starts;          /* the ops cannot say when runs began */
	double bad_value;        /* nonzero: bad commits take this, not 0.2 */
	double ramp;             /* the machine slows by this much a run */
	int order[4 * MAXS];     /* the commits measured, in order */
	size_t norder;
	size_t nsamples[MAXC];
	size_t measures[MAXC];   /* runs made by measure() per commit */
	size_t prepares[MAXC];
	size_t total_measures;
	size_t interrupt_after;  /* nonzero: interrupted after that many runs */
	bool stop;
	char sha[MAXC][41];
	char slot_sha[BISECT_SLOTS][41];
	enum bisect_verdict log[MAXC]; /* verdicts kept for a resume */
	bool have_cbase;        /* the confirmation's saved starting counts */
	char cbase_sha[2][41];
	size_t cbase[2];
	/*
	 * Failed runs (no complete run: measured, nothing stored): commit
	 * i's runs after its first fail_after[i] complete ones fail,
	 * fail_next[i] of them, or every one when fail_always[i]
	 */
	size_t fail_after[MAXC], fail_next[MAXC];
	bool fail_always[MAXC];
	size_t failed[MAXC];     /* failed runs made per commit */
	bool have_sbase;        /* a step's saved starting counts */
	char sbase_sha[41];
	size_t sbase[3];
	uint64_t rng;
};

static double rnd(struct world *w)
{
	/* xorshift64: deterministic noise */
	w->rng ^= w->rng << 13;
	w->rng ^= w->rng >> 7;
	w->rng ^= w->rng << 17;
	return (double)(w->rng >> 11) / 9007199254740992.0;
}

static void world_init(struct world *w, size_t n, size_t k, double noise)
{
	size_t i;

	memset(w, 0, sizeof(*w));
	w->n = n;
	w->k = k;
	w->noise = noise;
	w->rng = 0x9e3779b97f4a7c15ULL;
	for (i = 0; i < n; i++)
		snprintf(w->sha[i], sizeof(w->sha[i]),
			 "%040zx", (size_t)0xc0ffee00 + i);
}

/*
 * The retry tests' world: 40 commits, bad from 23, 1% noise, commit k's
 * runs failing after its first `after` complete ones -- `next` of them,
 * or every one when next is 0 (as t6008's flaky wrapper counts).
 */
static void world_failing(struct world *w, size_t k, size_t after,
			  size_t next)
{
	world_init(w, 40, 23, 0.01);
	w->fail_after[k] = after;
	if (next)
		w->fail_next[k] = next;
	else
		w->fail_always[k] = true;
}

static int sha_index(struct world *w, const char *sha)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (!strcmp(w->sha[i], sha))
			return (int)i;
	fail_msg("unknown commit %s", sha);
	return -1;
}

static int w_prepare(void *data, int slot, const char *sha, struct strbuf *why)
{
	struct world *w = data;
	int i = sha_index(w, sha);

	assert_true(slot >= 0 && slot < BISECT_SLOTS);
	w->prepares[i]++;
	if (w->skip_build && (size_t)i == w->skip_build) {
		strbuf_addstr(why, "the build exited 125");
		return 1;
	}
	snprintf(w->slot_sha[slot], sizeof(w->slot_sha[slot]), "%s", sha);
	return 0;
}

static int w_measure(void *data, int slot, const char *sha, struct strbuf *err)
{
	struct world *w = data;
	int i = sha_index(w, sha);
	double base, v;
	size_t s;

	(void)err;
	/* the driver runs only what it prepared in that slot */
	assert_string_equal(w->slot_sha[slot], sha);
	s = w->nsamples[i];
	assert_true(s < MAXS);
	if (s >= w->fail_after[i] && (w->fail_always[i] || w->fail_next[i])) {
		/* the run is made, and kept as failed: no sample */
		if (w->fail_next[i])
			w->fail_next[i]--;
		w->failed[i]++;
		w->measures[i]++;
		w->total_measures++;
		if (w->interrupt_after && w->total_measures >= w->interrupt_after)
			w->stop = true;
		return 0;
	}
	base = w->flat ? w->flat :
		((size_t)i >= w->k ? (w->bad_value ? w->bad_value : 0.2) : 0.1);
	if (w->flip && (size_t)i == w->noisy_at)
		base = s % 2 ? 0.2 : 0.1;
	v = base * (1 + ((size_t)i == w->noisy_at && w->noisy_at ?
				 w->noisy : w->noise) * (2 * rnd(w) - 1));
	/* a drift of the machine, shared by runs made beside each other */
	v *= 1 + w->ramp * (double)w->total_measures;
	w->kpi[i][s] = v;
	if (w->norder < ARRAY_SIZE(w->order))
		w->order[w->norder++] = i;
	w->other[i][s] = 1000 + 50 * rnd(w);
	w->cs[i][s] = (double)(3 + (int)(rnd(w) * 2));
	/* 30 s a run, one after the other */
	w->start[i][s] = 30.0 * (double)w->total_measures;
	w->nsamples[i]++;
	w->measures[i]++;
	w->total_measures++;
	if (w->interrupt_after && w->total_measures >= w->interrupt_after)
		w->stop = true;
	return 0;
}

static int w_samples(void *data, const char *sha, struct matrix *m,
		     struct strbuf *err)
{
	struct world *w = data;
	int i = sha_index(w, sha);
	size_t r, n = w->nsamples[i];
	/* sorted by name, as matrix.h wants */
	static const char *const names[] = {
		"other.stat", KPI, "prog.time.involuntary_context_switches",
	};

	(void)err;
	matrix_init(m);
	if (!n)
		return 0;
	m->nstats = 3;
	m->nruns = n;
	m->names = xcalloc(3, sizeof(char *));
	m->values = xcalloc(3 * n, sizeof(double));
	m->is_int = xcalloc(3, 1);
	for (r = 0; r < 3; r++)
		m->names[r] = xstrdup(names[r]);
	m->is_int[2] = 1;
	for (r = 0; r < n; r++) {
		m->values[0 * n + r] = w->other[i][r];
		m->values[1 * n + r] = w->kpi[i][r];
		m->values[2 * n + r] = w->cs[i][r];
	}
	return 0;
}

static bool w_interrupted(void *data)
{
	return ((struct world *)data)->stop;
}

static bool w_confirm_base(void *data, const char *a, const char *b,
			   size_t *base_a, size_t *base_b, bool save)
{
	struct world *w = data;

	if (save) {
		snprintf(w->cbase_sha[0], 41, "%s", a);
		snprintf(w->cbase_sha[1], 41, "%s", b);
		w->cbase[0] = *base_a;
		w->cbase[1] = *base_b;
		w->have_cbase = true;
		return true;
	}
	if (!w->have_cbase || strcmp(w->cbase_sha[0], a) ||
	    strcmp(w->cbase_sha[1], b))
		return false;
	*base_a = w->cbase[0];
	*base_b = w->cbase[1];
	return true;
}

static bool w_recall(void *data, const char *sha, const char *stat,
		     enum bisect_verdict *v, char **why, bool save)
{
	struct world *w = data;
	int i = sha_index(w, sha);

	assert_non_null(stat);
	if (save) {
		w->log[i] = *v;
		return true;
	}
	if (w->log[i] == BISECT_UNTESTED)
		return false;
	*v = w->log[i];
	if (*v == BISECT_SKIP)
		*why = xstrdup("kept");
	return true;
}

static int w_starts(void *data, const char *sha, const struct matrix *m,
		    double *t, struct strbuf *err)
{
	struct world *w = data;
	int i = sha_index(w, sha);
	size_t r;

	(void)err;
	assert_int_equal(m->nruns, w->nsamples[i]);
	for (r = 0; r < m->nruns; r++)
		t[r] = w->start[i][r];
	return 0;
}

static bool w_step_base(void *data, const char *sha, size_t base[3], bool save)
{
	struct world *w = data;

	if (save) {
		snprintf(w->sbase_sha, 41, "%s", sha);
		memcpy(w->sbase, base, sizeof(w->sbase));
		w->have_sbase = true;
		return true;
	}
	if (!w->have_sbase || strcmp(w->sbase_sha, sha))
		return false;
	memcpy(base, w->sbase, sizeof(w->sbase));
	return true;
}

/* a failed run's last_state, as the runner words a kernel's panic */
static void w_failure(void *data, const char *sha, struct strbuf *why)
{
	struct world *w = data;

	if (w->failed[sha_index(w, sha)])
		strbuf_addstr(why, "kernel_panic: 1, is_incomplete_run: 1");
}

static const struct bisect_ops world_ops = {
	.failure = w_failure,
	.prepare = w_prepare,
	.measure = w_measure,
	.samples = w_samples,
	.interrupted = w_interrupted,
	.confirm_base = w_confirm_base,
	.recall = w_recall,
	.starts = w_starts,
	.step_base = w_step_base,
};

static void fill_state(struct bisect_state *st, struct world *w)
{
	size_t i;
	char subject[64];

	bisect_state_init(st);
	for (i = 0; i < w->n; i++) {
		snprintf(subject, sizeof(subject), "commit %zu", i);
		bisect_state_add_commit(st, w->sha[i], subject);
	}
}

/* the driver's judgement: LKP's classifier (true) or until decided */
static bool classic;

static enum bisect_outcome run_world(struct world *w, struct bisect_state *st,
				     const char *stat, struct strbuf *err)
{
	struct bisect_ops ops = world_ops;
	struct bisect_options opt = {3, 9, stat, false, NULL, NULL, classic};

	ops.data = w;
	if (w->no_starts)
		ops.starts = NULL;
	fill_state(st, w);
	return bisect_run(st, &opt, &ops, err);
}

static size_t ceil_log2(size_t n)
{
	size_t k = 0;

	while (((size_t)1 << k) < n)
		k++;
	return k;
}

/* ---- the statistics (stats.h's, as bisect applies them) ---- */

/* LKP's tables, compiled once for the whole file */
static struct stat_rules rules;

static int rules_setup(void **state)
{
	(void)state;
	stat_rules_init(&rules);
	return 0;
}

static int rules_teardown(void **state)
{
	(void)state;
	stat_rules_release(&rules);
	return 0;
}

static void test_lkp_rules(void **state)
{
	/* spec/fixtures/stats_changed_stats/fxmark_big_regression.yaml */
	static const double a[] = {7415950.517791, 7363113.100274,
				   7412635.583085, 7422347.724252,
				   7442603.302947, 7367030.480747};
	static const double b[] = {7960045.052608, 7855475.99254,
				   8013649.203754, 7927162.999455,
				   7785809.108594, 7902933.963499};
	static const double g[] = {0.133, 0.137, 0.181};
	static const double h[] = {0.22, 0.224, 0.35};
	static const double c[] = {0.15, 0.17, 0.3};
	static const double adj_a[] = {2, 3, 3}, adj_b[] = {4, 4, 4};
	double small[6];
	size_t i;

	(void)state;
	assert_true(bisect_lkp_changed(&rules, "x.y", a, 6, b, 6, 5));
	assert_true(bisect_lkp_changed(&rules, "x.y", b, 6, a, 6, 5));
	/* ~0.5% higher: the ranges overlap */
	for (i = 0; i < 6; i++)
		small[i] = a[i] * 1.005;
	assert_false(bisect_lkp_changed(&rules, "x.y", small, 6, a, 6, 5));
	/* forced: LKP's floor of 10 s for elapsed_time does not apply */
	assert_true(bisect_lkp_changed(&rules, KPI, h, 3, g, 3, 0));
	/* the distance mode says no (gap 0.039 < 0.087 / 2), the default yes */
	assert_false(bisect_lkp_changed(&rules, KPI, h, 3, g, 3, 5));
	/* c straddles both */
	assert_false(bisect_lkp_changed(&rules, KPI, c, 3, h, 3, 0));
	assert_false(bisect_lkp_changed(&rules, KPI, g, 3, c, 3, 0));
	assert_false(bisect_lkp_changed(&rules, KPI, g, 0, h, 3, 0));
	/* adjacent integer ranges are one range in the distance mode */
	assert_false(bisect_lkp_changed(&rules, "x.count", adj_b, 3, adj_a, 3,
					5));
}

static void test_summary_trim(void **state)
{
	static const double v[] = {100, 101, 150, 99, 102, 100};
	static const double w6[] = {0.1, 0.1, 0.1, 0.2, 0.2, 0.2};
	static const double w7[] = {0.101, 0.099, 0.203, 0.1, 0.102, 0.1};
	static const double b3[] = {0.2, 0.21, 0.19};
	struct lkp_summary s;

	(void)state;
	bisect_summarize(v, 6, &s);
	/* one hiccup (150) is trimmed once a commit has 6 samples */
	assert_int_equal(s.n, 4);
	assert_true(s.max == 102);
	assert_true(s.min == 100);
	bisect_summarize(v, 3, &s);
	assert_int_equal(s.n, 3);
	assert_true(s.max == 150 && s.median == 101);
	bisect_summarize(w6, 0, &s);
	assert_int_equal(s.n, 0);
	/* the change test trims the same way: the hiccup does not count */
	assert_true(bisect_lkp_changed(&rules, KPI, b3, 3, w7, 6, 0));
}

static void test_classify(void **state)
{
	static const double g[] = {0.100, 0.102, 0.098};
	static const double b[] = {0.200, 0.204, 0.197};
	static const double cg[] = {0.101, 0.099, 0.103};
	static const double cb[] = {0.199, 0.203, 0.201};
	static const double mid[] = {0.152, 0.153, 0.151};
	static const double wide[] = {0.10, 0.20, 0.16};
	static const double hiccup[] = {0.101, 0.099, 0.16};
	static const double far[] = {0.101, 0.099, 0.203};
	static const double far6[] = {0.101, 0.099, 0.203, 0.1, 0.102, 0.1};
	double pos;

	(void)state;
	assert_int_equal(bisect_classify(&rules, KPI, g, 3, b, 3, cg, 3, &pos),
			 BISECT_GOOD);
	assert_true(fabs(pos) < 0.05);
	assert_int_equal(bisect_classify(&rules, KPI, g, 3, b, 3, cb, 3, &pos),
			 BISECT_BAD);
	assert_true(fabs(pos - 1) < 0.05);
	/* just past the middle, apart from both: the midpoint rule says bad */
	assert_int_equal(bisect_classify(&rules, KPI, g, 3, b, 3, mid, 3, NULL),
			 BISECT_BAD);
	/* spread over both: unclear */
	assert_int_equal(bisect_classify(&rules, KPI, g, 3, b, 3, wide, 3, NULL),
			 BISECT_UNCLEAR);
	/* good median, one sample out of line: still below bad's median */
	assert_int_equal(bisect_classify(&rules, KPI, g, 3, b, 3, hiccup, 3,
					 NULL),
			 BISECT_GOOD);
	/* ... but past it: unclear */
	assert_int_equal(bisect_classify(&rules, KPI, g, 3, b, 3, far, 3, NULL),
			 BISECT_UNCLEAR);
	/* three more runs: the outlier is trimmed, the commit is good */
	assert_int_equal(bisect_classify(&rules, KPI, g, 3, b, 3, far6, 6,
					 NULL),
			 BISECT_GOOD);
	/* improvements work the same way (lower is the bad side) */
	assert_int_equal(bisect_classify(&rules, KPI, b, 3, g, 3, cg, 3, NULL),
			 BISECT_BAD);
	assert_int_equal(bisect_classify(&rules, KPI, g, 3, g, 3, cg, 3, NULL),
			 BISECT_UNCLEAR);
}

/* a judged comparison's verdict and 99% interval (in %), as compare gives */
static struct bisect_stat_verdict sv(enum stats_verdict v, double lo,
				     double hi)
{
	struct bisect_stat_verdict r;

	memset(&r, 0, sizeof(r));
	r.judged = true;
	r.verdict = v;
	r.lo = lo;
	r.hi = hi;
	r.pairs = 20;
	return r;
}

/*
 * bisect_decide_sides under multiplicative noise: t6200's good commit,
 * its mirror, a commit at the midpoint, and the linear rule where logs
 * do not apply.
 */
static void test_decide_sides(void **state)
{
	/* g, b: the verdict and 99% interval vs good and vs bad; rg, rb: the means */
	static const struct {
		const char *what;
		enum stats_verdict gv;
		double glo, ghi;
		enum stats_verdict bv;
		double blo, bhi, rg, rb;
		enum bisect_verdict want;
		bool g_unjudged;
	} cases[] = {
		/*
		 * t6200 (session 10): a -97.5% step; e4d7f7807c47 vs good
		 * [-20.9%, +53.8%] after 20 pairs -- undecided to compare,
		 * whose linear margin is +-48.7% -- and far from bad.  In
		 * logs the interval lies at -0.12..+0.06 of the way to bad.
		 */
		{ "t6200's good commit", VERDICT_UNKNOWN, -20.9, 53.8,
		  VERDICT_CHANGED, 2900, 5100, 1, 0.025, BISECT_GOOD, false },
		{ "its mirror: a +3900% step, the commit beside bad",
		  VERDICT_CHANGED, 2900, 5100, VERDICT_UNKNOWN, -20.9, 53.8,
		  1, 40, BISECT_BAD, false },
		{ "the same two with the step reversed: improvements alike",
		  VERDICT_UNKNOWN, -20.9, 53.8, VERDICT_CHANGED, 2900, 5100,
		  40, 1, BISECT_GOOD, false },
		/* at the geometric midpoint (good x 0.158, bad x 6.32) the
		 * intervals, however narrow, straddle 0.5 */
		{ "at the midpoint", VERDICT_CHANGED, -88, -79,
		  VERDICT_CHANGED, 430, 650, 1, 0.025, BISECT_UNCLEAR, false },
		{ "at the midpoint, narrow", VERDICT_CHANGED, -84.3, -84.1,
		  VERDICT_CHANGED, 531, 533, 1, 0.025, BISECT_UNCLEAR, false },
		/*
		 * between the geometric and the arithmetic midpoint (-84% and
		 * -48.75% of good): the same as bad linearly (bad's margin is
		 * +-1950%), on good's side in logs -- never called bad
		 */
		{ "between the midpoints", VERDICT_CHANGED, -75, -65,
		  VERDICT_SAME, 900, 1300, 1, 0.025, BISECT_GOOD, false },
		{ "the same as both (different runs of each side)",
		  VERDICT_SAME, -5, 5, VERDICT_SAME, -5, 5, 1, 0.025,
		  BISECT_UNCLEAR, false },
		/* 0.12-0.25 of the way from good, 0.13-0.28 from bad */
		{ "the comparisons disagree", VERDICT_CHANGED, -60, -35,
		  VERDICT_CHANGED, 60, 180, 1, 0.025, BISECT_UNCLEAR, false },
		{ "before 0.5 vs good, maybe bad's vs bad: not yet good",
		  VERDICT_UNKNOWN, -20.9, 53.8, VERDICT_UNKNOWN, -30, 5000,
		  1, 0.025, BISECT_UNCLEAR, false },
		{ "a comparison on too few pairs claims nothing",
		  VERDICT_UNKNOWN, -20.9, 53.8, VERDICT_CHANGED, 2900, 5100,
		  1, 0.025, BISECT_UNCLEAR, true },
		/* no ratios (a mean at 0, an end below -100%): linear */
		{ "no ratios: the same as good", VERDICT_SAME, -10, 10,
		  VERDICT_CHANGED, -300, -150, 1, 0.025, BISECT_GOOD, false },
		{ "no ratios: undecided", VERDICT_UNKNOWN, -20.9, 53.8,
		  VERDICT_CHANGED, -300, -150, 1, 0.025, BISECT_UNCLEAR, false },
		{ "no ratios: the same as bad", VERDICT_UNKNOWN, -20.9, 53.8,
		  VERDICT_SAME, -10, 10, 0, 1, BISECT_BAD, false },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct bisect_stat_verdict g = sv(cases[i].gv, cases[i].glo, cases[i].ghi);
		struct bisect_stat_verdict b = sv(cases[i].bv, cases[i].blo, cases[i].bhi);

		g.judged = !cases[i].g_unjudged;
		if (bisect_decide_sides(&g, &b, cases[i].rg, cases[i].rb) !=
		    (int)cases[i].want)
			fail_msg("%s: not %d", cases[i].what, cases[i].want);
	}
}

static void test_kpi_priority(void **state)
{
	struct stat_rules r;

	(void)state;
	/* LKP's stat-denylist: the bare time.* stats are not bisectable */
	assert_int_equal(bisect_kpi_priority(&rules, "time.elapsed_time"), -1);
	/* failure stats are never a bisect's KPI */
	assert_int_equal(bisect_kpi_priority(&rules, "dmesg.oops"), -1);
	/* a direction (lower is better) ranks above none */
	assert_int_equal(bisect_kpi_priority(&rules, KPI), 1);
	assert_int_equal(bisect_kpi_priority(&rules, "other.stat"), 0);
	/* the benchmark's own stats first */
	stat_rules_init(&r);
	stat_rules_add_benchmark(&r, "prog");
	assert_int_equal(bisect_kpi_priority(&r, "prog.run_ms"), 3);
	assert_int_equal(bisect_kpi_priority(&r, "prog.score"), 2);
	/*
	 * ... but not the time monitor's copy, `<testcase>.time.*`: how
	 * fast the machine was is no implicit KPI (rules.h stat_is_kpi)
	 */
	assert_int_equal(bisect_kpi_priority(&r, KPI), 1);
	assert_int_equal(bisect_kpi_priority(&r, "prog.time.page_size"), 0);
	/* a declaration makes one a KPI again */
	stat_rules_add_kpi(&r, KPI, 0, 0);
	assert_int_equal(bisect_kpi_priority(&r, KPI), 3);
	stat_rules_release(&r);
}

/* ---- the search ---- */

static void test_search_plain(void **state)
{
	struct bisect_search s;
	size_t n = 40, k = 17, steps = 0, lo, fb, nskip;
	ssize_t i;

	(void)state;
	bisect_search_init(&s, n);
	bisect_search_mark(&s, 0, BISECT_GOOD);
	bisect_search_mark(&s, n - 1, BISECT_BAD);
	while ((i = bisect_search_next(&s)) >= 0) {
		assert_true(i > 0 && (size_t)i < n - 1);
		assert_int_equal(s.state[i], BISECT_UNTESTED);
		bisect_search_mark(&s, (size_t)i,
				   (size_t)i >= k ? BISECT_BAD : BISECT_GOOD);
		steps++;
	}
	bisect_search_result(&s, &lo, &fb, &nskip);
	assert_int_equal(fb, k);
	assert_int_equal(lo, k - 1);
	assert_int_equal(nskip, 0);
	assert_true(steps <= ceil_log2(n - 1));
	bisect_search_release(&s);
}

static void test_search_every_k(void **state)
{
	size_t n, k;

	(void)state;
	for (n = 2; n <= 41; n++)
		for (k = 1; k < n; k++) {
			struct bisect_search s;
			size_t steps = 0, lo, fb, nskip;
			ssize_t i;

			bisect_search_init(&s, n);
			bisect_search_mark(&s, 0, BISECT_GOOD);
			bisect_search_mark(&s, n - 1, BISECT_BAD);
			while ((i = bisect_search_next(&s)) >= 0) {
				bisect_search_mark(&s, (size_t)i,
						   (size_t)i >= k ? BISECT_BAD :
								    BISECT_GOOD);
				steps++;
			}
			bisect_search_result(&s, &lo, &fb, &nskip);
			assert_int_equal(fb, k);
			assert_true(steps <= ceil_log2(n - 1));
			bisect_search_release(&s);
		}
}

static void test_search_skip(void **state)
{
	struct bisect_search s;
	size_t lo, fb, nskip;
	ssize_t i;

	(void)state;
	/* the culprit itself does not build: a range of two remains */
	bisect_search_init(&s, 10);
	bisect_search_mark(&s, 0, BISECT_GOOD);
	bisect_search_mark(&s, 9, BISECT_BAD);
	while ((i = bisect_search_next(&s)) >= 0)
		bisect_search_mark(&s, (size_t)i,
				   i == 5 ? BISECT_SKIP :
				   i >= 5 ? BISECT_BAD : BISECT_GOOD);
	bisect_search_result(&s, &lo, &fb, &nskip);
	assert_int_equal(lo, 4);
	assert_int_equal(fb, 6);
	assert_int_equal(nskip, 1);
	bisect_search_release(&s);
	/* everything but the endpoints skipped */
	bisect_search_init(&s, 5);
	bisect_search_mark(&s, 0, BISECT_GOOD);
	bisect_search_mark(&s, 4, BISECT_BAD);
	while ((i = bisect_search_next(&s)) >= 0)
		bisect_search_mark(&s, (size_t)i, BISECT_SKIP);
	bisect_search_result(&s, &lo, &fb, &nskip);
	assert_int_equal(lo, 0);
	assert_int_equal(fb, 4);
	assert_int_equal(nskip, 3);
	bisect_search_release(&s);
}

/* ---- the driver ---- */

static size_t between_measured(const struct world *w)
{
	size_t i, k = 0;

	for (i = 1; i + 1 < w->n; i++)
		if (w->measures[i])
			k++;
	return k;
}

static void check_found(struct world *w, const char *stat)
{
	struct bisect_state st;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	enum bisect_outcome o;

	o = run_world(w, &st, stat, &err);
	if (o != BISECT_FOUND)
		fail_msg("outcome %d: %s", (int)o, err.buf);
	assert_int_equal(st.first_bad, w->k);
	assert_string_equal(st.stat, KPI);
	assert_true(between_measured(w) <= ceil_log2(w->n - 1) + 2);
	assert_int_equal(st.confirm, BISECT_CONFIRMED);
	assert_int_equal(st.nconfirm_a, 3);
	assert_int_equal(st.nconfirm_b, 3);
	bisect_format_result(&st, o, &out);
	assert_non_null(strstr(out.buf, "first bad commit: "));
	assert_non_null(strstr(out.buf, w->sha[w->k]));
	assert_non_null(strstr(out.buf, "confirmation: confirmed"));
	bisect_state_release(&st);
	strbuf_release(&err);
	strbuf_release(&out);
}

static void test_driver_clean(void **state)
{
	struct world w;
	size_t k;

	(void)state;
	for (k = 1; k < 40; k += 7) {
		world_init(&w, 40, k, 0);
		check_found(&w, KPI);
	}
}

static void test_driver_noise(void **state)
{
	struct world w;
	size_t k;

	(void)state;
	for (k = 2; k < 40; k += 5) {
		world_init(&w, 40, k, 0.03);
		w.rng += k;
		/* the KPI chosen automatically from the good-vs-bad comparison */
		check_found(&w, NULL);
	}
}

static void test_driver_skip_build(void **state)
{
	struct world w;
	struct bisect_state st;
	struct strbuf err = STRBUF_INIT;
	size_t k = 23;

	(void)state;
	world_init(&w, 40, k, 0.03);
	/* the first commit the search tries does not build */
	w.skip_build = 19;
	assert_int_equal(run_world(&w, &st, KPI, &err), BISECT_FOUND);
	assert_int_equal(st.first_bad, k);
	assert_int_equal(st.commits[19].verdict, BISECT_SKIP);
	assert_non_null(strstr(st.commits[19].why, "125"));
	assert_int_equal(w.measures[19], 0);
	assert_true(between_measured(&w) <= ceil_log2(39) + 2);
	bisect_state_release(&st);
	strbuf_release(&err);
}

static void test_driver_no_change(void **state)
{
	struct world w;
	struct bisect_state st;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	world_init(&w, 40, 20, 0.03);
	w.flat = 0.1;
	assert_int_equal(run_world(&w, &st, KPI, &err), BISECT_NO_CHANGE);
	assert_non_null(strstr(err.buf, "do not differ significantly"));
	assert_non_null(strstr(err.buf, "median"));
	/* more runs were tried on the endpoints, nothing in between */
	assert_int_equal(w.measures[0], 9);
	assert_int_equal(w.measures[39], 9);
	assert_int_equal(between_measured(&w), 0);
	bisect_state_release(&st);
	strbuf_reset(&err);
	/* the same without --stat: no stat differs */
	world_init(&w, 40, 20, 0.03);
	w.flat = 0.1;
	assert_int_equal(run_world(&w, &st, NULL, &err), BISECT_NO_CHANGE);
	assert_non_null(strstr(err.buf, "in any of 3 bisectable stats"));
	assert_non_null(strstr(err.buf, KPI));
	bisect_state_release(&st);
	strbuf_release(&err);
}

static void test_driver_missing_stat(void **state)
{
	struct world w;
	struct bisect_state st;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	world_init(&w, 10, 5, 0);
	assert_int_equal(run_world(&w, &st, "no.such.stat", &err),
			 BISECT_NO_CHANGE);
	assert_non_null(strstr(err.buf, "'no.such.stat' is not in the results"));
	bisect_state_release(&st);
	strbuf_release(&err);
}

static void test_driver_resume(void **state)
{
	struct world w;
	struct bisect_state st;
	struct strbuf err = STRBUF_INIT;
	size_t first[MAXC], i, k = 29;

	(void)state;
	world_init(&w, 40, k, 0.03);
	/* endpoints (3 + 3), three commits (3 triplets of good, commit,
	 * bad each): then ^C, at the last run of the third step, which the
	 * resume judges from its saved start without a run */
	w.interrupt_after = 6 + 3 * 9;
	assert_int_equal(run_world(&w, &st, KPI, &err), BISECT_INTERRUPTED);
	assert_int_equal(between_measured(&w), 3);
	bisect_state_release(&st);
	memcpy(first, w.measures, sizeof(first));
	memset(w.measures, 0, sizeof(w.measures));
	w.interrupt_after = 0;
	w.stop = false;
	assert_int_equal(run_world(&w, &st, KPI, &err), BISECT_FOUND);
	assert_int_equal(st.first_bad, k);
	assert_int_equal(st.reused, 3);
	/*
	 * nothing measured twice, except the confirmation's pair and the
	 * endpoints, whose single reference-check runs follow each verdict
	 */
	for (i = 1; i + 1 < w.n; i++) {
		if (i == k || i == k - 1)
			continue;
		if (first[i])
			assert_int_equal(w.measures[i], 0);
	}
	assert_int_equal(w.measures[k], first[k] ? 3 : 6);
	bisect_state_release(&st);
	strbuf_release(&err);
}

static void test_driver_resume_skip(void **state)
{
	struct world w;
	struct bisect_state st;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	world_init(&w, 40, 23, 0);
	w.skip_build = 19;
	w.interrupt_after = 10;
	assert_int_equal(run_world(&w, &st, KPI, &err), BISECT_INTERRUPTED);
	bisect_state_release(&st);
	assert_int_equal(w.prepares[19], 1);
	assert_int_equal(w.log[19], BISECT_SKIP);
	w.interrupt_after = 0;
	w.stop = false;
	assert_int_equal(run_world(&w, &st, KPI, &err), BISECT_FOUND);
	assert_int_equal(st.first_bad, 23);
	/* the unbuildable commit is not built again */
	assert_int_equal(w.prepares[19], 1);
	assert_int_equal(st.commits[19].verdict, BISECT_SKIP);
	bisect_state_release(&st);
	strbuf_release(&err);
}

static void test_driver_resume_confirmation(void **state)
{
	struct world w, w0;
	struct bisect_state st;
	struct strbuf err = STRBUF_INIT;
	size_t k = 11, total;

	(void)state;
	/* a full run first, to learn how many runs precede the confirmation */
	world_init(&w0, 20, k, 0.02);
	assert_int_equal(run_world(&w0, &st, KPI, &err), BISECT_FOUND);
	bisect_state_release(&st);
	total = w0.total_measures;
	/* the same world, interrupted after the confirmation's 3rd run */
	world_init(&w, 20, k, 0.02);
	w.interrupt_after = total - 3;
	assert_int_equal(run_world(&w, &st, KPI, &err), BISECT_INTERRUPTED);
	bisect_state_release(&st);
	assert_true(w.have_cbase);
	w.interrupt_after = 0;
	w.stop = false;
	memset(w.measures, 0, sizeof(w.measures));
	assert_int_equal(run_world(&w, &st, KPI, &err), BISECT_FOUND);
	assert_int_equal(st.first_bad, k);
	assert_int_equal(st.confirm, BISECT_CONFIRMED);
	/* the confirmation went on: 3 runs left, 3 + 3 samples in the end */
	assert_int_equal(w.measures[k] + w.measures[k - 1], 3);
	assert_int_equal(st.nconfirm_a, 3);
	assert_int_equal(st.nconfirm_b, 3);
	bisect_state_release(&st);
	strbuf_release(&err);
}

/* the driver's old judgement (--no-until-decided) still finds them */
static void test_driver_classic(void **state)
{
	struct world w;
	size_t k;

	(void)state;
	classic = true;
	for (k = 2; k < 40; k += 9) {
		world_init(&w, 40, k, k & 1 ? 0.03 : 0);
		w.rng += k;
		check_found(&w, KPI);
	}
	classic = false;
}

/*
 * Until decided: a noisier commit on the search's path gets runs beyond
 * -n and is still judged right; one too noisy to judge is undecided at
 * --max-runs -- skipped as git bisect skip, and said so, never good or bad.
 */
static void test_driver_until_decided(void **state)
{
	struct world w;
	struct bisect_state st;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;

	(void)state;
	/* 40 commits, bad from 23: the search tests 19 first, then 29 */
	world_init(&w, 40, 23, 0.01);
	w.noisy_at = 19;
	w.noisy = 0.6;
	assert_int_equal(run_world(&w, &st, KPI, &err), BISECT_FOUND);
	assert_int_equal(st.first_bad, 23);
	assert_int_equal(st.commits[19].verdict, BISECT_GOOD);
	assert_true(w.measures[19] > 3);
	assert_true(w.measures[19] <= 9);
	bisect_state_release(&st);

	/* beyond all judging: good's value and bad's, run after run */
	world_init(&w, 40, 23, 0.01);
	w.noisy_at = 19;
	w.flip = true;
	assert_int_equal(run_world(&w, &st, KPI, &err), BISECT_FOUND);
	assert_int_equal(st.first_bad, 23);
	assert_int_equal(st.commits[19].verdict, BISECT_UNDECIDED);
	assert_int_equal(w.measures[19], 9);
	assert_non_null(strstr(st.commits[19].why, "undecided after 9 runs"));
	bisect_format_result(&st, BISECT_FOUND, &out);
	assert_non_null(strstr(out.buf, "  undecided "));
	assert_non_null(strstr(out.buf, "[undecided after 9 runs: vs good "));
	bisect_state_release(&st);

	/* the undecided commit is the culprit itself: a range, not a verdict */
	world_init(&w, 40, 19, 0.01);
	w.noisy_at = 19;
	w.flip = true;
	assert_int_equal(run_world(&w, &st, KPI, &err), BISECT_RANGE);
	assert_int_equal(st.commits[19].verdict, BISECT_UNDECIDED);
	assert_int_equal(st.nskipped, 1);
	strbuf_reset(&out);
	bisect_format_result(&st, BISECT_RANGE, &out);
	assert_non_null(strstr(out.buf, "could be any of"));
	assert_non_null(strstr(out.buf, w.sha[19]));
	bisect_state_release(&st);
	strbuf_release(&err);
	strbuf_release(&out);
}

/* a step's runs: good, commit, bad, then bad, commit, good, ... */
static void test_step_order(void **state)
{
	static const int want[] = {
		BISECT_PARTY_GOOD, BISECT_PARTY_COMMIT, BISECT_PARTY_BAD,
		BISECT_PARTY_BAD, BISECT_PARTY_COMMIT, BISECT_PARTY_GOOD,
		BISECT_PARTY_GOOD, BISECT_PARTY_COMMIT, BISECT_PARTY_BAD,
		BISECT_PARTY_BAD,
	};
	size_t made[3] = { 0, 0, 0 }, i;
	size_t cut[3] = { 1, 2, 2 }; /* cut short after G C B B C */

	(void)state;
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		int p = bisect_step_next(made);

		assert_int_equal(p, want[i]);
		made[p]++;
	}
	/* a step that goes on (a resume) takes up its order */
	assert_int_equal(bisect_step_next(cut), BISECT_PARTY_GOOD);
	cut[0] = 2;
	assert_int_equal(bisect_step_next(cut), BISECT_PARTY_GOOD);
	cut[1] = 3;
	cut[2] = 3;
	cut[0] = 3;
	assert_int_equal(bisect_step_next(cut), BISECT_PARTY_BAD);
}

/*
 * The machine slows down steadily, 1% a run -- twice the half step in
 * 10 runs -- and the step is 10%.  Judged against the endpoints' runs
 * of another time, every commit measured later looks bad; each step's
 * own runs, made beside each other and paired by their start times,
 * find the culprit.  Each step runs good, commit, bad, bad, commit,
 * good, ... -- fresh endpoint runs in the same stretch of time.
 */
static void test_driver_paired_drift(void **state)
{
	struct world w;
	struct bisect_state st;
	struct strbuf err = STRBUF_INIT;
	size_t i, k = 14, first;
	enum bisect_outcome o;

	(void)state;
	world_init(&w, 20, k, 0.004);
	w.bad_value = 0.11;
	w.ramp = 0.01;
	o = run_world(&w, &st, KPI, &err);
	if (o != BISECT_FOUND)
		fail_msg("outcome %d: %s", (int)o, err.buf);
	assert_int_equal(st.first_bad, k);
	assert_int_equal(st.confirm, BISECT_CONFIRMED);
	for (i = 1; i + 1 < w.n; i++)
		if (w.measures[i] && i != k - 1)
			assert_int_equal(st.commits[i].verdict,
					 i >= k ? BISECT_BAD : BISECT_GOOD);
	/* the first step (after the endpoints' 3 + 3): its triplets */
	first = (size_t)w.order[6 + 1];
	assert_true(first > 0 && first + 1 < w.n);
	for (i = 0; i < 3 * 3; i++) {
		static const int party[] = { 0, 1, 2, 2, 1, 0 };
		int p = party[i % 6];

		assert_int_equal(w.order[6 + i],
				 p == 0 ? 0 : p == 1 ? (int)first : (int)w.n - 1);
	}
	bisect_state_release(&st);
	strbuf_release(&err);
}

static void test_verdicts_match_samples(void **state)
{
	struct world w;
	struct bisect_state st;
	struct strbuf err = STRBUF_INIT;
	size_t i, j, ng = 0, nb = 0;

	(void)state;
	world_init(&w, 20, 7, 0.02);
	assert_int_equal(run_world(&w, &st, KPI, &err), BISECT_FOUND);
	/* the chart's two series: good samples below, bad ones above */
	for (i = 0; i < st.ncommits; i++) {
		const struct bisect_commit *c = &st.commits[i];

		for (j = 0; j < c->nkpi; j++) {
			if (c->verdict == BISECT_GOOD) {
				assert_true(c->kpi[j] < 0.15);
				ng++;
			} else if (c->verdict == BISECT_BAD) {
				assert_true(c->kpi[j] > 0.15);
				nb++;
			}
		}
	}
	assert_true(ng >= 6 && nb >= 6);
	bisect_state_release(&st);
	strbuf_release(&err);
}

/*
 * A tested commit's failed run (BISECT_RUN_RETRIES): retried once the
 * commit has given complete runs, and judged on its runs; a commit whose
 * every run fails is skipped at its first, and one that gives complete
 * runs and then fails every time is skipped after the retries.  40
 * commits, bad from 23: the search tests 19 first.
 */
static void test_driver_retry_commit(void **state)
{
	struct world w;
	struct bisect_state st;
	struct strbuf err = STRBUF_INIT;
	enum bisect_outcome o;

	(void)state;
	/* its second run fails once: retried, then judged good */
	world_failing(&w, 19, 1, 1);
	o = run_world(&w, &st, KPI, &err);
	if (o != BISECT_FOUND)
		fail_msg("outcome %d: %s", (int)o, err.buf);
	assert_int_equal(st.first_bad, 23);
	assert_int_equal(w.failed[19], 1);
	assert_int_equal(st.commits[19].verdict, BISECT_GOOD);
	assert_int_equal(w.measures[19], w.nsamples[19] + 1);
	bisect_state_release(&st);

	/* every run fails (a kernel that panics): skipped, not retried */
	world_failing(&w, 19, 0, 0);
	assert_int_equal(run_world(&w, &st, KPI, &err), BISECT_FOUND);
	assert_int_equal(st.first_bad, 23);
	assert_int_equal(st.commits[19].verdict, BISECT_SKIP);
	assert_int_equal(w.failed[19], 1);
	assert_int_equal(w.nsamples[19], 0);
	assert_string_equal(st.commits[19].why,
			    "the job gave no complete run: kernel_panic: 1, "
			    "is_incomplete_run: 1");
	bisect_state_release(&st);

	/* two complete runs, then it fails for good: retried twice, skipped */
	world_failing(&w, 19, 2, 0);
	assert_int_equal(run_world(&w, &st, KPI, &err), BISECT_FOUND);
	assert_int_equal(st.commits[19].verdict, BISECT_SKIP);
	assert_int_equal(w.failed[19], 1 + BISECT_RUN_RETRIES);
	assert_int_equal(w.nsamples[19], 2);
	assert_non_null(strstr(st.commits[19].why, "in 3 runs in a row "
					      "(after 2 complete ones)"));
	bisect_state_release(&st);

	/* the culprit itself fails once, at its third run: still found */
	world_failing(&w, 23, 2, 1);
	o = run_world(&w, &st, KPI, &err);
	if (o != BISECT_FOUND)
		fail_msg("outcome %d: %s", (int)o, err.buf);
	assert_int_equal(st.first_bad, 23);
	assert_int_equal(st.confirm, BISECT_CONFIRMED);
	assert_int_equal(w.failed[23], 1);
	bisect_state_release(&st);
	strbuf_release(&err);
}

/*
 * An endpoint's failed run: retried (it has its complete runs from the
 * start); failing every time from its first run, or failing for good
 * later, the bisect ends, naming the endpoint and the failure.
 */
static void test_driver_retry_endpoint(void **state)
{
	struct world w;
	struct bisect_state st;
	struct strbuf err = STRBUF_INIT;
	enum bisect_outcome o;
	char sha[32];

	(void)state;
	/* good's fifth run (the first step's second triplet) fails once */
	world_failing(&w, 0, 4, 1);
	o = run_world(&w, &st, KPI, &err);
	if (o != BISECT_FOUND)
		fail_msg("outcome %d: %s", (int)o, err.buf);
	assert_int_equal(st.first_bad, 23);
	assert_int_equal(w.failed[0], 1);
	bisect_state_release(&st);

	/* bad fails once in the endpoints' own runs, at its second */
	world_failing(&w, 39, 1, 1);
	assert_int_equal(run_world(&w, &st, KPI, &err), BISECT_FOUND);
	assert_int_equal(w.failed[39], 1);
	bisect_state_release(&st);

	/* bad never gives a complete run: the bisect ends at once */
	world_failing(&w, 39, 0, 0);
	assert_int_equal(run_world(&w, &st, KPI, &err), BISECT_ERROR);
	assert_int_equal(w.failed[39], 1);
	snprintf(sha, sizeof(sha), "bad %.*s: ", SHORT_SHA_LEN, w.sha[39]);
	assert_non_null(strstr(err.buf, sha));
	assert_non_null(strstr(err.buf, ": the job gave no complete run: "
					"kernel_panic: 1"));
	assert_int_equal(between_measured(&w), 0);
	bisect_state_release(&st);
	strbuf_reset(&err);

	/* good fails for good after 5 complete runs: retried, then the end */
	world_failing(&w, 0, 5, 0);
	assert_int_equal(run_world(&w, &st, KPI, &err), BISECT_ERROR);
	assert_int_equal(w.failed[0], 1 + BISECT_RUN_RETRIES);
	assert_non_null(strstr(err.buf, "the job gave no complete run in 3 "
					"runs in a row (after 5 complete ones)"));
	snprintf(sha, sizeof(sha), "good %.*s: ", SHORT_SHA_LEN, w.sha[0]);
	assert_non_null(strstr(err.buf, sha));
	bisect_state_release(&st);
	strbuf_release(&err);
}

/*
 * ^C right after a failed run: the resumed bisect retries it (the
 * failed run is not a run of the step), runs nothing twice and judges
 * the commit.
 */
static void test_driver_retry_resume(void **state)
{
	struct world w;
	struct bisect_state st;
	struct strbuf err = STRBUF_INIT;
	size_t before;

	(void)state;
	world_failing(&w, 19, 1, 1);
	/* endpoints 3 + 3, then good, 19 (complete), bad, bad, 19 (fails) */
	w.interrupt_after = 6 + 5;
	assert_int_equal(run_world(&w, &st, KPI, &err), BISECT_INTERRUPTED);
	bisect_state_release(&st);
	assert_int_equal(w.failed[19], 1);
	assert_int_equal(w.nsamples[19], 1);
	before = w.measures[19];
	w.interrupt_after = 0;
	w.stop = false;
	assert_int_equal(run_world(&w, &st, KPI, &err), BISECT_FOUND);
	assert_int_equal(st.first_bad, 23);
	assert_int_equal(st.commits[19].verdict, BISECT_GOOD);
	assert_int_equal(w.failed[19], 1);
	/* every run of 19 gave one sample but the failed one */
	assert_int_equal(w.measures[19], w.nsamples[19] + 1);
	assert_true(w.measures[19] > before);
	bisect_state_release(&st);
	strbuf_release(&err);
}

/*
 * The reason for a skipped commit that the real ops (bisect/exec.c)
 * give: the newest run's last_state, one line, every control character
 * escaped -- a pulled or copied run's last_state may hold an ESC, and
 * the reason goes to the terminal (the third attack, L11).
 */
static void test_exec_failure_escaped(void **state)
{
	char tmpl[] = "/tmp/perfsift-test-xfail.XXXXXX";
	char *root = mkdtemp(tmpl);
	struct bisect_exec x;
	struct bisect_ops ops;
	struct strbuf path = STRBUF_INIT, why = STRBUF_INIT;
	static const char text[] = "exit_code.1: 1\n"
		"job: \033]0;owned\007\033[2J\\n\n"
		"is_incomplete_run: 1\n";

	(void)state;
	assert_non_null(root);
	memset(&x, 0, sizeof(x));
	x.group = xstrdup(root);
	bisect_exec_ops(&x, &ops);
	/* run 0 complete, run 3 the newest: its last_state is the reason */
	strbuf_addf(&path, "%s/abc/0", root);
	assert_int_equal(mkdir_p(path.buf, 0755), 0);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/abc/3", root);
	assert_int_equal(mkdir_p(path.buf, 0755), 0);
	strbuf_addstr(&path, "/last_state");
	assert_int_equal(write_file_atomic(path.buf, text, strlen(text)), 0);
	ops.failure(ops.data, "abc", &why);
	assert_string_equal(why.buf, "exit_code.1: 1, job: \\x1b]0;owned\\x07"
			    "\\x1b[2J\\x5cn, is_incomplete_run: 1");
	bisect_exec_release(&x);
	remove_tree(root);
	strbuf_release(&path);
	strbuf_release(&why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lkp_rules),
		cmocka_unit_test(test_exec_failure_escaped),
		cmocka_unit_test(test_summary_trim),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_decide_sides),
		cmocka_unit_test(test_kpi_priority),
		cmocka_unit_test(test_search_plain),
		cmocka_unit_test(test_search_every_k),
		cmocka_unit_test(test_search_skip),
		cmocka_unit_test(test_driver_clean),
		cmocka_unit_test(test_driver_noise),
		cmocka_unit_test(test_driver_skip_build),
		cmocka_unit_test(test_driver_no_change),
		cmocka_unit_test(test_driver_missing_stat),
		cmocka_unit_test(test_driver_resume),
		cmocka_unit_test(test_driver_resume_skip),
		cmocka_unit_test(test_driver_resume_confirmation),
		cmocka_unit_test(test_verdicts_match_samples),
		cmocka_unit_test(test_driver_classic),
		cmocka_unit_test(test_driver_until_decided),
		cmocka_unit_test(test_step_order),
		cmocka_unit_test(test_driver_paired_drift),
		cmocka_unit_test(test_driver_retry_commit),
		cmocka_unit_test(test_driver_retry_endpoint),
		cmocka_unit_test(test_driver_retry_resume),
	};

	return cmocka_run_group_tests(tests, rules_setup, rules_teardown);
}
