/*
 * cpuidle.c: the cpuidle monitor -- time and entry counts of each idle
 * state, from /sys/devices/system/cpu/cpu<N>/cpuidle/state<M>/
 * (spec/lkp-monitors.md 2.7).  Raw: `time: <epoch.ns>`, then
 * `cpu<N>.<state>.time: <us>` and `.usage: <n>` lines; the parser sums
 * each `<state>.<field>` over CPUs.  Deliberate fix (LKP quirk Q1): the
 * state name is read from its `name` file (spaces become '-'), where LKP's
 * shell loop loses it and writes `cpu0..time`.
 */
#include "util/compat.h"
#include <stdlib.h>
#include <string.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"

static void flush(struct mon_kv *kv, struct strbuf *out)
{
	size_t i;

	for (i = 0; i < kv->n; i++)
		strbuf_addf(out, "%s: %.0f\n", kv->keys[i], kv->vals[i]);
	mon_kv_clear(kv);
}

DECLARE_PARSER(parse_cpuidle)
{
	struct mon_lines it;
	struct mon_fields f;
	struct mon_kv kv;
	const char *dot;
	size_t klen;

	(void)path;
	(void)err;
	mon_kv_init(&kv);
	mon_lines_init(&it, raw, len);
	mon_fields_init(&f);
	while (mon_lines_next(&it)) {
		mon_fields_split(&f, it.line.buf, NULL);
		if (f.n != 2)
			continue;
		if (!strcmp(f.v[0], "time:")) {
			flush(&kv, out);
			continue;
		}
		klen = strlen(f.v[0]);
		dot = strchr(f.v[0], '.');
		if (!mon_has_prefix(f.v[0], "cpu") || !dot || f.v[0][klen - 1] != ':')
			continue;
		f.v[0][klen - 1] = '\0';
		mon_kv_add(&kv, dot + 1, strtod(f.v[1], NULL));
	}
	flush(&kv, out);
	mon_kv_release(&kv);
	mon_fields_release(&f);
	mon_lines_release(&it);
	return 0;
}
