/*
 * email.c: the e-mail text.  It leads with the answer: subject, "FYI, we
 * noticed that ...", the commit, then the headline KPI's row and its chart
 * (a reader who stops there knows what changed and how surely), the stats
 * that explain the change with their charts, and only then the seed's
 * (spec §6, 2016) comparison table as compare.h renders it, the test box,
 * "To reproduce:" and a disclaimer.
 */
#include "util/compat.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "plot/plot.h"
#include "report/report.h"
#include "util/short_sha.h"
#include "util/strbuf.h"
#include "util/trust.h"

/*
 * A full or long abbreviated git hash (12..64 hex digits, SHA-1 or
 * SHA-256): only those are shortened.  A branch, a tag or a short hash
 * the user typed is printed as given, since cutting it could make it
 * name nothing, or something else.
 */
static bool is_hex_sha(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return n >= 12 && n <= 64 && !s[n];
}

/* SHORT_SHA_LEN hex digits of a long hash, as every shortened commit
 * perfsift prints (util/short_sha.h says why that many) */
void report_short_commit(struct strbuf *out, const char *commit)
{
	if (!commit || !*commit)
		strbuf_addstr(out, "unknown");
	else if (is_hex_sha(commit))
		strbuf_add(out, commit, SHORT_SHA_LEN);
	else
		strbuf_addstr(out, commit);
}

/*
 * The KPI's chart is the first chart when there is one (build.c puts it
 * there); the text draws it under the KPI's row and the HTML beside it,
 * and neither draws it twice among the explaining stats' charts.
 */
const struct report_stat *report_kpi_chart(const struct report *r)
{
	if (!r->kpi || !r->ncharts || strcmp(r->charts[0]->name, r->kpi->name))
		return NULL;
	return r->charts[0];
}

void report_heading(struct strbuf *out, const char *heading)
{
	if (heading && is_hex_sha(heading))
		report_short_commit(out, heading);
	else
		strbuf_addstr(out, heading ? heading : "");
}

/*
 * A change as compare's table prints it: a percentage with one decimal,
 * an absolute difference for the stats compared absolutely (where a
 * base of 0 would make any percentage infinite), and %g past 100000% so
 * a change from almost nothing does not print a 12-digit number.
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

/*
 * The word after the change.  Undecided comes first: a mail never calls
 * a change an improvement or a regression before the statistics do.  A
 * stat that did not change is "unchanged" whatever its sign; a failure
 * stat (its change is the %reproduction) keeps its effect word, since a
 * failure that appears is news even below the change test's bar.
 */
const char *report_effect_word(const struct report_stat *s)
{
	if (s->undecided)
		return "undecided"; /* never "improvement" before it is one */
	if (!s->changed && !s->is_function)
		return "unchanged"; /* its sign alone is no regression */
	return s->effect ? s->effect : "change";
}

/*
 * "[perfsift] [TREE] COMMIT (SETTING): KPI +12.3% regression", so that a
 * mailbox sorted by subject groups a tree's reports and the subject alone
 * says what moved and how much, as LKP's "[linux-next] ..." subjects do.
 */
void report_subject(struct strbuf *out, const struct report *r)
{
	strbuf_addstr(out, "[perfsift] ");
	if (r->tree)
		strbuf_addf(out, "[%s] ", r->tree);
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
 * A mean as LKP prints one: two decimals below 1000, a whole number up to
 * 1e8 (the decimals of a throughput of millions are noise), then %g so a
 * huge count keeps its width.
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
 * The explaining stats with both sides' means and, when judged, their
 * separation: a reader who wants the cause looks here before the table,
 * and "no monitor stat changed" is said outright rather than left to be
 * inferred from an empty list.
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
		if (s->separation > 0) /* NAN: not judged */
			strbuf_addf(out, ", separation %.2f", s->separation);
		strbuf_addstr(out, ")\n");
		strbuf_release(&ch);
	}
	strbuf_addch(out, '\n');
}

/* "  5004386 ±  0%" as compare's table writes a mean and its spread */
static void add_mean(struct strbuf *out, double mean, double sd)
{
	struct strbuf v = STRBUF_INIT;

	report_format_value(&v, mean);
	strbuf_addf(out, "%14s", v.buf);
	if (sd >= 0 && mean != 0 && isfinite(sd / mean))
		strbuf_addf(out, " ±%3d%%", (int)(100 * sd / fabs(mean)));
	else
		strbuf_addstr(out, "      ");
	strbuf_release(&v);
}

/* the headline KPI's row under the headings, and its chart */
static int add_kpi(struct strbuf *out, const struct report *r,
		   struct strbuf *err)
{
	const struct report_stat *s = r->kpi, *c = report_kpi_chart(r);
	struct strbuf ch = STRBUF_INIT, bh = STRBUF_INIT, hh = STRBUF_INIT;
	struct plot p;

