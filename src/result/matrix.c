/*
 * matrix.c: LKP's matrix.json in memory (see matrix.h).  The reader is a
 * lean hand-written parser for that one hot shape -- an object of number
 * arrays plus "stats_source" -- because parsing is most of the cost of a
 * 50,000-stat comparison; it still reads any valid JSON text of that
 * shape (any key order, escapes, whitespace, exponents, duplicates: the
 * last one wins, as in jansson).  The writer is LKP's layout, sorted.
 * Which values are real (not LKP's 0 padding) comes from the reader
 * (null, short arrays), the sidecar matrix-missing.json, or LKP's
 * padding rule (matrix.h).
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "result/matrix.h"
#include "util/fileutil.h"
#include "util/sorted.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

void matrix_init(struct matrix *m)
{
	memset(m, 0, sizeof(*m));
}

void matrix_release(struct matrix *m)
{
	size_t i;

	if (!m->names_pool)
		for (i = 0; i < m->nstats; i++)
			free(m->names[i]);
	free(m->names_pool);
	if (m->sources)
		for (i = 0; i < m->nruns; i++)
			free(m->sources[i]);
	free(m->names);
	free(m->values);
	free(m->is_int);
	free(m->sources);
	free(m->present);
	matrix_init(m);
}

size_t matrix_nreal(const struct matrix *m, size_t s)
{
	size_t r, n = 0;

	if (!m->present)
		return m->nruns;
	for (r = 0; r < m->nruns; r++)
		n += m->present[s * m->nruns + r];
	return n;
}

const double *matrix_real(const struct matrix *m, size_t s, double *buf,
			  size_t *n)
{
	const double *row = m->values + s * m->nruns;
	const unsigned char *p;
	size_t r, k = 0;

	if (!m->present || !memchr(m->present + s * m->nruns, 0, m->nruns)) {
		*n = m->nruns;
		return row;
	}
	p = m->present + s * m->nruns;
	for (r = 0; r < m->nruns; r++)
		if (p[r])
			buf[k++] = row[r];
	*n = k;
	return buf;
}

double *matrix_real_dup(const struct matrix *m, size_t s, size_t *n)
{
	double *buf = xcalloc(m->nruns ? m->nruns : 1, sizeof(*buf));
	const double *v = matrix_real(m, s, buf, n);

	if (!*n) {
		free(buf);
		return NULL;
	}
	if (v != buf)
		memcpy(buf, v, *n * sizeof(*buf));
	return buf;
}

void matrix_set_missing(struct matrix *m, size_t s, size_t r)
{
	if (!m->present) {
		m->present = xmalloc(st_mult(m->nstats ? m->nstats : 1,
					     m->nruns ? m->nruns : 1));
		memset(m->present, 1, m->nstats * m->nruns);
	}
	m->present[s * m->nruns + r] = 0;
	m->values[s * m->nruns + r] = 0;
}

void matrix_assume_lkp_padding(struct matrix *m)
{
	size_t s, r, lead;

	for (s = 0; s < m->nstats; s++) {
		const double *row = m->values + s * m->nruns;

		for (lead = 0; lead < m->nruns && row[lead] == 0; lead++)
			;
		if (lead == m->nruns)
			continue; /* all zeros: real (LKP drops padding-only) */
		for (r = 0; r < lead; r++)
			matrix_set_missing(m, s, r);
	}
}

int matrix_cmp_name(const void *key, const void *elem)
{
	return strcmp(key, *(char *const *)elem);
}

ssize_t matrix_find(const struct matrix *m, const char *name)
{
	size_t at = sorted_lower_bound(name, m->names, m->nstats,
				       sizeof(*m->names), matrix_cmp_name);

	return at < m->nstats && !strcmp(m->names[at], name) ? (ssize_t)at : -1;
}

/* ---- the reader ---- */

struct parser {
	const char *path;
	const char *buf, *p, *end;
	struct strbuf *err;
	struct strbuf key; /* the current key, unescaped */
	/* every name, NUL-terminated, in one block: 50,000 small mallocs
	 * were a tenth of the reader's time */
	struct strbuf names;
	/* every stat as parsed: name, where its values start, how many */
	struct pstat {
		char *name;      /* into names (set once parsing is done) */
		size_t name_off; /* in names */
		size_t off, len;
		size_t null_off, nnull; /* in nulls: where null stood */
		unsigned char is_int;
	} *stats;
	size_t nstats, alloc_stats;
	double *vals;
	size_t nvals, alloc_vals;
	size_t *nulls;
	size_t nnulls, alloc_nulls;
	char **sources;
	size_t nsources, alloc_sources;
	bool have_sources;
	bool in_value; /* errors name the key being read */
};

