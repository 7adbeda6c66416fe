/*
 * fault.h: fault injection for the crash tests.  A test sets
 * PERFSIFT_FAULT=NAME and perfsift SIGKILLs itself when it reaches the
 * point called NAME -- deterministically, where a random kill would hit
 * the window one time in twenty.  Only builds with test hooks
 * (-DPERFSIFT_TEST_HOOKS: `make DEVELOPER=1` and sanitizer builds) read
 * the variable; a release build compiles every point away.
 *
 * The points (docs/design.md "Crash points"):
 *   after-publish   a run renamed into place, not yet indexed
 *   pull-files-written  a stored run's files written in its reservation,
 *                   not yet renamed into place
 *   push-files-stored  a pushed run's files in the store, not yet indexed
 *   lab-run-files-stored  a worker's run indexed and its files in the
 *                   store, not yet counted in lab_task_runs (t8006)
 */
#ifndef PERFSIFT_FAULT_H
#define PERFSIFT_FAULT_H

/* said by `perfsift --version`, so a test asks the binary, not its bytes */
#ifdef PERFSIFT_TEST_HOOKS
#define FAULT_HOOKS_BUILT 1
void fault_point(const char *name);
#else
#define FAULT_HOOKS_BUILT 0
static inline void fault_point(const char *name)
{
	(void)name;
}
#endif

#endif
