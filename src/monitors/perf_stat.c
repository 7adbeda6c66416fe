/*
 * perf_stat.c: the perf-stat monitor's parser -- `perf stat -I <ms> -x ,`
 * interval output (and the older space-separated form), spec/lkp-monitors.md
 * 2.10.  Per interval: `time:`, `i.<event>` per-second rates, derived
 * `i.` metrics (ipc, miss rates, MPKI, ...) and perf's own metric columns as
 * `i.metric.<Unit>`; at the end `ps.<event>` (total per second), `total.
 * instructions` and `overall.<metric>`.  Like LKP, the last interval is
 * taken as incomplete and not flushed (quirk Q7: kept for compatibility;
 * perfsift's sampler ends its file on a whole interval and adds one more
 * line, see the sampler below).
 */
#include "util/compat.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"

struct ps_state {
	struct mon_kv events;  /* learned from the command line's -e */
	struct mon_kv cur;     /* this interval's sums, first-seen order */
	struct mon_kv metrics; /* this interval's perf metric columns */
	struct mon_kv total;   /* flushed intervals' sums */
	double cur_ts, prev_ts, last_ts;
	bool in_interval;
};

static void add_float(struct strbuf *out, const char *prefix, const char *key,
		      double v)
{
	strbuf_addf(out, "%s%s: ", prefix, key);
	mon_ruby_float(out, v);
	strbuf_addch(out, '\n');
}

static bool kv_get(const struct mon_kv *kv, const char *key, double *v)
{
	long i = mon_kv_find(kv, key);

	if (i < 0)
		return false;
	*v = kv->vals[i];
	return true;
}

/* LKP's derived metrics, from raw counts */
static void derived(const struct mon_kv *kv, const char *prefix,
		    struct strbuf *out)
{
	double cyc = 0, ins = 0, m, b;
	bool have_cyc = kv_get(kv, "cpu-cycles", &cyc) || kv_get(kv, "cycles", &cyc);
	bool have_ins = kv_get(kv, "instructions", &ins);
	char base[256];
	size_t i, n;

	if (have_cyc && have_ins && cyc != 0)
		add_float(out, prefix, "ipc", ins / cyc);
	if (have_cyc && have_ins && ins != 0)
		add_float(out, prefix, "cpi", cyc / ins);
	for (i = 0; i < kv->n; i++) {
		n = strlen(kv->keys[i]);
		if (n <= 7 || n > 200 || strcmp(kv->keys[i] + n - 7, "-misses"))
			continue;
		m = kv->vals[i];
		snprintf(base, sizeof(base), "%.*ss", (int)(n - 7), kv->keys[i]);
		if (kv_get(kv, base, &b)) {
			b += m;
		} else {
			snprintf(base, sizeof(base), "%.*s-references",
				 (int)(n - 7), kv->keys[i]);
			if (!kv_get(kv, base, &b)) {
				snprintf(base, sizeof(base), "%.*s-instructions",
					 (int)(n - 7), kv->keys[i]);
				if (!kv_get(kv, base, &b))
					continue;
			}
		}
		if (b != 0) {
			snprintf(base, sizeof(base), "%.*s-miss-rate%%",
				 (int)(n - 7), kv->keys[i]);
			add_float(out, prefix, base, m * 100 / b);
		}
		if (!strcmp(kv->keys[i], "cache-misses")) {
			if (have_cyc && m != 0)
				add_float(out, prefix, "cycles-between-cache-misses",
					  cyc / m);
			if (have_ins && ins != 0)
				add_float(out, prefix, "MPKI", m / ins * 1000);
		}
		if (!strcmp(kv->keys[i], "iTLB-load-misses") && have_ins && m != 0)
			add_float(out, prefix, "instructions-per-iTLB-miss", ins / m);
	}
}

static void flush_interval(struct ps_state *st, struct strbuf *out)
{
	double len = st->cur_ts - st->prev_ts;
	size_t i;

	strbuf_addstr(out, "time: ");
	mon_ruby_float(out, st->cur_ts);
	strbuf_addch(out, '\n');
	for (i = 0; i < st->cur.n; i++) {
		add_float(out, "i.", st->cur.keys[i], st->cur.vals[i] / len);
		mon_kv_add(&st->total, st->cur.keys[i], st->cur.vals[i]);
	}
	derived(&st->cur, "i.", out);
	for (i = 0; i < st->metrics.n; i++)
		add_float(out, "i.metric.", st->metrics.keys[i],
			  st->metrics.vals[i]);
	mon_kv_clear(&st->cur);
	mon_kv_clear(&st->metrics);
	st->prev_ts = st->cur_ts;
}