	if (!s)
		return 0;
	report_heading(&bh, r->base_heading);
	report_heading(&hh, r->head_heading);
	if (r->kpi_fallback)
		strbuf_addf(out, "The benchmark's time, %s (these runs have no KPI):\n\n",
			    s->name);
	else
		strbuf_addf(out, "The KPI, %s:\n\n", s->name);
	strbuf_addf(out, "%20s %14s %20s\n", bh.buf, "%change", hh.buf);
	strbuf_release(&bh);
	strbuf_release(&hh);
	report_format_change(&ch, s);
	if (s->undecided)
		strbuf_addch(&ch, '?');
	add_mean(out, s->base_mean, s->base_sd);
	strbuf_addf(out, " %14s", ch.buf);
	add_mean(out, s->head_mean, s->head_sd);
	strbuf_addf(out, "  %s\n\n", s->name);
	strbuf_release(&ch);
	if (!c)
		return 0;
	if (r->bisect)
		plot_init_bisect(&p, c->name, c->base_v, c->nbase, c->head_v,
				 c->nhead);
	else
		plot_init_compare(&p, c->name, c->base_v, c->nbase, c->head_v,
				  c->nhead);
	if (plot_ascii(&p, out, err))
		return -1;
	if (r->bisect)
		plot_ascii_legend(out);
	else
		plot_ascii_legend_compare(out);
	strbuf_addch(out, '\n');
	return 0;
}

/* the charts after the KPI's: the explaining stats' */
static int add_charts(struct strbuf *out, const struct report *r,
		      struct strbuf *err)
{
	size_t i = report_kpi_chart(r) ? 1 : 0;

	for (; i < r->ncharts; i++) {
		const struct report_stat *s = r->charts[i];
		struct plot p;

		if (r->bisect)
			plot_init_bisect(&p, s->name, s->base_v, s->nbase,
					 s->head_v, s->nhead);
		else
			plot_init_compare(&p, s->name, s->base_v, s->nbase,
					  s->head_v, s->nhead);
		if (plot_ascii(&p, out, err))
			return -1;
		strbuf_addch(out, '\n');
	}
	return 0;
}

/*
 * A fact of the runs, as the text shows it: the runs' job.yaml may be
 * another box's (pulled) or a guest's, and an ESC in its governor or
 * build command reached the terminal of whoever read the report (the
 * third attack, B1).  Text with a control character is escaped
 * (\x1b); plain text is left as it is, so a real command stays one to
 * copy.
 */
static const char *shown(const char *s)
{
	return s && trust_has_ctl(s) ? trust_shown(s) : s;
}

/*
 * The test box as the runs recorded it: a number means little without the
 * machine, and THP, the governor and the kernel command line are the
 * settings most often behind "I cannot reproduce it".
 */
static void add_box(struct strbuf *out, const struct report_box *b)
{
	strbuf_addf(out, "%s: %s\n", b->host ? shown(b->host) : "unknown",
		    b->cpu_model ? shown(b->cpu_model) : "unknown CPU");
	if (b->nr_cpu)
		strbuf_addf(out, "CPUs: %s\n", shown(b->nr_cpu));
	strbuf_addf(out, "Memory: %s\n", b->memory ? shown(b->memory) : "unknown");
	if (b->thp_enabled)
		strbuf_addf(out, "THP: %s (defrag: %s)\n", shown(b->thp_enabled),
			    b->thp_defrag ? shown(b->thp_defrag) : "unknown");
	if (b->governor)
		strbuf_addf(out, "cpufreq governor: %s\n", shown(b->governor));
	if (b->cmdline)
		strbuf_addf(out, "Kernel command line: %s\n", shown(b->cmdline));
	if (b->settings)
		strbuf_addf(out, "Set by the job: %s\n", shown(b->settings));
}

/* one line of "To reproduce": indent, the formatted text, a newline */
static void PRINTF_LIKE(3, 4) repro_line(struct strbuf *out, const char *indent,
					 const char *fmt, ...)
{
	va_list ap;

	strbuf_addstr(out, indent);
	va_start(ap, fmt);
	strbuf_vaddf(out, fmt, ap);
	va_end(ap);
	strbuf_addch(out, '\n');
}

/* a build or install command given (an empty one is none: the robot's
 * `install: ""`), so there is something to write after `&&` */
static bool given(const char *cmd)
{
	return cmd && *cmd;
}

/* the step that makes commit what the runs ran: checkout, build, install */
static void repro_build(struct strbuf *out, const char *indent,
			const struct report_repro *rp, const char *commit)
{
	if (!commit) {
		repro_line(out, indent, "# the runs do not say which commit they ran on");
		return;
	}
	if (!given(rp->build) && !given(rp->install)) {
		repro_line(out, indent, "# build and install (boot) %s", commit);
		return;
	}
	strbuf_addf(out, "%sgit checkout --detach %s", indent, commit);
	if (given(rp->build))
		strbuf_addf(out, " && %s", shown(rp->build));
	if (given(rp->install))
		strbuf_addf(out, " && %s", shown(rp->install));
	strbuf_addch(out, '\n');
}

