/*
 * plot.h: the charts of perfsift, drawn by perfsift itself (no gnuplot).
 *
 * plot_ascii() draws gnuplot 4.6's "dumb" terminal look that LKP's mmplot
 * put in the 0-day e-mails (spec lkp-compare.md §4): title, y tics on the
 * left with gnuplot's step rule and outward range extension, a +-| border
 * with "++" tics, one or two series on x = sample index.  plot_svg() draws
 * the same chart as a standalone SVG element for the HTML report.
 * Renderers append to a caller's strbuf and never print.
 */
#ifndef PERFSIFT_PLOT_H
#define PERFSIFT_PLOT_H

#include "util/compat.h"

struct strbuf;

#define PLOT_WIDTH 80  /* LKP's PLOT_SIZE_X */
#define PLOT_HEIGHT 20 /* LKP's PLOT_SIZE_Y */
#define PLOT_MIN_WIDTH 24
#define PLOT_MIN_HEIGHT 8
#define PLOT_MAX_SIZE 1000

struct plot_series {
	const double *v;   /* y values; x = 1..n (non-finite values are skipped) */
	size_t n;
	char point;        /* point character ('*', 'O'), 0 = none */
	bool line;         /* joined by a dotted line (gnuplot's lt 0) */
	const char *label; /* legend text (SVG); NULL = not in the legend */
};

struct plot {
	const char *stat;  /* the stat name; the ASCII title is sanitised */
	int width;         /* characters (SVG: 9 px each) */
	int height;        /* lines (SVG: 18 px each) */
	size_t nseries;
	struct plot_series series[2]; /* drawn in order: later wins a tie */
};

/*
 * The bisect chart of the e-mail: bad (head) samples as 'O' points, good
 * (base) samples as '*' joined by a dotted line, drawn after the bad ones
 * as mmplot does.  The arrays are borrowed.
 */
void plot_init_bisect(struct plot *p, const char *stat, const double *good,
		      size_t ngood, const double *bad, size_t nbad);
/*
 * The same chart of a comparison: base as '*', head as 'O', and the
 * legend says "base"/"head" -- bisect-good/bad would be false there.
 */
void plot_init_compare(struct plot *p, const char *stat, const double *base,
		       size_t nbase, const double *head, size_t nhead);
/* one run's time series of a stat: 'O' points joined by a dotted line */
void plot_init_series(struct plot *p, const char *stat, const double *v,
		      size_t n);

/* gnuplot's y axis: the range extended outward to multiples of step */
struct plot_axis {
	double min, max, step;
};
/* autoscale [lo, hi] as gnuplot does (an empty range is widened first) */
void plot_axis_autoscale(struct plot_axis *ax, double lo, double hi);

/* the title as LKP gives it: chars outside [a-zA-Z0-9_.:+=-] become '_' */
void plot_title(struct strbuf *out, const char *stat);

/*
 * Append the chart, `height` lines of at most `width` characters with
 * trailing blanks trimmed.  -1 with err when the size is out of bounds or
 * no series holds a finite value.
 */
int plot_ascii(const struct plot *p, struct strbuf *out, struct strbuf *err);
/* the two legend lines the e-mail puts under the bisect charts */
void plot_ascii_legend(struct strbuf *out);
/* the comparison's legend lines, "[*] base sample" and "[O] head sample" */
void plot_ascii_legend_compare(struct strbuf *out);

/* the same chart as one <svg> element (no XML prolog), text escaped */
int plot_svg(const struct plot *p, struct strbuf *out, struct strbuf *err);

#endif
