/*
 * knob.h: kernel knobs (files under /proc/sys and /sys) that a job
 * changes.  The knobs belong to the machine, not to a result root, so
 * the undo journal is machine-wide ($PERFSIFT_KNOB_DIR, else /run/perfsift)
 * and every perfsift on the machine shares it under one flock: the first
 * perfsift to change a knob records its original value, later ones join
 * as users of it, and the value is put back when the last user releases
 * it -- at the end of its run, on die(), or, when perfsift itself was
 * killed (SIGKILL, a crash), by the next perfsift command or
 * `perfsift restore`.  See docs/design.md "Kernel knobs".
 *
 * Owned by the runner module (knob.c); setup programs (src/setup/) and
 * built-in benchmarks use it.
 */
#ifndef PERFSIFT_KNOB_H
#define PERFSIFT_KNOB_H

#include "util/compat.h"

struct strbuf;

/* the journal's directory: $PERFSIFT_KNOB_DIR, /run/perfsift for root */
void knob_journal_dir(struct strbuf *out);

/*
 * The root of the file system tree the knobs live in ("/" normally;
 * tests point it at a fake tree).  Call once before knob_set(); a knob
 * this process still holds is released first.
 */
void knob_init(const char *sysroot);

/*
 * Join the knob's users in the journal (the first user records the value
 * it finds, later ones inherit that original), then write value.  A knob
 * set twice by one process keeps its original.  -1 with err when the file
 * is missing or cannot be written, or when another running perfsift holds
 * the knob at a different value (its measurement would be spoiled).
 */
int knob_set(const char *path, const char *value, struct strbuf *err);

/*
 * Is path (as the kernel names it) a knob perfsift may touch?  It must be
 * under /proc/sys, /sys/kernel/mm or /sys/devices/system/cpu, have no
 * "." or ".." part, exist, not be a symbolic link itself and, every link
 * followed, stay inside its tree (both resolved under the sysroot).
 * 0, or -1 with err.  knob_get() and knob_set() check it first.
 */
int knob_check(const char *path, struct strbuf *err);

/* read a knob's value, trimmed (for THP files: the [selected] word) */
int knob_get(const char *path, struct strbuf *value);

/*
 * What this process applied, one line each "<path> <original> -> <value>"
 * (path relative to the sysroot): the run's record of its knobs.
 */
void knob_applied(struct strbuf *out);

/*
 * Release every knob this process set: drop it from the journal, and put
 * the original value back unless another running perfsift still uses it.
 */
int knob_restore_all(void);

/*
 * Put back what killed perfsifts left: every knob whose users in the
 * journal are all gone gets its original value.  Says on stderr what it
 * restored; with verbose also which knobs a running perfsift holds.
 * Returns the number of knobs restored, or -1.  Creates nothing when
 * there is no journal.
 */
int knob_restore_journal(bool verbose);

#endif
