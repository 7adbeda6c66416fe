/*
 * text.c: the two line formats of `perfsift compare` (compare.h): the
 * text table byte for byte as the seed prints it (spec/lkp-compare.md
 * §3, 2016 formats: `±` on every row, relative %change for every stat),
 * with the KPI tally and the undecided lines under it, and the CSV (one
 * line per stat and column, for spreadsheets).  Only formatting: every
 * number was decided by compare_groups().
 */
#include "util/compat.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "compare/internal.h"
#include "result/floor.h"
#include "select/select.h"
#include "util/strbuf.h"

#define LABEL0_WIDTH 16 /* the seed's column labels: 16 and 26 characters */
#define LABEL_WIDTH 26
#define RULE_WIDTH 89

/* ---- the text table ---- */

/*
 * LKP's three number formats in one 10-character column: two decimals
 * for small means, an integer in the middle range, %g once a count is
 * too wide for the column.
 */
void compare_format_mean(struct strbuf *out, double mean)
{
	if (fabs(mean) < 1000)
		strbuf_addf(out, "%10.2f", mean);
	else if (fabs(mean) > 100000000)
		strbuf_addf(out, "%10.4g", mean);
	else
		strbuf_addf(out, "%10lld", (long long)mean);
}

void compare_format_stddev(struct strbuf *out, double mean, double stddev)
{
	double pct;

	/* the seed shows ± on every row; n <= 1 has no spread to show */
	if (stddev < 0) {
		strbuf_addstr(out, "      ");
		return;
	}
	pct = mean != 0 ? 100 * stddev / fabs(mean) : stddev;
	/* capped so that a near-zero mean cannot widen the column */
	if (pct > 999999)
		pct = 999999;
	strbuf_addf(out, " \xc2\xb1%3lld%%", (long long)pct);
}

/* %g past 100000%: a change from almost nothing keeps the column width */
void compare_format_change(struct strbuf *out, double change)
{
	if (fabs(change) < 100000)
		strbuf_addf(out, "%+10.1f%% ", change);
	else
		strbuf_addf(out, "%+10.2g%% ", change);
}

/*
 * A failure stat's row: per column the %reproduction, how many runs
 * failed (blank for none, so that a real failure stands out) and of how
 * many runs.
 */
static void render_fail_row(struct strbuf *out, const struct compare_row *row,
			    size_t ncols)
{
	size_t c;

	for (c = 0; c < ncols; c++) {
		const struct compare_cell *cell = &row->cells[c];
		long long fails = (long long)cell->fails;

		if (c)
			strbuf_addf(out, "%10.0f%% ", cell->change);
		if (fails)
			strbuf_addf(out, "%11lld", fails);
		else
			strbuf_addchars(out, ' ', 11);
		strbuf_addf(out, ":%-4zu", cell->nruns);
	}
	strbuf_addf(out, "  %s\n", row->name);
}

/* a perf stat's row: per column the %change (not for the base), mean, ±% */
static void render_perf_row(struct strbuf *out, const struct compare_row *row,
			    size_t ncols)
{
	size_t c;

	for (c = 0; c < ncols; c++) {
		const struct compare_cell *cell = &row->cells[c];

		/*
		 * A side without the stat: "-" for its mean, and in place of
		 * a %change what happened -- never LKP's -100% or +5e+101%.
		 */
		if (c && !isnan(cell->change)) {
			compare_format_change(out, cell->change);
			/* an undecided KPI: `?` after its %change (the
			 * format ends in a blank) */
			if (cell_undecided(cell))
				out->buf[out->len - 1] = '?';
		} else if (c) {
			strbuf_addf(out, "%11s ", !cell->present ? "gone"
					  : !row->cells[0].present ? "new" : "");
		}
		if (!cell->present) {
			strbuf_addf(out, "%10s      ", "-");
			continue;
		}
		compare_format_mean(out, cell->mean);
		compare_format_stddev(out, cell->mean, cell->stddev);
	}
	strbuf_addf(out, "  %s\n", row->name);
}

/* a column label cut to the column's width: long commit ids must not
 * shift every number under them */
static void add_label(struct strbuf *out, const char *label, int width)
{
	strbuf_addf(out, "%*.*s ", width, width, label);
}

/*
 * Each KPI on its own: a KPI decided regressed decides the head, so no
 * other undecided KPI holds it back (undecided counts only those that
 * still matter, undecided_all every one).  Else the head waits for its
 * undecided KPIs: when one points to a regression of at least its
 * minimum effect, deciding that one decides the head, and the fewest
 * runs any such one asks for is the estimate; else every one must be
 * decided, and the most any asks for is.  `worst` is the KPI the
 * estimate comes from.
 */
