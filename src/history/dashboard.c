/*
 * dashboard.c: the dashboard's pages (site.h).  Charts are drawn here rather
 * than by plot_svg(): every run of every commit is a point (a commit has
 * several), change points are marked and each commit column carries its
 * runs as a hover title -- but the y axis is gnuplot's, as plot_svg's
 * (plot_axis_autoscale), and the numbers are the report's
 * (report_format_value).  Points are drawn as one path of zero-length
 * round-capped strokes per series, so a 500-commit chart stays small.
 */
#include "util/compat.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "history/history.h"
#include "history/load.h"
#include "plot/plot.h"
#include "report/report.h"
#include "history/site.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define SPARK_W 120
#define SPARK_H 24
#define SPARK_POINTS 40 /* buckets: the index stays small for 1,000s of KPIs */
#define CHART_W 960
#define CHART_H 280
#define CHART_L 76
#define CHART_R 16
#define CHART_T 16
#define CHART_B 44
#define XLABEL_W 72  /* room for one commit label (10 digits of a sha) */

static const char page_css[] =
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;"
	"margin:0 auto;max-width:1200px;padding:16px 24px;color:#1d1d1f;background:#fff}\n"
	"h1{font-size:20px;margin:8px 0 4px}h2{font-size:16px;margin:24px 0 6px}\n"
	"code,.num,.name{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:13px}\n"
	".improvement{color:#1a7f37;font-weight:600}.regression{color:#c0392b;font-weight:600}\n"
	".undefined{color:#8a5a00;font-weight:600}.muted{color:#777}\n"
	"table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left;vertical-align:middle}\n"
	"th{background:#f0f0f0}th[data-sort]{cursor:pointer;user-select:none}\n"
	"tr:nth-child(even){background:#fafafa}.num{text-align:right;white-space:nowrap}\n"
	".name{word-break:break-all}.controls{margin:8px 0}\n"
	".controls input,.controls select{font:inherit;padding:3px 6px}\n"
	".controls input{width:22em}svg.chart{max-width:100%;height:auto;border:1px solid #eee}\n"
	"footer{margin-top:32px;color:#666;font-size:12px}\n";

/* filter by name, only changed / regressions / improvements, sort by column */
static const char index_js[] =
	"(function(){\n"
	"var tb=document.querySelector('#kpis tbody');if(!tb)return;\n"
	"var f=document.getElementById('filter'),o=document.getElementById('only'),\n"
	" cnt=document.getElementById('count'),key='',dir=1;\n"
	"function show(){var q=f.value.toLowerCase(),w=o.value,n=0;\n"
	" for(var i=0;i<tb.rows.length;i++){var r=tb.rows[i],e=r.getAttribute('data-effect');\n"
	"  var h=r.cells[0].textContent.toLowerCase().indexOf(q)<0||\n"
	"   (w=='changed'&&e=='none')||(w!='all'&&w!='changed'&&e!=w);\n"
	"  r.hidden=h;if(!h)n++;}\n"
	" cnt.textContent=n+' of '+tb.rows.length+' KPIs shown';}\n"
	"function sort(k,d){var rs=Array.prototype.slice.call(tb.rows);key=k;dir=d;\n"
	" rs.sort(function(a,b){var x=a.getAttribute('data-'+k),y=b.getAttribute('data-'+k);\n"
	"  if(k=='name'){x=a.cells[0].textContent;y=b.cells[0].textContent;}else{x=+x;y=+y;}\n"
	"  return x<y?-dir:x>y?dir:a.getAttribute('data-index')-b.getAttribute('data-index');});\n"
	" rs.forEach(function(r){tb.appendChild(r);});}\n"
	"f.addEventListener('input',show);o.addEventListener('change',show);\n"
	"Array.prototype.forEach.call(document.querySelectorAll('th[data-sort]'),function(th){\n"
	" th.addEventListener('click',function(){var k=th.getAttribute('data-sort');\n"
	"  sort(k,key==k?-dir:1);});});\n"
	"location.hash.replace(/^#/,'').split('&').forEach(function(kv){\n"
	" var i=kv.indexOf('='),k=kv.slice(0,i),v=decodeURIComponent(kv.slice(i+1));\n"
	" if(k=='filter')f.value=v;if(k=='only')o.value=v;\n"
	" if(k=='sort'){var d=v.charAt(0)=='-'?-1:1;sort(d<0?v.slice(1):v,d);}});\n"
	"show();\n"
	"})();\n";

