/*
 * knob.h: kernel knobs (files under /proc/sys and /sys) that a job
 * changes.  Each knob's current value is written to a journal in the
 * result root *before* the knob is changed, so that whatever happens to
 * perfsift -- a benchmark crash, SIGINT, SIGTERM, a timeout, or perfsift
 * itself killed with SIGKILL -- the value can be put back: by
 * knob_restore_all() at the end of the run, or by the next perfsift
 * command / `perfsift restore` from the journal.
 *
 * Owned by the runner module (knob.c); setup programs (src/setup/) and
 * built-in benchmarks use it.
 */
#ifndef PERFSIFT_KNOB_H
#define PERFSIFT_KNOB_H

#include "util/compat.h"

struct strbuf;

/*
 * Where the journal lives (<result_root>/.knobs-journal) and the root of
 * the file system tree the knobs live in ("/" normally; tests point it at
 * a fake tree).  Call once before knob_set().
 */
void knob_init(const char *result_root, const char *sysroot);

/*
 * Save the knob's current value in the journal, then write value.  A knob
 * set twice keeps its first saved value.  -1 with err when the file is
 * missing or cannot be written (the caller decides if that is fatal).
 */
int knob_set(const char *path, const char *value, struct strbuf *err);

/* read a knob's value, trimmed (for THP files: the [selected] word) */
int knob_get(const char *path, struct strbuf *value);

/* restore every knob this process set, newest first; clears the journal */
int knob_restore_all(void);

/*
 * Restore what a previous, killed perfsift left in the journal of
 * result_root: the lines whose owner process is gone (a live perfsift's
 * lines are left alone).  The journal records the full path it wrote
 * (sysroot included), so no sysroot is needed here.  Says on stderr what
 * it restored; with verbose also which lines a running perfsift owns.  Returns
 * the number of knobs restored, or -1.  Creates nothing when there is no
 * journal.
 */
int knob_restore_journal(const char *result_root, bool verbose);

#endif
