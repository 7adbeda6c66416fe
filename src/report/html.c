/*
 * html.c: the report as one self-contained HTML page, leading with the
 * answer: the headline KPI's row and chart, what explains it and its
 * charts, then the long comparison table and the test box.  Inline CSS,
 * the charts as inline SVG, a few lines of plain JavaScript that sort the
 * table by change and filter it by name.  A Content-Security-Policy that
 * allows nothing but the page's own inline style and script guarantees
 * that it opens offline and never makes a request.  Every piece of text
 * from the results goes through strbuf_add_html().
 */
#include "util/compat.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plot/plot.h"
#include "report/report.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * The page's style, inline because the Content-Security-Policy allows no
 * other and the page is mailed or attached as one file; system fonts
 * only, so nothing is fetched.
 */
static const char page_css[] =
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;"
	"margin:0 auto;max-width:1100px;padding:16px 24px;color:#1d1d1f;background:#fff}\n"
	"h1{font-size:20px;margin:8px 0 4px}h2{font-size:16px;margin:28px 0 8px;"
	"border-bottom:1px solid #ddd;padding-bottom:4px}\n"
	"code,pre,.num,.name{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:13px}\n"
	"pre{background:#f6f6f6;padding:10px 12px;overflow-x:auto}\n"
	".improvement{color:#1a7f37;font-weight:600}.regression{color:#c0392b;font-weight:600}\n"
	"table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left;vertical-align:top}\n"
	"table.rows th{background:#f0f0f0;position:sticky;top:0;cursor:pointer;user-select:none}\n"
	"table.rows tr:nth-child(even){background:#fafafa}\n"
	".num{text-align:right;white-space:nowrap}.name{word-break:break-all}\n"
	"table.params td:first-child{color:#555}\n"
	".controls{margin:8px 0}.controls input{font:inherit;padding:3px 6px;width:22em}\n"
	"figure{margin:12px 0}svg.plot{max-width:100%;height:auto;border:1px solid #eee}\n"
	"footer{margin-top:32px;color:#666;font-size:12px}\n"
	".undecided{color:#9a6700;font-weight:600}\n";

/*
 * Sort by change (click: descending, ascending, back to the table's
 * order) and filter by name; "#filter=TEXT&sort=change|-change" in the
 * address does the same on load, so a view can be linked (and tested
 * headless).  The counter shows that the script ran.
 */
static const char page_js[] =
	"(function(){\n"
	"var tb=document.querySelector('#rows tbody');if(!tb)return;\n"
	"var f=document.getElementById('filter'),cnt=document.getElementById('count'),st=0;\n"
	"function filter(){var q=f.value.toLowerCase(),n=0;\n"
	" for(var i=0;i<tb.rows.length;i++){var r=tb.rows[i];\n"
	"  r.hidden=r.getAttribute('data-name').toLowerCase().indexOf(q)<0;if(!r.hidden)n++;}\n"
	" cnt.textContent=n+' of '+tb.rows.length+' rows shown';}\n"
	"function sort(s){var rs=Array.prototype.slice.call(tb.rows);st=s;\n"
	" rs.sort(function(a,b){var x=+a.getAttribute('data-change'),y=+b.getAttribute('data-change');\n"
	"  if(st==0)return a.getAttribute('data-index')-b.getAttribute('data-index');\n"
	"  return st==1?y-x:x-y;});\n"
	" rs.forEach(function(r){tb.appendChild(r);});}\n"
	"f.addEventListener('input',filter);\n"
	"document.getElementById('sort-change').addEventListener('click',function(){sort((st+1)%3);});\n"
	"location.hash.replace(/^#/,'').split('&').forEach(function(kv){\n"
	" var i=kv.indexOf('='),k=kv.slice(0,i),v=decodeURIComponent(kv.slice(i+1));\n"
	" if(k=='filter')f.value=v;if(k=='sort')sort(v=='change'?1:v=='-change'?2:0);});\n"
	"filter();\n"
	"})();\n";

/* the spread as compare's table gives it: a whole percentage of the mean */
static void add_sd(struct strbuf *out, double mean, double sd)
{
	if (sd >= 0 && mean != 0 && isfinite(sd / mean))
		strbuf_addf(out, "&#177;%d%%", (int)(100 * sd / fabs(mean)));
}

/* " with <code>thp_enabled=always</code>" when the sides differ in settings */
static void add_setting_html(struct strbuf *out, const char *setting)
{
	if (!setting)
		return;
	strbuf_addstr(out, " with <code>");
	strbuf_add_html(out, setting);
	strbuf_addstr(out, "</code>");
}

