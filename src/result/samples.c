/*
 * samples.c: LKP's dump-stat (see samples.h): the `key: value` stream of a
 * parser into per-sample arrays, and those arrays into <group>.json in
 * the byte layout LKP's Ruby writes (JSON.pretty_generate).
 */
#include "util/compat.h"
#include <errno.h>
#include <fnmatch.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "result/samples.h"
#include "util/strbuf.h"
#include "util/trust.h"
#include "util/xalloc.h"

/*
 * etc/valid-range-<monitor>.yaml as a table.  LKP's regexes are all of the
 * form "prefix, anything, suffix", which a glob says exactly.
 */
static const struct {
	const char *glob;
	double min, max;
} valid_ranges[] = {
	{"iostat.*.util", 0, 300},
	{"iostat.cpu.*", 0, 110},
	{"vmstat.cpu.*", 0, 110},
	{"turbostat.*Watt", 0, 10000},
};

/*
 * Monitors whose records are not one full key set each; dump-stat does not
 * cut their "incomplete" last record.
 */
static const char *const unstructured[] = {
	"ftrace", "perf-stat", "sched_debug", "slabinfo", "meminfo",
};

void samples_init(struct samples *s, const char *group)
{
	memset(s, 0, sizeof(*s));
	s->group = xstrdup(group);
}

void samples_release(struct samples *s)
{
	size_t i;

	for (i = 0; i < s->nkeys; i++) {
		free(s->keys[i].name);
		free(s->keys[i].v);
		free(s->keys[i].type);
	}
	for (i = 0; i < s->nzero; i++)
		free(s->zero_names[i]);
	free(s->zero_names);
	free(s->keys);
	free(s->hash);
	free(s->group);
	memset(s, 0, sizeof(*s));
}

/*
 * The keys are found by an open-addressing hash of their full names: a
 * perf-stat or sched_debug stream has thousands of keys repeated every
 * interval, and a linear search per line would make parsing quadratic.
 */
static size_t hash_str(const char *p, size_t len)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)p[i];
		h *= 1099511628211ULL;
	}
	return (size_t)h;
}

/* the table is kept at most half full, so a probe sequence stays short */
static void rehash(struct samples *s)
{
	size_t i, size = s->hash_size ? s->hash_size * 2 : 256;

	free(s->hash);
	s->hash = xcalloc(size, sizeof(*s->hash));
	s->hash_size = size;
	for (i = 0; i < s->nkeys; i++) {
		const char *n = s->keys[i].name;
		size_t h = hash_str(n, strlen(n)) & (size - 1);

		while (s->hash[h])
			h = (h + 1) & (size - 1);
		s->hash[h] = i + 1;
	}
}

/* index of the key with this full name, or (size_t)-1; *slot: where to insert */
static size_t lookup(const struct samples *s, const char *name, size_t len,
		     size_t *slot)
{
	size_t h;

	if (!s->hash_size)
		return (size_t)-1;
	h = hash_str(name, len) & (s->hash_size - 1);
	while (s->hash[h]) {
		const char *k = s->keys[s->hash[h] - 1].name;

		if (!strncmp(k, name, len) && !k[len])
			return s->hash[h] - 1;
		h = (h + 1) & (s->hash_size - 1);
	}
	if (slot)
		*slot = h;
	return (size_t)-1;
}

const struct samples_key *samples_find(const struct samples *s,
				       const char *name)
{
	size_t i = lookup(s, name, strlen(name), NULL);

	return i == (size_t)-1 ? NULL : &s->keys[i];
}

/* the key of that name, made when it is new (keys keep their first order) */
static struct samples_key *add_key(struct samples *s, const char *name,
				   size_t len)
{
	size_t slot = 0, i;
	struct samples_key *k;

	if ((s->nkeys + 1) * 2 > s->hash_size)
		rehash(s);
	i = lookup(s, name, len, &slot);
	if (i != (size_t)-1)
		return &s->keys[i];
	ALLOC_GROW(s->keys, s->nkeys + 1, s->alloc);
	k = &s->keys[s->nkeys];
	memset(k, 0, sizeof(*k));
	k->name = xstrndup(name, len);
	s->hash[slot] = ++s->nkeys;
	return k;
}

static void push(struct samples_key *k, double v, enum samples_type t)
{
	if (k->n + 1 > k->alloc) {
		k->alloc = alloc_nr(k->alloc);
		k->v = xreallocarray(k->v, k->alloc, sizeof(*k->v));
		k->type = xreallocarray(k->type, k->alloc, 1);
	}
	k->v[k->n] = v;
	k->type[k->n++] = (unsigned char)t;
}

