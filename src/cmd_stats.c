/*
 * cmd_stats.c: `perfsift stats` (not built yet on this branch).
 */
#include "util/compat.h"
#include "builtin.h"

int cmd_stats(int argc, char **argv, struct options *opts)
{
	(void)opts;
	return cmd_not_built("stats", argc, argv);
}
