/*
 * hash.c: FNV-1a 64 (see hash.h).  A few lines, no library needed.
 */
#include "util/compat.h"
#include "util/hash.h"

uint64_t fnv1a64(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}
