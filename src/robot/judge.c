/*
 * judge.c: the robot's verdict on one head for one job (robot/judge.h).
 * The comparison is compare's own (compare_groups() with the job's KPIs
 * as rows, each judged changed / same / undecided by stats_kpi_verdict),
 * and the bisect is bisect's own driver (bisect_run()) over the ops the
 * results interface gives: the robot adds no statistics of its own, so
 * its verdicts are the ones `perfsift compare` and `perfsift bisect`
 * would print for the same results.
 */
#include "util/compat.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bisect/bisect.h"
#include "bisect/exec.h"
#include "bisect/git.h"
#include "compare/compare.h"
#include "robot/config.h"
#include "robot/judge.h"
#include "robot/pass.h"
#include "robot/results.h"
#include "robot/state.h"
#include "select/select.h"
#include "util/fault.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/xalloc.h"

static void set_str(char **dst, const char *s)
{
	free(*dst);
	*dst = s ? xstrdup(s) : NULL;
}

static void verdict_error(struct robot_verdict *v, const char *why)
{
	set_str(&v->verdict, "error");
	set_str(&v->detail, why);
}

/*
 * The KPI to bisect and mail about, by compare's own judgement: the one
 * that moved the wrong way most, else the largest improvement, as the
 * report's headline is chosen (docs/lkp-compat.md "report"); *stat NULL
 * when none moved.  A KPI cell compare judged (its three-way verdict)
 * counts when "changed"; one it could not judge (too few runs for the
 * statistics) when LKP's rules selected it.
 */
static int kpi_change(struct robot_judge *j, const char *base,
		      const char *head, char **stat, double *change,
		      bool *regression, struct strbuf *err)
{
	struct select_ctx ctx = { j->res->result_root, j->res->store_url };
	struct result_group g[2];
	const struct result_group *gp[2] = { &g[0], &g[1] };
	struct compare_options co;
	struct compare_result res;
	double best = 0;
	bool best_regression = false;
	size_t i;
	int ret = -1;

	*stat = NULL;
	result_group_init(&g[0]);
	result_group_init(&g[1]);
	compare_result_init(&res);
	compare_options_init(&co);
	co.kpi = true; /* every KPI a row, changed or not */
	if (select_group(&ctx, base, &g[0], err) ||
	    select_group(&ctx, head, &g[1], err) ||
	    compare_groups(gp, 2, &co, &res, err))
		goto out;
	for (i = 0; i < res.nrows; i++) {
		const struct compare_row *row = &res.rows[i];
		const struct compare_cell *c = &row->cells[1];
		bool moved = c->kpi_judged ? c->kpi_verdict == VERDICT_CHANGED :
					     c->changed;

		bool worse = c->effect == EFFECT_REGRESSION;

		if (!row->is_kpi || !moved || isnan(c->change))
			continue;
		/* a regression outranks any improvement, then the size */
		if (*stat && (worse != best_regression ? !worse :
			      fabs(c->change) <= best))
			continue;
		best = fabs(c->change);
		best_regression = worse;
		set_str(stat, row->name);
		*change = c->change;
		*regression = worse;
	}
	ret = 0;
out:
	compare_result_release(&res);
	result_group_release(&g[0]);
	result_group_release(&g[1]);
	return ret;
}

/* the directory of this bisect's notes: one per (branch, base, head, job) */
static void bisect_dir(struct robot_judge *j, const char *base,
		       const char *head, struct strbuf *out)
{
	uint64_t h = FNV1A64_INIT;
	const char *parts[] = { j->branch, base, head, j->job->name };
	struct strbuf name = STRBUF_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(parts); i++)
		h = fnv1a64(h, parts[i], strlen(parts[i]) + 1);
	robot_repo_dir(j->root, j->repo->name, "bisect", out);
	strbuf_addf(&name, "/%016llx", (unsigned long long)h);
	strbuf_addbuf(out, &name);
	strbuf_release(&name);
}

/* what a finished bisect says, into v */
static void bisect_verdict(const struct bisect_state *st,
			   enum bisect_outcome outcome,
			   const struct strbuf *why, struct robot_verdict *v)
{
	struct strbuf sum = STRBUF_INIT;

	bisect_format_result(st, outcome, &sum);
	switch (outcome) {
	case BISECT_FOUND:
		if (st->confirm == BISECT_NOT_REPRODUCIBLE) {
			set_str(&v->verdict, "not reproducible");
		} else {
			set_str(&v->culprit, st->commits[st->first_bad].sha);
		}
		break;
	case BISECT_RANGE:
		set_str(&v->verdict, "range");
		break;
	case BISECT_NO_CHANGE:
		set_str(&v->verdict, "not reproducible");
		strbuf_addbuf(&sum, why);
		break;
	default:
		verdict_error(v, why->buf);
		break;
	}
	if (sum.len)
		set_str(&v->detail, sum.buf);
	strbuf_release(&sum);
}