void compare_kpi_tally(const struct compare_result *res,
		       struct compare_kpi_tally *t)
{
	unsigned most = 0, fewest_regr = 0;
	const struct compare_row *most_row = NULL, *regr_row = NULL;
	size_t i, c, base_limited = 0;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < res->nrows; i++)
		for (c = 1; c < res->ncols; c++) {
			const struct compare_row *row = &res->rows[i];
			const struct compare_cell *cell = &row->cells[c];

			if (!cell->kpi_judged)
				continue;
			if (!t->worst)
				t->worst = row;
			switch (cell->kpi_verdict) {
			case VERDICT_CHANGED:
				t->changed++;
				if (cell->effect == EFFECT_REGRESSION) {
					if (!t->regressed)
						t->regressed_row = row;
					t->regressed++;
				}
				break;
			case VERDICT_SAME:
				t->same++;
				break;
			case VERDICT_UNKNOWN:
				if (!most_row || cell->kpi_more_runs > most) {
					most = cell->kpi_more_runs;
					most_row = row;
				}
				if (cell->effect == EFFECT_REGRESSION &&
				    fabs(cell->change) >= cell->kpi_min_effect &&
				    (!regr_row || cell->kpi_more_runs < fewest_regr)) {
					fewest_regr = cell->kpi_more_runs;
					regr_row = row;
				}
				t->undecided_all++;
				base_limited += cell->kpi_base_limited;
				break;
			}
		}
	if (t->regressed) {
		t->worst = t->regressed_row;
		return; /* decided: nothing else can change the answer */
	}
	t->undecided = t->undecided_all;
	t->base_limited = base_limited;
	if (regr_row) {
		t->more_runs = fewest_regr;
		t->worst = regr_row;
	} else if (most_row) {
		t->more_runs = most;
		t->worst = most_row;
	}
}

const char *compare_kpi_verdict_name(const struct compare_cell *cell)
{
	if (!cell->kpi_judged)
		return NULL;
	return cell->kpi_verdict == VERDICT_UNKNOWN ?
		       "undecided" :
		       stats_verdict_name(cell->kpi_verdict);
}

/*
 * One end of a KPI's interval.  With 2 runs a side the t quantile (636
 * at 99.9%, one degree of freedom) back-transformed from the logs makes
 * bounds like +3e59%: true, and useless to read.  Beyond +-1000% the
 * bound says only that: "over +1000%".
 */
static void add_bound(struct strbuf *out, double v)
{
	if (v > 1000)
		strbuf_addstr(out, "over +1000%");
	else if (v < -1000)
		strbuf_addstr(out, "under -1000%");
	else
		strbuf_addf(out, "%+.1f%%", v);
}

void compare_undecided_line(const struct compare_result *res,
			    const struct compare_row *row, size_t c,
			    struct strbuf *out)
{
	const struct compare_cell *cell = &row->cells[c];
	size_t n = cell->nruns < row->cells[0].nruns ? cell->nruns
						      : row->cells[0].nruns;

	strbuf_addf(out, "undecided: %u more run%s a side would likely decide %s",
		    cell->kpi_more_runs, cell->kpi_more_runs == 1 ? "" : "s",
		    row->name);
	if (res->ncols > 2)
		strbuf_addf(out, " in %s", res->labels[c]);
	strbuf_addf(out, " (%+.1f%%, ", cell->change);
	/* why it is undecided: the interval against the minimum effect */
	if (n < 2 || !isfinite(cell->kpi_lo) || !isfinite(cell->kpi_hi)) {
		strbuf_addstr(out, "fewer than 2 runs a side");
	} else {
		strbuf_addstr(out, "interval [");
		add_bound(out, cell->kpi_lo);
		strbuf_addstr(out, ", ");
		add_bound(out, cell->kpi_hi);
		strbuf_addstr(out, "] from ");
		if (cell->kpi_pairs)
			strbuf_addf(out, "%zu interleaved pairs", cell->kpi_pairs);
		else
			strbuf_addf(out, "%zu + %zu unpaired runs", cell->nruns,
				    row->cells[0].nruns);
		strbuf_addf(out, ", minimum effect %.2g%%", cell->kpi_min_effect);
	}
	strbuf_addch(out, ')');
}

/*
 * The result root of an LKP-layout group directory: seven components up
 * (<root>/<testcase>/<path_params>/<tbox_group>/<rootfs>/<kconfig>/
 * <compiler>/<commit>), so that the runs land in this very group.
 */
