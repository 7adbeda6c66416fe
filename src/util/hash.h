/*
 * hash.h: FNV-1a 64, perfsift's one non-cryptographic hash -- stable
 * short names and fingerprints (bisect worktrees, the kernel config, the
 * parameters of a result group), not security.
 */
#ifndef PERFSIFT_HASH_H
#define PERFSIFT_HASH_H

#include "util/compat.h"

#define FNV1A64_INIT 0xcbf29ce484222325ULL

/* h extended by len bytes of data (start with FNV1A64_INIT) */
uint64_t fnv1a64(uint64_t h, const void *data, size_t len);

#endif
