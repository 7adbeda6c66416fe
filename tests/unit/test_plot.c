/*
 * test_plot.c: the chart renderers against golden files in
 * tests/data/plot/ (regenerate with PERFSIFT_UPDATE_GOLDEN=1 and read the
 * diff), plus hand-checked facts of gnuplot's axis rule and the seed's
 * chart that hold whatever the golden files say.
 */
#include "util/compat.h"
#include <math.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "plot/plot.h"
#include "util/fileutil.h"
#include "util/strbuf.h"

/* the seed's shape: good samples about 500-520, bad about 250-276 */
static const double seed_good[23] = {
	516.2, 517.0, 518.1, 519.3, 505.4, 506.0, 507.2, 506.5, 503.9, 515.8,
	517.4, 518.0, 516.9, 505.1, 504.2, 506.3, 505.0, 507.7, 519.0, 518.2,
	517.6, 504.4, 505.9,
};
static const double seed_bad[25] = {
	252.1, 253.4, 251.0, 250.3, 248.9, 276.2, 252.2, 251.5, 253.0, 254.1,
	250.6, 251.8, 275.4, 252.7, 253.3, 250.2, 251.1, 252.6, 254.0, 253.8,
	252.9, 251.4, 250.8, 252.3, 253.6,
};

static void check_golden(const char *name, const struct strbuf *got)
{
	const char *dir = getenv("PERFSIFT_TESTDATA");
	struct strbuf path = STRBUF_INIT, want = STRBUF_INIT;

	strbuf_addf(&path, "%s/plot/%s", dir ? dir : "tests/data", name);
	if (getenv("PERFSIFT_UPDATE_GOLDEN"))
		assert_int_equal(write_file_atomic(path.buf, got->buf, got->len),
				 0);
	if (strbuf_read_file(&want, path.buf, 0) < 0)
		fail_msg("cannot read golden file '%s'", path.buf);
	if (strcmp(want.buf, got->buf))
		fail_msg("%s differs; got:\n%s", path.buf, got->buf);
	strbuf_release(&path);
	strbuf_release(&want);
}

/* line number `n` (0-based) of text, into sb */
static void line_of(struct strbuf *sb, const char *text, int n)
{
	const char *eol;

	strbuf_reset(sb);
	while (n-- > 0 && (eol = strchr(text, '\n')))
		text = eol + 1;
	eol = strchrnul(text, '\n');
	strbuf_add(sb, text, (size_t)(eol - text));
}

static void test_axis_rule(void **state)
{
	struct plot_axis ax;

	(void)state;
	/* spec §4's example: 253..518 -> step 50 -> [250, 550] */
	plot_axis_autoscale(&ax, 253, 518);
	assert_true(ax.step == 50 && ax.min == 250 && ax.max == 550);
	/* the seed: a bad sample just under 250 extends down to 200 */
	plot_axis_autoscale(&ax, 248.9, 519.3);
	assert_true(ax.step == 50 && ax.min == 200 && ax.max == 550);
	/* r = 0.09: p = 0.01, k = 9, q = 2.2 -> step 1p; ends already on tics */
	plot_axis_autoscale(&ax, 0.37, 0.46);
	assert_true(fabs(ax.step - 0.01) < 1e-12);
	assert_true(fabs(ax.min - 0.37) < 1e-12 && fabs(ax.max - 0.46) < 1e-12);
	/* r = 1.9: q = 10.5 -> 0.2 */
	plot_axis_autoscale(&ax, 0.05, 1.95);
	assert_true(fabs(ax.step - 0.2) < 1e-12 && fabs(ax.min) < 1e-12 &&
		    fabs(ax.max - 2.0) < 1e-12);
	/* r = 9000: k = 9, q = 2.2 -> 1000 */
	plot_axis_autoscale(&ax, 1500, 10500);
	assert_true(ax.step == 1000 && ax.min == 1000 && ax.max == 11000);
	/* empty range: gnuplot widens by 1% each way, or to [-1, 1] at 0 */
	plot_axis_autoscale(&ax, 500, 500);
	assert_true(ax.step == 2 && ax.min == 494 && ax.max == 506);
	plot_axis_autoscale(&ax, 0, 0);
	assert_true(ax.step == 0.5 && ax.min == -1 && ax.max == 1);
	/* negative values extend outward too */
	/* r = 19.5: k = 1.95, q = 10.3 -> 0.2p = 2 */
	plot_axis_autoscale(&ax, -7.5, 12);
	assert_true(ax.step == 2 && ax.min == -8 && ax.max == 12);
}

static void test_title(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	plot_title(&sb, "turbostat.CPU%c6");
	assert_string_equal(sb.buf, "turbostat.CPU_c6");
	strbuf_reset(&sb);
	plot_title(&sb, "meminfo.Active(anon)");
	assert_string_equal(sb.buf, "meminfo.Active_anon_");
	strbuf_reset(&sb);
	plot_title(&sb, "a:b+c=d-e_f.g \xc2\xb1");
	assert_string_equal(sb.buf, "a:b+c=d-e_f.g__");
	strbuf_release(&sb);
}

