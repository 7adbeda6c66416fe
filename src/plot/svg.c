/*
 * svg.c: the ASCII chart's twin as one <svg> element, for the HTML
 * report and `perfsift plot --svg`.  Same y axis (gnuplot's step rule and
 * extension, from plot/ascii.c), same series and order; presentation
 * attributes are inline so the element stands alone in a file or a page.
 * Every piece of text is escaped.
 */
#include "util/compat.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "plot/plot.h"
#include "plot/internal.h"
#include "util/strbuf.h"

/*
 * The SVG is sized from the ASCII chart's columns and rows, so --width
 * and --height mean the same chart in both forms: a column is about one
 * character of the 12px font, a row one line of text.
 */
#define PX_PER_COL 9
#define PX_PER_ROW 18
#define MARGIN_L 70
#define MARGIN_R 20
#define MARGIN_T 34
#define MARGIN_B 62

/* 'O' points (a bisect chart's bad side, a run's series) red, else blue */
static const char *series_colour(const struct plot_series *s)
{
	return s->point == 'O' ? "#c0392b" : "#1f5fbf";
}

struct frame {
	double x0, x1, y0, y1; /* plot area in px; y0 is the top */
	double min, max;       /* y range */
	size_t nx;
};

/* the x of sample i; a single sample sits in the middle of the frame */
static double fx(const struct frame *f, size_t i)
{
	if (f->nx < 2)
		return (f->x0 + f->x1) / 2;
	return f->x0 + (double)i / (double)(f->nx - 1) * (f->x1 - f->x0);
}

/* the y of value v: SVG's y grows downwards, so min is at the bottom */
static double fy(const struct frame *f, double v)
{
	return f->y1 - (v - f->min) / (f->max - f->min) * (f->y1 - f->y0);
}

/*
 * A sample: an open ring for 'O' points, a dot for the others, so the two
 * sides of a bisect chart stay apart in print and for a reader who cannot
 * tell the colours apart.
 */
static void marker(struct strbuf *out, const struct plot_series *s, double x,
		   double y)
{
	if (s->point == 'O')
		strbuf_addf(out,
			    "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>",
			    x, y, series_colour(s));
	else
		strbuf_addf(out,
			    "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>",
			    x, y, series_colour(s));
}

/* the dotted line through a series (when it has one), then its markers */
static void draw_series(struct strbuf *out, const struct frame *f,
			const struct plot_series *s)
{
	size_t j;
	bool open = false;

	if (s->line) {
		/* a gap (non-finite value) ends one polyline, as in ASCII */
		for (j = 0; j < s->n; j++) {
			if (!isfinite(s->v[j])) {
				if (open)
					strbuf_addstr(out, "\"/>\n");
				open = false;
				continue;
			}
			if (!open)
				strbuf_addf(out,
					    "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.2\" stroke-dasharray=\"2 3\" points=\"",
					    series_colour(s));
			else
				strbuf_addch(out, ' ');
			open = true;
			strbuf_addf(out, "%.1f,%.1f", fx(f, j), fy(f, s->v[j]));
		}
		if (open)
			strbuf_addstr(out, "\"/>\n");
	}
	if (!s->point)
		return;
	strbuf_addstr(out, "<g class=\"series\">");
	for (j = 0; j < s->n; j++)
		if (isfinite(s->v[j]))
			marker(out, s, fx(f, j), fy(f, s->v[j]));
	strbuf_addstr(out, "</g>\n");
}

int plot_svg(const struct plot *p, struct strbuf *out, struct strbuf *err)
{
	struct plot_axis ax, xax;
	struct frame f;
	char **labels;
	double *tics, xt;
	size_t ntics, i;
	int w = p->width * PX_PER_COL, h = p->height * PX_PER_ROW;
	double legend_x;

	if (plot_prepare(p, &ax, &f.nx, err))
		return -1;
	f.x0 = MARGIN_L;
	f.x1 = w - MARGIN_R;
	f.y0 = MARGIN_T;
	f.y1 = h - MARGIN_B;
	f.min = ax.min;
	f.max = ax.max;

	strbuf_addf(out,
		    "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" font-family=\"sans-serif\" font-size=\"12\">\n",
		    w, h, w, h);
	strbuf_addstr(out, "<title>");
	strbuf_add_html(out, p->stat);
	strbuf_addstr(out, "</title>\n");
	strbuf_addf(out,
		    "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n",
		    w, h);
	strbuf_addf(out,
		    "<text x=\"%.1f\" y=\"20\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"bold\">",
		    (f.x0 + f.x1) / 2);
	strbuf_add_html(out, p->stat);
	strbuf_addstr(out, "</text>\n");

	/* y tics, labels and light grid lines */
	ntics = plot_tic_labels(&ax, &labels, &tics);
	strbuf_addstr(out, "<g class=\"yaxis\" stroke=\"#000\">");
	for (i = 0; i < ntics; i++) {
		double y = fy(&f, tics[i]);

		strbuf_addf(out,
			    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>",
			    f.x0, y, f.x1, y);
		strbuf_addf(out,
			    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
			    f.x0 - 5, y, f.x0, y);
		strbuf_addf(out,
			    "<text x=\"%.1f\" y=\"%.1f\" stroke=\"none\" text-anchor=\"end\" dominant-baseline=\"middle\">",
			    f.x0 - 8, y);
		strbuf_add_html(out, labels[i]);
		strbuf_addstr(out, "</text>");
	}
	strbuf_addstr(out, "</g>\n");
	plot_free_labels(labels, tics, ntics);

	/* x tics at whole sample indexes, gnuplot's step rule again */
	plot_axis_autoscale(&xax, 1, f.nx > 1 ? (double)f.nx : 2);
	if (xax.step < 1)
		xax.step = 1;
	strbuf_addstr(out, "<g class=\"xaxis\" stroke=\"#000\">");
	for (xt = ceil(1 / xax.step) * xax.step; xt <= (double)f.nx + 1e-9;
	     xt += xax.step) {
		double x;

		if (xt < 1)
			continue;
		x = fx(&f, (size_t)llround(xt) - 1);
		strbuf_addf(out,
			    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
			    x, f.y1, x, f.y1 + 5);
		strbuf_addf(out,
			    "<text x=\"%.1f\" y=\"%.1f\" stroke=\"none\" text-anchor=\"middle\">%.0f</text>",
			    x, f.y1 + 18, xt);
	}
	strbuf_addstr(out, "</g>\n");
	strbuf_addf(out,
		    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#555\">sample</text>\n",
		    (f.x0 + f.x1) / 2, f.y1 + 34);
	strbuf_addf(out,
		    "<rect class=\"border\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#000\"/>\n",
		    f.x0, f.y0, f.x1 - f.x0, f.y1 - f.y0);

	for (i = 0; i < p->nseries; i++)
		draw_series(out, &f, &p->series[i]);

	/* legend, bottom left, good series first as in the e-mail */
	legend_x = f.x0;
	for (i = p->nseries; i-- > 0;) {
		const struct plot_series *s = &p->series[i];

		if (!s->label)
			continue;
		strbuf_addstr(out, "<g class=\"legend\">");
		marker(out, s, legend_x + 5, h - 12);
		strbuf_addf(out, "<text x=\"%.1f\" y=\"%d\" dominant-baseline=\"middle\">",
			    legend_x + 14, h - 12);
		strbuf_add_html(out, s->label);
		strbuf_addstr(out, "</text></g>\n");
		legend_x += 180;
	}
	strbuf_addstr(out, "</svg>\n");
	return 0;
}
