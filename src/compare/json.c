/*
 * json.c: `perfsift compare --json` (compare.h), schema perfsift-compare/1.
 *
 * The document is built as jansson values (the library the project uses
 * for JSON), so that keys, quoting and nesting come from one place and
 * not from format strings.  It is then written by a small writer of our
 * own rather than json_dumps(), because the published layout -- one
 * top-level key a line, one group, row or undecided cell a line, a row's
 * "base" and "columns" on lines of their own -- is not one of
 * json_dumps' indentations, and scripts and the e2e tests read it byte
 * for byte.  Numbers keep perfsift's "%.12g" (null when not finite):
 * jansson would print 2 as 2.0 and refuse a NaN.
 */
#include "util/compat.h"
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "compare/internal.h"
#include "result/floor.h"
#include "select/select.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* a number of the document: a real, or null when there is none */
static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/*
 * Strings are stat names, labels and paths: not always UTF-8 (a path
 * is bytes), so no UTF-8 check; the writer escapes them as before.
 */
static json_t *jstr(const char *s)
{
	return json_string_nocheck(s);
}

static json_t *jcount(size_t n)
{
	return json_integer((json_int_t)n);
}

/* ---- the writer ---- */

/*
 * Depth 0 is the document: a key a line.  Arrays at depth 1 (groups,
 * rows, undecided): an element a line.  Everything deeper is inline,
 * but for these keys of a row, which start a line of their own.
 */
static bool breaks_line(int depth, const char *key)
{
	return depth == 2 && (!strcmp(key, "base") || !strcmp(key, "columns"));
}

static void write_value(struct strbuf *out, json_t *v, int depth);

static void write_object(struct strbuf *out, json_t *v, int depth)
{
	const char *key;
	json_t *member;
	bool first = true;

	strbuf_addstr(out, depth ? "{" : "{\n");
	json_object_foreach(v, key, member) {
		if (depth == 0)
			strbuf_addstr(out, first ? "  " : ",\n  ");
		else if (!first)
			strbuf_addstr(out, breaks_line(depth, key) ?
					   ",\n      " : ", ");
		strbuf_add_json_str(out, key);
		strbuf_addstr(out, ": ");
		write_value(out, member, depth + 1);
		first = false;
	}
	strbuf_addstr(out, depth ? "}" : "\n}");
}

static void write_array(struct strbuf *out, json_t *v, int depth)
{
	size_t i;
	json_t *elem;

	strbuf_addch(out, '[');
	json_array_foreach(v, i, elem) {
		if (depth == 1)
			strbuf_addstr(out, i ? ",\n    " : "\n    ");
		else if (i)
			strbuf_addstr(out, ", ");
		write_value(out, elem, depth + 1);
	}
	if (depth == 1 && json_array_size(v))
		strbuf_addstr(out, "\n  ");
	strbuf_addch(out, ']');
}

static void write_value(struct strbuf *out, json_t *v, int depth)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		write_object(out, v, depth);
		break;
	case JSON_ARRAY:
		write_array(out, v, depth);
		break;
	case JSON_STRING:
		strbuf_add_json_str(out, json_string_value(v));
		break;
	case JSON_INTEGER:
		strbuf_addf(out, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		strbuf_add_json_num(out, json_real_value(v));
		break;
	case JSON_TRUE:
		strbuf_addstr(out, "true");
		break;
	case JSON_FALSE:
		strbuf_addstr(out, "false");
		break;
	case JSON_NULL:
		strbuf_addstr(out, "null");
		break;
	}
}

/* ---- the document ---- */

/* the KPI verdict of a cell: null (and 0 runs) for a cell not judged */
static void add_kpi_verdict(json_t *o, const struct compare_cell *cell)
{
	const char *v = compare_kpi_verdict_name(cell);

	json_object_set_new(o, "kpi_verdict", v ? jstr(v) : json_null());
	json_object_set_new(o, "kpi_more_runs", jcount(cell->kpi_more_runs));
	/* what the verdict was drawn from: its interval, pairs, minimum */
	json_object_set_new(o, "kpi_interval",
			    cell->kpi_judged ?
				    json_pack("[o, o]", jnum(cell->kpi_lo),
					      jnum(cell->kpi_hi)) :
				    json_null());
	json_object_set_new(o, "kpi_pairs", jcount(cell->kpi_pairs));
	json_object_set_new(o, "kpi_min_effect", jnum(cell->kpi_min_effect));
}

/* a failure stat's count of failing runs, printed as "%.0f" always was */
static json_t *jfails(double fails)
{
	return json_integer((json_int_t)nearbyint(fails));
}

