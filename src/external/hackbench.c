/*
 * hackbench.c: hackbench (Debian's rt-tests), run and parsed as LKP's
 * programs/hackbench does.  The run: `Instance: 1`, then hackbench -g
 * GROUPS -f FDS --MODE [--pipe] -l LOOPS -s DATASIZE, repeated
 * `iterations` times (each preceded by `Iterations: N`) or, without
 * iterations, until `runtime` has passed, as LKP's run_for_time does.
 * The parser turns the tasks, messages and bytes hackbench reports and
 * every `Time:` line into LKP's throughput (KiB moved per second): by the
 * best, the mean and the worst time, per instance when there are several.
 */
#include "util/compat.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include "external/external.h"
#include "external/ext_params.h"
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- the parser */

/* one instance's numbers (LKP keys them by `Instance: N`) */
struct hb_instance {
	long id;
	bool have_tasks, have_msgs;
	unsigned long long tasks, messages, bytes;
	double *time;
	size_t n, alloc;
};

struct hb_state {
	struct hb_instance *inst;
	size_t n, alloc;
	double *time; /* every Time: line, all instances */
	size_t nt, talloc;
	/* the last seen, whatever the instance: LKP's totals use these */
	unsigned long long tasks, messages, bytes;
};

/* the instance called id, made on first mention (as LKP's Hash default) */
static struct hb_instance *hb_inst(struct hb_state *s, long id)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->inst[i].id == id)
			return &s->inst[i];
	ALLOC_GROW(s->inst, s->n + 1, s->alloc);
	memset(&s->inst[s->n], 0, sizeof(s->inst[0]));
	s->inst[s->n].id = id;
	return &s->inst[s->n++];
}

static int inst_cmp(const void *a, const void *b)
{
	long x = ((const struct hb_instance *)a)->id;
	long y = ((const struct hb_instance *)b)->id;

	return (x > y) - (x < y);
}

static double vmin(const double *v, size_t n)
{
	double m = v[0];
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

static double vmax(const double *v, size_t n)
{
	double m = v[0];
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i] > m)
			m = v[i];
	return m;
}

static struct ext_re re_instance = {.pattern = "^Instance: ([0-9]+)"};
static struct ext_re re_running = {.pattern = "^Running in .* mode with ([0-9]+) groups using ([0-9]+) file descriptors each \\(== ([0-9]+) tasks\\)"};
static struct ext_re re_pass = {.pattern = "^Each sender will pass ([0-9]+) messages of ([0-9]+) bytes"};
static struct ext_re re_passed = {.pattern = "^Each sender passed ([0-9]+) messages of ([0-9]+) bytes in average"};

static void hb_line(struct hb_state *s, long *instance, const char *line)
{
	regmatch_t m[4];
	struct hb_instance *in;

	if (ext_match(&re_instance, line, m, 2)) {
		*instance = strtol(line + m[1].rm_so, NULL, 10);
	} else if (ext_match(&re_running, line, m, 4)) {
		s->tasks = strtoull(line + m[3].rm_so, NULL, 10);
		in = hb_inst(s, *instance);
		in->tasks = s->tasks;
		in->have_tasks = true;
	} else if (ext_match(&re_pass, line, m, 3) || ext_match(&re_passed, line, m, 3)) {
		s->messages = strtoull(line + m[1].rm_so, NULL, 10);
		s->bytes = strtoull(line + m[2].rm_so, NULL, 10);
		in = hb_inst(s, *instance);
		in->messages = s->messages;
		in->bytes = s->bytes;
		in->have_msgs = true;
	} else if (mon_has_prefix(line, "Time:")) {
		struct mon_fields f;
		double t;

		/* `Time: 9.541`: the second word, as Ruby's to_f reads it */
		mon_fields_init(&f);
		mon_fields_split(&f, line, NULL);
		t = f.n > 1 ? ext_to_f(f.v[1]) : 0.0;
		mon_fields_release(&f);
		ALLOC_GROW(s->time, s->nt + 1, s->talloc);
		s->time[s->nt++] = t;
		in = hb_inst(s, *instance);
		ALLOC_GROW(in->time, in->n + 1, in->alloc);
		in->time[in->n++] = t;
	}
}

