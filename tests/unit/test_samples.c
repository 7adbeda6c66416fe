/*
 * test_samples.c: unit tests for samples.c (LKP's dump-stat): LKP's own
 * golden outputs for proc-vmstat and meminfo byte for byte, record
 * assembly, value rejection and the clean-up rules.
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "result/samples.h"
#include "util/strbuf.h"

static const char *testdata(void)
{
	const char *d = getenv("PERFSIFT_TESTDATA");

	return d ? d : "tests/data";
}

static void read_data(struct strbuf *sb, const char *rel)
{
	struct strbuf path = STRBUF_INIT;

	strbuf_addf(&path, "%s/%s", testdata(), rel);
	if (strbuf_read_file(sb, path.buf, 0) < 0)
		fail_msg("cannot read '%s'", path.buf);
	strbuf_release(&path);
}

static void check_golden(const char *monitor)
{
	struct strbuf in = STRBUF_INIT, want = STRBUF_INIT, got = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT, rel = STRBUF_INIT;
	struct samples s;

	strbuf_addf(&rel, "lkp-generated/%s/1.yaml", monitor);
	read_data(&in, rel.buf);
	strbuf_reset(&rel);
	strbuf_addf(&rel, "lkp-generated/%s/1.json", monitor);
	read_data(&want, rel.buf);
	samples_init(&s, monitor);
	assert_int_equal(samples_parse(&s, in.buf, in.len, "1.yaml", &err), 0);
	samples_finish(&s);
	samples_to_json(&s, &got);
	assert_int_equal(s.nrecords, 4);
	assert_int_equal(s.nrejected, 0);
	assert_string_equal(got.buf, want.buf);
	samples_release(&s);
	strbuf_release(&in);
	strbuf_release(&want);
	strbuf_release(&got);
	strbuf_release(&err);
	strbuf_release(&rel);
}

static void test_golden_proc_vmstat(void **state)
{
	(void)state;
	check_golden("proc-vmstat");
}

static void test_golden_meminfo(void **state)
{
	(void)state;
	check_golden("meminfo");
}

static void to_json(const char *group, const char *stream, struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT;
	struct samples s;

	samples_init(&s, group);
	assert_int_equal(samples_parse(&s, stream, strlen(stream), "x", &err), 0);
	samples_finish(&s);
	samples_to_json(&s, out);
	samples_release(&s);
	strbuf_release(&err);
}

static void test_records_and_types(void **state)
{
	struct strbuf got = STRBUF_INIT;

	(void)state;
	/* 'c' appears late, 'b' skips a record; 1e5 is a float (Q16) */
	to_json("m",
		"# comment: 1\n"
		"a: 1\nb: 2.5\n"
		"a: 2\nc: 1e5\n"
		"a: 3\nb: 4\nc: 7\n"
		"no separator here\n"
		"empty: \n",
		&got);
	assert_string_equal(got.buf,
		"{\n"
		"  \"m.a\": [\n    1,\n    2,\n    3\n  ],\n"
		"  \"m.b\": [\n    2.5,\n    null,\n    4\n  ],\n"
		"  \"m.c\": [\n    null,\n    100000.0,\n    7\n  ]\n"
		"}");
	strbuf_release(&got);
}

static void test_rejected_value_drops_only_itself(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct samples s;
	const struct samples_key *k;
	const char *in = "cpu.us: 50\ncpu.sy: 10\n"
			 "cpu.us: 500\ncpu.sy: 11\n"   /* out of [0,110] */
			 "cpu.us: 40\ncpu.sy: abc\n";  /* not a number */

	(void)state;
	samples_init(&s, "vmstat");
	assert_int_equal(samples_parse(&s, in, strlen(in), "x", &err), 0);
	samples_finish(&s);
	assert_int_equal(s.nrejected, 2);
	assert_int_equal(s.nrecords, 3);
	k = samples_find(&s, "vmstat.cpu.us");
	assert_non_null(k);
	assert_int_equal(k->n, 3);
	assert_int_equal(k->type[1], SAMPLES_ABSENT);
	assert_true(k->v[2] == 40);
	k = samples_find(&s, "vmstat.cpu.sy");
	assert_int_equal(k->type[1], SAMPLES_INT);
	assert_int_equal(k->type[2], SAMPLES_ABSENT);
	samples_release(&s);
	strbuf_release(&err);
}

static void test_whitespace_in_key_is_fatal(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct samples s;
	const char *in = "ok: 1\nbad key: 2\n";

	(void)state;
	samples_init(&s, "m");
	assert_int_equal(samples_parse(&s, in, strlen(in), "raw", &err), -1);
	assert_string_equal(err.buf, "raw:2: bad key: whitespace in a stat name");
	samples_release(&s);
	strbuf_release(&err);
}