/* a group page: filter the KPI sections by name */
static const char group_js[] =
	"(function(){\n"
	"var f=document.getElementById('filter'),cnt=document.getElementById('count');if(!f)return;\n"
	"var ss=document.querySelectorAll('section.kpi');\n"
	"function show(){var q=f.value.toLowerCase(),n=0;\n"
	" for(var i=0;i<ss.length;i++){var h=ss[i].getAttribute('data-name').toLowerCase().indexOf(q)<0;\n"
	"  ss[i].hidden=h;if(!h)n++;}\n"
	" cnt.textContent=n+' of '+ss.length+' KPIs shown';}\n"
	"f.addEventListener('input',show);\n"
	"location.hash.replace(/^#/,'').split('&').forEach(function(kv){\n"
	" var i=kv.indexOf('=');if(kv.slice(0,i)=='filter')f.value=decodeURIComponent(kv.slice(i+1));});\n"
	"show();\n"
	"})();\n";

/* the report's page head (report/html.c), with the site's stylesheet */
static void page_head(struct strbuf *out, const char *title)
{
	report_html_head(out, title, page_css);
}

static void page_foot(struct strbuf *out, const char *js)
{
	strbuf_addstr(out, "<footer>Made by perfsift site: change points by "
		      "E-Divisive means (docs/history.md).</footer>\n<script>\n");
	strbuf_addstr(out, js);
	strbuf_addstr(out, "</script>\n</body>\n</html>\n");
}

/*
 * A coordinate with one decimal, as "%.1f" would print it but without
 * printf: a 500-commit chart has thousands, and a site of 1,000 groups
 * millions (printf's float conversion was a fifth of `site`'s time).
 */
static void add_coord(struct strbuf *out, double v)
{
	char buf[32], *p = buf + sizeof(buf);
	long long t = llround(v * 10);
	bool neg = t < 0;
	unsigned long long u = neg ? (unsigned long long)-t : (unsigned long long)t;

	if (!isfinite(v) || fabs(v) > 1e15) {
		strbuf_addf(out, "%.1f", v);
		return;
	}
	*--p = (char)('0' + u % 10);
	*--p = '.';
	u /= 10;
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (neg)
		*--p = '-';
	strbuf_add(out, p, (size_t)(buf + sizeof(buf) - p));
}

/* a commit as the report shortens it (10 digits of a sha), escaped */
static void add_commit(struct strbuf *out, const char *commit)
{
	struct strbuf sb = STRBUF_INIT;

	report_short_commit(&sb, commit);
	strbuf_add_html(out, sb.buf);
	strbuf_release(&sb);
}

/*
 * A commit's level is the mean of its finite runs: a run without the
 * stat (NAN) is no value, not a zero, and a commit with none has no level.
 */
static double commit_mean(const struct history_commit *c)
{
	double s = 0;
	size_t i, n = 0;

	for (i = 0; i < c->n; i++)
		if (isfinite(c->v[i])) {
			s += c->v[i];
			n++;
		}
	return n ? s / (double)n : NAN;
}

/* "regression", "improvement" or "change", also the CSS class it is drawn in */
static const char *effect_of(const struct history_series *s,
			     const struct history_change *c)
{
	return history_effect(s->direction, c->change_pct);
}

static void add_change(struct strbuf *out, const struct history_series *s,
		       const struct history_change *c)
{
	strbuf_addf(out, "<span class=\"%s\">%+.1f%%</span>", effect_of(s, c),
		    c->change_pct);
}

/* ---- sparkline ---- */

/*
 * The index's small chart: the commits' means bucketed into at most
 * SPARK_POINTS points, so a series of 5,000 commits costs the page the
 * same few hundred bytes as one of 50, and the change points as ticks.
 * Its y range is the buckets' own (a sparkline shows shape, not scale);
 * a flat series is drawn in the middle, not divided by zero.
 */
