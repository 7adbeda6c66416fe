/*
 * ascii.c: the e-mail charts, as gnuplot 4.6's "dumb" terminal drew
 * them for LKP's mmplot (spec lkp-compare.md §4).  The canvas keeps a
 * priority per cell (text 5 > points 4 > plot lines 3 > border 2 > dotted
 * lines 1) so that the dotted good-sample line never eats the border while
 * an 'O' on the bottom tic does: the familiar `250 O+O-O-O` line.
 * Axis and tic computations are shared with plot/svg.c.
 */
#include "util/compat.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plot/plot.h"
#include "plot/internal.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

enum {
	PRIO_DOTTED = 1,
	PRIO_BORDER = 2,
	PRIO_LINE = 3,
	PRIO_POINT = 4,
	PRIO_TEXT = 5,
};

void plot_init_bisect(struct plot *p, const char *stat, const double *good,
		      size_t ngood, const double *bad, size_t nbad)
{
	memset(p, 0, sizeof(*p));
	p->stat = stat;
	p->width = PLOT_WIDTH;
	p->height = PLOT_HEIGHT;
	p->nseries = 2;
	/* mmplot's order: the bad samples first, the good ones over them */
	p->series[0] = (struct plot_series){ bad, nbad, 'O', false,
					     "bisect-bad sample" };
	p->series[1] = (struct plot_series){ good, ngood, '*', true,
					     "bisect-good sample" };
}

void plot_init_compare(struct plot *p, const char *stat, const double *base,
		       size_t nbase, const double *head, size_t nhead)
{
	plot_init_bisect(p, stat, base, nbase, head, nhead);
	p->series[0].label = "head sample";
	p->series[1].label = "base sample";
}

void plot_init_series(struct plot *p, const char *stat, const double *v,
		      size_t n)
{
	memset(p, 0, sizeof(*p));
	p->stat = stat;
	p->width = PLOT_WIDTH;
	p->height = PLOT_HEIGHT;
	p->nseries = 1;
	/* LKP's mplot: linespoints pt 15 lt 0 */
	p->series[0] = (struct plot_series){ v, n, 'O', true, NULL };
}

static bool is_title_char(unsigned char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || (ch && strchr("_.:+=-", ch));
}

void plot_title(struct strbuf *out, const char *stat)
{
	const unsigned char *s;

	for (s = (const unsigned char *)stat; *s; s++) {
		if ((*s & 0xc0) == 0x80)
			continue; /* one '_' per UTF-8 character, as Ruby's gsub */
		if (is_title_char(*s))
			strbuf_addch(out, *s);
		else
			strbuf_addch(out, '_');
	}
}

/* x / step snapped to an integer when float noise is all that separates them */
static double steps_of(double x, double step)
{
	double q = x / step, r = round(q);

	if (fabs(q - r) < 1e-9 * fmax(1.0, fabs(q)))
		return r;
	return q;
}

void plot_axis_autoscale(struct plot_axis *ax, double lo, double hi)
{
	double r, p, k, q, f;

	if (lo > hi) {
		double t = lo;
		lo = hi;
		hi = t;
	}
	if (lo == hi) {
		/* gnuplot: "empty y range [a:a], adjusting to [0.99a:1.01a]" */
		if (lo == 0) {
			lo = -1;
			hi = 1;
		} else {
			lo -= fabs(lo) * 0.01;
			hi += fabs(hi) * 0.01;
		}
	}
	r = hi - lo;
	p = pow(10.0, floor(log10(r)));
	k = r / p;
	q = 20.0 / k; /* gnuplot's guide: about 20 tics at most */
	if (q > 40)
		f = 0.05;
	else if (q > 20)
		f = 0.1;
	else if (q > 10)
		f = 0.2;
	else if (q > 4)
		f = 0.5;
	else if (q > 2)
		f = 1;
	else if (q > 0.5)
		f = 2;
	else
		f = ceil(k);
	ax->step = f * p;
	ax->min = floor(steps_of(lo, ax->step)) * ax->step;
	ax->max = ceil(steps_of(hi, ax->step)) * ax->step;
}

