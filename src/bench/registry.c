/*
 * registry.c: the table of built-in benchmarks (see bench.h).  One line
 * per benchmark, sorted by name.
 */
#include "util/compat.h"
#include <string.h>
#include "bench/bench.h"

static const struct bench_ops *const benchmarks[] = {
	NULL, /* keeps the array non-empty until the first benchmark lands */
};

const struct bench_ops *bench_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(benchmarks); i++)
		if (benchmarks[i] && !strcmp(benchmarks[i]->name, name))
			return benchmarks[i];
	return NULL;
}
