/*
 * fault.c: fault_point() for builds with test hooks (see fault.h).
 */
#include "util/compat.h"
#include "util/fault.h"

#ifdef PERFSIFT_TEST_HOOKS
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fault_point(const char *name)
{
	const char *want = getenv("PERFSIFT_FAULT");

	if (want && !strcmp(want, name)) {
		fflush(NULL);
		raise(SIGKILL);
	}
}
#endif
