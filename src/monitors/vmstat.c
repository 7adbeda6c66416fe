/*
 * vmstat.c: the vmstat monitor's parser -- vmstat(8) `--timestamp` text
 * (spec/lkp-monitors.md 2.2).  Rows with a digit map by position to
 * procs.r ... cpu.gu; the trailing `YYYY-MM-DD HH:MM:SS` becomes
 * `time: <epoch>` read as UTC, as LKP reads it.  perfsift's own sampler
 * writes the same text, computed from /proc (see vmstat_sample.c), with UTC
 * stamps so that this reading is right (LKP quirk Q8).
 */
#include "util/compat.h"
#include <stdlib.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "util/timeutil.h"
#include "monitors/sampling.h"
#include "util/xalloc.h"

/* vmstat's columns in its order, named as LKP names them (section.column) */
static const char *const columns[] = {
	"procs.r", "procs.b", "memory.swpd", "memory.free", "memory.buff",
	"memory.cache", "swap.si", "swap.so", "io.bi", "io.bo", "system.in",
	"system.cs", "cpu.us", "cpu.sy", "cpu.id", "cpu.wa", "cpu.st", "cpu.gu",
};

/* the HH:MM:SS of `--timestamp`: the row carries its date and time last */
static bool is_clock(const char *s)
{
	int h, m, sec, n = 0;

	return sscanf(s, "%2d:%2d:%2d%n", &h, &m, &sec, &n) == 3 &&
	       s[n] == '\0';
}

DECLARE_PARSER(parse_vmstat)
{
	struct mon_lines it;
	struct mon_fields f;
	size_t i, nval;
	struct tm tm;
	int n;

	(void)path;
	(void)err;
	mon_lines_init(&it, raw, len);
	mon_fields_init(&f);
	while (mon_lines_next(&it)) {
		if (!strpbrk(it.line.buf, "0123456789"))
			continue;
		mon_fields_split(&f, it.line.buf, NULL);
		nval = f.n;
		if (nval >= 2 && is_clock(f.v[nval - 1])) {
			memset(&tm, 0, sizeof(tm));
			n = 0;
			if (sscanf(f.v[nval - 2], "%d-%d-%d%n", &tm.tm_year,
				   &tm.tm_mon, &tm.tm_mday, &n) == 3 &&
			    !f.v[nval - 2][n] &&
			    sscanf(f.v[nval - 1], "%d:%d:%d", &tm.tm_hour,
				   &tm.tm_min, &tm.tm_sec) == 3) {
				tm.tm_year -= 1900;
				tm.tm_mon -= 1;
				strbuf_addf(out, "time: %lld\n",
					    (long long)timegm(&tm));
			}
			nval -= 2;
		}
		for (i = 0; i < nval && i < ARRAY_SIZE(columns); i++)
			strbuf_addf(out, "%s: %s\n", columns[i], f.v[i]);
	}
	mon_fields_release(&f);
	mon_lines_release(&it);
	return 0;
}

/* ------------------------------------------------------------- sampling */

/*
 * vmstat's columns computed from /proc/stat, /proc/meminfo and /proc/vmstat
 * as procps computes them, so no vmstat binary is needed.  Deliberate fix
 * (LKP quirk Q8): the first snapshot is only the baseline -- vmstat's
 * since-boot averages row is not written -- and stamps are UTC, which is
 * how the parser reads them.
 */
struct vm_counts {
	unsigned long long cpu[10]; /* user nice system idle iowait irq softirq steal guest guest_nice */
	unsigned long long intr, ctxt, running, blocked;
	unsigned long long pgpgin, pgpgout, pswpin, pswpout;
	unsigned long long memfree, buffers, cached, sreclaimable, swaptotal, swapfree;
	uint64_t mono_ns;
};

struct vm_src {
	struct mon_file stat, meminfo, vmstat;
	struct strbuf buf;
	struct vm_counts prev;
	bool have_prev;
};

/* the number after `name` at the start of a line ("intr 123", "MemFree: 4") */
static unsigned long long field_after(const char *text, const char *name)
{
	const char *p = text;
	size_t n = strlen(name);

	while ((p = strstr(p, name))) {
		if ((p == text || p[-1] == '\n') && (p[n] == ' ' || p[n] == ':'))
			return strtoull(p + n + 1 + strspn(p + n + 1, " :"), NULL, 10);
		p += n;
	}
	return 0;
}

/*
 * The counters of one sample, with the monotonic time they were read at:
 * rates are per second of the interval actually elapsed, not of the
 * interval asked for, so a late tick does not inflate them.
 */
