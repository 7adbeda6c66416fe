/*
 * stress_ng.c: stress-ng, run and parsed as LKP's programs/stress-ng does.
 * The run: `stress-ng --timeout TESTTIME --times --verify --metrics
 * --no-rand-seed --TEST NR_THREADS 2>&1` (or `--sequential N --class
 * CLASS`), plus perfsift's --TEST-ops for fixed work.  The parser reads
 * the metrics table after its `(secs) (secs) (secs)` header up to `for a
 * ... run time:`: each stressor's row gives STRESSOR.pass (or .fail when
 * it did no bogo op), .ops and .ops_per_sec (real time); each extra
 * metric row `(average per stressor)`, `(geometric mean ...)`, ... gives
 * STRESSOR.UNIT with its words joined and normalized as LKP's
 * LKP::Stats.normalize does.  A `sigaction signal` failure is
 * sigaction.fail; other fail/warn lines are skipped.
 */
#include "util/compat.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "external/external.h"
#include "external/ext_params.h"
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- the parser */

/* where an extra metric's description ends: its kind of mean, to the end */
static struct ext_re re_misc_kind = {.pattern = " \\((average|geometr?ic mean|harmonic mean|total|maximum|minimum)[^\n]*\\)$"};
static struct ext_re re_misc = {.pattern = "stress-ng: (info|metrc):.*\\((average|geometr?ic mean|harmonic mean|total|maximum|minimum)"};
static struct ext_re re_header = {.pattern = "\\(secs\\)[[:space:]]+\\(secs\\)[[:space:]]+\\(secs\\)"};
static struct ext_re re_sigaction = {.pattern = "stress-ng: fail:.*sigaction signal"};

/*
 * LKP::Stats.normalize: runs of blanks, commas, quotes, underscores,
 * brackets, parentheses and colons become one `_`, none at either end,
 * and four or more dots become one.
 */
static void lkp_normalize(struct strbuf *out, const char *s)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *p;
	size_t start = out->len, i;

	for (p = s; *p;) {
		if (isspace((unsigned char)*p) || strchr(",\"_[]():", *p)) {
			while (*p && (isspace((unsigned char)*p) || strchr(",\"_[]():", *p)))
				p++;
			strbuf_addch(&tmp, '_');
		} else if (p[0] == '.' && p[1] == '.' && p[2] == '.' && p[3] == '.') {
			while (*p == '.')
				p++;
			strbuf_addch(&tmp, '.');
		} else {
			strbuf_addch(&tmp, *p++);
		}
	}
	/* the ends: a leading or trailing `_` goes */
	for (i = 0; i < tmp.len && tmp.buf[i] == '_'; i++)
		;
	strbuf_add(out, tmp.buf + i, tmp.len - i);
	while (out->len > start && out->buf[out->len - 1] == '_')
		strbuf_setlen(out, out->len - 1);
	strbuf_release(&tmp);
}

/* STRESSOR VALUE WORDS... (KIND ...): STRESSOR.UNIT: VALUE */
static void misc_metric(struct strbuf *out, const char *line)
{
	struct strbuf cut = STRBUF_INIT, unit = STRBUF_INIT, words = STRBUF_INIT;
	struct mon_fields f;
	regmatch_t m[1];
	size_t i;

	strbuf_addstr(&cut, line);
	if (ext_match(&re_misc_kind, cut.buf, m, 1))
		strbuf_setlen(&cut, (size_t)m[0].rm_so);
	mon_fields_init(&f);
	mon_fields_split(&f, cut.buf, NULL);
	if (f.n > 5) {
		for (i = 5; i < f.n; i++)
			strbuf_addf(&words, "%s%s", i > 5 ? "_" : "", f.v[i]);
		lkp_normalize(&unit, words.buf);
		if (!strcmp(f.v[4], "0") || !strcmp(f.v[4], "0.00"))
			strbuf_addf(out, "%s.%s.fail: 1\n", f.v[3], unit.buf);
		else
			strbuf_addf(out, "%s.%s.pass: 1\n%s.%s: %s\n", f.v[3], unit.buf,
				    f.v[3], unit.buf, f.v[4]);
	}
	mon_fields_release(&f);
	strbuf_release(&cut);
	strbuf_release(&unit);
	strbuf_release(&words);
}

