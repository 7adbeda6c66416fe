/*
 * local.c: the robot's results got here (robot/results.h): bisect's own
 * real-world ops (bisect/exec.h) over the robot's mirror.  A commit is
 * checked out in a worktree of the mirror, built and installed with the
 * repo's commands, and the job runs through `perfsift run --commit SHA`
 * with the worktree as working directory -- the same code path as
 * `perfsift bisect`, so a result the robot got and one a bisect got are
 * the same kind of run in the same kind of index.
 */
#include "util/compat.h"
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include "bisect/bisect.h"
#include "bisect/exec.h"
#include "result/matrix.h"
#include "robot/config.h"
#include "robot/results.h"
#include "util/fileutil.h"
#include "util/short_sha.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct local {
	/* the ensure step's worktree (slot 0 only) */
	struct bisect_exec x;
	/* the bisect in progress, with its own worktrees and notes */
	struct bisect_exec bx;
	bool bisecting;
	const struct robot_repo *repo;
	const struct robot_job *job;
	char *mirror, *root;
};

void robot_exec_setup(struct bisect_exec *x, const struct robot_repo *repo,
		      const struct robot_job *job, const char *mirror,
		      const char *result_root, const char *store_url,
		      bool install)
{
	/* the fields bisect_exec_init() does not fill */
	memset(x, 0, sizeof(*x));
	x->repo = mirror;
	x->job = job->job;
	x->build = repo->build;
	x->install = install ? repo->install : NULL;
	x->kernel = repo->kernel;
	x->result_root = result_root;
	x->store_url = store_url;
	x->user = repo->user;
}

/*
 * A directory of worktrees (and root's notes), made: private, but when
 * a build user must reach its worktrees below it, searchable (never
 * listable or writable: root's notes are there), and its parent (work/)
 * the same.
 */
static int work_dir(const char *dir, const struct spawn_user *user,
		    struct strbuf *err)
{
	struct strbuf parent = STRBUF_INIT;
	int ret = 0;

	if (mkdir_p(dir, user ? 0711 : 0700) < 0) {
		strbuf_addf(err, "cannot create '%s'", dir);
		return -1;
	}
	if (!user)
		return 0;
	path_dirname(&parent, dir);
	if (chmod(dir, 0711) < 0 || chmod(parent.buf, 0711) < 0) {
		strbuf_addf(err, "cannot open '%s' to %s: %s", dir, user->name,
			    strerror(errno));
		ret = -1;
	}
	strbuf_release(&parent);
	return ret;
}

int robot_exec_begin(struct bisect_exec *bx, bool *bisecting,
		     const struct bisect_exec *setup, const char *dir,
		     bool worktrees, struct strbuf *err)
{
	if (*bisecting) {
		bisect_exec_release(bx);
		*bisecting = false;
	}
	if (work_dir(dir, setup->user, err) < 0)
		return -1;
	*bx = *setup;
	if (bisect_exec_init(bx, worktrees ? dir : NULL, err) < 0)
		return -1;
	/* no worktrees of its own: the notes still go into dir */
	if (!worktrees)
		bx->state_dir = xstrdup(dir);
	*bisecting = true;
	return 0;
}

static void setup_exec(struct local *l, struct bisect_exec *x)
{
	robot_exec_setup(x, l->repo, l->job, l->mirror, l->root, NULL, true);
}

static int local_ensure(struct robot_results *r, const char *sha, size_t runs,
			struct strbuf *err)
{
	struct local *l = r->priv;
	struct bisect_ops ops;
	struct strbuf why = STRBUF_INIT;
	size_t have, tries;
	int st;

	if (bisect_exec_count_runs(&l->x, sha, &have, err) < 0)
		return -1;
	/* the index first: a killed robot's runs are not run again */
	if (have >= runs)
		return ROBOT_READY;
	bisect_exec_ops(&l->x, &ops);
	/* built already (an until-decided run more of the same head): run */
	st = l->x.prepared[0] && !strcmp(l->x.prepared[0], sha) ? 0 :
		ops.prepare(ops.data, 0, sha, &why);
	if (st) {
		strbuf_addf(err, "%.*s: %s", SHORT_SHA_LEN, sha,
			    why.len ? why.buf : "cannot be prepared");
		strbuf_release(&why);
		return -1;
	}
	strbuf_release(&why);
	/*
	 * As many runs as are missing; a run that fails costs a try, and
	 * twice the runs without enough samples means the job fails here.
	 */
	for (tries = 0; have < runs && tries < 2 * runs; tries++) {
		if (bisect_exec_measure(&l->x, 0, sha, err) < 0)
			return -1;
		if (bisect_exec_count_runs(&l->x, sha, &have, err) < 0)
			return -1;
	}
	if (have < runs) {
		strbuf_addf(err, "%.*s: the job gave %zu complete runs of %zu",
			    SHORT_SHA_LEN, sha, have, runs);
		return -1;
	}
	return ROBOT_READY;
}

