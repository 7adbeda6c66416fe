/*
 * history.c: `perfsift history STAT [SELECTOR...]` -- a stat's series
 * over the commits of a group (every run kept), its change points and its
 * outliers (history.h), as text, JSON or CSV; `--all` lists the change
 * points of every KPI of every group, newest first; `--csv FILE` reads a
 * series from elsewhere in Otava's CSV layout.
 */
#include "util/compat.h"
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "history/history.h"
#include "history/load.h"
#include "result/stats.h"
#include "result/result.h"
#include "store/store.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/usage.h"
#include "util/xalloc.h"

static const char usage_text[] =
	"usage: perfsift history STAT [SELECTOR...] [OPTIONS]\n"
	"       perfsift history --all [SELECTOR...] [OPTIONS]\n"
	"       perfsift history --csv FILE (--stat COLUMN | --all) [OPTIONS]\n"
	"\n"
	"The series of STAT over the commits of one group of results (every\n"
	"axis but the commit), every run kept, with its change points\n"
	"(E-Divisive means, a t-test or permutation test between the\n"
	"segments) and its outliers.  SELECTORs narrow the groups as for\n"
	"compare (a directory, a commit, key=value,...); a group must match\n"
	"every one.  --all: the change points of every KPI of every group,\n"
	"newest first.\n"
	"\n"
	"      --repo DIR        order commits by DIR's first-parent history of\n"
	"                        HEAD (else by the time their runs were indexed)\n"
	"      --csv FILE        read the series from FILE: a header line, the\n"
	"                        first column a commit or time, the others metrics\n"
	"                        (a regular file; - reads stdin)\n"
	"      --stat COLUMN     the CSV column (with --csv)\n"
	"  -a, --all             every KPI (or every CSV column)\n"
	"      --json            JSON (schema perfsift-history/1)\n"
	"      --format F        text (default), json or csv\n"
	"      --test T          t (Student's t between commit means, default)\n"
	"                        or permutation (whole commits shuffled)\n"
	"      --p-max P         significance level (default 1e-5 t, 0.01\n"
	"                        permutation)\n"
	"      --min-segment N   commits each side of a change (default 3)\n"
	"      --window N        commits each side a test looks at (default 50)\n"
	"      --outlier-sd K    a run this many robust sds from both sides'\n"
	"                        medians is an outlier (default 5)\n"
	"      --min-change PCT  drop change points smaller than PCT (default 0)\n"
	"      --permutations N  for --test permutation (default 199)\n"
	"      --seed N          for --test permutation (default fixed)\n"
	"  -h, --help            this text\n"
	"\n"
	"exit status: 0, 2 for bad usage or input, 3 for a runtime error\n";

/* long options without a short letter: values above any char */
enum { OPT_REPO = 256, OPT_CSV, OPT_STAT, OPT_JSON, OPT_FORMAT, OPT_TEST,
       OPT_PMAX, OPT_MINSEG, OPT_WINDOW, OPT_OUTLIER, OPT_MINCHG, OPT_PERMS,
       OPT_SEED };

enum format { FMT_TEXT, FMT_JSON, FMT_CSV };

/* a stat's better direction as the JSON's "better" field spells it */
static const char *direction_name(int d)
{
	return d > 0 ? "higher" : d < 0 ? "lower" : "undefined";
}

/*
 * One change point as a JSON object (no newline).  with_series: --all
 * lists change points of many series in one array, so each names its
 * series and stat; a single series' change points do not repeat them.
 * previous_commit is there so a reader can name the pair to compare (or
 * bisect) without looking up the point before.
 */
