/*
 * schedule.c: which atomic job runs next (schedule.h).  Each run goes
 * through the engine (engine.h); this file only orders them, counts their
 * outcomes and, for --until-decided, judges each job's KPIs against BASE
 * with the comparison `perfsift compare --kpi` makes, so that the
 * decision to stop is the same verdict a user would read afterwards.
 */
#include "util/compat.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare.h"
#include "decide/decide.h"
#include "job/job.h"
#include "job/split.h"
#include "result/result.h"
#include "run/runner.h"
#include "run/schedule.h"
#include "select/select.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/xalloc.h"

/* one atomic job's runs in this command */
struct job_runs {
	struct strbuf name; /* its file name without .yaml (progress lines) */
	struct engine_run r; /* its last run; r.group_dir: its result group */
	size_t index;       /* the atomic job's, for schedule's on_run */
	int done;           /* runs made (or tried) */
	bool finished;      /* skipped on this machine, or decided */
};

/* run job jr once and count the outcome; true when all must stop */
static bool run_counted(struct schedule *s, struct engine *e,
			struct job_runs *jr, const struct job *atomic,
			const struct engine_plan *p, enum engine_outcome *o)
{
	jr->r.name = jr->name.buf;
	jr->r.index = jr->done + 1;
	jr->r.total = s->base ? s->max_runs : s->nr_runs;
	/* stopped between two runs: no run is cut, none is begun, none counted */
	if (runner_stop_signal()) {
		*o = ENGINE_STOPPED;
		return true;
	}
	*o = engine_run_once(e, atomic, p, &jr->r);
	jr->done++;
	if (s->on_run)
		s->on_run(s->on_run_ctx, jr->index, &jr->r, *o);
	if (*o == ENGINE_OK)
		s->nr_ok++;
	else if (*o == ENGINE_SKIPPED)
		s->nr_skipped++;
	else if (*o == ENGINE_STOPPED)
		s->nr_incomplete++;
	else if (*o == ENGINE_ERROR)
		s->nr_error++;
	else
		s->nr_failed++;
	if (*o == ENGINE_SKIPPED)
		jr->finished = true; /* this machine cannot run it: once is enough */
	return *o == ENGINE_STOPPED || *o == ENGINE_ERROR;
}

/*
 * nruns runs of each of the k jobs: round-robin (A B A B ...) with
 * --interleave, else (k is 1) one job's runs in a row.
 */
static bool run_rounds(struct schedule *s, struct engine *e,
		       struct job_runs *jr, struct job **atomic,
		       const struct engine_plan *plans, size_t k, int nruns,
		       enum engine_outcome *o)
{
	int r;
	size_t j;

	for (r = 0; r < nruns; r++)
		for (j = 0; j < k; j++)
			if (!jr[j].finished &&
			    run_counted(s, e, &jr[j], atomic[j], &plans[j], o))
				return true;
	return false;
}

/*
 * The KPIs of job jr against BASE: compare_groups() with every KPI a
 * row, tallied by verdict.  0, or -1 with err.
 */
static int judge_kpis(const struct schedule *s, const struct job_runs *jr,
		      struct compare_kpi_tally *t, struct strbuf *line,
		      struct strbuf *err)
{
	struct select_ctx sc = { s->result_root, s->store_url };
	struct result_group g[2];
	const struct result_group *gp[2] = { &g[0], &g[1] };
	struct compare_options o;
	struct compare_result res;
	int ret = -1;

	result_group_init(&g[1]);
	if (select_group(&sc, s->base, &g[0], err))
		return -1;
	if (select_group_dir(jr->r.group_dir.buf, &g[1], err))
		goto out;
	if (g[0].dir && !strcmp(g[0].dir, g[1].dir)) {
		strbuf_addf(err, "--until-decided '%s' is the group being run", s->base);
		goto out;
	}
	compare_options_init(&o);
	o.kpi = true;            /* every KPI a row, "same" ones too */
	o.no_statistics = true;  /* the KPIs' own are computed anyway */
	if (compare_groups(gp, 2, &o, &res, err))
		goto out;
	compare_kpi_tally(&res, t);
	strbuf_reset(line);
	if (t->undecided)
		compare_undecided_line(&res, t->worst, 1, line);
	else if (t->worst)
		strbuf_addf(line, "%s %s", t->worst->name,
			    compare_kpi_verdict_name(&t->worst->cells[1]));
	compare_result_release(&res);
	ret = 0;
out:
	result_group_release(&g[0]);
	result_group_release(&g[1]);
	return ret;
}

