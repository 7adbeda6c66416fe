/*
 * cmd_bisect.c: `perfsift bisect` (not built yet on this branch).
 */
#include "util/compat.h"
#include "builtin.h"

int cmd_bisect(int argc, char **argv, struct options *opts)
{
	(void)opts;
	return cmd_not_built("bisect", argc, argv);
}
