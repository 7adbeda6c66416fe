/*
 * monutil.c: helpers shared by the monitor parsers (see monutil.h).
 */
#include "util/compat.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "monitors/monutil.h"
#include "util/hash.h"
#include "util/xalloc.h"

/*
 * A line iterator over a raw sample: the line is copied out so that it is
 * NUL-terminated for the parsers (raw is one buffer, not lines), and the
 * copy's buffer is reused from line to line.  256 bytes covers most /proc
 * lines without a regrow.
 */
void mon_lines_init(struct mon_lines *it, const char *raw, size_t len)
{
	it->p = raw;
	it->end = raw + len;
	strbuf_init(&it->line, 256);
}

/* the next line without its "\n" (or "\r\n"); false at the end */
bool mon_lines_next(struct mon_lines *it)
{
	const char *nl;

	if (it->p >= it->end)
		return false;
	nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
	if (!nl)
		nl = it->end;
	strbuf_reset(&it->line);
	strbuf_add(&it->line, it->p, (size_t)(nl - it->p));
	if (it->line.len && it->line.buf[it->line.len - 1] == '\r')
		strbuf_setlen(&it->line, it->line.len - 1);
	it->p = nl < it->end ? nl + 1 : it->end;
	return true;
}

void mon_lines_release(struct mon_lines *it)
{
	strbuf_release(&it->line);
}

/*
 * Call row() for each line of a whitespace-separated sample.  The
 * sampler's own "time: T" lines, which separate the samples in a raw
 * file, are copied to out as they are, so each parser writes its stats
 * after the right time; a parser whose file has time lines of its own
 * (MON_ROWS_OWN_TIME) sees them as rows.
 */
void mon_each_row(const char *raw, size_t len, struct strbuf *out,
		  unsigned flags, void (*row)(struct mon_row *r), void *data)
{
	struct mon_lines it;
	struct mon_fields f;
	struct mon_row r;

	mon_lines_init(&it, raw, len);
	mon_fields_init(&f);
	r.f = &f;
	r.out = out;
	r.data = data;
	while (mon_lines_next(&it)) {
		mon_fields_split(&f, it.line.buf, NULL);
		if (!(flags & MON_ROWS_OWN_TIME) && f.n == 2 &&
		    !strcmp(f.v[0], "time:")) {
			strbuf_addf(out, "time: %s\n", f.v[1]);
			continue;
		}
		r.line = it.line.buf;
		row(&r);
	}
	mon_fields_release(&f);
	mon_lines_release(&it);
}

/*
 * Call fn() for each "key: value" line (meminfo's, /proc/PID/status's
 * shape): the key is the text before the first ": ", so a key with a
 * colon of its own and no space after it stays whole; the value is
 * trimmed.  Lines without ": " are not data and are skipped.  Walks raw
 * in place: only the value is copied.
 */
void mon_each_colon_line(const char *raw, size_t len, struct strbuf *out,
			 void (*fn)(struct mon_colon *c), void *data)
{
	const char *p = raw, *end = raw + len, *nl, *eol, *q;
	struct strbuf val = STRBUF_INIT;
	struct mon_colon c;

	c.val = &val;
	c.out = out;
	c.data = data;
	for (; p < end; p = nl ? nl + 1 : end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		eol = nl ? nl : end;
		for (q = p; q + 1 < eol && !(q[0] == ':' && q[1] == ' '); q++)
			;
		if (q + 1 >= eol)
			continue;
		c.line = p;
		c.len = (size_t)(eol - p);
		c.keylen = (size_t)(q - p);
		strbuf_reset(&val);
		strbuf_add(&val, q + 2, (size_t)(eol - q - 2));
		strbuf_trim(&val);
		fn(&c);
	}
	strbuf_release(&val);
}

void mon_fields_init(struct mon_fields *f)
{
	f->v = NULL;
	f->n = f->alloc = 0;
	strbuf_init(&f->copy, 0);
}

/*
 * Split line at runs of seps (whitespace by default), as Ruby's
 * String#split does for LKP's parsers: no empty fields.  The fields point
 * into f's own copy of line, valid until the next split.
 */
void mon_fields_split(struct mon_fields *f, const char *line, const char *seps)
{
	char *s, *save = NULL, *tok;

	if (!seps)
		seps = " \t\n\r\f\v";
	strbuf_reset(&f->copy);
	strbuf_addstr(&f->copy, line);
	f->n = 0;
	for (s = f->copy.buf; (tok = strtok_r(s, seps, &save)); s = NULL) {
		ALLOC_GROW(f->v, f->n + 1, f->alloc);
		f->v[f->n++] = tok;
	}
}

void mon_fields_release(struct mon_fields *f)
{
	free(f->v);
	strbuf_release(&f->copy);
	mon_fields_init(f);
}

/*
 * Ruby prints the shortest digit string that reads back as the same
 * double; fixed notation for 1e-4 <= |v| < 1e16, else d.ddde+XX.
 */
double mon_ruby_sum(const double *v, size_t n)
{
	double f = 0.0, c = 0.0, t;
	size_t i;

	for (i = 0; i < n; i++) {
		/* a non-finite value or sum: Ruby adds plainly from there on
		 * (the compensation of an infinity would be NaN) */
		if (!isfinite(v[i]) || !isfinite(f)) {
			f += v[i];
			continue;
		}
		t = f + v[i];
		if (fabs(f) >= fabs(v[i]))
			c += (f - t) + v[i];
		else
			c += (v[i] - t) + f;
		f = t;
	}
	return isfinite(f) ? f + c : f;
}

