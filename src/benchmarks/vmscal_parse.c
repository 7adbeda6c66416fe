/*
 * vmscal_parse.c: the parser of vm-scalability's output (LKP's
 * programs/vm-scalability/parse, described in spec/vm-scalability.md
 * 1.4), byte for byte: the same line rules, a sample closed by each
 * `./case-NAME` line, and the same arithmetic -- Ruby's Array#sum (exact
 * for integers, Kahan-Babuska for floats), population standard
 * deviation, printf %d truncation, %g, and Ruby's shortest float text for
 * the "# <workers> <sum>" lines.
 */
#include "util/compat.h"
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/xalloc.h"

/*
 * a Ruby number: Integer or Float
 *
 * The parse script's numbers keep Ruby's two kinds because its output
 * depends on them: a sum of Integers prints without a decimal point, a
 * sum that met one Float prints as a Float, and "# 2 10485760" against
 * "# 2 10485760.0" would make the raw files differ from LKP's.
 */
struct rnum {
	bool is_int;
	long long i;
	double d;
};

struct rvec {
	struct rnum *v;
	size_t n, alloc;
};

static double rnum_f(struct rnum x)
{
	return x.is_int ? (double)x.i : x.d;
}

static void rvec_push(struct rvec *a, struct rnum x)
{
	ALLOC_GROW(a->v, a->n + 1, a->alloc);
	a->v[a->n++] = x;
}

static struct rnum rint_(long long i)
{
	struct rnum x = {true, i, 0};

	return x;
}

static struct rnum rflo(double d)
{
	struct rnum x = {false, 0, d};

	return x;
}

/* Array#sum: integers exactly, then Kahan-Babuska from the first float on */
static struct rnum rvec_sum(const struct rvec *a)
{
	long long acc = 0;
	double f, c = 0, t;
	size_t i = 0;

	while (i < a->n && a->v[i].is_int)
		acc += a->v[i++].i;
	if (i == a->n)
		return rint_(acc);
	f = (double)acc;
	for (; i < a->n; i++) {
		double x = rnum_f(a->v[i]);

		if (isnan(f))
			continue;
		if (isnan(x)) {
			f = x;
			continue;
		}
		if (isinf(x)) {
			f = isinf(f) && signbit(x) != signbit(f) ? NAN : x;
			continue;
		}
		if (isinf(f))
			continue;
		t = f + x;
		if (fabs(f) >= fabs(x))
			c += (f - t) + x;
		else
			c += (x - t) + f;
		f = t;
	}
	return rflo(f + c);
}

/* the mean, as a Float whatever the kind of the sum */
static double rvec_avg(const struct rvec *a)
{
	return rnum_f(rvec_sum(a)) / (double)a->n;
}

/* LKP's standard_deviation: population, summed left to right */
static double rvec_sd(const struct rvec *a)
{
	double avg = rvec_avg(a), acc = 0;
	size_t i;

	for (i = 0; i < a->n; i++) {
		double dv = rnum_f(a->v[i]) - avg;

		acc += dv * dv;
	}
	return sqrt(1 / (double)a->n * acc);
}

static int rnum_cmp(const void *x, const void *y)
{
	const struct rnum *a = x, *b = y;

	if (a->is_int && b->is_int)
		return (a->i > b->i) - (a->i < b->i);
	return (rnum_f(*a) > rnum_f(*b)) - (rnum_f(*a) < rnum_f(*b));
}

/* Ruby's Float#to_s, as the suite's Ruby parser prints its stats */
static void add_ruby_float(struct strbuf *out, double x)
{
	mon_ruby_float(out, x);
}

/* printf's %g as Ruby prints it (NaN, Inf) */
static void add_g(struct strbuf *out, double x)
{
	if (isnan(x))
		strbuf_addstr(out, "NaN");
	else if (isinf(x))
		strbuf_addstr(out, x < 0 ? "-Inf" : "Inf");
	else
		strbuf_addf(out, "%g", x);
}

/*
 * printf's %d of a Float: truncation toward zero
 * (and never "-0": a truncated -0.5 prints as Ruby's 0)
 */
static void add_d(struct strbuf *out, double x)
{
	strbuf_addf(out, "%.0f", trunc(x) == 0 ? 0.0 : trunc(x));
}

/*
 * The script's line patterns, in its order: the first that matches a
 * line decides what the line is, as its if/elsif chain does.  usemem's
 * "N bytes / N usecs = N KB/s", dd's copied line, the truncate and fault
 * timings, migrate and remap rates, the free time, and the case line
 * that closes a sample.
 */
enum { RE_USEMEM, RE_DD, RE_TRUNC, RE_FAULT, RE_MIGRATE, RE_REMAP, RE_FREE,
       RE_CASE, RE_N };

