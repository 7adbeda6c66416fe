/*
 * test_report_bundle.c: the reproduction files: the job without this
 * machine's facts, the environment fingerprint of both sides, and the
 * tarball (read back with libarchive: names, contents).
 */
#include "util/compat.h"
#include <archive.h>
#include <archive_entry.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "job/job.h"
#include "report/bundle.h"
#include "util/fileutil.h"
#include "util/strbuf.h"

static const char run_job[] =
	"suite: vm-scalability\n"
	"testcase: vm-scalability\n"
	"category: benchmark\n"
	"runtime: 300s\n"
	"vm-scalability:\n"
	"  test: anon-r-seq\n"
	"testbox: lkp-hsx04\n"
	"tbox_group: lkp-hsx04\n"
	"arch: x86_64\n"
	"commit: 5f155ea5ab62b5321aa7315de62d21da59aa8c65\n"
	"rootfs: debian\n"
	"compiler: gcc-12\n"
	"nr_cpu: 144\n"
	"memory: 512G\n"
	"model: Brickland Haswell-EX\n"
	"env_kernel_cmdline: \"root=/dev/vda1 quiet\"\n"
	"env_thp_enabled: always\n"
	"env_cpufreq_governor: performance\n";

static void put(const char *dir, const char *name, const char *text)
{
	struct strbuf p = STRBUF_INIT;

	assert_int_equal(mkdir_p(dir, 0777), 0);
	path_join(&p, dir, name);
	assert_int_equal(write_file_atomic(p.buf, text, strlen(text)), 0);
	strbuf_release(&p);
}

static void test_bundle(void **state)
{
	char tmpl[] = "/tmp/perfsift-bundle.XXXXXX";
	char *root = mkdtemp(tmpl);
	struct strbuf head = STRBUF_INIT, base = STRBUF_INIT, run = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT, job = STRBUF_INIT, env = STRBUF_INIT;
	struct strbuf tgz = STRBUF_INIT, names = STRBUF_INIT;
	struct report_side sides[2];
	struct job *hj = NULL, *none = NULL;
	struct archive *a;
	struct archive_entry *e;

	(void)state;
	assert_non_null(root);
	strbuf_addf(&head, "%s/head", root);
	strbuf_addf(&base, "%s/base", root);
	put(head.buf, "matrix.json", "{\"a.b\": [1, 2]}\n");
	strbuf_addf(&run, "%s/1", head.buf);
	put(run.buf, "job.yaml", run_job);
	put(run.buf, "meminfo", "time: 1\nMemFree: 5 kB\n");
	strbuf_reset(&run);
	strbuf_addf(&run, "%s/0", head.buf);
	put(run.buf, "meminfo.json", "{\"meminfo.MemFree\": [5]}\n");
	put(base.buf, "matrix.json", "{\"a.b\": [3, 4]}\n");

	/* the job of the first run with a job.yaml; none in base */
	assert_int_equal(report_load_job(head.buf, &hj, &err), 0);
	assert_non_null(hj);
	assert_int_equal(report_load_job(base.buf, &none, &err), 0);
	assert_null(none);

	report_repro_job(hj, &job);
	assert_non_null(strstr(job.buf, "test: anon-r-seq"));
	assert_non_null(strstr(job.buf, "runtime: 300s"));
	assert_null(strstr(job.buf, "testbox"));
	assert_null(strstr(job.buf, "commit"));
	assert_null(strstr(job.buf, "model"));
	assert_null(strstr(job.buf, "env_"));
	/* the original job is left alone */
	assert_string_equal(job_get(hj, "testbox"), "lkp-hsx04");

	report_env_yaml(&env, "base", none);
	report_env_yaml(&env, "head", hj);
	assert_non_null(strstr(env.buf, "base:\n  unknown:"));
	assert_non_null(strstr(env.buf, "head:\n  testbox: \"lkp-hsx04\"\n"));
	assert_non_null(strstr(env.buf, "  model: \"Brickland Haswell-EX\"\n"));
	assert_non_null(strstr(env.buf, "  env_kernel_cmdline: \"root=/dev/vda1 quiet\"\n"));
	assert_non_null(strstr(env.buf, "  env_thp_enabled: \"always\"\n"));

	sides[0] = (struct report_side){ "base", base.buf };
	sides[1] = (struct report_side){ "head", head.buf };
	strbuf_addf(&tgz, "%s/repro.tar.gz", root);
	assert_int_equal(report_bundle_write(tgz.buf, sides, 2, job.buf, NULL,
					     env.buf, &err), 0);

	a = archive_read_new();
	archive_read_support_filter_gzip(a);
	archive_read_support_format_tar(a);
	assert_int_equal(archive_read_open_filename(a, tgz.buf, 10240),
			 ARCHIVE_OK);
	while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
		char buf[256];
		la_ssize_t n;

		strbuf_addf(&names, "%s\n", archive_entry_pathname(e));
		if (!strcmp(archive_entry_pathname(e), "repro/head/1/meminfo")) {
			n = archive_read_data(a, buf, sizeof(buf) - 1);
			assert_true(n > 0);
			buf[n] = '\0';
			assert_string_equal(buf, "time: 1\nMemFree: 5 kB\n");
		}
	}
	archive_read_free(a);
	assert_string_equal(names.buf,
			    "repro/README\n"
			    "repro/job.yaml\n"
			    "repro/env.yaml\n"
			    "repro/base/matrix.json\n"
			    "repro/head/matrix.json\n"
			    "repro/head/0/meminfo.json\n"
			    "repro/head/1/job.yaml\n"
			    "repro/head/1/meminfo\n");

	/* a directory that cannot be written: an error, nothing left behind */
	strbuf_reset(&tgz);
	strbuf_addf(&tgz, "%s/no/such/dir/repro.tar.gz", root);
	assert_int_equal(report_bundle_write(tgz.buf, sides, 2, NULL, NULL, env.buf,
					     &err), -1);
	assert_non_null(strstr(err.buf, "cannot create"));

	job_free(hj);
	assert_int_equal(remove_tree(root), 0);
	strbuf_release(&head);
	strbuf_release(&base);
	strbuf_release(&run);
	strbuf_release(&err);
	strbuf_release(&job);
	strbuf_release(&env);
	strbuf_release(&tgz);
	strbuf_release(&names);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bundle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
