/*
 * numa.c: numa-meminfo, numa-vmstat and numa-numastat -- the per-node files
 * under /sys/devices/system/node/node<N>/ (spec/lkp-monitors.md 2.5).
 * Raw: `time: <epoch.ns>`, then per node a `node: N` line and the file.
 * Deliberate fix (LKP quirk Q14): node0 is sampled on one-node machines
 * too (LKP's monitor exits there), the raw format is LKP's.
 */
#include "util/compat.h"
#include <ctype.h>
#include <string.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"

/* `Node 0 MemTotal:  123 kB` -> `node0.MemTotal: 123` */
DECLARE_PARSER(parse_numa_meminfo)
{
	struct mon_lines it;
	struct mon_fields f;
	char *c;

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
		if (f.n < 4)
			continue;
		for (c = f.v[0]; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		strbuf_addf(out, "%s%s.%s %s\n", f.v[0], f.v[1], f.v[2], f.v[3]);
	}
	mon_fields_release(&f);
	mon_lines_release(&it);
	return 0;
}

/* numa-vmstat and numa-numastat: `name value` under `node: N` */
DECLARE_PARSER(parse_numa_vmstat)
{
	struct mon_lines it;
	struct mon_fields f;
	struct strbuf node = STRBUF_INIT;

	(void)path;
	(void)err;
	mon_lines_init(&it, raw, len);
	mon_fields_init(&f);
	while (mon_lines_next(&it)) {
		mon_fields_split(&f, it.line.buf, NULL);
		if (f.n != 2)
			continue;
		if (!strcmp(f.v[0], "time:")) {
			strbuf_addf(out, "time: %s\n", f.v[1]);
		} else if (!strcmp(f.v[0], "node:")) {
			strbuf_reset(&node);
			strbuf_addf(&node, "node%s", f.v[1]);
		} else {
			strbuf_addf(out, "%s.%s: %s\n", node.buf, f.v[0], f.v[1]);
		}
	}
	strbuf_release(&node);
	mon_fields_release(&f);
	mon_lines_release(&it);
	return 0;
}