static void json_change(struct strbuf *out, const struct history_series *s,
			const struct history_change *c, bool with_series)
{
	strbuf_addstr(out, "{");
	if (with_series) {
		strbuf_addstr(out, "\"series\": ");
		strbuf_add_json_str(out, s->key);
		strbuf_addstr(out, ", \"stat\": ");
		strbuf_add_json_str(out, s->stat);
		strbuf_addstr(out, ", ");
	}
	strbuf_addf(out, "\"index\": %zu, \"commit\": ", c->index);
	strbuf_add_json_str(out, s->commits[c->index].commit);
	strbuf_addstr(out, ", \"previous_commit\": ");
	strbuf_add_json_str(out, s->commits[c->index - 1].commit);
	strbuf_addstr(out, ", \"before\": ");
	strbuf_add_json_num(out, c->before);
	strbuf_addstr(out, ", \"after\": ");
	strbuf_add_json_num(out, c->after);
	strbuf_addstr(out, ", \"change_pct\": ");
	strbuf_add_json_num(out, c->change_pct);
	strbuf_addstr(out, ", \"ci95_pct\": [");
	strbuf_add_json_num(out, c->ci_lo);
	strbuf_addstr(out, ", ");
	strbuf_add_json_num(out, c->ci_hi);
	strbuf_addstr(out, "], \"p\": ");
	strbuf_add_json_num(out, c->p);
	strbuf_addf(out, ", \"commits_before\": %zu, \"commits_after\": %zu",
		    c->nbefore, c->nafter);
	strbuf_addf(out, ", \"direction\": \"%s\"}",
		    history_effect(s->direction, c->change_pct));
}

/*
 * The method and every parameter that decided the result, so a JSON
 * output says how to reproduce it; the permutation test's count and seed
 * only when that test ran (the t-test has neither).
 */
static void json_params(struct strbuf *out, const struct history_params *p)
{
	strbuf_addf(out, "  \"method\": {\"algorithm\": \"e-divisive-means\", "
		    "\"test\": \"%s\", \"p_max\": ",
		    p->test == HISTORY_TTEST ? "t" : "permutation");
	strbuf_add_json_num(out, p->p_max);
	strbuf_addf(out, ", \"min_segment\": %zu, \"window\": %zu, "
		    "\"outlier_sd\": ", p->min_segment, p->window);
	strbuf_add_json_num(out, p->outlier_sd);
	strbuf_addstr(out, ", \"min_change_pct\": ");
	strbuf_add_json_num(out, p->min_change_pct);
	if (p->test == HISTORY_PERMUTATION)
		strbuf_addf(out, ", \"permutations\": %u, \"seed\": %" PRIu64,
			    p->permutations, p->seed);
	strbuf_addstr(out, "},\n");
}

/*
 * The perfsift-history/1 document of one series: its points (every run,
 * not only the means, so a reader can redo the test), the change points
 * and the outliers.  Written by hand in a fixed key order, so the output
 * is stable line by line for the tests and for diffs between runs.
 */
static void render_json(struct strbuf *out, const struct history_series *s,
			const struct history_result *r,
			const struct history_params *p)
{
	size_t i, j;

	strbuf_addstr(out, "{\n  \"schema\": \"perfsift-history/1\",\n  \"series\": ");
	strbuf_add_json_str(out, s->key);
	strbuf_addstr(out, ",\n  \"stat\": ");
	strbuf_add_json_str(out, s->stat);
	strbuf_addf(out, ",\n  \"kpi\": %s,\n  \"better\": \"%s\",\n",
		    s->is_kpi ? "true" : "false", direction_name(s->direction));
	json_params(out, p);
	strbuf_addstr(out, "  \"noise\": ");
	strbuf_add_json_num(out, r->noise);
	strbuf_addstr(out, ",\n  \"points\": [");
	for (i = 0; i < s->n; i++) {
		const struct history_commit *c = &s->commits[i];

		strbuf_addf(out, "%s\n    {\"index\": %zu, \"commit\": ",
			    i ? "," : "", i);
		strbuf_add_json_str(out, c->commit);
		strbuf_addf(out, ", \"time\": %" PRId64 ", \"runs\": [", c->time);
		for (j = 0; j < c->n; j++) {
			strbuf_addstr(out, j ? ", " : "");
			strbuf_add_json_num(out, c->v[j]);
		}
		strbuf_addstr(out, "]}");
	}
	strbuf_addstr(out, "\n  ],\n  \"change_points\": [");
	for (i = 0; i < r->nchanges; i++) {
		strbuf_addstr(out, i ? ",\n    " : "\n    ");
		json_change(out, s, &r->changes[i], false);
	}
	strbuf_addstr(out, r->nchanges ? "\n  ],\n" : "],\n");
	strbuf_addstr(out, "  \"outliers\": [");
	for (i = 0; i < r->noutliers; i++) {
		const struct history_outlier *o = &r->outliers[i];

		strbuf_addf(out, "%s\n    {\"index\": %zu, \"commit\": ",
			    i ? "," : "", o->index);
		strbuf_add_json_str(out, s->commits[o->index].commit);
		strbuf_addf(out, ", \"run\": %d, \"value\": ",
			    s->commits[o->index].runs[o->run]);
		strbuf_add_json_num(out, o->value);
		strbuf_addstr(out, ", \"expected\": ");
		strbuf_add_json_num(out, o->expected);
		strbuf_addstr(out, "}");
	}
	strbuf_addstr(out, r->noutliers ? "\n  ]\n}\n" : "]\n}\n");
}