static const char *const patterns[RE_N] = {
	"^\\.*([0-9]+) bytes / ([0-9]+) usecs = ([0-9]+) KB.s",
	"([0-9]+) bytes \\([0-9.]+ .B(, [0-9.]+ .iB)?\\) copied, ([0-9.]+) s, ([0-9.]+) .B.s",
	"([0-9]+) bytes truncated in ([0-9.]+)-([0-9.]+) seconds",
	"([0-9]+) bytes faulted in ([0-9.]+)-([0-9.]+) seconds",
	"[0-9]+ \\* [0-9]+ bytes migrated, [0-9]+ usecs, ([0-9]+) MB.s",
	"([0-9]+) bytes remapped, ([0-9]+) usecs, ([0-9]+) MB.s",
	"([0-9]+) usecs to free memory",
	"\\./case-[a-z-]+",
};

/*
 * The parse state: each sample's per-worker rates (kbps; the _f arrays
 * are the same for page-fault timings, reported apart), every sample's
 * sum (tput) and median, and the bytes moved for `workload`.
 */
struct vms_parse {
	struct rvec kbps, tput, median;
	struct rvec kbps_f, tput_f, median_f;
	struct rvec free_secs;
	long long bytes, bytes_fault;
	bool warned;
	const char *path;
	struct strbuf *out;
};

/*
 * A sample ends: its throughput is the workers' sum and its median the
 * middle rate after a sort (upper middle for an even count, as the
 * script's a[n/2]).  An odd worker count other than one is what the
 * script takes for disordered output: it warns, once, and so do we.
 */
static void add_one_sample(struct vms_parse *ps, struct rvec *kbps,
			   struct rvec *tput, struct rvec *median)
{
	if (!kbps->n)
		return;
	rvec_push(tput, rvec_sum(kbps));
	qsort(kbps->v, kbps->n, sizeof(*kbps->v), rnum_cmp);
	rvec_push(median, kbps->v[kbps->n / 2]);
	strbuf_addf(ps->out, "# %zu ", kbps->n);
	if (tput->v[tput->n - 1].is_int)
		strbuf_addf(ps->out, "%lld", tput->v[tput->n - 1].i);
	else
		add_ruby_float(ps->out, tput->v[tput->n - 1].d);
	strbuf_addch(ps->out, '\n');
	if (kbps->n != 1 && (kbps->n & 1) && !ps->warned) {
		warning("vm-scalability: possibly disordered output%s%s",
			ps->path ? " " : "", ps->path ? ps->path : "");
		ps->warned = true;
	}
}

/* the text of submatch k as an integer / a float (Ruby's to_i / to_f) */
static long long m_int(const char *line, const regmatch_t *m, int k)
{
	return strtoll(line + m[k].rm_so, NULL, 10);
}

static double m_flo(const char *line, const regmatch_t *m, int k)
{
	char buf[64];
	size_t n = (size_t)(m[k].rm_eo - m[k].rm_so);

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, line + m[k].rm_so, n);
	buf[n] = '\0';
	return strtod(buf, NULL);
}

/*
 * The relative spread the script reports: over the samples when there
 * are several, else over the one sample's workers scaled by their count,
 * since the throughput is their sum.
 */
static double cal_stddev(const struct rvec *tput, const struct rvec *kbps)
{
	if (tput->n > 1)
		return rvec_sd(tput) / rvec_avg(tput);
	return rvec_sd(kbps) * (double)kbps->n / rvec_avg(kbps);
}

static double cal_median_stddev(const struct rvec *median)
{
	if (median->n > 1)
		return rvec_sd(median) / rvec_avg(median);
	return 0;
}

/*
 * One line into the state.  dd and truncate give bytes and seconds, so
 * their KB/s is computed (bytes >> 10, as the script's integer division
 * by 1024); remap's usecs are shifted the same way, as the script does,
 * and a zero there is reported rather than divided by.
 */
static int parse_line(struct vms_parse *ps, regex_t *re, const char *line,
		      struct strbuf *err)
{
	regmatch_t m[6];
	int k;

