/*
 * suggest.h: "did you mean ...?" -- the closest of a list of known names
 * to a mistyped one (Levenshtein distance), for job keys, programs and
 * commands.  The caller gives the candidates, so any table (job keys,
 * the program table, the command table) can feed it.
 */
#ifndef PERFSIFT_SUGGEST_H
#define PERFSIFT_SUGGEST_H

#include "util/compat.h"

/* the Levenshtein distance between a and b (insert, delete, substitute) */
size_t suggest_distance(const char *a, const char *b);

/*
 * The candidate closest to name, when it is a likely misspelling: within
 * max_distance edits and fewer edits than name has characters (so "ab"
 * does not suggest "xy").  NULL when none is, and when name is itself a
 * candidate.  On a tie the first candidate wins.
 */
const char *suggest_closest(const char *name, const char *const *candidates,
			    size_t n, size_t max_distance);

/*
 * How many edits make a likely typo of a name that may well be a valid
 * name of its own (an LKP job key perfsift does not know): none up to 4
 * characters ("mode" is not "model"), 1 up to 7, 2 beyond.
 */
size_t suggest_max_distance(const char *name);

#endif
