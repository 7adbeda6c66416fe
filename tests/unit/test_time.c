/*
 * test_time.c: the time monitor -- LKP's parser output for GNU time's
 * files (tests/data/lkp-generated/time, byte for byte), the writer's
 * layout and its round trip through the parser, Ruby float printing.
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <cmocka.h>
#include "monitors/monitor.h"
#include "monitors/time.h"
#include "util/strbuf.h"

static const char *testdata(void)
{
	const char *d = getenv("PERFSIFT_TESTDATA");

	return d && *d ? d : "tests/data";
}

static void check_vector(const char *raw_name, const char *yaml_name)
{
	struct strbuf raw = STRBUF_INIT, want = STRBUF_INIT, got = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT;
	const struct monitor_ops *m = monitor_find("time");

	assert_non_null(m);
	strbuf_addf(&path, "%s/lkp-generated/time/%s", testdata(), raw_name);
	assert_int_equal(strbuf_read_file(&raw, path.buf, 0), 0);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/lkp-generated/time/%s", testdata(), yaml_name);
	assert_int_equal(strbuf_read_file(&want, path.buf, 0), 0);
	assert_int_equal(m->parse(raw.buf, raw.len, raw_name, &got, &err), 0);
	assert_string_equal(got.buf, want.buf);
	strbuf_release(&raw);
	strbuf_release(&want);
	strbuf_release(&got);
	strbuf_release(&err);
	strbuf_release(&path);
}

static void test_lkp_vectors(void **state)
{
	struct strbuf path = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;

	(void)state;
	check_vector("1", "1.yaml");
	check_vector("2", "2.yaml");
	check_vector("3", "3.yaml");
	/* vector 3 is 1 and 2 concatenated, as LKP's post-run builds `time` */
	strbuf_addf(&path, "%s/lkp-generated/time/1", testdata());
	assert_int_equal(strbuf_read_file(&a, path.buf, 0), 0);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/lkp-generated/time/2", testdata());
	assert_int_equal(strbuf_read_file(&b, path.buf, 0), 0);
	strbuf_addbuf(&a, &b);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/lkp-generated/time/3", testdata());
	strbuf_reset(&b);
	assert_int_equal(strbuf_read_file(&b, path.buf, 0), 0);
	assert_string_equal(a.buf, b.buf);
	strbuf_release(&path);
	strbuf_release(&a);
	strbuf_release(&b);
}

static void test_writer_layout(void **state)
{
	struct rusage ru;
	struct strbuf out = STRBUF_INIT, parsed = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	memset(&ru, 0, sizeof(ru));
	ru.ru_utime.tv_sec = 0;
	ru.ru_utime.tv_usec = 20123;
	ru.ru_stime.tv_sec = 1;
	ru.ru_stime.tv_usec = 5;
	ru.ru_maxrss = 2780;
	ru.ru_minflt = 360;
	ru.ru_nvcsw = 1;
	ru.ru_nivcsw = 54;
	time_format_verbose(&out, "dd if=/dev/zero\nof=/dev/null", &ru, 1.160123,
			    0);
	assert_non_null(strstr(out.buf, "\tCommand being timed: \"dd if=/dev/zero of=/dev/null\"\n"));
	assert_non_null(strstr(out.buf, "\tUser time (seconds): 0.020123\n"));
	assert_non_null(strstr(out.buf, "\tSystem time (seconds): 1.000005\n"));
	/* (0.020123 + 1.000005) / 1.160123 = 87.9% -> 87 as GNU truncates */
	assert_non_null(strstr(out.buf, "\tPercent of CPU this job got: 87%\n"));
	assert_non_null(strstr(out.buf,
		"\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:01.160123\n"));
	assert_non_null(strstr(out.buf, "\tExit status: 0\n"));
	assert_null(strstr(out.buf, "Command exited"));

	assert_int_equal(monitor_find("time")->parse(out.buf, out.len, NULL,
						     &parsed, &err), 0);
	assert_non_null(strstr(parsed.buf, "user_time: 0.020123\n"));
	assert_non_null(strstr(parsed.buf, "system_time: 1.000005\n"));
	assert_non_null(strstr(parsed.buf, "percent_of_cpu_this_job_got: 87\n"));
	assert_non_null(strstr(parsed.buf, "elapsed_time: 1.160123\n"));
	assert_non_null(strstr(parsed.buf, "maximum_resident_set_size: 2780\n"));
	assert_non_null(strstr(parsed.buf, "minor_page_faults: 360\n"));
	assert_non_null(strstr(parsed.buf, "involuntary_context_switches: 54\n"));
	assert_non_null(strstr(parsed.buf, "page_size: "));
	assert_null(strstr(parsed.buf, "command"));

	/* a failed command, more than an hour, and no elapsed time at all */
	strbuf_reset(&out);
	strbuf_reset(&parsed);
	time_format_verbose(&out, "x", &ru, 3723.5, 3 << 8);
	assert_int_equal(strncmp(out.buf, "Command exited with non-zero status 3\n", 38), 0);
	assert_non_null(strstr(out.buf, "m:ss): 1:02:03.500000\n"));
	assert_int_equal(monitor_find("time")->parse(out.buf, out.len, NULL,
						     &parsed, &err), 0);
	assert_non_null(strstr(parsed.buf, "elapsed_time: 3723.5\n"));
	assert_non_null(strstr(parsed.buf, "exit_status: 3\n"));
	strbuf_reset(&out);
	strbuf_reset(&parsed);
	time_format_verbose(&out, "x", &ru, 0, SIGKILL);
	assert_int_equal(strncmp(out.buf, "Command terminated by signal 9\n", 31), 0);
	assert_non_null(strstr(out.buf, "this job got: ?%\n"));
	assert_int_equal(monitor_find("time")->parse(out.buf, out.len, NULL,
						     &parsed, &err), 0);
	assert_non_null(strstr(parsed.buf, "percent_of_cpu_this_job_got: 0\n"));
	assert_non_null(strstr(parsed.buf, "elapsed_time: 0.0\n"));
	assert_non_null(strstr(parsed.buf, "exit_status: 9\n"));
	strbuf_release(&out);
	strbuf_release(&parsed);
	strbuf_release(&err);
}

static void check_float(double v, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	time_add_ruby_float(&sb, v);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void test_ruby_float(void **state)
{
	(void)state;
	check_float(1.0, "1.0");
	check_float(1.16, "1.16");
	check_float(0.1 + 0.2, "0.30000000000000004");
	check_float(3723.5, "3723.5");
	check_float(0.0, "0.0");
	check_float(-2.5, "-2.5");
	check_float(100.0, "100.0");
	check_float(0.0001, "0.0001");
	check_float(0.00001, "1.0e-05");
	check_float(1e16, "1.0e+16");
	check_float(1234567890123456.0, "1234567890123456.0");
	check_float(1.5e20, "1.5e+20");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lkp_vectors),
		cmocka_unit_test(test_writer_layout),
		cmocka_unit_test(test_ruby_float),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