DECLARE_PARSER(parse_hackbench)
{
	struct hb_state s = {0};
	struct mon_lines it;
	long instance = 1;
	size_t i;

	(void)path;
	(void)err;
	mon_lines_init(&it, raw, len);
	while (mon_lines_next(&it))
		hb_line(&s, &instance, it.line.buf);
	mon_lines_release(&it);
	/* no Time: line: hackbench did not finish a pass, there is no figure */
	if (s.nt) {
		/* KiB moved by one pass (LKP shifts the byte count right by 10) */
		double kb = (double)((s.tasks * s.messages * s.bytes) >> 10);

		ext_put_float(out, "throughput", kb / vmin(s.time, s.nt));
		ext_put_float(out, "throughput_best", kb / vmin(s.time, s.nt));
		ext_put_float(out, "throughput_avg", ext_round(kb / (mon_ruby_sum(s.time, s.nt) / (double)s.nt), 2));
		ext_put_float(out, "throughput_worst", kb / vmax(s.time, s.nt));
	}
	/* the per-instance breakdown only means something with several */
	if (s.nt && s.n > 1) {
		qsort(s.inst, s.n, sizeof(s.inst[0]), inst_cmp);
		for (i = 0; i < s.n; i++) {
			struct hb_instance *in = &s.inst[i];
			double ikb = (double)((in->tasks * in->messages * in->bytes) >> 10);
			char key[64];

			if (!in->n)
				continue;
			snprintf(key, sizeof(key), "throughput.instance%ld", in->id);
			ext_put_float(out, key, ikb / vmin(in->time, in->n));
			snprintf(key, sizeof(key), "throughput_avg.instance%ld", in->id);
			ext_put_float(out, key, ext_round(ikb / (mon_ruby_sum(in->time, in->n) / (double)in->n), 2));
			snprintf(key, sizeof(key), "throughput_worst.instance%ld", in->id);
			ext_put_float(out, key, ikb / vmax(in->time, in->n));
		}
	}
	for (i = 0; i < s.n; i++)
		free(s.inst[i].time);
	free(s.inst);
	free(s.time);
	return 0;
}

/* ---- the run */

struct hb_run {
	unsigned groups;
	uint64_t loops;
	struct ext_argv argv;
};

static int hb_prepare(struct bench_ctx *ctx, struct strbuf *err)
{
	const struct hackbench_opts *o = ctx->params;
	struct hb_run *r;
	unsigned g;

	if (ext_need("hackbench", "rt-tests", err))
		return BENCH_ERROR;
	/* nr_threads is hackbench's groups: LKP's share of the CPUs, at least 1 */
	g = param_cpus_of(&o->nr_threads, ctx->nr_cpu);
	r = xcalloc(1, sizeof(*r));
	r->groups = g;
	/* LKP's default loops keep the work per CPU the same on any machine */
	r->loops = o->loops ? o->loops : 30000ull * ctx->nr_cpu / r->groups;
	ext_argv_push(&r->argv, "hackbench");
	ext_argv_pushf(&r->argv, "-g");
	ext_argv_pushf(&r->argv, "%u", r->groups);
	ext_argv_push(&r->argv, "-f");
	ext_argv_pushf(&r->argv, "%" PRIu64, o->fds);
	ext_argv_pushf(&r->argv, "--%s", o->mode);
	if (!strcmp(o->ipc, "pipe"))
		ext_argv_push(&r->argv, "--pipe");
	ext_argv_push(&r->argv, "-l");
	ext_argv_pushf(&r->argv, "%" PRIu64, r->loops);
	ext_argv_push(&r->argv, "-s");
	ext_argv_pushf(&r->argv, "%" PRIu64, o->datasize);
	ctx->priv = r;
	return BENCH_OK;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int hb_run(struct bench_ctx *ctx)
{
	const struct hackbench_opts *o = ctx->params;
	struct hb_run *r = ctx->priv;
	uint64_t tasks = (uint64_t)r->groups * 2 * o->fds, i;
	struct rlimit rl = {tasks + 2048, tasks + 2048};
	double start = now_s();
	int st = 0;

	/* every task holds its fds: LKP raises the open-file limit the same way */
	setrlimit(RLIMIT_NOFILE, &rl);
	printf("Instance: 1\n");
	if (o->iterations) {
		for (i = 1; i <= o->iterations && !st; i++) {
			printf("Iterations: %" PRIu64 "\n", i);
			st = ext_run(r->argv.v, NULL, false);
		}
		return st;
	}
	/*
	 * LKP's run_for_time: passes until runtime is over, at least one
	 * (the table's default is LKP's 600 s; runtime: 0 is a single pass)
	 */
	do {
		st = ext_run(r->argv.v, NULL, false);
	} while (!st && now_s() - start <= o->runtime);
	return st;
}

static void hb_cleanup(struct bench_ctx *ctx)
{
	struct hb_run *r = ctx->priv;

	if (r) {
		ext_argv_release(&r->argv);
		free(r);
	}
	ctx->priv = NULL;
}

const struct bench_ops bench_hackbench = {
	.name = "hackbench",
	.kpi = "hackbench.throughput: higher",
	.prepare = hb_prepare,
	.run = hb_run,
	.cleanup = hb_cleanup,
};
