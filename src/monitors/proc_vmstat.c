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

DECLARE_PARSER(parse_proc_vmstat)
{
	struct mon_lines it;
	struct mon_fields f;

	(void)path;
	(void)err;
	mon_lines_init(&it, raw, len);
	mon_fields_init(&f);
	while (mon_lines_next(&it)) {
		mon_fields_split(&f, it.line.buf, NULL);
		if (f.n != 2)
			continue;
		if (!strcmp(f.v[0], "time:"))
			strbuf_addf(out, "time: %s\n", f.v[1]);
		else
			strbuf_addf(out, "%s: %s\n", f.v[0], f.v[1]);
	}
	mon_fields_release(&f);
	mon_lines_release(&it);
	return 0;
}

/* sampled by perfsift: the file as it is, after a `time:` line */
MON_SINGLE_FILE(sampling_proc_vmstat, "proc/vmstat", 1, true);