void site_sparkline(struct strbuf *out, const struct history_series *s,
		    const struct history_result *r)
{
	double m[SPARK_POINTS], lo = INFINITY, hi = -INFINITY;
	size_t nb = s->n < SPARK_POINTS ? s->n : SPARK_POINTS, b, i;
	bool first = true;

	/* bucket means of the commit means: at most SPARK_POINTS points */
	for (b = 0; b < nb; b++) {
		size_t i0 = b * s->n / nb, i1 = (b + 1) * s->n / nb, k = 0;
		double sum = 0;

		for (i = i0; i < i1; i++) {
			double v = commit_mean(&s->commits[i]);

			if (isfinite(v)) {
				sum += v;
				k++;
			}
		}
		m[b] = k ? sum / (double)k : NAN;
		if (k && m[b] < lo)
			lo = m[b];
		if (k && m[b] > hi)
			hi = m[b];
	}
	strbuf_addf(out, "<svg class=\"spark\" width=\"%d\" height=\"%d\" "
		    "viewBox=\"0 0 %d %d\" role=\"img\"><title>", SPARK_W, SPARK_H,
		    SPARK_W, SPARK_H);
	strbuf_add_html(out, s->stat);
	strbuf_addf(out, ": %zu commits</title>", s->n);
	if (!(hi >= lo)) {
		strbuf_addstr(out, "</svg>");
		return;
	}
	if (hi == lo) {
		hi += 1;
		lo -= 1;
	}
	strbuf_addstr(out, "<polyline fill=\"none\" stroke=\"#1f5fbf\" "
		      "stroke-width=\"1.5\" points=\"");
	for (b = 0; b < nb; b++) {
		if (!isfinite(m[b]))
			continue;
		strbuf_addf(out, "%s%.0f,%.0f", first ? "" : " ",
			    nb > 1 ? (double)b * (SPARK_W - 2) / (double)(nb - 1) + 1 :
				     SPARK_W / 2.0,
			    (SPARK_H - 2) - (m[b] - lo) / (hi - lo) * (SPARK_H - 4));
		first = false;
	}
	strbuf_addstr(out, "\"/>");
	/* the change points, as ticks along the bottom */
	for (i = 0; i < r->nchanges; i++) {
		double x = s->n > 1 ? (double)r->changes[i].index * (SPARK_W - 2) /
				      (double)(s->n - 1) + 1 : SPARK_W / 2.0;

		strbuf_addf(out, "<line class=\"cp\" x1=\"%.0f\" y1=\"%d\" x2=\"%.0f\" "
			    "y2=\"%d\" stroke=\"#c0392b\" stroke-width=\"1.5\"/>",
			    x, SPARK_H - 6, x, SPARK_H);
	}
	strbuf_addstr(out, "</svg>");
}

/* ---- the chart of a group page ---- */

struct frame {
	double x0, x1, y0, y1, min, max;
	size_t n;
};

/* commit i's x (a lone commit in the middle); fy: a value's y, up is more */
static double fx(const struct frame *f, double i)
{
	if (f->n < 2)
		return (f->x0 + f->x1) / 2;
	return f->x0 + i / (double)(f->n - 1) * (f->x1 - f->x0);
}

static double fy(const struct frame *f, double v)
{
	return f->y1 - (v - f->min) / (f->max - f->min) * (f->y1 - f->y0);
}

/*
 * The chart's frame: y autoscaled on gnuplot's steps over every finite
 * run value (not the means: an outlier must stay inside the chart).
 */
static void chart_frame(const struct history_series *s, struct plot_axis *ax,
			struct frame *f)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t i, j;

	for (i = 0; i < s->n; i++)
		for (j = 0; j < s->commits[i].n; j++) {
			double v = s->commits[i].v[j];

			if (isfinite(v) && v < lo)
				lo = v;
			if (isfinite(v) && v > hi)
				hi = v;
		}
	if (!(hi >= lo))
		lo = hi = 0;
	plot_axis_autoscale(ax, lo, hi);
	f->x0 = CHART_L;
	f->x1 = CHART_W - CHART_R;
	f->y0 = CHART_T;
	f->y1 = CHART_H - CHART_B;
	f->min = ax->min;
	/* a flat series still gets a y range to draw in */
	f->max = ax->max > ax->min ? ax->max : ax->min + 1;
	f->n = s->n;
}

