/*
 * samples.h: LKP's dump-stat -- a parser's `key: value` stream turned into
 * per-sample arrays {"<group>.<key>": [v0, v1, ...]} and written as
 * <group>.json in LKP's exact shape (spec/lkp-monitors.md 1.5).
 *
 * Records (samples) are found by key repetition, as dump-stat finds them.
 * Deliberate differences from dump-stat (docs/lkp-compat.md): a value that
 * is not a number or out of its valid range is dropped alone (an absent
 * sample) instead of deleting the whole record (Q12); a key missing from a
 * record gets an absent sample instead of a 0 in front or a shift of its
 * later values (Q11); "1e5" is the float 100000, not the integer 1 (Q16).
 * Absent samples are written as null in <group>.json.
 */
#ifndef PERFSIFT_SAMPLES_H
#define PERFSIFT_SAMPLES_H

#include "util/compat.h"

struct strbuf;

enum samples_type {
	SAMPLES_ABSENT = 0, /* no value in this record */
	SAMPLES_INT,        /* written as an integer literal */
	SAMPLES_FLOAT,      /* any other number */
};

struct samples_key {
	char *name;          /* "<group>.<key>" */
	double *v;           /* n values; meaningless where type is ABSENT */
	unsigned char *type; /* n enum samples_type */
	size_t n, alloc;
};

struct samples {
	char *group;              /* "proc-vmstat", "vm-scalability.time" */
	struct samples_key *keys; /* first-seen order (LKP's JSON order) */
	size_t nkeys, alloc;
	size_t nrecords;          /* records seen so far */
	size_t nrejected;         /* values dropped: not a number / out of range */
	/* keys samples_finish dropped for being 0 (dump-stat's rule): the
	 * run had them, at 0 -- not missing (reduce_samples says so) */
	char **zero_names;
	size_t nzero, alloc_zero;
	size_t *hash;             /* open addressing: key index + 1, 0 = free */
	size_t hash_size;
};

void samples_init(struct samples *s, const char *group);
void samples_release(struct samples *s);

/*
 * Feed a `key: value` stream.  `file` names the stream in messages.  A key
 * holding whitespace is fatal (as in dump-stat): -1 with err
 * "FILE:LINE: KEY: ...", and s must then only be released.
 */
int samples_parse(struct samples *s, const char *text, size_t len,
		  const char *file, struct strbuf *err);

/*
 * dump-stat's clean-up, run once after the stream: keys whose first value,
 * last value and sum are all 0 are dropped (dmesg.timestamp* excepted;
 * their names stay in zero_names, unless no sample had a value),
 * and when the longest arrays are exactly one longer than the shortest,
 * the trailing partial record is cut (not for the unstructured monitors).
 */
void samples_finish(struct samples *s);

/* the key called name (full "<group>.<key>"), or NULL */
const struct samples_key *samples_find(const struct samples *s,
				       const char *name);

/* <group>.json as dump-stat writes it (pretty, no final newline) */
void samples_to_json(const struct samples *s, struct strbuf *out);

/*
 * The reverse: a <group>.json (LKP's or perfsift's) back into s, which
 * samples_init() made for the group.  Every key must be "<group>.<key>"
 * and hold an array of numbers or nulls (absent samples); s is then as
 * samples_finish() left it (not to be finished again: dump-stat's
 * clean-up is done).  -1 with err "FILE: what" otherwise; s must then
 * only be released.  This is how a run whose raw files are gone (an
 * archived LKP result) is reduced again.
 */
int samples_load_json(struct samples *s, const char *text, size_t len,
		      const char *file, struct strbuf *err);

/*
 * A number as Ruby's JSON writes it: integers as integers; floats as the
 * shortest text that reads back the same, with ".0" when integral and
 * exponent form outside [1e-4, 1e16).
 */
void samples_add_number(struct strbuf *out, double v, bool is_int);

#endif
