/*
 * bench/until-decided.c: the error rates and the runs used of `perfsift
 * run --until-decided`'s stopping rule, on synthetic trials.
 *
 *   build/bench/until-decided [--trials N] [--min R] [--max R] [--shift PCT]
 *                             [--noise PCT] [--monitors M] [--seed S]
 *                             [--bisect COMMITS [--noisy PCT]] [--lognormal]
 *   (defaults: 200 trials, -n 3, --max-runs DECIDE_DEFAULT_MAX_RUNS as
 *    run's, a 5% shift, 1% noise,
 *    50 monitor stats; with --bisect, bisect's own defaults: --max-runs
 *    BISECT_DEFAULT_MAX_RUNS until decided, 3 x -n with
 *    --no-until-decided; --max gives both modes the same)
 *
 * Each trial is what `run --until-decided BASE` sees: a base group of R
 * runs, and a head group that starts with R runs and gets one more while
 * its KPI (`bench.score: higher`, declared) is undecided, up to the
 * maximum.  Every value is normal with the given relative noise, the
 * monitors too (they feed the noise guard's prior) -- or, --lognormal,
 * its mean times exp(noise x a normal draw): multiplicative noise, a
 * run twice as fast as likely as one half as fast (TCG's); the head's KPI is
 * shifted down by --shift (a planted regression), and not at all in the
 * A/A trials.  The decision after each run is the command's own:
 * compare_groups() with every KPI a row, compare_kpi_tally(), stop when
 * nothing is undecided.  Printed per case: how often the trials ended
 * changed / same / undecided at the maximum (the error rates: "same" or
 * "undecided" for the shift, "changed" for A/A), and the runs the head
 * used (median, mean, 90th percentile).
 *
 * --bisect COMMITS: the same rule inside `perfsift bisect`.  Each trial
 * is a first-parent path of COMMITS commits whose KPI is --shift percent
 * higher from a first bad commit drawn at random (the monitors
 * unchanged), every run drawn afresh as above; optionally one commit the
 * search tests first (the middle) with --noisy percent noise instead.
 * bisect_run() drives it through synthetic ops, once until decided (the
 * default) and once with LKP's classifier (--no-until-decided), on the
 * same draws.  Printed per mode: how often the trial named the planted
 * commit and the confirmation confirmed it (right), named another commit
 * (wrong commit), left a range of skipped or undecided commits, refused
 * (good and bad "do not differ") or did not confirm; and the runs spent.
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
#include "select/select.h"
#include "result/stats.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static uint64_t rng;

static double uniform(void)
{
	return ((double)(stats_splitmix64(&rng) >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

struct sim {
	size_t nstats;   /* the KPI first, then the monitors (sorted names) */
	char **names;
	double *means;   /* each stat's true mean */
	double noise;    /* relative */
	bool lognormal;  /* mean x exp(noise x N(0,1)), not x (1 + noise x N) */
};

/* one run's value of a stat of mean `mean`: its noise drawn afresh */
static double draw(const struct sim *s, double mean, double noise)
{
	if (s->lognormal)
		return mean * exp(noise * gauss());
	return mean * (1 + noise * gauss());
}

static void sim_init(struct sim *s, size_t monitors, double noise)
{
	size_t i;

	s->nstats = monitors + 1;
	s->names = xcalloc(s->nstats, sizeof(char *));
	s->means = xcalloc(s->nstats, sizeof(double));
	s->names[0] = xstrdup("bench.score");
	s->means[0] = 100;
	for (i = 1; i < s->nstats; i++) {
		s->names[i] = xasprintf("proc-vmstat.stat_%04zu", i);
		s->means[i] = exp(uniform() * 15);
	}
	s->noise = noise;
}

static void sim_release(struct sim *s)
{
	size_t i;

	for (i = 0; i < s->nstats; i++)
		free(s->names[i]);
	free(s->names);
	free(s->means);
}