void mon_ruby_float(struct strbuf *sb, double v)
{
	char buf[64], digits[32];
	int prec, exp10 = 0, decpt, nd = 0, i;
	char *p, *e;

	if (isnan(v)) {
		strbuf_addstr(sb, "NaN");
		return;
	}
	if (isinf(v)) {
		strbuf_addstr(sb, v < 0 ? "-Infinity" : "Infinity");
		return;
	}
	if (v == 0) {
		strbuf_addstr(sb, signbit(v) ? "-0.0" : "0.0");
		return;
	}
	/* the fewest digits that read back as v: 17 always do */
	for (prec = 0; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*e", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	p = buf;
	if (*p == '-') {
		strbuf_addch(sb, '-');
		p++;
	}
	e = strchr(p, 'e');
	exp10 = (int)strtol(e + 1, NULL, 10); /* snprintf made it */
	for (; p < e; p++)
		if (*p != '.')
			digits[nd++] = *p;
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	digits[nd] = '\0';
	/* decpt: digits before the point; then Ruby's three layouts */
	decpt = exp10 + 1;
	if (decpt > 0 && decpt <= 16) {
		for (i = 0; i < decpt; i++)
			strbuf_addch(sb, i < nd ? digits[i] : '0');
		strbuf_addch(sb, '.');
		if (nd > decpt)
			strbuf_addstr(sb, digits + decpt);
		else
			strbuf_addch(sb, '0');
	} else if (decpt <= 0 && decpt > -4) {
		strbuf_addstr(sb, "0.");
		for (i = 0; i < -decpt; i++)
			strbuf_addch(sb, '0');
		strbuf_addstr(sb, digits);
	} else {
		strbuf_addch(sb, digits[0]);
		strbuf_addch(sb, '.');
		strbuf_addstr(sb, nd > 1 ? digits + 1 : "0");
		strbuf_addf(sb, "e%+03d", decpt - 1);
	}
}

/* the whole of s is a number (strtod's syntax, so "1e3" and "0x10" too) */
bool mon_is_number(const char *s)
{
	char *end;

	if (!*s)
		return false;
	strtod(s, &end);
	return end != s && *end == '\0';
}

/* a number at the start of s, whatever follows ("12kB", "3.5%") */
bool mon_leading_double(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s)
		return false;
	*out = v;
	return true;
}

bool mon_has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

void mon_kv_init(struct mon_kv *kv)
{
	memset(kv, 0, sizeof(*kv));
}

/* empty, but keep the arrays: a parser clears its table per sample */
void mon_kv_clear(struct mon_kv *kv)
{
	size_t i;

	for (i = 0; i < kv->n; i++)
		free(kv->keys[i]);
	kv->n = 0;
	if (kv->slots)
		memset(kv->slots, 0, kv->nslots * sizeof(*kv->slots));
}

void mon_kv_release(struct mon_kv *kv)
{
	mon_kv_clear(kv);
	free(kv->keys);
	free(kv->vals);
	free(kv->slots);
	mon_kv_init(kv);
}

/* util/hash's FNV-1a: the table only needs keys spread over its slots */
static size_t kv_hash(const char *s)
{
	return (size_t)fnv1a64(FNV1A64_INIT, s, strlen(s));
}

/*
 * Slots hold index+1; 0 is empty.  Open addressing with linear probing
 * over a power-of-two table (the & masks), at most half full, so a probe
 * is short; the keys and values live in insertion order in their own
 * arrays, which is the order the parsers print them in.
 */
static void kv_rehash(struct mon_kv *kv)
{
	size_t i, j;

	free(kv->slots);
	kv->nslots = kv->nslots ? kv->nslots * 2 : 64;
	kv->slots = xcalloc(kv->nslots, sizeof(*kv->slots));
	for (i = 0; i < kv->n; i++) {
		j = kv_hash(kv->keys[i]) & (kv->nslots - 1);
		while (kv->slots[j])
			j = (j + 1) & (kv->nslots - 1);
		kv->slots[j] = i + 1;
	}
}

long mon_kv_find(const struct mon_kv *kv, const char *key)
{
	size_t j;

	if (!kv->nslots)
		return -1;
	j = kv_hash(key) & (kv->nslots - 1);
	while (kv->slots[j]) {
		if (!strcmp(kv->keys[kv->slots[j] - 1], key))
			return (long)kv->slots[j] - 1;
		j = (j + 1) & (kv->nslots - 1);
	}
	return -1;
}

/* the index of key's value, added as 0 when it is new */
size_t mon_kv_slot(struct mon_kv *kv, const char *key)
{
	long i = mon_kv_find(kv, key);
	size_t j;

	if (i >= 0)
		return (size_t)i;
	if ((kv->n + 1) * 2 > kv->nslots)
		kv_rehash(kv);
	ALLOC_GROW(kv->keys, kv->n + 1, kv->alloc);
	kv->vals = xreallocarray(kv->vals, kv->alloc, sizeof(*kv->vals));
	kv->keys[kv->n] = xstrdup(key);
	kv->vals[kv->n] = 0;
	j = kv_hash(key) & (kv->nslots - 1);
	while (kv->slots[j])
		j = (j + 1) & (kv->nslots - 1);
	kv->slots[j] = kv->n + 1;
	return kv->n++;
}
