/*
 * via_lab.c: the robot's results got in the lab (robot/results.h), the lab
 * mode of `perfsift robot --store postgresql://...`.  The commit's runs
 * are not run here: they are queued for the lab's workers of the job's
 * testbox_group (lab/lab.h), one task per atomic job, and a pass never
 * waits for them -- ensure() answers ROBOT_PENDING and a later pass
 * finds the runs in the shared store.
 *
 * Where the build happens: here.  The robot checks the commit out in a
 * worktree of its mirror and runs the repo's `build` there, below its
 * result root, and the task names that worktree as its workdir: the
 * worker runs the job's commands in it, exactly as a local run does.  So
 * the robot's result root must be on a path the workers share (the same
 * box, or a shared file system).  The repo's `install` is not run by the
 * robot: installing (a kernel) is the worker's boot hook's business
 * (docs/lab.md).
 *
 * The tasks are found again by their workdir (one per robot job and
 * commit): the queue, in the same store, is the record of what was
 * queued, so a robot killed between queueing and writing anything else
 * never queues twice.
 *
 * The bisect's steps go the same way: its measure op queues a task and
 * reports the bisect interrupted-by-pending; the next pass runs the
 * bisect again, which takes its recorded verdicts (recall) and the
 * samples the store holds, and goes on one step further.
 */
#include "util/compat.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bisect/bisect.h"
#include "bisect/exec.h"
#include "job/job.h"
#include "job/split.h"
#include "lab/lab.h"
#include "result/matrix.h"
#include "robot/config.h"
#include "robot/results.h"
#include "util/fileutil.h"
#include "util/short_sha.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/xalloc.h"

#ifdef HAVE_LIBPQ
struct labres {
	struct lab lab;
	/* samples are read through this one (its store is the lab's) */
	struct bisect_exec x;
	/* the bisect in progress: its notes (verdict log, confirmation) */
	struct bisect_exec bx;
	struct bisect_ops inner; /* bx's own ops: recall, confirm_base */
	bool bisecting;
	bool pending; /* a task of this pass's asks is queued or running */
	const struct robot_repo *repo;
	const struct robot_job *job;
	char *mirror, *work, *root, *url;
};

static void setup_exec(struct labres *l, struct bisect_exec *x)
{
	/* the worker's boot hook installs (see above) */
	robot_exec_setup(x, l->repo, l->job, l->mirror, l->root, l->url, false);
}

/* the commit's worktree: <work>/<sha>/ (slot 0 of an exec of its own) */
static void commit_base(struct labres *l, const char *sha, struct strbuf *out)
{
	strbuf_reset(out);
	strbuf_addf(out, "%s/%s", l->work, sha);
}

/*
 * What the queue holds for the worktree wd: 1 a task is queued or
 * leased, 2 the last one failed or was cancelled (why says), 0 none
 * active (none at all, or all done).
 */
static int task_state(struct labres *l, const char *wd, struct strbuf *why,
		      struct strbuf *err)
{
	const char *p[1] = { wd };
	struct lab_rows r;
	int i, ret = 0;

	if (lab_query(&l->lab, "SELECT id, state, coalesce(last_error, '')"
		      " FROM lab_tasks WHERE workdir = $1 ORDER BY id", 1, p,
		      &r, err) < 0)
		return -1;
	for (i = 0; i < r.n; i++) {
		const char *s = lab_get(&r, i, 1);

		if (!strcmp(s, "queued") || !strcmp(s, "leased")) {
			ret = 1;
			break;
		}
		if (i == r.n - 1 && (!strcmp(s, "failed") || !strcmp(s, "cancelled"))) {
			strbuf_addf(why, "lab task %s %s: %s", lab_get(&r, i, 0),
				    s, lab_get(&r, i, 2));
			ret = 2;
		}
	}
	lab_rows_release(&r);
	return ret;
}