/*
 * A sample value: an integer literal is an integer, any other finite
 * number a float (strtod: "1e5" is 100000, not dump-stat's 1).
 */
static enum samples_type parse_value(const char *p, size_t len, double *out)
{
	char buf[64], *end;
	size_t i = 0;
	bool digits_only = true;

	if (!len || len >= sizeof(buf))
		return SAMPLES_ABSENT;
	memcpy(buf, p, len);
	buf[len] = '\0';
	if (buf[0] == '-' || buf[0] == '+')
		i = 1;
	if (i == len)
		return SAMPLES_ABSENT;
	for (; i < len; i++)
		if (buf[i] < '0' || buf[i] > '9')
			digits_only = false;
	errno = 0;
	*out = strtod(buf, &end);
	if (*end || end == buf || !isfinite(*out))
		return SAMPLES_ABSENT;
	if (digits_only) {
		long long ll = strtoll(buf, &end, 10);

		if (!errno && !*end)
			*out = (double)ll;
		return SAMPLES_INT;
	}
	/* Ruby's Float() refuses these spellings that strtod takes */
	if (strpbrk(buf, "xXpPnNiI"))
		return SAMPLES_ABSENT;
	return SAMPLES_FLOAT;
}

/*
 * LKP's valid-range check: a sample outside its monitor's range (a CPU
 * share above 110%, a wattage in the tens of thousands) is a glitch of
 * the source, not a value, and is stored as absent rather than averaged.
 */
static bool in_valid_range(const char *name, double v)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(valid_ranges); i++)
		if (!fnmatch(valid_ranges[i].glob, name, 0))
			return v >= valid_ranges[i].min &&
			       v <= valid_ranges[i].max;
	return true;
}

static bool is_space_char(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* "FILE:LINE: NAME: why" for a stat name trust_stat_why() refuses */
static void bad_stat(struct strbuf *err, const char *file, int lineno,
		     const char *name)
{
	const char *why = trust_stat_why(name);

	strbuf_addf(err, "%s:", file);
	if (lineno)
		strbuf_addf(err, "%d:", lineno);
	strbuf_addch(err, ' ');
	trust_escape(err, name);
	strbuf_addf(err, ": %s", why ? why : "a NUL byte in a stat name");
}

/*
 * The records of a stream are told apart as dump-stat tells them: a key
 * seen again opens the next record, and the keys a record lacks are
 * padded with absent values, so every key's array stays aligned with the
 * records.  Whitespace in a name is an error rather than a silent cut,
 * since the name would differ from LKP's.  The log monitors' message and
 * pattern lines are text, not values: they are skipped.
 */
int samples_parse(struct samples *s, const char *text, size_t len,
		  const char *file, struct strbuf *err)
{
	struct strbuf name = STRBUF_INIT;
	const char *p = text, *end = text + len;
	size_t record = s->nrecords ? s->nrecords - 1 : 0;
	bool is_log = !strcmp(s->group, "dmesg") || !strcmp(s->group, "kmsg");
	int lineno = 0, ret = -1;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *line = p, *sep, *val, *vend;
		size_t klen, i;
		struct samples_key *k;
		enum samples_type t;
		double v = 0;

		if (!eol)
			eol = end;
		p = eol + 1;
		lineno++;
		if (line < eol && *line == '#')
			continue;
		sep = memmem(line, (size_t)(eol - line), ": ", 2);
		if (!sep)
			continue;
		klen = (size_t)(sep - line);
		for (i = 0; i < klen; i++)
			if (is_space_char(line[i])) {
				strbuf_addf(err, "%s:%d: %.*s: whitespace in a stat name",
					    file, lineno, (int)klen, line);
				goto out;
			}
		val = sep + 2;
		vend = eol;
		while (val < vend && is_space_char(*val))
			val++;
		while (vend > val && is_space_char(vend[-1]))
			vend--;
		if (val == vend)
			continue; /* dump-stat: an empty value is skipped */
		if (is_log && ((klen >= 8 && !strncmp(line, "message:", 8)) ||
			       (klen >= 8 && !strncmp(line, "pattern:", 8))))
			continue;
		strbuf_reset(&name);
		strbuf_addstr(&name, s->group);
		strbuf_addch(&name, '.');
		strbuf_add(&name, line, klen);
		/* a plug-in's output is outside text (util/trust.h, issue 25 F10) */
		if (trust_stat_why(name.buf) || memchr(line, '\0', klen)) {
			bad_stat(err, file, lineno, name.buf);
			goto out;
		}
		k = add_key(s, name.buf, name.len);
		/* a key already set in this record opens the next one */
		if (k->n > record)
			record = k->n;
		while (k->n < record)
			push(k, 0, SAMPLES_ABSENT);
		t = parse_value(val, (size_t)(vend - val), &v);
		if (t != SAMPLES_ABSENT && !in_valid_range(name.buf, v))
			t = SAMPLES_ABSENT;
		if (t == SAMPLES_ABSENT)
			s->nrejected++;
		push(k, v, t);
		if (record + 1 > s->nrecords)
			s->nrecords = record + 1;
	}
	ret = 0;
out:
	strbuf_release(&name);
	return ret;
}