	for (k = 0; k < RE_N; k++)
		if (!regexec(&re[k], line, ARRAY_SIZE(m), m, 0))
			break;
	switch (k) {
	case RE_USEMEM:
		ps->bytes += m_int(line, m, 1);
		rvec_push(&ps->kbps, rint_(m_int(line, m, 3)));
		break;
	case RE_DD:
		ps->bytes += m_int(line, m, 1);
		rvec_push(&ps->kbps, rflo((double)(m_int(line, m, 1) >> 10) /
					  m_flo(line, m, 3)));
		break;
	case RE_TRUNC:
		ps->bytes += m_int(line, m, 1);
		rvec_push(&ps->kbps, rflo((double)(m_int(line, m, 1) >> 10) /
					  (m_flo(line, m, 2) - m_flo(line, m, 3))));
		break;
	case RE_FAULT:
		ps->bytes_fault += m_int(line, m, 1);
		rvec_push(&ps->kbps_f, rflo((double)(m_int(line, m, 1) >> 10) /
					    (m_flo(line, m, 2) - m_flo(line, m, 3))));
		break;
	case RE_MIGRATE:
		ps->bytes += m_int(line, m, 1);
		strbuf_addf(ps->out, "migrate_mbps: %lld\n", m_int(line, m, 1));
		break;
	case RE_REMAP: {
		long long us = m_int(line, m, 2) >> 10;

		if (!us) {
			strbuf_addf(err, "vm-scalability: divided by 0 in '%s'", line);
			return -1;
		}
		ps->bytes += m_int(line, m, 1);
		rvec_push(&ps->kbps, rint_(m_int(line, m, 1) / us));
		break;
	}
	case RE_FREE:
		rvec_push(&ps->free_secs, rflo((double)m_int(line, m, 1) / 1000000.0));
		break;
	case RE_CASE:
		add_one_sample(ps, &ps->kbps, &ps->tput, &ps->median);
		add_one_sample(ps, &ps->kbps_f, &ps->tput_f, &ps->median_f);
		ps->kbps.n = 0;
		ps->kbps_f.n = 0;
		break;
	default:
		break;
	}
	return 0;
}

static void vms_release(struct vms_parse *ps)
{
	free(ps->kbps.v);
	free(ps->tput.v);
	free(ps->median.v);
	free(ps->kbps_f.v);
	free(ps->tput_f.v);
	free(ps->median_f.v);
	free(ps->free_secs.v);
}

DECLARE_PARSER(parse_vm_scalability)
{
	struct vms_parse ps;
	regex_t re[RE_N];
	struct strbuf line = STRBUF_INIT;
	size_t pos = 0;
	int k, ret = 0;

	memset(&ps, 0, sizeof(ps));
	ps.path = path;
	ps.out = out;
	for (k = 0; k < RE_N; k++)
		if (regcomp(&re[k], patterns[k], REG_EXTENDED))
			BUG("bad vm-scalability pattern %d", k);
	while (pos < len && !ret) {
		const char *nl = memchr(raw + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (raw + pos)) : len - pos;

		strbuf_reset(&line);
		strbuf_add(&line, raw + pos, n);
		pos += n + 1;
		ret = parse_line(&ps, re, line.buf, err);
	}
	if (ret)
		goto out;
	add_one_sample(&ps, &ps.kbps, &ps.tput, &ps.median);
	add_one_sample(&ps, &ps.kbps_f, &ps.tput_f, &ps.median_f);
	if (!ps.tput.n)
		goto out;

	strbuf_addstr(out, "throughput: ");
	add_d(out, rvec_avg(&ps.tput));
	strbuf_addch(out, '\n');
	if (!ps.kbps.n) {
		warning("vm-scalability: incomplete output%s%s",
			path ? " " : "", path ? path : "");
		goto out;
	}
	strbuf_addstr(out, "stddev%:   ");
	add_g(out, cal_stddev(&ps.tput, &ps.kbps) * 100);
	strbuf_addch(out, '\n');
	if (ps.free_secs.n) {
		strbuf_addstr(out, "free_time:  ");
		add_g(out, rvec_avg(&ps.free_secs));
		strbuf_addch(out, '\n');
	}
	strbuf_addstr(out, "median: ");
	add_d(out, rvec_avg(&ps.median));
	strbuf_addstr(out, "\nmedian_stddev%: ");
	add_g(out, cal_median_stddev(&ps.median) * 100);
	strbuf_addf(out, "\nworkload: %.2f\n", (double)ps.bytes / 1024);
	if (ps.tput_f.n) {
		strbuf_addstr(out, "throughput_fault: ");
		add_d(out, rvec_avg(&ps.tput_f));
		strbuf_addstr(out, "\nstddev_fault%:   ");
		add_g(out, cal_stddev(&ps.tput_f, &ps.kbps_f) * 100);
		strbuf_addstr(out, "\nmedian_fault: ");
		add_d(out, rvec_avg(&ps.median_f));
		strbuf_addstr(out, "\nmedian_fault_stddev%: ");
		add_g(out, cal_median_stddev(&ps.median_f) * 100);
		strbuf_addch(out, '\n');
	}
out:
	for (k = 0; k < RE_N; k++)
		regfree(&re[k]);
	strbuf_release(&line);
	vms_release(&ps);
	return ret;
}
