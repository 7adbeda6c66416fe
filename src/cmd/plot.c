/*
 * plot.c: `perfsift plot STAT BASE HEAD` draws the e-mail's chart of
 * one stat (BASE samples '*', HEAD samples 'O', x = run index);
 * `perfsift plot STAT --run DIR` draws one run's time series of a monitor
 * stat from DIR/<monitor>.json.  ASCII on stdout, or SVG with --svg.
 */
#include "util/compat.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "plot/plot.h"
#include "plot/input.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/usage.h"

static const char plot_usage[] =
	"usage: perfsift plot STAT BASE HEAD [--svg FILE] [--width W] [--height H]\n"
	"       perfsift plot STAT --run DIR [--svg FILE] [--width W] [--height H]\n"
	"\n"
	"  BASE, HEAD    result groups as for compare; BASE samples are drawn\n"
	"                as '*' (bisect-good), HEAD samples as 'O' (bisect-bad)\n"
	"  --run DIR     one run's time series of STAT from DIR/<monitor>.json\n"
	"  --svg FILE    write the chart as SVG to FILE ('-' = stdout) instead\n"
	"                of the text chart\n"
	"  --width W     characters (default 80; SVG: 9 px each)\n"
	"  --height H    lines (default 20; SVG: 18 px each)\n";

/*
 * --width / --height: bounded below by what a chart needs to stay legible
 * (room for its labels) and above by PLOT_MAX_SIZE, so a typo cannot ask
 * for a gigabyte of SVG.
 */
static int parse_size(const char *opt, const char *arg, int min, int *out)
{
	long long v;
	const char *why = NULL;

	if (strnum_ll(arg, min, PLOT_MAX_SIZE, &v, &why)) {
		error("--%s '%s': %s (%d..%d)", opt, arg, why, min,
		      PLOT_MAX_SIZE);
		return -1;
	}
	*out = (int)v;
	return 0;
}

/*
 * Draw p as ASCII on stdout or SVG to a file ("-": stdout).  A chart that
 * cannot be drawn is the input's fault (exit 2); a file that cannot be
 * written is the system's (exit 3).  The legend explains the good/bad
 * marks of the two-sided chart; a single run's series has none.
 */
static int emit(const struct plot *p, const char *svg_file, bool legend)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int ret = EXIT_OK;

	if (svg_file ? plot_svg(p, &out, &err) : plot_ascii(p, &out, &err)) {
		error("%s", err.buf);
		ret = EXIT_USAGE;
		goto out;
	}
	if (!svg_file && legend)
		plot_ascii_legend(&out);
	if (svg_file && strcmp(svg_file, "-")) {
		if (write_file_atomic(svg_file, out.buf, out.len)) {
			error_errno("cannot write '%s'", svg_file);
			ret = EXIT_RUNTIME;
		}
	} else {
		fwrite(out.buf, 1, out.len, stdout);
	}
out:
	strbuf_release(&out);
	strbuf_release(&err);
	return ret;
}

int cmd_plot(int argc, char **argv, struct options *opts)
{
	static const struct option longopts[] = {
		{"svg", required_argument, NULL, 's'},
		{"run", required_argument, NULL, 'r'},
		{"width", required_argument, NULL, 'W'},
		{"height", required_argument, NULL, 'H'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *svg_file = NULL, *run_dir = NULL, *stat;
	int width = PLOT_WIDTH, height = PLOT_HEIGHT, c, ret;
	struct plot p;
	struct strbuf err = STRBUF_INIT;

	while ((c = cmd_getopt(argc, argv, "h", longopts)) != -1) {
		switch (c) {
		case 's':
			svg_file = optarg;
			break;
		case 'r':
			run_dir = optarg;
			break;
		case 'W':
			if (parse_size("width", optarg, PLOT_MIN_WIDTH, &width))
				return EXIT_USAGE;
			break;
		case 'H':
			if (parse_size("height", optarg, PLOT_MIN_HEIGHT, &height))
				return EXIT_USAGE;
			break;
		case 'h':
			return cmd_usage(plot_usage, false);
		default:
			return cmd_usage(plot_usage, true);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != (run_dir ? 1 : 3)) {
		error(run_dir ? "--run DIR takes exactly one STAT"
			      : "expected STAT BASE HEAD");
		return cmd_usage(plot_usage, true);
	}
	stat = argv[0];

	/* one run's samples over time, or the runs of two groups side by side */
	if (run_dir) {
		double *v = NULL;
		size_t n = 0;

		if (plot_load_run_series(run_dir, stat, &v, &n, &err)) {
			error("%s", err.buf);
			strbuf_release(&err);
			return EXIT_USAGE;
		}
		plot_init_series(&p, stat, v, n);
		p.width = width;
		p.height = height;
		ret = emit(&p, svg_file, false);
		free(v);
	} else {
		struct plot_sides sides;

		if (plot_sides_load(&sides, opts->result_root, opts->store_url,
				    argv[1], argv[2], stat,
				    &err)) {
			error("%s", err.buf);
			strbuf_release(&err);
			return EXIT_USAGE;
		}
		plot_init_bisect(&p, stat, sides.good, sides.ngood, sides.bad,
				 sides.nbad);
		p.width = width;
		p.height = height;
		ret = emit(&p, svg_file, true);
		plot_sides_release(&sides);
	}
	strbuf_release(&err);
	return ret;
}