/* one error: "FILE:LINE: KEY: what", the key while inside its value */
static int perr(struct parser *ps, const char *what)
{
	const char *q;
	int line = 1;

	if (ps->err->len)
		return -1; /* the first error is the one to report */
	for (q = ps->buf; q < ps->p && q < ps->end; q++)
		line += *q == '\n';
	if (ps->in_value)
		strbuf_addf(ps->err, "%s:%d: %s: %s", ps->path, line,
			    ps->key.buf, what);
	else
		strbuf_addf(ps->err, "%s:%d: %s", ps->path, line, what);
	return -1;
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\n' ||
				   *ps->p == '\t' || *ps->p == '\r'))
		ps->p++;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int read_hex4(struct parser *ps, unsigned *out)
{
	unsigned v = 0;
	int i;

	if (ps->end - ps->p < 4)
		return perr(ps, "truncated \\u escape");
	for (i = 0; i < 4; i++) {
		int h = hexval((unsigned char)ps->p[i]);

		if (h < 0)
			return perr(ps, "bad \\u escape");
		v = v * 16 + (unsigned)h;
	}
	ps->p += 4;
	*out = v;
	return 0;
}

static void add_utf8(struct strbuf *sb, unsigned cp)
{
	if (cp < 0x80) {
		strbuf_addch(sb, (int)cp);
	} else if (cp < 0x800) {
		strbuf_addch(sb, (int)(0xc0 | (cp >> 6)));
		strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		strbuf_addch(sb, (int)(0xe0 | (cp >> 12)));
		strbuf_addch(sb, (int)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	} else {
		strbuf_addch(sb, (int)(0xf0 | (cp >> 18)));
		strbuf_addch(sb, (int)(0x80 | ((cp >> 12) & 0x3f)));
		strbuf_addch(sb, (int)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	}
}

/* a JSON string at ps->p (the opening quote) into sb, unescaped */
static int read_string(struct parser *ps, struct strbuf *sb)
{
	const char *start;

	strbuf_reset(sb);
	if (ps->p >= ps->end || *ps->p != '"')
		return perr(ps, "expected a string");
	ps->p++;
	for (;;) {
		start = ps->p;
		while (ps->p < ps->end && *ps->p != '"' && *ps->p != '\\' &&
		       (unsigned char)*ps->p >= 0x20)
			ps->p++;
		strbuf_add(sb, start, (size_t)(ps->p - start));
		if (ps->p >= ps->end)
			return perr(ps, "unterminated string");
		if (*ps->p == '"') {
			ps->p++;
			return 0;
		}
		if ((unsigned char)*ps->p < 0x20)
			return perr(ps, "control character in a string");
		/* an escape */
		ps->p++;
		if (ps->p >= ps->end)
			return perr(ps, "unterminated string");
		switch (*ps->p++) {
		case '"': strbuf_addch(sb, '"'); break;
		case '\\': strbuf_addch(sb, '\\'); break;
		case '/': strbuf_addch(sb, '/'); break;
		case 'b': strbuf_addch(sb, '\b'); break;
		case 'f': strbuf_addch(sb, '\f'); break;
		case 'n': strbuf_addch(sb, '\n'); break;
		case 'r': strbuf_addch(sb, '\r'); break;
		case 't': strbuf_addch(sb, '\t'); break;
		case 'u': {
			unsigned cp, lo;

			if (read_hex4(ps, &cp))
				return -1;
			if (cp >= 0xd800 && cp < 0xdc00) {
				if (ps->end - ps->p < 6 || ps->p[0] != '\\' ||
				    ps->p[1] != 'u')
					return perr(ps, "lone surrogate in \\u escape");
				ps->p += 2;
				if (read_hex4(ps, &lo))
					return -1;
				if (lo < 0xdc00 || lo >= 0xe000)
					return perr(ps, "bad surrogate pair");
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			} else if (cp >= 0xdc00 && cp < 0xe000) {
				return perr(ps, "lone surrogate in \\u escape");
			}
			if (!cp)
				return perr(ps, "\\u0000 in a string");
			add_utf8(sb, cp);
			break;
		}
		default:
			return perr(ps, "bad escape in a string");
		}
	}
}

static const double pow10_exact[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/*
 * A JSON number.  Fast path (Clinger): at most 15 significant digits and
 * a small decimal exponent give mantissa and power of ten both exact as
 * doubles, so one multiplication or division is correctly rounded; any
 * other number goes through strtod.
 */
static int read_number(struct parser *ps, double *out, bool *is_int)
{
	const char *s = ps->p, *q = s;
	uint64_t mant = 0;
	int digits = 0, exp10 = 0;
	bool neg = false, frac = false, expo = false;

	if (q < ps->end && *q == '-') {
		neg = true;
		q++;
	}
	if (q >= ps->end || *q < '0' || *q > '9')
		return perr(ps, "expected a number");
	if (*q == '0' && q + 1 < ps->end && q[1] >= '0' && q[1] <= '9')
		return perr(ps, "leading zero in a number");
	while (q < ps->end && *q >= '0' && *q <= '9') {
		if (digits < 19) {
			mant = mant * 10 + (uint64_t)(*q - '0');
			if (mant)
				digits++;
		} else {
			exp10++;
		}
		q++;
	}
	if (q < ps->end && *q == '.') {
		frac = true;
		q++;
		if (q >= ps->end || *q < '0' || *q > '9')
			return perr(ps, "expected digits after '.'");
		while (q < ps->end && *q >= '0' && *q <= '9') {
			if (digits < 19) {
				mant = mant * 10 + (uint64_t)(*q - '0');
				if (mant)
					digits++;
				exp10--;
			}
			q++;
		}
	}
	if (q < ps->end && (*q == 'e' || *q == 'E')) {
		long e = 0;
		bool eneg = false;

		expo = true;
		q++;
		if (q < ps->end && (*q == '+' || *q == '-'))
			eneg = *q++ == '-';
		if (q >= ps->end || *q < '0' || *q > '9')
			return perr(ps, "expected digits in an exponent");
		while (q < ps->end && *q >= '0' && *q <= '9') {
			if (e < 100000)
				e = e * 10 + (*q - '0');
			q++;
		}
		exp10 += (int)(eneg ? -e : e);
	}
	ps->p = q;
	*is_int = !frac && !expo;
	if (digits <= 15 && exp10 >= -22 && exp10 <= 22) {
		double v = (double)mant;

		v = exp10 < 0 ? v / pow10_exact[-exp10] : v * pow10_exact[exp10];
		*out = neg ? -v : v;
		return 0;
	}
	/*
	 * 16-19 digits (what shortest-repr writers such as LKP's Ruby print):
	 * mantissa and 10^k (k <= 27) are exact in x87's 64-bit long double,
	 * so mant * or / 10^k is one rounding; its 11 bits below a double's
	 * precision show whether rounding to double can be off -- only near
	 * a half-way point, and then strtod decides.
	 */
	if (digits <= 19 && exp10 >= -27 && exp10 <= 27 && mant) {
		long double x = (long double)mant, p10 = 1.0L;
		int k = exp10 < 0 ? -exp10 : exp10, e;
		uint64_t bits;

		while (k--)
			p10 *= 10.0L;
		x = exp10 < 0 ? x / p10 : x * p10;
		/* x87 layout: 64-bit significand, then sign and exponent */
		memcpy(&bits, &x, sizeof(bits));
		{
			uint16_t se;

			memcpy(&se, (const char *)&x + 8, sizeof(se));
			e = (int)(se & 0x7fff) - 16383;
		}
		if (e > -1000 && e < 1000 && LDBL_MANT_DIG == 64 &&
		    ((bits & 0x7ff) < 0x3fe || (bits & 0x7ff) > 0x402)) {
			double v = (double)x;

			*out = neg ? -v : v;
			return 0;
		}
	}
	{
		char tmp[128];
		size_t n = (size_t)(q - s);
		char *copy = n < sizeof(tmp) ? tmp : xmalloc(n + 1);

		memcpy(copy, s, n);
		copy[n] = '\0';
		*out = strtod(copy, NULL);
		if (copy != tmp)
			free(copy);
	}
	return 0;
}

static int expect(struct parser *ps, char c, const char *what)
{
	skip_ws(ps);
	if (ps->p >= ps->end || *ps->p != c)
		return perr(ps, what);
	ps->p++;
	return 0;
}

/* [n, n, ...] appended to ps->vals */
static int read_array_of_numbers(struct parser *ps, struct pstat *st)
{
	if (expect(ps, '[', "expected an array of numbers"))
		return -1;
	st->off = ps->nvals;
	st->len = 0;
	st->null_off = ps->nnulls;
	st->nnull = 0;
	st->is_int = 1;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == ']') {
		ps->p++;
		return 0;
	}
	for (;;) {
		double v = 0;
		bool is_int = true;

		skip_ws(ps);
		if (ps->end - ps->p >= 4 && !memcmp(ps->p, "null", 4)) {
			/* no value: missing (0 in values) */
			ps->p += 4;
			v = 0;
			is_int = true;
			ALLOC_GROW(ps->nulls, ps->nnulls + 1, ps->alloc_nulls);
			ps->nulls[ps->nnulls++] = st->len;
			st->nnull++;
		} else if (read_number(ps, &v, &is_int)) {
			return -1;
		}
		if (!is_int)
			st->is_int = 0;
		ALLOC_GROW(ps->vals, ps->nvals + 1, ps->alloc_vals);
		ps->vals[ps->nvals++] = v;
		st->len++;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		return expect(ps, ']', "expected ',' or ']' in an array");
	}
}

static int read_sources(struct parser *ps)
{
	struct strbuf s = STRBUF_INIT;
	size_t i;

	for (i = 0; i < ps->nsources; i++)
		free(ps->sources[i]);
	ps->nsources = 0;
	ps->have_sources = true;
	if (expect(ps, '[', "stats_source: expected an array of strings"))
		goto fail;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == ']') {
		ps->p++;
		strbuf_release(&s);
		return 0;
	}
	for (;;) {
		skip_ws(ps);
		if (read_string(ps, &s))
			goto fail;
		ALLOC_GROW(ps->sources, ps->nsources + 1, ps->alloc_sources);
		ps->sources[ps->nsources++] = xstrdup(s.buf);
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (expect(ps, ']', "expected ',' or ']' in stats_source"))
			goto fail;
		strbuf_release(&s);
		return 0;
	}
fail:
	strbuf_release(&s);
	return -1;
}

static int parse(struct parser *ps)
{
	skip_ws(ps);
	if (ps->p >= ps->end || *ps->p != '{')
		return perr(ps, "not an LKP matrix (expected an object)");
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == '}') {
		ps->p++;
		goto tail;
	}
	for (;;) {
		skip_ws(ps);
		if (read_string(ps, &ps->key))
			return -1;
		if (expect(ps, ':', "expected ':' after a key"))
			return -1;
		ps->in_value = true;
		if (!strcmp(ps->key.buf, "stats_source")) {
			if (read_sources(ps))
				return -1;
		} else {
			struct pstat *st;

			ALLOC_GROW(ps->stats, ps->nstats + 1, ps->alloc_stats);
			st = &ps->stats[ps->nstats];
			if (read_array_of_numbers(ps, st))
				return -1;
			st->name_off = ps->names.len;
			strbuf_add(&ps->names, ps->key.buf,
				   strlen(ps->key.buf) + 1);
			ps->nstats++;
		}
		ps->in_value = false;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (expect(ps, '}', "expected ',' or '}' in the object"))
			return -1;
		break;
	}
tail:
	skip_ws(ps);
	if (ps->p != ps->end)
		return perr(ps, "trailing text after the object");
	return 0;
}