/*
 * The change point that starts at commit index, or NULL.  A binary
 * search (r->changes is by index): the renderers call this once per
 * commit, and a ramp has a change point every dozen commits (a linear
 * scan made `history --csv` of 10^6 rows quadratic again, issue 25's F8).
 */
static const struct history_change *change_at(const struct history_result *r,
					      size_t index)
{
	size_t lo = 0, hi = r->nchanges;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->changes[mid].index < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->nchanges && r->changes[lo].index == index ?
	       &r->changes[lo] : NULL;
}

/*
 * One row per run; the change point's columns on its commit's rows.  One
 * row per run rather than per commit keeps the file flat for a
 * spreadsheet or pandas, and an outlier is marked on the run it is.
 */
static void render_csv(struct strbuf *out, const struct history_series *s,
		       const struct history_result *r)
{
	size_t i, j;

	strbuf_addstr(out, "index,commit,time,run,value,outlier,change_point,"
		      "change_pct,p,direction\n");
	for (i = 0; i < s->n; i++) {
		const struct history_commit *c = &s->commits[i];
		const struct history_change *cp = change_at(r, i);

		for (j = 0; j < c->n; j++) {
			strbuf_addf(out, "%zu,", i);
			strbuf_add_csv_str(out, c->commit);
			strbuf_addf(out, ",%" PRId64 ",%d,%.12g,%d,%d,", c->time,
				    c->runs[j], c->v[j], history_is_outlier(r, i, j),
				    cp != NULL);
			if (cp)
				strbuf_addf(out, "%.6g,%.3g,%s", cp->change_pct,
					    cp->p, history_effect(s->direction,
								  cp->change_pct));
			else
				strbuf_addstr(out, ",,");
			strbuf_addch(out, '\n');
		}
	}
}

/* "+20.3% [+18.1%, +22.4%] p=1e-09 regression (1000 -> 1203)" */
static void add_change_line(struct strbuf *out, const struct history_series *s,
			    const struct history_change *c)
{
	strbuf_addf(out, "%+.1f%% [%+.1f%%, %+.1f%%] p=%.2g %s (%.6g -> %.6g)",
		    c->change_pct, c->ci_lo, c->ci_hi, c->p,
		    history_effect(s->direction, c->change_pct), c->before,
		    c->after);
}

/*
 * Otava's look: the series, a dotted line where the level changes.  Per
 * commit its mean and sample standard deviation (n - 1: the runs are a
 * sample of what the commit does), and how many of its runs were
 * outliers, since an outlier is left out of the test but not hidden.
 */
static void render_text(struct strbuf *out, const struct history_series *s,
			const struct history_result *r)
{
	size_t i, j, runs = 0;

	for (i = 0; i < s->n; i++)
		runs += s->commits[i].n;
	strbuf_addf(out, "series:  %s\nstat:    %s (%s%s)\n"
		    "commits: %zu, runs: %zu, change points: %zu, outliers: %zu\n\n",
		    s->key, s->stat, s->direction > 0 ? "higher is better" : s->direction < 0 ? "lower is better" : "direction unknown",
		    s->is_kpi ? ", a KPI" : "", s->n, runs, r->nchanges,
		    r->noutliers);
	strbuf_addf(out, "%6s  %-16s %4s  %12s  %10s\n", "index", "commit",
		    "runs", "mean", "stddev");
	for (i = 0; i < s->n; i++) {
		const struct history_commit *c = &s->commits[i];
		const struct history_change *cp = change_at(r, i);
		double m = stats_mean(c->v, c->n), sd = 0;
		size_t nout = 0;

		for (j = 0; j < c->n; j++) {
			sd += (c->v[j] - m) * (c->v[j] - m);
			nout += history_is_outlier(r, i, j);
		}
		sd = c->n > 1 ? sqrt(sd / (double)(c->n - 1)) : 0;
		if (cp) {
			strbuf_addstr(out, "        ·························· ");
			add_change_line(out, s, cp);
			strbuf_addch(out, '\n');
		}
		strbuf_addf(out, "%6zu  %-16.16s %4zu  %12.6g  %10.4g", i,
			    c->commit, c->n, m, sd);
		if (nout)
			strbuf_addf(out, "  outlier: %zu of %zu runs", nout, c->n);
		strbuf_addch(out, '\n');
	}
}

