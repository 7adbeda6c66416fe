/*
 * proc_vmstat.c: the proc-vmstat monitor -- /proc/vmstat as LKP samples it
 * (spec/lkp-monitors.md 2.3).  Raw: `time: <epoch>` then the file; the
 * parser turns `name value` into `name: value`.
 */
#include "util/compat.h"
#include <string.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "monitors/sampling.h"

static void row(struct mon_row *r)
{
	if (r->f->n == 2)
		strbuf_addf(r->out, "%s: %s\n", r->f->v[0], r->f->v[1]);
}

MON_ROW_PARSER(parse_proc_vmstat, 0, row)

/* sampled by perfsift: the file as it is, after a `time:` line */
MON_SINGLE_FILE(sampling_proc_vmstat, "proc/vmstat", 1, true);
