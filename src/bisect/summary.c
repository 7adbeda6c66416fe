/*
 * summary.c: the words of a bisect (bisect.h): one endpoint's line, and
 * the summary of a finished bisect -- the culprit or the range, the KPI,
 * every commit's verdict (an undecided one named so, never good or bad)
 * and the confirmation.  Apart from the driver (driver.c) because it is
 * pure formatting of the state the driver leaves.
 */
#include "util/compat.h"
#include <math.h>
#include "bisect/bisect.h"
#include "util/short_sha.h"
#include "util/strbuf.h"

/*
 * The median and the range of the trimmed samples, as LKP's bisect mails
 * show an endpoint: the reader sees at once how far apart good and bad
 * are against their own spread.
 */
void bisect_describe(struct strbuf *sb, const char *label,
		     const struct bisect_commit *c, const double *v, size_t n)
{
	struct lkp_summary s;

	bisect_summarize(v, n, &s);
	strbuf_addf(sb, "  %-5s %.*s: median %.6g [%.6g - %.6g] (%zu runs)",
		    label, SHORT_SHA_LEN, c->sha, s.median, s.min, s.max, n);
}

void bisect_format_result(const struct bisect_state *st,
			  enum bisect_outcome outcome, struct strbuf *out)
{
	const struct bisect_commit *fb, *good, *bad;
	size_t i, runs_measured = 0;

	/* a refusal, an error or an interruption says its own words */
	if (outcome != BISECT_FOUND && outcome != BISECT_RANGE)
		return;
	fb = &st->commits[st->first_bad];
	good = &st->commits[0];
	bad = &st->commits[st->ncommits - 1];
	if (outcome == BISECT_FOUND) {
		strbuf_addf(out, "first bad commit: %s %s\n", fb->sha,
			    fb->subject);
	} else {
		size_t nundecided = 0;

		for (i = st->lo + 1; i < st->first_bad; i++)
			nundecided += st->commits[i].verdict == BISECT_UNDECIDED;
		/* an undecided commit is named so: it was run, not broken */
		strbuf_addf(out,
			    "the first bad commit could be any of (%zu skipped",
			    st->nskipped);
		if (nundecided)
			strbuf_addf(out, ", %zu of them undecided after "
				    "--max-runs", nundecided);
		strbuf_addstr(out, "):\n");
		for (i = st->lo + 1; i <= st->first_bad; i++)
			if (bisect_verdict_skips(st->commits[i].verdict) ||
			    i == st->first_bad)
				strbuf_addf(out, "  %s %s\n",
					    st->commits[i].sha,
					    st->commits[i].subject);
	}
	strbuf_addf(out, "KPI: %s%s\n", st->stat,
		    st->stat_chosen ? " (chosen automatically)" : "");
	bisect_describe(out, "good", good, good->kpi, good->nkpi);
	strbuf_addch(out, '\n');
	bisect_describe(out, "bad", bad, bad->kpi, bad->nkpi);
	strbuf_addch(out, '\n');
	for (i = 1; i + 1 < st->ncommits; i++)
		runs_measured += st->commits[i].runs;
	strbuf_addf(out,
		    "commits tested: %zu of %zu between good and bad "
		    "(%zu measured now, %zu from the index)\n",
		    st->tested, st->ncommits - 2, st->measured, st->reused);
	strbuf_addf(out,
		    "runs spent: %zu (%zu on commits between good and bad, "
		    "the confirmation included)\n",
		    st->runs, runs_measured);
	/*
	 * Every judged commit with its verdict's own name -- "undecided" for
	 * one left so at --max-runs, beside "skip" for one that could not
	 * run -- so that nothing is silently counted good or bad.
	 */
	for (i = 1; i + 1 < st->ncommits; i++) {
		const struct bisect_commit *c = &st->commits[i];

		if (c->verdict == BISECT_UNTESTED)
			continue;
		strbuf_addf(out, "  %-4s %.*s", bisect_verdict_name(c->verdict),
			    SHORT_SHA_LEN, c->sha);
		if (c->nkpi) {
			struct lkp_summary s;

			bisect_summarize(c->kpi, c->nkpi, &s);
			strbuf_addf(out, " median %.6g (%zu runs)", s.median,
				    c->nkpi);
		}
		if (c->why)
			strbuf_addf(out, " [%s]", c->why);
		strbuf_addf(out, "  %s\n", c->subject);
	}
	/* the confirmation's own runs only, parent then culprit */
	if (st->confirm != BISECT_CONFIRM_NONE) {
		struct lkp_summary sa, sb;

		bisect_summarize(st->confirm_a, st->nconfirm_a, &sa);
		bisect_summarize(st->confirm_b, st->nconfirm_b, &sb);
		strbuf_addf(out, "confirmation: %s\n",
			    st->confirm == BISECT_CONFIRMED ? "confirmed" :
			    st->confirm == BISECT_CONFIRM_UNDECIDED ?
			    "undecided (neither shown again nor shown the same "
			    "at --max-runs)" : "not reproducible");
		if (st->nconfirm_a && st->nconfirm_b)
			strbuf_addf(out,
				    "  parent  %.*s: median %.6g [%.6g - %.6g] "
				    "(%zu runs)\n"
				    "  culprit %.*s: median %.6g [%.6g - %.6g] "
				    "(%zu runs)\n"
				    "  change: %+.1f%% (interleaved ABAB)\n",
				    SHORT_SHA_LEN,
				    st->commits[st->first_bad - 1].sha,
				    sa.median, sa.min, sa.max, st->nconfirm_a,
				    SHORT_SHA_LEN, fb->sha, sb.median, sb.min,
				    sb.max, st->nconfirm_b,
				    sa.median ? 100 * (sb.median - sa.median) /
							fabs(sa.median)
					      : 0);
	}
}