/* the svg element, its title, the y tics and grid, the frame and x label */
static void chart_axes(struct strbuf *out, const struct history_series *s,
		       const struct plot_axis *ax, const struct frame *f)
{
	double t;

	strbuf_addf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" "
		    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
		    "font-family=\"sans-serif\" font-size=\"12\">\n<title>",
		    CHART_W, CHART_H, CHART_W, CHART_H);
	strbuf_add_html(out, s->stat);
	strbuf_addf(out, "</title>\n<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n",
		    CHART_W, CHART_H);
	/* y tics on gnuplot's steps, light grid lines */
	strbuf_addstr(out, "<g class=\"yaxis\">");
	for (t = ax->min; ax->step > 0 && t <= ax->max + ax->step * 1e-9;
	     t += ax->step) {
		double y = fy(f, t);

		strbuf_addf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			    "stroke=\"#e4e4e4\"/><text x=\"%.1f\" y=\"%.1f\" "
			    "text-anchor=\"end\" dominant-baseline=\"middle\">",
			    f->x0, y, f->x1, y, f->x0 - 6, y);
		/* a tic that misses 0 by rounding is labelled 0 */
		report_format_value(out, fabs(t) < ax->step * 1e-9 ? 0 : t);
		strbuf_addstr(out, "</text>");
	}
	strbuf_addstr(out, "</g>\n");
	strbuf_addf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		    "fill=\"none\" stroke=\"#000\"/>\n", f->x0, f->y0, f->x1 - f->x0,
		    f->y1 - f->y0);
	strbuf_addf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
		    "fill=\"#555\">%zu commits, oldest to newest</text>\n",
		    (f->x0 + f->x1) / 2, CHART_H - 6, s->n);
}

/* one x label: a tic and the commit's short id under it */
static void xlabel(struct strbuf *out, const struct history_series *s,
		   const struct frame *f, size_t i, bool cp)
{
	double x = fx(f, (double)i);

	strbuf_addf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		    "stroke=\"#000\"/><text x=\"%.1f\" y=\"%.1f\" "
		    "text-anchor=\"middle\"%s>", x, f->y1, x, f->y1 + 4, x,
		    f->y1 + 16, cp ? " fill=\"#c0392b\"" : "");
	add_commit(out, s->commits[i].commit);
	strbuf_addstr(out, "</text>");
}

/*
 * The x axis: commit labels -- every change point's first commit (in
 * red: where the level moved), then the oldest, the newest and evenly
 * spaced ones wherever a label fits beside those already placed.
 */
static void chart_xaxis(struct strbuf *out, const struct history_series *s,
			const struct history_result *r, const struct frame *f)
{
	size_t nslots = (size_t)((f->x1 - f->x0) / XLABEL_W) + 1, k, i;
	double *at = xcalloc(r->nchanges + nslots + 2, sizeof(*at));
	size_t nat = 0;

	if (!s->n) {
		free(at);
		return;
	}
	strbuf_addstr(out, "<g class=\"xaxis\">");
	/* the change points, the oldest and the newest, then the rest */
	for (k = 0; k < r->nchanges + 2 + nslots; k++) {
		size_t idx;
		double x;
		bool room = true;

		if (k < r->nchanges)
			idx = r->changes[k].index;
		else if (k == r->nchanges)
			idx = 0;
		else if (k == r->nchanges + 1)
			idx = s->n - 1;
		else if (nslots > 1)
			idx = (size_t)llround((double)(k - r->nchanges - 2) *
					      (double)(s->n - 1) /
					      (double)(nslots - 1));
		else
			continue;
		x = fx(f, (double)idx);
		for (i = 0; i < nat; i++)
			room = room && fabs(at[i] - x) >= XLABEL_W;
		if (!room)
			continue;
		xlabel(out, s, f, idx, k < r->nchanges);
		at[nat++] = x;
	}
	strbuf_addstr(out, "</g>\n");
	free(at);
}

