/*
 * cmd_restore.c: `perfsift restore` (not built yet on this branch).
 */
#include "util/compat.h"
#include "builtin.h"

int cmd_restore(int argc, char **argv, struct options *opts)
{
	(void)opts;
	return cmd_not_built("restore", argc, argv);
}
