/*
 * schedule.h: the order of the runs of a command's atomic jobs, above the
 * run engine (engine.h): -n runs of each, round-robin over the jobs
 * (A B A B ...: drift of the machine falls on every setting alike) or
 * one job's runs in a row; then, with --until-decided BASE, more runs of
 * each job while a KPI of it is undecided against BASE (compare.h), up
 * to --max-runs.  `perfsift run` is its caller.
 */
#ifndef PERFSIFT_SCHEDULE_H
#define PERFSIFT_SCHEDULE_H

#include "util/compat.h"
#include "run/engine.h"

struct job;
struct strbuf;

struct schedule {
	const char *result_root; /* BASE is looked up here ... */
	const char *store_url;   /* ... and in this store (NULL: SQLite) */
	int nr_runs;             /* -n: each job's first runs */
	bool interleave;         /* round-robin over the jobs (else in a row) */
	const char *base;        /* --until-decided BASE, or NULL */
	int max_runs;            /* --until-decided: the most runs of a job */
	/*
	 * Called after each run with the atomic job's index, the run (its
	 * directory in r->dir, empty when none was reserved) and its
	 * outcome: `perfsift calibrate` collects the runs of its A/A so.
	 * NULL: nothing is called.
	 */
	void (*on_run)(void *ctx, size_t job, const struct engine_run *r,
		       enum engine_outcome o);
	void *on_run_ctx;
	/* what became of the runs, counted by outcome */
	int nr_ok, nr_failed, nr_skipped, nr_incomplete, nr_error;
	/* --until-decided: jobs that ended regressed (a KPI changed for the
	 * worse), and jobs that ended still undecided (or with no KPI) */
	int nr_regressed, nr_undecided;
};

/*
 * The atomic jobs of job file `file`: the nr_sets `--set KEY=VALUE`
 * applied to each of its documents, split (split.h), each with its plan
 * (cmd_argv: the command after `--`, or NULL; engine_plan_make()).
 * 0, or -1 with err naming the file, line and key and nothing handed
 * back (*atomic and *plans NULL).  On 0 the caller frees *atomic
 * (job_free_all), each of the *nr_atomic plans (engine_plan_release) and
 * *plans.
 */
int schedule_load(const char *file, char **sets, size_t nr_sets,
		  char **cmd_argv, struct job ***atomic, size_t *nr_atomic,
		  struct engine_plan **plans, struct strbuf *err);

/*
 * --until-decided: BASE must name one group now (before anything runs),
 * and -n defaults to 3 when not given (LKP's rules judge nothing below 3
 * runs a side).  0, or -1 said on stderr.
 */
int schedule_check_base(struct schedule *s, bool runs_given);

/*
 * Run the n atomic jobs (plans[i] for atomic[i]) through e as s says.
 * Returns ENGINE_STOPPED when a stop request ended the work, else
 * ENGINE_ERROR when a run could not be recorded (or BASE could not be
 * judged), else the outcome of the last run; s's counts say the rest.
 */
enum engine_outcome schedule_run_all(struct schedule *s, struct engine *e,
				     struct job **atomic,
				     const struct engine_plan *plans, size_t n);

#endif
