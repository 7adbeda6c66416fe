/*
 * sysbench.c: sysbench (Debian's 1.0) as LKP's sysbench-cpu, -memory,
 * -threads and -mutex programs: `sysbench --threads=N --time=RUNTIME TEST
 * --TEST-OPTIONS run`, or with perfsift's `events` a fixed number of
 * events (--events=E --time=0) so that tests never hang on the clock.
 * The parser (one for the four) prints the names LKP's index tables rank
 * (sysbench-*.throughput_events/s, throughput_ops/s, throughput_MB/s) and
 * the rest of sysbench's summary: total_time_s, events and the latency
 * figures in ms.
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

/* ---- the parser */

/* sysbench's summary lines and the stat each gives, verbatim (not const:
 * each regex is compiled on first use) */
static struct {
	struct ext_re re;
	const char *key;
} sb_lines[] = {
	{{.pattern = "^[[:space:]]+events per second:[[:space:]]+([0-9.]+)"}, "throughput_events/s"},
	{{.pattern = "^Total operations: [0-9]+ \\(([0-9.]+) per second\\)"}, "throughput_ops/s"},
	{{.pattern = "^[0-9.]+ MiB transferred \\(([0-9.]+) MiB/sec\\)"}, "throughput_MB/s"},
	{{.pattern = "^[[:space:]]+total time:[[:space:]]+([0-9.]+)s"}, "total_time_s"},
	{{.pattern = "^[[:space:]]+total number of events:[[:space:]]+([0-9]+)"}, "events"},
	{{.pattern = "^[[:space:]]+min:[[:space:]]+([0-9.]+)"}, "latency_min_ms"},
	{{.pattern = "^[[:space:]]+avg:[[:space:]]+([0-9.]+)"}, "latency_avg_ms"},
	{{.pattern = "^[[:space:]]+max:[[:space:]]+([0-9.]+)"}, "latency_max_ms"},
	{{.pattern = "^[[:space:]]+95th percentile:[[:space:]]+([0-9.]+)"}, "latency_95th_ms"},
};

DECLARE_PARSER(parse_sysbench)
{
	struct mon_lines it;
	double total = 0, events = 0;
	bool have_rate = false, have_total = false, have_events = false;
	regmatch_t m[2];
	size_t i;

	(void)path;
	(void)err;
	mon_lines_init(&it, raw, len);
	while (mon_lines_next(&it)) {
		for (i = 0; i < ARRAY_SIZE(sb_lines); i++) {
			if (!ext_match(&sb_lines[i].re, it.line.buf, m, 2))
				continue;
			strbuf_addf(out, "%s: ", sb_lines[i].key);
			ext_group(out, it.line.buf, &m[1]);
			strbuf_addch(out, '\n');
			have_rate |= i == 0;
			if (i == 3) {
				total = ext_to_f(it.line.buf + m[1].rm_so);
				have_total = true;
			} else if (i == 4) {
				events = ext_to_f(it.line.buf + m[1].rm_so);
				have_events = true;
			}
			break;
		}
	}
	mon_lines_release(&it);
	/* threads and mutex print no rate: events over the time they took */
	if (!have_rate && have_total && have_events && total > 0) {
		strbuf_addstr(out, "throughput_events/s: ");
		mon_ruby_float(out, ext_round(events / total, 2));
		strbuf_addch(out, '\n');
	}
	return 0;
}

/* ---- the runs */

static struct ext_argv *sb_argv(const struct bench_ctx *ctx, const char *test)
{
	const struct sysbench_opts *o = ctx->params;
	struct ext_argv *a = xcalloc(1, sizeof(*a));
	uint64_t n = param_cpus_of(&o->nr_threads, ctx->nr_cpu);