static json_t *group_json(const struct compare_result *res, size_t c)
{
	const struct result_group *g = res->groups[c];
	json_t *o = json_object(), *axes = json_object();
	size_t k;

	json_object_set_new(o, "label", jstr(res->labels[c]));
	json_object_set_new(o, "spec", jstr(g->spec ? g->spec : ""));
	json_object_set_new(o, "dir", g->dir ? jstr(g->dir) : json_null());
	json_object_set_new(o, "runs", jcount(g->matrix.nruns));
	for (k = 0; k < g->naxes; k++)
		json_object_set_new_nocheck(axes, g->axes[k].key,
				    jstr(g->axes[k].value));
	json_object_set_new(o, "axes", axes);
	return o;
}

static json_t *base_json(const struct compare_row *row)
{
	const struct compare_cell *b = &row->cells[0];
	json_t *o = json_object();

	json_object_set_new(o, "present", json_boolean(b->present));
	json_object_set_new(o, "runs", jcount(b->nruns));
	json_object_set_new(o, "missing_runs", jcount(b->missing));
	json_object_set_new(o, "mean", jnum(b->mean));
	json_object_set_new(o, "stddev", jnum(b->stddev < 0 ? NAN : b->stddev));
	if (row->is_function)
		json_object_set_new(o, "fails", jfails(b->fails));
	return o;
}

static json_t *column_json(const struct compare_row *row, size_t c)
{
	const struct compare_cell *cell = &row->cells[c];
	json_t *o = json_object(), *ci = json_array();

	json_object_set_new(o, "group", jcount(c));
	json_object_set_new(o, "present", json_boolean(cell->present));
	json_object_set_new(o, "runs", jcount(cell->nruns));
	json_object_set_new(o, "missing_runs", jcount(cell->missing));
	json_object_set_new(o, "mean", jnum(cell->mean));
	json_object_set_new(o, "stddev",
			    jnum(cell->stddev < 0 ? NAN : cell->stddev));
	/* a failure stat's change is LKP's %reproduction */
	if (row->is_function) {
		json_object_set_new(o, "fails", jfails(cell->fails));
		json_object_set_new(o, "reproduction_pct", jnum(cell->change));
	} else {
		json_object_set_new(o, "change_pct", jnum(cell->change));
	}
	json_array_append_new(ci, jnum(cell->ci_lo));
	json_array_append_new(ci, jnum(cell->ci_hi));
	json_object_set_new(o, "ci95_pct", ci);
	json_object_set_new(o, "p_welch", jnum(cell->p_welch));
	json_object_set_new(o, "p_mwu", jnum(cell->p_mwu));
	json_object_set_new(o, "q", jnum(cell->q));
	json_object_set_new(o, "p_guard", jnum(cell->p_guard));
	/* only where a default rule took the cell out (rules.h) */
	if (cell->noise_rule != NOISE_RULE_PASS)
		json_object_set_new(o, "noise_rule",
				    jstr(stat_noise_rule_name(cell->noise_rule)));
	json_object_set_new(o, "verdict",
			    jstr(stats_verdict_name(cell->verdict)));
	json_object_set_new(o, "more_runs", jcount(cell->more_runs));
	json_object_set_new(o, "lkp", jstr(lkp_outcome_name(cell->lkp)));
	json_object_set_new(o, "changed", json_boolean(cell->changed));
	json_object_set_new(o, "effect",
			    jstr(compare_effect_name(cell->effect)));
	add_kpi_verdict(o, cell);
	/* the calibrated floor, and whether it kept the cell unflagged */
	json_object_set_new(o, "noise_floor_pct", jnum(cell->floor_pct));
	json_object_set_new(o, "floor_used",
			    json_boolean(!isnan(cell->floor_pct)));
	json_object_set_new(o, "within_floor", json_boolean(cell->within_floor));
	return o;
}

static json_t *row_json(const struct compare_result *res,
			const struct compare_row *row)
{
	json_t *o = json_object(), *cols = json_array();
	size_t c;

	json_object_set_new(o, "stat", jstr(row->name));
	json_object_set_new(o, "kind",
			    jstr(row->is_function ? "failure" : "perf"));
	json_object_set_new(o, "kpi", json_boolean(row->is_kpi));
	json_object_set_new(o, "direction",
			    jstr(direction_name(row->direction)));
	json_object_set_new(o, "changed", json_boolean(row->changed));
	json_object_set_new(o, "base", base_json(row));
	for (c = 1; c < res->ncols; c++)
		json_array_append_new(cols, column_json(row, c));
	json_object_set_new(o, "columns", cols);
	return o;
}

