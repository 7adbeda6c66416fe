/*
 * xalloc.h: allocation that never returns NULL.  On failure the process
 * dies with a message: perfsift has nothing sensible to do without memory,
 * and callers stay free of NULL checks.  Sizes are overflow-checked.
 */
#ifndef PERFSIFT_XALLOC_H
#define PERFSIFT_XALLOC_H

#include "util/compat.h"

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a new string; caller frees */
char *xasprintf(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* size arithmetic that dies on overflow */
size_t st_add(size_t a, size_t b);
size_t st_mult(size_t a, size_t b);

/*
 * ALLOC_GROW(array, needed, alloc): make room for `needed` elements in
 * `array`, whose capacity is `alloc`; grows by 1.5x as git does.
 */
#define alloc_nr(x) (((x) + 16) * 3 / 2)
#define ALLOC_GROW(x, nr, alloc)                                               \
	do {                                                                   \
		if ((nr) > (alloc)) {                                          \
			if (alloc_nr(alloc) < (nr))                            \
				(alloc) = (nr);                                \
			else                                                   \
				(alloc) = alloc_nr(alloc);                     \
			(x) = xreallocarray((x), (alloc), sizeof(*(x)));       \
		}                                                              \
	} while (0)

#endif
