/*
 * test_mytest.c: the parser of `mytest` output -- numeric `key: value`
 * lines pass, everything else is dropped.
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "monitors/monitor.h"
#include "util/strbuf.h"

static void test_mytest_parser(void **state)
{
	static const char raw[] =
		"throughput: 123.5\n"
		"latency_ms: 7\n"
		"2000+0 records in\n"
		"with space: 3\n"
		"name: text\n"
		"# comment: 1\n"
		": 5\n"
		"ops/s: 1e6  \n"
		"last: 42";
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const struct monitor_ops *m = monitor_find("mytest");

	(void)state;
	assert_non_null(m);
	assert_int_equal(m->parse(raw, strlen(raw), NULL, &out, &err), 0);
	assert_string_equal(out.buf, "throughput: 123.5\n"
				     "latency_ms: 7\n"
				     "ops/s: 1e6\n"
				     "last: 42\n");
	strbuf_reset(&out);
	assert_int_equal(m->parse("", 0, NULL, &out, &err), 0);
	assert_string_equal(out.buf, "");
	strbuf_release(&out);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mytest_parser),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
