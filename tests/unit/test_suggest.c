/*
 * test_suggest.c: unit tests for util/suggest.c -- the edit distance and
 * the "did you mean" choice among candidates.
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "util/suggest.h"

static void test_distance(void **state)
{
	(void)state;
	assert_int_equal(suggest_distance("", ""), 0);
	assert_int_equal(suggest_distance("runtime", "runtime"), 0);
	assert_int_equal(suggest_distance("runtme", "runtime"), 1);  /* delete */
	assert_int_equal(suggest_distance("runtimee", "runtime"), 1); /* insert */
	assert_int_equal(suggest_distance("rontime", "runtime"), 1); /* change */
	assert_int_equal(suggest_distance("hlep", "help"), 2); /* a swap: 2 */
	assert_int_equal(suggest_distance("", "abc"), 3);
	assert_int_equal(suggest_distance("kitten", "sitting"), 3);
	assert_int_equal(suggest_distance("sitting", "kitten"), 3);
}

static void test_closest(void **state)
{
	static const char *const keys[] = {"runtime", "timeout", "testcase",
					   "model", "nr_task"};
	const size_t n = ARRAY_SIZE(keys);

	(void)state;
	assert_string_equal(suggest_closest("runtme", keys, n, 1), "runtime");
	assert_string_equal(suggest_closest("tmeout", keys, n, 2), "timeout");
	assert_string_equal(suggest_closest("testcsae", keys, n, 2), "testcase");
	/* too far, or as far as the name is long */
	assert_null(suggest_closest("runtmeee", keys, n, 1));
	assert_null(suggest_closest("xy", keys, n, 5));
	/* a known name suggests nothing */
	assert_null(suggest_closest("model", keys, n, 2));
	assert_null(suggest_closest("anything", NULL, 0, 2));
	/* the nearest wins; on a tie the first candidate */
	{
		static const char *const c[] = {"abcd", "abce", "abcx"};

		assert_string_equal(suggest_closest("abcf", c, 3, 1), "abcd");
		assert_string_equal(suggest_closest("abcxy", c, 3, 2), "abcx");
	}
}

static void test_max_distance(void **state)
{
	(void)state;
	/* short names are often names of their own: LKP's `mode` is not `model` */
	assert_int_equal(suggest_max_distance("mode"), 0);
	assert_int_equal(suggest_max_distance("runtme"), 1);
	assert_int_equal(suggest_max_distance("thp_enable"), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_closest),
		cmocka_unit_test(test_max_distance),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