/* the job's atoms as tasks of nruns runs for sha, run in wd */
static int queue_tasks(struct labres *l, const char *sha, const char *wd,
		       int nruns, struct strbuf *err)
{
	struct job **jobs = NULL, **atoms = NULL;
	size_t njobs = 0, natoms = 0, i;
	struct lab_new_task tmpl;
	struct lab_task_batch b = { NULL, NULL, NULL, 0 };
	int64_t *ids = NULL;
	int ret = -1;

	if (job_load_file(l->job->job, &jobs, &njobs, err) < 0)
		return -1;
	if (njobs != 1 || split_job(jobs[0], &atoms, &natoms, err) < 0) {
		if (!err->len)
			strbuf_addf(err, "%s: one job per file in lab mode", l->job->job);
		job_free_all(jobs, njobs);
		return -1;
	}
	/* the robot's testbox_group, when it names one, is the task's */
	for (i = 0; i < natoms && l->job->testbox_group; i++)
		job_set(atoms[i], "tbox_group", l->job->testbox_group);
	memset(&tmpl, 0, sizeof(tmpl));
	tmpl.commit = sha;
	tmpl.workdir = wd;
	tmpl.runs = nruns;
	tmpl.max_attempts = 3;
	lab_task_batch_init(&b, atoms, natoms, &tmpl);
	for (i = 0; i < natoms; i++)
		if (!b.t[i].group) {
			strbuf_addf(err, "%s: no testbox_group for the lab queue "
				    "(testbox_group: in the robot's jobs, or "
				    "tbox_group: in the job)", l->job->job);
			goto out;
		}
	ids = xcalloc(natoms + 1, sizeof(*ids));
	if (lab_add_tasks(&l->lab, b.t, natoms, ids, err) < 0)
		goto out;
	for (i = 0; i < natoms; i++)
		note("%.*s: queued lab task %" PRId64
		     " (%s, group %s, %d run%s)",
		     SHORT_SHA_LEN, sha, ids[i], b.t[i].job_name, b.t[i].group,
		     nruns, nruns == 1 ? "" : "s");
	ret = 0;
out:
	lab_task_batch_release(&b);
	free(ids);
	job_free_all(atoms, natoms);
	job_free_all(jobs, njobs);
	return ret;
}

/*
 * Ask the lab for `more` runs of sha (unless a task is at it already):
 * ROBOT_PENDING, or -1 with err (the commit does not build, its last
 * task failed).
 */
static int ask(struct labres *l, const char *sha, int more, struct strbuf *err)
{
	struct strbuf base = STRBUF_INIT, why = STRBUF_INIT;
	struct bisect_exec cx;
	struct bisect_ops ops;
	int st, ret = -1;

	commit_base(l, sha, &base);
	setup_exec(l, &cx);
	if (mkdir_p(base.buf, 0755) < 0 || bisect_exec_init(&cx, base.buf, err) < 0)
		goto out;
	st = task_state(l, cx.wt[0], &why, err);
	if (st < 0)
		goto done;
	if (st == 2) {
		strbuf_addf(err, "%.*s: %s", SHORT_SHA_LEN, sha, why.buf);
		goto done;
	}
	if (st == 0) {
		/* checked out and built here, run there (see the top) */
		bisect_exec_ops(&cx, &ops);
		if (ops.prepare(ops.data, 0, sha, &why)) {
			strbuf_addf(err, "%.*s: %s", SHORT_SHA_LEN, sha,
				    why.len ? why.buf : "cannot be prepared");
			goto done;
		}
		if (queue_tasks(l, sha, cx.wt[0], more, err) < 0)
			goto done;
	}
	l->pending = true;
	ret = ROBOT_PENDING;
done:
	bisect_exec_release(&cx);
out:
	strbuf_release(&base);
	strbuf_release(&why);
	return ret;
}

static int lab_ensure(struct robot_results *r, const char *sha, size_t runs,
		      struct strbuf *err)
{
	struct labres *l = r->priv;
	size_t have;

	if (bisect_exec_count_runs(&l->x, sha, &have, err) < 0)
		return -1;
	if (have >= runs)
		return ROBOT_READY;
	return ask(l, sha, (int)(runs - have), err);
}

/*
 * One more run of sha for an interleaved judgement: a task of one run,
 * unless one is already at it.  A commit's tasks are found by their
 * worktree, so one is active per commit at a time: a pass queues one
 * pair (a base task, a head task) and the next pass judges it and
 * queues the next -- interleaved as far as the queue allows.
 */
static int lab_run_one(struct robot_results *r, const char *sha, int slot,
		       struct strbuf *err)
{
	(void)slot;
	return ask(r->priv, sha, 1, err);
}

static int lab_count(struct robot_results *r, const char *sha, size_t *n,
		     struct strbuf *err)
{
	struct labres *l = r->priv;

	return bisect_exec_count_runs(&l->x, sha, n, err);
}

/* ---- the bisect's ops: measuring is asking the lab ---- */

/* nothing to check out here: ask() builds the worktree it queues for */
static int lab_prepare(void *data, int slot, const char *sha, struct strbuf *why)
{
	(void)data;
	(void)slot;
	(void)sha;
	(void)why;
	return 0;
}

/*
 * One more run of sha: a task of one run, also for a commit's first runs
 * -- the driver asks run by run, in its order (a step's triplets good,
 * commit, bad; the endpoints' and the confirmation's A B A B), and the
 * lab keeps that order only if each run is a task of its own (a commit's
 * first `runs` runs as one task ran back to back, beside nothing).  It
 * is pending, so the driver is told to stop (interrupted) and the next
 * pass goes on.
 */
static int lab_measure(void *data, int slot, const char *sha, struct strbuf *err)
{
	struct labres *l = data;
	int r;

	(void)slot;
	r = ask(l, sha, 1, err);
	if (r < 0)
		return -1;
	strbuf_addf(err, "%.*s: queued in the lab", SHORT_SHA_LEN, sha);
	return -1;
}