static int local_count(struct robot_results *r, const char *sha, size_t *n,
		       struct strbuf *err)
{
	struct local *l = r->priv;

	return bisect_exec_count_runs(&l->x, sha, n, err);
}

static int local_run_one(struct robot_results *r, const char *sha, int slot,
			 struct strbuf *err)
{
	struct local *l = r->priv;
	struct bisect_ops ops;
	struct strbuf why = STRBUF_INIT;
	size_t before, after, tries;

	if (bisect_exec_count_runs(&l->x, sha, &before, err) < 0)
		return -1;
	bisect_exec_ops(&l->x, &ops);
	if ((!l->x.prepared[slot] || strcmp(l->x.prepared[slot], sha)) &&
	    ops.prepare(ops.data, slot, sha, &why)) {
		strbuf_addf(err, "%.*s: %s", SHORT_SHA_LEN, sha,
			    why.len ? why.buf : "cannot be prepared");
		strbuf_release(&why);
		return -1;
	}
	strbuf_release(&why);
	/* one failed run is retried once; two in a row fail the judgement */
	for (tries = 0; tries < 2; tries++) {
		if (bisect_exec_measure(&l->x, slot, sha, err) < 0 ||
		    bisect_exec_count_runs(&l->x, sha, &after, err) < 0)
			return -1;
		if (after > before)
			return ROBOT_READY;
	}
	strbuf_addf(err, "%.*s: the job gave no complete run, twice",
		    SHORT_SHA_LEN, sha);
	return -1;
}

/* a bisect_exec of its own: its worktrees and notes are the bisect's */
static int local_bisect_ops(struct robot_results *r, const char *dir,
			    struct bisect_ops *ops, struct strbuf *err)
{
	struct local *l = r->priv;
	struct bisect_exec setup;

	setup_exec(l, &setup);
	if (robot_exec_begin(&l->bx, &l->bisecting, &setup, dir, true, err) < 0)
		return -1;
	/*
	 * A kernel bisect builds in the heads' worktree, where the tree is
	 * built already: a step rebuilds what its commit changed, not the
	 * whole kernel.  The worktree stays (the next head builds there);
	 * what it holds when the bisect is over is rebuilt for the next.
	 */
	if (l->repo->kernel && l->x.wt[0]) {
		size_t i;

		for (i = 0; i < BISECT_SLOTS; i++) {
			free(l->bx.wt[i]);
			l->bx.wt[i] = xstrdup(l->x.wt[0]);
		}
		l->bx.keep_worktrees = true;
		FREE_AND_NULL(l->x.prepared[0]);
	}
	bisect_exec_ops(&l->bx, ops);
	return 0;
}

static void local_bisect_done(struct robot_results *r)
{
	struct local *l = r->priv;

	if (!l->bisecting)
		return;
	bisect_exec_cleanup(&l->bx);
	bisect_exec_release(&l->bx);
	l->bisecting = false;
}

static void local_release(struct robot_results *r)
{
	struct local *l = r->priv;

	if (!l)
		return;
	if (l->bisecting)
		bisect_exec_release(&l->bx);
	bisect_exec_release(&l->x);
	free(l->mirror);
	free(l->root);
	free(l);
	r->priv = NULL;
}

int robot_results_local(struct robot_results *r, const struct robot_repo *repo,
			const struct robot_job *job, const char *mirror,
			const char *work, const char *result_root,
			struct strbuf *err)
{
	struct local *l = xcalloc(1, sizeof(*l));

	memset(r, 0, sizeof(*r));
	l->repo = repo;
	l->job = job;
	l->mirror = xstrdup(mirror);
	l->root = xstrdup(result_root);
	r->priv = l;
	r->ensure = local_ensure;
	r->run_one = local_run_one;
	r->count = local_count;
	r->bisect_ops = local_bisect_ops;
	r->bisect_done = local_bisect_done;
	r->release = local_release;
	r->result_root = l->root;
	r->store_url = NULL;
	if (mkdir_p(result_root, 0777) < 0) {
		strbuf_addf(err, "cannot create '%s'", result_root);
		local_release(r);
		return -1;
	}
	if (work_dir(work, repo->user, err) < 0) {
		local_release(r);
		return -1;
	}
	setup_exec(l, &l->x);
	if (bisect_exec_init(&l->x, work, err) < 0) {
		local_release(r);
		return -1;
	}
	return 0;
}
