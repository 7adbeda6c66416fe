/*
 * pass.c: one pass of the robot (robot/pass.h).  Per repo: fetch into a
 * bare mirror of the robot's own (the user's repositories are never
 * touched, and worktrees of the mirror hold the builds); per branch head
 * that is new: judge it for every job (robot/verdict.c), record each job's
 * verdict, mail confirmed culprits, record the branch.  The base branch
 * itself is watched in mainline mode: each new head is judged against
 * the head tested before it, so a regression pushed straight to the base
 * is caught too; the first head seen is only measured (no back-fill).
 */
#include "util/compat.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bisect/exec.h"
#include "bisect/git.h"
#include "robot/config.h"
#include "robot/judge.h"
#include "robot/pass.h"
#include "robot/results.h"
#include "robot/state.h"
#include "util/fileutil.h"
#include "util/short_sha.h"
#include "util/spawn.h"
#include "util/strbuf.h"
#include "util/trust.h"
#include "util/usage.h"
#include "util/xalloc.h"

void robot_repo_dir(const char *root, const char *repo, const char *what,
		    struct strbuf *out)
{
	strbuf_reset(out);
	strbuf_addf(out, "%s/robot/%s/%s", root, repo, what);
}

/* the mirror, made and fetched: 0, or -1 with why (the repo is skipped) */
static int fetch(const char *root, const struct robot_repo *r,
		 struct strbuf *mirror, struct strbuf *why)
{
	struct strbuf out = STRBUF_INIT;
	int ret = -1;

	robot_repo_dir(root, r->name, "mirror.git", mirror);
	if (!dir_exists(mirror->buf)) {
		const char *init[] = { "init", "--quiet", "--bare", mirror->buf, NULL };

		if (mkdir_p(mirror->buf, 0755) < 0 ||
		    (r->user && spawn_chown_tree(mirror->buf, r->user->uid,
						 r->user->gid, why) < 0) ||
		    bisect_git(mirror->buf, &out, why, init) < 0)
			goto out;
	} else if (r->user) {
		struct stat st;

		/* one made before build_user was set: the user's from now on */
		if (stat(mirror->buf, &st) < 0 || st.st_uid != r->user->uid) {
			if (spawn_chown_tree(mirror->buf, r->user->uid,
					     r->user->gid, why) < 0)
				goto out;
		}
	}
	/*
	 * The mirror is build_user's when one is set, so git runs in it as
	 * that user (bisect_git() runs git as a repository's owner): the
	 * fetch, and every checkout and log of the robot's, unprivileged.
	 */
	{
		/*
		 * every branch, pruned: a deleted branch is no longer watched.
		 * --end-of-options: the URL is never an option of git's
		 * ("--upload-pack=CMD" ran CMD, issue 25 F1)
		 */
		const char *args[] = { "fetch", "--quiet", "--prune", "--force",
				       "--end-of-options", r->url,
				       "+refs/heads/*:refs/heads/*", NULL };

		if (bisect_git(mirror->buf, &out, why, args) < 0)
			goto out;
	}
	ret = 0;
out:
	strbuf_release(&out);
	return ret;
}

/* a branch of the mirror and the commit it points at */
struct head {
	char sha[41];
	char *branch;
};

/* every branch of the mirror with its head, sorted by name */
static int list_heads(const char *mirror, struct head **heads, size_t *n,
		      struct strbuf *err)
{
	const char *args[] = { "for-each-ref", "--format=%(objectname) %(refname:strip=2)",
			       "refs/heads/", NULL };
	struct strbuf out = STRBUF_INIT;
	size_t alloc = 0;
	char *line, *next;

