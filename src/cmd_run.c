/*
 * cmd_run.c: `perfsift run` (not built yet on this branch).
 */
#include "util/compat.h"
#include "builtin.h"

int cmd_run(int argc, char **argv, struct options *opts)
{
	(void)opts;
	return cmd_not_built("run", argc, argv);
}