static int cmp_pstat(const void *pa, const void *pb)
{
	const struct pstat *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	return (a->off > b->off) - (a->off < b->off); /* file order */
}

/* the parsed stats into m: sorted, duplicates resolved, padded */
static void build(struct parser *ps, struct matrix *m)
{
	size_t i, w, r, maxlen = 0;
	bool sorted = true;

	/* the pool is complete: names become pointers into it, and it
	 * moves to m */
	m->names_pool = strbuf_detach(&ps->names, NULL);
	for (i = 0; i < ps->nstats; i++)
		ps->stats[i].name = m->names_pool + ps->stats[i].name_off;
	for (i = 0; i < ps->nstats; i++) {
		if (ps->stats[i].len > maxlen)
			maxlen = ps->stats[i].len;
		if (i && strcmp(ps->stats[i - 1].name, ps->stats[i].name) >= 0)
			sorted = false;
	}
	if (!sorted) {
		qsort(ps->stats, ps->nstats, sizeof(*ps->stats), cmp_pstat);
		/* a duplicate key: the last one wins, as in jansson */
		for (i = w = 0; i < ps->nstats; i++) {
			if (i + 1 < ps->nstats &&
			    !strcmp(ps->stats[i].name, ps->stats[i + 1].name))
				continue;
			ps->stats[w++] = ps->stats[i];
		}
		ps->nstats = w;
	}
	/* LKP: the run count is the length of stats_source when present */
	m->nruns = ps->have_sources && ps->nsources ? ps->nsources : maxlen;
	m->nstats = ps->nstats;
	m->names = xcalloc(m->nstats ? m->nstats : 1, sizeof(*m->names));
	m->is_int = xcalloc(m->nstats ? m->nstats : 1, 1);
	/* the common case -- in order, every array full -- keeps the values */
	for (i = 0; sorted && i < m->nstats; i++)
		if (ps->stats[i].len != m->nruns ||
		    ps->stats[i].off != i * m->nruns)
			sorted = false;
	if (sorted && m->nstats && m->nruns) {
		m->values = ps->vals;
		ps->vals = NULL;
	} else {
		m->values = xcalloc(st_mult(m->nstats ? m->nstats : 1,
					    m->nruns ? m->nruns : 1),
				    sizeof(double));
	}
	for (i = 0; i < m->nstats; i++) {
		const struct pstat *st = &ps->stats[i];
		size_t n = st->len < m->nruns ? st->len : m->nruns;

		m->names[i] = st->name; /* the pool moves to m */
		m->is_int[i] = st->is_int;
		if (ps->vals)
			memcpy(m->values + i * m->nruns, ps->vals + st->off,
			       n * sizeof(double));
	}
	/* what the file itself says is missing: null, and a short array's
	 * tail (LKP's readers pad it with 0) */
	for (i = 0; i < m->nstats; i++) {
		const struct pstat *st = &ps->stats[i];
		size_t k;

		for (r = st->len; r < m->nruns; r++)
			matrix_set_missing(m, i, r);
		for (k = 0; k < st->nnull; k++)
			if (ps->nulls[st->null_off + k] < m->nruns)
				matrix_set_missing(m, i,
						   ps->nulls[st->null_off + k]);
	}
	ps->nstats = 0;
	if (ps->have_sources) {
		m->sources = xcalloc(m->nruns ? m->nruns : 1, sizeof(char *));
		for (r = 0; r < m->nruns; r++)
			m->sources[r] = xstrdup(r < ps->nsources ? ps->sources[r] : "");
	}
}

