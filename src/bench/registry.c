/*
 * registry.c: the table of built-in benchmarks (see bench.h).  One line
 * per benchmark, sorted by name.
 */
#include "util/compat.h"
#include <string.h>
#include "bench/bench.h"

extern const struct bench_ops bench_vm_scalability;

static const struct bench_ops *const benchmarks[] = {
	&bench_vm_scalability,
};

const struct bench_ops *bench_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(benchmarks); i++)
		if (!strcmp(benchmarks[i]->name, name))
			return benchmarks[i];
	return NULL;
}
