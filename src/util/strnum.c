/*
 * strnum.c: bounded number parsing (see strnum.h).
 */
#include "util/compat.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "util/strnum.h"

/*
 * Base 0, as strtoll reads it: 0x10 is 16 and 010 is 8, as in C, so a
 * mask can be written in hex.  The range test comes before the "is it all
 * a number" test only for a complete number, so "12abc" says "not an
 * integer", not "too large".
 */
int strnum_ll(const char *s, long long min, long long max, long long *out,
	      const char **why)
{
	char *end;
	long long v;

	if (!s || !*s) {
		*why = "empty";
		return -1;
	}
	errno = 0;
	v = strtoll(s, &end, 0);
	if (errno == ERANGE || (*end == '\0' && (v < min || v > max))) {
		*why = v < min ? "too small" : "too large";
		return -1;
	}
	if (*end != '\0' || end == s) {
		*why = "not an integer";
		return -1;
	}
	*out = v;
	return 0;
}

/* inf and nan parse with strtod but are no value a job or option means */
int strnum_double(const char *s, double *out, const char **why)
{
	char *end;
	double v;

	if (!s || !*s) {
		*why = "empty";
		return -1;
	}
	errno = 0;
	v = strtod(s, &end);
	if (*end != '\0' || end == s) {
		*why = "not a number";
		return -1;
	}
	if (errno == ERANGE || !isfinite(v)) {
		*why = "out of range";
		return -1;
	}
	*out = v;
	return 0;
}

/*
 * A size as LKP's jobs write them ("16G", "1.5M", "4096"): a number, then
 * an optional binary suffix and an optional B.  Parsed as a double so a
 * fraction of a unit works, then scaled with ldexp (exact for powers of
 * two) and checked against 2^64 before the conversion, which would be
 * undefined past it.
 */
int strnum_size(const char *s, uint64_t *out, const char **why)
{
	char *end;
	double v;
	int shift = 0;

	if (!s || !*s) {
		*why = "empty";
		return -1;
	}
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno == ERANGE || v < 0 || !isfinite(v)) {
		*why = "not a size";
		return -1;
	}
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 't': case 'T': shift = 40; end++; break;
	case 'p': case 'P': shift = 50; end++; break;
	default: break;
	}
	if (shift && (*end == 'b' || *end == 'B'))
		end++;
	if (*end != '\0') {
		*why = "not a size (use a number with K, M, G or T)";
		return -1;
	}
	v = ldexp(v, shift);
	if (v >= 18446744073709551616.0) {
		*why = "too large";
		return -1;
	}
	*out = (uint64_t)v;
	return 0;
}

/*
 * A duration: bare seconds as LKP's runtime is written, or with s, m, h
 * or ms.  Only whole-word suffixes, so "5min" is an error rather than a
 * silent 5 minutes or 5 seconds.
 */
int strnum_seconds(const char *s, double *out, const char **why)
{
	char *end;
	double v;

	if (!s || !*s) {
		*why = "empty";
		return -1;
	}
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno == ERANGE || v < 0 || !isfinite(v)) {
		*why = "not a duration";
		return -1;
	}
	if (!strcmp(end, "") || !strcmp(end, "s"))
		;
	else if (!strcmp(end, "m"))
		v *= 60;
	else if (!strcmp(end, "h"))
		v *= 3600;
	else if (!strcmp(end, "ms"))
		v /= 1000;
	else {
		*why = "not a duration (use 300, 300s, 5m or 1h)";
		return -1;
	}
	*out = v;
	return 0;
}
