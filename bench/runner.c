/*
 * bench/runner.c: what the runner costs a benchmark.  Times N starts of
 * /bin/true through runner_run() (own process group, output files,
 * wait4() rusage, the signal-driven wait loop) against a bare
 * fork/execv/waitpid, alternating the two so that machine noise hits both;
 * prints the median and quartiles of each and the difference, which is
 * the fixed cost perfsift adds to every measured run.
 *
 *   build/bench/runner [N]      (default 200)
 */
#include "util/compat.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "run/runner.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "lib/timing.h"

static void report(const char *what, double *v, int n)
{
	bench_sort(v, (size_t)n);
	printf("%-28s median %8.1f us   q1 %8.1f us   q3 %8.1f us\n", what,
	       v[n / 2] * 1e6, v[n / 4] * 1e6, v[3 * n / 4] * 1e6);
}

int main(int argc, char **argv)
{
	char *targv[] = {(char *)"/bin/true", NULL};
	int n = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 200; /* a bench tool, not input */
	double *plain, *run, med_plain, med_run;
	struct runner_cmd cmd = {0};
	struct runner_result res;
	struct strbuf err = STRBUF_INIT;
	int i;

	if (n < 4)
		n = 4;
	plain = calloc((size_t)n, sizeof(double));
	run = calloc((size_t)n, sizeof(double));
	if (!plain || !run)
		return 1;
	runner_block_signals();
	cmd.argv = targv;
	cmd.stdout_path = "/dev/null";
	cmd.stderr_path = "/dev/null";
	for (i = 0; i < n; i++) {
		double t0 = time_mono_s();
		pid_t pid = fork();
		int st;

		if (pid == 0) {
			execv(targv[0], targv);
			_exit(127);
		}
		waitpid(pid, &st, 0);
		plain[i] = time_mono_s() - t0;

		t0 = time_mono_s();
		if (runner_run(&cmd, &res, &err) < 0) {
			fprintf(stderr, "%s\n", err.buf);
			return 1;
		}
		run[i] = time_mono_s() - t0;
	}
	printf("%d starts of /bin/true each, alternating\n", n);
	report("fork/execv/waitpid", plain, n);
	report("runner_run()", run, n);
	med_plain = plain[n / 2];
	med_run = run[n / 2];
	printf("runner overhead per run: %.1f us (median difference)\n",
	       (med_run - med_plain) * 1e6);
	free(plain);
	free(run);
	strbuf_release(&err);
	return 0;
}
