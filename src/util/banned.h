/*
 * banned.h: C library functions perfsift does not call.  Each is either
 * unbounded (it writes past a buffer it cannot see the size of), silent (it
 * turns bad text into 0 and says nothing), or keeps hidden static state (so
 * two callers, or two threads, overwrite each other's result).
 * docs/design.md ("Banned functions") gives the reason for each and the
 * function to use instead.
 *
 * util/compat.h includes this last, after the libc headers that declare
 * these functions, so every source file gets it and a call to one of them is
 * a compile error naming it: sorry_strcpy_is_a_banned_function.
 */
#ifndef PERFSIFT_BANNED_H
#define PERFSIFT_BANNED_H

/* the libc declarations first (a no-op when compat.h is including us) */
#include "util/compat.h"

#define BANNED(func) sorry_##func##_is_a_banned_function

/* unbounded copies: strbuf, snprintf or memcpy with a known length */
#undef strcpy
#define strcpy(dst, src) BANNED(strcpy)
#undef strcat
#define strcat(dst, src) BANNED(strcat)
/* bounded, but they truncate silently and strncpy may leave no NUL */
#undef strncpy
#define strncpy(dst, src, n) BANNED(strncpy)
#undef strncat
#define strncat(dst, src, n) BANNED(strncat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef gets
#define gets(buf) BANNED(gets)

/* silent number parsing: util/strnum.h, or strtol/strtod where the text is
 * already known to be a number (a database column) */
#undef atoi
#define atoi(s) BANNED(atoi)
#undef atol
#define atol(s) BANNED(atol)
#undef atoll
#define atoll(s) BANNED(atoll)
#undef atof
#define atof(s) BANNED(atof)

/* hidden static state: strtok_r, gmtime_r, localtime_r, strftime */
#undef strtok
#define strtok(s, delim) BANNED(strtok)
#undef gmtime
#define gmtime(t) BANNED(gmtime)
#undef localtime
#define localtime(t) BANNED(localtime)
#undef ctime
#define ctime(t) BANNED(ctime)
#undef ctime_r
#define ctime_r(t, buf) BANNED(ctime_r)
#undef asctime
#define asctime(tm) BANNED(asctime)
#undef asctime_r
#define asctime_r(tm, buf) BANNED(asctime_r)

/* racy temporary names: mkstemp, mkdtemp */
#undef mktemp
#define mktemp(tmpl) BANNED(mktemp)
#undef tmpnam
#define tmpnam(s) BANNED(tmpnam)
#undef tempnam
#define tempnam(dir, pfx) BANNED(tempnam)

#endif
