/*
 * cmd_bisect.c: `perfsift bisect` -- find the commit that moved a stat.
 * Checks its arguments, lays out the first-parent path with git, sets up
 * perfsift's own worktrees and hands over to the driver (bisect.c) with
 * the real ops (bisect_exec.c).  The result goes to stdout, progress to
 * stderr.  Started again with the same arguments, it resumes.
 */
#include "util/compat.h"
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bisect.h"
#include "bisect_exec.h"
#include "bisect_git.h"
#include "builtin.h"
#include "plot.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/usage.h"
#include "util/xalloc.h"

static const char bisect_usage[] =
	"usage: perfsift bisect --repo DIR --good G --bad B [--build CMD]\n"
	"         [--install CMD] [--stat KEY] [-n RUNS] [--max-runs N]\n"
	"         [--no-confirm] [--worktree DIR] [--dry-run] JOB.yaml\n"
	"         [-- CMD ARGS...]\n"
	"\n"
	"Find the first commit on the first-parent path from G to B whose\n"
	"samples of KEY match B's rather than G's.  Each tested commit is\n"
	"checked out in a worktree of perfsift's own (the checkout in DIR is\n"
	"never touched), built with CMD (exit 125: skip the commit, as with\n"
	"git bisect run; any other failure skips it too), installed, and the\n"
	"job is run RUNS times (default 3) with the worktree as its working\n"
	"directory; every sample goes into the result root under its commit.\n"
	"An unclear commit is run again, up to --max-runs (default 3 x RUNS),\n"
	"then skipped.  Without --stat, the stat that changed most between G\n"
	"and B is used.  The culprit is confirmed by re-running its parent\n"
	"and itself interleaved (ABAB).  Interrupted (SIGINT), it stops after\n"
	"the run in progress; started again with the same arguments it goes\n"
	"on from what the result root holds, running no commit twice.\n"
	"\n"
	"  --repo DIR        the git repository (any directory inside it)\n"
	"  --good G          a commit that shows the old behaviour\n"
	"  --bad B           a later commit that shows the new behaviour\n"
	"  --build CMD       sh command run in the worktree for each commit\n"
	"  --install CMD     sh command run after the build (e.g. install a\n"
	"                    kernel and kexec into it; docs/kernel-bisect.md)\n"
	"  --stat KEY        the stat to bisect on (default: chosen)\n"
	"  -n, --runs RUNS   runs per commit (default 3)\n"
	"  --max-runs N      runs at most for an unclear commit\n"
	"  --no-confirm      leave out the parent-vs-culprit confirmation\n"
	"  --worktree DIR    where perfsift's worktrees go (default: a\n"
	"                    directory under $TMPDIR named after the bisect)\n"
	"  --dry-run         print the first-parent path and stop\n"
	"\n"
	"exit status: 0 culprit found and confirmed; 1 no single confirmed\n"
	"culprit (not reproducible, or skipped commits leave a range); 2 bad\n"
	"usage, or good and bad do not differ; 3 runtime error; 130\n"
	"interrupted (run the same command again to resume)\n";

/* FNV-1a: a stable short name for this bisect's worktrees */
static uint64_t fnv1a(uint64_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h ^ 0xff;
}

static char *absolute(const char *path)
{
	char *r = realpath(path, NULL);

	return r ? r : NULL;
}

/* the e-mail's chart: every bisect-good sample ('*') vs bisect-bad ('O') */
static void add_chart(const struct bisect_state *st, struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT;
	double *good, *bad;
	size_t ng, nb;
	struct plot p;

	bisect_collect(st, BISECT_GOOD, &good, &ng);
	bisect_collect(st, BISECT_BAD, &bad, &nb);
	plot_init_bisect(&p, st->stat, good, ng, bad, nb);
	strbuf_addch(out, '\n');
	if (plot_ascii(&p, out, &err) < 0)
		warning("no chart: %s", err.buf);
	else
		plot_ascii_legend(out);
	free(good);
	free(bad);
	strbuf_release(&err);
}

