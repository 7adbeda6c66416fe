/*
 * trust.h: the checks for text perfsift did not write itself (a store's
 * rows, a robot config, a plug-in's output) before it becomes a path, a
 * mail header, a command-line argument or terminal output, and the
 * redaction of a URL's password wherever a URL is printed
 * (docs/security.md, issue 25).  One place, so every caller refuses the
 * same things.
 */
#ifndef PERFSIFT_TRUST_H
#define PERFSIFT_TRUST_H

#include "util/compat.h"
#include "util/strbuf.h"

/* s holds a control character (0x00-0x1f, DEL): ESC, BEL, CR, LF, TAB... */
bool trust_has_ctl(const char *s);
/*
 * The first control byte of the len bytes at s (NUL among them, so a
 * line read with its length is checked whole), TAB passing when tab_ok
 * (a CSV field separator may be one); -1 when there is none.  The one
 * definition of a control byte: trust_has_ctl() is this on a string.
 */
int trust_first_ctl(const char *s, size_t len, bool tab_ok);
/*
 * s holds a bidirectional control (U+202A-U+202E, U+2066-U+2069,
 * U+200E/U+200F, U+061C): a name with U+202E (right-to-left override)
 * displays as another name in a terminal or the site (the third attack,
 * L10).  NULL, or why (TRUST_BIDI_WHY).
 */
#define TRUST_BIDI_WHY "a bidirectional control (U+202A-U+202E, U+2066-U+2069, " \
	"U+200E, U+200F or U+061C: it would display as another name)"
const char *trust_bidi_why(const char *s);
/* the same for len bytes that need not end in a NUL (a store's file row) */
const char *trust_bidi_why_len(const char *s, size_t len);
/*
 * s is valid UTF-8 without a C1 control character (U+0080-U+009F): a
 * raw 0x9b byte or U+009B is CSI to some terminals, and a name that is
 * not UTF-8 makes the run's own job.yaml unreadable -- nor a
 * bidirectional control (trust_bidi_why()).  NULL, or why.
 */
const char *trust_utf8_why(const char *s);
/*
 * s is one plain directory entry: not empty, not "." or "..", no '/',
 * no control character, no bidirectional control (trust_bidi_why()).
 * NULL when fine, else why (static text).
 */
const char *trust_name_why(const char *s);
/*
 * s may be a stat name (as a plug-in's parse script, a raw file, a
 * stats.json or matrix.json pulled from a store gives it): not empty,
 * no part of it empty ("x..y", "x."), no control character -- ESC or BEL
 * would reach the terminal of whoever runs compare.  '/' stays: LKP's
 * own names have it ("ops/s", "M/sec"), and a stat name is never a path.
 * NULL when fine, else why.
 */
const char *trust_stat_why(const char *s);
/*
 * s is a relative path of plain entries (trust_name_why() each): not
 * absolute, no empty part, no "." or "..".  NULL when fine, else why.
 */
const char *trust_relpath_why(const char *s);
/*
 * The same for len bytes that need not end in a NUL (a store's file
 * row): read no further than them, and one inside is refused too.  The
 * one check of a path from outside, pull's directories and its files.
 */
const char *trust_relpath_why_len(const char *s, size_t len);
/*
 * s may be given to a program as an argument that is not an option: not
 * empty, no leading '-', no control character.  NULL when fine, else why.
 */
const char *trust_arg_why(const char *s);
/*
 * s with every control character and backslash written as \xHH, for a
 * message or a listing that shows text from outside (never the terminal
 * escapes themselves)
 */
void trust_escape(struct strbuf *out, const char *s);
/*
 * A message for the terminal, whose parts may be the command line's own
 * text (a --result-root, a job path, an option: the fourth attack, L12):
 * s into dst (size bytes, cut to fit, always NUL-ended) with every
 * control byte but LF and TAB, and every C1 control in UTF-8 (U+0080-
 * U+009F, C2 80-9F: U+009B is a CSI to some terminals), written as
 * \xHH.  A backslash stays: an escaped name's "\x1b" reads as it was
 * escaped.  Never allocates: die() uses it, on every message.
 */
void trust_escape_msg(char *dst, size_t size, const char *s);
/*
 * trust_escape() of s into a static buffer (12 in turn, shared with
 * trust_redacted(): a table row may show
 * 8 fields and a URL), for a printf of a store's text -- a worker's name, its
 * facts, a task's last error, which a compromised box may write
 */
const char *trust_shown(const char *s);
/*
 * url with its password (the "user:PASSWORD@" of a URL, a password=...
 * of a libpq key=value string or URL query) replaced by "***": the only
 * way a store URL is printed
 */
void trust_redact_url(struct strbuf *out, const char *url);
/*
 * Another program's message about url (libpq's "... in URI: \"URL\"",
 * "invalid percent-encoded token: \"PASSWORD\""): url and each password
 * in it replaced, as trust_redact_url() shows them.
 */
void trust_redact_text(struct strbuf *text, const char *url);
/* trust_redact_url() into a static buffer (the ring of trust_shown(), 12 in turn) */
const char *trust_redacted(const char *url);

/*
 * A JSON parser's message (jansson's error text) without its "near
 * '...'": that is the file's own text, and a stats.json that is a link
 * to /etc/shadow quoted its first word (the third attack, B5).  Into
 * the ring of trust_shown().
 */
const char *trust_json_why(const char *text);
/*
 * The file `perfsift pull` leaves in each run directory it wrote: the
 * run's files came from a shared store, written by whoever may write
 * there, so they are data only -- no NAME.plugin or job_origin of such a
 * run names a plug-in, and nothing below it is ever run (issue 25 F2).
 */
#define TRUST_PULLED_MARK ".perfsift-pulled"
/* dir, or a directory above it, holds TRUST_PULLED_MARK */
bool trust_inside_pulled(const char *dir);
/*
 * Mark dir as data only: TRUST_PULLED_MARK, holding note (who sent it).
 * 0, or -1 with err.  Used by pull and by the VM path for a guest's run.
 */
int trust_mark_pulled(const char *dir, const char *note, struct strbuf *err);

#endif