/*
 * What the tally t of job jr says: the job is decided, cannot be decided
 * here, or (false) wants another run.  Says which on stdout / stderr.
 */
static bool decided(struct schedule *s, struct job_runs *jr,
		    const struct compare_kpi_tally *t, const struct strbuf *line)
{
	if (!t->changed && !t->same && !t->undecided) {
		warning("%s: no KPI to decide against '%s' (none judged: "
			"declare one with `kpi:`)", jr->name.buf, s->base);
		s->nr_undecided++;
	} else if (!t->undecided) {
		printf("%s: decided after %d runs: %zu KPI%s changed, %zu the same (%s)\n",
		       jr->name.buf, jr->done, t->changed,
		       t->changed == 1 ? "" : "s", t->same, line->buf);
		s->nr_regressed += t->regressed > 0;
		return true;
	} else if (t->base_limited == t->undecided) {
		/* BASE's own runs are what is missing: ours cannot help */
		printf("%s: still undecided after %d runs, and more runs here "
		       "would not decide it: BASE's runs are too few or too "
		       "noisy (give '%s' more runs): %s\n",
		       jr->name.buf, jr->done, s->base, line->buf);
	} else if (jr->done >= s->max_runs) {
		printf("%s: still undecided after the maximum of %d runs: %s\n",
		       jr->name.buf, jr->done, line->buf);
	} else {
		printf("%s: after %d runs, %s\n", jr->name.buf, jr->done, line->buf);
		return false;
	}
	s->nr_undecided++;
	return true;
}

/*
 * --until-decided: judge each of the k jobs after its runs so far; one
 * with an undecided KPI gets one more run (round-robin), until every KPI
 * is changed or the same, or the job has had --max-runs.
 */
static bool run_until_decided(struct schedule *s, struct engine *e,
			      struct job_runs *jr, struct job **atomic,
			      const struct engine_plan *plans, size_t k,
			      enum engine_outcome *o)
{
	struct strbuf err = STRBUF_INIT, line = STRBUF_INIT;
	bool stop = false, left = true;
	size_t j;

	while (left && !stop) {
		left = false;
		for (j = 0; j < k; j++) {
			struct compare_kpi_tally t;

			if (jr[j].finished || !jr[j].r.group_dir.len)
				continue;
			if (judge_kpis(s, &jr[j], &t, &line, &err)) {
				error("%s: --until-decided: %s", jr[j].name.buf, err.buf);
				s->nr_error++;
				*o = ENGINE_ERROR;
				stop = true;
				break;
			}
			if (decided(s, &jr[j], &t, &line))
				jr[j].finished = true;
			else
				left = true;
			strbuf_reset(&err);
		}
		fflush(stdout);
		for (j = 0; j < k && left && !stop; j++)
			if (!jr[j].finished)
				stop = run_counted(s, e, &jr[j], atomic[j], &plans[j], o);
	}
	strbuf_release(&err);
	strbuf_release(&line);
	return stop;
}

/* BASE names one group now, so that a typo is said before any run */
int schedule_check_base(struct schedule *s, bool runs_given)
{
	struct select_ctx sc = { s->result_root, s->store_url };
	struct result_group g;
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	if (!runs_given)
		s->nr_runs = DECIDE_DEFAULT_RUNS; /* LKP judges nothing below 3 a side */
	if (s->max_runs < s->nr_runs) {
		error("--max-runs %d is below -n %d", s->max_runs, s->nr_runs);
		return -1;
	}
	if (select_group(&sc, s->base, &g, &err)) {
		error("--until-decided: %s", err.buf);
		ret = -1;
	} else {
		result_group_release(&g);
	}
	strbuf_release(&err);
	return ret;
}

