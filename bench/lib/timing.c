/*
 * bench/lib/timing.c: running and timing a child, the order statistics
 * of repeated runs and the load average beside them (see timing.h).
 */
#include "util/compat.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "util/timeutil.h"
#include "lib/timing.h"

int bench_run_child(char *const argv[], struct bench_run *r)
{
	double t0 = time_mono_s();
	struct rusage ru;
	int status;
	pid_t pid;

	/* what the parent printed must not be printed again by the child */
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0)
		return -1;
	r->wall = time_mono_s() - t0;
	r->rss_mb = (double)ru.ru_maxrss / 1024.0;
	r->cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		 (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	return WIFEXITED(status) && WEXITSTATUS(status) <= 1 ? 0 : -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void bench_sort(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
}

void bench_print_load(const char *when)
{
	char buf[128] = "";
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	printf("load average %s: %s\n", when, buf);
	/* before a child's output or a long measurement: in order, at once */
	fflush(stdout);
}
