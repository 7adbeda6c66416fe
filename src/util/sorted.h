/*
 * sorted.h: searching a sorted array.  bsearch() only says whether a key
 * is there; most of perfsift's searches also need where it would go: the
 * insert position of a new axis, the first stat name with a prefix, the
 * symbol an address falls in, the first commit id with a prefix.
 * sorted_lower_bound() gives that position, and an exact lookup is one
 * comparison more, so the binary search is written once, here.
 *
 * It is static inline so that the compiler sees each caller's comparison
 * function and can inline it: these searches run once per stat name in
 * compare's inner loop, where an indirect call per step would show.
 */
#ifndef PERFSIFT_SORTED_H
#define PERFSIFT_SORTED_H

#include "util/compat.h"

/*
 * The first index i in [0, n) whose element is not less than key, or n:
 * cmp(key, elem) is > 0 when elem sorts before key (the order bsearch()'s
 * comparison function uses).  base is n elements of size bytes, sorted
 * by that order.
 */
static inline size_t sorted_lower_bound(const void *key, const void *base,
					size_t n, size_t size,
					int (*cmp)(const void *key,
						   const void *elem))
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		/* not (lo + hi) / 2: that can overflow for huge n */
		size_t mid = lo + (hi - lo) / 2;

		if (cmp(key, (const char *)base + mid * size) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif
