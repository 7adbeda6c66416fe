/*
 * daemons.h: the daemons of a job's server roles (LKP's programs/<p>/daemon,
 * job/plugins.h plugin_daemon_script), started before its benchmark and
 * stopped after it (daemons.c).
 */
#ifndef PERFSIFT_DAEMONS_H
#define PERFSIFT_DAEMONS_H

#include "util/compat.h"
#include <stddef.h>
#include <sys/types.h>

struct job;
struct strbuf;

struct daemons {
	bool reaper;          /* this process is the child subreaper */
	pid_t *before;        /* its children before the daemons started */
	size_t nbefore;
	pid_t *groups;        /* daemon scripts still running: their groups */
	size_t ngroups, alloc_groups;
};

/*
 * Start every daemon the job names, with the benchmark's environment env,
 * each one's output in dir/NAME; a script that exits is waited for (it
 * started its server), one that keeps running is the server.  0, or -1
 * with err (a script failed); daemons_stop() is owed either way.
 */
int daemons_start(const struct job *job, char **env, const char *dir,
		  struct daemons *d, struct strbuf *err);
/* SIGTERM every daemon and what it left, SIGKILL after a grace time */
void daemons_stop(struct daemons *d);

#endif
