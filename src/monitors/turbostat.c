/*
 * turbostat.c: the turbostat monitor's parser (spec/lkp-monitors.md 2.8):
 * the system-summary row under the first header with `Busy%`, columns
 * aligned from the right, `-` and overflowed (`*`) values skipped.  The
 * sampler writes the same text from /dev/cpu/<N>/msr where that exists.
 */
#include "util/compat.h"
#include <string.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"

DECLARE_PARSER(parse_turbostat)
{
	struct mon_lines it;
	struct mon_fields titles, vals;
	bool have_titles = false;
	size_t i, off;

	(void)path;
	(void)err;
	mon_lines_init(&it, raw, len);
	mon_fields_init(&titles);
	mon_fields_init(&vals);
	while (mon_lines_next(&it)) {
		if (!have_titles) {
			if (strstr(it.line.buf, "Busy%")) {
				mon_fields_split(&titles, it.line.buf, NULL);
				have_titles = true;
			}
			continue;
		}
		mon_fields_split(&vals, it.line.buf, NULL);
		if (vals.n > titles.n)
			break;
		off = titles.n - vals.n;
		for (i = 0; i < vals.n; i++)
			if (strcmp(vals.v[i], "-") && !strchr(vals.v[i], '*'))
				strbuf_addf(out, "%s: %s\n", titles.v[off + i],
					    vals.v[i]);
		break;
	}
	mon_fields_release(&vals);
	mon_fields_release(&titles);
	mon_lines_release(&it);
	return 0;
}
