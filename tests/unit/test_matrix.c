/*
 * test_matrix.c: the lean matrix.json reader -- LKP's shape in any valid
 * JSON spelling, numbers rounded exactly as strtod (checked against
 * jansson on random numbers), padding, duplicates, errors with lines --
 * the writer's round trip, and missing values: what the file says (null,
 * short arrays), the sidecar matrix-missing.json, LKP's padding assumed
 * without one.
 */
#include "util/compat.h"
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>
#include <unistd.h>
#include "result/matrix.h"
#include "util/fileutil.h"
#include "util/strbuf.h"

static int parse(struct matrix *m, const char *text, struct strbuf *err)
{
	strbuf_reset(err);
	return matrix_parse_json(m, text, strlen(text), "m.json", err);
}

static void test_shape(void **state)
{
	struct matrix m;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(parse(&m,
		"{\"b.x\": [1, 2.5, -3e2],\n \"a\\u00e9\": [null, 4],"
		" \"stats_source\": [\"s0\", \"s1\", \"s\\\"2\", \"s3\"],\n"
		" \"b.x\": [7, 8, 9, 10, 11]}", &err), 0);
	/* sorted, the duplicate's last value wins, run count = sources */
	assert_int_equal(m.nstats, 2);
	assert_int_equal(m.nruns, 4);
	assert_string_equal(m.names[0], "a\xc3\xa9");
	assert_string_equal(m.names[1], "b.x");
	assert_true(matrix_at(&m, 0, 0) == 0 && matrix_at(&m, 0, 1) == 4);
	assert_true(matrix_at(&m, 0, 2) == 0 && matrix_at(&m, 0, 3) == 0);
	assert_true(matrix_at(&m, 1, 0) == 7 && matrix_at(&m, 1, 3) == 10);
	assert_true(m.is_int[0] && m.is_int[1]);
	assert_string_equal(m.sources[2], "s\"2");
	assert_int_equal(matrix_find(&m, "b.x"), 1);
	assert_int_equal(matrix_find(&m, "c"), -1);
	matrix_release(&m);

	/* no stats_source: the longest array; floats flagged */
	assert_int_equal(parse(&m, "{\"x\": [1.0], \"y\": [1, 2, 3]}", &err), 0);
	assert_int_equal(m.nruns, 3);
	assert_null(m.sources);
	assert_false(m.is_int[0]);
	matrix_release(&m);
	assert_int_equal(parse(&m, " { } ", &err), 0);
	assert_int_equal(m.nstats, 0);
	matrix_release(&m);
	strbuf_release(&err);
}

/* matrix_columns / _from: the runs asked for, in that order, with their gaps */
static void test_columns(void **state)
{
	struct matrix m, out;
	struct strbuf err = STRBUF_INIT;
	const size_t cols[] = { 3, 9, 0 }; /* 9: not a run of m, left out */

	(void)state;
	assert_int_equal(parse(&m, "{\"a\": [null, 2, 3, 4], \"b\": [1.5, 6, 7, 8]}",
			       &err), 0);
	matrix_columns(&m, cols, 3, &out);
	assert_int_equal(out.nstats, 2);
	assert_int_equal(out.nruns, 2);
	assert_string_equal(out.names[1], "b");
	assert_true(matrix_at(&out, 0, 0) == 4 && matrix_at(&out, 1, 0) == 8);
	assert_true(matrix_at(&out, 1, 1) == 1.5);
	/* run 0 lacks a: still so, and b's floats still flagged */
	assert_false(matrix_has(&out, 0, 1));
	assert_true(matrix_has(&out, 0, 0) && matrix_has(&out, 1, 1));
	assert_true(out.is_int[0] && !out.is_int[1]);
	matrix_release(&out);

	matrix_columns_from(&m, 2, &out);
	assert_int_equal(out.nruns, 2);
	assert_true(matrix_at(&out, 0, 0) == 3 && matrix_at(&out, 1, 1) == 8);
	matrix_release(&out);
	/* nothing left: an empty matrix */
	matrix_columns_from(&m, 4, &out);
	assert_int_equal(out.nruns, 0);
	assert_int_equal(out.nstats, 0);
	matrix_release(&out);
	matrix_release(&m);
	strbuf_release(&err);
}