/* a column heading, escaped (a sha shortened) */
static void add_heading(struct strbuf *out, const char *heading,
			const char *fallback)
{
	struct strbuf h = STRBUF_INIT;

	report_heading(&h, heading ? heading : fallback);
	strbuf_add_html(out, h.buf);
	strbuf_release(&h);
}

/*
 * The change in the class of its effect (colour), with the word after it
 * only when there is one to say: a row whose change is not judged keeps
 * its number and no verdict.
 */
static void add_effect(struct strbuf *out, const struct report_stat *s)
{
	struct strbuf ch = STRBUF_INIT;

	report_format_change(&ch, s);
	strbuf_addf(out, "<span class=\"%s\">",
		    s->undecided ? "undecided" :
		    s->effect ? s->effect : "undefined");
	strbuf_add_html(out, ch.buf);
	if (s->effect || s->undecided) {
		strbuf_addch(out, ' ');
		strbuf_add_html(out, report_effect_word(s));
	}
	strbuf_addstr(out, "</span>");
	strbuf_release(&ch);
}

static void add_fact(struct strbuf *out, const char *what, const char *v)
{
	if (!v)
		return;
	strbuf_addf(out, "<p>%s: <code>", what);
	strbuf_add_html(out, v);
	strbuf_addstr(out, "</code></p>\n");
}

/*
 * each undecided KPI's line, as a paragraph after prefix
 *
 * (r->undecided is the text form's lines; each becomes its own paragraph
 * so that a long list stays readable, and is escaped like all the rest.)
 */
static void add_undecided(struct strbuf *out, const struct report *r,
			  const char *prefix)
{
	const char *p = r->undecided;

	while (p && *p) {
		const char *nl = strchrnul(p, '\n');
		char *line = xstrndup(p, (size_t)(nl - p));

		strbuf_addf(out, "<p class=\"undecided\">%s", prefix);
		strbuf_add_html(out, line);
		strbuf_addstr(out, "</p>\n");
		free(line);
		p = *nl ? nl + 1 : nl;
	}
}

/*
 * The long table.  Each row carries its name, change and position as data
 * attributes: the script sorts and filters by those, never by the text it
 * shows, so a formatted number ("+1.2e+03%") sorts as the number it is.
 */
static void add_rows(struct strbuf *out, const struct report *r)
{
	size_t i;

	strbuf_addstr(out,
		      "<div class=\"controls\"><input id=\"filter\" type=\"search\" "
		      "placeholder=\"filter by stat name\" aria-label=\"filter by stat name\"> "
		      "<span id=\"count\"></span></div>\n"
		      "<table class=\"rows\" id=\"rows\">\n<thead><tr>"
		      "<th class=\"num\">");
	add_heading(out, r->base_heading, "base");
	strbuf_addstr(out, "</th><th class=\"num\">%stddev</th>"
			   "<th class=\"num\" id=\"sort-change\" title=\"sort by change\">%change &#8597;</th>"
			   "<th class=\"num\">");
	add_heading(out, r->head_heading, "head");
	strbuf_addstr(out, "</th><th class=\"num\">%stddev</th><th>stat</th></tr></thead>\n<tbody>\n");
	for (i = 0; i < r->nrows; i++) {
		const struct report_stat *s = &r->rows[i];
		struct strbuf ch = STRBUF_INIT;

		report_format_change(&ch, s);
		strbuf_addf(out, "<tr data-index=\"%zu\" data-change=\"%.17g\" data-name=\"",
			    i, isfinite(s->change) ? s->change : 0.0);
		strbuf_add_html(out, s->name);
		strbuf_addstr(out, "\"><td class=\"num\">");
		report_format_value(out, s->base_mean);
		strbuf_addstr(out, "</td><td class=\"num\">");
		add_sd(out, s->base_mean, s->base_sd);
		strbuf_addf(out, "</td><td class=\"num %s\">",
			    s->effect && s->changed ? s->effect : "");
		strbuf_add_html(out, ch.buf);
		if (s->undecided)
			strbuf_addstr(out, "<span class=\"undecided\" title=\"undecided\">?</span>");
		strbuf_addstr(out, "</td><td class=\"num\">");
		report_format_value(out, s->head_mean);
		strbuf_addstr(out, "</td><td class=\"num\">");
		add_sd(out, s->head_mean, s->head_sd);
		strbuf_addstr(out, "</td><td class=\"name\">");
		strbuf_add_html(out, s->name);
		strbuf_addstr(out, "</td></tr>\n");
		strbuf_release(&ch);
	}
	strbuf_addstr(out, "</tbody>\n</table>\n");
	add_undecided(out, r, "? ");
}