/* a stressor's row: 10 words (info) or 12 (metrc, with CPU used and RSS) */
static void major_metric(struct strbuf *out, const char *line)
{
	struct mon_fields f;

	mon_fields_init(&f);
	mon_fields_split(&f, line, NULL);
	if (f.n == 10 || f.n == 12) {
		if (!strcmp(f.v[4], "0"))
			strbuf_addf(out, "%s.fail: 1\n", f.v[3]);
		else
			strbuf_addf(out, "%s.pass: 1\n%s.ops: %s\n%s.ops_per_sec: %s\n",
				    f.v[3], f.v[3], f.v[4], f.v[3], f.v[8]);
	}
	mon_fields_release(&f);
}

DECLARE_PARSER(parse_stress_ng)
{
	struct mon_lines it;
	bool table = false;

	(void)path;
	(void)err;
	mon_lines_init(&it, raw, len);
	while (mon_lines_next(&it)) {
		const char *line = it.line.buf;

		/* the order of these tests is LKP's: the first that fits decides */
		if (strstr(line, "this stressor is not implemented on this system") ||
		    strstr(line, "No stress workers invoked"))
			break;
		if (strstr(line, "all bogo-op counters are zero, data may be incorrect"))
			continue;
		if (ext_match(&re_sigaction, line, NULL, 0)) {
			strbuf_addstr(out, "sigaction.fail: 1\n");
			break;
		}
		if (strstr(line, "fail:") || strstr(line, "warn:"))
			continue;
		if (ext_match(&re_header, line, NULL, 0)) {
			table = true;
		} else if (strstr(line, "run time:")) {
			break;
		} else if (table) {
			if (ext_match(&re_misc, line, NULL, 0))
				misc_metric(out, line);
			else
				major_metric(out, line);
		}
	}
	mon_lines_release(&it);
	return 0;
}

/* ---- the run */

static int sng_prepare(struct bench_ctx *ctx, struct strbuf *err)
{
	const struct stress_ng_opts *o = ctx->params;
	struct ext_argv *a;
	uint64_t n = param_cpus_of(&o->nr_threads, ctx->nr_cpu);

	if (ext_need("stress-ng", "stress-ng", err))
		return BENCH_ERROR;
	if (!o->test && !o->klass) {
		strbuf_addstr(err, "stress-ng: the job gives neither `test` nor `class`");
		return BENCH_ERROR;
	}
	a = xcalloc(1, sizeof(*a));
	ext_argv_push(a, "stress-ng");
	/* LKP's common options; its default testtime is 1 s */
	ext_argv_push(a, "--timeout");
	ext_argv_pushf(a, "%.0f", o->testtime > 0 ? o->testtime : 1);
	ext_argv_push(a, "--times");
	ext_argv_push(a, "--verify");
	ext_argv_push(a, "--metrics");
	ext_argv_push(a, "--no-rand-seed");
	if (o->test) {
		ext_argv_pushf(a, "--%s", o->test);
		ext_argv_pushf(a, "%" PRIu64, n);
		if (o->ops) {
			ext_argv_pushf(a, "--%s-ops", o->test);
			ext_argv_pushf(a, "%" PRIu64, o->ops);
		}
		if (o->method) {
			ext_argv_pushf(a, "--%s-method", o->test);
			ext_argv_push(a, o->method);
		}
	} else {
		/* spawn and exec cannot run as root: LKP leaves them out of a class */
		ext_argv_push(a, "--sequential");
		ext_argv_pushf(a, "%" PRIu64, n);
		ext_argv_push(a, "--class");
		ext_argv_push(a, o->klass);
		ext_argv_push(a, "--exclude");
		ext_argv_push(a, "spawn,exec");
	}
	if (o->sched) {
		ext_argv_push(a, "--sched");
		ext_argv_push(a, o->sched);
	}
	ctx->priv = a;
	return BENCH_OK;
}

static int sng_run(struct bench_ctx *ctx)
{
	/* stress-ng writes its scratch files in the working directory */
	if (chdir(ctx->scratch) < 0)
		perror(ctx->scratch);
	return ext_run(((struct ext_argv *)ctx->priv)->v, NULL, true);
}

const struct bench_ops bench_stress_ng = {
	.name = "stress-ng",
	/* LKP's index-perf-all.yaml: stress-ng\..+_per_sec: 1 */
	.kpi = "stress-ng.*.ops_per_sec: higher",
	.prepare = sng_prepare,
	.run = sng_run,
	.cleanup = ext_argv_cleanup,
};