static bool group_root(const char *dir, struct strbuf *root)
{
	const char *end = dir + strlen(dir);
	int k;

	for (k = 0; k < 7; k++) {
		while (end > dir && end[-1] != '/')
			end--;
		while (end > dir && end[-1] == '/')
			end--;
		if (end == dir)
			return false;
	}
	strbuf_reset(root);
	strbuf_add(root, dir, (size_t)(end - dir));
	return true;
}

bool compare_decide_command(const struct compare_result *res, size_t c,
			    struct strbuf *out)
{
	const struct result_group *base = res->groups[0], *head = res->groups[c];
	struct strbuf root = STRBUF_INIT;
	const char *commit;
	unsigned need = 0;
	bool any = false, head_helps = false;
	size_t i;

	for (i = 0; i < res->nrows; i++) {
		const struct compare_cell *cell = &res->rows[i].cells[c];

		if (!cell_undecided(cell))
			continue;
		any = true;
		/* runs of the head alone cannot decide a base-limited cell */
		if (!cell->kpi_base_limited) {
			head_helps = true;
			if (cell->kpi_more_runs > need)
				need = cell->kpi_more_runs;
		}
	}
	if (!any || !head_helps || !head->job_file || !head->dir ||
	    !group_root(head->dir, &root)) {
		strbuf_release(&root);
		return false;
	}
	/*
	 * --max-runs counts the group's runs, those already made too: the
	 * ones it has plus the more asked for (run's own bounds: at least
	 * 3, at most 99, LKP's limit).
	 */
	need += (unsigned)(head->matrix.nruns < 99 ? head->matrix.nruns : 99);
	need = need < 3 ? 3 : need > 99 ? 99 : need;
	strbuf_addstr(out, "perfsift --result-root ");
	strbuf_add_shell_word(out, root.buf);
	strbuf_addstr(out, " run ");
	strbuf_add_shell_word(out, head->job_file);
	/* the commit the runs are of: a run made now must measure it */
	commit = result_group_axis(head, "commit");
	if (commit) {
		strbuf_addstr(out, " --commit ");
		strbuf_add_shell_word(out, commit);
	}
	strbuf_addstr(out, " --until-decided ");
	strbuf_add_shell_word(out, base->dir ? base->dir : base->spec);
	strbuf_addf(out, " --max-runs %u", need);
	strbuf_release(&root);
	return true;
}

/*
 * One line under the table per undecided KPI cell, marked as its row,
 * then per column the command that would decide them.
 */
static void render_undecided(const struct compare_result *res,
			     struct strbuf *out)
{
	size_t i, c;

	for (c = 1; c < res->ncols; c++) {
		for (i = 0; i < res->nrows; i++) {
			const struct compare_row *row = &res->rows[i];

			if (!cell_undecided(&row->cells[c]))
				continue;
			strbuf_addstr(out, "? ");
			compare_undecided_line(res, row, c, out);
			strbuf_addch(out, '\n');
		}
		compare_decide_line(res, c, "? ", out);
	}
}

void compare_decide_line(const struct compare_result *res, size_t c,
			 const char *prefix, struct strbuf *out)
{
	struct strbuf cmd = STRBUF_INIT;

	if (compare_decide_command(res, c, &cmd))
		strbuf_addf(out, "%sto decide: %s\n", prefix, cmd.buf);
	strbuf_release(&cmd);
}

/*
 * The table as the seed prints it: the header of common and compared
 * axes, then the failure stats (only when there is one: the seed prints
 * no empty section), then the perf stats, then the undecided lines.
 */
