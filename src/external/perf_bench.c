/*
 * perf_bench.c: `perf bench` (Debian's linux-perf) as LKP's perf-bench-*
 * programs: sched-messaging (`perf bench sched messaging [--nr_loops N]
 * [--group G] [--pipe] [--thread]`), sched-pipe (`perf bench sched pipe
 * -l LOOPS [-T]`), futex (`perf bench futex TEST [--runtime S] [--threads
 * N] [--shared] ...`) and mem (`perf bench mem OP [--function F] [--size
 * S] [--nr_loops N] [--chunk C]`).  Their parsers print LKP's names:
 * total_time_sec; ops_per_sec; ops/s, wokeup_time_ms, requeued_time_ms,
 * avg_per_thread_latency_ms and stddev%; for mem, OP.FUNCTION.GB_per_sec.
 */
#include "util/compat.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "external/external.h"
#include "external/ext_params.h"
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- the parsers */

/* each line matching re: "KEY1: group 1" (and "KEY2: group 2" when given) */
static void each_match(const char *raw, size_t len, struct strbuf *out,
		       struct ext_re *re, const char *key1, const char *key2)
{
	struct mon_lines it;
	regmatch_t m[3];

	mon_lines_init(&it, raw, len);
	while (mon_lines_next(&it)) {
		if (!ext_match(re, it.line.buf, m, 3))
			continue;
		strbuf_addf(out, "%s: ", key1);
		ext_group(out, it.line.buf, &m[1]);
		strbuf_addch(out, '\n');
		if (key2) {
			strbuf_addf(out, "%s: ", key2);
			ext_group(out, it.line.buf, &m[2]);
			strbuf_addch(out, '\n');
		}
	}
	mon_lines_release(&it);
}

static struct ext_re re_total = {.pattern = "Total time:[[:space:]]*([0-9.]+)[[:space:]]*\\[sec\\]"};

DECLARE_PARSER(parse_perf_sched_messaging)
{
	(void)path;
	(void)err;
	each_match(raw, len, out, &re_total, "total_time_sec", NULL);
	return 0;
}

static struct ext_re re_ops = {.pattern = "([0-9]+) ops/sec"};

DECLARE_PARSER(parse_perf_sched_pipe)
{
	(void)path;
	(void)err;
	/* LKP reads only the rate; the total time is there as for messaging */
	each_match(raw, len, out, &re_total, "total_time_sec", NULL);
	each_match(raw, len, out, &re_ops, "ops_per_sec", NULL);
	return 0;
}

/* perf bench futex's summaries: one per test, each with its spread */
static struct ext_re re_futex_ops = {.pattern = "Averaged ([0-9.]+) operations/sec \\(\\+- ([0-9.]+)%\\)"};
static struct ext_re re_futex_wake = {.pattern = "^Wokeup [0-9]+ of [0-9]+ threads in ([0-9.]+) ms \\(\\+- ?([0-9.]+)%\\)"};
static struct ext_re re_futex_requeue = {.pattern = "^Requeued [0-9]+ of [0-9]+ threads in ([0-9.]+) ms \\(\\+- ?([0-9.]+)%\\)"};
static struct ext_re re_futex_parallel = {.pattern = "^Avg per-thread latency \\(waking [0-9]+/[0-9]+ threads\\) in ([0-9.]+) ms \\(\\+- ?([0-9.]+)%\\)"};

DECLARE_PARSER(parse_perf_futex)
{
	(void)path;
	(void)err;
	each_match(raw, len, out, &re_futex_ops, "ops/s", "stddev%");
	each_match(raw, len, out, &re_futex_wake, "wokeup_time_ms", "stddev%");
	each_match(raw, len, out, &re_futex_requeue, "requeued_time_ms", "stddev%");
	each_match(raw, len, out, &re_futex_parallel, "avg_per_thread_latency_ms", "stddev%");
	return 0;
}

/*
 * perf bench mem, as LKP's parse: `# Running 'mem/OP' benchmark:`, then
 * each `# function 'NAME' (...)` and its rate `  10.85 GB/sec`:
 * OP.NAME.GB_per_sec (bytes, KB, MB or GB; NAME `default` until a
 * function line names one).
 */
static struct ext_re re_mem_op = {.pattern = "^# Running 'mem/([A-Za-z0-9_]+)' benchmark:"};
static struct ext_re re_mem_fn = {.pattern = "^# function '([^']+)'"};
static struct ext_re re_mem_rate = {.pattern = "^[[:space:]]*([0-9.]+)d?[[:space:]]+(bytes|KB|MB|GB)/sec"};

DECLARE_PARSER(parse_perf_mem)
{
	struct strbuf op = STRBUF_INIT, fn = STRBUF_INIT;
	struct mon_lines it;
	regmatch_t m[3];

	(void)path;
	(void)err;
	strbuf_addstr(&fn, "default");
	mon_lines_init(&it, raw, len);
	while (mon_lines_next(&it)) {
		const char *l = it.line.buf;

		if (ext_match(&re_mem_op, l, m, 2)) {
			strbuf_reset(&op);
			ext_group(&op, l, &m[1]);
		} else if (ext_match(&re_mem_fn, l, m, 2)) {
			strbuf_reset(&fn);
			ext_group(&fn, l, &m[1]);
		} else if (ext_match(&re_mem_rate, l, m, 3)) {
			strbuf_addf(out, "%s.%s.", op.buf, fn.buf);
			ext_group(out, l, &m[2]);
			strbuf_addstr(out, "_per_sec: ");
			ext_group(out, l, &m[1]);
			strbuf_addch(out, '\n');
		}
	}
	mon_lines_release(&it);
	strbuf_release(&fn);
	strbuf_release(&op);
	return 0;
}