/* a change point of --all, with the series it belongs to */
struct found {
	const struct history_series *s;
	struct history_change c;
};

/*
 * --all's order: the newest change first (what broke lately is what a
 * reader acts on), then by series and stat, so that equal times still
 * give one order on every machine (qsort is not stable).
 */
static int cmp_newest(const void *a, const void *b)
{
	const struct found *x = a, *y = b;
	int64_t tx = x->s->commits[x->c.index].time;
	int64_t ty = y->s->commits[y->c.index].time;
	int k;

	if (tx != ty)
		return tx > ty ? -1 : 1;
	k = strcmp(x->s->key, y->s->key);
	return k ? k : strcmp(x->s->stat, y->s->stat);
}

/*
 * --all: every change point of every series in one list (sorted here), as
 * JSON, CSV (one row per change point) or text.  nseries is printed so
 * that "0 change points" says how much was looked at.
 */
static void render_all(struct strbuf *out, struct found *f, size_t n,
		       size_t nseries, enum format fmt,
		       const struct history_params *p)
{
	size_t i;

	if (n)
		qsort(f, n, sizeof(*f), cmp_newest);
	if (fmt == FMT_JSON) {
		strbuf_addstr(out, "{\n  \"schema\": \"perfsift-history/1\",\n");
		json_params(out, p);
		strbuf_addf(out, "  \"series\": %zu,\n  \"change_points\": [",
			    nseries);
		for (i = 0; i < n; i++) {
			strbuf_addstr(out, i ? ",\n    " : "\n    ");
			json_change(out, f[i].s, &f[i].c, true);
		}
		strbuf_addstr(out, n ? "\n  ]\n}\n" : "]\n}\n");
		return;
	}
	if (fmt == FMT_CSV) {
		strbuf_addstr(out, "series,stat,index,commit,before,after,"
			      "change_pct,ci95_lo,ci95_hi,p,direction\n");
		for (i = 0; i < n; i++) {
			const struct history_change *c = &f[i].c;

			strbuf_add_csv_str(out, f[i].s->key);
			strbuf_addch(out, ',');
			strbuf_add_csv_str(out, f[i].s->stat);
			strbuf_addf(out, ",%zu,", c->index);
			strbuf_add_csv_str(out, f[i].s->commits[c->index].commit);
			strbuf_addf(out, ",%.12g,%.12g,%.6g,%.6g,%.6g,%.3g,%s\n",
				    c->before, c->after, c->change_pct, c->ci_lo,
				    c->ci_hi, c->p,
				    history_effect(f[i].s->direction,
						   c->change_pct));
		}
		return;
	}
	strbuf_addf(out, "%zu change points in %zu series, newest first\n", n,
		    nseries);
	for (i = 0; i < n; i++) {
		strbuf_addf(out, "%-16.16s %s %s\n  ",
			    f[i].s->commits[f[i].c.index].commit, f[i].s->stat,
			    f[i].s->key);
		add_change_line(out, f[i].s, &f[i].c);
		strbuf_addch(out, '\n');
	}
}

/* what the command line asked for (parse_args fills it) */
struct history_args {
	struct history_params hp;
	struct history_query q;
	const char *csv, *stat;
	enum format fmt;
	bool all;
};

