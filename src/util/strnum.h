/*
 * strnum.h: the only way perfsift turns text into numbers.  Every parse
 * names its bounds and reports what was wrong instead of silently giving 0
 * (no atoi).
 */
#ifndef PERFSIFT_STRNUM_H
#define PERFSIFT_STRNUM_H

#include "util/compat.h"

/* whole string must be an integer in [min, max]; 0 or -1 with *why set */
int strnum_ll(const char *s, long long min, long long max, long long *out,
	      const char **why);
/* a finite double, whole string */
int strnum_double(const char *s, double *out, const char **why);
/*
 * Sizes with an optional binary suffix as LKP writes them: 16G, 512M,
 * 1T, 4k, 4096 (K/M/G/T/P, case-insensitive, powers of 1024).
 */
int strnum_size(const char *s, uint64_t *out, const char **why);
/* durations: "300", "300s", "5m", "1h", "1.5s" -> seconds */
int strnum_seconds(const char *s, double *out, const char **why);

#endif
