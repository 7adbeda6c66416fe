/*
 * cmd_report.c: `perfsift report` (not built yet on this branch).
 */
#include "util/compat.h"
#include "builtin.h"

int cmd_report(int argc, char **argv, struct options *opts)
{
	(void)opts;
	return cmd_not_built("report", argc, argv);
}
