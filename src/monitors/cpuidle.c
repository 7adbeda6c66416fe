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
#include "util/fileutil.h"
#include "monitors/sampling.h"
#include "util/xalloc.h"

/* one sample's sums, in the order the states were first seen */
static void flush(struct mon_kv *kv, struct strbuf *out)
{
	size_t i;

	for (i = 0; i < kv->n; i++)
		strbuf_addf(out, "%s: %.0f\n", kv->keys[i], kv->vals[i]);
	mon_kv_clear(kv);
}

/* a sample's `cpu<N>.<state>.<field>: v` lines, summed over CPUs */
static void row(struct mon_row *r)
{
	struct mon_fields *f = r->f;
	const char *dot;
	size_t klen;

	if (f->n != 2)
		return;
	if (!strcmp(f->v[0], "time:")) {
		flush(r->data, r->out);
		return;
	}
	klen = strlen(f->v[0]);
	dot = strchr(f->v[0], '.');
	if (!mon_has_prefix(f->v[0], "cpu") || !dot || f->v[0][klen - 1] != ':')
		return;
	f->v[0][klen - 1] = '\0';
	mon_kv_add(r->data, dot + 1, strtod(f->v[1], NULL));
}

DECLARE_PARSER(parse_cpuidle)
{
	struct mon_kv kv;

	(void)path;
	(void)err;
	mon_kv_init(&kv);
	mon_each_row(raw, len, out, MON_ROWS_OWN_TIME, row, &kv);
	flush(&kv, out);
	mon_kv_release(&kv);
	return 0;
}

/* ------------------------------------------------------------- sampling */

struct idle_state {
	char *label; /* "cpu0.C1E-HSW" */
	struct mon_file time, usage;
};

struct idle_src {
	struct idle_state *st;
	size_t n, alloc;
};

static void idle_close(struct mon_inst *mi)
{
	struct idle_src *s = mi->priv;
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++) {
		free(s->st[i].label);
		mon_file_close(&s->st[i].time);
		mon_file_close(&s->st[i].usage);
	}
	free(s->st);
	FREE_AND_NULL(mi->priv);
}

/*
 * Every CPU's states are found once, when the monitor starts, and their
 * files kept open: a sample is then two reads per state and no
 * directory walk, which matters at a 1 s interval on a box of hundreds
 * of CPUs.  The loops stop at the first CPU or state that is missing,
 * as the kernel numbers both from 0 without gaps.
 */
static int idle_open(struct mon_inst *mi, struct strbuf *why)
{
	struct strbuf path = STRBUF_INIT, rel = STRBUF_INIT, name = STRBUF_INIT;
	struct idle_src *s = xcalloc(1, sizeof(*s));
	struct idle_state *st;
	long cpu, state;
	char *c;

	mi->priv = s;
	for (cpu = 0; cpu < 4096; cpu++) {
		strbuf_reset(&rel);
		strbuf_addf(&rel, "sys/devices/system/cpu/cpu%ld", cpu);
		mon_path(&path, mi->sysroot, rel.buf);
		if (!dir_exists(path.buf))
			break;
		for (state = 0; state < 64; state++) {
			strbuf_reset(&rel);
			strbuf_addf(&rel, "sys/devices/system/cpu/cpu%ld/cpuidle/state%ld/name",
				    cpu, state);
			mon_path(&path, mi->sysroot, rel.buf);
			if (read_text_file(&name, path.buf, 256))
				break;
			for (c = name.buf; *c; c++)
				if (*c == ' ' || *c == '\t')
					*c = '-';
			ALLOC_GROW(s->st, s->n + 1, s->alloc);
			st = &s->st[s->n++];
			memset(st, 0, sizeof(*st));
			st->label = xasprintf("cpu%ld.%s", cpu, name.buf);
			st->time.fd = st->usage.fd = -1;
			strbuf_setlen(&rel, rel.len - strlen("name"));
			strbuf_addstr(&rel, "time");
			if (mon_file_open(&st->time, mi->sysroot, rel.buf, why))
				goto fail;
			strbuf_setlen(&rel, rel.len - strlen("time"));
			strbuf_addstr(&rel, "usage");
			if (mon_file_open(&st->usage, mi->sysroot, rel.buf, why))
				goto fail;
		}
	}
	if (!s->n) {
		strbuf_addstr(why, "no cpuidle driver");
		goto fail;
	}
	strbuf_release(&path);
	strbuf_release(&rel);
	strbuf_release(&name);
	return 0;
fail:
	idle_close(mi);
	strbuf_release(&path);
	strbuf_release(&rel);
	strbuf_release(&name);
	return -1;
}

/*
 * A sample is written whole or not at all: a state whose file cannot be
 * read (a CPU going offline) drops the sample rather than writing one
 * with holes that the parser would sum as if complete.
 */
static int idle_sample(struct mon_inst *mi, struct strbuf *out, bool final)
{
	struct idle_src *s = mi->priv;
	struct strbuf v = STRBUF_INIT;
	size_t i, start = out->len;
	int ret = 0;

	(void)final;
	mon_add_time(out);
	for (i = 0; i < s->n && !ret; i++) {
		strbuf_reset(&v);
		ret = mon_file_read(&s->st[i].time, &v);
		strbuf_trim(&v);
		strbuf_addf(out, "%s.time: %s\n", s->st[i].label, v.buf);
		strbuf_reset(&v);
		ret |= mon_file_read(&s->st[i].usage, &v);
		strbuf_trim(&v);
		strbuf_addf(out, "%s.usage: %s\n", s->st[i].label, v.buf);
	}
	if (ret)
		strbuf_setlen(out, start);
	strbuf_release(&v);
	return ret;
}

const struct monitor_sampling sampling_cpuidle = {
	0, true, idle_open, idle_sample, idle_close,
};
