/*
 * slabinfo.c: the slabinfo monitor -- /proc/slabinfo version 2.1 (root
 * only; spec/lkp-monitors.md 2.6).  The parser keeps active_objs,
 * num_objs, active_slabs and num_slabs per cache, located through the
 * `# name <active_objs> ...` header.
 */
#include "util/compat.h"
#include <string.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "monitors/sampling.h"

static const char *const wanted[] = {
	"active_objs", "num_objs", "active_slabs", "num_slabs",
};

DECLARE_PARSER(parse_slabinfo)
{
	struct mon_lines it;
	struct mon_fields f;
	long col[ARRAY_SIZE(wanted)];
	size_t ncols = 0, i, j;
	bool version_ok = false;
	char name[64];

	(void)path;
	(void)err;
	for (i = 0; i < ARRAY_SIZE(wanted); i++)
		col[i] = -1;
	mon_lines_init(&it, raw, len);
	mon_fields_init(&f);
	while (mon_lines_next(&it)) {
		if (mon_has_prefix(it.line.buf, "time:")) {
			strbuf_addf(out, "%s\n", it.line.buf);
			continue;
		}
		if (mon_has_prefix(it.line.buf, "slabinfo - version:")) {
			version_ok = strstr(it.line.buf, "2.1") != NULL;
			continue;
		}
		if (!version_ok)
			continue;
		mon_fields_split(&f, it.line.buf, NULL);
		if (f.n && !strcmp(f.v[0], "#")) {
			/* header: positions counted without the leading '#' */
			ncols = f.n - 1;
			for (j = 1; j < f.n; j++)
				for (i = 0; i < ARRAY_SIZE(wanted); i++) {
					snprintf(name, sizeof(name), "<%s>", wanted[i]);
					if (!strcmp(f.v[j], name))
						col[i] = (long)j - 1;
				}
			continue;
		}
		if (!ncols || f.n != ncols)
			continue;
		for (i = 0; i < ARRAY_SIZE(wanted); i++)
			if (col[i] >= 0)
				strbuf_addf(out, "%s.%s: %s\n", f.v[0], wanted[i],
					    f.v[col[i]]);
	}
	mon_fields_release(&f);
	mon_lines_release(&it);
	return 0;
}

/* sampled by perfsift: the file as it is, after a `time:` line */
/*
 * every 10 s by default (LKP: 1 s): generating /proc/slabinfo costs the
 * kernel about 130 us, ten times any other /proc source, for a gauge that
 * is averaged over the run and shown only with --more
 */
MON_SINGLE_FILE(sampling_slabinfo, "proc/slabinfo", 10, true);
