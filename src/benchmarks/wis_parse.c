/*
 * wis_parse.c: the parser of will-it-scale's output (LKP's
 * stats/will-it-scale), byte for byte, written from its description:
 *
 *   - a line of only [a-z_,] is the header: its names after the first
 *     ("tasks") name the columns;
 *   - a line of only [0-9.,] is a result row: the first field is the task
 *     count; rows of 0 tasks and rows where processes and threads are both
 *     0 (a failed testcase) are dropped; every other row prints
 *     `TASKS.NAME: VALUE` per column, the value as written;
 *   - a line with `Assertion ... failed` prints that text, made a key
 *     (every character outside [a-zA-Z0-9<>!=] becomes '_', runs of '_'
 *     squeezed), with the value 1;
 *   - at the end: scalability (%f, the last row's processes / linear, for
 *     rows with a linear value and more than one task), per_process_ops
 *     and per_thread_ops (%d of the mean of processes / tasks and threads
 *     / tasks over the rows) and workload (%d of every row's processes +
 *     threads), each only when there is something to print.
 *
 * Ruby's quirks are kept because LKP's stored results carry them: a last
 * line without a newline is not read (chomp! gives nil); split(',') drops
 * trailing empty fields; String#to_i / to_f read a leading number; %d
 * truncates; the mean is Array#sum (Kahan-Babuska) / length.  Where LKP's
 * script would die (a row before any header; a task count of 0 reached
 * as "00"; a line that is not UTF-8) the output stops where Ruby's would.
 */
#include "util/compat.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* a growing list of doubles: the per-row values LKP averages */
struct dvec {
	double *v;
	size_t n, alloc;
};

static void dvec_push(struct dvec *a, double x)
{
	ALLOC_GROW(a->v, a->n + 1, a->alloc);
	a->v[a->n++] = x;
}

/* Array#sum of Floats, as LKP's mean goes through it (monutil's) */
static double ruby_float_sum(const struct dvec *a)
{
	return mon_ruby_sum(a->v, a->n);
}