static void learn_events(struct ps_state *st, const char *line)
{
	const char *e = strstr(line, " -e ");
	struct mon_fields f;
	size_t i, n;
	char *name;

	if (!e)
		return;
	e += 4;
	n = strcspn(e, " ");
	mon_fields_init(&f);
	{
		struct strbuf list = STRBUF_INIT;

		strbuf_add(&list, e, n);
		mon_fields_split(&f, list.buf, ",{}");
		strbuf_release(&list);
	}
	for (i = 0; i < f.n; i++) {
		name = f.v[i];
		mon_kv_slot(&st->events, name);
	}
	mon_fields_release(&f);
}

static bool mentions_event(const struct ps_state *st, const char *line)
{
	size_t i;

	if (!st->events.n)
		return true;
	for (i = 0; i < st->events.n; i++)
		if (strstr(line, st->events.keys[i]))
			return true;
	return false;
}

/* split at every ',' keeping empty fields */
static size_t split_csv(char *s, char **v, size_t max)
{
	size_t n = 0;

	while (n < max) {
		v[n++] = s;
		s = strchr(s, ',');
		if (!s)
			break;
		*s++ = '\0';
	}
	return n;
}

static bool is_metric_unit(const char *u)
{
	return isupper((unsigned char)u[0]) && !strpbrk(u, " \t");
}

DECLARE_PARSER(parse_perf_stat)
{
	struct ps_state st;
	struct mon_lines it;
	struct mon_fields f;
	struct strbuf event = STRBUF_INIT, unit = STRBUF_INIT;
	char *v[16];
	const char *ts_s, *val_s, *ev, *mval_s, *slash;
	double ts, val, mval;
	size_t n, i, lineno = 0;
	int ret = 0;

	(void)path;
	memset(&st, 0, sizeof(st));
	mon_lines_init(&it, raw, len);
	mon_fields_init(&f);
	while (mon_lines_next(&it)) {
		lineno++;
		if (strstr(it.line.buf, " -e ")) {
			learn_events(&st, it.line.buf);
			continue;
		}
		if (!isdigit((unsigned char)it.line.buf[strspn(it.line.buf, " ")]))
			continue;
		if (!mentions_event(&st, it.line.buf)) {
			strbuf_addf(err, "%s:%zu: no known event in '%s'",
				    path ? path : "perf-stat", lineno, it.line.buf);
			ret = -1;
			goto out;
		}
		strbuf_reset(&unit);
		mval_s = NULL;
		if (strchr(it.line.buf, ',')) {
			n = split_csv(it.line.buf, v, ARRAY_SIZE(v));
			if (n < 4)
				continue;
			ts_s = v[0];
			val_s = v[1];
			ev = v[3];
			if (n >= 8) {
				mval_s = v[6];
				strbuf_addstr(&unit, v[7]);
			}
		} else {
			mon_fields_split(&f, it.line.buf, NULL);
			if (f.n < 3)
				continue;
			ts_s = f.v[0];
			val_s = f.v[1];
			ev = f.v[2];
			if (f.n >= 7) {
				mval_s = f.v[5];
				for (i = 6; i < f.n; i++) {
					if (i > 6)
						strbuf_addch(&unit, ' ');
					strbuf_addstr(&unit, f.v[i]);
				}
			}
		}
		if (!mon_is_number(ts_s) || !mon_is_number(val_s))
			continue;
		ts = strtod(ts_s, NULL);
		val = strtod(val_s, NULL);
		/* hybrid PMUs: cpu_atom/cpu-cycles/ counts as cpu-cycles */
		strbuf_reset(&event);
		slash = strchr(ev, '/');
		if (slash && ev[strlen(ev) - 1] == '/' && slash != ev + strlen(ev) - 1)
			strbuf_add(&event, slash + 1, strlen(slash + 1) - 1);
		else
			strbuf_addstr(&event, ev);
		if (st.in_interval && ts - st.cur_ts > 0.01)
			flush_interval(&st, out);
		st.in_interval = true;
		st.cur_ts = ts;
		if (ts > st.last_ts)
			st.last_ts = ts;
		mon_kv_add(&st.cur, event.buf, val);
		if (mval_s && unit.len && is_metric_unit(unit.buf) &&
		    mon_is_number(mval_s)) {
			mval = strtod(mval_s, NULL);
			mon_kv_add(&st.metrics, unit.buf, mval);
		}
	}
	if (st.total.n) {
		for (i = 0; i < st.total.n; i++)
			add_float(out, "ps.", st.total.keys[i],
				  st.last_ts > 0 ? st.total.vals[i] / st.last_ts : 0);
		if (kv_get(&st.total, "instructions", &val))
			add_float(out, "total.", "instructions", val);
		derived(&st.total, "overall.", out);
	}
out:
	strbuf_release(&unit);
	strbuf_release(&event);
	mon_kv_release(&st.events);
	mon_kv_release(&st.cur);
	mon_kv_release(&st.metrics);
	mon_kv_release(&st.total);
	mon_fields_release(&f);
	mon_lines_release(&it);
	return ret;
}
