/*
 * lkp_only.c: the parsers of LKP benchmarks perfsift cannot run here --
 * unixbench, netperf and aim9 are not in Debian's main archive -- so that
 * their raw output (from an LKP result root, or a plug-in run) gives LKP's
 * stats: `perfsift parse unixbench FILE`, `perfsift stats` on a result
 * root.  Each follows LKP's programs/<name>/parse line for line, Ruby's
 * arithmetic and number printing included.
 */
#include "util/compat.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "external/external.h"
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- unixbench */

static struct ext_re re_ub_run = {.pattern = "^Benchmark Run: .+ ([0-9]+):([0-9]+):([0-9]+) - ([0-9]+):([0-9]+):([0-9]+)$"};
static struct ext_re re_ub_index = {.pattern = "^.+ Benchmarks .*Index .* INDEX$"};
static struct ext_re re_ub_result = {.pattern = "^.+ ([0-9.]+) (KBps|lps|lpm|score)[[:space:]]+\\([0-9.]+ s, [0-9]+ samples?\\)"};
static struct ext_re re_ub_score = {.pattern = "^.+ Benchmarks Index Score .* ([0-9.]+)$"};
static struct ext_re re_ub_fail1 = {.pattern = "Run: .+ graphics: .+ (aborting|broken)"};
static struct ext_re re_ub_fail2 = {.pattern = "Caught signal .+ Server aborting"};

/* HH:MM:SS of groups g..g+2 as seconds of the day */
static double clock_s(const char *line, const regmatch_t *m)
{
	return strtod(line + m[0].rm_so, NULL) * 3600 +
	       strtod(line + m[1].rm_so, NULL) * 60 + strtod(line + m[2].rm_so, NULL);
}

/* the second-to-last word of line, as Ruby's to_f reads it (0.0: none) */
static double second_last(const char *line)
{
	struct mon_fields f;
	double v = 0.0;

	mon_fields_init(&f);
	mon_fields_split(&f, line, NULL);
	if (f.n >= 2)
		v = ext_to_f(f.v[f.n - 2]);
	mon_fields_release(&f);
	return v;
}

DECLARE_PARSER(parse_unixbench)
{
	struct mon_lines it;
	double duration = 0, throughput = 0, score = 0;
	bool have_duration = false, have_throughput = false, have_score = false;
	regmatch_t m[7];

	(void)path;
	(void)err;
	mon_lines_init(&it, raw, len);
	while (mon_lines_next(&it)) {
		const char *l = it.line.buf;

		if (ext_match(&re_ub_run, l, m, 7)) {
			/* only the end minus the start counts; past midnight, a day on */
			double start = clock_s(l, &m[1]), end = clock_s(l, &m[4]);

			duration = end > start ? end - start : end + 3600 * 24 - start;
			have_duration = true;
		} else if (ext_match(&re_ub_index, l, NULL, 0)) {
			/* the index table's first row: its result is the throughput */
			if (!mon_lines_next(&it))
				break;
			if (it.line.len) {
				throughput = second_last(it.line.buf);
				have_throughput = true;
			}
		} else if (ext_match(&re_ub_result, l, m, 2)) {
			throughput = ext_to_f(l + m[1].rm_so);
			have_throughput = true;
		} else if (ext_match(&re_ub_score, l, m, 2)) {
			score = ext_to_f(l + m[1].rm_so);
			have_score = true;
		} else if (ext_match(&re_ub_fail1, l, NULL, 0) ||
			   ext_match(&re_ub_fail2, l, NULL, 0)) {
			continue; /* LKP only warns about it */
		}
	}
	mon_lines_release(&it);
	if (!have_duration || !have_throughput) {
		strbuf_addstr(out, "test.fail: 1\n");
		return 0;
	}
	if (have_score)
		ext_put_float(out, "score", score);
	ext_put_float(out, "throughput", throughput);
	ext_put_float(out, "workload", duration * throughput);
	strbuf_addstr(out, "test.pass: 1\n");
	return 0;
}

/* ---- netperf */

static struct ext_re re_np_mbps = {.pattern = "^bytes.*secs.*10\\^6bits"};
static struct ext_re re_np_tps = {.pattern = "^bytes.*secs.[[:space:]]+per sec"};
static struct ext_re re_np_socket = {.pattern = "^Socket.*Elapsed"};
static struct ext_re re_np_sendrecv = {.pattern = "^Send[[:space:]]+Recv[[:space:]]+"};
static struct ext_re re_np_size = {.pattern = "^Size[[:space:]]+Size[[:space:]]+"};
static struct ext_re re_np_data = {.pattern = "[0-9]+[[:space:]]+[0-9]+[[:space:]]+[0-9]+[[:space:]]+[0-9]"};
static struct ext_re re_np_recv = {.pattern = "^[0-9]+[[:space:]]+[0-9]+\\.[0-9]+[[:space:]]+[0-9]+[[:space:]]+"};

struct np_state {
	double throughput, recv_throughput, time, pkt_size;
	long num, recv_num, iterations;
	size_t thp, recv_thp, time_i, pkt_i;
	const char *unit; /* "Mbps", "tps", or NULL (none seen yet) */
};

/* the last index of word in the line's words (LKP keeps the last) */
static void word_index(const char *line, const char *word, size_t *at, long delta,
		       size_t *at2)
{
	struct mon_fields f;
	size_t i;

	mon_fields_init(&f);
	mon_fields_split(&f, line, NULL);
	for (i = 0; i < f.n; i++) {
		if (strcmp(f.v[i], word))
			continue;
		*at = i;
		/* the receive side's rate sits two columns left (may wrap, as Ruby's -1) */
		if (at2)
			*at2 = (size_t)((long)i + delta);
	}
	mon_fields_release(&f);
}