	*heads = NULL;
	*n = 0;
	if (bisect_git(mirror, &out, err, args) < 0) {
		strbuf_release(&out);
		return -1;
	}
	for (line = out.buf; *line; line = next) {
		next = strchrnul(line, '\n');
		if (*next)
			*next++ = '\0';
		if (strlen(line) < 42 || line[40] != ' ')
			continue;
		ALLOC_GROW(*heads, *n + 1, alloc);
		memcpy((*heads)[*n].sha, line, 40);
		(*heads)[*n].sha[40] = '\0';
		(*heads)[*n].branch = xstrdup(line + 41);
		(*n)++;
	}
	strbuf_release(&out);
	return 0;
}

/* list_heads()'s array */
static void free_heads(struct head *heads, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(heads[i].branch);
	free(heads);
}

/*
 * The branch's base: the commit it forked from base at, as 0-day
 * compares a branch with what it was based on (comparing with base's
 * head would blame the branch for what base did since).
 */
static int merge_base(const char *mirror, const char *a, const char *b,
		      char *sha, struct strbuf *err)
{
	const char *args[] = { "merge-base", "--end-of-options", a, b, NULL };
	struct strbuf out = STRBUF_INIT;
	int ret = -1;

	if (bisect_git(mirror, &out, err, args) == 0 && out.len == 40) {
		memcpy(sha, out.buf, 41);
		ret = 0;
	} else if (!err->len) {
		strbuf_addf(err, "no merge-base of %.*s and %.*s",
			    SHORT_SHA_LEN, a, SHORT_SHA_LEN, b);
	}
	strbuf_release(&out);
	return ret;
}

/* the verdict that speaks for a branch: the most serious of its jobs' */
static int rank(const char *verdict)
{
	static const char *const order[] = { "same", "no commits", "measured",
					     "undecided", "not reproducible",
					     "range",
					     "improvement", "error", "regression" };
	size_t i;

	for (i = 0; verdict && i < ARRAY_SIZE(order); i++)
		if (!strcmp(verdict, order[i]))
			return (int)i;
	return 0;
}

/* dst becomes a deep copy of src (the branch row outlives the job's) */
static void take(struct robot_verdict *dst, const struct robot_verdict *src)
{
	robot_verdict_release(dst);
	dst->head = src->head ? xstrdup(src->head) : NULL;
	dst->base = src->base ? xstrdup(src->base) : NULL;
	dst->verdict = src->verdict ? xstrdup(src->verdict) : NULL;
	dst->stat = src->stat ? xstrdup(src->stat) : NULL;
	dst->change = src->change;
	dst->culprit = src->culprit ? xstrdup(src->culprit) : NULL;
	dst->detail = src->detail ? xstrdup(src->detail) : NULL;
	dst->done = src->done;
	dst->mailed = src->mailed;
}

/* one head under test: what test_job() and test_head() share */
struct head_test {
	struct robot_pass *p;
	const struct robot_repo *repo;
	const char *mirror, *branch, *base, *head;
	bool measure_only; /* mainline's first head: results, no verdict */
	const char *where;  /* "head 2 of 3, " for the log */
};

/*
 * One job's test of the head, from the state when it finished before.
 * 0 (t filled, done or not), 1 interrupted, -1 the robot cannot go on.
 */
static int test_job(struct head_test *h, const struct robot_job *job,
		    struct robot_verdict *t, struct strbuf *err)
{
	struct robot_pass *p = h->p;
	struct robot_results res;
	struct robot_judge j;
	struct strbuf dir = STRBUF_INIT, work = STRBUF_INIT;
	int found, r = -1;

