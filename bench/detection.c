/*
 * bench/detection.c: how often the robot's flow finds a planted slowdown
 * and how often it mails an unchanged branch, on seeded noise --
 * docs/detection.md's table.
 *
 *   build/bench/detection [--trials N] [--budget PAIRS] [--bisect-max R]
 *                         [--level L] [--run-s S] [--seed S] [--noise PCT]
 *                         [--slowdown PCT] [--unpaired] [--drift X]
 *   (defaults: 300 trials a case, a budget of 20 pairs, bisect --max-runs
 *    20 as `perfsift bisect`, the KPI rule's level 0.001, 30 s a run;
 *    every slowdown of 5, 10,
 *    20, 30% and 0 (unchanged) at every noise of 1, 5, 20%, unless one
 *    is given)
 *
 * The model (one trial = one branch of 6 commits on a base):
 *  - a run of commit i started at time t measures
 *      speed_i x drift(t) x exp(noise x N(0,1))
 *    -- log-normal multiplicative noise of the given size -- where speed_i
 *    is 1, or 1 - slowdown from the 4th commit of the 6 on, and drift(t)
 *    = 1 + X noise sin(2 pi t / (60 runs) + phase) is a slow swing of the
 *    machine's speed, X (--drift, default 1) times the per-run noise (a
 *    phase per trial),
 *    so that runs made at another time differ by more than their noise
 *    and interleaving matters;
 *  - the head against the base: src/decide/'s decide_until() as the
 *    robot calls it (pairs base then head, judged after every pair from
 *    the 3rd, a lone base run where the base's spread alone limits) with
 *    the robot's judgement as a model: compare_groups() and
 *    compare_kpi_tally() -- the real rule, the runs' start times given,
 *    so the pairs are found as compare finds them -- until the head is
 *    regressed, improved or the same, or the budget of pairs is spent
 *    (undecided: no mail);
 *  - regressed: bisect_run() over the 7 commits (base .. head) with
 *    synthetic ops drawing runs from the same model at the current time
 *    and saying when each began (the starts op), so that each step's
 *    triplets (good, commit, bad / bad, commit, good) are paired as on
 *    a real machine; bisect's defaults (-n 3, --max-runs given) and its
 *    ABAB confirmation;
 *  - a mail: the bisect named a commit and the confirmation confirmed
 *    it.  Found: the mail names the planted 4th commit.
 * Printed per case: found and confirmed (slowdowns) or mailed wrongly
 * (unchanged), the head test's endings, runs spent (mean, p90) and the
 * simulated wall time at --run-s a run.
 *
 * The loop is the library's (decide_until, bisect_run); the judgement of
 * a head is the robot's as a model (src/robot/verdict.c reads the store).
 * --unpaired gives no start times to either.
 */
#include "util/compat.h"
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bisect/bisect.h"
#include "compare/compare.h"
#include "decide/decide.h"
#include "result/matrix.h"
#include "result/stats.h"
#include "select/select.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define NCOMMITS 7      /* the base and the branch's 6 commits */
#define PLANTED 4       /* the slowdown's commit: the 4th of the 6 */
#define DRIFT_PERIOD 60 /* runs */
#define MAX_RUNS_KEPT 1024

static uint64_t rng;