/* matrix_concat: a's runs then b's, a stat one side lacks missing there */
static void test_concat(void **state)
{
	struct matrix a, b, out, none;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(parse(&a, "{\"a\": [1, 2], \"c\": [5, 6]}", &err), 0);
	assert_int_equal(parse(&b, "{\"b\": [0.5], \"c\": [7]}", &err), 0);
	matrix_concat(&a, &b, &out);
	assert_int_equal(out.nruns, 3);
	assert_int_equal(out.nstats, 3);
	assert_string_equal(out.names[0], "a");
	assert_string_equal(out.names[1], "b");
	assert_string_equal(out.names[2], "c");
	assert_true(matrix_at(&out, 2, 0) == 5 && matrix_at(&out, 2, 1) == 6 &&
		    matrix_at(&out, 2, 2) == 7);
	assert_true(matrix_at(&out, 0, 1) == 2 && matrix_at(&out, 1, 2) == 0.5);
	/* a lacks b, b lacks a: missing, not 0 */
	assert_false(matrix_has(&out, 1, 0) || matrix_has(&out, 1, 1));
	assert_false(matrix_has(&out, 0, 2));
	assert_true(matrix_has(&out, 2, 0) && matrix_has(&out, 2, 2));
	assert_true(out.is_int[0] && !out.is_int[1] && out.is_int[2]);
	assert_int_equal(matrix_find(&out, "b"), 1);
	matrix_release(&out);
	/* with an empty side: the other's runs */
	matrix_init(&none);
	matrix_concat(&none, &b, &out);
	assert_int_equal(out.nruns, 1);
	assert_true(matrix_at(&out, matrix_find(&out, "c"), 0) == 7);
	assert_true(matrix_has(&out, 0, 0));
	matrix_release(&out);
	matrix_release(&a);
	matrix_release(&b);
	strbuf_release(&err);
}

static void test_errors(void **state)
{
	struct matrix m;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(parse(&m, "[1]", &err), -1);
	assert_string_equal(err.buf, "m.json:1: not an LKP matrix (expected an object)");
	assert_int_equal(parse(&m, "{\n\"a\": [1,\n 2,\n x]}", &err), -1);
	assert_string_equal(err.buf, "m.json:4: a: expected a number");
	assert_int_equal(parse(&m, "{\"a\": \"text\"}", &err), -1);
	assert_string_equal(err.buf, "m.json:1: a: expected an array of numbers");
	assert_int_equal(parse(&m, "{\"a\": [1]} x", &err), -1);
	assert_string_equal(err.buf, "m.json:1: trailing text after the object");
	assert_int_equal(parse(&m, "{\"a\": [01]}", &err), -1);
	assert_int_equal(parse(&m, "{\"a\": [1.]}", &err), -1);
	assert_int_equal(parse(&m, "{\"a\": [1]", &err), -1);
	assert_int_equal(parse(&m, "{\"a\\q\": [1]}", &err), -1);
	assert_int_equal(parse(&m, "{\"a\": [1,]}", &err), -1);
	/* a pulled matrix.json's names are outside text (issue 25 F10) */
	assert_int_equal(parse(&m, "{\"a\\u0007b\": [1]}", &err), -1);
	assert_string_equal(err.buf, "m.json:1: a\\x07b: a control character in a stat name");
	assert_int_equal(parse(&m, "{\"a\\n\": [1]}", &err), -1);
	assert_int_equal(parse(&m, "{\"\": [1]}", &err), -1);
	assert_string_equal(err.buf, "m.json:1: : an empty stat name");
	assert_int_equal(matrix_load_json(&m, "/nonexistent/matrix.json", &err), -1);
	strbuf_release(&err);
}

