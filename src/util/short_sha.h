/*
 * short_sha.h: how many hex digits of a commit perfsift prints when it
 * shortens one -- in a mail's Subject and Message-ID, the robot's status
 * and notes, bisect's steps and summary, every error naming a commit.
 *
 * One length, stated here, so that a reader can paste the commit from a
 * Subject into a grep of the robot's log or of --status and find it.  Ten,
 * as LKP's reports and the seed's Subject cut it: unique in trees the size
 * of Linux's, and short enough for a Subject line.
 *
 * Print one with "%.*s", SHORT_SHA_LEN, sha (a column: "%-*.*s",
 * SHORT_SHA_LEN, SHORT_SHA_LEN, sha).  It lives in util/ so that every
 * folder may include it without an edge up the include graph.
 */
#ifndef PERFSIFT_SHORT_SHA_H
#define PERFSIFT_SHORT_SHA_H

#include "util/compat.h"

/* an int, as printf's "*" precision wants */
#define SHORT_SHA_LEN 10

#endif
