/*
 * cgroup.h: a child's processes end with it (issue 25, F11): a run's
 * benchmark (run/runner.c) and, through util/spawn.h's `contain`, a
 * build (util/ because both use it).  The child goes into a cgroup v2
 * of its own, below the cgroup perfsift is in, when the cgroup2 file
 * system is there and writable; a `setsid` daemon leaves its process
 * group and session but never its cgroup, so at the end whatever is left
 * in the cgroup is named and killed.  Without a writable cgroup2 the
 * child gets its own session and process group, and what is left in
 * either is found through /proc and killed the same way (a daemon that
 * started a session of its own then escapes: the caller says which mode
 * ran).
 */
#ifndef PERFSIFT_UTIL_CGROUP_H
#define PERFSIFT_UTIL_CGROUP_H

#include "util/compat.h"
#include <sys/types.h>

struct strbuf;

struct run_cgroup {
	char *dir;   /* the cgroup's directory, NULL: none (session mode) */
	char *procs; /* dir/cgroup.procs, written by the child */
	bool session; /* no cgroup: a session of its own */
};

/*
 * Make the run's cgroup; false (dir NULL) when cgroup v2 cannot be used
 * or PERFSIFT_CGROUP=off says not to.
 */
bool run_cgroup_create(struct run_cgroup *cg);

/*
 * In the child, before exec: into the cgroup (async-signal-safe: open
 * and write only), else (session set) a session of its own; neither:
 * nothing.
 */
void run_cgroup_enter(const struct run_cgroup *cg);

/*
 * The run's leader (pid) has ended and is not reaped yet: name what is
 * left of the run in left ("PID (COMM)" each, space-separated), kill it,
 * and wait for it to go.  The number of processes.
 */
size_t run_cgroup_end(struct run_cgroup *cg, pid_t pid, struct strbuf *left);

/* after the leader is reaped: the empty cgroup removed, cg released */
void run_cgroup_remove(struct run_cgroup *cg);

#endif
