/*
 * wis_cases.h: the testcases of will-it-scale (built in, wis.c runs
 * them).  A testcase is one operation repeated forever by every task --
 * a page fault, a pipe round trip, a getppid() -- counting each operation
 * in its own counter, which the harness reads from outside; the task
 * never stops by itself: the harness kills it (a process) or its whole
 * thread group when the measurement is over, as will-it-scale's own
 * harness does.  Each testcase is written from what LKP's will-it-scale
 * testcase of that name is documented to do (its one-line description is
 * `desc`), not from its code.
 */
#ifndef PERFSIFT_WIS_CASES_H
#define PERFSIFT_WIS_CASES_H

#include "util/compat.h"

struct strbuf;

/* one task of a testcase: what its loop needs */
struct wis_task {
	unsigned nr;          /* 0 .. nr_tasks-1: the "different offsets" cases use it */
	const char *dir;      /* where its own files go (the run's scratch directory) */
	const char *shared;   /* the file every task shares (the "same file" cases) */
	uint64_t *iterations; /* its counter, in memory the harness reads */
	const char *label;    /* "page_fault1_processes", for failure messages */
	/* start a partner task of the same kind (context_switch1's other end) */
	int (*new_task)(void *(*fn)(void *), void *arg);
};

struct wis_case {
	const char *name; /* LKP's: page_fault1 */
	const char *desc; /* what one loop iteration does */
	/*
	 * Before the tasks start, once per mode: make the file every task
	 * shares (in dir, its name into shared[PATH_MAX]); 0, or -1 with err.
	 * NULL: the testcase shares nothing.
	 */
	int (*prepare)(const char *dir, unsigned nr_tasks, char *shared,
		       struct strbuf *err);
	/* fd slots one task needs beyond a handful (poll2: 128), for RLIMIT_NOFILE */
	unsigned nr_files;
	/* the operation, forever (it never returns) */
	void (*loop)(struct wis_task *t);
};

/* the testcase called name, or NULL */
const struct wis_case *wis_case_find(const char *name);
/* true when name is a testcase (the program table's check of `test:`) */
bool wis_case_known(const char *name);
/* testcase i in name order, NULL past the last */
const struct wis_case *wis_case_at(size_t i);
/* its name (the program table's list of `test:` values), NULL past the last */
const char *wis_case_name(size_t i);

/*
 * A failed operation: writes `LABEL: FILE:LINE: Assertion `WHAT' failed.`
 * to stdout (LKP's parser makes it a stat) and ends the task's process.
 */
NORETURN void wis_fail(const struct wis_task *t, const char *what, int line);
#define WIS_CHECK(t, cond)                                                     \
	do {                                                                   \
		if (!(cond))                                                   \
			wis_fail((t), #cond, __LINE__);                        \
	} while (0)

/* count n operations: one writer per counter, read by the harness */
static inline void wis_count(uint64_t *it, uint64_t n)
{
	__atomic_store_n(it, *it + n, __ATOMIC_RELAXED);
}

#endif
