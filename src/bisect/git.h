/*
 * git.h: what bisect needs from git, always through the `git`
 * program as a child process (no libgit): resolving revisions, the
 * first-parent path from good to bad with subjects, and worktrees of
 * perfsift's own so that the user's checkout is never touched.  The
 * build, install and run commands go through util/spawn.h directly.
 */
#ifndef PERFSIFT_BISECT_GIT_H
#define PERFSIFT_BISECT_GIT_H

#include "util/compat.h"

struct strbuf;

/* `git -C repo ARGS...` capturing stdout (trimmed); 0 or -1 with err */
int bisect_git(const char *repo, struct strbuf *out, struct strbuf *err,
	       const char *const *args);

/* the full sha of rev (a commit) in repo, into sha (41 bytes); 0 / -1 */
int bisect_git_resolve(const char *repo, const char *rev, char *sha,
		       struct strbuf *err);

/* the toplevel of the work tree holding dir; 0 / -1 */
int bisect_git_toplevel(const char *dir, struct strbuf *out,
			struct strbuf *err);

struct bisect_git_commit {
	char sha[41];
	char *subject;
};

/*
 * The first-parent path from good to bad: good first, then every commit
 * up to and including bad, each the first parent of the next.  -1 with
 * err when good is not an ancestor of bad on its first-parent line.
 * *commits is a new array; free with bisect_git_path_free().
 */
int bisect_git_path(const char *repo, const char *good_sha,
		    const char *bad_sha, struct bisect_git_commit **commits,
		    size_t *n, struct strbuf *err);
void bisect_git_path_free(struct bisect_git_commit *commits, size_t n);

/*
 * Make dir a detached worktree of repo at sha: added when missing, else
 * (left from an interrupted bisect) checked out at sha, forcibly, keeping
 * untracked build products so incremental builds stay incremental.
 */
int bisect_git_worktree_checkout(const char *repo, const char *dir,
				 const char *sha, struct strbuf *err);
/* remove a worktree made by bisect_git_worktree_checkout(); 0 / -1 */
int bisect_git_worktree_remove(const char *repo, const char *dir,
			       struct strbuf *err);

#endif
