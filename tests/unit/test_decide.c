/*
 * test_decide.c: the decision loop (decide/decide.h) driven by synthetic
 * ops: the order of runs (ABAB pairs, base first), the minimum of fresh
 * pairs whatever the caller holds, the budget, a lone run for the side
 * whose spread limits (and its 2x cap), each KPI on its own, queued runs,
 * errors; and, with seeded noise of a stated size (per-run spread 20%,
 * a drift shared by the two runs of a pair), that a 30% slowdown is
 * decided changed and an unchanged head never changed, within the
 * default budget, by a plain paired-ratio judge of this test's own.
 */
#include "util/compat.h"
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <gsl/gsl_cdf.h>
#include "decide/decide.h"
#include "util/strbuf.h"

/* a scripted world: the log of sides run, and what judge() says */
struct script {
	char log[256];
	size_t nlog;
	size_t decide_at_pairs; /* judge says decided from this many pairs */
	size_t changed_kpis;    /* ... with this many changed (else same) */
	size_t noisy_kpis;      /* KPIs never decided */
	enum decide_want want;  /* what judge says limits */
	int fail_at;            /* run number that fails (0: none) */
	int queue_from;         /* run number from which runs are queued */
	size_t judged_runs[2];  /* what judge saw last */
};

static int s_run(void *data, enum decide_side side, struct strbuf *err)
{
	struct script *s = data;

	s->log[s->nlog++] = side == DECIDE_BASE ? 'B' : 'H';
	s->log[s->nlog] = '\0';
	if (s->fail_at && (int)s->nlog == s->fail_at) {
		strbuf_addstr(err, "run failed");
		return -1;
	}
	return s->queue_from && (int)s->nlog >= s->queue_from;
}

static int s_judge(void *data, struct decide_tally *t, struct strbuf *err)
{
	struct script *s = data;

	(void)err;
	s->judged_runs[0] = t->runs[DECIDE_BASE];
	s->judged_runs[1] = t->runs[DECIDE_HEAD];
	t->undecided = s->noisy_kpis;
	if (t->pairs < s->decide_at_pairs) {
		t->undecided += 1;
		t->want = s->want;
	} else {
		t->changed = s->changed_kpis;
		t->same = s->changed_kpis ? 0 : 1;
	}
	return 0;
}

static struct decide_ops script_ops(struct script *s)
{
	struct decide_ops o = { s, s_run, s_judge, NULL };

	return o;
}

static void test_abab_until_decided(void **state)
{
	struct script s = { .decide_at_pairs = 5, .changed_kpis = 1 };
	struct decide_ops o = script_ops(&s);
	struct decide_budget b = { .min_runs = 3, .max_runs = 20 };
	struct decide_tally t;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(decide_until(&o, &b, &t, &err), 0);
	assert_string_equal(s.log, "BHBHBHBHBH");
	assert_int_equal(t.verdict, DECIDE_CHANGED);
	assert_int_equal(t.stop, DECIDE_STOP_DECIDED);
	assert_int_equal(t.pairs, 5);
	assert_int_equal(t.runs[DECIDE_BASE], 5);
	assert_int_equal(t.runs[DECIDE_HEAD], 5);
	assert_int_equal(t.judged, 3); /* after pairs 3, 4, 5 */
	assert_string_equal(decide_verdict_name(t.verdict), "changed");
	strbuf_release(&err);
}

static void test_same(void **state)
{
	struct script s = { .decide_at_pairs = 3 };
	struct decide_ops o = script_ops(&s);
	struct decide_budget b = { .min_runs = 3, .max_runs = 20 };
	struct decide_tally t;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(decide_until(&o, &b, &t, &err), 0);
	assert_string_equal(s.log, "BHBHBH");
	assert_int_equal(t.verdict, DECIDE_SAME);
	strbuf_release(&err);
}

/* undecided at the budget: undecided, never same; start counts toward max */
static void test_budget_and_start(void **state)
{
	struct script s = { .decide_at_pairs = 1000 };
	struct decide_ops o = script_ops(&s);
	struct decide_budget b = { .min_runs = 3, .max_runs = 6,
				   .start = { 2, 0 } };
	struct decide_tally t;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(decide_until(&o, &b, &t, &err), 0);
	/* base 2 stored + 4 made = 6; the head's 4 all beside them */
	assert_string_equal(s.log, "BHBHBHBH");
	assert_int_equal(t.verdict, DECIDE_UNDECIDED);
	assert_int_equal(t.stop, DECIDE_STOP_BUDGET);
	assert_int_equal(t.runs[DECIDE_BASE], 6);
	assert_int_equal(t.made[DECIDE_BASE], 4);
	assert_int_equal(t.runs[DECIDE_HEAD], 4);
	assert_string_equal(decide_verdict_name(t.verdict), "undecided");
	strbuf_release(&err);
}