/*
 * 0: a value that is not 0; 1: zeros; 2: no value at all
 *
 * dump-stat's zero test looks at the first, the last and the sum only; it
 * is kept as it is (not "every value 0") so the same keys are dropped.
 */
static int is_zero_key(const struct samples_key *k)
{
	double sum = 0;
	size_t i, first = k->n, last = 0;

	for (i = 0; i < k->n; i++) {
		if (k->type[i] == SAMPLES_ABSENT)
			continue;
		if (first == k->n)
			first = i;
		last = i;
		sum += k->v[i];
	}
	if (first == k->n)
		return 2; /* nothing but absent values */
	return k->v[first] == 0 && k->v[last] == 0 && sum == 0;
}

/*
 * What dump-stat does at the end of a stream: keys that are all 0 are
 * dropped from <group>.json (but remembered, so a stat that was there at
 * 0 is told from one that was never measured), dmesg's timestamps are
 * kept whatever their values, and for a monitor whose records are full
 * key sets a last record one sample short was cut off by the run's end.
 */
void samples_finish(struct samples *s)
{
	size_t i, j, minlen = SIZE_MAX, maxlen = 0;
	struct strbuf ts = STRBUF_INIT;

	strbuf_addf(&ts, "%s.timestamp", s->group);
	for (i = j = 0; i < s->nkeys; i++) {
		struct samples_key *k = &s->keys[i];

		if (!strcmp(s->group, "dmesg") && !strncmp(k->name, ts.buf, ts.len)) {
			s->keys[j++] = *k;
			continue;
		}
		switch (is_zero_key(k)) {
		case 0:
			s->keys[j++] = *k;
			continue;
		case 1: /* dropped, but the run had it: at 0 */
			ALLOC_GROW(s->zero_names, s->nzero + 1, s->alloc_zero);
			s->zero_names[s->nzero++] = k->name;
			k->name = NULL;
			break;
		}
		free(k->name);
		free(k->v);
		free(k->type);
	}
	s->nkeys = j;
	rehash(s);
	strbuf_release(&ts);

	for (i = 0; i < ARRAY_SIZE(unstructured); i++)
		if (!strcmp(s->group, unstructured[i]))
			return;
	for (i = 0; i < s->nkeys; i++) {
		if (s->keys[i].n < minlen)
			minlen = s->keys[i].n;
		if (s->keys[i].n > maxlen)
			maxlen = s->keys[i].n;
	}
	if (s->nkeys && minlen + 1 == maxlen) {
		/* "Last record seems incomplete": cut it everywhere */
		for (i = 0; i < s->nkeys; i++)
			if (s->keys[i].n > minlen)
				s->keys[i].n = minlen;
		s->nrecords = minlen;
	}
}

/*
 * A number as Ruby's JSON writes it, so that <group>.json is byte for byte
 * what LKP would write: integers plain, floats in the shortest digits that
 * read back as the same double, in Ruby's choice of plain or exponent
 * notation.  The files are then diffable against LKP's own.
 */
