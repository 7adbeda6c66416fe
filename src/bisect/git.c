/*
 * git.c: git as a child process for bisect and the robot (see
 * bisect/git.h), started through util/spawn.h.  git is always run with -C
 * and without the GIT_DIR family in its environment, so a `git bisect run`
 * or a hook around perfsift cannot redirect it to another repository; and
 * as the owner of the repository when root runs it in another user's (the
 * robot's build_user mirror), so root never runs that user's git config.
 */
#include "util/compat.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bisect/git.h"
#include "util/fileutil.h"
#include "util/short_sha.h"
#include "util/spawn.h"
#include "util/trust.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/xalloc.h"

int bisect_git(const char *repo, struct strbuf *out, struct strbuf *err,
	       const char *const *args)
{
	const char *argv[32];
	struct strbuf eb = STRBUF_INIT, ob = STRBUF_INIT;
	size_t n = 0, i;
	int st;

	argv[n++] = "git";
	argv[n++] = "-C";
	argv[n++] = repo;
	for (i = 0; args[i]; i++) {
		if (n + 2 > ARRAY_SIZE(argv))
			BUG("too many git arguments");
		argv[n++] = args[i];
	}
	argv[n] = NULL;
	{
		struct spawn_user owner;
		struct spawn_cmd c;
		bool as_owner = spawn_user_of(repo, &owner) > 0;

		spawn_init(&c);
		c.argv = argv;
		c.out.how = c.err.how = SPAWN_CAPTURE;
		c.out.buf = &ob;
		c.err.buf = &eb;
		c.unset = spawn_git_unset;
		/* a repository another user owns: git as that user (spawn.h) */
		c.user = as_owner ? &owner : NULL;
		st = spawn_run(&c, &eb);
		spawn_release(&c);
		if (as_owner)
			spawn_user_release(&owner);
	}
	if (st) {
		strbuf_trim(&eb);
		strbuf_addf(err, "git");
		/* a URL's password is never printed (util/trust.h) */
		for (i = 3; argv[i]; i++)
			strbuf_addf(err, " %s", trust_redacted(argv[i]));
		if (st < 0)
			strbuf_addf(err, ": %s", eb.buf);
		else
			strbuf_addf(err, " failed (exit %d)%s%s", st,
				    eb.len ? ": " : "", eb.buf);
		strbuf_release(&eb);
		strbuf_release(&ob);
		return -1;
	}
	strbuf_trim(&ob);
	if (out)
		strbuf_addbuf(out, &ob);
	strbuf_release(&eb);
	strbuf_release(&ob);
	return 0;
}

int bisect_git_resolve(const char *repo, const char *rev, char *sha,
		       struct strbuf *err)
{
	struct strbuf spec = STRBUF_INIT, out = STRBUF_INIT;
	const char *args[] = {"rev-parse", "--verify", "--quiet",
			      "--end-of-options", NULL, NULL};
	int ret = -1;

	strbuf_addf(&spec, "%s^{commit}", rev);
	args[4] = spec.buf;
	if (bisect_git(repo, &out, err, args) < 0) {
		strbuf_reset(err);
		strbuf_addf(err, "'%s' is not a commit in '%s'", rev, repo);
		goto out;
	}
	if (out.len != 40) {
		strbuf_addf(err, "git rev-parse '%s' gave '%s'", rev, out.buf);
		goto out;
	}
	memcpy(sha, out.buf, 41);
	ret = 0;
out:
	strbuf_release(&spec);
	strbuf_release(&out);
	return ret;
}

int bisect_git_toplevel(const char *dir, struct strbuf *out,
			struct strbuf *err)
{
	const char *args[] = {"rev-parse", "--show-toplevel", NULL};

	return bisect_git(dir, out, err, args);
}

void bisect_git_path_free(struct bisect_git_commit *commits, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(commits[i].subject);
	free(commits);
}

