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

DECLARE_PARSER(parse_proc_stat)
{
	struct mon_lines it;
	struct mon_fields f;
	size_t i;

	(void)path;
	(void)err;
	mon_lines_init(&it, raw, len);
	mon_fields_init(&f);
	while (mon_lines_next(&it)) {
		mon_fields_split(&f, it.line.buf, NULL);
		if (f.n < 2)
			continue;
		if (!strcmp(f.v[0], "time:")) {
			strbuf_addf(out, "time: %s\n", f.v[1]);
		} else if (!strcmp(f.v[0], "cpu")) {
			for (i = 1; i < f.n && i - 1 < ARRAY_SIZE(cpu_fields); i++)
				strbuf_addf(out, "cpu.%s: %s\n", cpu_fields[i - 1],
					    f.v[i]);
		} else {
			for (i = 0; i < ARRAY_SIZE(counters); i++)
				if (!strcmp(f.v[0], counters[i]))
					strbuf_addf(out, "%s: %s\n", f.v[0], f.v[1]);
		}
	}
	mon_fields_release(&f);
	mon_lines_release(&it);
	return 0;
}

/* sampled by perfsift: the file as it is, after a `time:` line */
MON_SINGLE_FILE(sampling_proc_stat, "proc/stat", 10, true);
