/*
 * vmstat.c: the vmstat monitor's parser -- vmstat(8) `--timestamp` text
 * (spec/lkp-monitors.md 2.2).  Rows with a digit map by position to
 * procs.r ... cpu.gu; the trailing `YYYY-MM-DD HH:MM:SS` becomes
 * `time: <epoch>` read as UTC, as LKP reads it.  perfsift's own sampler
 * writes the same text, computed from /proc (see vmstat_sample.c), with UTC
 * stamps so that this reading is right (LKP quirk Q8).
 */
#include "util/compat.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"

static const char *const columns[] = {
	"procs.r", "procs.b", "memory.swpd", "memory.free", "memory.buff",
	"memory.cache", "swap.si", "swap.so", "io.bi", "io.bo", "system.in",
	"system.cs", "cpu.us", "cpu.sy", "cpu.id", "cpu.wa", "cpu.st", "cpu.gu",
};

static bool is_clock(const char *s)
{
	int h, m, sec, n = 0;

	return sscanf(s, "%2d:%2d:%2d%n", &h, &m, &sec, &n) == 3 &&
	       s[n] == '\0';
}

DECLARE_PARSER(parse_vmstat)
{
	struct mon_lines it;
	struct mon_fields f;
	size_t i, nval;
	struct tm tm;
	int n;

	(void)path;
	(void)err;
	mon_lines_init(&it, raw, len);
	mon_fields_init(&f);
	while (mon_lines_next(&it)) {
		if (!strpbrk(it.line.buf, "0123456789"))
			continue;
		mon_fields_split(&f, it.line.buf, NULL);
		nval = f.n;
		if (nval >= 2 && is_clock(f.v[nval - 1])) {
			memset(&tm, 0, sizeof(tm));
			n = 0;
			if (sscanf(f.v[nval - 2], "%d-%d-%d%n", &tm.tm_year,
				   &tm.tm_mon, &tm.tm_mday, &n) == 3 &&
			    !f.v[nval - 2][n] &&
			    sscanf(f.v[nval - 1], "%d:%d:%d", &tm.tm_hour,
				   &tm.tm_min, &tm.tm_sec) == 3) {
				tm.tm_year -= 1900;
				tm.tm_mon -= 1;
				strbuf_addf(out, "time: %lld\n",
					    (long long)timegm(&tm));
			}
			nval -= 2;
		}
		for (i = 0; i < nval && i < ARRAY_SIZE(columns); i++)
			strbuf_addf(out, "%s: %s\n", columns[i], f.v[i]);
	}
	mon_fields_release(&f);
	mon_lines_release(&it);
	return 0;
}
