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

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define UNUSED __attribute__((unused))
#define NORETURN __attribute__((noreturn))
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))

#define FREE_AND_NULL(p)                                                       \
	do {                                                                   \
		free(p);                                                       \
		(p) = NULL;                                                    \
	} while (0)

#endif