/*
 * Every atomic job: its -n runs (round-robin over the jobs with
 * --interleave), then, with --until-decided, more until decided.
 */
enum engine_outcome schedule_run_all(struct schedule *s, struct engine *e,
				     struct job **atomic,
				     const struct engine_plan *plans, size_t n)
{
	struct job_runs *jr = xcalloc(n ? n : 1, sizeof(*jr));
	enum engine_outcome o = ENGINE_OK;
	bool stop = false;
	size_t i;

	for (i = 0; i < n; i++) {
		jr[i].index = i;
		strbuf_init(&jr[i].name, 0);
		strbuf_init(&jr[i].r.group_dir, 0);
		strbuf_init(&jr[i].r.dir, 0);
		split_job_filename(atomic[i], &jr[i].name);
		if (jr[i].name.len > 5 &&
		    !strcmp(jr[i].name.buf + jr[i].name.len - 5, ".yaml"))
			strbuf_setlen(&jr[i].name, jr[i].name.len - 5);
	}
	if (s->interleave) {
		stop = run_rounds(s, e, jr, atomic, plans, n, s->nr_runs, &o);
		if (!stop && s->base)
			run_until_decided(s, e, jr, atomic, plans, n, &o);
	} else {
		for (i = 0; i < n && !stop; i++) {
			stop = run_rounds(s, e, &jr[i], &atomic[i], &plans[i], 1,
					  s->nr_runs, &o);
			if (!stop && s->base)
				stop = run_until_decided(s, e, &jr[i], &atomic[i],
							 &plans[i], 1, &o);
		}
	}
	for (i = 0; i < n; i++) {
		strbuf_release(&jr[i].name);
		engine_run_release(&jr[i].r);
	}
	free(jr);
	return o;
}

/*
 * A job file's atomic jobs: read, --set applied (the typo warnings said
 * for the first document), split, and each given its plan, so that every
 * error of the file is found before the first run writes anything.
 */
int schedule_load(const char *file, char **sets, size_t nr_sets,
		  char **cmd_argv, struct job ***atomic, size_t *nr_atomic,
		  struct engine_plan **plans, struct strbuf *err)
{
	struct job **jobs = NULL, **parts = NULL;
	size_t njobs = 0, nparts, i, j, alloc = 0;
	int ret = -1;

	*atomic = NULL;
	*nr_atomic = 0;
	*plans = NULL;
	if (job_load_file(file, &jobs, &njobs, err) < 0)
		goto out;
	for (j = 0; njobs && j < nr_sets; j++)
		job_warn_set(jobs[0], sets[j]);
	for (i = 0; i < njobs; i++) {
		for (j = 0; j < nr_sets; j++)
			if (job_apply_set(jobs[i], sets[j], err) < 0)
				goto out;
		if (split_job(jobs[i], &parts, &nparts, err) < 0)
			goto out;
		for (j = 0; j < nparts; j++) {
			ALLOC_GROW(*atomic, *nr_atomic + 1, alloc);
			(*atomic)[(*nr_atomic)++] = parts[j];
		}
		free(parts);
		parts = NULL;
	}
	*plans = xcalloc(*nr_atomic ? *nr_atomic : 1, sizeof(**plans));
	for (i = 0; i < *nr_atomic; i++)
		if (engine_plan_make((*atomic)[i], cmd_argv, &(*plans)[i], err) < 0)
			goto out;
	ret = 0;
out:
	job_free_all(jobs, njobs);
	if (ret < 0) {
		/*
		 * A later document's error after an earlier one was split:
		 * hand back nothing (there may be atomic jobs but no plans
		 * yet, which a caller's release loop would walk into).
		 */
		for (i = 0; *plans && i < *nr_atomic; i++)
			engine_plan_release(&(*plans)[i]);
		free(*plans);
		job_free_all(*atomic, *nr_atomic);
		*plans = NULL;
		*atomic = NULL;
		*nr_atomic = 0;
	}
	return ret;
}
