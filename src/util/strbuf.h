/*
 * strbuf.h: growable strings with git's invariants.
 *
 *  - buf is never NULL and always NUL-terminated (STRBUF_INIT points it at a
 *    shared empty string until the first growth);
 *  - len is the string length, alloc the capacity (0 while unallocated);
 *  - strbuf_detach() is the only way to take ownership of buf.
 *
 * Renderers append to a caller's strbuf; they never print.
 */
#ifndef PERFSIFT_STRBUF_H
#define PERFSIFT_STRBUF_H

#include "util/compat.h"
#include <stdarg.h>
#include <stdio.h>

struct strbuf {
	size_t alloc; /* capacity, 0 = buf is the shared empty string */
	size_t len;   /* length, excluding the NUL */
	char *buf;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT {0, 0, strbuf_slopbuf}

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
/* hand the buffer to the caller (who frees it) and reset sb */
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_setlen(struct strbuf *sb, size_t len);
#define strbuf_reset(sb) strbuf_setlen(sb, 0)

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addchars(struct strbuf *sb, int c, size_t n);
void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) PRINTF_LIKE(2, 3);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	PRINTF_LIKE(2, 0);

void strbuf_trim(struct strbuf *sb);
void strbuf_rtrim(struct strbuf *sb);
/* strip a trailing newline (and \r) */
void strbuf_chomp(struct strbuf *sb);

/* read a whole stream / file (size capped at max, 0 = no cap); -1 on error */
int strbuf_read_fd(struct strbuf *sb, int fd, size_t max);
int strbuf_read_file(struct strbuf *sb, const char *path, size_t max);
/* one line without its newline; returns EOF at end of file */
int strbuf_getline(struct strbuf *sb, FILE *fp);
/* the same, at most max bytes: 1 when the line is longer (the rest unread) */
int strbuf_getline_max(struct strbuf *sb, FILE *fp, size_t max);

/* append s with XML/HTML special characters escaped */
void strbuf_add_html(struct strbuf *sb, const char *s);
/* append s as a JSON string literal, quotes included */
void strbuf_add_json_str(struct strbuf *sb, const char *s);
/* a JSON number (%.12g), null when not finite */
void strbuf_add_json_num(struct strbuf *sb, double v);
/* a CSV field, quoted (RFC 4180) when it holds a comma, quote or newline */
void strbuf_add_csv_str(struct strbuf *sb, const char *s);
/* arg as one shell word that reads back as arg (a command to paste:
 * mytest.cmdline, the reports' commands) */
void strbuf_add_shell_word(struct strbuf *sb, const char *arg);

#endif
