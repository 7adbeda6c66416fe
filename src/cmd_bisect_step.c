/*
 * cmd_bisect_step.c: `perfsift bisect-step` -- one step of a bisect that
 * git drives (`git bisect run perfsift bisect-step ...`).  Runs the job on
 * the checked-out commit (recording the samples under its sha), compares
 * the median with the good and bad reference values and answers in git's
 * protocol: 0 good, 1 bad, 125 skip; 255 aborts the bisect (git would
 * take 2 or 3 for "bad").
 */
#include "util/compat.h"
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bisect.h"
#include "bisect_exec.h"
#include "bisect_git.h"
#include "builtin.h"
#include "matrix.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/usage.h"
#include "util/xalloc.h"

/* git bisect run: 0 good, 1 bad, 125 skip, >= 128 abort */
#define STEP_GOOD 0
#define STEP_BAD 1
#define STEP_SKIP 125
#define STEP_ABORT 255
/* a median this close to the midpoint (on the 0..1 axis) is unclear */
#define STEP_UNCLEAR_BAND 0.15

static const char step_usage[] =
	"usage: perfsift bisect-step --stat KEY --good-value X --bad-value Y\n"
	"         [-n RUNS] [--max-runs N] JOB.yaml [-- CMD ARGS...]\n"
	"\n"
	"For `git bisect run`: run the job RUNS times (default 1) in the\n"
	"current directory, recording the samples under the checked-out\n"
	"commit, and judge the median of KEY: closer to X is good, closer to\n"
	"Y is bad.  A median within 15% of the midpoint is re-measured up to\n"
	"--max-runs (default 3 x RUNS) and then skipped.\n"
	"\n"
	"exit status (git's protocol): 0 good, 1 bad, 125 skip (the run\n"
	"failed, KEY is missing, or still unclear), 255 abort the bisect\n"
	"(bad usage or a runtime error: not a verdict on the commit)\n";

int cmd_bisect_step(int argc, char **argv, struct options *opts)
{
	static const struct option longopts[] = {
		{"stat", required_argument, NULL, 's'},
		{"good-value", required_argument, NULL, 'g'},
		{"bad-value", required_argument, NULL, 'b'},
		{"runs", required_argument, NULL, 'n'},
		{"max-runs", required_argument, NULL, 'M'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *stat = NULL, *why;
	double goodv = NAN, badv = NAN, pos;
	size_t runs = 1, max_runs = 0, done = 0, base = 0, i;
	bool have_good = false, have_bad = false;
	struct bisect_exec x;
	struct matrix m;
	struct strbuf err = STRBUF_INIT, top = STRBUF_INIT;
	char sha[41];
	char *job = NULL, *root = NULL;
	int c, dashdash = argc, status = STEP_ABORT;
	long long v;
	ssize_t s;

	memset(&x, 0, sizeof(x));
	matrix_init(&m);
	for (i = 1; i < (size_t)argc; i++)
		if (!strcmp(argv[i], "--")) {
			dashdash = (int)i;
			break;
		}
	while ((c = getopt_long(dashdash, argv, "n:h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			stat = optarg;
			break;
		case 'g':
		case 'b':
			if (strnum_double(optarg, c == 'g' ? &goodv : &badv,
					  &why) < 0) {
				error("--%s-value '%s': %s",
				      c == 'g' ? "good" : "bad", optarg, why);
				return STEP_ABORT;
			}
			*(c == 'g' ? &have_good : &have_bad) = true;
			break;
		case 'n':
		case 'M':
			if (strnum_ll(optarg, 1, 1000, &v, &why) < 0) {
				error("%s '%s': %s", c == 'n' ? "-n" : "--max-runs",
				      optarg, why);
				return STEP_ABORT;
			}
			*(c == 'n' ? &runs : &max_runs) = (size_t)v;
			break;
		case 'h':
			return cmd_usage(step_usage, false);
		default:
			cmd_usage(step_usage, true);
			return STEP_ABORT;
		}
	}
	if (!stat || !have_good || !have_bad || optind != dashdash - 1) {
		if (!stat || !have_good || !have_bad)
			error("--stat, --good-value and --bad-value are required");
		else
			error("one job file, then '--' and the command");
		cmd_usage(step_usage, true);
		return STEP_ABORT;
	}
	if (goodv == badv) {
		error("the good and bad values are both %g: nothing to tell "
		      "apart",
		      goodv);
		return STEP_ABORT;
	}
	if (!max_runs)
		max_runs = 3 * runs;
	if (max_runs < runs)
		max_runs = runs;
	job = realpath(argv[optind], NULL);
	if (!job || !file_exists(job)) {
		error("cannot open '%s': %s", argv[optind],
		      job ? "not a file" : strerror(errno));
		goto out;
	}
	if (bisect_git_toplevel(".", &top, &err) < 0 ||
	    bisect_git_resolve(top.buf, "HEAD", sha, &err) < 0) {
		error("not in a git work tree with a commit checked out: %s",
		      err.buf);
		goto out;
	}
	if (mkdir_p(opts->result_root, 0777) < 0 ||
	    !(root = realpath(opts->result_root, NULL))) {
		error_errno("cannot create result root '%s'", opts->result_root);
		goto out;
	}
	x.repo = top.buf;
	x.job = job;
	x.cmd = dashdash < argc - 1 ? (const char *const *)argv + dashdash + 1 :
				      NULL;
	x.result_root = root;
	x.store_url = opts->store_url;
	if (bisect_exec_init(&x, NULL, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	if (bisect_exec_samples(&x, sha, &m, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	base = m.nruns;
	for (;;) {
		size_t want = done ? (done + runs > max_runs ? max_runs : done + runs) :
				     runs;
		struct bisect_summary sum;
		double *vals;
		size_t n, r;

		while (done < want) {
			if (bisect_exec_measure(&x, -1, sha, &err) < 0) {
				error("%s", err.buf);
				goto out;
			}
			done++;
		}
		matrix_release(&m);
		if (bisect_exec_samples(&x, sha, &m, &err) < 0) {
			error("%s", err.buf);
			goto out;
		}
		if (m.nruns <= base) {
			note("%.12s: the job gave no complete run: skip", sha);
			status = STEP_SKIP;
			goto out;
		}
		s = matrix_find(&m, stat);
		if (s < 0) {
			note("%.12s: the results lack '%s': skip", sha, stat);
			status = STEP_SKIP;
			goto out;
		}
		/* this step's runs only: the newest columns */
		n = m.nruns - base;
		vals = xmalloc(st_mult(n, sizeof(double)));
		for (r = 0; r < n; r++)
			vals[r] = matrix_at(&m, (size_t)s, base + r);
		bisect_summarize(vals, n, &sum);
		free(vals);
		pos = (sum.median - goodv) / (badv - goodv);
		if (fabs(pos - 0.5) >= STEP_UNCLEAR_BAND) {
			status = pos < 0.5 ? STEP_GOOD : STEP_BAD;
			note("%.12s: %s median %.6g over %zu runs (good %.6g, "
			     "bad %.6g): %s",
			     sha, stat, sum.median, n, goodv, badv,
			     status == STEP_GOOD ? "good" : "bad");
			goto out;
		}
		if (done >= max_runs) {
			note("%.12s: %s median %.6g over %zu runs is too close "
			     "to the middle of %.6g and %.6g: skip",
			     sha, stat, sum.median, n, goodv, badv);
			status = STEP_SKIP;
			goto out;
		}
	}
out:
	bisect_exec_release(&x);
	matrix_release(&m);
	strbuf_release(&err);
	strbuf_release(&top);
	free(job);
	free(root);
	return status;
}
