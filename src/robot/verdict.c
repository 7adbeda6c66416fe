/*
 * verdict.c: the robot's verdict on one head for one job (robot/judge.h).
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
#include "decide/decide.h"
#include "result/matrix.h"
#include "robot/config.h"
#include "robot/judge.h"
#include "robot/pass.h"
#include "robot/results.h"
#include "robot/state.h"
#include "select/select.h"
#include "util/fault.h"
#include "util/hash.h"
#include "util/short_sha.h"
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

/* what kpi_change() found besides the KPI that moved */
struct kpi_look {
	struct compare_kpi_tally t; /* run --until-decided's tally */
	size_t head_runs;           /* the head's complete runs */
	struct strbuf line;         /* the worst undecided KPI's line */
};

/*
 * The KPI to bisect and mail about, by compare's own judgement: the one
 * that moved the wrong way most, else the largest improvement, as the
 * report's headline is chosen (docs/lkp-compat.md "report"); *stat NULL
 * when none moved.  A KPI cell compare judged (its three-way verdict)
 * counts when "changed"; one it could not judge (too few runs for the
 * statistics) when LKP's rules selected it.  look gets the tally `run
 * --until-decided` stops on.
 */
/* the runs of a judgement, a side: their columns in the commit's matrix */
struct side_runs {
	size_t *col;
	size_t n, alloc;
	size_t queued; /* runs asked of a lab, not yet in the index */
	size_t seen;   /* the commit's runs when they were asked */
};

/*
 * g's runs cols (the judgement's), their start times with them: compare
 * pairs head and base runs by g->run_start, which must follow the new
 * columns -- left in the old order, a shared base's runs for this head
 * took the start times of its first runs, made for another branch, and
 * paired with none of this head's (t9100's slow head was judged on "24 +
 * 30 unpaired runs").
 */
static void keep_columns(struct result_group *g, const struct side_runs *cols)
{
	struct matrix fresh;
	size_t k, n = 0;

	matrix_columns(&g->matrix, cols->col, cols->n, &fresh);
	if (g->run_start) {
		double *t = xcalloc(fresh.nruns + 1, sizeof(*t));

		/* as matrix_columns(): a column g does not have is left out */
		for (k = 0; k < cols->n && n < fresh.nruns; k++)
			if (cols->col[k] < g->matrix.nruns)
				t[n++] = g->run_start[cols->col[k]];
		free(g->run_start);
		g->run_start = t;
	}
	matrix_release(&g->matrix);
	g->matrix = fresh;
}