static void parser_release(struct parser *ps)
{
	size_t i;

	for (i = 0; i < ps->nsources; i++)
		free(ps->sources[i]);
	free(ps->stats);
	free(ps->vals);
	free(ps->nulls);
	free(ps->sources);
	strbuf_release(&ps->key);
	strbuf_release(&ps->names);
}

/*
 * Fault a big fresh buffer in with one call: filling it page by page
 * took a trap per 4 KiB, a tenth of compare's time on these VMs.  Only
 * the number of faults changes; failure (an old kernel) is harmless.
 */
static void prefault(void *buf, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = ((uintptr_t)buf + page - 1) & ~(page - 1);
	uintptr_t hi = ((uintptr_t)buf + len) & ~(page - 1);

	if (len >= (1u << 20) && hi > lo)
		madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#else
	(void)buf;
	(void)len;
#endif
}

int matrix_parse_json(struct matrix *m, const char *text, size_t len,
		      const char *name, struct strbuf *err)
{
	struct parser ps;
	int ret = -1;

	matrix_init(m);
	memset(&ps, 0, sizeof(ps));
	strbuf_init(&ps.key, 0);
	strbuf_init(&ps.names, len / 6 + 64);
	ps.path = name;
	ps.buf = ps.p = text;
	ps.end = text + len;
	ps.err = err;
	/* room for every number at once: no copying growth on big files */
	ps.alloc_vals = len / 12 + 16;
	ps.vals = xmalloc(ps.alloc_vals * sizeof(*ps.vals));
	prefault(ps.vals, ps.alloc_vals * sizeof(*ps.vals));
	ps.alloc_stats = len / 256 + 16;
	ps.stats = xmalloc(ps.alloc_stats * sizeof(*ps.stats));
	if (!parse(&ps)) {
		build(&ps, m);
		ret = 0;
	}
	parser_release(&ps);
	return ret;
}

