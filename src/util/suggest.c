/*
 * suggest.c: the closest known name to a mistyped one (see suggest.h).
 */
#include "util/compat.h"
#include <stdlib.h>
#include <string.h>
#include "util/suggest.h"
#include "util/xalloc.h"

size_t suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, *row, ret;

	/* one row of the table: row[j] = distance(a[0..i), b[0..j)) */
	row = xcalloc(lb + 1, sizeof(*row));
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	ret = row[lb];
	free(row);
	return ret;
}

size_t suggest_max_distance(const char *name)
{
	size_t len = strlen(name);

	return len <= 4 ? 0 : len <= 7 ? 1 : 2;
}

const char *suggest_closest(const char *name, const char *const *candidates,
			    size_t n, size_t max_distance)
{
	const char *best = NULL;
	size_t i, best_d = max_distance + 1, len = strlen(name);

	for (i = 0; i < n; i++) {
		size_t d = suggest_distance(name, candidates[i]);

		if (!d)
			return NULL; /* a known name: nothing to suggest */
		if (d < best_d && d < len) {
			best_d = d;
			best = candidates[i];
		}
	}
	return best;
}
