/*
 * test_site.c: the dashboard's pages (history/dashboard.c) from a
 * hand-made series: every piece of text escaped (a stat, a group and a
 * commit named with markup), the Content-Security-Policy in every page,
 * the chart's parts (one hover column per commit, every run drawn,
 * outliers apart, a mark per change point), the sparkline bounded
 * whatever the series' length, the index's rows and data attributes, the
 * report links.
 */
#include "util/compat.h"
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "history/history.h"
#include "history/load.h"
#include "report/report.h"
#include "history/site.h"
#include "util/strbuf.h"

#define N 40

static double vals[2000][3];
static int runs[2000][3];
static struct history_commit commits[2000];
static char names[2000][16];

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* N commits x 3 runs, a 10% drop at commit 25 and one glitch run */
static void make_series(struct history_series *s, size_t n, const char *evil)
{
	uint64_t rng = 11;
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (i == 3)
			snprintf(names[i], sizeof(names[i]), "%s", evil);
		else
			snprintf(names[i], sizeof(names[i]), "c%zu", i);
		commits[i].commit = names[i];
		commits[i].dir = NULL;
		commits[i].group_id = (int64_t)i + 1;
		commits[i].time = (int64_t)i;
		commits[i].v = vals[i];
		commits[i].runs = runs[i];
		commits[i].n = 3;
		for (j = 0; j < 3; j++) {
			vals[i][j] = (i < 25 ? 100 : 90) + history_gauss(&rng) * 0.5;
			runs[i][j] = (int)j;
		}
	}
	vals[10][2] = 300;
	memset(s, 0, sizeof(*s));
	s->key = "tc/<pp>&\"x\"/vm/debian/defconfig/gcc-12";
	s->testcase = "tc";
	s->stat = "tc.<script>alert(1)</script>";
	s->direction = 1;
	s->is_kpi = true;
	s->commits = commits;
	s->n = n;
}

static void detect(const struct history_series *s, struct history_result *r)
{
	struct history_params p;
	struct history_point *pts = history_points(s);

	history_params_init(&p);
	history_detect(pts, s->n, &p, r);
	free(pts);
}

static void test_escaped_and_offline(void **state)
{
	struct history_series s;
	struct history_result r;
	struct site_kpi k;
	struct site_group g;
	struct site site;
	const char *links[2] = { "report-1-2.html", NULL };
	struct strbuf out = STRBUF_INIT;

	(void)state;
	make_series(&s, N, "<img src=x>");
	detect(&s, &r);
	assert_int_equal(r.nchanges, 1);
	assert_int_equal(r.noutliers, 1);
	k.s = &s;
	k.r = &r;
	k.reports = links;
	g.key = s.key;
	g.page = "group-0001.html";
	g.kpis = &k;
	g.nkpis = 1;
	site.title = "/root/<r>";
	site.groups = &g;
	site.ngroups = 1;

	site_render_index(&site, &out);
	assert_non_null(strstr(out.buf, "content=\"" REPORT_HTML_CSP "\""));
	assert_null(strstr(out.buf, "<script>alert"));
	assert_null(strstr(out.buf, "<pp>"));
	assert_null(strstr(out.buf, "<r>"));
	assert_non_null(strstr(out.buf, "tc.&lt;script&gt;alert(1)&lt;/script&gt;"));
	assert_non_null(strstr(out.buf, "tc/&lt;pp&gt;&amp;&quot;x&quot;/vm"));
	/* one row, its data, the link to the group's page */
	assert_int_equal(count(out.buf, "<tr data-index="), 1);
	assert_non_null(strstr(out.buf, "data-commits=\"40\" data-change=\""));
	assert_non_null(strstr(out.buf, "data-age=\"15\" data-effect=\"regression\""));
	assert_non_null(strstr(out.buf, "<a href=\"group-0001.html\">"));
	assert_int_equal(count(out.buf, "<svg class=\"spark\""), 1);
	assert_int_equal(count(out.buf, "<script>"), 1); /* our own only */
	/* no address to fetch anything from */
	assert_null(strstr(out.buf, "http://"));
	assert_null(strstr(out.buf, "https://"));
	assert_null(strstr(out.buf, "src="));

	strbuf_reset(&out);
	site_render_group(&site, &g, &out);
	assert_non_null(strstr(out.buf, "content=\"" REPORT_HTML_CSP "\""));
	assert_null(strstr(out.buf, "<script>alert"));
	assert_null(strstr(out.buf, "<img"));
	assert_non_null(strstr(out.buf, "&lt;img src=x&gt;"));
	assert_int_equal(count(out.buf, "<script>"), 1);
	assert_non_null(strstr(out.buf, "<a class=\"report\" href=\"report-1-2.html\">"));
	assert_int_equal(count(out.buf, "<tr class=\"cp\""), 1);
	assert_non_null(strstr(out.buf, "<a href=\"index.html\">/root/&lt;r&gt;</a>"));
	strbuf_release(&out);
	history_result_release(&r);
}

static void test_chart_parts(void **state)
{
	struct history_series s;
	struct history_result r;
	struct strbuf out = STRBUF_INIT;

	(void)state;
	make_series(&s, N, "<img src=x>");
	detect(&s, &r);
	site_chart(&out, &s, &r);
	/* a hover column per commit, naming it and its runs */
	assert_int_equal(count(out.buf, "<rect x="), N + 1); /* + the frame */
	assert_int_equal(count(out.buf, "<title>"), N + 2); /* + chart, cp */
	assert_non_null(strstr(out.buf, "<title>25: c25 "));
	assert_non_null(strstr(out.buf, "<title>3: &lt;img src=x&gt; "));
	assert_null(strstr(out.buf, "<img"));
	/* every run: 119 normal points and the outlier apart */
	assert_int_equal(count(out.buf, "h0"), N * 3);
	assert_non_null(strstr(out.buf, "<path class=\"outliers\""));
	assert_int_equal(count(out.buf, "<g class=\"cp\">"), 1);
	assert_non_null(strstr(out.buf, "regression at c25</title>"));
	/* a level line per segment */
	assert_int_equal(count(out.buf, "<line class=\"level\""), 2);
	strbuf_release(&out);
	history_result_release(&r);
}

static void test_sparkline_bounded(void **state)
{
	struct history_series s;
	struct history_result r;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	(void)state;
	make_series(&s, 2000, "c3");
	detect(&s, &r);
	site_sparkline(&a, &s, &r);
	/* 40 points at most, whatever the length */
	assert_true(a.len < 800);
	make_series(&s, 1, "c3");
	history_result_release(&r);
	detect(&s, &r);
	site_sparkline(&b, &s, &r);
	assert_non_null(strstr(b.buf, "<polyline"));
	strbuf_release(&a);
	strbuf_release(&b);
	history_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escaped_and_offline),
		cmocka_unit_test(test_chart_parts),
		cmocka_unit_test(test_sparkline_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