/* a group of nruns runs drawn afresh; the KPI scaled by `scale` */
static void make_group(const struct sim *s, size_t nruns, double scale,
		       const double *keep, size_t nkeep, struct result_group *g,
		       const char *commit)
{
	struct matrix *m = &g->matrix;
	size_t i, r;

	result_group_init(g);
	m->nstats = s->nstats;
	m->nruns = nruns;
	m->names = xcalloc(s->nstats, sizeof(char *));
	m->values = xcalloc(s->nstats * nruns, sizeof(double));
	m->is_int = xcalloc(s->nstats, 1);
	for (i = 0; i < s->nstats; i++) {
		m->names[i] = xstrdup(s->names[i]);
		for (r = 0; r < nruns; r++) {
			/* the runs made so far stay what they were */
			if (keep && r < nkeep) {
				m->values[i * nruns + r] = keep[i * nkeep + r];
				continue;
			}
			m->values[i * nruns + r] =
				draw(s, s->means[i] * (i ? 1 : scale), s->noise);
		}
	}
	result_group_set_axis(g, "testcase", "bench");
	result_group_set_axis(g, "commit", commit);
	g->label = xstrdup(commit);
	g->kpi = xstrdup("bench.score: higher");
}

enum end { END_CHANGED, END_SAME, END_UNDECIDED, END_BASE_LIMITED };