int plot_prepare(const struct plot *p, struct plot_axis *ax, size_t *nx,
		 struct strbuf *err)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t i, j, n = 0;

	if (p->width < PLOT_MIN_WIDTH || p->width > PLOT_MAX_SIZE) {
		strbuf_addf(err, "width %d: must be between %d and %d",
			    p->width, PLOT_MIN_WIDTH, PLOT_MAX_SIZE);
		return -1;
	}
	if (p->height < PLOT_MIN_HEIGHT || p->height > PLOT_MAX_SIZE) {
		strbuf_addf(err, "height %d: must be between %d and %d",
			    p->height, PLOT_MIN_HEIGHT, PLOT_MAX_SIZE);
		return -1;
	}
	for (i = 0; i < p->nseries; i++) {
		const struct plot_series *s = &p->series[i];

		for (j = 0; j < s->n; j++) {
			if (!isfinite(s->v[j]))
				continue;
			lo = fmin(lo, s->v[j]);
			hi = fmax(hi, s->v[j]);
		}
		if (s->n > n)
			n = s->n;
	}
	if (!(lo <= hi)) {
		strbuf_addf(err, "'%s': no sample to plot", p->stat);
		return -1;
	}
	plot_axis_autoscale(ax, lo, hi);
	*nx = n;
	return 0;
}

/*
 * gnuplot's tic labels are "%g"; where that makes two neighbours read the
 * same (1e+06 and 1e+06), perfsift adds digits until they differ.
 */
size_t plot_tic_labels(const struct plot_axis *ax, char ***labels,
		       double **values)
{
	long i0 = lround(steps_of(ax->min, ax->step));
	long i1 = lround(steps_of(ax->max, ax->step));
	size_t n = (size_t)(i1 - i0 + 1), i;
	int prec;
	double *v = xcalloc(n, sizeof(*v));
	char **l = xcalloc(n, sizeof(*l));

	for (i = 0; i < n; i++) {
		v[i] = (double)(i0 + (long)i) * ax->step;
		if (fabs(v[i]) < ax->step * 1e-6)
			v[i] = 0; /* never "-0" or "1.2e-17" */
	}
	for (prec = 6; prec <= 17; prec++) {
		bool same = false;

		for (i = 0; i < n; i++) {
			free(l[i]);
			l[i] = xasprintf("%.*g", prec, v[i]);
			if (i && !strcmp(l[i], l[i - 1]))
				same = true;
		}
		if (!same)
			break;
	}
	*labels = l;
	*values = v;
	return n;
}

void plot_free_labels(char **labels, double *values, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	free(values);
}

struct canvas {
	int w, h;
	char *cell;
	unsigned char *prio;
};

/* y grows upwards in gnuplot's terminal coordinates, as here */
static void pixel(struct canvas *c, int x, int y, char ch, int prio)
{
	size_t at;

	if (x < 0 || x >= c->w || y < 0 || y >= c->h)
		return;
	at = (size_t)(c->h - 1 - y) * (size_t)c->w + (size_t)x;
	if (prio < c->prio[at])
		return;
	c->cell[at] = ch;
	c->prio[at] = (unsigned char)prio;
}

static int sgn(int v)
{
	return (v > 0) - (v < 0);
}

/*
 * gnuplot 4.6's DUMB_vector: step along the longer axis, the other
 * coordinate truncated after adding 0.5 (so it rounds toward the start on
 * negative slopes), '+' at both ends for the border and dotted pens.
 */
static void vector(struct canvas *c, int x0, int y0, int x1, int y1,
		   bool border, int prio)
{
	int dx = x1 - x0, dy = y1 - y0, d;

	if (abs(dy) > abs(dx)) {
		char pen = border ? '|' : ':';

		pixel(c, x0, y0, '+', prio);
		for (d = 1; d < abs(dy); d++)
			pixel(c, x0 + (int)((double)dx * d / abs(dy) + 0.5),
			      y0 + d * sgn(dy), pen, prio);
		pixel(c, x1, y1, '+', prio);
	} else if (dx) {
		char pen = border ? '-' : '.';

		pixel(c, x0, y0, '+', prio);
		for (d = 1; d < abs(dx); d++)
			pixel(c, x0 + d * sgn(dx),
			      y0 + (int)((double)dy * d / abs(dx) + 0.5), pen,
			      prio);
		pixel(c, x1, y1, '+', prio);
	}
}

static void text(struct canvas *c, int x, int y, const char *s)
{
	for (; *s; s++, x++)
		pixel(c, x, y, *s, PRIO_TEXT);
}

