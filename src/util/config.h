/*
 * config.h: where perfsift keeps things, and its version.
 */
#ifndef PERFSIFT_CONFIG_H
#define PERFSIFT_CONFIG_H

#include "util/compat.h"

#define PERFSIFT_VERSION "0.1.0"

/*
 * The result root: `opt` (--result-root) if set, else $PERFSIFT_RESULT_ROOT,
 * else /var/lib/perfsift/result for root, else
 * $XDG_DATA_HOME/perfsift/result (~/.local/share when unset).  *given says
 * whether the user chose it.  The returned string lives for the process.
 */
const char *config_result_root(const char *opt, bool *given);

#endif
