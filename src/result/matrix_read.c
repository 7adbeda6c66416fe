/*
 * matrix_read.c: the matrix.json reader (see matrix.h), a lean
 * hand-written parser for that one hot shape -- an object of number
 * arrays plus "stats_source" -- because parsing is most of the cost of a
 * 50,000-stat comparison; it still reads any valid JSON text of that
 * shape (any key order, escapes, whitespace, exponents, duplicates: the
 * last one wins, as in jansson).  Values stand in one array and names in
 * one block, so that a big matrix costs a few allocations, not 50,000.
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "result/matrix.h"
#include "util/strbuf.h"
#include "util/trust.h"
#include "util/xalloc.h"

/*
 * The reader's state over one text.  Values are gathered in file order in
 * one array, each stat remembering where its own begin: in the common
 * case (stats sorted, every array full) that array becomes the matrix's
 * values as it is, without a copy.
 */
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

/* JSON's four whitespace characters, nothing else (RFC 8259) */
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

/* the four hex digits of a \u escape */
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

/*
 * A code point as UTF-8: escaped names must compare equal to the same
 * names written plainly, as stat names are looked up by their bytes.
 */
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

/* the character c after any whitespace, or the error `what` */
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

/*
 * "stats_source": the run directories, one a column.  A later
 * stats_source replaces an earlier one (the last duplicate wins).
 */
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

/*
 * The whole text: one object of arrays and stats_source, then nothing.
 * Anything else is an error naming its line (and key when inside one),
 * never a matrix read half.
 */
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

			/* a matrix.json may come from a store (util/trust.h) */
			if (trust_stat_why(ps->key.buf)) {
				struct strbuf why = STRBUF_INIT;

				ps->in_value = false;
				trust_escape(&why, ps->key.buf);
				strbuf_addf(&why, ": %s", trust_stat_why(ps->key.buf));
				perr(ps, why.buf);
				strbuf_release(&why);
				return -1;
			}
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

/*
 * By name, then file order: after the sort the last duplicate of a name
 * stands last, so the loop that drops duplicates keeps it.
 */
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
