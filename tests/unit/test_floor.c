/*
 * test_floor.c: the noise floor of an A/A calibration (result/floor.h)
 * -- the robust spread (1.4826 x MAD within the halves, the drift
 * between their medians), against values worked out by hand below; the
 * sorted table's lookup; a group's series; and compare's rule
 * (stat_within_noise_floor, rules.h).
 */
#include "util/compat.h"
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "compare/rules.h"
#include "result/floor.h"
#include "util/strbuf.h"

static double floor_of(const double *a, size_t na, const double *b, size_t nb)
{
	double scratch[32];

	assert_true(na + nb <= 32);
	return noise_floor_of(a, na, b, nb, scratch);
}

/*
 * Noise without drift: deviations from each half's median (100) are
 * 0 2 2 | 2 0 2, their median 2, so 1.4826 x 2 = 2.9652 of a median of
 * 100: 2.9652%.  The inputs are left as they were.
 */
static void test_within(void **state)
{
	double a[] = { 100, 102, 98 }, b[] = { 98, 100, 102 };

	(void)state;
	assert_float_equal(floor_of(a, 3, b, 3), 2.9652, 1e-9);
	assert_float_equal(a[1], 102, 0);
	assert_float_equal(b[0], 98, 0);
	/* the sign of the values does not matter: % of |median| */
	{
		double na[] = { -100, -102, -98 }, nb[] = { -98, -100, -102 };

		assert_float_equal(floor_of(na, 3, nb, 3), 2.9652, 1e-9);
	}
}

/*
 * Drift between the halves, none within: |100 - 110| of the overall
 * median (100 + 110) / 2 = 105: 9.5238%.
 */
static void test_between(void **state)
{
	double a[] = { 100, 100, 100 }, b[] = { 110, 110, 110 };

	(void)state;
	assert_float_equal(floor_of(a, 3, b, 3), 100.0 * 10 / 105, 1e-9);
}

/* one wild run does not make a stat look noisy (a stddev would: ~300%) */
static void test_robust(void **state)
{
	double a[] = { 100, 100, 1000, 100, 100 }, b[] = { 100, 100, 100, 100, 100 };
	double c[] = { 100, 101, 1000, 99, 100 }, d[] = { 101, 99, 100, 100, 100 };

	(void)state;
	assert_float_equal(floor_of(a, 5, b, 5), 0, 0);
	/* deviations 0 1 900 1 0 | 1 1 0 0 0: median 0.5, x 1.4826 */
	assert_float_equal(floor_of(c, 5, d, 5), 1.4826 * 0.5, 1e-9);
}

/* nothing to say: too few values a half, or a median of 0 */
static void test_undefined(void **state)
{
	double a[] = { 1, 2, 3 }, z[] = { 0, 0, 1 }, zz[] = { 0, 0, 0 };

	(void)state;
	assert_true(isnan(floor_of(a, 1, a, 3)));
	assert_true(isnan(floor_of(a, 3, a, 1)));
	assert_true(isnan(floor_of(z, 3, zz, 3)));
}

static void test_table(void **state)
{
	struct noise_floor f;

	(void)state;
	noise_floor_init(&f);
	assert_true(isnan(noise_floor_find(&f, "x")));
	assert_true(isnan(noise_floor_find(NULL, "x")));
	noise_floor_add(&f, "vmstat.cpu.id", 4.5);
	noise_floor_add(&f, "mytest.score", 0.5);
	noise_floor_add(&f, "cpuidle.C1.time", 12);
	noise_floor_sort(&f);
	assert_float_equal(noise_floor_find(&f, "mytest.score"), 0.5, 0);
	assert_float_equal(noise_floor_find(&f, "vmstat.cpu.id"), 4.5, 0);
	assert_float_equal(noise_floor_find(&f, "cpuidle.C1.time"), 12, 0);
	assert_true(isnan(noise_floor_find(&f, "mytest")));
	noise_floor_release(&f);
}

static void test_series(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_int_equal(noise_floor_series("/r", "/r/t/p/vm/debian/def/gcc/abc", &sb), 0);
	assert_string_equal(sb.buf, "t/p/vm/debian/def/gcc");
	strbuf_reset(&sb);
	assert_int_equal(noise_floor_series("/r/", "/r/t/abc", &sb), 0);
	assert_string_equal(sb.buf, "t");
	strbuf_reset(&sb);
	/* outside the root, a prefix of another name, or too short */
	assert_int_equal(noise_floor_series("/r", "/other/t/abc", &sb), -1);
	assert_int_equal(noise_floor_series("/r", "/rr/t/abc", &sb), -1);
	assert_int_equal(noise_floor_series("/r", "/r/abc", &sb), -1);
	assert_int_equal(sb.len, 0);
	strbuf_release(&sb);
}

static void test_date(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	noise_floor_date(0, &sb);
	assert_string_equal(sb.buf, "1970-01-01 00:00 UTC");
	strbuf_reset(&sb);
	noise_floor_date(1796137531, &sb);
	assert_string_equal(sb.buf, "2026-12-01 15:05 UTC");
	strbuf_release(&sb);
}

/* compare's rule: within k x floor, either way; no floor, no rule */
static void test_rule(void **state)
{
	(void)state;
	assert_true(stat_within_noise_floor(3, 2, 2));
	assert_true(stat_within_noise_floor(-4, 2, 2));
	assert_false(stat_within_noise_floor(4.01, 2, 2));
	assert_false(stat_within_noise_floor(3, NAN, 2));
	assert_false(stat_within_noise_floor(NAN, 2, 2));
	assert_true(stat_within_noise_floor(0, 0, 2));
	assert_false(stat_within_noise_floor(0.1, 0, 2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_within),
		cmocka_unit_test(test_between),
		cmocka_unit_test(test_robust),
		cmocka_unit_test(test_undefined),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_series),
		cmocka_unit_test(test_date),
		cmocka_unit_test(test_rule),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
