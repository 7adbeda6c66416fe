/*
 * perf_profile.c: the perf-profile monitor's parser -- `perf report
 * --children --header -g folded` text (spec/lkp-monitors.md 2.9).  Entry
 * lines give `children.<ev>.<sym>` and `self.<ev>.<sym>`, folded call
 * chains `calltrace.<ev>.<first five frames>`; values are % of samples,
 * `%.2f`, those under 0.05 dropped, keys sorted.  <ev> is the event in the
 * `# Samples: ... of event 'X'` header with ':' made '-' (cycles-pp,
 * cpu-clock-pp).  A `# legacy_keys: 1` header line (perfsift's sampler
 * writes it) also yields the pre-2016 `<ev>.<frames>` form of each chain.
 */
#include "util/compat.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "util/xalloc.h"

/* drop .isra.N, .constprop.N and .part.N (compiler clones) */
static void normalise_sym(struct strbuf *sb, const char *sym, size_t len)
{
	static const char *const sfx[] = {".isra.", ".constprop.", ".part."};
	size_t i, j, start = sb->len, k;

	strbuf_add(sb, sym, len);
	for (i = start; i < sb->len; i++) {
		for (j = 0; j < ARRAY_SIZE(sfx); j++) {
			k = strlen(sfx[j]);
			if (i + k < sb->len && !strncmp(sb->buf + i, sfx[j], k) &&
			    isdigit((unsigned char)sb->buf[i + k])) {
				size_t e = i + k;

				while (e < sb->len && isdigit((unsigned char)sb->buf[e]))
					e++;
				memmove(sb->buf + i, sb->buf + e, sb->len - e + 1);
				sb->len -= e - i;
				i--;
				break;
			}
		}
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool parse_pct(const char *s, double *v, const char **end)
{
	char *e;

	*v = strtod(s, &e);
	if (e == s || *e != '%')
		return false;
	*end = e + 1;
	return true;
}

DECLARE_PARSER(parse_perf_profile)
{
	struct mon_lines it;
	struct mon_kv kv;
	struct strbuf ev = STRBUF_INIT, key = STRBUF_INIT;
	const char *p, *q, *e;
	double c, s;
	bool first = true, legacy = false;
	size_t i, nframes, *order = NULL;
	char **sorted = NULL;

	(void)path;
	(void)err;
	mon_kv_init(&kv);
	mon_lines_init(&it, raw, len);
	strbuf_addstr(&ev, "cycles-pp");
	while (mon_lines_next(&it)) {
		const char *l = it.line.buf;

		if (first) {
			first = false;
			if (strcmp(l, "# ========") && !strstr(l, "--header"))
				break;
		}
		if (l[0] == '#') {
			if (mon_has_prefix(l, "# legacy_keys: 1"))
				legacy = true;
			p = NULL;
			if (mon_has_prefix(l, "# Samples: "))
				p = strstr(l, " of event ");
			else if (mon_has_prefix(l, "# Events: "))
				p = strstr(l, " ");
			if (p && (p = strstr(l, " of event ")) != NULL) {
				p += strlen(" of event ");
				strbuf_reset(&ev);
				for (; *p; p++) {
					if (*p == '\'' || *p == '"')
						continue;
					strbuf_addch(&ev, *p == ':' ? '-' : *p);
				}
				strbuf_trim(&ev);
			}
			continue;
		}
		p = l + strspn(l, " ");
		if (!parse_pct(p, &c, &e))
			continue;
		if (p != l) {
			/* entry: children% self% dso [x] symbol */
			q = e + strspn(e, " ");
			if (!parse_pct(q, &s, &e))
				continue;
			/* the symbol follows "[k] " or "[.] " */
			for (q = strchr(e, '['); q && !(q[1] && q[2] == ']' && q[3] == ' ');)
				q = strchr(q + 1, '[');
			if (!q)
				continue;
			q += 4;
			q += strspn(q, " ");
			strbuf_reset(&key);
			strbuf_addf(&key, "children.%s.", ev.buf);
			normalise_sym(&key, q, strcspn(q, " "));
			mon_kv_add(&kv, key.buf, c);
			strbuf_reset(&key);
			strbuf_addf(&key, "self.%s.", ev.buf);
			normalise_sym(&key, q, strcspn(q, " "));
			mon_kv_add(&kv, key.buf, s);
			continue;
		}
		/* folded chain: pct% callee;caller;... */
		q = e + strspn(e, " ");
		strbuf_reset(&key);
		strbuf_addf(&key, "calltrace.%s", ev.buf);
		for (nframes = 0; *q && nframes < 5; nframes++) {
			size_t n = strcspn(q, ";");

			strbuf_addch(&key, '.');
			normalise_sym(&key, q, n);
			q += n;
			if (*q == ';')
				q++;
		}
		mon_kv_add(&kv, key.buf, c);
		if (legacy)
			mon_kv_add(&kv, key.buf + strlen("calltrace."), c);
	}
	sorted = xcalloc(kv.n + 1, sizeof(*sorted));
	for (i = 0; i < kv.n; i++)
		sorted[i] = kv.keys[i];
	qsort(sorted, kv.n, sizeof(*sorted), cmp_str);
	for (i = 0; i < kv.n; i++) {
		s = kv.vals[mon_kv_find(&kv, sorted[i])];
		if (s >= 0.05)
			strbuf_addf(out, "%s: %.2f\n", sorted[i], s);
	}
	free(sorted);
	free(order);
	strbuf_release(&key);
	strbuf_release(&ev);
	mon_lines_release(&it);
	mon_kv_release(&kv);
	return 0;
}