/* `perfsift run JOB -n N --commit C [-- CMD]`, as the runs were made */
static void repro_run(struct strbuf *out, const char *indent,
		      const struct report_repro *rp, const char *job,
		      size_t runs, const char *commit)
{
	strbuf_addf(out, "%sperfsift run %s", indent, job);
	if (runs > 1)
		strbuf_addf(out, " -n %zu", runs);
	if (commit)
		strbuf_addf(out, " --commit %s", commit);
	if (rp->cmd && rp->cmd_plain)
		strbuf_addf(out, " -- %s", shown(rp->cmd));
	strbuf_addch(out, '\n');
}

/*
 * "To reproduce": the commands in the order a reader types them, each
 * from what the runs recorded -- the job file attached, the build and
 * install commands the robot used, the run counts.  What is not known is
 * said in a comment line rather than guessed: a wrong command that looks
 * right costs a reader more than a gap that says it is one.  `install`
 * comes after the build because it checks that the job's command exists.
 */
void report_repro_text(const struct report *r, struct strbuf *out,
		       const char *indent)
{
	const struct report_repro *rp = &r->repro;
	const char *job = r->job_file ? r->job_file : "job.yaml";
	const char *bjob = rp->base_job_file ? rp->base_job_file : job;
	bool one_commit = rp->base_commit && rp->head_commit &&
			  !strcmp(rp->base_commit, rp->head_commit);

	if (rp->no_job) {
		repro_line(out, indent, "# the head runs have no job.yaml (an LKP result root): the job,");
		repro_line(out, indent, "# its command and how the commits were built are not known, and");
		repro_line(out, indent, "# no job file is attached; with runs of your own of both sides:");
	} else {
		repro_line(out, indent, "# %s is the job the head runs ran, attached beside this report", job);
		if (rp->base_job_file)
			repro_line(out, indent, "# %s is the base's job (%s)", rp->base_job_file,
				   r->base_setting ? shown(r->base_setting) : "its settings differ");
		if (rp->no_base_job)
			repro_line(out, indent, "# the base runs have no job.yaml: the head's job is run for both");
		if (rp->cmd && !rp->cmd_plain)
			repro_line(out, indent, "# the command is the job file's mytest.cmdline: %s", shown(rp->cmd));
		if (given(rp->build) || given(rp->install))
			repro_line(out, indent, "# in a checkout of the source tree, as the runs were made:");
		else if (rp->base_commit || rp->head_commit)
			repro_line(out, indent, "# how the commits were built and installed is not recorded in the runs");
		/* after the build: install checks the job's command is there */
		repro_build(out, indent, rp, rp->base_commit);
		repro_line(out, indent, "perfsift install %s", job);
		repro_run(out, indent, rp, bjob, rp->base_runs, rp->base_commit);
		if (!one_commit)
			repro_build(out, indent, rp, rp->head_commit);
		repro_run(out, indent, rp, job, rp->head_runs, rp->head_commit);
	}
	repro_line(out, indent, "perfsift compare %s %s",
		   rp->base_sel ? rp->base_sel : "BASE",
		   rp->head_sel ? rp->head_sel : "HEAD");
}

int report_text(const struct report *r, struct strbuf *out, struct strbuf *err)
{
	strbuf_addstr(out, "Subject: ");
	report_subject(out, r);
	strbuf_addstr(out, "\n\n");
	return report_text_body(r, out, err);
}

/*
 * The body without the Subject: line, for senders that set the subject
 * themselves (the robot's mail).  The order is the reader's: the answer,
 * the commit, the KPI's row and chart, the cause, the full table, the
 * box, how to reproduce, and last the disclaimer.
 */
int report_text_body(const struct report *r, struct strbuf *out,
		     struct strbuf *err)
{
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
	if (r->runs_note)
		strbuf_addstr(out, r->runs_note);
	strbuf_addstr(out, "\n");

	if (add_kpi(out, r, err))
		return -1;
	add_explain(out, r);
	if (add_charts(out, r, err))
		return -1;
	if (r->table)
		strbuf_addstr(out, r->table);
	strbuf_addch(out, '\n');
	add_box(out, &r->box);
	strbuf_addch(out, '\n');

	strbuf_addstr(out, "\nTo reproduce:\n\n");
	report_repro_text(r, out, "        ");
	strbuf_addstr(out, "\n\n");
	strbuf_addstr(out,
		      "Disclaimer:\n"
		      "These results were measured on the test box above and are given for\n"
		      "information only: other hardware, kernels or settings may give other\n"
		      "numbers.  Reproduce them before acting on them.\n\n"
		      "Thanks,\n"
		      "perfsift\n");
	return 0;
}
