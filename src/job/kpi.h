/*
 * kpi.h: a job's declared KPIs -- the `kpi:` key, mapping stat names (or
 * shell-glob patterns) to the better direction and, optionally, the
 * smallest change that matters (its minimum effect; `threshold:` is the
 * older name of the same key):
 *
 *   kpi: {mytest.score: higher}
 *   kpi: {mytest.ms: {better: lower, min_effect: 2%}}
 *
 * Parsed and checked here (FILE:LINE: kpi: ... errors); the run keeps the
 * key in its job.yaml and the index keeps one line of it (kpi_format()),
 * which is what compare, report and bisect read back.  A built-in
 * benchmark declares its own (bench_ops.kpi, from LKP's index tables),
 * which a run records when its job declares none.  The rules that use
 * them are compare/rules.h's (stat_is_kpi, stat_direction, kpi_declare)
 * and result/stats.h's (stats_kpi_verdict): they include this file, never
 * the other way round (a job is read before anything is compared).
 */
#ifndef PERFSIFT_KPI_H
#define PERFSIFT_KPI_H

#include "util/compat.h"

struct jnode;
struct job;
struct strbuf;

/*
 * A declared KPI (a job's `kpi:` key): a shell glob over stat names, the
 * better direction (+1 higher, -1 lower, 0 none given) and the smallest
 * change that matters, in percent (0: none given).
 */
struct stat_kpi {
	char *pattern;
	int direction;
	double threshold;
};

struct kpi_set {
	struct stat_kpi *v; /* in declaration order */
	size_t n, alloc;
};
void kpi_set_release(struct kpi_set *s);

/*
 * The value of a `kpi:` key read from file: 0, or -1 with err as
 * `FILE:LINE: kpi: what is wrong`.  out may be NULL (check only).
 */
int kpi_from_node(const struct jnode *v, const char *file,
		  struct kpi_set *out, struct strbuf *err);
/* the job's `kpi:` (an empty set when it has none); -1 with err */
int kpi_from_job(const struct job *job, struct kpi_set *out,
		 struct strbuf *err);

/*
 * One line for the index and the group: "PATTERN: higher|lower|none
 * [THRESHOLD%]" joined by "; " (a pattern has no blank or ';').
 */
void kpi_format(const struct kpi_set *s, struct strbuf *out);
/* kpi_format()'s text back; -1 with err when it is not one */
int kpi_parse_text(const char *text, struct kpi_set *out, struct strbuf *err);

/*
 * A job that declares no KPI gets its benchmark's declaration (a built-in
 * benchmark's bench_ops.kpi) as its `kpi:` key, so that the run records
 * what it will be judged by.  Nothing changes for other jobs.
 */
void kpi_fill_job(struct job *job);

#endif
