/*
 * buddyinfo.c: the buddyinfo monitor (opt-in) -- /proc/buddyinfo
 * (spec/lkp-monitors.md 2.19): free blocks per node, zone and order as
 * `Node.<n>.zone.<zone>.<order>`.
 */
#include "util/compat.h"
#include <string.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "monitors/sampling.h"

DECLARE_PARSER(parse_buddyinfo)
{
	struct mon_lines it;
	struct mon_fields f;
	size_t i, nlen;

	(void)path;
	(void)err;
	mon_lines_init(&it, raw, len);
	mon_fields_init(&f);
	while (mon_lines_next(&it)) {
		mon_fields_split(&f, it.line.buf, NULL);
		if (f.n == 2 && !strcmp(f.v[0], "time:")) {
			strbuf_addf(out, "time: %s\n", f.v[1]);
			continue;
		}
		if (f.n < 5 || strcmp(f.v[0], "Node") || strcmp(f.v[2], "zone"))
			continue;
		nlen = strcspn(f.v[1], ",");
		for (i = 4; i < f.n; i++)
			strbuf_addf(out, "Node.%.*s.zone.%s.%zu: %s\n", (int)nlen,
				    f.v[1], f.v[3], i - 4, f.v[i]);
	}
	mon_fields_release(&f);
	mon_lines_release(&it);
	return 0;
}

/* sampled by perfsift: the file as it is, after a `time:` line */
MON_SINGLE_FILE(sampling_buddyinfo, "proc/buddyinfo", 1, false);
