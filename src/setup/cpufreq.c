/*
 * cpufreq.c: the cpufreq_governor setup program (`cpufreq_governor:
 * performance`): writes the governor of every CPU that has a cpufreq
 * policy.  Virtual machines often have no cpufreq driver at all; then the
 * setting cannot apply: that is written to the run's log every time and
 * said once on stderr, and the run goes on (the governor is part of the
 * job's parameters, so results stay comparable with LKP's).
 */
#include "util/compat.h"
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include "job/job.h"
#include "setup/setup.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/xalloc.h"

/* the "said once" of a notice that would otherwise repeat for every run */
static bool cpufreq_noted;

static int cpu_dir_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	long nx = strtol(x + 3, NULL, 10), ny = strtol(y + 3, NULL, 10);

	return (nx > ny) - (nx < ny);
}

int setup_cpufreq(const struct jnode *value, const char *sysroot,
		  struct strbuf *log, struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT, full = STRBUF_INIT;
	char **cpus = NULL;
	size_t ncpu = 0, applied = 0, i;
	struct dirent *de;
	DIR *d;
	int ret = 0;

	if (!value || value->type == JNODE_NULL)
		return 0;
	if (value->type != JNODE_SCALAR) {
		strbuf_addf(err, "%s:%d: cpufreq_governor: expected one governor name",
			    value->file ? value->file : "<job>", value->line);
		return -1;
	}
	path_join(&dir, sysroot, "/sys/devices/system/cpu");
	d = opendir(dir.buf);
	while (d && (de = readdir(d))) {
		const char *n = de->d_name;

		if (strncmp(n, "cpu", 3) || !n[3] || strspn(n + 3, "0123456789") != strlen(n + 3))
			continue;
		cpus = xreallocarray(cpus, ncpu + 1, sizeof(*cpus));
		cpus[ncpu++] = xstrdup(n);
	}
	if (d)
		closedir(d);
	if (ncpu)
		qsort(cpus, ncpu, sizeof(*cpus), cpu_dir_cmp);
	for (i = 0; i < ncpu && !ret; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "/sys/devices/system/cpu/%s/cpufreq/scaling_governor",
			    cpus[i]);
		path_join(&full, sysroot, path.buf);
		if (!file_exists(full.buf))
			continue;
		ret = setup_knob("cpufreq_governor", cpus[i], path.buf,
				 value->text, log, err);
		applied++;
	}
	if (!ret && !applied) {
		strbuf_addf(log, "cpufreq_governor: not applied: no cpufreq driver on this machine ('%s' requested)\n",
			    value->text);
		if (!cpufreq_noted)
			note("cpufreq_governor '%s' not applied: no cpufreq driver on this machine",
			     value->text);
		cpufreq_noted = true;
	}
	for (i = 0; i < ncpu; i++)
		free(cpus[i]);
	free(cpus);
	strbuf_release(&dir);
	strbuf_release(&path);
	strbuf_release(&full);
	return ret;
}
