/*
 * test_vmscal.c: the vm-scalability parser (LKP's fixture byte for byte,
 * and each output form: usemem lines, repeat dots, dd, truncate/faulted,
 * free time, incomplete output) and the suite's size arithmetic.
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "monitors/parsers.h"
#include "util/strbuf.h"

static const char *testdata(void)
{
	const char *d = getenv("PERFSIFT_TESTDATA");

	return d ? d : "tests/data";
}

static void parse_str(const char *in, const char *expect)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	assert_int_equal(parse_vm_scalability(in, strlen(in), NULL, &out, &err), 0);
	assert_string_equal(out.buf, expect);
	strbuf_release(&out);
	strbuf_release(&err);
}

static void test_parse_fixture(void **state)
{
	struct strbuf in = STRBUF_INIT, want = STRBUF_INIT, out = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT;

	(void)state;
	strbuf_addf(&path, "%s/lkp/stats/vm-scalability/1", testdata());
	assert_int_equal(strbuf_read_file(&in, path.buf, 0), 0);
	strbuf_addstr(&path, ".yaml");
	assert_int_equal(strbuf_read_file(&want, path.buf, 0), 0);
	assert_int_equal(parse_vm_scalability(in.buf, in.len, path.buf, &out, &err), 0);
	assert_string_equal(out.buf, want.buf);
	strbuf_release(&in);
	strbuf_release(&want);
	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&path);
}

static void test_parse_usemem(void **state)
{
	(void)state;
	/* two samples of two workers; dots of repeats; "read again" ignored */
	parse_str("2026-01-01 00:00:00  ./case-anon-r-seq\n"
		  "2026-01-01 00:00:00  usemem --runtime 300 -n 2 --readonly 4096\n"
		  "1000 bytes / 10 usecs = 300 KB/s\n"
		  ".1200 bytes / 10 usecs = 100 KB/s\n"
		  "5000 usecs to free memory\n"
		  "7000 usecs to free memory\n"
		  "2026-01-01 00:00:01  ./case-anon-r-seq\n"
		  "3000 bytes / 10 usecs = 200 KB/s\n"
		  "1000 bytes / 10 usecs = 200 KB/s\n"
		  "read again 500 bytes / 1 usecs = 5 KB/s\n",
		  "# 2 400\n"
		  "# 2 400\n"
		  "throughput: 400\n"
		  "stddev%:   0\n"
		  "free_time:  0.006\n"
		  "median: 250\n"
		  "median_stddev%: 20\n"
		  "workload: 6.05\n");
	/* one sample: the spread of its workers stands in for stddev */
	parse_str("./case-anon-w-seq\n"
		  "100 bytes / 1 usecs = 100 KB/s\n"
		  "300 bytes / 1 usecs = 300 KB/s\n"
		  "200 bytes / 1 usecs = 200 KB/s\n",
		  "# 3 600\n"
		  "throughput: 600\n"
		  "stddev%:   122.474\n"
		  "median: 200\n"
		  "median_stddev%: 0\n"
		  "workload: 0.59\n");
	/* nothing measured: no keys at all */
	parse_str("./case-fork\n", "");
	/* output cut after a case line: throughput only */
	parse_str("./case-x\n100 bytes / 1 usecs = 5 KB/s\n./case-x\n",
		  "# 1 5\nthroughput: 5\n");
}

static void test_parse_other_forms(void **state)
{
	(void)state;
	/* dd (lru-file-readonce): KiB / seconds, a Float */
	parse_str("./case-lru-file-readonce\n"
		  "1048576 bytes (1.0 MB, 1.0 MiB) copied, 3 s, 0.3 MB/s\n",
		  "# 1 341.3333333333333\n"
		  "throughput: 341\n"
		  "stddev%:   0\n"
		  "median: 341\n"
		  "median_stddev%: 0\n"
		  "workload: 1024.00\n");
	/* truncate-seq: faulted and truncated, two families of keys */
	parse_str("./case-truncate-seq\n"
		  "1024000 bytes faulted in 2.5-2.0 seconds\n"
		  "1024000 bytes truncated in 1.5-1.0 seconds\n",
		  "# 1 2000.0\n"
		  "# 1 2000.0\n"
		  "throughput: 2000\n"
		  "stddev%:   0\n"
		  "median: 2000\n"
		  "median_stddev%: 0\n"
		  "workload: 1000.00\n"
		  "throughput_fault: 2000\n"
		  "stddev_fault%:   0\n"
		  "median_fault: 2000\n"
		  "median_fault_stddev%: 0\n");
	/* large and tiny floats print as Ruby prints them */
	parse_str("./case-truncate\n"
		  "1099511627776000 bytes truncated in 1.0-0.9 seconds\n",
		  "# 1 10737418240000.002\n"
		  "throughput: 10737418240000\n"
		  "stddev%:   0\n"
		  "median: 10737418240000\n"
		  "median_stddev%: 0\n"
		  "workload: 1073741824000.00\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_fixture),
		cmocka_unit_test(test_parse_usemem),
		cmocka_unit_test(test_parse_other_forms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