/* every number as strtod rounds it (jansson uses strtod as well) */
static void test_numbers_exact(void **state)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct matrix m;
	json_t *root, *arr;
	json_error_t jerr;
	uint64_t x = 12345;
	size_t i, n = 20000;

	(void)state;
	strbuf_addstr(&text, "{\"v\": [");
	for (i = 0; i < n; i++) {
		double d;
		int prec;

		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		d = ldexp((double)(x >> 11), (int)(x % 80) - 70);
		prec = 1 + (int)((x >> 7) % 17);
		if (i)
			strbuf_addstr(&text, ", ");
		if (i % 5 == 0)
			strbuf_addf(&text, "%.*f", prec % 8, d * (x & 1 ? -1 : 1));
		else
			strbuf_addf(&text, "%.*g", prec, d * (x & 1 ? -1 : 1));
	}
	strbuf_addstr(&text, ", 2.5E+3]}");
	assert_int_equal(matrix_parse_json(&m, text.buf, text.len, "r", &err), 0);
	root = json_loads(text.buf, JSON_DECODE_ANY, &jerr);
	assert_non_null(root);
	arr = json_object_get(root, "v");
	assert_int_equal(json_array_size(arr), m.nruns);
	for (i = 0; i < m.nruns; i++) {
		json_t *v = json_array_get(arr, i);
		double want = json_is_integer(v) ? (double)json_integer_value(v)
						 : json_real_value(v);

		if (matrix_at(&m, 0, i) != want) {
			fprintf(stderr, "value %zu: got %.17g want %.17g\n", i,
				matrix_at(&m, 0, i), want);
			fail();
		}
	}
	json_decref(root);
	matrix_release(&m);
	/* beyond jansson: huge integers and subnormals go through strtod */
	strbuf_reset(&text);
	strbuf_addstr(&text, "{\"v\": [123456789012345678901234567890, 1e-320, -0.0]}");
	assert_int_equal(matrix_parse_json(&m, text.buf, text.len, "r", &err), 0);
	assert_true(matrix_at(&m, 0, 0) == strtod("123456789012345678901234567890", NULL));
	assert_true(matrix_at(&m, 0, 1) == strtod("1e-320", NULL));
	assert_true(matrix_at(&m, 0, 2) == 0);
	matrix_release(&m);
	strbuf_release(&text);
	strbuf_release(&err);
}

static void test_round_trip(void **state)
{
	struct matrix m, m2;
	struct strbuf out = STRBUF_INIT, out2 = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	assert_int_equal(parse(&m, "{\"z\": [0.1, 1e300, -2], \"y\": [5, 6, 7],"
				   " \"stats_source\": [\"a\", \"b\", \"c\"]}", &err), 0);
	matrix_to_json(&m, &out);
	assert_int_equal(matrix_parse_json(&m2, out.buf, out.len, "o", &err), 0);
	matrix_to_json(&m2, &out2);
	assert_string_equal(out.buf, out2.buf);
	assert_string_equal(out.buf,
		"{\n  \"y\": [5, 6, 7],\n  \"z\": [0.1, 1e+300, -2.0],\n"
		"  \"stats_source\": [\"a\", \"b\", \"c\"]\n}\n");
	matrix_release(&m);
	matrix_release(&m2);
	strbuf_release(&out);
	strbuf_release(&out2);
	strbuf_release(&err);
}

static const char *const PADDED =
	"{\"a\": [null, 4],\n \"b\": [1, 2, 3],\n \"c\": [0, 0, 5],\n"
	" \"stats_source\": [\"s0\", \"s1\", \"s2\"]}";

static void test_missing_in_file(void **state)
{
	struct matrix m;
	struct strbuf err = STRBUF_INIT;
	double buf[3];
	const double *v;
	size_t n;

	(void)state;
	assert_int_equal(parse(&m, PADDED, &err), 0);
	/* null and a short array's tail are missing, not 0 */
	assert_false(matrix_has(&m, 0, 0));
	assert_true(matrix_has(&m, 0, 1));
	assert_false(matrix_has(&m, 0, 2));
	assert_int_equal(matrix_nreal(&m, 0), 1);
	v = matrix_real(&m, 0, buf, &n);
	assert_int_equal(n, 1);
	assert_true(v[0] == 4);
	/* a full row is borrowed, not copied */
	v = matrix_real(&m, 1, buf, &n);
	assert_int_equal(n, 3);
	assert_ptr_equal(v, &m.values[3]);
	/* zeros in front are real until LKP's padding is assumed */
	assert_true(matrix_has(&m, 2, 0));
	matrix_assume_lkp_padding(&m);
	assert_false(matrix_has(&m, 2, 0));
	assert_false(matrix_has(&m, 2, 1));
	assert_true(matrix_has(&m, 2, 2));
	assert_int_equal(matrix_nreal(&m, 1), 3);
	matrix_release(&m);

	/* the writer keeps LKP's padding: 0 where a value is missing */
	{
		struct strbuf out = STRBUF_INIT;

		assert_int_equal(parse(&m, "{\"a\": [null, 4]}", &err), 0);
		matrix_to_json(&m, &out);
		assert_string_equal(out.buf, "{\n  \"a\": [0, 4]\n}\n");
		strbuf_release(&out);
		matrix_release(&m);
	}
	strbuf_release(&err);
}