static int lab_samples(void *data, const char *sha, struct matrix *m,
		       struct strbuf *err)
{
	struct labres *l = data;

	return bisect_exec_samples(&l->bx, sha, m, err);
}

static bool lab_interrupted(void *data)
{
	struct labres *l = data;

	return l->pending || bisect_exec_interrupted();
}

static bool lab_confirm_base(void *data, const char *a, const char *b,
			     size_t *base_a, size_t *base_b, bool save)
{
	struct labres *l = data;

	return l->inner.confirm_base(l->inner.data, a, b, base_a, base_b, save);
}

static bool lab_recall(void *data, const char *sha, const char *stat,
		       enum bisect_verdict *v, char **why, bool save)
{
	struct labres *l = data;

	return l->inner.recall(l->inner.data, sha, stat, v, why, save);
}

static bool lab_step_base(void *data, const char *sha, size_t base[3],
			  bool save)
{
	struct labres *l = data;

	return l->inner.step_base(l->inner.data, sha, base, save);
}

static int lab_starts(void *data, const char *sha, const struct matrix *m,
		      double *t, struct strbuf *err)
{
	struct labres *l = data;

	return l->inner.starts(l->inner.data, sha, m, t, err);
}

static int lab_bisect_ops(struct robot_results *r, const char *dir,
			  struct bisect_ops *ops, struct strbuf *err)
{
	struct labres *l = r->priv;
	struct bisect_exec setup;

	setup_exec(l, &setup);
	/* no worktrees of its own (ask() builds them): its notes only */
	if (robot_exec_begin(&l->bx, &l->bisecting, &setup, dir, false, err) < 0)
		return -1;
	bisect_exec_ops(&l->bx, &l->inner);
	*ops = l->inner;
	ops->prepare = lab_prepare;
	ops->measure = lab_measure;
	ops->samples = lab_samples;
	ops->interrupted = lab_interrupted;
	ops->confirm_base = lab_confirm_base;
	ops->recall = lab_recall;
	ops->step_base = lab_step_base;
	ops->starts = lab_starts;
	/* inner's reader wants inner's data: a failure goes unexplained */
	ops->failure = NULL;
	ops->data = l;
	return 0;
}

static void lab_bisect_done(struct robot_results *r)
{
	struct labres *l = r->priv;

	if (!l->bisecting)
		return;
	bisect_exec_cleanup(&l->bx);
	bisect_exec_release(&l->bx);
	l->bisecting = false;
}

static bool lab_is_pending(struct robot_results *r)
{
	struct labres *l = r->priv;

	return l->pending;
}

static void lab_release_res(struct robot_results *r)
{
	struct labres *l = r->priv;

	if (!l)
		return;
	if (l->bisecting)
		bisect_exec_release(&l->bx);
	bisect_exec_release(&l->x);
	lab_close(&l->lab);
	free(l->mirror);
	free(l->work);
	free(l->root);
	free(l->url);
	free(l);
	r->priv = NULL;
}

int robot_results_lab(struct robot_results *r, const struct robot_repo *repo,
		      const struct robot_job *job, const char *mirror,
		      const char *work, const char *result_root,
		      const char *store_url, struct strbuf *err)
{
	struct labres *l = xcalloc(1, sizeof(*l));

	memset(r, 0, sizeof(*r));
	l->repo = repo;
	l->job = job;
	l->mirror = xstrdup(mirror);
	l->work = xstrdup(work);
	l->root = xstrdup(result_root);
	l->url = xstrdup(store_url);
	r->priv = l;
	r->ensure = lab_ensure;
	r->run_one = lab_run_one;
	r->count = lab_count;
	r->bisect_ops = lab_bisect_ops;
	r->bisect_done = lab_bisect_done;
	r->pending = lab_is_pending;
	r->release = lab_release_res;
	r->result_root = l->root;
	r->store_url = l->url;
	if (mkdir_p(result_root, 0777) < 0 || mkdir_p(work, 0755) < 0) {
		strbuf_addf(err, "cannot create '%s' or '%s'", result_root, work);
		goto fail;
	}
	if (lab_open(&l->lab, l->root, l->url, err) < 0)
		goto fail;
	setup_exec(l, &l->x);
	if (bisect_exec_init(&l->x, NULL, err) < 0)
		goto fail;
	return 0;
fail:
	lab_release_res(r);
	return -1;
}
#else
int robot_results_lab(struct robot_results *r, const struct robot_repo *repo,
		      const struct robot_job *job, const char *mirror,
		      const char *work, const char *result_root,
		      const char *store_url, struct strbuf *err)
{
	(void)r; (void)repo; (void)job; (void)mirror; (void)work;
	(void)result_root; (void)store_url;
	strbuf_addstr(err, "the lab mode needs perfsift built with libpq");
	return -1;
}
#endif
