/*
 * compat.h: the one header every perfsift source file includes first.
 * It fixes the feature-test macros (so that the same libc declarations are
 * visible everywhere) and the few helpers every module uses.
 */
#ifndef PERFSIFT_COMPAT_H
#define PERFSIFT_COMPAT_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* pread, memfd_create, unshare, getline, ... */
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <inttypes.h>
/*
 * The libc headers that declare the banned functions come before
 * util/banned.h (at the end of this file): their declarations must be seen
 * before the names become macros, and a later #include of them is then a
 * no-op thanks to their include guards.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define UNUSED __attribute__((unused))
#define NORETURN __attribute__((noreturn))
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
/* a macro's value as a string literal: a default stated once, in --help too */
#define STRINGIFY(x) STRINGIFY_(x)
#define STRINGIFY_(x) #x

#define FREE_AND_NULL(p)                                                       \
	do {                                                                   \
		free(p);                                                       \
		(p) = NULL;                                                    \
	} while (0)

/* last: it turns the banned libc names into compile errors */
#include "util/banned.h"

#endif
