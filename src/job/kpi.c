/*
 * kpi.c: the `kpi:` job key (kpi.h) -- read and checked from the job
 * tree, kept as one line in the index, declared into the statistics'
 * rules, and filled in from a built-in benchmark's own declaration.
 */
#include "util/compat.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "benchmarks/bench.h"
#include "job/job.h"
#include "job/kpi.h"
#include "job/programs.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/xalloc.h"

/*
 * A min_effect above 1000% is a typo (a missing %, "2" meant as a ratio)
 * rather than an intent: no change that large needs a threshold to be seen.
 */
#define KPI_MAX_THRESHOLD 1000.0 /* percent */

void kpi_set_release(struct kpi_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].pattern);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static void kpi_add(struct kpi_set *s, const char *pattern, int direction,
		    double threshold)
{
	if (!s)
		return;
	ALLOC_GROW(s->v, s->n + 1, s->alloc);
	s->v[s->n].pattern = xstrdup(pattern);
	s->v[s->n].direction = direction;
	s->v[s->n].threshold = threshold;
	s->n++;
}

/*
 * Every error is `FILE:LINE: kpi: ...` on the line of the value at fault,
 * as the job checker's are; a node without a line reads as line 1.
 */
static void kpi_err(struct strbuf *err, const char *file, int line,
		    const char *fmt, const char *a, const char *b)
{
	strbuf_reset(err);
	strbuf_addf(err, "%s:%d: kpi: ", file, line > 0 ? line : 1);
	strbuf_addf(err, fmt, a, b);
}

/* "higher", "lower", or "none": +1, -1, 0; -2 for anything else */
static int parse_direction(const char *s)
{
	if (!strcmp(s, "higher"))
		return 1;
	if (!strcmp(s, "lower"))
		return -1;
	if (!strcmp(s, "none"))
		return 0;
	return -2;
}

/*
 * "2%" or "2": 0 with *pct, -1 when it is not a percentage in range
 *
 * (The % may be left out: a threshold has no other unit, so "2" and "2%"
 * are the same 2 percent.)
 */
static int parse_threshold(const char *s, double *pct)
{
	char *num = xstrdup(s);
	size_t len = strlen(num);
	const char *why;
	int ret;

	if (len && num[len - 1] == '%')
		num[len - 1] = '\0';
	ret = strnum_double(num, pct, &why) || !isfinite(*pct) || *pct < 0 ||
			      *pct > KPI_MAX_THRESHOLD ? -1 : 0;
	free(num);
	return ret;
}

/* a pattern is one word: a stat name has no blank, and the index line
 * separates declarations by ';' */
static bool valid_pattern(const char *p)
{
	return *p && !strpbrk(p, " \t\n\r;");
}

/*
 * One declaration, in any of the three spellings a job may use:
 * `STAT:` (a KPI with no better direction), `STAT: higher|lower`, or
 * `STAT: {better: higher, min_effect: 2%}`.  Anything else is refused
 * with the spelling that was expected, since a KPI read wrongly would
 * decide a robot's verdicts wrongly for as long as the job runs.
 */
static int kpi_entry(const char *file, const char *pattern,
		     const struct jnode *v, struct kpi_set *out,
		     struct strbuf *err)
{
	int direction = 0;
	double threshold = 0;
	size_t i;

	if (!valid_pattern(pattern)) {
		kpi_err(err, file, v->line,
			"'%s' is not a stat name or pattern (one word, no ';')%s",
			pattern, "");
		return -1;
	}
	switch (v->type) {
	case JNODE_NULL: /* a KPI without a direction */
		break;
	case JNODE_SCALAR:
		direction = parse_direction(v->text);
		if (direction == -2) {
			kpi_err(err, file, v->line,
				"%s: '%s' is not higher or lower (which is better)",
				pattern, v->text);
			return -1;
		}
		break;
	case JNODE_SEQ:
		kpi_err(err, file, v->line,
			"%s: expected higher, lower or {better: ..., min_effect: N%%}, not a list%s",
			pattern, "");
		return -1;
	case JNODE_MAP:
		for (i = 0; i < v->n; i++) {
			const struct jnode *kid = v->kids[i];
			const char *key = v->keys[i];

			if (kid->type != JNODE_SCALAR) {
				kpi_err(err, file, kid->line,
					"%s: %s: expected a value", pattern, key);
				return -1;
			}
			if (!strcmp(key, "better")) {
				direction = parse_direction(kid->text);
				if (direction == -2) {
					kpi_err(err, file, kid->line,
						"%s: better: '%s' is not higher or lower",
						pattern, kid->text);
					return -1;
				}
			} else if (!strcmp(key, "min_effect") ||
				   !strcmp(key, "threshold")) {
				/* threshold: the older name of min_effect */
				if (parse_threshold(kid->text, &threshold)) {
					kpi_err(err, file, kid->line,
						!strcmp(key, "threshold") ?
							"%s: threshold: '%s' is not a percentage from 0 to 1000 (e.g. 2%%)" :
							"%s: min_effect: '%s' is not a percentage from 0 to 1000 (e.g. 2%%)",
						pattern, kid->text);
					return -1;
				}
			} else {
				kpi_err(err, file, kid->line,
					"%s: unknown key '%s' (expected better, min_effect)",
					pattern, key);
				return -1;
			}
		}
		break;
	}
	kpi_add(out, pattern, direction, threshold);
	return 0;
}