	found = robot_state_test(p->state, h->repo->name, h->branch, h->head,
				 job->name, t, err);
	if (found < 0)
		return -1;
	/* judged and mailed before: nothing left for this job */
	if (found && t->done && (!t->culprit || t->mailed))
		return 0;
	robot_repo_dir(p->root, h->repo->name, "results/", &dir);
	strbuf_addstr(&dir, job->name);
	robot_repo_dir(p->root, h->repo->name, "work/", &work);
	strbuf_addstr(&work, job->name);
	if (p->store_url ?
	    robot_results_lab(&res, h->repo, job, h->mirror, work.buf, dir.buf,
			      p->store_url, err) < 0 :
	    robot_results_local(&res, h->repo, job, h->mirror, work.buf,
				dir.buf, err) < 0)
		goto out;
	memset(&j, 0, sizeof(j));
	j.cfg = p->cfg;
	j.state = p->state;
	j.root = p->root;
	j.repo = h->repo;
	j.job = job;
	j.branch = h->branch;
	j.mirror = h->mirror;
	j.res = &res;
	j.where = h->where;
	if (!t->done) {
		if (h->measure_only) {
			struct strbuf why = STRBUF_INIT;

			r = res.ensure(&res, h->head, job->runs, &why);
			free(t->verdict);
			t->verdict = xstrdup(r < 0 ? "error" : "measured");
			if (r < 0)
				t->detail = strbuf_detach(&why, NULL);
			strbuf_release(&why);
			r = ROBOT_JUDGED;
		} else {
			r = robot_judge_head(&j, h->base, h->head, t, err);
		}
		if (r < 0 || r == ROBOT_JUDGE_STOPPED || bisect_exec_interrupted()) {
			r = r < 0 ? -1 : 1;
			goto release;
		}
		/* queued in a lab: not done, the next pass looks again */
		if (r == ROBOT_JUDGE_PENDING) {
			r = 0;
			goto release;
		}
		/*
		 * Undecided is a state, not an answer: recorded (--status
		 * shows it with its runs so far) but not done, so the next
		 * pass judges it again, with more interleaved runs while
		 * the budget lasts.
		 */
		if (t->verdict && !strcmp(t->verdict, "undecided")) {
			t->done = false;
			r = robot_state_set_test(p->state, h->repo->name,
						 h->branch, h->head, job->name,
						 t, err);
			goto release;
		}
		t->done = true;
		/* recorded before the bisect's notes go (see verdict.c) */
		if (robot_state_set_test(p->state, h->repo->name, h->branch,
					 h->head, job->name, t, err) < 0) {
			r = -1;
			goto release;
		}
		res.bisect_done(&res);
	}
	r = 0;
	/* a verdict recorded but its mail not: the mail is all that is left */
	if (t->culprit && !t->mailed && !p->dry_run) {
		r = robot_notify(&j, t, err);
		if (r < 0)
			goto release;
		/* the count is what went out in this pass (F14 of issue 25) */
		if (r > 0)
			p->mailed++;
		else
			note("%s/%s: the mail about %.*s: already sent",
			     h->repo->name, h->branch, SHORT_SHA_LEN,
			     t->culprit);
		t->mailed = true;
		r = robot_state_set_test(p->state, h->repo->name, h->branch,
					 h->head, job->name, t, err);
	}
release:
	res.release(&res);
out:
	strbuf_release(&dir);
	strbuf_release(&work);
	return r;
}

/* every job on the head, then the branch's row; 0, 1 stopped, -1 */
static int test_head(struct head_test *h, struct robot_verdict *row,
		     struct strbuf *err)
{
	const struct robot_config *cfg = h->p->cfg;
	struct robot_verdict t, worst, open;
	bool all_done = true;
	size_t i;
	int r = 0;

