/*
 * site.h: the pages of `perfsift site` -- a static, offline dashboard of
 * every KPI's history, as airspeed velocity publishes one -- rendered
 * into a caller's strbuf (no I/O): index.html (every group and KPI with
 * an inline-SVG sparkline and its latest change, filtered and sorted by a
 * few lines of plain JavaScript) and a page per group (a chart per KPI,
 * every run drawn, change points marked, the commit on hover; the change
 * points with links to the reports of their two sides).  Every page has
 * the report's Content-Security-Policy (REPORT_HTML_CSP) and every piece
 * of text from the results is escaped.
 */
#ifndef PERFSIFT_SITE_H
#define PERFSIFT_SITE_H

#include "util/compat.h"

struct strbuf;
struct history_series;
struct history_result;

/* one KPI of a group: its series, what history_detect() found */
struct site_kpi {
	const struct history_series *s;
	const struct history_result *r;
	/* per change point: the report page of its two sides, or NULL */
	const char *const *reports;
};

struct site_group {
	const char *key;   /* the group: its directory without the commit */
	const char *page;  /* its page's file name */
	const struct site_kpi *kpis;
	size_t nkpis;
};

struct site {
	const char *title; /* the result root, shown in the headings */
	const struct site_group *groups;
	size_t ngroups;
};

void site_render_index(const struct site *site, struct strbuf *out);
void site_render_group(const struct site *site, const struct site_group *g,
		       struct strbuf *out);

/* the pieces, for the tests */
void site_sparkline(struct strbuf *out, const struct history_series *s,
		    const struct history_result *r);
void site_chart(struct strbuf *out, const struct history_series *s,
		const struct history_result *r);

#endif