/* stored runs never decide alone: min_runs fresh pairs come first */
static void test_fresh_pairs_first(void **state)
{
	struct script s = { .decide_at_pairs = 0 };
	struct decide_ops o = script_ops(&s);
	struct decide_budget b = { .min_runs = 2, .max_runs = 20,
				   .start = { 10, 10 } };
	struct decide_tally t;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(decide_until(&o, &b, &t, &err), 0);
	assert_string_equal(s.log, "BHBH");
	assert_int_equal(s.judged_runs[0], 12);
	assert_int_equal(t.judged, 1);
	/* min_runs 0: judges what is held, no run */
	s.nlog = 0;
	s.log[0] = '\0';
	b.min_runs = 0;
	assert_int_equal(decide_until(&o, &b, &t, &err), 0);
	assert_string_equal(s.log, "");
	assert_int_equal(t.verdict, DECIDE_SAME);
	strbuf_release(&err);
}

/* the head's spread limits: lone head runs up to 2x the base's, then pairs */
static void test_lone_side(void **state)
{
	struct script s = { .decide_at_pairs = 1000, .want = DECIDE_WANT_HEAD };
	struct decide_ops o = script_ops(&s);
	struct decide_budget b = { .min_runs = 2, .max_runs = 6 };
	struct decide_tally t;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(decide_until(&o, &b, &t, &err), 0);
	/* 2 pairs, head to 4 (2 x 2), pair (3/5), head 6, base has room
	 * but the head none: a pair cannot be made, the budget is spent */
	assert_string_equal(s.log, "BHBHHHBHH");
	assert_int_equal(t.runs[DECIDE_BASE], 3);
	assert_int_equal(t.runs[DECIDE_HEAD], 6);
	assert_int_equal(t.stop, DECIDE_STOP_BUDGET);
	/* the base limits instead: the same, mirrored */
	s.nlog = 0;
	s.want = DECIDE_WANT_BASE;
	assert_int_equal(decide_until(&o, &b, &t, &err), 0);
	assert_string_equal(s.log, "BHBHBBBHB");
	strbuf_release(&err);
}

/* one noisy KPI never holds a changed one back (with first_change) */
static void test_each_kpi_on_its_own(void **state)
{
	struct script s = { .decide_at_pairs = 4, .changed_kpis = 1,
			    .noisy_kpis = 1 };
	struct decide_ops o = script_ops(&s);
	struct decide_budget b = { .min_runs = 3, .max_runs = 20,
				   .first_change = true };
	struct decide_tally t;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(decide_until(&o, &b, &t, &err), 0);
	assert_int_equal(t.pairs, 4);
	assert_int_equal(t.verdict, DECIDE_CHANGED);
	assert_int_equal(t.stop, DECIDE_STOP_DECIDED);
	/* without first_change it goes on for the noisy one, and at the
	 * budget the head is still changed, not undecided */
	b.first_change = false;
	s.nlog = 0;
	assert_int_equal(decide_until(&o, &b, &t, &err), 0);
	assert_int_equal(t.pairs, 20);
	assert_int_equal(t.stop, DECIDE_STOP_BUDGET);
	assert_int_equal(t.verdict, DECIDE_CHANGED);
	strbuf_release(&err);
}

/* a queued run: the rest of its pair is queued too, then it stops */
static void test_pending(void **state)
{
	struct script s = { .decide_at_pairs = 1000, .queue_from = 5 };
	struct decide_ops o = script_ops(&s);
	struct decide_budget b = { .min_runs = 3, .max_runs = 20 };
	struct decide_tally t;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(decide_until(&o, &b, &t, &err), 0);
	assert_string_equal(s.log, "BHBHBH");
	assert_int_equal(t.stop, DECIDE_STOP_PENDING);
	assert_int_equal(t.judged, 0);
	assert_int_equal(t.verdict, DECIDE_UNDECIDED);
	strbuf_release(&err);
}

static void test_error(void **state)
{
	struct script s = { .decide_at_pairs = 1000, .fail_at = 4 };
	struct decide_ops o = script_ops(&s);
	struct decide_budget b = { .min_runs = 3, .max_runs = 20 };
	struct decide_tally t;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(decide_until(&o, &b, &t, &err), -1);
	assert_string_equal(err.buf, "run failed");
	assert_int_equal(t.runs[DECIDE_BASE], 2);
	assert_int_equal(t.runs[DECIDE_HEAD], 1);
	strbuf_release(&err);
}

