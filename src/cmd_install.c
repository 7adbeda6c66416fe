/*
 * cmd_install.c: `perfsift install` (not built yet on this branch).
 */
#include "util/compat.h"
#include "builtin.h"

int cmd_install(int argc, char **argv, struct options *opts)
{
	(void)opts;
	return cmd_not_built("install", argc, argv);
}