int matrix_load_json(struct matrix *m, const char *path, struct strbuf *err)
{
	struct stat st;
	void *map;
	int fd, ret;

	matrix_init(m);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		strbuf_addf(err, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st)) {
		strbuf_addf(err, "cannot read '%s': %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		/* mmap would say "No such device" */
		strbuf_addf(err, "'%s' is not a regular file (%s)", path,
			    S_ISDIR(st.st_mode) ? "a directory" : "a device or pipe");
		close(fd);
		return -1;
	}
	if (!st.st_size) {
		close(fd);
		return matrix_parse_json(m, "", 0, path, err);
	}
	/* mapped, not read: no copy, and the pages come in one go */
	map = mmap(NULL, (size_t)st.st_size, PROT_READ,
		   MAP_PRIVATE | MAP_POPULATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		strbuf_addf(err, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	ret = matrix_parse_json(m, map, (size_t)st.st_size, path, err);
	munmap(map, (size_t)st.st_size);
	return ret;
}

/* shortest text that reads back as the same double, %.17g at worst */
static void add_number(struct strbuf *out, double v, bool is_int)
{
	char buf[40];
	int prec;

	if (is_int && fabs(v) < 9.007199254740992e15) {
		strbuf_addf(out, "%lld", (long long)v);
		return;
	}
	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	strbuf_addstr(out, buf);
	if (!strpbrk(buf, ".eEn"))
		strbuf_addstr(out, ".0"); /* keep it a float for JSON readers */
}

void matrix_to_json(const struct matrix *m, struct strbuf *out)
{
	size_t s, r;

	strbuf_addstr(out, "{\n");
	for (s = 0; s < m->nstats; s++) {
		strbuf_addstr(out, "  ");
		strbuf_add_json_str(out, m->names[s]);
		strbuf_addstr(out, ": [");
		for (r = 0; r < m->nruns; r++) {
			if (r)
				strbuf_addstr(out, ", ");
			add_number(out, matrix_at(m, s, r), m->is_int[s]);
		}
		strbuf_addstr(out, s + 1 < m->nstats || m->sources ? "],\n" : "]\n");
	}
	if (m->sources) {
		strbuf_addstr(out, "  \"stats_source\": [");
		for (r = 0; r < m->nruns; r++) {
			if (r)
				strbuf_addstr(out, ", ");
			strbuf_add_json_str(out, m->sources[r]);
		}
		strbuf_addstr(out, "]\n");
	}
	strbuf_addstr(out, "}\n");
}

/* ---- the sidecar: which values of matrix.json are missing ---- */

void matrix_missing_to_json(const struct matrix *m, struct strbuf *out)
{
	size_t s, r;
	bool any = false;

	strbuf_addstr(out, "{\n  \"schema\": \"perfsift-matrix-missing/1\",\n"
			   "  \"stats_source\": [");
	for (r = 0; m->sources && r < m->nruns; r++) {
		if (r)
			strbuf_addstr(out, ", ");
		strbuf_add_json_str(out, m->sources[r]);
	}
	strbuf_addstr(out, "],\n  \"missing\": {");
	for (s = 0; m->present && s < m->nstats; s++) {
		const unsigned char *p = m->present + s * m->nruns;
		bool first = true;

		if (!memchr(p, 0, m->nruns))
			continue;
		strbuf_addstr(out, any ? ",\n    " : "\n    ");
		any = true;
		strbuf_add_json_str(out, m->names[s]);
		strbuf_addstr(out, ": [");
		for (r = 0; r < m->nruns; r++) {
			if (p[r])
				continue;
			strbuf_addf(out, first ? "%zu" : ", %zu", r);
			first = false;
		}
		strbuf_addch(out, ']');
	}
	strbuf_addstr(out, any ? "\n  }\n}\n" : "}\n}\n");
}

/* the line of the file where "key" first appears (1 if nowhere) */
static int line_of(const char *text, const char *key)
{
	struct strbuf q = STRBUF_INIT;
	const char *at, *p;
	int line = 1;

	strbuf_add_json_str(&q, key);
	at = strstr(text, q.buf);
	for (p = text; at && p < at; p++)
		line += *p == '\n';
	strbuf_release(&q);
	return line;
}

/* does the sidecar's stats_source name this matrix's runs? */
static bool same_sources(const struct matrix *m, json_t *src)
{
	size_t r;

	if (json_array_size(src) != m->nruns)
		return false;
	for (r = 0; m->sources && r < m->nruns; r++) {
		const char *v = json_string_value(json_array_get(src, r));

		if (!v || strcmp(v, m->sources[r]))
			return false;
	}
	return true;
}

int matrix_load_missing(struct matrix *m, const char *path,
			struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	json_error_t jerr;
	json_t *root = NULL, *src, *miss, *runs;
	const char *key, *schema;
	size_t i, k;
	int ret = -1;

	if (strbuf_read_file(&text, path, 256u << 20) < 0) {
		strbuf_release(&text);
		if (errno == ENOENT)
			return 0; /* no sidecar */
		strbuf_addf(err, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	root = json_loadb(text.buf, text.len, 0, &jerr);
	if (!root) {
		strbuf_addf(err, "%s:%d: %s", path, jerr.line, jerr.text);
		goto out;
	}
	schema = json_string_value(json_object_get(root, "schema"));
	src = json_object_get(root, "stats_source");
	miss = json_object_get(root, "missing");
	if (!json_is_object(root) || !schema ||
	    strcmp(schema, "perfsift-matrix-missing/1")) {
		strbuf_addf(err, "%s:%d: schema: not a perfsift-matrix-missing/1 file",
			    path, line_of(text.buf, "schema"));
		goto out;
	}
	if (!json_is_array(src)) {
		strbuf_addf(err, "%s:%d: stats_source: expected an array of strings",
			    path, line_of(text.buf, "stats_source"));
		goto out;
	}
	if (!json_is_object(miss)) {
		strbuf_addf(err, "%s:%d: missing: expected an object",
			    path, line_of(text.buf, "missing"));
		goto out;
	}
	/* every entry well-formed first: nothing marked on an error */
	json_object_foreach(miss, key, runs) {
		json_t *v;

		if (!json_is_array(runs)) {
			strbuf_addf(err, "%s:%d: %s: expected an array of run indices",
				    path, line_of(text.buf, key), key);
			goto out;
		}
		json_array_foreach(runs, k, v)
			if (!json_is_integer(v) || json_integer_value(v) < 0) {
				strbuf_addf(err, "%s:%d: %s: expected an array of run indices",
					    path, line_of(text.buf, key), key);
				goto out;
			}
	}
	ret = 0;
	if (!same_sources(m, src))
		goto out; /* another set of runs: not this matrix's */
	/* a value called missing must be LKP's padding, 0 */
	json_object_foreach(miss, key, runs) {
		ssize_t s = matrix_find(m, key);
		json_t *v;

		if (s < 0)
			goto out;
		json_array_foreach(runs, k, v) {
			json_int_t r = json_integer_value(v);

			if ((size_t)r >= m->nruns || matrix_at(m, (size_t)s, (size_t)r))
				goto out;
		}
	}
	json_object_foreach(miss, key, runs) {
		size_t s = (size_t)matrix_find(m, key);
		json_t *v;

		json_array_foreach(runs, i, v)
			matrix_set_missing(m, s, (size_t)json_integer_value(v));
	}
	ret = 1;
out:
	json_decref(root);
	strbuf_release(&text);
	return ret;
}

int matrix_load_group(struct matrix *m, const char *group_dir,
		      struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	int ret = -1;

	path_join(&path, group_dir, "matrix.json");
	if (matrix_load_json(m, path.buf, err))
		goto out;
	path_join(&path, group_dir, MATRIX_MISSING_FILE);
	switch (matrix_load_missing(m, path.buf, err)) {
	case -1:
		matrix_release(m);
		goto out;
	case 0:
		matrix_assume_lkp_padding(m);
		break;
	}
	ret = 0;
out:
	strbuf_release(&path);
	return ret;
}