/* one trial: the runs the head used, and how it ended */
static enum end trial(const struct sim *s, size_t min, size_t max,
		      double scale, size_t *used)
{
	struct result_group base, head;
	const struct result_group *gp[2] = { &base, &head };
	struct compare_options o;
	struct strbuf err = STRBUF_INIT;
	double *keep = NULL;
	size_t n = min;
	enum end end = END_UNDECIDED;

	make_group(s, min, 1, NULL, 0, &base, "base");
	compare_options_init(&o);
	o.kpi = true;
	o.no_statistics = true;
	for (;;) {
		struct compare_result res;
		struct compare_kpi_tally t;

		make_group(s, n, scale, keep, keep ? n - 1 : 0, &head, "head");
		if (compare_groups(gp, 2, &o, &res, &err)) {
			fprintf(stderr, "until-decided: %s\n", err.buf);
			exit(3);
		}
		compare_kpi_tally(&res, &t);
		compare_result_release(&res);
		free(keep);
		keep = xmalloc(s->nstats * n * sizeof(double));
		memcpy(keep, head.matrix.values, s->nstats * n * sizeof(double));
		result_group_release(&head);
		if (!t.undecided) {
			end = t.changed ? END_CHANGED : END_SAME;
			break;
		}
		if (t.base_limited == t.undecided) {
			end = END_BASE_LIMITED; /* more head runs would not decide */
			break;
		}
		if (n >= max)
			break;
		n++;
	}
	free(keep);
	result_group_release(&base);
	strbuf_release(&err);
	*used = n;
	return end;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

static void run_case(const char *label, const struct sim *s, size_t trials,
		     size_t min, size_t max, double scale)
{
	size_t *used = xcalloc(trials, sizeof(size_t));
	size_t counts[4] = { 0, 0, 0, 0 }, i;
	double sum = 0;

	for (i = 0; i < trials; i++) {
		counts[trial(s, min, max, scale, &used[i])]++;
		sum += (double)used[i];
	}
	qsort(used, trials, sizeof(*used), cmp_size);
	printf("| %s | %zu | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %zu | %.1f | %zu |\n",
	       label, trials, 100.0 * (double)counts[END_CHANGED] / (double)trials,
	       100.0 * (double)counts[END_SAME] / (double)trials,
	       100.0 * (double)counts[END_UNDECIDED] / (double)trials,
	       100.0 * (double)counts[END_BASE_LIMITED] / (double)trials,
	       used[trials / 2], sum / (double)trials,
	       used[(trials * 9) / 10 < trials ? (trials * 9) / 10 : trials - 1]);
	free(used);
}

/* ---- --bisect: the same rule in bisect_run(), over synthetic ops ---- */

/* the endpoints run once a triplet of every step (bisect/driver.c) */
#define MAX_RUNS_KEPT 2048 /* an endpoint's: a triplet a step, up to --max-runs */

struct path_world {
	const struct sim *s;
	size_t n, k;          /* commits, first bad */
	double shift;         /* the KPI's scale from k on */
	size_t noisy_at;      /* 0 or a commit of noise `noisy` */
	double noisy;
	double *v;            /* n x MAX_RUNS_KEPT x nstats, run-major */
	double *t;            /* n x MAX_RUNS_KEPT: when each run began */
	size_t clock;         /* runs made so far in this bisect */
	size_t *nruns;
	char (*sha)[41];
};

static int pw_prepare(void *data, int slot, const char *sha, struct strbuf *why)
{
	(void)data; (void)slot; (void)sha; (void)why;
	return 0;
}

static size_t pw_index(const struct path_world *w, const char *sha)
{
	return (size_t)strtoul(sha, NULL, 16) % w->n;
}

/* one run of commit sha: every stat drawn afresh, the KPI shifted */
static int pw_measure(void *data, int slot, const char *sha, struct strbuf *err)
{
	struct path_world *w = data;
	size_t i = pw_index(w, sha), r = w->nruns[i], j;
	double *row = w->v + (i * MAX_RUNS_KEPT + r) * w->s->nstats;
	double noise = i == w->noisy_at && w->noisy_at ? w->noisy : w->s->noise;

	(void)slot;
	if (r >= MAX_RUNS_KEPT) {
		strbuf_addstr(err, "too many runs");
		return -1;
	}
	for (j = 0; j < w->s->nstats; j++)
		row[j] = draw(w->s, w->s->means[j] *
					    (j || i < w->k ? 1 : w->shift),
			      j ? w->s->noise : noise);
	w->t[i * MAX_RUNS_KEPT + r] = (double)w->clock++;
	w->nruns[i]++;
	return 0;
}

static int pw_samples(void *data, const char *sha, struct matrix *m,
		      struct strbuf *err)
{
	struct path_world *w = data;
	size_t i = pw_index(w, sha), n = w->nruns[i], j, r;

	(void)err;
	matrix_init(m);
	if (!n)
		return 0;
	m->nstats = w->s->nstats;
	m->nruns = n;
	m->names = xcalloc(m->nstats, sizeof(char *));
	m->values = xcalloc(m->nstats * n, sizeof(double));
	m->is_int = xcalloc(m->nstats, 1);
	for (j = 0; j < m->nstats; j++) {
		m->names[j] = xstrdup(w->s->names[j]);
		for (r = 0; r < n; r++)
			m->values[j * n + r] =
				w->v[(i * MAX_RUNS_KEPT + r) * w->s->nstats + j];
	}
	return 0;
}

/* when each run began: the world's clock (bisect pairs by it) */
static int pw_starts(void *data, const char *sha, const struct matrix *m,
		     double *t, struct strbuf *err)
{
	const struct path_world *w = data;
	size_t i = pw_index(w, sha);

	(void)err;
	memcpy(t, w->t + i * MAX_RUNS_KEPT, m->nruns * sizeof(double));
	return 0;
}

enum bend { B_RIGHT, B_WRONG, B_RANGE, B_REFUSED, B_UNCONFIRMED, B_ERROR, B_NEND };

/* one bisect of w in a mode; its ending and the runs it spent */
static enum bend bisect_trial(struct path_world *w, size_t min, size_t max,
			      bool classic, size_t *runs)
{
	struct bisect_ops ops;
	struct bisect_options bo;
	struct bisect_state st;
	struct strbuf err = STRBUF_INIT;
	enum bisect_outcome o;
	enum bend end;
	size_t i;

	memset(&ops, 0, sizeof(ops));
	ops.prepare = pw_prepare;
	ops.measure = pw_measure;
	ops.samples = pw_samples;
	ops.starts = pw_starts;
	ops.data = w;
	memset(&bo, 0, sizeof(bo));
	bo.runs = min;
	bo.max_runs = max;
	bo.stat = "bench.score";
	bo.testcase = "bench";
	bo.no_until_decided = classic;
	memset(w->nruns, 0, w->n * sizeof(*w->nruns));
	w->clock = 0;
	bisect_state_init(&st);
	for (i = 0; i < w->n; i++)
		bisect_state_add_commit(&st, w->sha[i], NULL);
	o = bisect_run(&st, &bo, &ops, &err);
	*runs = st.runs;
	if (o == BISECT_NO_CHANGE)
		end = B_REFUSED;
	else if (o == BISECT_RANGE)
		end = B_RANGE;
	else if (o != BISECT_FOUND)
		end = B_ERROR;
	else if (st.first_bad != w->k)
		end = B_WRONG;
	else
		end = st.confirm == BISECT_CONFIRMED ? B_RIGHT : B_UNCONFIRMED;
	if (end == B_ERROR)
		fprintf(stderr, "until-decided: bisect: %s\n", err.buf);
	bisect_state_release(&st);
	strbuf_release(&err);
	return end;
}

/* --bisect: trials paths, both modes on the same draws (seed per trial) */
static void run_bisect_cases(const struct sim *s, size_t trials, size_t ncommits,
			     size_t min, const size_t *max, double shift,
			     double noisy)
{
	static const char *const mode[2] = { "until decided (default)",
					     "--no-until-decided" };
	struct path_world w;
	size_t counts[2][B_NEND], *runs[2], t, m, i;
	double sum[2] = { 0, 0 };
	uint64_t seed = rng;

	memset(counts, 0, sizeof(counts));
	memset(&w, 0, sizeof(w));
	w.s = s;
	w.n = ncommits;
	w.shift = 1 + shift / 100;
	w.noisy = noisy / 100;
	w.v = xcalloc(ncommits * MAX_RUNS_KEPT * s->nstats, sizeof(double));
	w.t = xcalloc(ncommits * MAX_RUNS_KEPT, sizeof(double));
	w.nruns = xcalloc(ncommits, sizeof(size_t));
	w.sha = xcalloc(ncommits, sizeof(*w.sha));
	for (i = 0; i < ncommits; i++)
		snprintf(w.sha[i], sizeof(w.sha[i]), "%040zx", i);
	runs[0] = xcalloc(trials, sizeof(size_t));
	runs[1] = xcalloc(trials, sizeof(size_t));
	for (t = 0; t < trials; t++) {
		/* the planted commit: anywhere past the good endpoint */
		rng = seed + t;
		w.k = 1 + (size_t)(uniform() * (double)(ncommits - 1));
		if (w.k >= ncommits)
			w.k = ncommits - 1;
		/* the noisy commit is the search's first test, the middle */
		w.noisy_at = noisy > 0 ? (ncommits - 1) / 2 : 0;
		for (m = 0; m < 2; m++) {
			rng = seed + 1000003 * (t + 1); /* both modes: one draw */
			counts[m][bisect_trial(&w, min, max[m], m == 1,
					       &runs[m][t])]++;
			sum[m] += (double)runs[m][t];
		}
	}
	printf("| mode | trials | right (confirmed) | wrong commit | range | refused | not confirmed | runs: median | mean | p90 |\n");
	printf("|---|---|---|---|---|---|---|---|---|---|\n");
	for (m = 0; m < 2; m++) {
		qsort(runs[m], trials, sizeof(size_t), cmp_size);
		printf("| %s | %zu | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %zu | %.1f | %zu |\n",
		       mode[m], trials,
		       100.0 * (double)counts[m][B_RIGHT] / (double)trials,
		       100.0 * (double)counts[m][B_WRONG] / (double)trials,
		       100.0 * (double)counts[m][B_RANGE] / (double)trials,
		       100.0 * (double)counts[m][B_REFUSED] / (double)trials,
		       100.0 * (double)counts[m][B_UNCONFIRMED] / (double)trials,
		       runs[m][trials / 2], sum[m] / (double)trials,
		       runs[m][(trials * 9) / 10 < trials ? (trials * 9) / 10 : trials - 1]);
	}
	free(runs[0]);
	free(runs[1]);
	free(w.v);
	free(w.t);
	free(w.nruns);
	free(w.sha);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "trials", required_argument, NULL, 't' },
		{ "min", required_argument, NULL, 'n' },
		{ "max", required_argument, NULL, 'm' },
		{ "shift", required_argument, NULL, 's' },
		{ "noise", required_argument, NULL, 'e' },
		{ "monitors", required_argument, NULL, 'M' },
		{ "seed", required_argument, NULL, 'S' },
		{ "bisect", required_argument, NULL, 'b' },
		{ "noisy", required_argument, NULL, 'N' },
		{ "lognormal", no_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 },
	};
	size_t trials = 200, min = 3, max = 0, monitors = 50, commits = 0;
	size_t bmax[2];
	double shift = 5, noise = 1, noisy = 0;
	bool lognormal = false;
	struct sim s;
	char label[64];
	int c;

	rng = 20261201;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 't': trials = strtoul(optarg, NULL, 10); break;
		case 'n': min = strtoul(optarg, NULL, 10); break;
		case 'm': max = strtoul(optarg, NULL, 10); break;
		case 's': shift = strtod(optarg, NULL); break;
		case 'e': noise = strtod(optarg, NULL); break;
		case 'M': monitors = strtoul(optarg, NULL, 10); break;
		case 'S': rng = strtoull(optarg, NULL, 10); break;
		case 'b': commits = strtoul(optarg, NULL, 10); break;
		case 'N': noisy = strtod(optarg, NULL); break;
		case 'L': lognormal = true; break;
		default:
			fprintf(stderr, "usage: bench/until-decided [--trials N] [--min R] [--max R] [--shift PCT] [--noise PCT] [--monitors M] [--seed S] [--bisect COMMITS [--noisy PCT]] [--lognormal]\n");
			return 2;
		}
	}
	/* the commands' defaults: bisect's per mode (cmd/bisect.c), run's */
	bmax[0] = max ? max : min > BISECT_DEFAULT_MAX_RUNS ? min :
			      BISECT_DEFAULT_MAX_RUNS;
	bmax[1] = max ? max : 3 * min;
	if (!max)
		max = commits ? bmax[0] : DECIDE_DEFAULT_MAX_RUNS;
	if (!trials || !min || max < min || commits == 1 || commits == 2) {
		fprintf(stderr, "until-decided: need trials > 0 and 1 <= min <= max\n");
		return 2;
	}
	sim_init(&s, monitors, noise / 100);
	s.lognormal = lognormal;
	if (commits) {
		printf("until-decided --bisect: %zu trials, %zu commits, a %g%% step, -n %zu, --max-runs %zu (--no-until-decided: %zu), %g%% %snoise%s, %zu monitor stats\n\n",
		       trials, commits, shift, min, bmax[0], bmax[1], noise,
		       lognormal ? "lognormal " : "",
		       noisy > 0 ? ", the middle commit noisier" : "", monitors);
		if (noisy > 0)
			printf("(the middle commit: %g%% noise)\n\n", noisy);
		run_bisect_cases(&s, trials, commits, min, bmax, shift, noisy);
		sim_release(&s);
		return 0;
	}
	printf("until-decided: %zu trials, -n %zu, --max-runs %zu, %g%% noise, %zu monitor stats\n\n",
	       trials, min, max, noise, monitors);
	printf("| case | trials | changed | same | undecided at max | undecided, base-limited | runs used: median | mean | p90 |\n");
	printf("|---|---|---|---|---|---|---|---|---|\n");
	snprintf(label, sizeof(label), "%g%% regression", shift);
	run_case(label, &s, trials, min, max, 1 - shift / 100);
	run_case("A/A", &s, trials, min, max, 1);
	sim_release(&s);
	return 0;
}