int plot_ascii(const struct plot *p, struct strbuf *out, struct strbuf *err)
{
	struct plot_axis ax;
	struct canvas c;
	struct strbuf title = STRBUF_INIT;
	char **labels;
	double *tics;
	size_t nx, ntics, i, j;
	int L, R, T, B, labw = 0, row, thin;

	if (plot_prepare(p, &ax, &nx, err))
		return -1;
	ntics = plot_tic_labels(&ax, &labels, &tics);
	for (i = 0; i < ntics; i++)
		if ((int)strlen(labels[i]) > labw)
			labw = (int)strlen(labels[i]);

	c.w = p->width;
	c.h = p->height;
	c.cell = xmalloc((size_t)c.w * (size_t)c.h);
	c.prio = xcalloc((size_t)c.w * (size_t)c.h, 1);
	memset(c.cell, ' ', (size_t)c.w * (size_t)c.h);

	/* geometry of gnuplot 5.4's 80x20 canvas, in y-up coordinates */
	L = labw + 3;
	R = c.w - 4;
	if (R - L < 8)
		L = R - 8; /* absurdly long labels: let them be clipped */
	T = c.h - 4;
	B = 2;

	vector(&c, L, B, R, B, true, PRIO_BORDER);
	vector(&c, R, B, R, T, true, PRIO_BORDER);
	vector(&c, R, T, L, T, true, PRIO_BORDER);
	vector(&c, L, T, L, B, true, PRIO_BORDER);
	/*
	 * More tics than rows (a small --height): keep every k-th, so no two
	 * labels share a row; gnuplot would print them over each other.
	 */
	thin = ntics > 1 ? ((int)ntics - 1 + (T - B) - 1) / (T - B) : 1;
	for (i = 0; i < ntics; i++) {
		int y = B + (int)lround((tics[i] - ax.min) / (ax.max - ax.min) *
					(T - B));

		if (thin > 1 && lround(tics[i] / ax.step) % thin)
			continue;
		vector(&c, L, y, L + 1, y, true, PRIO_BORDER);
		text(&c, L - 1 - (int)strlen(labels[i]), y, labels[i]);
	}
	plot_title(&title, p->stat);
	text(&c, (L + R) / 2 - (int)title.len / 2 < 0 ? 0 :
		 (L + R) / 2 - (int)title.len / 2, c.h - 3, title.buf);

	for (i = 0; i < p->nseries; i++) {
		const struct plot_series *s = &p->series[i];
		int px = 0, py = 0;
		bool have_prev = false;

		for (j = 0; j < s->n; j++) {
			int x, y;

			if (!isfinite(s->v[j])) {
				have_prev = false;
				continue;
			}
			x = nx > 1 ? L + (int)lround((double)j / (double)(nx - 1) *
						     (R - L))
				   : (L + R) / 2;
			y = B + (int)lround((s->v[j] - ax.min) /
					    (ax.max - ax.min) * (T - B));
			if (s->line && have_prev)
				vector(&c, px, py, x, y, false, PRIO_DOTTED);
			px = x;
			py = y;
			have_prev = true;
		}
		if (!s->point)
			continue;
		for (j = 0; j < s->n; j++) {
			int x, y;

			if (!isfinite(s->v[j]))
				continue;
			x = nx > 1 ? L + (int)lround((double)j / (double)(nx - 1) *
						     (R - L))
				   : (L + R) / 2;
			y = B + (int)lround((s->v[j] - ax.min) /
					    (ax.max - ax.min) * (T - B));
			pixel(&c, x, y, s->point, PRIO_POINT);
		}
	}

	/* gnuplot 4.6 trims trailing blanks on every line */
	for (row = 0; row < c.h; row++) {
		const char *line = c.cell + (size_t)row * (size_t)c.w;
		int len = c.w;

		while (len > 0 && line[len - 1] == ' ')
			len--;
		strbuf_add(out, line, (size_t)len);
		strbuf_addch(out, '\n');
	}
	strbuf_release(&title);
	plot_free_labels(labels, tics, ntics);
	free(c.cell);
	free(c.prio);
	return 0;
}

void plot_ascii_legend(struct strbuf *out)
{
	/* the 0-day e-mail's lines, "sample" aligned */
	strbuf_addstr(out, "\t[*] bisect-good sample\n"
			   "\t[O] bisect-bad  sample\n");
}

void plot_ascii_legend_compare(struct strbuf *out)
{
	strbuf_addstr(out, "\t[*] base sample\n"
			   "\t[O] head sample\n");
}
