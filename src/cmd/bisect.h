/*
 * bisect.h: the command line of `perfsift bisect` and `perfsift
 * bisect-step`, parsed once for both (cmd/bisect.c): the options they
 * share (--stat, -n, --max-runs, the job file, `-- CMD ARGS`) and each
 * one's own.  Only the two commands use it.
 */
#ifndef PERFSIFT_CMD_BISECT_H
#define PERFSIFT_CMD_BISECT_H

#include "util/compat.h"

struct bisect_args {
	bool step;          /* in: bisect-step's options and exit statuses */
	const char *usage;  /* in: the command's usage text */
	/* both */
	const char *stat;
	size_t runs, max_runs; /* max_runs defaults to 3 x runs */
	const char *job;       /* the job file as given */
	const char *const *cmd; /* `-- CMD ARGS`, NULL-terminated, or NULL */
	/* bisect */
	const char *repo, *good, *bad, *build, *install, *worktree;
	const char *kernel;    /* --kernel: the image's path in the worktree */
	bool no_confirm, dry_run, keep_worktree;
	bool no_until_decided; /* LKP's classifier instead (bisect.h) */
	/* bisect-step */
	double good_value, bad_value;
};

/*
 * Parse argv (argv[0] the command) into a, whose step and usage are set.
 * 0 when the command goes on; else -1 and *status is what it returns:
 * 0 after --help, else the usage error status (2 for bisect, 255 for
 * bisect-step, which must not look like a verdict to git).
 */
int bisect_parse_args(struct bisect_args *a, int argc, char **argv,
		      int *status);

struct bisect_exec;
struct options;

/* the result root, created, as an absolute path (*root, caller frees) */
int bisect_open_root(const struct options *opts, char **root);
/*
 * x set up from a for repository top, job (absolute) and root, with its
 * worktrees under wt_base (NULL: bisect-step, the current directory).
 * 0, or -1 after the error message.
 */
int bisect_exec_start(struct bisect_exec *x, const struct bisect_args *a,
		      const char *top, const char *job, const char *root,
		      const struct options *opts, const char *wt_base);

#endif
