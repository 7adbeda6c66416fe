/*
 * meminfo.c: the meminfo monitor -- /proc/meminfo (spec/lkp-monitors.md
 * 2.4).  The parser drops units and adds LKP's Memused and max_used_<unit>
 * after each MemFree.  Deliberate fix (LKP quirk Q5): Memused uses the
 * MemTotal of the same sample, not the first one seen, since MemTotal moves
 * under memory hotplug and ballooning.
 */
#include "util/compat.h"
#include <stdlib.h>
#include <string.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "monitors/sampling.h"

struct meminfo_state {
	long long total, max_used;
	bool have_max;
};

static void row(struct mon_row *r)
{
	struct meminfo_state *st = r->data;
	struct mon_fields *f = r->f;
	long long used;

	if (f->n < 2 || mon_has_prefix(f->v[0], "test_klp_atomic_replace:") ||
	    mon_has_prefix(f->v[0], "entries"))
		return;
	strbuf_addf(r->out, "%s %s\n", f->v[0], f->v[1]);
	if (!strcmp(f->v[0], "MemTotal:"))
		st->total = strtoll(f->v[1], NULL, 10);
	if (!strcmp(f->v[0], "MemFree:")) {
		used = st->total - strtoll(f->v[1], NULL, 10);
		if (!st->have_max || used > st->max_used)
			st->max_used = used;
		st->have_max = true;
		strbuf_addf(r->out, "Memused: %lld\n", used);
		strbuf_addf(r->out, "max_used_%s: %lld\n",
			    f->n > 2 ? f->v[2] : "", st->max_used);
	}
}

DECLARE_PARSER(parse_meminfo)
{
	struct meminfo_state st = {0, 0, false};

	(void)path;
	(void)err;
	mon_each_row(raw, len, out, 0, row, &st);
	return 0;
}

/* sampled by perfsift: the file as it is, after a `time:` line */
MON_SINGLE_FILE(sampling_meminfo, "proc/meminfo", 1, true);