void compare_render_text(const struct compare_result *res, struct strbuf *out)
{
	size_t c, i, nfail = 0;

	strbuf_addchars(out, '=', RULE_WIDTH);
	strbuf_addch(out, '\n');
	if (res->header_keys)
		strbuf_addf(out, "%s:\n  %s\n", res->header_keys,
			    res->header_values);
	if (res->floor) {
		/* once: which A/A the floors come from, so a reader can judge it */
		strbuf_addstr(out, "noise floor: calibrated ");
		noise_floor_date(res->floor->calibrated_at, out);
		strbuf_addf(out, ", 2 x %d runs (a change within %g x a stat's "
			    "floor is not flagged)\n", res->floor->runs, res->floor_k);
	}
	strbuf_addf(out, "\n%s: \n", res->compare_keys);
	for (c = 0; c < res->ncols; c++)
		strbuf_addf(out, "  %s\n", res->labels[c]);
	strbuf_addch(out, '\n');
	for (c = 0; c < res->ncols; c++)
		add_label(out, res->labels[c], c ? LABEL_WIDTH : LABEL0_WIDTH);
	strbuf_addch(out, '\n');
	for (c = 0; c < res->ncols; c++) {
		strbuf_addchars(out, '-', c ? LABEL_WIDTH : LABEL0_WIDTH);
		strbuf_addch(out, ' ');
	}
	strbuf_addch(out, '\n');

	for (i = 0; i < res->nrows; i++)
		nfail += res->rows[i].is_function;
	if (nfail) {
		strbuf_addstr(out, "       fail:runs");
		for (c = 1; c < res->ncols; c++)
			strbuf_addstr(out, "  %reproduction    fail:runs");
		strbuf_addstr(out, "\n           |    ");
		for (c = 1; c < res->ncols; c++)
			strbuf_addstr(out, "         |             |    ");
		strbuf_addch(out, '\n');
		for (i = 0; i < res->nrows; i++)
			if (res->rows[i].is_function)
				render_fail_row(out, &res->rows[i], res->ncols);
	}
	strbuf_addstr(out, "         %stddev");
	for (c = 1; c < res->ncols; c++)
		strbuf_addstr(out, "     %change         %stddev");
	strbuf_addstr(out, "\n             \\  ");
	for (c = 1; c < res->ncols; c++)
		strbuf_addstr(out, "        |                \\  ");
	strbuf_addch(out, '\n');
	for (i = 0; i < res->nrows; i++)
		if (!res->rows[i].is_function)
			render_perf_row(out, &res->rows[i], res->ncols);
	render_undecided(res, out);
	strbuf_addch(out, '\n');
}

/* ---- CSV ---- */

static void csv_str(struct strbuf *out, const char *s)
{
	strbuf_add_csv_str(out, s);
}

/* an empty field for "no number", which spreadsheets read as blank,
 * where "nan" or "inf" would be text in a numeric column */
static void csv_num(struct strbuf *out, double v)
{
	strbuf_addch(out, ',');
	if (isfinite(v))
		strbuf_addf(out, "%.12g", v);
}

/* `,kpi_verdict,kpi_more_runs` (empty for a cell not judged) */
static void csv_kpi_verdict(struct strbuf *out, const struct compare_cell *cell)
{
	const char *v = compare_kpi_verdict_name(cell);

	if (v)
		strbuf_addf(out, ",%s,%u\n", v, cell->kpi_more_runs);
	else
		strbuf_addstr(out, ",,\n");
}

/* one line per stat and compared column, the base's numbers repeated on
 * each: every line stands alone for a filter or a pivot table */
void compare_render_csv(const struct compare_result *res, struct strbuf *out)
{
	size_t c, i;

	strbuf_addstr(out, "stat,kind,kpi,direction,column,label,base_runs,base_mean,base_stddev,runs,mean,stddev,change_pct,ci95_lo,ci95_hi,p_welch,p_mwu,q,verdict,more_runs,lkp,changed,effect,base_missing_runs,missing_runs,kpi_verdict,kpi_more_runs\n");
	for (i = 0; i < res->nrows; i++) {
		const struct compare_row *row = &res->rows[i];
		const struct compare_cell *base = &row->cells[0];

		for (c = 1; c < res->ncols; c++) {
			const struct compare_cell *cell = &row->cells[c];

			csv_str(out, row->name);
			strbuf_addf(out, ",%s,%d,%s,%zu,",
				    row->is_function ? "failure" : "perf",
				    row->is_kpi, direction_name(row->direction), c);
			csv_str(out, res->labels[c]);
			strbuf_addf(out, ",%zu", base->nruns);
			csv_num(out, base->mean);
			csv_num(out, base->stddev < 0 ? NAN : base->stddev);
			strbuf_addf(out, ",%zu", cell->nruns);
			csv_num(out, cell->mean);
			csv_num(out, cell->stddev < 0 ? NAN : cell->stddev);
			csv_num(out, cell->change);
			csv_num(out, cell->ci_lo);
			csv_num(out, cell->ci_hi);
			csv_num(out, cell->p_welch);
			csv_num(out, cell->p_mwu);
			csv_num(out, cell->q);
			strbuf_addf(out, ",%s,%u,%s,%d,%s,%zu,%zu",
				    stats_verdict_name(cell->verdict),
				    cell->more_runs, lkp_outcome_name(cell->lkp),
				    cell->changed, compare_effect_name(cell->effect),
				    base->missing, cell->missing);
			csv_kpi_verdict(out, cell);
		}
	}
}
