/*
 * bench/until-decided.c: the error rates and the runs used of `perfsift
 * run --until-decided`'s stopping rule, on synthetic trials.
 *
 *   build/bench/until-decided [--trials N] [--min R] [--max R] [--shift PCT]
 *                             [--noise PCT] [--monitors M] [--seed S]
 *   (defaults: 200 trials, -n 3, --max-runs 20, a 5% shift, 1% noise,
 *    50 monitor stats)
 *
 * Each trial is what `run --until-decided BASE` sees: a base group of R
 * runs, and a head group that starts with R runs and gets one more while
 * its KPI (`bench.score: higher`, declared) is undecided, up to the
 * maximum.  Every value is normal with the given relative noise, the
 * monitors too (they feed the noise guard's prior); the head's KPI is
 * shifted down by --shift (a planted regression), and not at all in the
 * A/A trials.  The decision after each run is the command's own:
 * compare_groups() with every KPI a row, compare_kpi_tally(), stop when
 * nothing is undecided.  Printed per case: how often the trials ended
 * changed / same / undecided at the maximum (the error rates: "same" or
 * "undecided" for the shift, "changed" for A/A), and the runs the head
 * used (median, mean, 90th percentile).
 */
#include "util/compat.h"
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare.h"
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
};

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
			m->values[i * nruns + r] = s->means[i] *
						   (i ? 1 : scale) *
						   (1 + s->noise * gauss());
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
		{ NULL, 0, NULL, 0 },
	};
	size_t trials = 200, min = 3, max = 20, monitors = 50;
	double shift = 5, noise = 1;
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
		default:
			fprintf(stderr, "usage: bench/until-decided [--trials N] [--min R] [--max R] [--shift PCT] [--noise PCT] [--monitors M] [--seed S]\n");
			return 2;
		}
	}
	if (!trials || !min || max < min) {
		fprintf(stderr, "until-decided: need trials > 0 and 1 <= min <= max\n");
		return 2;
	}
	sim_init(&s, monitors, noise / 100);
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
