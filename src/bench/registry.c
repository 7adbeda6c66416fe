/*
 * registry.c: the table of built-in benchmarks (see bench.h).  One line
 * per benchmark, sorted by name.
 */
#include "util/compat.h"
#include <string.h>
#include "bench/bench.h"
#include "job.h"
#include "programs.h"

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

int bench_check_job(const struct job *job, struct strbuf *err)
{
	const struct jnode *root = job->root;
	size_t i;

	for (i = 0; i < root->n; i++) {
		const struct program *p = program_find(root->keys[i]);
		const struct bench_ops *ops;

		if (!p || p->kind != PROG_TEST)
			continue;
		ops = bench_find(root->keys[i]);
		if (ops && ops->check && ops->check(job, err) < 0)
			return -1;
	}
	return 0;
}