	ext_argv_push(a, "sysbench");
	ext_argv_pushf(a, "--threads=%" PRIu64, n);
	if (o->events) {
		/* fixed work: the events decide the end, never the clock */
		ext_argv_pushf(a, "--events=%" PRIu64, o->events);
		ext_argv_push(a, "--time=0");
	} else {
		/* 0 and none are the table's default already (OPTF_ZERO_DEFAULT) */
		ext_argv_pushf(a, "--time=%.0f", o->runtime);
	}
	ext_argv_push(a, test);
	return a;
}

static int sb_finish(struct bench_ctx *ctx, struct ext_argv *a, struct strbuf *err)
{
	if (ext_need("sysbench", "sysbench", err)) {
		ext_argv_release(a);
		free(a);
		return BENCH_ERROR;
	}
	ext_argv_push(a, "run");
	ctx->priv = a;
	return BENCH_OK;
}

static int cpu_prepare(struct bench_ctx *ctx, struct strbuf *err)
{
	const struct sysbench_opts *o = ctx->params;
	struct ext_argv *a = sb_argv(ctx, "cpu");

	ext_argv_pushf(a, "--cpu-max-prime=%" PRIu64, o->cpu_max_prime);
	return sb_finish(ctx, a, err);
}

static int memory_prepare(struct bench_ctx *ctx, struct strbuf *err)
{
	const struct sysbench_opts *o = ctx->params;
	struct ext_argv *a = sb_argv(ctx, "memory");

	ext_argv_pushf(a, "--memory-block-size=%" PRIu64, o->memory_block_size);
	ext_argv_pushf(a, "--memory-total-size=%" PRIu64, o->memory_total_size);
	ext_argv_pushf(a, "--memory-oper=%s", o->memory_oper);
	ext_argv_pushf(a, "--memory-access-mode=%s", o->memory_access_mode);
	return sb_finish(ctx, a, err);
}

static int threads_prepare(struct bench_ctx *ctx, struct strbuf *err)
{
	const struct sysbench_opts *o = ctx->params;
	struct ext_argv *a = sb_argv(ctx, "threads");

	ext_argv_pushf(a, "--thread-yields=%" PRIu64, o->thread_yields);
	ext_argv_pushf(a, "--thread-locks=%" PRIu64, o->thread_locks);
	return sb_finish(ctx, a, err);
}

static int mutex_prepare(struct bench_ctx *ctx, struct strbuf *err)
{
	const struct sysbench_opts *o = ctx->params;
	struct ext_argv *a = sb_argv(ctx, "mutex");

	ext_argv_pushf(a, "--mutex-num=%" PRIu64, o->mutex_num);
	ext_argv_pushf(a, "--mutex-locks=%" PRIu64, o->mutex_locks);
	ext_argv_pushf(a, "--mutex-loops=%" PRIu64, o->mutex_loops);
	return sb_finish(ctx, a, err);
}

/* LKP's index-perf-all.yaml: sysbench\-.+\.throughput_{events,ops,MB}/s: 1 */
const struct bench_ops bench_sysbench_cpu = {
	.name = "sysbench-cpu", .kpi = "sysbench-cpu.throughput_events/s: higher",
	.prepare = cpu_prepare, .run = ext_argv_run, .cleanup = ext_argv_cleanup};
const struct bench_ops bench_sysbench_memory = {
	.name = "sysbench-memory", .kpi = "sysbench-memory.throughput_MB/s: higher",
	.prepare = memory_prepare, .run = ext_argv_run, .cleanup = ext_argv_cleanup};
const struct bench_ops bench_sysbench_threads = {
	.name = "sysbench-threads", .kpi = "sysbench-threads.throughput_events/s: higher",
	.prepare = threads_prepare, .run = ext_argv_run, .cleanup = ext_argv_cleanup};
const struct bench_ops bench_sysbench_mutex = {
	.name = "sysbench-mutex", .kpi = "sysbench-mutex.throughput_events/s: higher",
	.prepare = mutex_prepare, .run = ext_argv_run, .cleanup = ext_argv_cleanup};