/* --format: text, json or csv */
static enum format parse_format(const char *arg)
{
	if (!strcmp(arg, "text"))
		return FMT_TEXT;
	if (!strcmp(arg, "json"))
		return FMT_JSON;
	if (!strcmp(arg, "csv"))
		return FMT_CSV;
	die_status(EXIT_USAGE, "--format '%s': expected text, json or csv", arg);
}

/* --test: the test between segments; it also sets that test's p_max */
static void parse_test(struct history_params *hp, const char *arg)
{
	if (!strcmp(arg, "t"))
		history_params_set_test(hp, HISTORY_TTEST);
	else if (!strcmp(arg, "permutation"))
		history_params_set_test(hp, HISTORY_PERMUTATION);
	else
		die_status(EXIT_USAGE, "--test '%s': expected t or permutation",
			   arg);
}

/*
 * The options, into a; returns -1 when the usage was printed (with ret set:
 * 0 for --help, the usage error otherwise).  --p-max is applied after the
 * loop because --test resets p_max to its test's default: the user's
 * value must win whichever order the two come in.
 */
static int parse_args(int argc, char **argv, struct history_args *a,
		      int *ret)
{
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "repo", required_argument, NULL, OPT_REPO },
		{ "csv", required_argument, NULL, OPT_CSV },
		{ "stat", required_argument, NULL, OPT_STAT },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "test", required_argument, NULL, OPT_TEST },
		{ "p-max", required_argument, NULL, OPT_PMAX },
		{ "min-segment", required_argument, NULL, OPT_MINSEG },
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "outlier-sd", required_argument, NULL, OPT_OUTLIER },
		{ "min-change", required_argument, NULL, OPT_MINCHG },
		{ "permutations", required_argument, NULL, OPT_PERMS },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct history_params *hp = &a->hp;
	bool have_pmax = false;
	double pmax = 0;
	int c;

	while ((c = cmd_getopt(argc, argv, "ah", longopts)) != -1) {
		switch (c) {
		case 'a': a->all = true; break;
		case OPT_REPO: a->q.repo = optarg; break;
		case OPT_CSV: a->csv = optarg; break;
		case OPT_STAT: a->stat = optarg; break;
		case OPT_JSON: a->fmt = FMT_JSON; break;
		case OPT_FORMAT: a->fmt = parse_format(optarg); break;
		case OPT_TEST: parse_test(hp, optarg); break;
		case OPT_PMAX:
			pmax = cmd_double_arg("--p-max", optarg, 0, 1);
			have_pmax = true;
			break;
		case OPT_MINSEG:
			hp->min_segment = (size_t)cmd_double_arg("--min-segment", optarg, 1, 1e6);
			break;
		case OPT_WINDOW:
			hp->window = (size_t)cmd_double_arg("--window", optarg, 2, 1e9);
			break;
		case OPT_OUTLIER:
			hp->outlier_sd = cmd_double_arg("--outlier-sd", optarg, 0, 1e300);
			break;
		case OPT_MINCHG:
			hp->min_change_pct = cmd_double_arg("--min-change", optarg, 0, 1e300);
			break;
		case OPT_PERMS:
			hp->permutations = (unsigned)cmd_double_arg("--permutations", optarg,
							     1, 1e6);
			break;
		case OPT_SEED: hp->seed = cmd_seed_arg(optarg); break;
		case 'h':
			*ret = cmd_usage(usage_text, false);
			return -1;
		default:
			*ret = cmd_usage(usage_text, true);
			return -1;
		}
	}
	if (have_pmax)
		hp->p_max = pmax;
	if (hp->window < hp->min_segment)
		die_status(EXIT_USAGE, "--window %zu is shorter than --min-segment %zu",
			   hp->window, hp->min_segment);
	return 0;
}

/*
 * The series: from the CSV file, or from the index (STAT and the
 * selectors are the arguments left after the options).  -1 when the
 * usage was printed (ret set), as parse_args.
 */
