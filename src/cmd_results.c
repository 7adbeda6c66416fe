/*
 * cmd_results.c: `perfsift results` (not built yet on this branch).
 */
#include "util/compat.h"
#include "builtin.h"

int cmd_results(int argc, char **argv, struct options *opts)
{
	(void)opts;
	return cmd_not_built("results", argc, argv);
}
