/*
 * cmd_parse.c: `perfsift parse` (not built yet on this branch).
 */
#include "util/compat.h"
#include "builtin.h"

int cmd_parse(int argc, char **argv, struct options *opts)
{
	(void)opts;
	return cmd_not_built("parse", argc, argv);
}
