/*
 * cmd_plot.c: `perfsift plot` (not built yet on this branch).
 */
#include "util/compat.h"
#include "builtin.h"

int cmd_plot(int argc, char **argv, struct options *opts)
{
	(void)opts;
	return cmd_not_built("plot", argc, argv);
}
