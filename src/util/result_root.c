/*
 * result_root.c: the result root and other places (see config.h).
 */
#include "util/compat.h"
#include <stdlib.h>
#include <unistd.h>
#include "util/config.h"
#include "util/xalloc.h"

const char *config_result_root(const char *opt, bool *given)
{
	static char *root;
	const char *env = getenv("PERFSIFT_RESULT_ROOT");
	const char *xdg, *home;

	*given = true;
	if (opt && *opt)
		return opt;
	if (env && *env)
		return env;
	*given = false;
	if (geteuid() == 0)
		return "/var/lib/perfsift/result";
	if (!root) {
		xdg = getenv("XDG_DATA_HOME");
		home = getenv("HOME");
		if (xdg && *xdg)
			root = xasprintf("%s/perfsift/result", xdg);
		else
			root = xasprintf("%s/.local/share/perfsift/result",
					 home && *home ? home : ".");
	}
	return root;
}