/* the level of each segment between change points: the mean of its means */
static void chart_levels(struct strbuf *out, const struct history_series *s,
			 const struct history_result *r, const struct frame *f)
{
	size_t i, k, seg0;

	for (k = 0, seg0 = 0; k <= r->nchanges; k++) {
		size_t seg1 = k < r->nchanges ? r->changes[k].index : s->n, nm = 0;
		double sum = 0;

		for (i = seg0; i < seg1; i++) {
			double v = commit_mean(&s->commits[i]);

			if (isfinite(v)) {
				sum += v;
				nm++;
			}
		}
		if (nm)
			strbuf_addf(out, "<line class=\"level\" x1=\"%.1f\" y1=\"%.1f\" "
				    "x2=\"%.1f\" y2=\"%.1f\" stroke=\"#f0a030\" "
				    "stroke-width=\"2\"/>\n", fx(f, (double)seg0),
				    fy(f, sum / (double)nm),
				    fx(f, (double)(seg1 - 1)), fy(f, sum / (double)nm));
		seg0 = seg1;
	}
}

/*
 * Every run as a dot: the normal ones, then the outliers on top.  One
 * path a class (a zero-length round-capped stroke a dot), not an element
 * a run: a series of thousands of runs stays a small page.
 */
static void chart_runs(struct strbuf *out, const struct history_series *s,
		       const struct history_result *r, const struct frame *f)
{
	size_t i, j;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		bool any = false;

		for (i = 0; i < s->n; i++)
			for (j = 0; j < s->commits[i].n; j++) {
				double v = s->commits[i].v[j];

				if (!isfinite(v) || history_is_outlier(r, i, j) != (pass == 1))
					continue;
				if (!any)
					strbuf_addf(out, "<path class=\"%s\" fill=\"none\" "
						    "stroke=\"%s\" stroke-width=\"%s\" "
						    "stroke-linecap=\"round\" d=\"",
						    pass ? "outliers" : "runs",
						    pass ? "#c0392b" : "#1f5fbf",
						    pass ? "7" : "4");
				any = true;
				strbuf_addch(out, 'M');
				add_coord(out, fx(f, (double)i));
				strbuf_addch(out, ' ');
				add_coord(out, fy(f, v));
				strbuf_addstr(out, "h0");
			}
		if (any)
			strbuf_addstr(out, "\"/>\n");
	}
}

/* the change points, between their two commits, each with its effect */
static void chart_changes(struct strbuf *out, const struct history_series *s,
			  const struct history_result *r, const struct frame *f)
{
	size_t k;

	for (k = 0; k < r->nchanges; k++) {
		const struct history_change *c = &r->changes[k];
		double x = fx(f, (double)c->index - 0.5);

		strbuf_addf(out, "<g class=\"cp\"><line x1=\"%.1f\" y1=\"%.1f\" "
			    "x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c0392b\" "
			    "stroke-dasharray=\"4 3\" stroke-width=\"1.5\"/><title>",
			    x, f->y0, x, f->y1);
		strbuf_addf(out, "%+.1f%% %s at ", c->change_pct, effect_of(s, c));
		strbuf_add_html(out, s->commits[c->index].commit);
		strbuf_addstr(out, "</title></g>\n");
	}
}

/* a hover column per commit: its id and runs, in the browser's own tooltip */
static void chart_hover(struct strbuf *out, const struct history_series *s,
			const struct frame *f)
{
	size_t i, j;

	strbuf_addstr(out, "<g class=\"hover\" fill=\"transparent\">");
	for (i = 0; i < s->n; i++) {
		double w = s->n > 1 ? (f->x1 - f->x0) / (double)(s->n - 1) : f->x1 - f->x0;
		const struct history_commit *c = &s->commits[i];

		strbuf_addstr(out, "<rect x=\"");
		add_coord(out, fx(f, (double)i) - w / 2);
		strbuf_addstr(out, "\" y=\"");
		add_coord(out, f->y0);
		strbuf_addstr(out, "\" width=\"");
		add_coord(out, w);
		strbuf_addstr(out, "\" height=\"");
		add_coord(out, f->y1 - f->y0);
		strbuf_addf(out, "\"><title>%zu: ", i);
		add_commit(out, c->commit);
		strbuf_addstr(out, " ");
		for (j = 0; j < c->n; j++) {
			strbuf_addstr(out, j ? ", " : "");
			report_format_value(out, c->v[j]);
		}
		strbuf_addstr(out, "</title></rect>");
	}
	strbuf_addstr(out, "</g>\n");
}

