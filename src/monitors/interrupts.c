/*
 * interrupts.c: the interrupts and softirqs monitors -- /proc/interrupts and
 * /proc/softirqs (spec/lkp-monitors.md 2.12, 2.13).  Both give per-CPU
 * `CPU<i>.<id>` counts and a total `<id>`; interrupt ids carry their
 * description (`24:IO-APIC.5-edge.ACPI:Ged`, `LOC:Local_timer_interrupts`).
 * By default both take one snapshot at start and one at stop.
 */
#include "util/compat.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "monitors/sampling.h"

/* the "CPU0 CPU1 ..." line that names the columns of the rows below it */
static bool is_cpu_header(const struct mon_fields *f)
{
	size_t i;

	if (!f->n)
		return false;
	for (i = 0; i < f->n; i++)
		if (strncmp(f->v[i], "CPU", 3) ||
		    !isdigit((unsigned char)f->v[i][3]))
			return false;
	return true;
}

static bool is_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return n > 0;
}

/*
 * A row as LKP's parser gives it: one `CPU<i>.<id>` count per column and
 * their sum as `<id>`, the total the comparison looks at first.
 */
static void emit_row(struct strbuf *out, const struct mon_fields *cpus,
		     const struct mon_fields *f, size_t nval, const char *key)
{
	unsigned long long sum = 0;
	size_t i;

	for (i = 0; i < nval; i++) {
		strbuf_addf(out, "%s.%s: %s\n", cpus->v[i], key, f->v[1 + i]);
		sum += strtoull(f->v[1 + i], NULL, 10);
	}
	strbuf_addf(out, "%s: %llu\n", key, sum);
}

struct irq_state {
	struct mon_fields cpus; /* the CPU<n> header */
	struct strbuf key;
	bool softirqs;
};

/*
 * One row of the table.  Interrupt ids are made unique with their
 * description, joined as LKP's parser joins them (numbered IRQs by '.',
 * named ones like LOC by '_', ",." collapsed): "24:" alone would name
 * another device on another box.  A row of one value (ERR:, MIS:) is a
 * machine-wide count with no per-CPU columns and is passed through.  The
 * columns are counted, not assumed: a row may have fewer than the header
 * when CPUs went offline.
 */
static void irq_row(struct mon_row *r)
{
	struct irq_state *st = r->data;
	struct mon_fields *f = r->f;
	struct strbuf *key = &st->key;
	size_t i, nval, idlen;
	char *p;

	if (is_cpu_header(f)) {
		mon_fields_split(&st->cpus, r->line, NULL);
		return;
	}
	idlen = f->n ? strlen(f->v[0]) : 0;
	if (!idlen || f->v[0][idlen - 1] != ':')
		return;
	if (!st->softirqs && f->n == 2) {
		strbuf_addf(r->out, "%s %s\n", f->v[0], f->v[1]);
		return;
	}
	for (nval = 0; nval < st->cpus.n && 1 + nval < f->n; nval++)
		if (!is_digits(f->v[1 + nval], strlen(f->v[1 + nval])))
			break;
	strbuf_reset(key);
	strbuf_addstr(key, f->v[0]);
	if (!st->softirqs) {
		bool numeric = is_digits(f->v[0], idlen - 1);

		for (i = 1 + nval; i < f->n; i++) {
			if (i > 1 + nval)
				strbuf_addch(key, numeric ? '.' : '_');
			strbuf_addstr(key, f->v[i]);
		}
		while ((p = strstr(key->buf, ",."))) {
			memmove(p + 1, p + 2, strlen(p + 2) + 1);
			key->len--;
		}
	} else {
		/* softirqs keep the raw token, colon and all: "CPU0.HI" */
		strbuf_setlen(key, key->len - 1);
	}
	emit_row(r->out, &st->cpus, f, nval, key->buf);
}

static int parse_irq_table(const char *raw, size_t len, struct strbuf *out,
			   bool softirqs)
{
	struct irq_state st;

	mon_fields_init(&st.cpus);
	strbuf_init(&st.key, 0);
	st.softirqs = softirqs;
	mon_each_row(raw, len, out, 0, irq_row, &st);
	strbuf_release(&st.key);
	mon_fields_release(&st.cpus);
	return 0;
}

DECLARE_PARSER(parse_interrupts)
{
	(void)path;
	(void)err;
	return parse_irq_table(raw, len, out, false);
}

DECLARE_PARSER(parse_softirqs)
{
	(void)path;
	(void)err;
	return parse_irq_table(raw, len, out, true);
}

/* sampled by perfsift: the file as it is, after a `time:` line */
MON_SINGLE_FILE(sampling_interrupts, "proc/interrupts", 0, true);
MON_SINGLE_FILE(sampling_softirqs, "proc/softirqs", 0, true);
