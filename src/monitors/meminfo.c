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

DECLARE_PARSER(parse_meminfo)
{
	struct mon_lines it;
	struct mon_fields f;
	long long total = 0, max_used = 0, used;
	bool have_max = false;

	(void)path;
	(void)err;
	mon_lines_init(&it, raw, len);
	mon_fields_init(&f);
	while (mon_lines_next(&it)) {
		mon_fields_split(&f, it.line.buf, NULL);
		if (f.n < 2 || mon_has_prefix(f.v[0], "test_klp_atomic_replace:") ||
		    mon_has_prefix(f.v[0], "entries"))
			continue;
		strbuf_addf(out, "%s %s\n", f.v[0], f.v[1]);
		if (!strcmp(f.v[0], "MemTotal:"))
			total = strtoll(f.v[1], NULL, 10);
		if (!strcmp(f.v[0], "MemFree:")) {
			used = total - strtoll(f.v[1], NULL, 10);
			if (!have_max || used > max_used)
				max_used = used;
			have_max = true;
			strbuf_addf(out, "Memused: %lld\n", used);
			strbuf_addf(out, "max_used_%s: %lld\n",
				    f.n > 2 ? f.v[2] : "", max_used);
		}
	}
	mon_fields_release(&f);
	mon_lines_release(&it);
	return 0;
}

/* sampled by perfsift: the file as it is, after a `time:` line */
MON_SINGLE_FILE(sampling_meminfo, "proc/meminfo", 1, true);
