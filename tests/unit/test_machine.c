/*
 * test_machine.c: machine facts from a fake sysroot, and how they fill a
 * job the way LKP's local run does (kconfig and commit rules).
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
#include "run/machine.h"
#include "util/fileutil.h"
#include "util/strbuf.h"

static void put(const char *root, const char *path, const char *text)
{
	struct strbuf p = STRBUF_INIT, d = STRBUF_INIT;

	path_join(&p, root, path);
	path_dirname(&d, p.buf);
	assert_int_equal(mkdir_p(d.buf, 0755), 0);
	assert_int_equal(write_file_atomic(p.buf, text, strlen(text)), 0);
	strbuf_release(&p);
	strbuf_release(&d);
}

static void test_tbox_group(void **state)
{
	char *g;

	(void)state;
	g = machine_tbox_group("lkp-tbox-2");
	assert_string_equal(g, "lkp-tbox");
	free(g);
	g = machine_tbox_group("vm");
	assert_string_equal(g, "vm");
	free(g);
	g = machine_tbox_group("host-x1");
	assert_string_equal(g, "host-x1");
	free(g);
	g = machine_tbox_group("box-");
	assert_string_equal(g, "box-");
	free(g);
}

static void test_probe_fake_sysroot(void **state)
{
	char dir[] = "/tmp/test_machine.XXXXXX";
	struct strbuf link = STRBUF_INIT;
	struct machine m;

	(void)state;
	assert_non_null(mkdtemp(dir));
	put(dir, "/etc/os-release", "NAME=\"Debian GNU/Linux\"\nID=debian\nVERSION_ID=\"12\"\n");
	put(dir, "/proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\n");
	put(dir, "/proc/meminfo", "MemTotal:       24683620 kB\nMemFree:  1 kB\n");
	put(dir, "/proc/cmdline", "console=ttyS0 quiet\n");
	put(dir, "/proc/config.gz", "x");
	put(dir, "/sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
	put(dir, "/usr/bin/gcc-12", "");
	path_join(&link, dir, "/usr/bin/gcc");
	assert_int_equal(symlink("gcc-12", link.buf), 0);

	machine_probe(&m, dir);
	assert_string_equal(m.rootfs, "debian");
	assert_string_equal(m.compiler, "gcc-12");
	assert_string_equal(m.cpu_model, "AMD EPYC 7B13");
	assert_int_equal(m.mem_total, 24683620ull * 1024);
	assert_string_equal(m.memory, "24G");
	assert_string_equal(m.cmdline, "console=ttyS0 quiet");
	assert_string_equal(m.thp_enabled, "madvise");
	assert_string_equal(m.thp_defrag, "unavailable");
	assert_string_equal(m.governor, "none");
	/* FNV-1a 64 of "x" */
	assert_string_equal(m.kconfig_hash, "fnv1a64:af63f54c86021707 (config.gz)");
	assert_true(m.nr_cpu >= 1);
	machine_release(&m);

	/* an empty tree: nothing fails, everything says unknown */
	remove_tree(dir);
	snprintf(dir, sizeof(dir), "/tmp/test_machine.XXXXXX");
	assert_non_null(mkdtemp(dir));
	machine_probe(&m, dir);
	assert_string_equal(m.rootfs, "unknown");
	assert_string_equal(m.compiler, "unknown");
	assert_string_equal(m.kconfig_hash, "unavailable");
	assert_string_equal(m.zero_page, "unknown"); /* a fake tree: not probed */
	machine_release(&m);
	remove_tree(dir);
	strbuf_release(&link);
}

/*
 * The live zero-page probe: a kernel forbids the zero page only when told
 * to (PVM's pvm_no_zero_page=1 on the command line); elsewhere a read
 * fault maps it and the probe must say so.
 */
static void test_zero_page_probe(void **state)
{
	struct machine m;
	bool forbidden;

	(void)state;
	machine_probe(&m, "/");
	forbidden = strstr(m.cmdline, "pvm_no_zero_page=1") != NULL;
	assert_string_equal(m.zero_page, forbidden ? "no" : "yes");
	machine_release(&m);
}

static void test_fill_job(void **state)
{
	struct job **jobs = NULL;
	size_t n = 0;
	struct strbuf err = STRBUF_INIT;
	struct machine m = {0};

	(void)state;
	m.testbox = (char *)"lkp-box-3";
	m.arch = (char *)"x86_64";
	m.kernel_release = (char *)"6.1.0-test";
	m.rootfs = (char *)"debian";
	m.compiler = (char *)"gcc-12";
	m.nr_cpu = 2;
	m.memory = (char *)"24G";
	m.cpu_model = (char *)"AMD EPYC";
	m.cmdline = (char *)"quiet";
	m.thp_enabled = (char *)"madvise";
	m.thp_defrag = (char *)"madvise";
	m.governor = (char *)"none";
	m.kconfig_hash = (char *)"unavailable";

	assert_int_equal(job_load_string("testcase: t\nmytest:\n  cmdline: true\n",
					 "t.yaml", &jobs, &n, &err), 0);
	assert_int_equal(n, 1);
	machine_fill_job(&m, jobs[0], NULL);
	assert_string_equal(job_get(jobs[0], "testbox"), "lkp-box-3");
	assert_string_equal(job_get(jobs[0], "tbox_group"), "lkp-box");
	assert_string_equal(job_get(jobs[0], "kconfig"), "defconfig");
	assert_string_equal(job_get(jobs[0], "commit"), "6.1.0-test");
	assert_string_equal(job_get(jobs[0], "rootfs"), "debian");
	assert_string_equal(job_get(jobs[0], "compiler"), "gcc-12");
	assert_string_equal(job_get(jobs[0], "nr_cpu"), "2");
	assert_string_equal(job_get(jobs[0], "memory"), "24G");
	assert_string_equal(job_get(jobs[0], "model"), "AMD EPYC");
	assert_string_equal(job_get(jobs[0], "env_thp_enabled"), "madvise");
	job_free_all(jobs, n);

	/* the job's kconfig and commit win; --commit wins over both */
	assert_int_equal(job_load_string("testcase: t\nkconfig: x86_64-rhel\ncommit: abc\n"
					 "mytest:\n  cmdline: true\n",
					 "t.yaml", &jobs, &n, &err), 0);
	machine_fill_job(&m, jobs[0], NULL);
	assert_string_equal(job_get(jobs[0], "kconfig"), "x86_64-rhel");
	assert_string_equal(job_get(jobs[0], "commit"), "abc");
	machine_fill_job(&m, jobs[0], "v6.2");
	assert_string_equal(job_get(jobs[0], "commit"), "v6.2");
	job_free_all(jobs, n);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tbox_group),
		cmocka_unit_test(test_probe_fake_sysroot),
		cmocka_unit_test(test_zero_page_probe),
		cmocka_unit_test(test_fill_job),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
