/*
 * text.c: the e-mail text, in the seed's order (spec §6, 2016):
 * subject, "FYI, we noticed that ...", the commit, the stats that explain
 * the change (perfsift's addition, before the numbers), the comparison
 * table as compare.h renders it, the test box, the charts with their
 * legend, "To reproduce:" and a disclaimer.
 */
#include "util/compat.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "plot/plot.h"
#include "report/report.h"
#include "util/strbuf.h"

/*
 * A git object id (SHA-1's 40 or SHA-256's 64 hex digits, or an
 * abbreviation of 12 or more): only those are cut short; a commit named
 * otherwise ("c19", "v6.8") is printed whole, since cutting it would
 * change what it names.
 */
static bool is_hex_sha(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return n >= 12 && n <= 64 && !s[n];
}

/* ten digits, as the 0-day reports write commits (unique in practice) */
void report_short_commit(struct strbuf *out, const char *commit)
{
	if (!commit || !*commit)
		strbuf_addstr(out, "unknown");
	else if (is_hex_sha(commit))
		strbuf_add(out, commit, 10);
	else
		strbuf_addstr(out, commit);
}

/*
 * A change as LKP's table writes it: a percentage with one decimal, %g
 * past 100000% so a column stays narrow, or an absolute difference when
 * the stat is marked so (build.c marks none today: the seed report gives
 * %change for every stat).
 */
void report_format_change(struct strbuf *out, const struct report_stat *s)
{
	if (isnan(s->change))
		strbuf_addch(out, '-'); /* a side has no value: no change */
	else if (s->absolute)
		strbuf_addf(out, "%+.2f", s->change);
	else if (fabs(s->change) < 100000)
		strbuf_addf(out, "%+.1f%%", s->change);
	else
		strbuf_addf(out, "%+.2g%%", s->change);
}

const char *report_effect_word(const struct report_stat *s)
{
	if (s->undecided)
		return "undecided"; /* never "improvement" before it is one */
	return s->effect ? s->effect : "change";
}

/*
 * The e-mail subject: commit, the head's setting when the sides differ by
 * a parameter rather than a commit, then the headline stat, so a mailbox
 * listing alone says what changed and how much.
 */
void report_subject(struct strbuf *out, const struct report *r)
{
	strbuf_addstr(out, "[perfsift] ");
	report_short_commit(out, r->commit);
	if (r->head_setting)
		strbuf_addf(out, " (%s)", r->head_setting);
	strbuf_addstr(out, ": ");
	if (r->kpi) {
		strbuf_addf(out, "%s ", r->kpi->name);
		report_format_change(out, r->kpi);
		strbuf_addf(out, " %s", report_effect_word(r->kpi));
	} else {
		strbuf_addstr(out, "no stat to report");
	}
}

/*
 * A mean in a line of text: two decimals while they mean something, whole
 * numbers in the thousands (a count of pages or bytes), %g for the very
 * large, where the low digits are noise.
 */
void report_format_value(struct strbuf *out, double v)
{
	if (isnan(v))
		strbuf_addch(out, '-'); /* no run has the stat */
	else if (fabs(v) < 1000)
		strbuf_addf(out, "%.2f", v);
	else if (fabs(v) > 100000000)
		strbuf_addf(out, "%.4g", v);
	else
		strbuf_addf(out, "%lld", (long long)v);
}

/*
 * The monitor stats that changed most, as the 0-day report lists them
 * under its headline: a reader's first clue to why the KPI moved.  The
 * count of stats compared is given either way, so "none changed" is seen
 * to be a result, not a missing section.
 */
static void add_explain(struct strbuf *out, const struct report *r)
{
	size_t i;

	if (!r->nexplain) {
		strbuf_addf(out,
			    "No monitor stat changed significantly (%zu stats compared).\n\n",
			    r->nstats);
		return;
	}
	strbuf_addf(out,
		    "The stats that best explain it (largest significant changes of %zu compared):\n\n",
		    r->nstats);
	for (i = 0; i < r->nexplain; i++) {
		const struct report_stat *s = r->explain[i];
		struct strbuf ch = STRBUF_INIT;

		report_format_change(&ch, s);
		strbuf_addf(out, "  %2zu. %9s  %s  (", i + 1, ch.buf, s->name);
		report_format_value(out, s->base_mean);
		strbuf_addstr(out, " -> ");
		report_format_value(out, s->head_mean);
		strbuf_addstr(out, ")\n");
		strbuf_release(&ch);
	}
	strbuf_addch(out, '\n');
}

