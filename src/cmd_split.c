/*
 * cmd_split.c: `perfsift split` (not built yet on this branch).
 */
#include "util/compat.h"
#include "builtin.h"

int cmd_split(int argc, char **argv, struct options *opts)
{
	(void)opts;
	return cmd_not_built("split", argc, argv);
}