static int load_series(int argc, char **argv, struct options *opts,
		       struct history_args *a, struct history_set *set,
		       int *ret)
{
	struct strbuf err = STRBUF_INIT;
	struct store st;

	if (a->csv) {
		if (optind < argc)
			die_status(EXIT_USAGE, "--csv takes no STAT or SELECTOR ('%s')",
				   argv[optind]);
		if (!a->stat && !a->all)
			die_status(EXIT_USAGE, "--csv needs --stat COLUMN or --all");
		if (history_load_csv(a->csv, a->stat, set, &err))
			die_status(EXIT_USAGE, "%s", err.buf);
		strbuf_release(&err);
		return 0;
	}
	if (a->stat)
		die_status(EXIT_USAGE, "--stat goes with --csv; name the stat first");
	if (!a->all) {
		if (optind >= argc) {
			*ret = cmd_usage(usage_text, true);
			return -1;
		}
		a->q.stat = argv[optind++];
	}
	a->q.selectors = (const char *const *)argv + optind;
	a->q.nselectors = (size_t)(argc - optind);
	if (result_store_open(&st, opts->result_root, opts->store_url, 0, &err)) {
		/* "error:" as every reading command says it (a full disk, L9) */
		error("%s", err.buf);
		strbuf_release(&err);
		*ret = EXIT_RUNTIME;
		return -1;
	}
	if (history_load_store(&st, &a->q, set, &err)) {
		store_close(&st);
		die_status(EXIT_USAGE, "%s", err.buf);
	}
	store_close(&st);
	if (set->off_path)
		note("%zu commits are not on the first-parent history of "
		     "'%s' and were left out", set->off_path, a->q.repo);
	strbuf_release(&err);
	return 0;
}

/*
 * One stat: its series must be in exactly one group, since the series of
 * two groups (two testboxes, say) are not one history; the error lists
 * the groups so the user can pick one with a selector.
 */
static void show_one(struct strbuf *out, const struct history_args *a,
		     const struct history_set *set)
{
	struct strbuf err = STRBUF_INIT;
	struct history_point *pts;
	struct history_result r;
	size_t i;

	if (!set->n)
		die_status(EXIT_USAGE, "no values of '%s' in the groups selected",
			   a->csv ? a->stat : a->q.stat);
	if (set->n > 1) {
		strbuf_addf(&err, "'%s' is in %zu groups; name one with a selector:",
			    set->items[0].stat, set->n);
		for (i = 0; i < set->n; i++)
			strbuf_addf(&err, "\n  %s", set->items[i].key);
		die_status(EXIT_USAGE, "%s", err.buf);
	}
	pts = history_points(&set->items[0]);
	history_detect(pts, set->items[0].n, &a->hp, &r);
	free(pts);
	if (a->fmt == FMT_JSON)
		render_json(out, &set->items[0], &r, &a->hp);
	else if (a->fmt == FMT_CSV)
		render_csv(out, &set->items[0], &r);
	else
		render_text(out, &set->items[0], &r);
	history_result_release(&r);
}

/* --all: the change points of every series, gathered, then newest first */
static void show_all(struct strbuf *out, const struct history_args *a,
		     const struct history_set *set)
{
	struct found *found = NULL;
	size_t nfound = 0, alloc_found = 0, i, j;

	for (i = 0; i < set->n; i++) {
		struct history_point *pts = history_points(&set->items[i]);
		struct history_result r;

		history_detect(pts, set->items[i].n, &a->hp, &r);
		free(pts);
		for (j = 0; j < r.nchanges; j++) {
			ALLOC_GROW(found, nfound + 1, alloc_found);
			found[nfound].s = &set->items[i];
			found[nfound++].c = r.changes[j];
		}
		history_result_release(&r);
	}
	render_all(out, found, nfound, set->n, a->fmt, &a->hp);
	free(found);
}

int cmd_history(int argc, char **argv, struct options *opts)
{
	struct history_args a = { .fmt = FMT_TEXT };
	struct history_set set;
	struct strbuf out = STRBUF_INIT;
	int ret = EXIT_OK;

	history_params_init(&a.hp);
	if (parse_args(argc, argv, &a, &ret))
		return ret;
	history_set_init(&set);
	if (load_series(argc, argv, opts, &a, &set, &ret)) {
		history_set_release(&set);
		return ret;
	}
	/* all the output is built first, so an error leaves stdout empty */
	if (a.all)
		show_all(&out, &a, &set);
	else
		show_one(&out, &a, &set);
	fwrite(out.buf, 1, out.len, stdout);
	history_set_release(&set);
	strbuf_release(&out);
	return EXIT_OK;
}
