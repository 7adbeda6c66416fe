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

static void row(struct mon_row *r)
{
	struct mon_fields *f = r->f;
	size_t i, nlen;

	if (f->n < 5 || strcmp(f->v[0], "Node") || strcmp(f->v[2], "zone"))
		return;
	nlen = strcspn(f->v[1], ",");
	for (i = 4; i < f->n; i++)
		strbuf_addf(r->out, "Node.%.*s.zone.%s.%zu: %s\n", (int)nlen,
			    f->v[1], f->v[3], i - 4, f->v[i]);
}

MON_ROW_PARSER(parse_buddyinfo, 0, row)

/* sampled by perfsift: the file as it is, after a `time:` line */
MON_SINGLE_FILE(sampling_buddyinfo, "proc/buddyinfo", 1, false);