int cmd_bisect(int argc, char **argv, struct options *opts)
{
	static const struct option longopts[] = {
		{"repo", required_argument, NULL, 'r'},
		{"good", required_argument, NULL, 'g'},
		{"bad", required_argument, NULL, 'b'},
		{"build", required_argument, NULL, 'B'},
		{"install", required_argument, NULL, 'I'},
		{"stat", required_argument, NULL, 's'},
		{"runs", required_argument, NULL, 'n'},
		{"max-runs", required_argument, NULL, 'M'},
		{"no-confirm", no_argument, NULL, 'C'},
		{"worktree", required_argument, NULL, 'w'},
		{"dry-run", no_argument, NULL, 'D'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *repo_arg = NULL, *good = NULL, *bad = NULL, *wt_arg = NULL;
	struct bisect_options bo = {3, 0, NULL, false};
	struct bisect_exec x;
	struct bisect_ops ops;
	struct bisect_state st;
	struct bisect_git_commit *path = NULL;
	struct strbuf err = STRBUF_INIT, top = STRBUF_INIT, out = STRBUF_INIT,
		      wt_base = STRBUF_INIT;
	char good_sha[41], bad_sha[41];
	char *job = NULL, *root = NULL;
	const char *const *cmd = NULL;
	enum bisect_outcome outcome;
	size_t npath = 0, i;
	int c, dashdash = argc, status = EXIT_RUNTIME;
	bool dry_run = false;
	long long v;
	const char *why;

	memset(&x, 0, sizeof(x));
	bisect_state_init(&st);
	/* what follows `--` is the benchmark command, never our options */
	for (i = 1; i < (size_t)argc; i++)
		if (!strcmp(argv[i], "--")) {
			dashdash = (int)i;
			break;
		}
	while ((c = getopt_long(dashdash, argv, "n:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			repo_arg = optarg;
			break;
		case 'g':
			good = optarg;
			break;
		case 'b':
			bad = optarg;
			break;
		case 'B':
			x.build = optarg;
			break;
		case 'I':
			x.install = optarg;
			break;
		case 's':
			bo.stat = optarg;
			break;
		case 'n':
			if (strnum_ll(optarg, 1, 1000, &v, &why) < 0) {
				error("-n '%s': %s", optarg, why);
				return EXIT_USAGE;
			}
			bo.runs = (size_t)v;
			break;
		case 'M':
			if (strnum_ll(optarg, 1, 10000, &v, &why) < 0) {
				error("--max-runs '%s': %s", optarg, why);
				return EXIT_USAGE;
			}
			bo.max_runs = (size_t)v;
			break;
		case 'C':
			bo.no_confirm = true;
			break;
		case 'w':
			wt_arg = optarg;
			break;
		case 'D':
			dry_run = true;
			break;
		case 'h':
			return cmd_usage(bisect_usage, false);
		default:
			return cmd_usage(bisect_usage, true);
		}
	}
	if (optind != dashdash - 1 || !repo_arg || !good || !bad) {
		if (!repo_arg || !good || !bad)
			error("--repo, --good and --bad are required");
		else if (optind >= dashdash)
			error("no job file given");
		else
			error("one job file only; the command goes after '--'");
		return cmd_usage(bisect_usage, true);
	}
	if (dashdash < argc - 1)
		cmd = (const char *const *)argv + dashdash + 1;
	else if (dashdash == argc - 1) {
		error("'--' must be followed by a command");
		return EXIT_USAGE;
	}
	if (!bo.max_runs)
		bo.max_runs = 3 * bo.runs;
	if (bo.max_runs < bo.runs) {
		error("--max-runs %zu is below -n %zu", bo.max_runs, bo.runs);
		return EXIT_USAGE;
	}

	status = EXIT_USAGE;
	job = absolute(argv[optind]);
	if (!job || !file_exists(job)) {
		error("cannot open '%s': %s", argv[optind],
		      job ? "not a file" : strerror(errno));
		goto out;
	}
	if (!dir_exists(repo_arg)) {
		error("cannot open repository '%s': not a directory", repo_arg);
		goto out;
	}
	if (bisect_git_toplevel(repo_arg, &top, &err) < 0) {
		error("'%s' is not a git work tree: %s", repo_arg, err.buf);
		goto out;
	}
	if (bisect_git_resolve(top.buf, good, good_sha, &err) < 0 ||
	    bisect_git_resolve(top.buf, bad, bad_sha, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	if (!strcmp(good_sha, bad_sha)) {
		error("good and bad are the same commit %.12s", good_sha);
		goto out;
	}
	if (bisect_git_path(top.buf, good_sha, bad_sha, &path, &npath,
			    &err) < 0) {
		error("%s", err.buf);
		goto out;
	}

	if (dry_run) {
		printf("%zu commits between good and bad (first parents):\n",
		       npath - 2);
		for (i = 0; i < npath; i++)
			printf("%s %s%s\n", path[i].sha,
			       !i ? "(good) " : i + 1 == npath ? "(bad) " : "",
			       path[i].subject);
		status = EXIT_OK;
		goto out;
	}
	status = EXIT_RUNTIME;
	if (mkdir_p(opts->result_root, 0777) < 0 ||
	    !(root = absolute(opts->result_root))) {
		error_errno("cannot create result root '%s'", opts->result_root);
		goto out;
	}
	if (wt_arg) {
		strbuf_addstr(&wt_base, wt_arg);
	} else {
		const char *tmp = getenv("TMPDIR");
		uint64_t h = 0xcbf29ce484222325ULL;

		h = fnv1a(h, top.buf);
		h = fnv1a(h, good_sha);
		h = fnv1a(h, bad_sha);
		h = fnv1a(h, root);
		strbuf_addf(&wt_base, "%s/perfsift-bisect-%u/%016" PRIx64,
			    tmp && *tmp ? tmp : "/tmp", (unsigned)getuid(), h);
	}
	if (mkdir_p(wt_base.buf, 0700) < 0) {
		error_errno("cannot create '%s'", wt_base.buf);
		goto out;
	}
	x.repo = top.buf;
	x.job = job;
	x.cmd = cmd;
	x.result_root = root;
	x.store_url = opts->store_url;
	if (bisect_exec_init(&x, wt_base.buf, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	bisect_exec_ops(&x, &ops);
	for (i = 0; i < npath; i++)
		bisect_state_add_commit(&st, path[i].sha, path[i].subject);
	note("%zu commits from good %.12s to bad %.12s, about %zu steps",
	     npath - 2, good_sha, bad_sha,
	     npath > 2 ? (size_t)(64 - __builtin_clzll(npath - 2)) : 0);

	bisect_exec_catch_signals();
	outcome = bisect_run(&st, &bo, &ops, &err);
	switch (outcome) {
	case BISECT_FOUND:
	case BISECT_RANGE:
		bisect_format_result(&st, outcome, &out);
		add_chart(&st, &out);
		if (outcome == BISECT_FOUND)
			strbuf_addf(&out,
				    "\nthe full report: perfsift --result-root %s "
				    "report --repo %s %s %s\n",
				    root, top.buf,
				    st.commits[st.first_bad - 1].sha,
				    st.commits[st.first_bad].sha);
		fputs(out.buf, stdout);
		status = outcome == BISECT_FOUND &&
					 st.confirm != BISECT_NOT_REPRODUCIBLE ?
				 EXIT_OK :
				 EXIT_REGRESSION;
		bisect_exec_cleanup(&x);
		break;
	case BISECT_NO_CHANGE:
		error("%s", err.buf);
		status = EXIT_USAGE;
		bisect_exec_cleanup(&x);
		break;
	case BISECT_INTERRUPTED:
		note("interrupted; run the same command again to go on "
		     "(%zu commits tested so far)",
		     st.tested);
		status = 130;
		break;
	case BISECT_ERROR:
		error("%s", err.buf);
		status = EXIT_RUNTIME;
		break;
	}
out:
	bisect_exec_release(&x);
	bisect_state_release(&st);
	bisect_git_path_free(path, npath);
	strbuf_release(&err);
	strbuf_release(&top);
	strbuf_release(&out);
	strbuf_release(&wt_base);
	free(job);
	free(root);
	return status;
}
