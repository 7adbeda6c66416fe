/*
 * turbostat.c: the turbostat monitor's parser (spec/lkp-monitors.md 2.8):
 * the system-summary row under the first header with `Busy%`, columns
 * aligned from the right, `-` and overflowed (`*`) values skipped.  The
 * sampler writes the same text from /dev/cpu/<N>/msr where that exists.
 */
#include "util/compat.h"
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "monitors/sampling.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

/*
 * Only the first data row after the header is read: it is turbostat's
 * whole-system summary ("-"), the one row every box has whatever its
 * CPU count, where the per-CPU rows differ in number between boxes.  The
 * values are aligned from the right: the summary row may have fewer
 * leading columns than the header.
 */
DECLARE_PARSER(parse_turbostat)
{
	struct mon_lines it;
	struct mon_fields titles, vals;
	bool have_titles = false;
	size_t i, off;

	(void)path;
	(void)err;
	mon_lines_init(&it, raw, len);
	mon_fields_init(&titles);
	mon_fields_init(&vals);
	while (mon_lines_next(&it)) {
		if (!have_titles) {
			if (strstr(it.line.buf, "Busy%")) {
				mon_fields_split(&titles, it.line.buf, NULL);
				have_titles = true;
			}
			continue;
		}
		mon_fields_split(&vals, it.line.buf, NULL);
		if (vals.n > titles.n)
			break;
		off = titles.n - vals.n;
		for (i = 0; i < vals.n; i++)
			if (strcmp(vals.v[i], "-") && !strchr(vals.v[i], '*'))
				strbuf_addf(out, "%s: %s\n", titles.v[off + i],
					    vals.v[i]);
		break;
	}
	mon_fields_release(&vals);
	mon_fields_release(&titles);
	mon_lines_release(&it);
	return 0;
}

/* ------------------------------------------------------------- sampling */

/*
 * Where /dev/cpu/<N>/msr exists, the counters turbostat reads are read at
 * start and at stop (pread at the MSR's address) and the whole-run table is
 * written in turbostat's layout: TSC, APERF and MPERF give Avg_MHz, Busy%,
 * Bzy_MHz and TSC_MHz; the core C6 residency, where readable, CPU%c6;
 * CPU%c1 is the rest, as turbostat computes it.  No MSR device (a VM, or
 * no CONFIG_X86_MSR): not available.
 */
#define MSR_TSC 0x10
#define MSR_SMI_COUNT 0x34
#define MSR_MPERF 0xe7
#define MSR_APERF 0xe8
#define MSR_CORE_C6 0x3fd

struct ts_cpu {
	int fd;
	uint64_t v[5]; /* tsc, mperf, aperf, c6, smi at the first snapshot */
	bool c6, smi;
};

struct ts_src {
	struct ts_cpu *cpu;
	int n;
	uint64_t t0;
	bool have_start;
};

/* the msr driver maps a register's address to the file offset */
static bool msr_read(int fd, uint32_t reg, uint64_t *v)
{
	return pread(fd, v, sizeof(*v), reg) == (ssize_t)sizeof(*v);
}

static void ts_close(struct mon_inst *mi)
{
	struct ts_src *s = mi->priv;
	int i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++)
		close(s->cpu[i].fd);
	free(s->cpu);
	FREE_AND_NULL(mi->priv);
}

/*
 * One open MSR file per CPU, numbered from 0 until the first that cannot
 * be opened or does not give the two counters every row needs; C6 and
 * SMI counts are optional (not every model has them) and their columns
 * are left out when any CPU lacks them.
 */