/*
 * The test machine, as the report's reader needs it to judge the result:
 * CPU, memory and the settings that most often explain a difference
 * between two machines (THP, governor, kernel command line); a setting
 * the runs did not record is left out rather than guessed.
 */
static void add_box(struct strbuf *out, const struct report_box *b)
{
	strbuf_addf(out, "%s: %s\n", b->host ? b->host : "unknown",
		    b->cpu_model ? b->cpu_model : "unknown CPU");
	if (b->nr_cpu)
		strbuf_addf(out, "CPUs: %s\n", b->nr_cpu);
	strbuf_addf(out, "Memory: %s\n", b->memory ? b->memory : "unknown");
	if (b->thp_enabled)
		strbuf_addf(out, "THP: %s (defrag: %s)\n", b->thp_enabled,
			    b->thp_defrag ? b->thp_defrag : "unknown");
	if (b->governor)
		strbuf_addf(out, "cpufreq governor: %s\n", b->governor);
	if (b->cmdline)
		strbuf_addf(out, "Kernel command line: %s\n", b->cmdline);
}

int report_text(const struct report *r, struct strbuf *out, struct strbuf *err)
{
	size_t i;

	strbuf_addstr(out, "Subject: ");
	report_subject(out, r);
	strbuf_addstr(out, "\n\n");
	if (r->kpi) {
		strbuf_addf(out, "FYI, we noticed that %s ", r->kpi->name);
		report_format_change(out, r->kpi);
		strbuf_addf(out, " %s on\n\n", report_effect_word(r->kpi));
	} else {
		strbuf_addstr(out, "FYI, we compared the results of\n\n");
	}
	strbuf_addf(out, "commit %s", r->commit ? r->commit : "unknown");
	if (r->subject)
		strbuf_addf(out, " (\"%s\")", r->subject);
	if (r->head_setting)
		strbuf_addf(out, " with %s", r->head_setting);
	strbuf_addstr(out, "\n");
	if (r->base_label) {
		strbuf_addf(out, "against %s", r->base_label);
		if (r->base_setting)
			strbuf_addf(out, " with %s", r->base_setting);
		strbuf_addstr(out, "\n");
	}
	strbuf_addstr(out, "\n");
	if (r->undecided)
		strbuf_addstr(out, r->undecided);
	strbuf_addstr(out, "\n");

	add_explain(out, r);
	if (r->table)
		strbuf_addstr(out, r->table);
	strbuf_addch(out, '\n');
	add_box(out, &r->box);
	strbuf_addch(out, '\n');

	for (i = 0; i < r->ncharts; i++) {
		const struct report_stat *s = r->charts[i];
		struct plot p;

		plot_init_bisect(&p, s->name, s->base_v, s->nbase, s->head_v,
				 s->nhead);
		if (plot_ascii(&p, out, err))
			return -1;
	}
	if (r->ncharts) {
		plot_ascii_legend(out);
		strbuf_addch(out, '\n');
	}

	strbuf_addf(out,
		    "\nTo reproduce:\n\n"
		    "        perfsift install %s  # job file is attached beside this report\n"
		    "        perfsift run %s\n\n\n",
		    r->job_file ? r->job_file : "job.yaml",
		    r->job_file ? r->job_file : "job.yaml");
	strbuf_addstr(out,
		      "Disclaimer:\n"
		      "These results were measured on the test box above and are given for\n"
		      "information only: other hardware, kernels or settings may give other\n"
		      "numbers.  Reproduce them before acting on them.\n\n"
		      "Thanks,\n"
		      "perfsift\n");
	return 0;
}