/* every undecided KPI cell, with the line the table prints for it */
static json_t *undecided_json(const struct compare_result *res)
{
	struct strbuf line = STRBUF_INIT;
	json_t *a = json_array();
	size_t i, c;

	for (i = 0; i < res->nrows; i++)
		for (c = 1; c < res->ncols; c++) {
			const struct compare_row *row = &res->rows[i];
			json_t *o;

			if (!cell_undecided(&row->cells[c]))
				continue;
			o = json_object();
			json_object_set_new(o, "stat", jstr(row->name));
			json_object_set_new(o, "group", jcount(c));
			json_object_set_new(o, "more_runs",
					    jcount(row->cells[c].kpi_more_runs));
			strbuf_reset(&line);
			compare_undecided_line(res, row, c, &line);
			json_object_set_new(o, "text", jstr(line.buf));
			json_array_append_new(a, o);
		}
	strbuf_release(&line);
	return a;
}

/* the calibration the comparison used, or null */
static json_t *floor_json(const struct compare_result *res)
{
	struct strbuf date = STRBUF_INIT;
	json_t *o;

	if (!res->floor)
		return json_null();
	o = json_object();
	noise_floor_date(res->floor->calibrated_at, &date);
	json_object_set_new(o, "series", jstr(res->floor->series));
	json_object_set_new(o, "machine", jstr(res->floor->machine));
	json_object_set_new(o, "commit", jstr(res->floor->commit));
	json_object_set_new(o, "calibrated_at",
			    json_integer((json_int_t)res->floor->calibrated_at));
	json_object_set_new(o, "calibrated", jstr(date.buf));
	json_object_set_new(o, "runs_a_half", jcount((size_t)res->floor->runs));
	json_object_set_new(o, "k", jnum(res->floor_k));
	strbuf_release(&date);
	return o;
}

/* the settings the numbers were computed with, for a reader to check */
static void add_settings(json_t *doc, const struct compare_options *o)
{
	json_t *boot = json_object(), *guard;

	json_object_set_new(doc, "schema", jstr("perfsift-compare/1"));
	json_object_set_new(doc, "method",
			    jstr(o->method == COMPARE_STATS ? "stats" : "lkp"));
	json_object_set_new(doc, "alpha", jnum(o->alpha));
	json_object_set_new(doc, "margin_pct", jnum(o->margin));
	json_object_set_new(boot, "iterations", jcount(o->boot_iters));
	/* the seed fits: --seed takes at most LLONG_MAX (cmd/args.c) */
	json_object_set_new(boot, "seed", json_integer((json_int_t)o->seed));
	json_object_set_new(doc, "bootstrap", boot);
	if (o->lkp_exact || o->guard_level <= 0) {
		guard = json_null();
	} else {
		guard = json_object();
		json_object_set_new(guard, "test",
				    jstr("min(moderated-t, welch)"));
		json_object_set_new(guard, "level", jnum(o->guard_level));
		json_object_set_new(guard, "below_runs", jcount(o->guard_runs));
	}
	json_object_set_new(doc, "noise_guard", guard);
}

void compare_render_json(const struct compare_result *res,
			 const struct compare_options *o, struct strbuf *out)
{
	json_t *doc, *groups, *rows;
	size_t c, i;

	/*
	 * jansson allocates through xmalloc: out of memory dies, as it does
	 * everywhere in perfsift (xalloc.h), so no value below is NULL and
	 * no key can go missing from the document unnoticed.
	 */
	json_set_alloc_funcs(xmalloc, free);
	doc = json_object();
	groups = json_array();
	rows = json_array();

	add_settings(doc, o);
	json_object_set_new(doc, "nstats", jcount(res->nstats));
	json_object_set_new(doc, "kpi_regressed",
			    json_boolean(res->kpi_regressed));
	json_object_set_new(doc, "compare_axes",
			    jstr(res->compare_keys ? res->compare_keys : ""));
	for (c = 0; c < res->ncols; c++)
		json_array_append_new(groups, group_json(res, c));
	json_object_set_new(doc, "groups", groups);
	for (i = 0; i < res->nrows; i++)
		json_array_append_new(rows, row_json(res, &res->rows[i]));
	json_object_set_new(doc, "rows", rows);
	json_object_set_new(doc, "undecided", undecided_json(res));
	json_object_set_new(doc, "noise_floor", floor_json(res));
	write_value(out, doc, 0);
	strbuf_addch(out, '\n');
	json_decref(doc);
}
