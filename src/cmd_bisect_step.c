/*
 * cmd_bisect_step.c: `perfsift bisect-step` (not built yet on this branch).
 */
#include "util/compat.h"
#include "builtin.h"

int cmd_bisect_step(int argc, char **argv, struct options *opts)
{
	(void)opts;
	return cmd_not_built("bisect-step", argc, argv);
}