/*
 * Seeded noise: each run's value is 100 x (1 - slowdown on the head) x
 * (1 + 0.20 N(0,1)) x a drift shared by both runs of a pair (the other
 * work on the machine, 1 + 0.15 N(0,1)).  The judge: the mean of the
 * pairs' log ratios and its 99.9% t-interval (compare's kpi_level; not
 * 95%: it is looked at after every pair, up to the robot's 30, and each
 * look is a chance of a false "changed": at 99%, 30 looks gave more
 * than 5% of unchanged heads changed);
 * changed when it excludes 0 and |change| >= 5%, same when it lies
 * inside +-5%.  Only the loop is under test: the
 * verdict rule of the robot is compare's.
 */
struct noisy {
	uint64_t rng;
	double slowdown;
	double logr[64];
	size_t n;
	double base_v; /* the pending base run's value, until its head run */
	double drift;
};

static double uniform(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return ((double)(*x >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(uint64_t *x)
{
	double u = uniform(x), v = uniform(x);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static int n_run(void *data, enum decide_side side, struct strbuf *err)
{
	struct noisy *w = data;
	double v;

	(void)err;
	if (side == DECIDE_BASE)
		w->drift = fmax(0.3, 1 + 0.15 * gauss(&w->rng));
	v = 100 * w->drift * fmax(0.3, 1 + 0.20 * gauss(&w->rng));
	if (side == DECIDE_BASE) {
		w->base_v = v;
		return 0;
	}
	v *= 1 - w->slowdown;
	assert_true(w->n < 64);
	w->logr[w->n++] = log(v / w->base_v);
	return 0;
}

static int n_judge(void *data, struct decide_tally *t, struct strbuf *err)
{
	struct noisy *w = data;
	double mean = 0, var = 0, half, lo, hi, min = log(1.05);
	size_t i;

	(void)err;
	for (i = 0; i < w->n; i++)
		mean += w->logr[i];
	mean /= (double)w->n;
	for (i = 0; i < w->n; i++)
		var += (w->logr[i] - mean) * (w->logr[i] - mean);
	var /= (double)(w->n - 1);
	half = gsl_cdf_tdist_Pinv(0.9995, (double)(w->n - 1)) *
	       sqrt(var / (double)w->n);
	lo = mean - half;
	hi = mean + half;
	if ((hi < 0 || lo > 0) && fabs(mean) >= min)
		t->changed = 1;
	else if (lo > -min && hi < min)
		t->same = 1;
	else
		t->undecided = 1;
	return 0;
}

static void scenarios(double slowdown, size_t *changed, size_t *undecided,
		      size_t *runs)
{
	struct decide_budget b = { .min_runs = 3,
				   .max_runs = DECIDE_DEFAULT_MAX_RUNS };
	struct strbuf err = STRBUF_INIT;
	uint64_t seed;

	*changed = *undecided = *runs = 0;
	for (seed = 1; seed <= 200; seed++) {
		struct noisy w = { .rng = 0x9e3779b97f4a7c15ULL * seed,
				   .slowdown = slowdown };
		struct decide_ops o = { &w, n_run, n_judge, NULL };
		struct decide_tally t;

		assert_int_equal(decide_until(&o, &b, &t, &err), 0);
		assert_int_equal(t.runs[DECIDE_BASE], t.runs[DECIDE_HEAD]);
		*changed += t.verdict == DECIDE_CHANGED;
		*undecided += t.verdict == DECIDE_UNDECIDED;
		*runs += t.runs[DECIDE_HEAD];
	}
	strbuf_release(&err);
}

static void test_seeded_noise(void **state)
{
	size_t changed, undecided, runs;

	(void)state;
	/* 30% at 20% per-run noise: decided changed in >= 95% of 200 */
	scenarios(0.30, &changed, &undecided, &runs);
	assert_true(changed >= 190);
	/* unchanged: changed in at most 5% (the t-interval's own rate) */
	scenarios(0, &changed, &undecided, &runs);
	assert_true(changed <= 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_abab_until_decided),
		cmocka_unit_test(test_same),
		cmocka_unit_test(test_budget_and_start),
		cmocka_unit_test(test_fresh_pairs_first),
		cmocka_unit_test(test_lone_side),
		cmocka_unit_test(test_each_kpi_on_its_own),
		cmocka_unit_test(test_pending),
		cmocka_unit_test(test_error),
		cmocka_unit_test(test_seeded_noise),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
