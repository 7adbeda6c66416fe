/*
 * sampler.c: placeholder until the monitors module lands -- starts no
 * monitor, so that the runner's calls are in place.
 */
#include "util/compat.h"
#include <stdlib.h>
#include "sampler.h"
#include "util/xalloc.h"

struct sampler {
	int unused;
};

struct sampler *sampler_start(const struct job *job, const char *out_dir,
			      const char *sysroot, struct strbuf *err)
{
	(void)job;
	(void)out_dir;
	(void)sysroot;
	(void)err;
	return xcalloc(1, sizeof(struct sampler));
}

int sampler_stop(struct sampler *s)
{
	free(s);
	return 0;
}