/* String#to_i of a field of digits, dots and commas: the leading digits */
static double ruby_to_i(const char *s)
{
	double v = 0;

	for (; s && *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (*s - '0');
	return v;
}

/* String#to_f of such a field: digits, and a fraction after one '.' */
static double ruby_to_f(const char *s)
{
	return s ? strtod(s, NULL) : 0;
}

/* the fields of line split at ',' as Ruby's split(','): trailing empties dropped */
static size_t split_commas(char *line, char ***fields, size_t *alloc)
{
	size_t n = 0;
	char *p = line;

	for (;;) {
		char *c = strchr(p, ',');

		ALLOC_GROW(*fields, n + 1, *alloc);
		(*fields)[n++] = p;
		if (!c)
			break;
		*c = '\0';
		p = c + 1;
	}
	while (n && !*(*fields)[n - 1])
		n--;
	return n;
}

static bool all_in(const char *s, const char *set)
{
	return *s && s[strspn(s, set)] == '\0';
}

/* true when s is valid UTF-8 (Ruby's regexps raise on anything else) */
static bool utf8_ok(const unsigned char *s)
{
	while (*s) {
		int n = *s < 0x80 ? 0 : (*s & 0xe0) == 0xc0 ? 1 :
			(*s & 0xf0) == 0xe0 ? 2 : (*s & 0xf8) == 0xf0 ? 3 : -1;

		if (n < 0 || (n == 1 && *s < 0xc2))
			return false;
		for (s++; n > 0; n--, s++)
			if ((*s & 0xc0) != 0x80)
				return false;
	}
	return true;
}

/* `Assertion ... failed` made a key, as LKP's tr and gsub make it */
static void add_assertion(struct strbuf *out, const char *line)
{
	const char *a = strstr(line, "Assertion "), *end = NULL, *p, *from;
	bool under = false;

	if (!a)
		return;
	/* the greedy match: to the last " failed" after "Assertion " */
	for (p = a + 10; (p = strstr(p, " failed")); p++)
		end = p + 7;
	if (!end)
		return;
	/* sub(/.*: /, ''): from after the last ": " inside the match */
	from = a;
	for (p = a; p + 1 < end; p++)
		if (p[0] == ':' && p[1] == ' ')
			from = p + 2;
	for (p = from; p < end; p++) {
		unsigned char ch = (unsigned char)*p;
		bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			    (ch >= '0' && ch <= '9') || strchr("<>!=", ch);

		if ((ch & 0xc0) == 0x80)
			continue; /* a multibyte character is one character */
		if (keep) {
			strbuf_addch(out, ch);
			under = false;
		} else if (!under) {
			strbuf_addch(out, '_');
			under = true;
		}
	}
	strbuf_addstr(out, ": 1\n");
}

struct wis_parse {
	char **names;        /* the header's columns after "tasks"; NULL: none yet */
	size_t nnames;
	char *header;        /* the storage of names */
	struct dvec scal, per_process, per_thread;
	double workload;
	bool workload_float; /* a row was added (Ruby's workload became a Float) */
};

/* a result row; false where LKP's script would die */
static bool add_row(struct wis_parse *ps, char *line, struct strbuf *out)
{
	char **v = NULL;
	size_t alloc = 0, n = split_commas(line, &v, &alloc), i;
	const char *tasks = n ? v[0] : NULL;
	double processes, threads, linear, nr;
	bool ok = true;

	/* values.shift on an empty list gives nil: nil == '0' is false */
	if (tasks && !strcmp(tasks, "0"))
		goto out;
	processes = ruby_to_i(n > 1 ? v[1] : NULL);
	threads = ruby_to_i(n > 3 ? v[3] : NULL);
	if (processes == 0 && threads == 0)
		goto out;
	linear = ruby_to_i(n > 1 ? v[n - 1] : NULL);
	if (linear != 0 && (!tasks || strcmp(tasks, "1")))
		dvec_push(&ps->scal, ruby_to_f(n > 1 ? v[1] : NULL) / linear);
	nr = ruby_to_i(tasks);
	/* Float / 0 is Infinity (or NaN): LKP's %d then raises, below */
	dvec_push(&ps->per_process, processes / nr);
	dvec_push(&ps->per_thread, threads / nr);
	ps->workload += processes + threads;
	ps->workload_float = true;
	if (!ps->names) {
		ok = false; /* names.each on nil: LKP's script dies here */
		goto out;
	}
	for (i = 0; i < ps->nnames; i++)
		strbuf_addf(out, "%s.%s: %s\n", tasks ? tasks : "", ps->names[i],
			    i + 1 < n ? v[i + 1] : "");
out:
	free(v);
	return ok;
}

/* printf "%d" of a Float: truncated; false (LKP dies) when not finite */
static bool add_int(struct strbuf *out, const char *key, double x)
{
	if (!isfinite(x))
		return false;
	strbuf_addf(out, "%s: %.0f\n", key, trunc(x));
	return true;
}

static void add_summary(struct wis_parse *ps, struct strbuf *out)
{
	if (ps->scal.n)
		strbuf_addf(out, "scalability: %f\n", ps->scal.v[ps->scal.n - 1]);
	if (ps->per_process.n &&
	    !add_int(out, "per_process_ops",
		     ruby_float_sum(&ps->per_process) / (double)ps->per_process.n))
		return;
	if (ps->per_thread.n &&
	    !add_int(out, "per_thread_ops",
		     ruby_float_sum(&ps->per_thread) / (double)ps->per_thread.n))
		return;
	if (ps->workload_float && ps->workload != 0)
		add_int(out, "workload", ps->workload);
}

/* one line (chomped); false where LKP's script would stop */
static bool parse_line(struct wis_parse *ps, char *line, struct strbuf *out)
{
	if (!utf8_ok((const unsigned char *)line))
		return false;
	if (all_in(line, "abcdefghijklmnopqrstuvwxyz_,")) {
		size_t alloc = 0;

		free(ps->names);
		free(ps->header);
		ps->names = NULL;
		ps->header = xstrdup(line);
		ps->nnames = split_commas(ps->header, &ps->names, &alloc);
		/* names.shift: the first column is the task count */
		if (ps->nnames) {
			memmove(ps->names, ps->names + 1,
				(ps->nnames - 1) * sizeof(*ps->names));
			ps->nnames--;
		} else {
			ALLOC_GROW(ps->names, 1, alloc); /* [] is not nil */
		}
		return true;
	}
	if (all_in(line, "0123456789.,"))
		return add_row(ps, line, out);
	add_assertion(out, line);
	return true;
}

DECLARE_PARSER(parse_will_it_scale)
{
	struct wis_parse ps;
	struct strbuf line = STRBUF_INIT;
	size_t pos = 0;
	bool go = true;

	(void)path;
	(void)err;
	memset(&ps, 0, sizeof(ps));
	while (pos < len && go) {
		const char *nl = memchr(raw + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (raw + pos)) : len - pos;

		strbuf_reset(&line);
		strbuf_add(&line, raw + pos, n);
		pos += n + 1;
		/* chomp!: "\r\n", "\n" or "\r" removed; nothing to remove is nil */
		if (line.len && line.buf[line.len - 1] == '\r')
			strbuf_setlen(&line, line.len - 1);
		else if (!nl)
			break;
		/* a NUL byte: Ruby's string would hold it; no class matches it */
		if (strlen(line.buf) != line.len) {
			if (!utf8_ok((const unsigned char *)line.buf))
				break;
			add_assertion(out, line.buf);
			continue;
		}
		go = parse_line(&ps, line.buf, out);
	}
	if (go)
		add_summary(&ps, out);
	strbuf_release(&line);
	free(ps.names);
	free(ps.header);
	free(ps.scal.v);
	free(ps.per_process.v);
	free(ps.per_thread.v);
	return 0;
}
