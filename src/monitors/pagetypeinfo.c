/*
 * pagetypeinfo.c: the pagetypeinfo monitor (opt-in; /proc/pagetypeinfo is
 * root only and costs about 1 ms a read; spec/lkp-monitors.md 2.20).
 * Free pages per migrate type and order become
 * `Node<n>.<zone>.<type>.<order>`, the block counts `Node<n>.<zone>.<type>`.
 */
#include "util/compat.h"
#include <string.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "util/xalloc.h"
#include "monitors/sampling.h"

DECLARE_PARSER(parse_pagetypeinfo)
{
	struct mon_lines it;
	struct mon_fields f, types;
	size_t i, nlen, zlen;
	bool ttypes = false;

	(void)path;
	(void)err;
	mon_lines_init(&it, raw, len);
	mon_fields_init(&f);
	mon_fields_init(&types);
	while (mon_lines_next(&it)) {
		mon_fields_split(&f, it.line.buf, NULL);
		if (f.n == 2 && !strcmp(f.v[0], "time:")) {
			strbuf_addf(out, "time: %s\n", f.v[1]);
			continue;
		}
		if (mon_has_prefix(it.line.buf, "Number of blocks type")) {
			mon_fields_split(&types, it.line.buf + strlen("Number of blocks type"), NULL);
			ttypes = true;
			continue;
		}
		if (mon_has_prefix(it.line.buf, "Free pages count"))
			ttypes = false;
		if (f.n < 5 || strcmp(f.v[0], "Node") || strcmp(f.v[2], "zone"))
			continue;
		nlen = strcspn(f.v[1], ",");
		zlen = strcspn(f.v[3], ",");
		if (f.n > 6 && !strcmp(f.v[4], "type")) {
			for (i = 6; i < f.n; i++)
				strbuf_addf(out, "Node%.*s.%.*s.%s.%zu: %s\n",
					    (int)nlen, f.v[1], (int)zlen, f.v[3],
					    f.v[5], i - 6, f.v[i]);
		} else if (ttypes) {
			for (i = 4; i < f.n && i - 4 < types.n; i++)
				strbuf_addf(out, "Node%.*s.%.*s.%s: %s\n",
					    (int)nlen, f.v[1], (int)zlen, f.v[3],
					    types.v[i - 4], f.v[i]);
		}
	}
	mon_fields_release(&types);
	mon_fields_release(&f);
	mon_lines_release(&it);
	return 0;
}

/* sampled by perfsift: the file as it is, after a `time:` line */
MON_SINGLE_FILE(sampling_pagetypeinfo, "proc/pagetypeinfo", 1, false);