/* all or nothing: on an error `out` is emptied, never left half read */
int kpi_from_node(const struct jnode *v, const char *file,
		  struct kpi_set *out, struct strbuf *err)
{
	size_t i;

	if (v->type != JNODE_MAP || !v->n) {
		kpi_err(err, file, v->line,
			"expected a mapping of stat names (or patterns) to higher or lower, e.g. {mytest.score: higher}%s%s",
			"", "");
		return -1;
	}
	for (i = 0; i < v->n; i++)
		if (kpi_entry(file, v->keys[i], v->kids[i], out, err)) {
			if (out)
				kpi_set_release(out);
			return -1;
		}
	return 0;
}

int kpi_from_job(const struct job *job, struct kpi_set *out,
		 struct strbuf *err)
{
	const struct jnode *v = jnode_get(job->root, "kpi");

	memset(out, 0, sizeof(*out));
	if (!v)
		return 0;
	return kpi_from_node(v, v->file ? v->file : job->file, out, err);
}

static const char *direction_word(int d)
{
	return d > 0 ? "higher" : d < 0 ? "lower" : "none";
}

/*
 * The one-line form the index keeps ("STAT: higher 2%; STAT: lower"):
 * kpi_parse_text() reads it back, so a group found in the index carries
 * the KPIs its job declared without the job file being read again.
 */
void kpi_format(const struct kpi_set *s, struct strbuf *out)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		strbuf_addf(out, "%s%s: %s", i ? "; " : "", s->v[i].pattern,
			    direction_word(s->v[i].direction));
		if (s->v[i].threshold > 0)
			strbuf_addf(out, " %g%%", s->v[i].threshold);
	}
}

int kpi_parse_text(const char *text, struct kpi_set *out, struct strbuf *err)
{
	char *copy = xstrdup(text), *save = NULL, *tok;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	for (tok = strtok_r(copy, ";", &save); tok && !ret;
	     tok = strtok_r(NULL, ";", &save)) {
		char *sep, *dir, *thr;
		double threshold = 0;
		int d;

		while (*tok == ' ')
			tok++;
		sep = strstr(tok, ": ");
		if (!sep) {
			ret = -1;
			break;
		}
		*sep = '\0';
		dir = sep + 2;
		thr = strchr(dir, ' ');
		if (thr)
			*thr++ = '\0';
		d = parse_direction(dir);
		if (d == -2 || !valid_pattern(tok) ||
		    (thr && parse_threshold(thr, &threshold))) {
			ret = -1;
			break;
		}
		kpi_add(out, tok, d, threshold);
	}
	if (ret) {
		strbuf_addf(err, "'%s' is not a KPI declaration", text);
		kpi_set_release(out);
	}
	free(copy);
	return ret;
}

/*
 * A job that declares no KPIs gets its built-in benchmark's (bench_ops'
 * kpi line), written into the job tree itself: the run's job.yaml then
 * says which KPIs it was judged by, and a later perfsift whose built-in
 * declaration changed still reads the old runs by the old KPIs.
 */
void kpi_fill_job(struct job *job)
{
	const struct jnode *root = job->root;
	struct strbuf err = STRBUF_INIT;
	struct kpi_set s;
	size_t i, k;

	if (jnode_get(root, "kpi"))
		return;
	for (i = 0; i < root->n; i++) {
		const struct program *p = program_find(root->keys[i]);
		const struct bench_ops *b;

		if (!p || p->kind != PROG_TEST)
			continue;
		b = bench_find(p->name);
		if (!b || !b->kpi || kpi_parse_text(b->kpi, &s, &err))
			continue;
		/* the built-in declarations give directions, no thresholds */
		for (k = 0; k < s.n; k++)
			job_set_opt(job, "kpi", s.v[k].pattern,
				    direction_word(s.v[k].direction));
		kpi_set_release(&s);
		break;
	}
	strbuf_release(&err);
}