static void test_zero_keys_and_partial_record(void **state)
{
	struct strbuf got = STRBUF_INIT;

	(void)state;
	/* z is all zero: dropped; the last record lacks b: cut */
	to_json("m", "a: 1\nb: 1\nz: 0\na: 2\nb: 2\nz: 0\na: 3\n", &got);
	assert_string_equal(got.buf,
		"{\n"
		"  \"m.a\": [\n    1,\n    2\n  ],\n"
		"  \"m.b\": [\n    1,\n    2\n  ]\n"
		"}");
	strbuf_reset(&got);
	/* unstructured monitors keep ragged arrays */
	to_json("meminfo", "a: 1\nb: 1\na: 2\nb: 2\na: 3\n", &got);
	assert_non_null(strstr(got.buf, "    2,\n    3\n"));
	strbuf_reset(&got);
	/* an all-zero key with a non-zero middle is kept (dump-stat's rule) */
	to_json("m", "a: 0\na: 5\na: 0\n", &got);
	assert_non_null(strstr(got.buf, "\"m.a\""));
	strbuf_reset(&got);
	to_json("m", "", &got);
	assert_string_equal(got.buf, "{}");
	strbuf_release(&got);
}

static void test_ruby_numbers(void **state)
{
	static const struct {
		double v;
		bool is_int;
		const char *want;
	} cases[] = {
		{1, false, "1.0"},
		{1.16, false, "1.16"},
		{0.1, false, "0.1"},
		{-2.5, false, "-2.5"},
		{1e15, false, "1000000000000000.0"},
		{1e16, false, "1.0e+16"},
		{1.5e20, false, "1.5e+20"},
		{0.0001, false, "0.0001"},
		{0.00001, false, "1.0e-05"},
		{123456.789, false, "123456.789"},
		{0, false, "0.0"},
		{42, true, "42"},
		{-7, true, "-7"},
		{1.0 / 3, false, "0.3333333333333333"},
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		strbuf_reset(&sb);
		samples_add_number(&sb, cases[i].v, cases[i].is_int);
		assert_string_equal(sb.buf, cases[i].want);
	}
	strbuf_release(&sb);
}

/* LKP's own meminfo.json read back and written again: byte for byte */
static void test_load_json_round_trip(void **state)
{
	struct strbuf in = STRBUF_INIT, got = STRBUF_INIT, err = STRBUF_INIT;
	const struct samples_key *k;
	struct samples s;

	(void)state;
	read_data(&in, "lkp-generated/meminfo/1.json");
	samples_init(&s, "meminfo");
	assert_int_equal(samples_load_json(&s, in.buf, in.len, "m.json", &err), 0);
	assert_int_equal(s.nrecords, 4);
	k = samples_find(&s, "meminfo.MemFree");
	assert_non_null(k);
	assert_int_equal(k->n, 4);
	assert_int_equal(k->type[0], SAMPLES_INT);
	samples_to_json(&s, &got);
	assert_string_equal(got.buf, in.buf);
	samples_release(&s);
	strbuf_release(&in);
	strbuf_release(&got);
	strbuf_release(&err);
}

static void test_load_json_types_and_errors(void **state)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{"[1]", "x.json: not a <monitor>.json (expected an object)"},
		{"{\"m.a\": 1}", "x.json: m.a: expected an array of samples"},
		{"{\"other.a\": [1]}", "x.json: other.a: not a stat of 'm'"},
		{"{\"m.\": [1]}", "x.json: m.: an empty part in a stat name"},
		/* outside text never reaches a terminal raw (issue 25 F10) */
		{"{\"m.\\u001b[2Ja\": [1]}",
		 "x.json: m.\\x1b[2Ja: a control character in a stat name"},
		{"{\"m.a\": [1, \"x\"]}", "x.json: m.a[1]: not a number"},
		{"{\"m.a\": [1,", "x.json:1: "},
	};
	const char *ok = "{\"m.a\": [1, 2.5, null, 18446744073709551615]}";
	struct strbuf err = STRBUF_INIT;
	const struct samples_key *k;
	struct samples s;
	size_t i;

	(void)state;
	samples_init(&s, "m");
	assert_int_equal(samples_load_json(&s, ok, strlen(ok), "x.json", &err), 0);
	k = samples_find(&s, "m.a");
	assert_non_null(k);
	assert_int_equal(k->n, 4);
	/* a counter above INT64_MAX is valid JSON: read as a float */
	assert_int_equal(k->type[0], SAMPLES_FLOAT);
	assert_int_equal(k->type[2], SAMPLES_ABSENT);
	assert_true(k->v[1] == 2.5 && k->v[3] > 1.8e19);
	samples_release(&s);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		strbuf_reset(&err);
		samples_init(&s, "m");
		assert_int_equal(samples_load_json(&s, bad[i].text,
						   strlen(bad[i].text), "x.json",
						   &err), -1);
		assert_non_null(strstr(err.buf, bad[i].err));
		samples_release(&s);
	}
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_proc_vmstat),
		cmocka_unit_test(test_golden_meminfo),
		cmocka_unit_test(test_records_and_types),
		cmocka_unit_test(test_rejected_value_drops_only_itself),
		cmocka_unit_test(test_whitespace_in_key_is_fatal),
		cmocka_unit_test(test_zero_keys_and_partial_record),
		cmocka_unit_test(test_ruby_numbers),
		cmocka_unit_test(test_load_json_round_trip),
		cmocka_unit_test(test_load_json_types_and_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