/* ---- the runs */

static struct ext_argv *perf_argv(const char *collection, const char *bench)
{
	struct ext_argv *a = xcalloc(1, sizeof(*a));

	ext_argv_push(a, "perf");
	ext_argv_push(a, "bench");
	ext_argv_push(a, collection);
	ext_argv_push(a, bench);
	return a;
}

static void push_num(struct ext_argv *a, const char *opt, uint64_t v)
{
	ext_argv_push(a, opt);
	ext_argv_pushf(a, "%" PRIu64, v);
}

static int messaging_prepare(struct bench_ctx *ctx, struct strbuf *err)
{
	const struct perf_bench_opts *o = ctx->params;
	struct ext_argv *a;

	if (ext_need("perf", "linux-perf", err))
		return BENCH_ERROR;
	a = perf_argv("sched", "messaging");
	if (o->loops)
		push_num(a, "--nr_loops", o->loops);
	if (o->groups)
		push_num(a, "--group", o->groups);
	if (o->ipc && !strcmp(o->ipc, "pipe"))
		ext_argv_push(a, "--pipe");
	if (o->mode && !strcmp(o->mode, "thread"))
		ext_argv_push(a, "--thread");
	ctx->priv = a;
	return BENCH_OK;
}

static int pipe_prepare(struct bench_ctx *ctx, struct strbuf *err)
{
	const struct perf_bench_opts *o = ctx->params;
	struct ext_argv *a;

	if (ext_need("perf", "linux-perf", err))
		return BENCH_ERROR;
	a = perf_argv("sched", "pipe");
	push_num(a, "-l", o->loops ? o->loops : 1000000);
	if (o->mode && !strcmp(o->mode, "threads"))
		ext_argv_push(a, "-T");
	ctx->priv = a;
	return BENCH_OK;
}

static int futex_prepare(struct bench_ctx *ctx, struct strbuf *err)
{
	const struct perf_bench_opts *o = ctx->params;
	const char *t = o->test;
	struct ext_argv *a;

	if (ext_need("perf", "linux-perf", err))
		return BENCH_ERROR;
	a = perf_argv("futex", t);
	/* the options LKP passes, each only to the tests that take it */
	if (o->runtime > 0 && (!strcmp(t, "hash") || !strcmp(t, "lock-pi")))
		push_num(a, "--runtime", (uint64_t)o->runtime);
	if (o->nr_task.given)
		push_num(a, "--threads", param_cpus_of(&o->nr_task, ctx->nr_cpu));
	if (o->shared)
		ext_argv_push(a, "--shared");
	if (o->futexes && !strcmp(t, "hash"))
		push_num(a, "--futexes", o->futexes);
	if (o->nwakes && !strcmp(t, "wake"))
		push_num(a, "--nwakes", o->nwakes);
	if (o->nwakers && !strcmp(t, "wake-parallel"))
		push_num(a, "--nwakers", o->nwakers);
	if (o->nrequeue && !strcmp(t, "requeue"))
		push_num(a, "--nrequeue", o->nrequeue);
	if (o->multi && !strcmp(t, "lock-pi"))
		ext_argv_push(a, "--multi");
	ctx->priv = a;
	return BENCH_OK;
}

static int mem_prepare(struct bench_ctx *ctx, struct strbuf *err)
{
	const struct perf_bench_opts *o = ctx->params;
	struct ext_argv *a;

	if (ext_need("perf", "linux-perf", err))
		return BENCH_ERROR;
	a = perf_argv("mem", o->test);
	if (o->function) {
		ext_argv_push(a, "--function");
		ext_argv_push(a, o->function);
	}
	if (o->size)
		push_num(a, "--size", o->size);
	if (o->loops)
		push_num(a, "--nr_loops", o->loops);
	if (o->chunk) {
		ext_argv_push(a, "--chunk");
		ext_argv_push(a, o->chunk);
	}
	ctx->priv = a;
	return BENCH_OK;
}

const struct bench_ops bench_perf_sched_messaging = {
	.name = "perf-bench-sched-messaging",
	.kpi = "perf-bench-sched-messaging.total_time_sec: lower",
	.prepare = messaging_prepare,
	.run = ext_argv_run,
	.cleanup = ext_argv_cleanup,
};

const struct bench_ops bench_perf_sched_pipe = {
	.name = "perf-bench-sched-pipe",
	/* LKP's index-perf-all.yaml: perf-bench-sched-pipe\.ops_per_sec: 1 */
	.kpi = "perf-bench-sched-pipe.ops_per_sec: higher",
	.prepare = pipe_prepare,
	.run = ext_argv_run,
	.cleanup = ext_argv_cleanup,
};

const struct bench_ops bench_perf_futex = {
	.name = "perf-bench-futex",
	/* LKP's index tables: ops/s 1, wokeup/requeued_time_ms -1, latency -0.1 */
	.kpi = "perf-bench-futex.ops/s: higher; perf-bench-futex.wokeup_time_ms: lower; "
	       "perf-bench-futex.requeued_time_ms: lower; "
	       "perf-bench-futex.avg_per_thread_latency_ms: lower",
	.prepare = futex_prepare,
	.run = ext_argv_run,
	.cleanup = ext_argv_cleanup,
};

const struct bench_ops bench_perf_mem = {
	.name = "perf-bench-mem",
	.kpi = "perf-bench-mem.*_per_sec: higher",
	.prepare = mem_prepare,
	.run = ext_argv_run,
	.cleanup = ext_argv_cleanup,
};