static int kpi_change(struct robot_judge *j, const char *base,
		      const char *head, const struct side_runs *cols, char **stat,
		      double *change, bool *regression, struct kpi_look *look,
		      struct strbuf *err)
{
	struct select_ctx ctx = { j->res->result_root, j->res->store_url };
	struct result_group g[2];
	const struct result_group *gp[2] = { &g[0], &g[1] };
	const char *specs[2] = { base, head };
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
	if (select_groups(&ctx, specs, 2, g, err))
		goto out;
	/* only the runs made beside the other side */
	for (i = 0; i < 2; i++)
		keep_columns(&g[i], &cols[i]);
	if (compare_groups(gp, 2, &co, &res, err))
		goto out;
	compare_kpi_tally(&res, &look->t);
	look->head_runs = g[1].matrix.nruns;
	strbuf_reset(&look->line);
	if (look->t.undecided)
		compare_undecided_line(&res, look->t.worst, 1, &look->line);
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
		} else if (st->confirm == BISECT_CONFIRM_UNDECIDED) {
			/* named but not confirmed: no mail blames it */
			set_str(&v->verdict, "undecided");
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
	bo.max_runs = j->job->bisect_max_runs;
	/* bo.no_until_decided stays false: each step judged until decided */
	bo.stat = v->stat;
	bo.testcase = j->job->testcase;
	bo.kpi = j->job->kpi;
	note("%s/%s: bisecting %s over %zu commits %.*s..%.*s", j->repo->name,
	     j->branch, v->stat, n - 2, SHORT_SHA_LEN, base, SHORT_SHA_LEN,
	     head);
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

/* one head's judgement: the decide loop's ops (decide/decide.h) */
struct judging {
	struct robot_judge *j;
	const char *sha[2];        /* DECIDE_BASE, DECIDE_HEAD */
	struct side_runs runs[2];  /* the runs made beside each other */
	size_t have[2];            /* the commits' complete runs */
	char **stat;
	double *change;
	bool *regression;
	struct kpi_look look;
	bool interrupted;
};

/*
 * The record's text form (robot_state_judging): per side a line
 * "<queued> <seen> <col> <col> ...", base first; record_parse() false
 * when it does not read so (a damaged row: the judgement starts over).
 */
static void record_format(const struct judging *g, struct strbuf *out)
{
	size_t k, i;

	for (k = 0; k < 2; k++) {
		strbuf_addf(out, "%zu %zu", g->runs[k].queued, g->runs[k].seen);
		for (i = 0; i < g->runs[k].n; i++)
			strbuf_addf(out, " %zu", g->runs[k].col[i]);
		strbuf_addch(out, '\n');
	}
}

static void record_add(struct side_runs *r, size_t col)
{
	ALLOC_GROW(r->col, r->n + 1, r->alloc);
	r->col[r->n++] = col;
}

static bool record_parse(struct judging *g, const char *text)
{
	const char *p = text;
	size_t k;

	for (k = 0; k < 2; k++) {
		size_t f = 0;

		while (*p && *p != '\n') {
			char *end;
			unsigned long long v;

			while (*p == ' ')
				p++;
			if (*p < '0' || *p > '9')
				return false;
			v = strtoull(p, &end, 10);
			p = end;
			if (f == 0)
				g->runs[k].queued = (size_t)v;
			else if (f == 1)
				g->runs[k].seen = (size_t)v;
			else
				record_add(&g->runs[k], (size_t)v);
			f++;
		}
		if (*p++ != '\n' || f < 2)
			return false;
	}
	return true;
}

static int record_save(struct judging *g, struct strbuf *err)
{
	struct robot_judge *j = g->j;
	struct strbuf text = STRBUF_INIT;
	int r;

	record_format(g, &text);
	r = robot_state_set_judging(j->state, j->repo->name, j->branch,
				    g->sha[1], j->job->name, text.buf, err);
	strbuf_release(&text);
	return r;
}

/*
 * The runs a lab made for what this judgement queued: the commit's
 * runs past those it had when they were asked, as many as were asked.
 * (Another branch's runs of a shared base that land in between may be
 * taken instead: in the lab the pairing is as close as the queue lets.)
 */
static void adopt_queued(struct judging *g)
{
	size_t k;

	for (k = 0; k < 2; k++) {
		struct side_runs *r = &g->runs[k];

		while (r->queued && r->seen < g->have[k]) {
			record_add(r, r->seen++);
			r->queued--;
		}
	}
}

static int judging_run(void *data, enum decide_side side, struct strbuf *err)
{
	struct judging *g = data;
	struct side_runs *sr = &g->runs[side];
	size_t before, after;
	int r;

	if (g->j->res->count(g->j->res, g->sha[side], &before, err) < 0)
		return -1;
	r = g->j->res->run_one(g->j->res, g->sha[side], (int)side, err);
	if (r < 0) {
		if (bisect_exec_interrupted())
			g->interrupted = true;
		return -1;
	}
	if (r == ROBOT_PENDING) {
		if (!sr->queued)
			sr->seen = before;
		sr->queued++;
	} else {
		if (g->j->res->count(g->j->res, g->sha[side], &after, err) < 0)
			return -1;
		/* the new run is the commit's newest column */
		while (before < after)
			record_add(sr, before++);
		g->have[side] = after;
	}
	if (record_save(g, err) < 0)
		return -1;
	return r == ROBOT_PENDING;
}

static int judging_judge(void *data, struct decide_tally *t, struct strbuf *err)
{
	struct judging *g = data;

	free(*g->stat);
	*g->stat = NULL;
	if (kpi_change(g->j, g->sha[0], g->sha[1], g->runs, g->stat,
		       g->change, g->regression, &g->look, err) < 0)
		return -1;
	/* the KPI to bisect, compare's choice, is what "changed" means */
	t->changed = *g->stat != NULL;
	t->same = g->look.t.same;
	t->undecided = g->look.t.undecided;
	/* more runs of the head cannot decide these: the base's can */
	if (t->undecided && g->look.t.base_limited == t->undecided)
		t->want = DECIDE_WANT_BASE;
	return 0;
}

static void judging_progress(void *data, enum decide_side side,
			     const struct decide_tally *t, size_t max_runs)
{
	struct judging *g = data;
	struct robot_judge *j = g->j;

	note("%s/%s %.*s: %s%s run %zu of at most %zu (pair %zu)",
	     j->repo->name, j->branch, SHORT_SHA_LEN, g->sha[1],
	     j->where ? j->where : "", side == DECIDE_BASE ? "base" : "head",
	     t->runs[side] + 1, max_runs, t->pairs + 1);
}

/*
 * Head against base, interleaved, until decided (decide/decide.h): pairs
 * of one base run and one head run, made now, at least the job's `runs`
 * of them, then one more pair (or a lone run of the base where only its
 * spread limits) while a KPI is undecided, up to `max_runs` a side.
 * Only runs made beside the other side decide: the runs each commit had
 * before the first pair are left out (robot_state_judging keeps that
 * point across passes, so a head left undecided goes on with its pairs).
 * ROBOT_JUDGED with *stat (NULL: no KPI changed; v's verdict
 * "undecided" when one still is -- a state the next pass takes up
 * again), or PENDING / STOPPED.  used gets the runs judged.
 */
static int judge_until_decided(struct robot_judge *j, const char *base,
			       const char *head, char **stat,
			       bool *regression, struct robot_verdict *v,
			       struct strbuf *used)
{
	struct strbuf why = STRBUF_INIT;
	struct judging g;
	struct decide_ops ops;
	struct decide_budget b;
	struct decide_tally t;
	char *text = NULL;
	size_t paired;
	int found, r = ROBOT_JUDGED, k;

	memset(&g, 0, sizeof(g));
	g.j = j;
	g.sha[DECIDE_BASE] = base;
	g.sha[DECIDE_HEAD] = head;
	g.stat = stat;
	g.change = &v->change;
	g.regression = regression;
	strbuf_init(&g.look.line, 0);
	found = robot_state_judging(j->state, j->repo->name, j->branch, head,
				    j->job->name, &text, &why);
	if (found > 0 && !record_parse(&g, text)) {
		for (k = 0; k < 2; k++)
			g.runs[k].n = g.runs[k].queued = 0;
	}
	for (k = 0; found >= 0 && k < 2; k++)
		if (j->res->count(j->res, g.sha[k], &g.have[k], &why) < 0)
			found = -1;
	if (found < 0) {
		verdict_error(v, why.buf);
		goto out;
	}
	adopt_queued(&g);
	memset(&b, 0, sizeof(b));
	for (k = 0; k < 2; k++)
		b.start[k] = g.runs[k].n + g.runs[k].queued;
	/* the pairs a judgement begins with, less those made before */
	paired = b.start[0] < b.start[1] ? b.start[0] : b.start[1];
	b.min_runs = paired < j->job->runs ? j->job->runs - paired : 0;
	b.max_runs = j->job->max_runs;
	b.first_change = true; /* each KPI on its own */
	ops.data = &g;
	ops.run = judging_run;
	ops.judge = judging_judge;
	ops.progress = judging_progress;
	if (decide_until(&ops, &b, &t, &why) < 0) {
		if (g.interrupted) {
			r = ROBOT_JUDGE_STOPPED;
		} else {
			free(*stat);
			*stat = NULL;
			verdict_error(v, why.buf);
		}
		goto out;
	}
	if (t.stop == DECIDE_STOP_PENDING) {
		r = ROBOT_JUDGE_PENDING;
		goto out;
	}
	strbuf_addf(used, "judged on %zu base and %zu head runs made "
		    "interleaved (ABAB) beside each other",
		    g.runs[0].n, g.runs[1].n);
	if (g.have[0] > g.runs[0].n || g.have[1] > g.runs[1].n)
		strbuf_addf(used, "; %zu other base and %zu other head runs "
			    "left out", g.have[0] - g.runs[0].n,
			    g.have[1] - g.runs[1].n);
	if (t.verdict == DECIDE_UNDECIDED) {
		/* never "same": said as undecided, with why */
		set_str(&v->verdict, "undecided");
		strbuf_addf(&g.look.line, " (budget max_runs %zu a side; %s)",
			    b.max_runs, used->buf);
		set_str(&v->detail, g.look.line.buf);
	}
	note("%s/%s %.*s: %s, %s", j->repo->name, j->branch, SHORT_SHA_LEN,
	     head, decide_verdict_name(t.verdict), used->buf);
out:
	for (k = 0; k < 2; k++)
		free(g.runs[k].col);
	free(text);
	strbuf_release(&g.look.line);
	strbuf_release(&why);
	return r;
}

int robot_judge_head(struct robot_judge *j, const char *base, const char *head,
		     struct robot_verdict *v, struct strbuf *err)
{
	struct strbuf used = STRBUF_INIT;
	bool regression = false;
	char *stat = NULL;
	int r;

	set_str(&v->base, base);
	set_str(&v->head, head); /* the mail pools the head's runs (notify.c) */
	set_str(&v->verdict, NULL);
	set_str(&v->detail, NULL);
	r = judge_until_decided(j, base, head, &stat, &regression, v, &used);
	if (r != ROBOT_JUDGED || v->verdict) {
		free(stat);
		strbuf_release(&used);
		return r;
	}
	if (!stat) {
		set_str(&v->verdict, "same");
		set_str(&v->detail, used.buf);
		strbuf_release(&used);
		return ROBOT_JUDGED;
	}
	note("%s/%s %.*s: %s %+.1f%% against %.*s: bisecting", j->repo->name,
	     j->branch, SHORT_SHA_LEN, head, stat, v->change, SHORT_SHA_LEN,
	     base);
	v->stat = stat;
	set_str(&v->verdict, regression ? "regression" : "improvement");
	r = run_bisect(j, base, head, v, err);
	/* what the head was judged on, before what the bisect says */
	if (r == ROBOT_JUDGED) {
		if (v->detail) {
			strbuf_addch(&used, '\n');
			strbuf_addstr(&used, v->detail);
		}
		set_str(&v->detail, used.buf);
	}
	strbuf_release(&used);
	return r;
}
