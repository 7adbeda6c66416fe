/*
 * monutil.h: small helpers the monitor parsers share -- a line iterator
 * over a raw buffer, awk-like whitespace splitting, first-seen-order key
 * tables and Ruby's Float#to_s text (LKP's parsers are Ruby; where they
 * print a float, perfsift prints the same characters).
 */
#ifndef PERFSIFT_MONUTIL_H
#define PERFSIFT_MONUTIL_H

#include "util/compat.h"
#include "util/strbuf.h"

/* lines of raw text, each copied into it->line without its newline */
struct mon_lines {
	const char *p, *end;
	struct strbuf line;
};
void mon_lines_init(struct mon_lines *it, const char *raw, size_t len);
bool mon_lines_next(struct mon_lines *it);
void mon_lines_release(struct mon_lines *it);

/* awk's default field splitting: runs of blanks separate, ends trimmed */
struct mon_fields {
	char **v;
	size_t n, alloc;
	struct strbuf copy;
};
void mon_fields_init(struct mon_fields *f);
/* split line (with the given separators, or " \t\n\r\f\v" when NULL) */
void mon_fields_split(struct mon_fields *f, const char *line, const char *seps);
void mon_fields_release(struct mon_fields *f);

/*
 * The loop most /proc parsers share: every line of raw, split into fields
 * awk's way, goes to row(), except that a `time: <t>` line (two fields) is
 * copied to out as `time: <t>` unless flags has MON_ROWS_OWN_TIME.  So a
 * monitor's parser says only what it does with one line of its source.
 */
struct mon_row {
	const char *line;     /* without its newline */
	struct mon_fields *f; /* its fields; row() may change them */
	struct strbuf *out;
	void *data;           /* the parser's own state */
};
#define MON_ROWS_OWN_TIME 1u /* time: lines go to row() too */
void mon_each_row(const char *raw, size_t len, struct strbuf *out,
		  unsigned flags, void (*row)(struct mon_row *r), void *data);

/* a parser that is only a row function: parse_<name> calling mon_each_row */
#define MON_ROW_PARSER(fn, flags, row)                                         \
	DECLARE_PARSER(fn)                                                     \
	{                                                                      \
		(void)path;                                                    \
		(void)err;                                                     \
		mon_each_row(raw, len, out, flags, row, NULL);                 \
		return 0;                                                      \
	}

/*
 * The lines of raw that hold ": " (LKP's key/value separator, first one
 * wins): key is the text before it, val the text after it, trimmed.
 */
struct mon_colon {
	const char *line;  /* without its newline */
	size_t len;        /* of line */
	size_t keylen;     /* the key: line[0, keylen) */
	struct strbuf *val;
	struct strbuf *out;
	void *data;        /* the parser's own state */
};
void mon_each_colon_line(const char *raw, size_t len, struct strbuf *out,
			 void (*fn)(struct mon_colon *c), void *data);

/* Ruby's Array#sum over floats (Kahan-Babuska compensated), so that
 * means and averages match LKP's to the last digit */
double mon_ruby_sum(const double *v, size_t n);

/* Ruby's Float#to_s: shortest round-trip digits, ".0", e-notation rules */
void mon_ruby_float(struct strbuf *sb, double v);

/* true when s is a whole decimal number as Ruby's Float() accepts it */
bool mon_is_number(const char *s);
/* strtod of a leading number; false if none */
bool mon_leading_double(const char *s, double *out);
bool mon_has_prefix(const char *s, const char *prefix);

/*
 * A table of keys in first-seen order with a double each (Ruby's Hash
 * keeps insertion order; several LKP parsers print in that order).
 */
struct mon_kv {
	char **keys;
	double *vals;
	size_t n, alloc;
	/* open-addressing index into keys, size a power of two */
	size_t *slots;
	size_t nslots;
};
void mon_kv_init(struct mon_kv *kv);
void mon_kv_release(struct mon_kv *kv);
void mon_kv_clear(struct mon_kv *kv);
/* index of key, adding it with value 0 when absent */
size_t mon_kv_slot(struct mon_kv *kv, const char *key);
/* index of key or -1 */
long mon_kv_find(const struct mon_kv *kv, const char *key);
static inline void mon_kv_add(struct mon_kv *kv, const char *key, double v)
{
	size_t i = mon_kv_slot(kv, key); /* may move vals */

	kv->vals[i] += v;
}

#endif
