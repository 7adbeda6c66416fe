/*
 * test_plugins.c: unit tests for the plug-in search (src/job/plugins.c):
 * the order of the search path, that a built-in's name never finds a
 * plug-in, that no name leads out of a search directory, the message
 * naming the directories searched, and that a found plug-in is a table
 * entry a job can name (program_find, the schema) with its scripts.
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "job/job.h"
#include "job/plugins.h"
#include "job/programs.h"
#include "util/fileutil.h"
#include "util/strbuf.h"

static char tmp[64];

/* dir/name/file, made executable */
static void make_script(const char *dir, const char *name, const char *file,
			const char *text)
{
	struct strbuf p = STRBUF_INIT;
	FILE *f;

	strbuf_addf(&p, "%s/%s/%s", tmp, dir, name);
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	strbuf_addf(&p, "/%s", file);
	f = fopen(p.buf, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(p.buf, 0755), 0);
	strbuf_release(&p);
}

static int setup(void **state)
{
	struct strbuf env = STRBUF_INIT;

	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/perfsift-plugins.XXXXXX");
	assert_non_null(mkdtemp(tmp));
	make_script("a", "both", "run", "#!/bin/sh\necho a\n");
	make_script("b", "both", "run", "#!/bin/sh\necho b\n");
	make_script("b", "onlyb", "parse", "#!/usr/bin/env ruby\nputs 'x: 1'\n");
	make_script("a", "vmstat", "run", "#!/bin/sh\n");
	make_script("lkp/programs", "lkpprog", "run", "#!/bin/sh\n");
	make_script("lkp/programs", "lkpprog", "parse", "#!/bin/sh\ncat\n");
	strbuf_addf(&env, "%s/a:%s/nowhere:%s/b", tmp, tmp, tmp);
	setenv("PERFSIFT_PROGRAMS", env.buf, 1);
	unsetenv("LKP_SRC");
	strbuf_release(&env);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	remove_tree(tmp);
	return 0;
}

static void test_search_order(void **state)
{
	const struct program *p;
	struct strbuf want = STRBUF_INIT;

	(void)state;
	/* the first directory of PERFSIFT_PROGRAMS holding it wins */
	p = plugin_find("both", NULL, NULL);
	assert_non_null(p);
	strbuf_addf(&want, "%s/a/both", tmp);
	assert_string_equal(plugin_dir(p), want.buf);
	assert_int_equal(p->kind, PROG_TEST);
	/* registered: a table entry from now on */
	assert_ptr_equal(program_find("both"), p);
	assert_null(plugin_parse_script(p));
	/* a later directory, with a Ruby parse script and no run */
	p = plugin_find("onlyb", NULL, NULL);
	assert_non_null(p);
	assert_true(plugin_parse_needs_ruby(p));
	assert_non_null(p->mon.parse);
	strbuf_release(&want);
}

static void test_lkp_src(void **state)
{
	struct strbuf d = STRBUF_INIT;
	const struct program *p;

	(void)state;
	assert_null(plugin_find("lkpprog", NULL, NULL));
	strbuf_addf(&d, "%s/lkp", tmp);
	plugin_set_lkp_src(d.buf);
	p = plugin_find("lkpprog", NULL, NULL);
	assert_non_null(p);
	assert_non_null(plugin_parse_script(p));
	assert_false(plugin_parse_needs_ruby(p));
	plugin_set_lkp_src(NULL);
	strbuf_release(&d);
}

static void test_never_a_builtin_or_outside(void **state)
{
	(void)state;
	/* a/vmstat exists, but vmstat is perfsift's own */
	assert_null(plugin_find("vmstat", NULL, NULL));
	assert_null(program_find("vmstat")->plugin_dir);
	/* no name leads out of a search directory */
	assert_null(plugin_find("../a/both", NULL, NULL));
	assert_null(plugin_find(".hidden", NULL, NULL));
	assert_null(plugin_find("a/b", NULL, NULL));
	assert_null(plugin_find("", NULL, NULL));
	assert_null(plugin_find("nosuch", NULL, NULL));
}

static void test_describe_path(void **state)
{
	struct strbuf out = STRBUF_INIT, want = STRBUF_INIT;

	(void)state;
	plugin_describe_path("nosuch", NULL, NULL, &out);
	strbuf_addf(&want, "no plug-in nosuch/ in %s/a (PERFSIFT_PROGRAMS), "
		    "%s/nowhere (PERFSIFT_PROGRAMS), %s/b (PERFSIFT_PROGRAMS)",
		    tmp, tmp, tmp);
	assert_string_equal(out.buf, want.buf);
	strbuf_reset(&out);
	setenv("PERFSIFT_PROGRAMS", "", 1);
	plugin_describe_path("x", NULL, NULL, &out);
	assert_non_null(strstr(out.buf, "no plug-in directory to look in for x/"));
	strbuf_release(&out);
	strbuf_release(&want);
	setup(NULL);
}

/* a job file's programs/ is searched, and the error names it */
static void test_job_dir(void **state)
{
	struct strbuf file = STRBUF_INIT, err = STRBUF_INIT;
	struct job **jobs = NULL;
	size_t n = 0;
	FILE *f;

	(void)state;
	make_script("jobs/programs", "jobprog", "run", "#!/bin/sh\n");
	strbuf_addf(&file, "%s/jobs/j.yaml", tmp);
	f = fopen(file.buf, "w");
	assert_non_null(f);
	fputs("suite: j\njobprog:\n  anykey: anything\n", f);
	fclose(f);
	assert_int_equal(job_load_file(file.buf, &jobs, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_non_null(program_find("jobprog"));
	job_free_all(jobs, n);
	f = fopen(file.buf, "w");
	assert_non_null(f);
	fputs("suite: j\nnotthere:\n  a: 1\n", f);
	fclose(f);
	assert_int_equal(job_load_file(file.buf, &jobs, &n, &err), -1);
	assert_non_null(strstr(err.buf, "j.yaml:2: notthere: unknown program"));
	assert_non_null(strstr(err.buf, "/jobs/programs (the job's directory)"));
	strbuf_release(&file);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_search_order),
		cmocka_unit_test(test_lkp_src),
		cmocka_unit_test(test_never_a_builtin_or_outside),
		cmocka_unit_test(test_describe_path),
		cmocka_unit_test(test_job_dir),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
