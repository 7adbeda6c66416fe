/*
 * diskstats.c: the diskstats monitor -- /proc/diskstats (spec/lkp-monitors.md
 * 2.15), keys `<field>.<dev>`.  Deliberate fix (LKP quirk Q3): LKP's parser
 * takes only 14-field lines (kernels before 4.18) and so emits nothing on
 * current kernels; perfsift reads the 14-, 18- and 20-field layouts, adding
 * the discard_* (4.18) and flush_* (5.5) fields.
 */
#include "util/compat.h"
#include <string.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "monitors/sampling.h"

static const char *const fields[] = {
	"read_ios", "read_merges", "read_sectors", "read_ticks",
	"write_ios", "write_merges", "write_sectors", "write_ticks",
	"in_flight", "io_ticks", "time_in_queue",
	"discard_ios", "discard_merges", "discard_sectors", "discard_ticks",
	"flush_ios", "flush_ticks",
};

static void row(struct mon_row *r)
{
	struct mon_fields *f = r->f;
	size_t i, nstat;

	/* 3 id fields + 11, 15 or 17 counters; newer kernels may add more */
	if (f->n != 14 && f->n != 18 && f->n < 20)
		return;
	nstat = f->n - 3;
	if (nstat > ARRAY_SIZE(fields))
		nstat = ARRAY_SIZE(fields);
	for (i = 0; i < nstat; i++)
		strbuf_addf(r->out, "%s.%s: %s\n", fields[i], f->v[2], f->v[3 + i]);
}

MON_ROW_PARSER(parse_diskstats, 0, row)

/* sampled by perfsift: the file as it is, after a `time:` line */
MON_SINGLE_FILE(sampling_diskstats, "proc/diskstats", 1, true);