	memset(&t, 0, sizeof(t));
	memset(&worst, 0, sizeof(worst));
	memset(&open, 0, sizeof(open));
	for (i = 0; i < cfg->njobs && !r; i++) {
		r = test_job(h, &cfg->jobs[i], &t, err);
		if (r)
			break;
		if (!t.done) {
			all_done = false;
			if (t.verdict && !strcmp(t.verdict, "undecided"))
				take(&open, &t);
		} else if (!worst.verdict || rank(t.verdict) > rank(worst.verdict))
			take(&worst, &t);
		robot_verdict_release(&t);
	}
	robot_verdict_release(&t);
	/* the branch is done only when every job is: else it stays "testing"
	 * and the next pass takes it up again */
	if (!r && all_done) {
		free(worst.head);
		worst.head = xstrdup(h->head);
		free(worst.base);
		worst.base = xstrdup(h->base);
		worst.done = true;
		r = robot_state_set_branch(h->p->state, h->repo->name, h->branch,
					   &worst, err);
		if (!r) {
			h->p->tested++;
			if (!strcmp(worst.verdict, "error"))
				h->p->failed++;
			bool why = !strcmp(worst.verdict, "error") && worst.detail;

			/* an error says why (a build that failed, a tree not
			 * handed over), not only that it was one */
			note("%s/%s %.*s: %s%s%.*s%s%s", h->repo->name,
			     h->branch, SHORT_SHA_LEN, h->head, worst.verdict,
			     worst.culprit ? ", culprit " : "", SHORT_SHA_LEN,
			     worst.culprit ? worst.culprit : "",
			     why ? ": " : "", why ? trust_shown(worst.detail) : "");
		}
	}
	/* an undecided job: the branch says so (not "testing"), not done */
	if (!r && !all_done && open.verdict) {
		free(open.head);
		open.head = xstrdup(h->head);
		free(open.base);
		open.base = xstrdup(h->base);
		open.done = false;
		r = robot_state_set_branch(h->p->state, h->repo->name,
					   h->branch, &open, err);
		if (!r) {
			h->p->undecided++;
			note("%s/%s %.*s: undecided: %s", h->repo->name,
			     h->branch, SHORT_SHA_LEN, h->head,
			     open.detail ? open.detail : "");
		}
	}
	(void)row;
	robot_verdict_release(&worst);
	robot_verdict_release(&open);
	return r;
}

/*
 * The branch at sha: skip it when that head was tested; else start (or
 * go on with) its test.  base is what a new test compares with (NULL:
 * mainline's previous head, from the row).
 */
static int visit(struct robot_pass *p, const struct robot_repo *repo,
		 const char *mirror, const char *branch, const char *sha,
		 bool mainline, const char *where, struct strbuf *err)
{
	struct robot_verdict row;
	struct head_test h;
	char base[41];
	int found, r;

	memset(&row, 0, sizeof(row));
	found = robot_state_branch(p->state, repo->name, branch, &row, err);
	if (found < 0)
		return -1;
	memset(&h, 0, sizeof(h));
	h.p = p;
	h.repo = repo;
	h.mirror = mirror;
	h.branch = branch;
	h.head = sha;
	h.where = where;
	if (found && row.head && !strcmp(row.head, sha) && row.done) {
		robot_verdict_release(&row);
		return 0; /* nothing new */
	}
	if (found && row.head && !strcmp(row.head, sha)) {
		/* a test a killed robot left: same base as it had */
		snprintf(base, sizeof(base), "%s", row.base ? row.base : sha);
	} else if (mainline) {
		if (found && row.head && row.done)
			snprintf(base, sizeof(base), "%s", row.head);
		else
			snprintf(base, sizeof(base), "%s", sha);
	} else if (merge_base(mirror, repo->base, sha, base, err) < 0) {
		warning("%s/%s: %s", repo->name, branch, err->buf);
		strbuf_reset(err);
		robot_verdict_release(&row);
		p->failed++;
		return 0;
	}
	h.base = base;
	h.measure_only = mainline && !strcmp(base, sha);
	if (p->dry_run) {
		printf("%s/%s: would test %.*s against %.*s%s\n", repo->name,
		       branch, SHORT_SHA_LEN, sha, SHORT_SHA_LEN, base,
		       h.measure_only ? " (mainline: first head, measured only)"
				      : "");
		robot_verdict_release(&row);
		return 0;
	}
	if (!mainline && !strcmp(base, sha)) {
		/* no commit of its own yet: nothing to judge */
		robot_verdict_release(&row);
		memset(&row, 0, sizeof(row));
		row.head = xstrdup(sha);
		row.base = xstrdup(base);
		row.verdict = xstrdup("no commits");
		row.done = true;
		r = robot_state_set_branch(p->state, repo->name, branch, &row, err);
		robot_verdict_release(&row);
		return r;
	}
	/* in progress: --status shows the head being tested */
	robot_verdict_release(&row);
	row.head = xstrdup(sha);
	row.base = xstrdup(base);
	row.verdict = xstrdup("testing");
	if (robot_state_set_branch(p->state, repo->name, branch, &row, err) < 0) {
		robot_verdict_release(&row);
		return -1;
	}
	note("%s/%s: testing %.*s against %.*s", repo->name, branch,
	     SHORT_SHA_LEN, sha, SHORT_SHA_LEN, base);
	r = test_head(&h, &row, err);
	robot_verdict_release(&row);
	return r;
}

