/*
 * worker.h: a test box's worker (worker_loop.c): claims its group's tasks
 * from the lab's queue, runs each run through perfsift's run engine into
 * the local result root (a cache) and stores it in the shared store at
 * once.  `perfsift worker` (cmd/worker.c) is its command line.
 */
#ifndef PERFSIFT_LAB_WORKER_H
#define PERFSIFT_LAB_WORKER_H

#include "util/compat.h"

enum worker_mode {
	WORKER_FOREVER, /* sleep on LISTEN between tasks, until SIGTERM */
	WORKER_DRAIN,   /* until no task of the group is queued or leased */
	WORKER_ONCE,    /* one task (none queued: exit at once) */
};

struct worker_opts {
	const char *name;   /* --testbox: the worker's (the box's) name */
	const char *group;  /* --testbox-group */
	const char *root;   /* the result root: the worker's local cache */
	const char *url;    /* the store */
	const char *install; /* --install: sh command booting a task's kernel */
	bool vm;            /* --vm: run a task's kernel image in a VM */
	int lease_s;        /* the lease of the tasks it claims */
	enum worker_mode mode;
};

/* an exit status (util/usage.h): 0, or 3 when the store failed */
int worker_main(const struct worker_opts *o);

#endif