static double uniform(void)
{
	return ((double)(stats_splitmix64(&rng) >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

struct world {
	double noise, slowdown, phase, drift;
	double level;
	bool unpaired;
	size_t clock;                    /* runs made so far: the time */
	double v[NCOMMITS][MAX_RUNS_KEPT];
	double t[NCOMMITS][MAX_RUNS_KEPT];
	size_t n[NCOMMITS];
	char sha[NCOMMITS][41];
};

/* one run of commit i, now */
static int draw(struct world *w, size_t i)
{
	double speed = i >= PLANTED ? 1 - w->slowdown : 1;
	double drift = 1 + w->drift * sin(2 * M_PI * (double)w->clock /
						  DRIFT_PERIOD + w->phase);

	if (w->n[i] >= MAX_RUNS_KEPT)
		return -1;
	w->t[i][w->n[i]] = (double)w->clock;
	w->v[i][w->n[i]++] = 100 * speed * drift * exp(w->noise * gauss());
	w->clock++;
	return 0;
}

/* commit i's runs as a matrix of the one stat (m initialised) */
static void fill_matrix(const struct world *w, size_t i, struct matrix *m)
{
	m->nstats = 1;
	m->nruns = w->n[i];
	m->names = xcalloc(1, sizeof(char *));
	m->names[0] = xstrdup("bench.score");
	m->values = xmalloc(w->n[i] * sizeof(double));
	memcpy(m->values, w->v[i], w->n[i] * sizeof(double));
	m->is_int = xcalloc(1, 1);
}

/* commit i's runs as a result group, with their start times */
static void group_of(const struct world *w, size_t i, struct result_group *g)
{
	result_group_init(g);
	fill_matrix(w, i, &g->matrix);
	if (!w->unpaired) {
		g->run_start = xmalloc(w->n[i] * sizeof(double));
		memcpy(g->run_start, w->t[i], w->n[i] * sizeof(double));
	}
	result_group_set_axis(g, "testcase", "bench");
	result_group_set_axis(g, "commit", w->sha[i]);
	g->label = xstrdup(w->sha[i]);
	g->kpi = xstrdup("bench.score: higher");
}

enum head_end { H_REGRESSED, H_IMPROVED, H_SAME, H_UNDECIDED, H_NEND };

/* the head test's state between decide_until()'s calls */
struct head {
	struct world *w;
	struct compare_options o;
	bool regressed; /* the last judgement found a regressed KPI */
};

static int head_run(void *data, enum decide_side side, struct strbuf *err)
{
	struct head *h = data;

	if (draw(h->w, side == DECIDE_BASE ? 0 : NCOMMITS - 1)) {
		strbuf_addstr(err, "too many runs");
		return -1;
	}
	return 0;
}

/* the robot's judgement (robot/verdict.c's judging_judge) as a model */
static int head_judge(void *data, struct decide_tally *t, struct strbuf *err)
{
	struct head *h = data;
	struct result_group g[2];
	const struct result_group *gp[2] = { &g[0], &g[1] };
	struct compare_result res;
	struct compare_kpi_tally k;

	group_of(h->w, 0, &g[0]);
	group_of(h->w, NCOMMITS - 1, &g[1]);
	if (compare_groups(gp, 2, &h->o, &res, err)) {
		result_group_release(&g[0]);
		result_group_release(&g[1]);
		return -1;
	}
	compare_kpi_tally(&res, &k);
	compare_result_release(&res);
	result_group_release(&g[0]);
	result_group_release(&g[1]);
	h->regressed = k.regressed > 0;
	t->changed = k.changed;
	t->same = k.same;
	t->undecided = k.undecided;
	if (t->undecided && k.base_limited == t->undecided)
		t->want = DECIDE_WANT_BASE;
	return 0;
}

/*
 * The head test: src/decide/'s decide_until(), as the robot calls it --
 * pairs base then head, judged from the 3rd pair, until decided or the
 * budget of pairs is spent (undecided: no mail).
 */
static enum head_end head_test(struct world *w, size_t budget)
{
	struct head h = { .w = w };
	struct decide_ops ops = { .data = &h, .run = head_run,
				  .judge = head_judge };
	struct decide_budget b = { .min_runs = 3, .max_runs = budget,
				   .first_change = true };
	struct decide_tally t;
	struct strbuf err = STRBUF_INIT;

	compare_options_init(&h.o);
	h.o.kpi = true;
	h.o.no_statistics = true;
	h.o.kpi_level = w->level;
	if (decide_until(&ops, &b, &t, &err) < 0) {
		fprintf(stderr, "detection: %s\n", err.buf);
		exit(3);
	}
	strbuf_release(&err);
	if (t.verdict == DECIDE_CHANGED)
		return h.regressed ? H_REGRESSED : H_IMPROVED;
	return t.verdict == DECIDE_SAME ? H_SAME : H_UNDECIDED;
}

/* ---- bisect_run() over the same world ---- */

static size_t index_of(const char *sha)
{
	return (size_t)strtoul(sha, NULL, 16) % NCOMMITS;
}

static int op_prepare(void *data, int slot, const char *sha, struct strbuf *why)
{
	(void)data; (void)slot; (void)sha; (void)why;
	return 0;
}

static int op_measure(void *data, int slot, const char *sha, struct strbuf *err)
{
	(void)slot;
	if (draw(data, index_of(sha))) {
		strbuf_addstr(err, "too many runs");
		return -1;
	}
	return 0;
}

static int op_samples(void *data, const char *sha, struct matrix *m,
		      struct strbuf *err)
{
	const struct world *w = data;
	size_t i = index_of(sha);

	(void)err;
	matrix_init(m);
	if (w->n[i])
		fill_matrix(w, i, m);
	return 0;
}

/* each run began at the model's time t: bisect pairs by it */
static int op_starts(void *data, const char *sha, const struct matrix *m,
		     double *t, struct strbuf *err)
{
	const struct world *w = data;
	size_t i = index_of(sha);

	(void)err;
	if (m->nruns != w->n[i])
		return -1;
	memcpy(t, w->t[i], m->nruns * sizeof(double));
	return 0;
}

enum mail { M_NONE, M_RIGHT, M_WRONG };

/* why a bisect mailed nothing: refused, range, unconfirmed, error */
static size_t bisect_why[5];

static enum mail bisect_trial(struct world *w, size_t bisect_max)
{
	struct bisect_ops ops;
	struct bisect_options bo;
	struct bisect_state st;
	struct strbuf err = STRBUF_INIT;
	enum bisect_outcome out;
	enum mail m = M_NONE;
	size_t i;

	memset(&ops, 0, sizeof(ops));
	ops.prepare = op_prepare;
	ops.measure = op_measure;
	ops.samples = op_samples;
	if (!w->unpaired)
		ops.starts = op_starts;
	ops.data = w;
	memset(&bo, 0, sizeof(bo));
	bo.runs = 3;
	bo.max_runs = bisect_max;
	bo.stat = "bench.score";
	bo.testcase = "bench";
	bisect_state_init(&st);
	for (i = 0; i < NCOMMITS; i++)
		bisect_state_add_commit(&st, w->sha[i], NULL);
	out = bisect_run(&st, &bo, &ops, &err);
	if (out == BISECT_FOUND && st.confirm == BISECT_CONFIRMED)
		m = st.first_bad == PLANTED ? M_RIGHT : M_WRONG;
	else if (out == BISECT_NO_CHANGE)
		bisect_why[0]++;
	else if (out == BISECT_RANGE)
		bisect_why[1]++;
	else if (out == BISECT_FOUND)
		bisect_why[st.confirm == BISECT_NOT_REPRODUCIBLE ? 2 : 3]++;
	else {
		bisect_why[4]++;
		fprintf(stderr, "detection: bisect: %s\n", err.buf);
	}
	bisect_state_release(&st);
	strbuf_release(&err);
	return m;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

struct knobs {
	size_t trials, budget, bisect_max;
	double level, run_s, drift;
	bool unpaired;
};

static void run_case(const struct knobs *k, double slowdown, double noise,
		     uint64_t seed)
{
	struct world *w = xcalloc(1, sizeof(*w));
	size_t ends[H_NEND] = { 0 }, mails[3] = { 0 }, t, i, sum = 0;
	size_t *runs = xcalloc(k->trials, sizeof(size_t));

	memset(bisect_why, 0, sizeof(bisect_why));
	for (t = 0; t < k->trials; t++) {
		enum head_end e;

		memset(w, 0, sizeof(*w));
		rng = seed + 7919 * (t + 1);
		w->noise = noise / 100;
		w->drift = k->drift * noise / 100;
		w->slowdown = slowdown / 100;
		w->phase = 2 * M_PI * uniform();
		w->level = k->level;
		w->unpaired = k->unpaired;
		for (i = 0; i < NCOMMITS; i++)
			snprintf(w->sha[i], sizeof(w->sha[i]), "%040zx", i);
		e = head_test(w, k->budget);
		ends[e]++;
		mails[e == H_REGRESSED ? bisect_trial(w, k->bisect_max) : M_NONE]++;
		runs[t] = w->clock;
		sum += w->clock;
	}
	qsort(runs, k->trials, sizeof(*runs), cmp_size);
	printf("| %g%% | %g%% | %zu | %.1f%% | %.1f%% | %.1f%% / %.1f%% / %.1f%% / %.1f%% | %zu / %zu / %zu / %zu | %.1f | %zu | %.0f min |\n",
	       slowdown, noise, k->trials,
	       100.0 * (double)mails[M_RIGHT] / (double)k->trials,
	       100.0 * (double)(mails[M_WRONG] +
				(slowdown > 0 ? 0 : mails[M_RIGHT])) /
		       (double)k->trials,
	       100.0 * (double)ends[H_REGRESSED] / (double)k->trials,
	       100.0 * (double)ends[H_SAME] / (double)k->trials,
	       100.0 * (double)ends[H_IMPROVED] / (double)k->trials,
	       100.0 * (double)ends[H_UNDECIDED] / (double)k->trials,
	       bisect_why[0], bisect_why[1], bisect_why[2],
	       bisect_why[3] + bisect_why[4],
	       (double)sum / (double)k->trials,
	       runs[(k->trials * 9) / 10],
	       (double)sum / (double)k->trials * k->run_s / 60);
	free(runs);
	free(w);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "trials", required_argument, NULL, 't' },
		{ "budget", required_argument, NULL, 'b' },
		{ "bisect-max", required_argument, NULL, 'm' },
		{ "level", required_argument, NULL, 'l' },
		{ "run-s", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 'S' },
		{ "noise", required_argument, NULL, 'e' },
		{ "slowdown", required_argument, NULL, 's' },
		{ "unpaired", no_argument, NULL, 'u' },
		{ "drift", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	static const double slowdowns[] = { 5, 10, 20, 30, 0 };
	static const double noises[] = { 1, 5, 20 };
	struct knobs k = { 300, 20, 20, 0.001, 30, 1, false };
	double one_noise = -1, one_slowdown = -1;
	uint64_t seed = 20261201;
	size_t a, b;
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 't': k.trials = strtoul(optarg, NULL, 10); break;
		case 'b': k.budget = strtoul(optarg, NULL, 10); break;
		case 'm': k.bisect_max = strtoul(optarg, NULL, 10); break;
		case 'l': k.level = strtod(optarg, NULL); break;
		case 'r': k.run_s = strtod(optarg, NULL); break;
		case 'S': seed = strtoull(optarg, NULL, 10); break;
		case 'e': one_noise = strtod(optarg, NULL); break;
		case 's': one_slowdown = strtod(optarg, NULL); break;
		case 'u': k.unpaired = true; break;
		case 'd': k.drift = strtod(optarg, NULL); break;
		default:
			fprintf(stderr, "usage: bench/detection [--trials N] [--budget PAIRS] [--bisect-max R] [--level L] [--run-s S] [--seed S] [--noise PCT] [--slowdown PCT] [--unpaired] [--drift X]\n");
			return 2;
		}
	}
	/* a commit's runs: the head test's, then bisect's and the
	 * confirmation's, each at most bisect-max */
	if (!k.trials || k.budget < 3 || k.budget > 100 || k.bisect_max < 3 ||
	    k.bisect_max > 200 || !(k.level > 0 && k.level < 1)) {
		fprintf(stderr, "detection: need trials > 0, 3 <= budget <= 100, 3 <= bisect-max <= 200, 0 < level < 1\n");
		return 2;
	}
	printf("detection: %zu trials a case, budget %zu pairs, bisect -n 3 --max-runs %zu, level %g, drift %g x the noise, %s, %g s a run, seed %llu\n\n",
	       k.trials, k.budget, k.bisect_max, k.level, k.drift,
	       k.unpaired ? "unpaired (no start times)" : "paired by start time",
	       k.run_s, (unsigned long long)seed);
	printf("| slowdown | noise | trials | found + confirmed | mailed wrongly | head: regressed / same / improved / undecided | bisect, no mail: refused / range / not reproducible / other | runs: mean | p90 | wall time (mean) |\n");
	printf("|---|---|---|---|---|---|---|---|---|---|\n");
	for (b = 0; b < ARRAY_SIZE(noises); b++) {
		if (one_noise >= 0 && noises[b] != one_noise)
			continue;
		for (a = 0; a < ARRAY_SIZE(slowdowns); a++) {
			if (one_slowdown >= 0 && slowdowns[a] != one_slowdown)
				continue;
			run_case(&k, slowdowns[a], noises[b],
				 seed + 1000 * a + 100000 * b);
		}
	}
	return 0;
}
