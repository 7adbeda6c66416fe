/*
 * setup.h: LKP's setup programs -- the kernel knobs a job sets before its
 * benchmark (transparent_hugepage, sysctl, cpufreq_governor, drop_caches).
 * The runner calls setup_apply() once per run, after knob_init(); every
 * persistent knob goes through knob_set(), so it is journaled first and
 * put back by knob_restore_all() (or by the next perfsift after a crash).
 *
 * Owned by the setup module (src/setup/); the runner is the caller.
 */
#ifndef PERFSIFT_SETUP_H
#define PERFSIFT_SETUP_H

#include "util/compat.h"

struct job;
struct jnode;
struct strbuf;

/*
 * A setup program's apply (program_apply_fn in programs.h, where the
 * table of programs names each one) gets the job's value for the
 * program's key (a mapping of options, a scalar, or NULL for `key:`),
 * appends one line per action to log ("transparent_hugepage: enabled
 * madvise -> always"), and returns 0, or -1 with err when a knob the job
 * asks for cannot be set.  A program that does not exist on this machine
 * at all (no cpufreq driver) logs that and returns 0: the run goes on.
 */

/*
 * Apply every setup program the job names, in the job's key order.
 * 0, or -1 with err (the run must not start; the knobs set so far are in
 * the journal and knob_restore_all() puts them back).  setup_apply()
 * works on the real machine; setup_apply_at() looks things up (which
 * CPUs have cpufreq, where a sysctl lives) under sysroot -- pass the
 * same root that was given to knob_init().
 */
int setup_apply(const struct job *job, struct strbuf *log, struct strbuf *err);
int setup_apply_at(const struct job *job, const char *sysroot,
		   struct strbuf *log, struct strbuf *err);

/* the programs (one file each) */
int setup_thp(const struct jnode *value, const char *sysroot,
	      struct strbuf *log, struct strbuf *err);
int setup_sysctl(const struct jnode *value, const char *sysroot,
		 struct strbuf *log, struct strbuf *err);
int setup_cpufreq(const struct jnode *value, const char *sysroot,
		  struct strbuf *log, struct strbuf *err);
int setup_drop_caches(const struct jnode *value, const char *sysroot,
		      struct strbuf *log, struct strbuf *err);
/*
 * Before anything runs (program_check_fn): every sc_NAME of the sysctl
 * mapping names a sysctl under sysroot; 0, or -1 with err as
 * `FILE:LINE: sysctl.sc_NAME: ...`.
 */
int setup_sysctl_check(const struct jnode *value, const char *sysroot,
		       struct strbuf *err);

/*
 * What is wrong with sysctl name (sc_NAME without "sc_") as a path under
 * /proc/sys/<dir>/ -- empty, absolute, a '..' part, odd characters -- or
 * NULL when nothing is.  The job check calls it, so `split` refuses it.
 */
const char *sysctl_name_problem(const char *name);

/*
 * Shared helper: set the knob at path (absolute, as the kernel names it:
 * "/sys/kernel/mm/transparent_hugepage/enabled") through knob_set(),
 * logging "<prog>: <what> <old> -> <new>".
 */
int setup_knob(const char *prog, const char *what, const char *path,
	       const char *value, struct strbuf *log, struct strbuf *err);

#endif
