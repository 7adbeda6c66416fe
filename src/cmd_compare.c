/*
 * cmd_compare.c: `perfsift compare` (not built yet on this branch).
 */
#include "util/compat.h"
#include "builtin.h"

int cmd_compare(int argc, char **argv, struct options *opts)
{
	(void)opts;
	return cmd_not_built("compare", argc, argv);
}