static int vm_read(struct vm_src *s, struct vm_counts *c)
{
	const char *p;
	size_t i;
	char *end;

	memset(c, 0, sizeof(*c));
	c->mono_ns = time_mono_ns();
	strbuf_reset(&s->buf);
	if (mon_file_read(&s->stat, &s->buf))
		return -1;
	if (mon_has_prefix(s->buf.buf, "cpu ")) {
		p = s->buf.buf + 4;
		for (i = 0; i < ARRAY_SIZE(c->cpu); i++) {
			c->cpu[i] = strtoull(p, &end, 10);
			if (end == p)
				break;
			p = end;
		}
	}
	c->intr = field_after(s->buf.buf, "intr");
	c->ctxt = field_after(s->buf.buf, "ctxt");
	c->running = field_after(s->buf.buf, "procs_running");
	c->blocked = field_after(s->buf.buf, "procs_blocked");
	strbuf_reset(&s->buf);
	if (mon_file_read(&s->meminfo, &s->buf))
		return -1;
	c->memfree = field_after(s->buf.buf, "MemFree");
	c->buffers = field_after(s->buf.buf, "Buffers");
	c->cached = field_after(s->buf.buf, "Cached");
	c->sreclaimable = field_after(s->buf.buf, "SReclaimable");
	c->swaptotal = field_after(s->buf.buf, "SwapTotal");
	c->swapfree = field_after(s->buf.buf, "SwapFree");
	strbuf_reset(&s->buf);
	if (mon_file_read(&s->vmstat, &s->buf))
		return -1;
	c->pgpgin = field_after(s->buf.buf, "pgpgin");
	c->pgpgout = field_after(s->buf.buf, "pgpgout");
	c->pswpin = field_after(s->buf.buf, "pswpin");
	c->pswpout = field_after(s->buf.buf, "pswpout");
	return 0;
}

static void vm_close(struct mon_inst *mi)
{
	struct vm_src *s = mi->priv;

	if (!s)
		return;
	mon_file_close(&s->stat);
	mon_file_close(&s->meminfo);
	mon_file_close(&s->vmstat);
	strbuf_release(&s->buf);
	FREE_AND_NULL(mi->priv);
}

static int vm_open(struct mon_inst *mi, struct strbuf *why)
{
	struct vm_src *s = xcalloc(1, sizeof(*s));

	s->stat.fd = s->meminfo.fd = s->vmstat.fd = -1;
	strbuf_init(&s->buf, 0);
	mi->priv = s;
	if (mon_file_open(&s->stat, mi->sysroot, "proc/stat", why) ||
	    mon_file_open(&s->meminfo, mi->sysroot, "proc/meminfo", why) ||
	    mon_file_open(&s->vmstat, mi->sysroot, "proc/vmstat", why)) {
		vm_close(mi);
		return -1;
	}
	/* the texts proc-stat, meminfo and proc-vmstat read in the same tick */
	mon_file_share(mi, &s->stat, "proc/stat");
	mon_file_share(mi, &s->meminfo, "proc/meminfo");
	mon_file_share(mi, &s->vmstat, "proc/vmstat");
	return 0;
}

static unsigned long long delta(unsigned long long a, unsigned long long b)
{
	return a >= b ? a - b : 0;
}

/* a share rounded to the nearest whole percent, as vmstat prints it */
static unsigned pct(unsigned long long part, unsigned long long total)
{
	return total ? (unsigned)((part * 100 + total / 2) / total) : 0;
}

/*
 * One vmstat row from the counters' growth since the last sample.  The
 * formulas are procps's: si/so in KiB (pages of 4 KiB, as vmstat
 * assumes), cache including reclaimable slab, sy including irq and
 * softirq time, and guest time left out of the total since the kernel
 * counts it in user and nice already.
 */
static int vm_sample(struct mon_inst *mi, struct strbuf *out, bool final)
{
	struct vm_src *s = mi->priv;
	struct vm_counts c;
	unsigned long long d[10], total = 0;
	double dt;
	time_t now;
	struct tm tm;
	size_t i;

	(void)final;
	if (vm_read(s, &c))
		return -1;
	if (!s->have_prev) {
		strbuf_addstr(out,
			"procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu----- -----timestamp-----\n"
			" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st                 UTC\n");
		s->prev = c;
		s->have_prev = true;
		return 0;
	}
	dt = (double)(c.mono_ns - s->prev.mono_ns) / 1e9;
	if (dt <= 0)
		dt = 1e-9;
	for (i = 0; i < ARRAY_SIZE(d); i++) {
		d[i] = delta(c.cpu[i], s->prev.cpu[i]);
		/* guest time is already inside user and nice */
		if (i < 8)
			total += d[i];
	}
	now = time(NULL);
	gmtime_r(&now, &tm);
	strbuf_addf(out,
		    "%2llu %2llu %6llu %6llu %6llu %6llu %4.0f %4.0f %5.0f %5.0f %4.0f %4.0f %2u %2u %2u %2u %2u %04d-%02d-%02d %02d:%02d:%02d\n",
		    c.running, c.blocked, delta(c.swaptotal, c.swapfree), c.memfree,
		    c.buffers, c.cached + c.sreclaimable,
		    (double)delta(c.pswpin, s->prev.pswpin) * 4 / dt,
		    (double)delta(c.pswpout, s->prev.pswpout) * 4 / dt,
		    (double)delta(c.pgpgin, s->prev.pgpgin) / dt,
		    (double)delta(c.pgpgout, s->prev.pgpgout) / dt,
		    (double)delta(c.intr, s->prev.intr) / dt,
		    (double)delta(c.ctxt, s->prev.ctxt) / dt,
		    pct(d[0] + d[1], total), pct(d[2] + d[5] + d[6], total),
		    pct(d[3], total), pct(d[4], total), pct(d[7], total),
		    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		    tm.tm_min, tm.tm_sec);
	s->prev = c;
	return 0;
}

const struct monitor_sampling sampling_vmstat = {
	1, true, vm_open, vm_sample, vm_close,
};