static int ts_open(struct mon_inst *mi, struct strbuf *why)
{
	struct ts_src *s = xcalloc(1, sizeof(*s));
	struct strbuf path = STRBUF_INIT, rel = STRBUF_INIT;
	uint64_t v;
	int fd, alloc = 0;

	mi->priv = s;
	for (;;) {
		strbuf_reset(&rel);
		strbuf_addf(&rel, "dev/cpu/%d/msr", s->n);
		mon_path(&path, mi->sysroot, rel.buf);
		fd = open(path.buf, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			break;
		if (!msr_read(fd, MSR_TSC, &v) || !msr_read(fd, MSR_APERF, &v)) {
			close(fd);
			break;
		}
		if (s->n >= alloc) {
			alloc = alloc ? alloc * 2 : 8;
			s->cpu = xreallocarray(s->cpu, (size_t)alloc, sizeof(*s->cpu));
		}
		memset(&s->cpu[s->n], 0, sizeof(s->cpu[s->n]));
		s->cpu[s->n++].fd = fd;
	}
	strbuf_release(&path);
	strbuf_release(&rel);
	if (!s->n) {
		strbuf_addstr(why, "no readable /dev/cpu/0/msr (no MSR driver, or a VM)");
		ts_close(mi);
		return -1;
	}
	return 0;
}

/*
 * The first call records each CPU's counters; only the final one writes,
 * the whole run as one table -- a turbostat of the run's length, which
 * is what LKP's stats of it are (one summary, not a series).  The
 * summary row is the CPUs' mean, the SMI count their sum.
 */
static int ts_sample(struct mon_inst *mi, struct strbuf *out, bool final)
{
	struct ts_src *s = mi->priv;
	double dt, tot[6] = {0}, row[6];
	uint64_t v[5];
	int i, k;
	bool c6 = true, smi = true;

	if (!s->have_start) {
		s->t0 = time_mono_ns();
		for (i = 0; i < s->n; i++) {
			struct ts_cpu *c = &s->cpu[i];

			msr_read(c->fd, MSR_TSC, &c->v[0]);
			msr_read(c->fd, MSR_MPERF, &c->v[1]);
			msr_read(c->fd, MSR_APERF, &c->v[2]);
			c->c6 = msr_read(c->fd, MSR_CORE_C6, &c->v[3]);
			c->smi = msr_read(c->fd, MSR_SMI_COUNT, &c->v[4]);
		}
		s->have_start = true;
		return 0;
	}
	if (!final)
		return 0;
	dt = (double)(time_mono_ns() - s->t0) / 1e9;
	if (dt <= 0)
		dt = 1e-9;
	for (i = 0; i < s->n; i++) {
		c6 &= s->cpu[i].c6;
		smi &= s->cpu[i].smi;
	}
	strbuf_addf(out, "CPU\tAvg_MHz\tBusy%%\tBzy_MHz\tTSC_MHz%s\tCPU%%c1%s\n",
		    smi ? "\tSMI" : "", c6 ? "\tCPU%c6" : "");
	for (k = -1; k < s->n; k++) {
		for (i = k < 0 ? 0 : k; i < (k < 0 ? s->n : k + 1); i++) {
			struct ts_cpu *c = &s->cpu[i];
			double d[5];
			int j;

			memset(v, 0, sizeof(v));
			msr_read(c->fd, MSR_TSC, &v[0]);
			msr_read(c->fd, MSR_MPERF, &v[1]);
			msr_read(c->fd, MSR_APERF, &v[2]);
			if (c6)
				msr_read(c->fd, MSR_CORE_C6, &v[3]);
			if (smi)
				msr_read(c->fd, MSR_SMI_COUNT, &v[4]);
			for (j = 0; j < 5; j++)
				d[j] = (double)(v[j] - c->v[j]);
			row[0] = d[2] / dt / 1e6;                       /* Avg_MHz */
			row[1] = d[0] > 0 ? 100 * d[1] / d[0] : 0;      /* Busy% */
			row[2] = d[1] > 0 ? d[0] / dt / 1e6 * d[2] / d[1] : 0; /* Bzy_MHz */
			row[3] = d[0] / dt / 1e6;                       /* TSC_MHz */
			row[4] = d[4];                                  /* SMI */
			row[5] = d[0] > 0 ? 100 * d[3] / d[0] : 0;      /* CPU%c6 */
			if (k < 0)
				for (j = 0; j < 6; j++)
					tot[j] += j == 4 ? row[j] : row[j] / s->n;
		}
		if (k < 0)
			memcpy(row, tot, sizeof(row));
		if (k < 0)
			strbuf_addstr(out, "-");
		else
			strbuf_addf(out, "%d", k);
		strbuf_addf(out, "\t%.0f\t%.2f\t%.0f\t%.0f", row[0], row[1], row[2], row[3]);
		if (smi)
			strbuf_addf(out, "\t%.0f", row[4]);
		strbuf_addf(out, "\t%.2f", 100 - row[1] - (c6 ? row[5] : 0) < 0 ? 0 :
			    100 - row[1] - (c6 ? row[5] : 0));
		if (c6)
			strbuf_addf(out, "\t%.2f", row[5]);
		strbuf_addch(out, '\n');
	}
	return 0;
}

const struct monitor_sampling sampling_turbostat = {
	0, true, ts_open, ts_sample, ts_close,
};