/* one chart as an SVG figure, its legend base/head (bisect-good/bad in a bisect) */
static int add_chart(struct strbuf *out, const struct report *r,
		     const struct report_stat *s, struct strbuf *err)
{
	struct plot p;

	if (r->bisect)
		plot_init_bisect(&p, s->name, s->base_v, s->nbase, s->head_v,
				 s->nhead);
	else
		plot_init_compare(&p, s->name, s->base_v, s->nbase, s->head_v,
				  s->nhead);
	strbuf_addstr(out, "<figure>\n");
	if (plot_svg(&p, out, err))
		return -1;
	strbuf_addstr(out, "</figure>\n");
	return 0;
}

/*
 * The answer first: the headline KPI's row under the two headings and
 * its chart, before anything else a reader might stop at.
 */
static int add_kpi(struct strbuf *out, const struct report *r,
		   struct strbuf *err)
{
	const struct report_stat *s = r->kpi;

	if (!s)
		return 0;
	strbuf_addf(out, "<section id=\"kpi\">\n<h2>%s</h2>\n"
		    "<table class=\"rows\" id=\"kpi-row\">\n<thead><tr><th class=\"num\">",
		    r->kpi_fallback ? "The benchmark&#39;s time (these runs have no KPI)"
				    : "The KPI");
	add_heading(out, r->base_heading, "base");
	strbuf_addstr(out, "</th><th class=\"num\">%change</th><th class=\"num\">");
	add_heading(out, r->head_heading, "head");
	strbuf_addstr(out, "</th><th>stat</th></tr></thead>\n<tbody><tr><td class=\"num\">");
	report_format_value(out, s->base_mean);
	strbuf_addch(out, ' ');
	add_sd(out, s->base_mean, s->base_sd);
	strbuf_addstr(out, "</td><td class=\"num\">");
	add_effect(out, s);
	strbuf_addstr(out, "</td><td class=\"num\">");
	report_format_value(out, s->head_mean);
	strbuf_addch(out, ' ');
	add_sd(out, s->head_mean, s->head_sd);
	strbuf_addstr(out, "</td><td class=\"name\">");
	strbuf_add_html(out, s->name);
	strbuf_addstr(out, "</td></tr></tbody>\n</table>\n");
	if (report_kpi_chart(r) && add_chart(out, r, report_kpi_chart(r), err))
		return -1;
	strbuf_addstr(out, "</section>\n");
	return 0;
}

/* the charts after the KPI's: the explaining stats', above the long table */
static int add_charts(struct strbuf *out, const struct report *r,
		      struct strbuf *err)
{
	size_t i = report_kpi_chart(r) ? 1 : 0;

	if (i >= r->ncharts)
		return 0;
	strbuf_addstr(out, "<section id=\"charts\">\n<h2>Charts</h2>\n");
	for (; i < r->ncharts; i++)
		if (add_chart(out, r, r->charts[i], err))
			return -1;
	strbuf_addstr(out, "</section>\n");
	return 0;
}

static void add_explain(struct strbuf *out, const struct report *r)
{
	size_t i;

	strbuf_addstr(out, "<section id=\"explain\">\n<h2>What explains it</h2>\n");
	if (!r->nexplain) {
		strbuf_addf(out, "<p>No monitor stat changed significantly (%zu stats compared).</p>\n",
			    r->nstats);
		strbuf_addstr(out, "</section>\n");
		return;
	}
	strbuf_addf(out, "<p>The largest significant changes of %zu stats compared:</p>\n<ol>\n",
		    r->nstats);
	for (i = 0; i < r->nexplain; i++) {
		const struct report_stat *s = r->explain[i];

		strbuf_addstr(out, "<li><code>");
		strbuf_add_html(out, s->name);
		strbuf_addstr(out, "</code> ");
		add_effect(out, s);
		strbuf_addstr(out, " <span class=\"num\">(");
		report_format_value(out, s->base_mean);
		strbuf_addstr(out, " &#8594; ");
		report_format_value(out, s->head_mean);
		if (s->separation > 0) /* NAN: not judged */
			strbuf_addf(out, ", separation %.2f", s->separation);
		strbuf_addstr(out, ")</span></li>\n");
	}
	strbuf_addstr(out, "</ol>\n</section>\n");
}

/* the job's parameters both sides share: what a reader needs to rerun it */
static void add_params(struct strbuf *out, const struct report *r)
{
	size_t i;

	if (!r->nparams)
		return;
	strbuf_addstr(out, "<section id=\"params\">\n<h2>Parameters</h2>\n"
			   "<table class=\"params\">\n");
	for (i = 0; i < r->nparams; i++) {
		strbuf_addstr(out, "<tr><td>");
		strbuf_add_html(out, r->params[i].key);
		strbuf_addstr(out, "</td><td><code>");
		strbuf_add_html(out, r->params[i].value);
		strbuf_addstr(out, "</code></td></tr>\n");
	}
	strbuf_addstr(out, "</table>\n</section>\n");
}