/*
 * Bisect base..head (first parents) on stat.  Returns ROBOT_JUDGED with
 * v filled, ROBOT_JUDGE_STOPPED when interrupted, -1 when it cannot run.
 */
static int run_bisect(struct robot_judge *j, const char *base,
		      const char *head, struct robot_verdict *v,
		      struct strbuf *err)
{
	struct bisect_git_commit *path = NULL;
	struct bisect_options bo;
	struct bisect_state st;
	struct bisect_ops ops;
	struct strbuf dir = STRBUF_INIT, why = STRBUF_INIT;
	enum bisect_outcome outcome;
	size_t n = 0, i;
	int ret = ROBOT_JUDGED;

	bisect_state_init(&st);
	if (bisect_git_path(j->mirror, base, head, &path, &n, &why) < 0) {
		verdict_error(v, why.buf);
		goto out;
	}
	bisect_dir(j, base, head, &dir);
	if (j->res->bisect_ops(j->res, dir.buf, &ops, err) < 0) {
		ret = -1;
		goto out;
	}
	for (i = 0; i < n; i++)
		bisect_state_add_commit(&st, path[i].sha, path[i].subject);
	memset(&bo, 0, sizeof(bo));
	bo.runs = j->job->runs;
	bo.max_runs = 3 * j->job->runs;
	bo.stat = v->stat;
	bo.testcase = j->job->testcase;
	bo.kpi = j->job->kpi;
	note("%s/%s: bisecting %s over %zu commits %.12s..%.12s",
	     j->repo->name, j->branch, v->stat, n - 2, base, head);
	outcome = bisect_run(&st, &bo, &ops, &why);
	if (outcome == BISECT_INTERRUPTED) {
		/* stopped for a step queued in the lab: the next pass goes on */
		ret = j->res->pending && j->res->pending(j->res) &&
		      !bisect_exec_interrupted() ? ROBOT_JUDGE_PENDING :
		      ROBOT_JUDGE_STOPPED;
		goto out;
	}
	fault_point("robot-bisect-done");
	bisect_verdict(&st, outcome, &why, v);
	/* the bisect's own summary in the log: what the mail rests on */
	if (v->detail)
		fprintf(stderr, "%s", v->detail);
	/*
	 * The verdict is recorded by the caller before the notes go: until
	 * then a killed robot resumes the bisect from them (nothing re-run).
	 */
out:
	bisect_git_path_free(path, n);
	bisect_state_release(&st);
	strbuf_release(&dir);
	strbuf_release(&why);
	return ret;
}

/* results for sha; ROBOT_JUDGED (ready), PENDING, STOPPED or an error in v */
static int need(struct robot_judge *j, const char *sha, struct robot_verdict *v)
{
	struct strbuf why = STRBUF_INIT;
	int r = j->res->ensure(j->res, sha, j->job->runs, &why);

	if (r == ROBOT_PENDING)
		r = ROBOT_JUDGE_PENDING;
	else if (r < 0 && bisect_exec_interrupted())
		r = ROBOT_JUDGE_STOPPED;
	else if (r < 0)
		verdict_error(v, why.buf);
	strbuf_release(&why);
	return r < 0 ? ROBOT_JUDGED : r;
}

int robot_judge_head(struct robot_judge *j, const char *base, const char *head,
		     struct robot_verdict *v, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	bool regression = false;
	char *stat = NULL;
	int r, r2;

	set_str(&v->base, base);
	set_str(&v->verdict, NULL);
	/* both asked before either is waited for: in the lab they run together */
	r = need(j, base, v);
	if (r == ROBOT_JUDGE_STOPPED || v->verdict)
		return r;
	r2 = need(j, head, v);
	if (r2 == ROBOT_JUDGE_STOPPED || v->verdict)
		return r2;
	if (r || r2)
		return ROBOT_JUDGE_PENDING;
	if (kpi_change(j, base, head, &stat, &v->change, &regression, &why) < 0) {
		verdict_error(v, why.buf);
		strbuf_release(&why);
		return ROBOT_JUDGED;
	}
	strbuf_release(&why);
	if (!stat) {
		set_str(&v->verdict, "same");
		return ROBOT_JUDGED;
	}
	note("%s/%s %.12s: %s %+.1f%% against %.12s: bisecting",
	     j->repo->name, j->branch, head, stat, v->change, base);
	v->stat = stat;
	set_str(&v->verdict, regression ? "regression" : "improvement");
	return run_bisect(j, base, head, v, err);
}