/* write text to a fresh directory's matrix.json / sidecar */
static void put(const char *dir, const char *name, const char *text)
{
	struct strbuf path = STRBUF_INIT;

	path_join(&path, dir, name);
	assert_int_equal(write_file_atomic(path.buf, text, strlen(text)), 0);
	strbuf_release(&path);
}

static void test_sidecar(void **state)
{
	char dir[] = "/tmp/test_matrix.XXXXXX";
	struct matrix m, g;
	struct strbuf err = STRBUF_INIT, side = STRBUF_INIT, path = STRBUF_INIT;

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* run 1 lacks b (0 in the file); c's leading zeros are real */
	put(dir, "matrix.json",
	    "{\"b\": [1, 0, 3], \"c\": [0, 0, 5],"
	    " \"stats_source\": [\"s0\", \"s1\", \"s2\"]}");
	assert_int_equal(parse(&m, "{\"b\": [1, 0, 3], \"c\": [0, 0, 5],"
			 " \"stats_source\": [\"s0\", \"s1\", \"s2\"]}", &err), 0);
	matrix_set_missing(&m, 0, 1);
	matrix_missing_to_json(&m, &side);
	assert_string_equal(side.buf,
		"{\n  \"schema\": \"perfsift-matrix-missing/1\",\n"
		"  \"stats_source\": [\"s0\", \"s1\", \"s2\"],\n"
		"  \"missing\": {\n    \"b\": [1]\n  }\n}\n");
	put(dir, MATRIX_MISSING_FILE, side.buf);
	assert_int_equal(matrix_load_group(&g, dir, &err), 0);
	assert_false(matrix_has(&g, 0, 1));
	assert_true(matrix_has(&g, 0, 0));
	/* the sidecar is the truth: c's zeros stay real */
	assert_true(matrix_has(&g, 1, 0) && matrix_has(&g, 1, 1));
	matrix_release(&g);

	/* no sidecar: LKP's padding assumed (c's zeros), b's 0 real */
	path_join(&path, dir, MATRIX_MISSING_FILE);
	unlink(path.buf);
	assert_int_equal(matrix_load_group(&g, dir, &err), 0);
	assert_true(matrix_has(&g, 0, 1));
	assert_false(matrix_has(&g, 1, 0));
	matrix_release(&g);

	/* a sidecar of other runs (LKP appended one): not used */
	put(dir, MATRIX_MISSING_FILE,
	    "{\"schema\": \"perfsift-matrix-missing/1\", \"stats_source\":"
	    " [\"s0\", \"s1\"], \"missing\": {\"b\": [1]}}");
	assert_int_equal(matrix_load_group(&g, dir, &err), 0);
	assert_true(matrix_has(&g, 0, 1));
	assert_false(matrix_has(&g, 1, 0)); /* the assumption instead */
	matrix_release(&g);
	/* a value it calls missing is not 0: matrix.json was rewritten */
	put(dir, MATRIX_MISSING_FILE,
	    "{\"schema\": \"perfsift-matrix-missing/1\", \"stats_source\":"
	    " [\"s0\", \"s1\", \"s2\"], \"missing\": {\"b\": [0]}}");
	assert_int_equal(matrix_load_group(&g, dir, &err), 0);
	assert_true(matrix_has(&g, 0, 0));
	matrix_release(&g);

	/* not a sidecar: FILE:LINE: KEY, and no matrix */
	put(dir, MATRIX_MISSING_FILE,
	    "{\"schema\": \"perfsift-matrix-missing/1\",\n \"stats_source\":"
	    " [\"s0\", \"s1\", \"s2\"],\n \"missing\": {\"b\": [\"x\"]}}");
	strbuf_reset(&err);
	assert_int_equal(matrix_load_group(&g, dir, &err), -1);
	assert_non_null(strstr(err.buf, "matrix-missing.json:3: b: expected an array of run indices"));
	assert_int_equal(g.nstats, 0);
	put(dir, MATRIX_MISSING_FILE, "{\"schema\": 1");
	strbuf_reset(&err);
	assert_int_equal(matrix_load_group(&g, dir, &err), -1);
	assert_non_null(strstr(err.buf, "matrix-missing.json:1: "));

	unlink(path.buf);
	path_join(&path, dir, "matrix.json");
	unlink(path.buf);
	rmdir(dir);
	matrix_release(&m);
	strbuf_release(&err);
	strbuf_release(&side);
	strbuf_release(&path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shape),
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_concat),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_numbers_exact),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_missing_in_file),
		cmocka_unit_test(test_sidecar),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
