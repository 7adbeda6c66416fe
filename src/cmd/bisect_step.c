/*
 * bisect_step.c: `perfsift bisect-step` -- one step of a bisect that
 * git drives (`git bisect run perfsift bisect-step ...`).  Runs the job on
 * the checked-out commit (recording the samples under its sha), compares
 * the median with the good and bad reference values and answers in git's
 * protocol: 0 good, 1 bad, 125 skip; 255 aborts the bisect (git would
 * take 2 or 3 for "bad").
 */
#include "util/compat.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bisect/bisect.h"
#include "bisect/exec.h"
#include "bisect/git.h"
#include "builtin.h"
#include "cmd/bisect.h"
#include "result/matrix.h"
#include "util/fileutil.h"
#include "util/short_sha.h"
#include "util/strbuf.h"
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
	struct bisect_args a;
	double pos;
	size_t done = 0, base = 0;
	struct bisect_exec x;
	struct matrix m;
	struct strbuf err = STRBUF_INIT, top = STRBUF_INIT;
	char sha[41];
	char *job = NULL, *root = NULL;
	int status;
	ssize_t s;

	memset(&a, 0, sizeof(a));
	a.step = true;
	a.usage = step_usage;
	if (bisect_parse_args(&a, argc, argv, &status) < 0)
		return status;
	status = STEP_ABORT;
	memset(&x, 0, sizeof(x));
	matrix_init(&m);
	job = realpath(a.job, NULL);
	if (!job || !file_exists(job)) {
		error("cannot open '%s': %s", a.job,
		      job ? "not a file" : strerror(errno));
		goto out;
	}
	if (bisect_git_toplevel(".", &top, &err) < 0 ||
	    bisect_git_resolve(top.buf, "HEAD", sha, &err) < 0) {
		error("not in a git work tree with a commit checked out: %s",
		      err.buf);
		goto out;
	}
	if (bisect_open_root(opts, &root) < 0 ||
	    bisect_exec_start(&x, &a, top.buf, job, root, opts, NULL) < 0)
		goto out;
	if (bisect_exec_samples(&x, sha, &m, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	base = m.nruns;
	for (;;) {
		size_t want = done ? (done + a.runs > a.max_runs ? a.max_runs :
								 done + a.runs) :
			      a.runs;
		struct lkp_summary sum;
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
			note("%.*s: the job gave no complete run: skip",
			     SHORT_SHA_LEN, sha);
			status = STEP_SKIP;
			goto out;
		}
		s = matrix_find(&m, a.stat);
		if (s < 0) {
			note("%.*s: the results lack '%s': skip", SHORT_SHA_LEN,
			     sha, a.stat);
			status = STEP_SKIP;
			goto out;
		}
		/* this step's runs only: the newest columns */
		vals = xmalloc(st_mult(m.nruns - base, sizeof(double)));
		for (r = n = 0; r < m.nruns - base; r++)
			if (matrix_has(&m, (size_t)s, base + r))
				vals[n++] = matrix_at(&m, (size_t)s, base + r);
		if (!n) {
			free(vals);
			note("%.*s: this step's runs lack '%s': skip",
			     SHORT_SHA_LEN, sha, a.stat);
			status = STEP_SKIP;
			goto out;
		}
		bisect_summarize(vals, n, &sum);
		free(vals);
		pos = (sum.median - a.good_value) / (a.bad_value - a.good_value);
		if (fabs(pos - 0.5) >= STEP_UNCLEAR_BAND) {
			status = pos < 0.5 ? STEP_GOOD : STEP_BAD;
			note("%.*s: %s median %.6g over %zu runs (good %.6g, "
			     "bad %.6g): %s",
			     SHORT_SHA_LEN, sha, a.stat, sum.median, n,
			     a.good_value, a.bad_value,
			     status == STEP_GOOD ? "good" : "bad");
			goto out;
		}
		if (done >= a.max_runs) {
			note("%.*s: %s median %.6g over %zu runs is too close "
			     "to the middle of %.6g and %.6g: skip",
			     SHORT_SHA_LEN, sha, a.stat, sum.median, n,
			     a.good_value, a.bad_value);
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