void samples_add_number(struct strbuf *out, double v, bool is_int)
{
	char buf[40], digits[24], *e;
	int prec, exp10, ndig, i;

	if (is_int && fabs(v) < 9.2e18) {
		strbuf_addf(out, "%lld", (long long)v);
		return;
	}
	if (!isfinite(v)) {
		strbuf_addstr(out, "null"); /* JSON has no NaN or infinity */
		return;
	}
	if (v == 0) {
		strbuf_addstr(out, signbit(v) ? "-0.0" : "0.0");
		return;
	}
	/* the shortest digits that read back as v */
	for (prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*e", prec - 1, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	e = strchr(buf, 'e');
	exp10 = (int)strtol(e + 1, NULL, 10);
	ndig = 0;
	for (i = 0; buf + i < e; i++)
		if (buf[i] >= '0' && buf[i] <= '9')
			digits[ndig++] = buf[i];
	while (ndig > 1 && digits[ndig - 1] == '0')
		ndig--;
	digits[ndig] = '\0';
	if (v < 0)
		strbuf_addch(out, '-');
	/* Ruby's Float#to_s: plain notation for 1e-4 <= |v| < 1e16 */
	if (exp10 >= 16 || exp10 < -4) {
		strbuf_addch(out, digits[0]);
		strbuf_addch(out, '.');
		strbuf_addstr(out, ndig > 1 ? digits + 1 : "0");
		strbuf_addf(out, "e%c%02d", exp10 < 0 ? '-' : '+', abs(exp10));
	} else if (exp10 < 0) {
		strbuf_addstr(out, "0.");
		strbuf_addchars(out, '0', (size_t)(-exp10 - 1));
		strbuf_addstr(out, digits);
	} else if (ndig <= exp10 + 1) {
		strbuf_addstr(out, digits);
		strbuf_addchars(out, '0', (size_t)(exp10 + 1 - ndig));
		strbuf_addstr(out, ".0");
	} else {
		strbuf_add(out, digits, (size_t)exp10 + 1);
		strbuf_addch(out, '.');
		strbuf_addstr(out, digits + exp10 + 1);
	}
}

void samples_to_json(const struct samples *s, struct strbuf *out)
{
	size_t i, j;

	if (!s->nkeys) {
		strbuf_addstr(out, "{}");
		return;
	}
	strbuf_addstr(out, "{\n");
	for (i = 0; i < s->nkeys; i++) {
		const struct samples_key *k = &s->keys[i];

		strbuf_addstr(out, "  ");
		strbuf_add_json_str(out, k->name);
		if (!k->n) {
			strbuf_addstr(out, ": []");
		} else {
			strbuf_addstr(out, ": [\n");
			for (j = 0; j < k->n; j++) {
				strbuf_addstr(out, "    ");
				if (k->type[j] == SAMPLES_ABSENT)
					strbuf_addstr(out, "null");
				else
					samples_add_number(out, k->v[j],
							   k->type[j] == SAMPLES_INT);
				strbuf_addstr(out, j + 1 < k->n ? ",\n" : "\n");
			}
			strbuf_addstr(out, "  ]");
		}
		strbuf_addstr(out, i + 1 < s->nkeys ? ",\n" : "\n");
	}
	strbuf_addstr(out, "}");
}

int samples_load_json(struct samples *s, const char *text, size_t len,
		      const char *file, struct strbuf *err)
{
	size_t glen = strlen(s->group);
	json_error_t jerr;
	json_t *root, *arr;
	const char *key;
	int ret = -1;

	root = json_loadb(text, len, 0, &jerr);
	/* counters above INT64_MAX (perf-stat's) are valid JSON: as floats */
	if (!root && strstr(jerr.text, "too big"))
		root = json_loadb(text, len, JSON_DECODE_INT_AS_REAL, &jerr);
	if (!root) {
		strbuf_addf(err, "%s:%d: %s", file, jerr.line, jerr.text);
		return -1;
	}
	if (!json_is_object(root)) {
		strbuf_addf(err, "%s: not a <monitor>.json (expected an object)",
			    file);
		goto out;
	}
	json_object_foreach(root, key, arr) {
		struct samples_key *k;
		size_t i, n;

		if (trust_stat_why(key)) {
			bad_stat(err, file, 0, key);
			goto out;
		}
		if (strncmp(key, s->group, glen) || key[glen] != '.' ||
		    !key[glen + 1]) {
			strbuf_addf(err, "%s: %s: not a stat of '%s'", file, key,
				    s->group);
			goto out;
		}
		if (!json_is_array(arr)) {
			strbuf_addf(err, "%s: %s: expected an array of samples",
				    file, key);
			goto out;
		}

		k = add_key(s, key, strlen(key));
		n = json_array_size(arr);
		for (i = 0; i < n; i++) {
			json_t *x = json_array_get(arr, i);

			if (json_is_integer(x))
				push(k, (double)json_integer_value(x), SAMPLES_INT);
			else if (json_is_real(x))
				push(k, json_real_value(x), SAMPLES_FLOAT);
			else if (json_is_null(x))
				push(k, 0, SAMPLES_ABSENT);
			else {
				strbuf_addf(err, "%s: %s[%zu]: not a number",
					    file, key, i);
				goto out;
			}
		}
		if (n > s->nrecords)
			s->nrecords = n;
	}
	ret = 0;
out:
	json_decref(root);
	return ret;
}