/* data[i].to_f: a word missing is nil, and nil.to_f is 0.0 */
static double field_f(const struct mon_fields *f, size_t i)
{
	return i < f->n ? ext_to_f(f->v[i]) : 0.0;
}

static void np_line(struct np_state *s, const char *l)
{
	struct mon_fields f;

	if (mon_has_prefix(l, "Iterations")) {
		s->iterations++;
	} else if (ext_match(&re_np_mbps, l, NULL, 0)) {
		s->unit = "Mbps";
	} else if (ext_match(&re_np_tps, l, NULL, 0)) {
		s->unit = "tps";
	} else if (ext_match(&re_np_socket, l, NULL, 0)) {
		word_index(l, "Message", &s->pkt_i, 0, NULL);
		word_index(l, "Elapsed", &s->time_i, 0, NULL);
	} else if (ext_match(&re_np_sendrecv, l, NULL, 0)) {
		word_index(l, "Rate", &s->thp, -2, &s->recv_thp);
	} else if (ext_match(&re_np_size, l, NULL, 0)) {
		word_index(l, "Throughput", &s->thp, -2, &s->recv_thp);
	} else if (ext_match(&re_np_data, l, NULL, 0)) {
		mon_fields_init(&f);
		mon_fields_split(&f, l, NULL);
		s->throughput += field_f(&f, s->thp);
		s->time = field_f(&f, s->time_i);
		if (s->unit && !strcmp(s->unit, "Mbps"))
			s->pkt_size = field_f(&f, s->pkt_i);
		s->num++;
		mon_fields_release(&f);
	} else if (ext_match(&re_np_recv, l, NULL, 0)) {
		mon_fields_init(&f);
		mon_fields_split(&f, l, NULL);
		s->recv_throughput += field_f(&f, s->recv_thp);
		s->recv_num++;
		mon_fields_release(&f);
	}
}

/* Ruby's Integer 0 prints as 0; a float sum as Float#to_s */
static void put_maybe_int(struct strbuf *out, const char *key, bool is_int, double v)
{
	if (is_int)
		strbuf_addf(out, "%s: 0\n", key);
	else
		ext_put_float(out, key, v);
}

DECLARE_PARSER(parse_netperf)
{
	struct np_state s = {0};
	struct mon_lines it;
	struct strbuf key = STRBUF_INIT;
	double avg, avg_recv = 0, both, workload;
	bool recv_int;
	const char *unit;

	(void)path;
	(void)err;
	mon_lines_init(&it, raw, len);
	while (mon_lines_next(&it)) {
		/* Ruby's `case line.chomp!` is nil for a last line without newline */
		if (it.p == it.end && len && raw[len - 1] != '\n')
			break;
		np_line(&s, it.line.buf);
	}
	mon_lines_release(&it);
	if (!s.num)
		return 0;
	unit = s.unit ? s.unit : "";
	/* recv_throughput stays Ruby's Integer 0 until a receive row adds to it */
	recv_int = !s.recv_num;
	avg = s.throughput / (double)s.num;
	if (s.recv_num)
		avg_recv = s.recv_throughput / (double)s.recv_num;
	both = avg + avg_recv;
	/* the totals are per iteration */
	if (s.iterations > 0) {
		s.throughput /= (double)s.iterations;
		s.recv_throughput /= (double)s.iterations;
	}
	workload = (s.throughput + s.recv_throughput) * s.time;
	if (!strcmp(unit, "Mbps"))
		workload = workload * 1e6 / 8.0 / s.pkt_size;
#define NP_KEY(fmt) (strbuf_reset(&key), strbuf_addf(&key, fmt, unit), key.buf)
	ext_put_float(out, NP_KEY("Throughput_%s"), avg);
	put_maybe_int(out, NP_KEY("ThroughputRecv_%s"), recv_int, avg_recv);
	ext_put_float(out, NP_KEY("ThroughputBoth_%s"), both);
	ext_put_float(out, NP_KEY("Throughput_total_%s"), s.throughput);
	put_maybe_int(out, NP_KEY("ThroughputRecv_total_%s"), recv_int, s.recv_throughput);
	ext_put_float(out, NP_KEY("ThroughputBoth_total_%s"), s.throughput + s.recv_throughput);
#undef NP_KEY
	ext_put_float(out, "workload", workload);
	strbuf_release(&key);
	return 0;
}

/* ---- aim9 */

static struct ext_re re_aim9_skip = {.pattern = "^[ ]+[0-9]+.*[ ]+Skipping"};
static struct ext_re re_aim9_row = {.pattern = "^[ ]+[0-9]+.*[ ]+[0-9|.]+"};

DECLARE_PARSER(parse_aim9)
{
	struct mon_lines it;
	struct mon_fields f;

	(void)path;
	(void)err;
	mon_fields_init(&f);
	mon_lines_init(&it, raw, len);
	while (mon_lines_next(&it)) {
		const char *l = it.line.buf;

		/* LKP's awk: both rules may fire; a missing field is empty */
		mon_fields_split(&f, l, NULL);
		if (ext_match(&re_aim9_skip, l, NULL, 0))
			strbuf_addf(out, "%s.skip: 1\n", f.n > 1 ? f.v[1] : "");
		if (ext_match(&re_aim9_row, l, NULL, 0))
			strbuf_addf(out, "%s.ops_per_sec: %s\n", f.n > 1 ? f.v[1] : "",
				    f.n > 5 ? f.v[5] : "");
	}
	mon_lines_release(&it);
	mon_fields_release(&f);
	return 0;
}