static void test_seed_chart(void **state)
{
	struct plot p;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT, l = STRBUF_INIT;

	(void)state;
	plot_init_bisect(&p, "vm-scalability.time.system_time", seed_good, 23,
			 seed_bad, 25);
	assert_int_equal(plot_ascii(&p, &out, &err), 0);
	/* facts read off the seed, independent of the golden file */
	line_of(&l, out.buf, 2);
	assert_string_equal(l.buf, "                          vm-scalability.time.system_time");
	line_of(&l, out.buf, 3);
	assert_int_equal(l.len, 77);
	assert_true(!strncmp(l.buf, "  550 ++-----", 13) && l.buf[76] == '+');
	line_of(&l, out.buf, 4);
	assert_true(!strncmp(l.buf, "      *..*..", 12));
	line_of(&l, out.buf, 5);
	assert_true(!strncmp(l.buf, "  500 ++", 8));
	line_of(&l, out.buf, 15);
	assert_true(!strncmp(l.buf, "  250 O+", 8));
	line_of(&l, out.buf, 17);
	assert_true(!strncmp(l.buf, "  200 ++-----", 13));
	line_of(&l, out.buf, 19);
	assert_int_equal(l.len, 0);
	plot_ascii_legend(&out);
	check_golden("seed-system_time.txt", &out);
	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&l);
}

static void test_small_values(void **state)
{
	/* gnuplot 5.4's example in spec §4: 4-character labels move the border */
	static const double bad[5] = {0.37, 0.38, 0.39, 0.38, 0.365};
	static const double good[5] = {0.46, 0.455, 0.45, 0.46, 0.462};
	struct plot p;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT, l = STRBUF_INIT;

	(void)state;
	plot_init_bisect(&p, "turbostat.CPU%c6", good, 5, bad, 5);
	assert_int_equal(plot_ascii(&p, &out, &err), 0);
	line_of(&l, out.buf, 2);
	assert_string_equal(l.buf, "                                 turbostat.CPU_c6");
	line_of(&l, out.buf, 3);
	assert_true(!strncmp(l.buf, "  0.47 ++---", 12));
	line_of(&l, out.buf, 17);
	assert_true(!strncmp(l.buf, "  0.36 ++---", 12));
	check_golden("turbostat-cpu-c6.txt", &out);
	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&l);
}

static void test_time_series(void **state)
{
	double v[40];
	struct plot p;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int i;

	(void)state;
	/* meminfo.Active(anon) while anon-r-seq maps its memory, then holds */
	for (i = 0; i < 40; i++)
		v[i] = i < 25 ? 120000.0 + i * 160000.0 : 4100000.0 + (i % 3) * 1000;
	v[30] = NAN; /* a missing sample breaks the line */
	plot_init_series(&p, "meminfo.Active(anon)", v, 40);
	p.width = 72;
	p.height = 16;
	assert_int_equal(plot_ascii(&p, &out, &err), 0);
	check_golden("series-active-anon.txt", &out);
	strbuf_release(&out);
	strbuf_release(&err);
}

static void test_uneven_and_constant(void **state)
{
	/* a shorter good series covers only the left part; one constant side */
	static const double good[3] = {1000, 1000, 1000};
	static const double bad[8] = {1000, 1000, 1000, 1000, 1000, 1000, 1000,
				      1000};
	static const double one[1] = {42};
	struct plot p;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	plot_init_bisect(&p, "will-it-scale.per_process_ops", good, 3, bad, 8);
	p.width = 40;
	p.height = 10;
	assert_int_equal(plot_ascii(&p, &out, &err), 0);
	plot_init_bisect(&p, "x.one", one, 1, NULL, 0);
	p.width = 40;
	p.height = 10;
	assert_int_equal(plot_ascii(&p, &out, &err), 0);
	check_golden("small-constant.txt", &out);
	strbuf_release(&out);
	strbuf_release(&err);
}

static void test_errors(void **state)
{
	static const double nan1[1] = {NAN};
	struct plot p;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	plot_init_bisect(&p, "s", seed_good, 23, seed_bad, 25);
	p.width = 10;
	assert_int_equal(plot_ascii(&p, &out, &err), -1);
	assert_non_null(strstr(err.buf, "width 10"));
	strbuf_reset(&err);
	p.width = 80;
	p.height = 3;
	assert_int_equal(plot_svg(&p, &out, &err), -1);
	assert_non_null(strstr(err.buf, "height 3"));
	strbuf_reset(&err);
	plot_init_series(&p, "empty.stat", nan1, 1);
	assert_int_equal(plot_ascii(&p, &out, &err), -1);
	assert_non_null(strstr(err.buf, "no sample"));
	assert_int_equal(out.len, 0);
	strbuf_release(&out);
	strbuf_release(&err);
}

static void test_svg(void **state)
{
	struct plot p;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	plot_init_bisect(&p, "vm-scalability.time.system_time", seed_good, 23,
			 seed_bad, 25);
	assert_int_equal(plot_svg(&p, &out, &err), 0);
	assert_true(!strncmp(out.buf, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39));
	assert_non_null(strstr(out.buf, ">550</text>"));
	assert_non_null(strstr(out.buf, ">200</text>"));
	assert_null(strstr(out.buf, ">600</text>"));
	assert_non_null(strstr(out.buf, "bisect-good sample"));
	assert_non_null(strstr(out.buf, "bisect-bad sample"));
	check_golden("seed-system_time.svg", &out);
	/* text is escaped */
	strbuf_reset(&out);
	plot_init_series(&p, "x.<script>&\"'", seed_good, 23);
	assert_int_equal(plot_svg(&p, &out, &err), 0);
	assert_null(strstr(out.buf, "<script>"));
	assert_non_null(strstr(out.buf, "x.&lt;script&gt;&amp;&quot;&#39;"));
	strbuf_release(&out);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_axis_rule),
		cmocka_unit_test(test_title),
		cmocka_unit_test(test_seed_chart),
		cmocka_unit_test(test_small_values),
		cmocka_unit_test(test_time_series),
		cmocka_unit_test(test_uneven_and_constant),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_svg),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
