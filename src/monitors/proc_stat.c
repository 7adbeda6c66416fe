/*
 * proc_stat.c: the proc-stat monitor -- /proc/stat.  LKP archives it but has
 * no parser; perfsift defines these keys (docs/lkp-compat.md):
 *   cpu.<field>   the all-CPU line in USER_HZ ticks: user nice system idle
 *                 iowait irq softirq steal guest guest_nice (counters)
 *   intr, softirq the totals (first number of their lines; counters)
 *   ctxt, processes                                          (counters)
 *   procs_running, procs_blocked                             (gauges)
 * Per-CPU lines and btime are left out: per-CPU time is what interrupts,
 * softirqs and vmstat already split, and btime never changes.
 */
#include "util/compat.h"
#include <string.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "monitors/sampling.h"

static const char *const cpu_fields[] = {
	"user", "nice", "system", "idle", "iowait", "irq", "softirq",
	"steal", "guest", "guest_nice",
};

static const char *const counters[] = {
	"intr", "ctxt", "processes", "procs_running", "procs_blocked", "softirq",
};

static void row(struct mon_row *r)
{
	struct mon_fields *f = r->f;
	size_t i;

	if (f->n < 2)
		return;
	if (!strcmp(f->v[0], "cpu")) {
		for (i = 1; i < f->n && i - 1 < ARRAY_SIZE(cpu_fields); i++)
			strbuf_addf(r->out, "cpu.%s: %s\n", cpu_fields[i - 1],
				    f->v[i]);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(counters); i++)
		if (!strcmp(f->v[0], counters[i]))
			strbuf_addf(r->out, "%s: %s\n", f->v[0], f->v[1]);
}

MON_ROW_PARSER(parse_proc_stat, 0, row)

/* sampled by perfsift: the file as it is, after a `time:` line */
MON_SINGLE_FILE(sampling_proc_stat, "proc/stat", 10, true);
