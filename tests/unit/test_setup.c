/*
 * test_setup.c: the setup programs on a fake /sys and /proc tree --
 * each knob set, logged and put back by the knob journal; cpufreq
 * without a driver logged, not fatal; bad options named by line.
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "job/job.h"
#include "setup/knob.h"
#include "setup/setup.h"
#include "util/fileutil.h"
#include "util/strbuf.h"

static void put(const char *root, const char *path, const char *text)
{
	struct strbuf p = STRBUF_INIT, d = STRBUF_INIT;

	path_join(&p, root, path);
	path_dirname(&d, p.buf);
	assert_int_equal(mkdir_p(d.buf, 0700), 0);
	assert_int_equal(write_file_atomic(p.buf, text, strlen(text)), 0);
	strbuf_release(&p);
	strbuf_release(&d);
}

static int unlink_path_for_test(const char *root, const char *path)
{
	struct strbuf p = STRBUF_INIT;
	int ret;

	path_join(&p, root, path);
	ret = unlink(p.buf);
	strbuf_release(&p);
	return ret;
}

static char *get(const char *root, const char *path)
{
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT;

	path_join(&p, root, path);
	assert_int_equal(strbuf_read_file(&v, p.buf, 0), 0);
	strbuf_release(&p);
	return strbuf_detach(&v, NULL);
}

static void expect(const char *root, const char *path, const char *want)
{
	char *v = get(root, path);

	assert_string_equal(v, want);
	free(v);
}

static struct job *load(const char *yaml)
{
	struct strbuf err = STRBUF_INIT;
	struct job **jobs = NULL, *j;
	size_t n = 0;

	assert_int_equal(job_load_string(yaml, "s.yaml", &jobs, &n, &err), 0);
	assert_int_equal(n, 1);
	j = jobs[0];
	free(jobs);
	strbuf_release(&err);
	return j;
}

static void test_setup_apply(void **state)
{
	char dir[] = "/tmp/test_setup.XXXXXX";
	struct strbuf log = STRBUF_INIT, err = STRBUF_INIT;
	struct job *job;

	(void)state;
	assert_non_null(mkdtemp(dir));
	put(dir, "sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
	put(dir, "sys/kernel/mm/transparent_hugepage/use_zero_page", "1\n");
	put(dir, "sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled",
	    "always inherit madvise [never]\n");
	put(dir, "proc/sys/vm/overcommit_memory", "0\n");
	put(dir, "proc/sys/debug/exception-trace", "1\n");
	put(dir, "proc/sys/vm/drop_caches", "");
	put(dir, "sys/devices/system/cpu/cpu0/online", "1\n");
	setenv("PERFSIFT_KNOB_DIR", dir, 1); /* never the machine's journal */
	setenv("PERFSIFT_SYSROOT", dir, 1);  /* where the job's sysctls are checked */
	knob_init(dir);

	job = load("transparent_hugepage:\n  thp_enabled: always\n  use_zero_page: 0\n"
		   "  enabled_64kB: always\n"
		   "sysctl:\n  sc_overcommit_memory: 1\n  sc_exception_trace: 0\n"
		   "cpufreq_governor: performance\n"
		   "drop_caches:\n");
	assert_int_equal(setup_apply_at(job, dir, &log, &err), 0);
	assert_string_equal(err.buf, "");
	assert_string_equal(log.buf,
		"transparent_hugepage: enabled madvise -> always\n"
		"transparent_hugepage: use_zero_page 1 -> 0\n"
		"transparent_hugepage: hugepages-64kB/enabled never -> always\n"
		"sysctl: vm/overcommit_memory 0 -> 1\n"
		"sysctl: debug/exception-trace 1 -> 0\n"
		"cpufreq_governor: not applied: no cpufreq driver on this machine ('performance' requested)\n"
		"drop_caches: 3\n");
	expect(dir, "sys/kernel/mm/transparent_hugepage/use_zero_page", "0\n");
	expect(dir, "proc/sys/vm/overcommit_memory", "1\n");
	expect(dir, "proc/sys/vm/drop_caches", "3");
	/* the journal puts every knob back */
	assert_true(knob_restore_all() >= 0);
	expect(dir, "proc/sys/vm/overcommit_memory", "0\n");
	expect(dir, "sys/kernel/mm/transparent_hugepage/use_zero_page", "1\n");
	expect(dir, "proc/sys/debug/exception-trace", "1\n");
	job_free(job);

	/* a cpufreq policy present: the governor is set and restored */
	put(dir, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n");
	strbuf_reset(&log);
	job = load("cpufreq_governor: performance\n");
	assert_int_equal(setup_apply_at(job, dir, &log, &err), 0);
	assert_string_equal(log.buf, "cpufreq_governor: cpu0 powersave -> performance\n");
	knob_restore_all();
	expect(dir, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n");
	job_free(job);

	/* bad options: one clear error with file and line */
	job = load("transparent_hugepage:\n  thp_enabled: always\n  thp_nope: 1\n");
	assert_int_equal(setup_apply_at(job, dir, &log, &err), -1);
	assert_string_equal(err.buf, "s.yaml:3: transparent_hugepage: unknown option 'thp_nope'");
	knob_restore_all();
	job_free(job);
	strbuf_reset(&err);
	/* a sysctl this machine lacks: an error of the job file, at load */
	{
		struct job **jobs = NULL;
		struct strbuf want = STRBUF_INIT;
		size_t n = 0;

		assert_int_equal(job_load_string("sysctl:\n  sc_no_such_knob: 1\n",
						 "s.yaml", &jobs, &n, &err),
				 -1);
		strbuf_addf(&want, "s.yaml:2: sysctl.sc_no_such_knob: no such sysctl under %s/proc/sys",
			    dir);
		assert_string_equal(err.buf, want.buf);
		strbuf_release(&want);
	}
	/* and one gone since (another machine's job): at apply */
	put(dir, "proc/sys/vm/gone_knob", "0\n");
	job = load("sysctl:\n  sc_gone_knob: 1\n");
	assert_int_equal(unlink_path_for_test(dir, "proc/sys/vm/gone_knob"), 0);
	strbuf_reset(&err);
	assert_int_equal(setup_apply_at(job, dir, &log, &err), -1);
	assert_string_equal(err.buf, "s.yaml:2: sysctl: sc_gone_knob: no such sysctl under /proc/sys");
	job_free(job);
	/* put back as the selected word, which is what the kernel takes */
	expect(dir, "sys/kernel/mm/transparent_hugepage/enabled", "madvise\n");

	remove_tree(dir);
	strbuf_release(&log);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_setup_apply),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