int bisect_git_path(const char *repo, const char *good_sha,
		    const char *bad_sha, struct bisect_git_commit **commits,
		    size_t *n, struct strbuf *err)
{
	struct strbuf range = STRBUF_INIT, out = STRBUF_INIT,
		      parents = STRBUF_INIT;
	const char *log_args[] = {"rev-list", "--first-parent", "--reverse",
				  "--no-commit-header", "--format=%H %P%x09%s",
				  "--end-of-options", NULL, NULL};
	struct bisect_git_commit *c = NULL;
	size_t nc = 0, alloc = 0;
	char *line, *next, prev[41];
	int ret = -1;

	*commits = NULL;
	*n = 0;
	strbuf_addf(&range, "%s..%s", good_sha, bad_sha);
	log_args[6] = range.buf;
	if (bisect_git(repo, &out, err, log_args) < 0)
		goto out;
	ALLOC_GROW(c, nc + 1, alloc);
	memcpy(c[nc].sha, good_sha, 41);
	c[nc++].subject = NULL;
	memcpy(prev, good_sha, 41);
	/*
	 * Walk bad's first-parent line back to good: each line is
	 * "<sha> <parents...>\t<subject>"; keep only the stretch after good,
	 * checking that every commit's first parent is the one before.
	 */
	for (line = out.buf; line && *line; line = next) {
		char *tab, *sp;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		tab = strchr(line, '\t');
		sp = strchr(line, ' ');
		if (!tab || !sp || sp - line != 40) {
			strbuf_addf(err, "git rev-list gave '%s'", line);
			goto out;
		}
		*tab = '\0';
		if (strncmp(sp + 1, prev, 40)) {
			/* a commit before good on bad's first-parent line */
			if (nc > 1)
				break;
			continue;
		}
		ALLOC_GROW(c, nc + 1, alloc);
		memcpy(c[nc].sha, line, 40);
		c[nc].sha[40] = '\0';
		c[nc].subject = xstrdup(tab + 1);
		memcpy(prev, c[nc].sha, 41);
		nc++;
	}
	if (nc < 2 || strcmp(c[nc - 1].sha, bad_sha)) {
		strbuf_addf(err,
			    "good %.*s is not on the first-parent history of "
			    "bad %.*s",
			    SHORT_SHA_LEN, good_sha, SHORT_SHA_LEN, bad_sha);
		goto out;
	}
	{
		/* the good commit's subject, for the report */
		const char *args[] = {"log", "-1", "--no-show-signature",
				      "--format=%s", "--end-of-options",
				      good_sha, NULL};

		if (bisect_git(repo, &parents, err, args) < 0)
			goto out;
		c[0].subject = strbuf_detach(&parents, NULL);
	}
	*commits = c;
	*n = nc;
	c = NULL;
	ret = 0;
out:
	if (c)
		bisect_git_path_free(c, nc);
	strbuf_release(&range);
	strbuf_release(&out);
	strbuf_release(&parents);
	return ret;
}

int bisect_git_worktree_checkout(const char *repo, const char *dir,
				 const char *sha, struct strbuf *err)
{
	struct strbuf gitfile = STRBUF_INIT;
	int ret;

	/* checkout takes no --end-of-options with --detach: a sha is no option */
	if (trust_arg_why(sha)) {
		strbuf_addf(err, "'%s' is not a commit to check out", sha);
		return -1;
	}
	path_join(&gitfile, dir, ".git");
	if (file_exists(gitfile.buf)) {
		const char *args[] = {"checkout", "--quiet", "--detach",
				      "--force", sha, NULL};

		ret = bisect_git(dir, NULL, err, args);
	} else {
		const char *prune[] = {"worktree", "prune", NULL};
		const char *args[] = {"worktree", "add", "--quiet", "--detach",
				      "--force", "--end-of-options", dir, sha,
				      NULL};

		/* a worktree whose directory vanished blocks the name */
		(void)bisect_git(repo, NULL, err, prune);
		strbuf_reset(err);
		ret = bisect_git(repo, NULL, err, args);
	}
	strbuf_release(&gitfile);
	return ret;
}

int bisect_git_worktree_remove(const char *repo, const char *dir,
			       struct strbuf *err)
{
	const char *args[] = {"worktree", "remove", "--force",
			      "--end-of-options", dir, NULL};

	if (!dir_exists(dir))
		return 0;
	return bisect_git(repo, NULL, err, args);
}