/* one repo: 0 (its failures recorded), 1 stopped, -1 */
static int pass_repo(struct robot_pass *p, const struct robot_repo *repo,
		     struct strbuf *err)
{
	struct strbuf mirror = STRBUF_INIT, why = STRBUF_INIT;
	struct head *heads = NULL;
	struct strbuf where = STRBUF_INIT;
	size_t n = 0, i, k = 0, nwatched = 0;
	int r = 0;

	if (fetch(p->root, repo, &mirror, &why) < 0 ||
	    list_heads(mirror.buf, &heads, &n, &why) < 0) {
		/* one repo down must not stop the others: say it, go on */
		error("%s: cannot fetch '%s': %s", repo->name,
		      trust_redacted(repo->url), why.buf);
		p->failed++;
		if (!p->dry_run)
			r = robot_state_set_repo(p->state, repo->name, why.buf, err);
		goto out;
	}
	if (!p->dry_run && robot_state_set_repo(p->state, repo->name, NULL, err) < 0) {
		r = -1;
		goto out;
	}
	/* "head 2 of 3" in the log: of the branches watched */
	for (i = 0; i < n; i++)
		if (!strcmp(heads[i].branch, repo->base) ||
		    robot_branch_matches(repo, heads[i].branch))
			nwatched++;
	/* the base first: its mainline results serve the branches' bases */
	for (i = 0; i < n && !r; i++)
		if (!strcmp(heads[i].branch, repo->base)) {
			strbuf_reset(&where);
			strbuf_addf(&where, "head %zu of %zu, ", ++k, nwatched);
			r = visit(p, repo, mirror.buf, heads[i].branch,
				  heads[i].sha, true, where.buf, err);
		}
	for (i = 0; i < n && !r; i++)
		if (strcmp(heads[i].branch, repo->base) &&
		    robot_branch_matches(repo, heads[i].branch)) {
			strbuf_reset(&where);
			strbuf_addf(&where, "head %zu of %zu, ", ++k, nwatched);
			r = visit(p, repo, mirror.buf, heads[i].branch,
				  heads[i].sha, false, where.buf, err);
		}
out:
	strbuf_release(&where);
	free_heads(heads, n);
	strbuf_release(&mirror);
	strbuf_release(&why);
	return r;
}

int robot_pass_run(struct robot_pass *p, struct strbuf *err)
{
	size_t i;
	int r = 0;

	p->mailed = p->tested = p->failed = p->undecided = 0;
	/*
	 * A monitor "not available" here is said once a pass, not once a
	 * run: every `perfsift run` of the pass shares this file of what
	 * was said (run/sampler.h), emptied at the pass's start.
	 */
	if (!p->dry_run) {
		struct strbuf notes = STRBUF_INIT;

		path_join(&notes, p->root, "robot");
		if (mkdir_p(notes.buf, 0755) == 0) {
			strbuf_addstr(&notes, "/monitor-notes");
			unlink(notes.buf);
			setenv("PERFSIFT_MONITOR_NOTES", notes.buf, 1);
		}
		strbuf_release(&notes);
	}
	for (i = 0; i < p->cfg->nrepos && !r; i++) {
		r = pass_repo(p, &p->cfg->repos[i], err);
		if (!r && bisect_exec_interrupted())
			r = 1;
	}
	return r;
}