static void add_box(struct strbuf *out, const struct report_box *b)
{
	strbuf_addstr(out, "<section id=\"box\">\n<h2>Test box</h2>\n<p><code>");
	strbuf_add_html(out, b->host ? b->host : "unknown");
	strbuf_addstr(out, "</code>: ");
	strbuf_add_html(out, b->cpu_model ? b->cpu_model : "unknown CPU");
	if (b->nr_cpu) {
		strbuf_addstr(out, ", ");
		strbuf_add_html(out, b->nr_cpu);
		strbuf_addstr(out, " CPUs");
	}
	strbuf_addstr(out, ", memory ");
	strbuf_add_html(out, b->memory ? b->memory : "unknown");
	strbuf_addstr(out, "</p>\n");
	add_fact(out, "THP", b->thp_enabled);
	add_fact(out, "THP defrag", b->thp_defrag);
	add_fact(out, "cpufreq governor", b->governor);
	add_fact(out, "kernel command line", b->cmdline);
	add_fact(out, "set by the job", b->settings);
	strbuf_addstr(out, "</section>\n");
}

/*
 * The head every perfsift page starts with, the report's and the
 * dashboard's alike: one place for the Content-Security-Policy, so no
 * page can be written without it.
 */
void report_html_head(struct strbuf *out, const char *title, const char *css)
{
	strbuf_addstr(out,
		      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		      "<meta http-equiv=\"Content-Security-Policy\" content=\""
		      REPORT_HTML_CSP "\">\n"
		      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		      "<title>");
	strbuf_add_html(out, title);
	strbuf_addf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", css);
}

int report_html(const struct report *r, struct strbuf *out, struct strbuf *err)
{
	struct strbuf subject = STRBUF_INIT, repro = STRBUF_INIT;
	int ret = -1;

	report_subject(&subject, r);
	report_html_head(out, subject.buf, page_css);
	strbuf_addstr(out, "<header>\n<h1>");
	strbuf_add_html(out, subject.buf);
	strbuf_addstr(out, "</h1>\n<p class=\"headline\">");
	if (r->kpi) {
		strbuf_addstr(out, "FYI, we noticed that <code>");
		strbuf_add_html(out, r->kpi->name);
		strbuf_addstr(out, "</code> ");
		add_effect(out, r->kpi);
		strbuf_addstr(out, " on");
	} else {
		strbuf_addstr(out, "FYI, we compared the results of");
	}
	strbuf_addstr(out, "</p>\n<p>commit <code>");
	strbuf_add_html(out, r->commit ? r->commit : "unknown");
	strbuf_addstr(out, "</code>");
	if (r->subject) {
		strbuf_addstr(out, " (&quot;");
		strbuf_add_html(out, r->subject);
		strbuf_addstr(out, "&quot;)");
	}
	add_setting_html(out, r->head_setting);
	if (r->base_label) {
		strbuf_addstr(out, "<br>against <code>");
		strbuf_add_html(out, r->base_label);
		strbuf_addstr(out, "</code>");
		add_setting_html(out, r->base_setting);
	}
	strbuf_addstr(out, "</p>\n");
	add_undecided(out, r, "");
	strbuf_addstr(out, "</header>\n");

	if (add_kpi(out, r, err))
		goto out;
	add_explain(out, r);
	if (add_charts(out, r, err))
		goto out;
	add_params(out, r);
	strbuf_addf(out, "<section id=\"compare\">\n<h2>Comparison (%zu rows)</h2>\n",
		    r->nrows);
	add_rows(out, r);
	strbuf_addstr(out, "</section>\n");
	add_box(out, &r->box);

	strbuf_addstr(out, "<section id=\"reproduce\">\n<h2>To reproduce</h2>\n<pre>");
	/* the text's very commands, escaped: one writer, so they agree */
	report_repro_text(r, &repro, "");
	strbuf_add_html(out, repro.buf);
	strbuf_addstr(out, "</pre>\n</section>\n"
			   "<footer>These results were measured on the test box above and are given "
			   "for information only: other hardware, kernels or settings may give other "
			   "numbers. Reproduce them before acting on them.</footer>\n<script>\n");
	strbuf_addstr(out, page_js);
	strbuf_addstr(out, "</script>\n</body>\n</html>\n");
	ret = 0;
out:
	strbuf_release(&subject);
	strbuf_release(&repro);
	return ret;
}
