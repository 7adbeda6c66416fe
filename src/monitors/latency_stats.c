/*
 * latency_stats.c: the latency_stats monitor (opt-in; needs
 * CONFIG_LATENCYTOP, spec/lkp-monitors.md 2.11).  Raw: `time:`, the
 * `Latency Top version` line, then `hits total_us max_us frame...` rows.
 * Rows with the same backtrace (compiler-clone suffixes dropped) merge;
 * each gives hits./sum./avg./max.<bt>, and the largest of each kind is
 * hits.max, sum.max, avg.max and max.max.
 */
#include "util/compat.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "util/xalloc.h"
#include "monitors/sampling.h"

static void strip_clone(char *s)
{
	static const char *const sfx[] = {".isra.", ".constprop.", ".part."};
	size_t j;
	char *p;

	for (j = 0; j < ARRAY_SIZE(sfx); j++)
		if ((p = strstr(s, sfx[j])))
			*p = '\0';
}

DECLARE_PARSER(parse_latency_stats)
{
	struct mon_lines it;
	struct mon_fields f;
	struct mon_kv hits, sum, mx;
	struct strbuf bt = STRBUF_INIT;
	double best[4] = {0, 0, 0, 0}, v[4];
	static const char *const kind[] = {"hits", "sum", "avg", "max"};
	size_t i, k;
	long j;

	(void)path;
	(void)err;
	mon_kv_init(&hits);
	mon_kv_init(&sum);
	mon_kv_init(&mx);
	mon_lines_init(&it, raw, len);
	mon_fields_init(&f);
	while (mon_lines_next(&it)) {
		mon_fields_split(&f, it.line.buf, NULL);
		if (f.n < 4 || !mon_is_number(f.v[0]) || !mon_is_number(f.v[1]) ||
		    !mon_is_number(f.v[2]))
			continue;
		strbuf_reset(&bt);
		for (i = 3; i < f.n; i++) {
			strip_clone(f.v[i]);
			if (i > 3)
				strbuf_addch(&bt, '.');
			strbuf_addstr(&bt, f.v[i]);
		}
		mon_kv_add(&hits, bt.buf, strtod(f.v[0], NULL));
		mon_kv_add(&sum, bt.buf, strtod(f.v[1], NULL));
		j = (long)mon_kv_slot(&mx, bt.buf);
		if (strtod(f.v[2], NULL) > mx.vals[j])
			mx.vals[j] = strtod(f.v[2], NULL);
	}
	for (i = 0; i < hits.n; i++) {
		v[0] = hits.vals[i];
		v[1] = sum.vals[i];
		/*
		 * LKP's average is an integer division; trunc(), not a cast
		 * to an integer type, keeps a huge sum (a corrupt file) defined
		 */
		v[2] = v[0] > 0 ? trunc(v[1] / v[0]) : 0;
		v[3] = mx.vals[i];
		for (k = 0; k < 4; k++) {
			strbuf_addf(out, "%s.%s: %.0f\n", kind[k], hits.keys[i], v[k]);
			if (v[k] > best[k])
				best[k] = v[k];
		}
	}
	if (hits.n)
		for (k = 0; k < 4; k++)
			strbuf_addf(out, "%s.max: %.0f\n", kind[k], best[k]);
	strbuf_release(&bt);
	mon_fields_release(&f);
	mon_lines_release(&it);
	mon_kv_release(&hits);
	mon_kv_release(&sum);
	mon_kv_release(&mx);
	return 0;
}

/* sampled by perfsift: the file as it is, after a `time:` line */
MON_SINGLE_FILE(sampling_latency_stats, "proc/latency_stats", -1, false);