/* one series' chart, drawn in layers from the back to the front */
void site_chart(struct strbuf *out, const struct history_series *s,
		const struct history_result *r)
{
	struct plot_axis ax;
	struct frame f;

	chart_frame(s, &ax, &f);
	chart_axes(out, s, &ax, &f);
	chart_xaxis(out, s, r, &f);
	chart_levels(out, s, r, &f);
	chart_runs(out, s, r, &f);
	chart_changes(out, s, r, &f);
	chart_hover(out, s, &f);
	strbuf_addstr(out, "</svg>\n");
}

/* ---- the pages ---- */

/* the change points are in commit order: the last is the latest */
static const struct history_change *latest(const struct site_kpi *k)
{
	return k->r->nchanges ? &k->r->changes[k->r->nchanges - 1] : NULL;
}

/* one change point of the index's list of regressions */
struct site_regression {
	const struct site_group *g;
	const struct site_kpi *k;
	size_t i; /* the change point */
	int64_t time;
};

/* newest first: the change commit's time (its position with --repo) */
static int cmp_regression(const void *a, const void *b)
{
	const struct site_regression *x = a, *y = b;

	if (x->time != y->time)
		return x->time > y->time ? -1 : 1;
	if (x->g != y->g)
		return x->g < y->g ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

/*
 * The regressions: every change point whose direction (the job's
 * declared KPI's, else LKP's tables) makes it one, newest first --
 * what a reader of the dashboard looks for first.
 */
static void index_regressions(const struct site *site, struct strbuf *out)
{
	struct site_regression *v = NULL;
	size_t n = 0, alloc = 0, g, k, i;

	for (g = 0; g < site->ngroups; g++)
		for (k = 0; k < site->groups[g].nkpis; k++) {
			const struct site_kpi *kp = &site->groups[g].kpis[k];

			for (i = 0; i < kp->r->nchanges; i++) {
				const struct history_change *c = &kp->r->changes[i];

				if (strcmp(effect_of(kp->s, c), "regression"))
					continue;
				ALLOC_GROW(v, n + 1, alloc);
				v[n].g = &site->groups[g];
				v[n].k = kp;
				v[n].i = i;
				v[n].time = kp->s->commits[c->index].time;
				n++;
			}
		}
	strbuf_addf(out, "<section id=\"regressions\">\n<h2>Regressions, newest "
		    "first (%zu)</h2>\n", n);
	if (!n) {
		strbuf_addstr(out, "<p class=\"muted\">None.</p>\n</section>\n");
		return;
	}
	qsort(v, n, sizeof(*v), cmp_regression);
	strbuf_addstr(out, "<table class=\"cps\">\n<tr><th>commit</th>"
		      "<th>previous</th><th>group / KPI</th>"
		      "<th class=\"num\">change</th><th class=\"num\">95% interval</th>"
		      "<th>report</th></tr>\n");
	for (i = 0; i < n; i++) {
		const struct history_series *s = v[i].k->s;
		const struct history_change *c = &v[i].k->r->changes[v[i].i];

		strbuf_addstr(out, "<tr class=\"reg\"><td><code>");
		add_commit(out, s->commits[c->index].commit);
		strbuf_addstr(out, "</code></td><td><code>");
		add_commit(out, s->commits[c->index - 1].commit);
		strbuf_addstr(out, "</code></td><td><a href=\"");
		strbuf_add_html(out, v[i].g->page);
		strbuf_addstr(out, "\">");
		strbuf_add_html(out, v[i].g->key);
		strbuf_addstr(out, "</a><br><code>");
		strbuf_add_html(out, s->stat);
		strbuf_addstr(out, "</code></td><td class=\"num\">");
		add_change(out, s, c);
		strbuf_addf(out, "</td><td class=\"num\">[%+.1f%%, %+.1f%%]</td><td>",
			    c->ci_lo, c->ci_hi);
		if (v[i].k->reports && v[i].k->reports[v[i].i]) {
			strbuf_addstr(out, "<a class=\"report\" href=\"");
			strbuf_add_html(out, v[i].k->reports[v[i].i]);
			strbuf_addstr(out, "\">report</a>");
		} else {
			strbuf_addstr(out, "<span class=\"muted\">none</span>");
		}
		strbuf_addstr(out, "</td></tr>\n");
	}
	strbuf_addstr(out, "</table>\n</section>\n");
	free(v);
}

/*
 * index.html: the regressions first, then one row per KPI of every group
 * with its sparkline and its latest change.  The rows carry their sort
 * keys as data attributes so the page's script sorts and filters without
 * parsing the text it shows; the page works without the script too,
 * since every value is also in the table.
 */
void site_render_index(const struct site *site, struct strbuf *out)
{
	struct strbuf title = STRBUF_INIT;
	size_t g, k, nk = 0, ncp = 0, row = 0;

	for (g = 0; g < site->ngroups; g++) {
		nk += site->groups[g].nkpis;
		for (k = 0; k < site->groups[g].nkpis; k++)
			ncp += site->groups[g].kpis[k].r->nchanges;
	}
	strbuf_addstr(&title, "perfsift: ");
	strbuf_addstr(&title, site->title);
	page_head(out, title.buf);
	strbuf_addstr(out, "<header>\n<h1>");
	strbuf_add_html(out, title.buf);
	strbuf_addf(out, "</h1>\n<p>%zu groups, %zu KPIs, %zu change points.</p>\n"
		    "</header>\n", site->ngroups, nk, ncp);
	strbuf_addstr(out, "<div class=\"controls\"><input id=\"filter\" type=\"search\" "
		      "placeholder=\"filter by group or KPI\"> <select id=\"only\">"
		      "<option value=\"all\">every KPI</option>"
		      "<option value=\"changed\">with a change point</option>"
		      "<option value=\"regression\">latest change a regression</option>"
		      "<option value=\"improvement\">latest change an improvement</option>"
		      "</select> <span id=\"count\"></span></div>\n");
	index_regressions(site, out);
	strbuf_addstr(out, "<h2>Every KPI</h2>\n<table id=\"kpis\">\n<thead><tr>"
		      "<th data-sort=\"name\">group / KPI</th>"
		      "<th data-sort=\"commits\" class=\"num\">commits</th>"
		      "<th>history</th>"
		      "<th data-sort=\"change\" class=\"num\">latest change</th>"
		      "<th data-sort=\"age\" class=\"num\">commits since</th>"
		      "<th class=\"num\">latest</th></tr></thead>\n<tbody>\n");
	for (g = 0; g < site->ngroups; g++) {
		const struct site_group *sg = &site->groups[g];

		for (k = 0; k < sg->nkpis; k++, row++) {
			const struct site_kpi *kp = &sg->kpis[k];
			const struct history_series *s = kp->s;
			const struct history_change *c = latest(kp);

			strbuf_addf(out, "<tr data-index=\"%zu\" data-commits=\"%zu\" data-change=\"%.6g\" "
				    "data-age=\"%zu\" data-effect=\"%s\">", row, s->n,
				    c ? fabs(c->change_pct) : 0,
				    c ? s->n - c->index : s->n + 1,
				    c ? effect_of(s, c) : "none");
			strbuf_addstr(out, "<td class=\"name\"><a href=\"");
			strbuf_add_html(out, sg->page);
			strbuf_addstr(out, "\">");
			strbuf_add_html(out, sg->key);
			strbuf_addstr(out, "</a><br><code>");
			strbuf_add_html(out, s->stat);
			strbuf_addf(out, "</code></td><td class=\"num\">%zu</td><td>", s->n);
			site_sparkline(out, s, kp->r);
			strbuf_addstr(out, "</td><td class=\"num\">");
			if (c) {
				add_change(out, s, c);
				strbuf_addstr(out, " at <code>");
				add_commit(out, s->commits[c->index].commit);
				strbuf_addf(out, "</code></td><td class=\"num\">%zu",
					    s->n - c->index);
			} else {
				strbuf_addstr(out, "<span class=\"muted\">none</span>"
					      "</td><td class=\"num\">");
			}
			strbuf_addstr(out, "</td><td class=\"num\">");
			if (s->n)
				report_format_value(out, commit_mean(&s->commits[s->n - 1]));
			strbuf_addstr(out, "</td></tr>\n");
		}
	}
	strbuf_addstr(out, "</tbody>\n</table>\n");
	page_foot(out, index_js);
	strbuf_release(&title);
}

static const char *better(int direction)
{
	return direction > 0 ? "higher is better" : direction < 0 ?
	       "lower is better" : "direction unknown";
}

/*
 * A group's page: each KPI's chart and its change points in a table,
 * with the direction that made each a regression or an improvement said
 * outright, so a reader can check the verdict against the job's intent.
 */
void site_render_group(const struct site *site, const struct site_group *g,
		       struct strbuf *out)
{
	size_t k, i;

	page_head(out, g->key);
	strbuf_addstr(out, "<header>\n<p><a href=\"index.html\">");
	strbuf_add_html(out, site->title);
	strbuf_addstr(out, "</a></p>\n<h1>");
	strbuf_add_html(out, g->key);
	strbuf_addf(out, "</h1>\n<p>%zu KPIs.</p>\n</header>\n", g->nkpis);
	strbuf_addstr(out, "<div class=\"controls\"><input id=\"filter\" type=\"search\" "
		      "placeholder=\"filter the KPIs\"> <span id=\"count\"></span></div>\n");
	for (k = 0; k < g->nkpis; k++) {
		const struct site_kpi *kp = &g->kpis[k];
		const struct history_series *s = kp->s;
		const struct history_result *r = kp->r;

		strbuf_addstr(out, "<section class=\"kpi\" data-name=\"");
		strbuf_add_html(out, s->stat);
		strbuf_addstr(out, "\">\n<h2><code>");
		strbuf_add_html(out, s->stat);
		strbuf_addf(out, "</code> <span class=\"muted\">(%s; %zu commits, "
			    "%zu outlier runs)</span></h2>\n<figure>\n",
			    better(s->direction), s->n, r->noutliers);
		site_chart(out, s, r);
		strbuf_addstr(out, "</figure>\n");
		if (!r->nchanges) {
			strbuf_addstr(out, "<p class=\"muted\">No change point.</p>\n"
				      "</section>\n");
			continue;
		}
		strbuf_addstr(out, "<table class=\"cps\">\n<tr><th>commit</th>"
			      "<th>previous</th><th class=\"num\">before</th>"
			      "<th class=\"num\">after</th><th class=\"num\">change</th>"
			      "<th class=\"num\">95% interval</th><th class=\"num\">p</th>"
			      "<th>report</th></tr>\n");
		for (i = r->nchanges; i-- > 0;) {
			const struct history_change *c = &r->changes[i];

			strbuf_addf(out, "<tr class=\"cp\" data-index=\"%zu\"><td><code>",
				    c->index);
			add_commit(out, s->commits[c->index].commit);
			strbuf_addstr(out, "</code></td><td><code>");
			add_commit(out, s->commits[c->index - 1].commit);
			strbuf_addstr(out, "</code></td><td class=\"num\">");
			report_format_value(out, c->before);
			strbuf_addstr(out, "</td><td class=\"num\">");
			report_format_value(out, c->after);
			strbuf_addstr(out, "</td><td class=\"num\">");
			add_change(out, s, c);
			strbuf_addf(out, " %s</td><td class=\"num\">[%+.1f%%, %+.1f%%]"
				    "</td><td class=\"num\">%.2g</td><td>",
				    effect_of(s, c), c->ci_lo, c->ci_hi, c->p);
			if (kp->reports && kp->reports[i]) {
				strbuf_addstr(out, "<a class=\"report\" href=\"");
				strbuf_add_html(out, kp->reports[i]);
				strbuf_addstr(out, "\">report</a>");
			} else {
				strbuf_addstr(out, "<span class=\"muted\">none</span>");
			}
			strbuf_addstr(out, "</td></tr>\n");
		}
		strbuf_addstr(out, "</table>\n</section>\n");
	}
	page_foot(out, group_js);
}
