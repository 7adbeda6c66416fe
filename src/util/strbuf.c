/*
 * strbuf.c: growable strings (see strbuf.h).
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/xalloc.h"

/*
 * What an empty strbuf points at (alloc == 0): sb->buf is always a valid
 * NUL-terminated string, even before the first allocation, so callers
 * never test for NULL.  It is never written (strbuf_grow swaps it for a
 * real buffer before any write) and never freed (release tests alloc).
 */
char strbuf_slopbuf[1];

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = sb->len = 0;
	sb->buf = strbuf_slopbuf;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *p;

	strbuf_grow(sb, 0);
	p = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return p;
}

/*
 * Room for extra more bytes and the NUL.  The size at least doubles, so n
 * appends cost O(n) copies in all; 64 bytes at least, so the many short
 * strings (a stat name, a path) take one allocation.  st_add dies on
 * overflow rather than wrapping to a small buffer.
 */
void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = st_add(st_add(sb->len, extra), 1);

	if (need <= sb->alloc)
		return;
	/* the slop buffer is not ours to realloc */
	if (!sb->alloc)
		sb->buf = NULL;
	if (need < sb->alloc * 2)
		need = sb->alloc * 2;
	if (need < 64)
		need = 64;
	sb->buf = xrealloc(sb->buf, need);
	sb->alloc = need;
	if (sb->len == 0)
		sb->buf[0] = '\0';
}

/* shorten (or, within alloc, lengthen after writing into buf directly) */
void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (len > (sb->alloc ? sb->alloc - 1 : 0))
		BUG("strbuf_setlen beyond buffer: %zu", len);
	sb->len = len;
	if (sb->alloc)
		sb->buf[len] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void strbuf_addchars(struct strbuf *sb, int c, size_t n)
{
	strbuf_grow(sb, n);
	memset(sb->buf + sb->len, c, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other)
{
	strbuf_add(sb, other->buf, other->len);
}

/*
 * Format into the free space first; when it did not fit, vsnprintf said
 * how much it needs, so grow once and format again.  ap is copied for the
 * first try because a va_list can be walked only once.
 */
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		BUG("vsnprintf failed on '%s'", fmt);
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, (size_t)n);
		n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

/* isspace() for the C locale only: a locale must not change a parse */
static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

void strbuf_rtrim(struct strbuf *sb)
{
	while (sb->len && is_space(sb->buf[sb->len - 1]))
		sb->len--;
	if (sb->alloc)
		sb->buf[sb->len] = '\0';
}

void strbuf_trim(struct strbuf *sb)
{
	size_t i = 0;

	strbuf_rtrim(sb);
	while (i < sb->len && is_space(sb->buf[i]))
		i++;
	if (i) {
		memmove(sb->buf, sb->buf + i, sb->len - i);
		strbuf_setlen(sb, sb->len - i);
	}
}

/* one line ending off: "\n", or "\r\n" from a file written on Windows */
void strbuf_chomp(struct strbuf *sb)
{
	if (sb->len && sb->buf[sb->len - 1] == '\n')
		sb->len--;
	if (sb->len && sb->buf[sb->len - 1] == '\r')
		sb->len--;
	if (sb->alloc)
		sb->buf[sb->len] = '\0';
}

/*
 * Append all of fd until EOF.  On an error, or past max bytes (EFBIG:
 * max is the caller's bound on what a sane file of its kind holds, 0 for
 * none), sb is put back as it was, so the caller never sees half a file.
 */
int strbuf_read_fd(struct strbuf *sb, int fd, size_t max)
{
	size_t start = sb->len;

	for (;;) {
		ssize_t n;

		strbuf_grow(sb, 8192);
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			strbuf_setlen(sb, start);
			return -1;
		}
		if (n == 0)
			break;
		sb->len += (size_t)n;
		sb->buf[sb->len] = '\0';
		if (max && sb->len - start > max) {
			strbuf_setlen(sb, start);
			errno = EFBIG;
			return -1;
		}
	}
	return 0;
}

/* strbuf_read_fd on a file; errno is the read's, not close()'s */
int strbuf_read_file(struct strbuf *sb, const char *path, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret, saved;

	if (fd < 0)
		return -1;
	ret = strbuf_read_fd(sb, fd, max);
	saved = errno;
	close(fd);
	errno = saved;
	return ret;
}

/*
 * One line without its newline; EOF only when nothing was read, so a last
 * line without a newline is still a line.
 */
int strbuf_getline(struct strbuf *sb, FILE *fp)
{
	int c;

	strbuf_reset(sb);
	while ((c = getc(fp)) != EOF) {
		if (c == '\n')
			return 0;
		strbuf_addch(sb, c);
	}
	return sb->len ? 0 : EOF;
}

int strbuf_getline_max(struct strbuf *sb, FILE *fp, size_t max)
{
	int c;

	strbuf_reset(sb);
	while ((c = getc(fp)) != EOF) {
		if (c == '\n')
			return 0;
		if (sb->len >= max)
			return 1;
		strbuf_addch(sb, c);
	}
	return sb->len ? 0 : EOF;
}

/*
 * s as HTML text or a quoted attribute value: the five characters that can
 * end either are escaped, so a stat name or a job value can never become
 * markup (the pages' CSP is the second line of defence, not the first).
 */
void strbuf_add_html(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': strbuf_addstr(sb, "&amp;"); break;
		case '<': strbuf_addstr(sb, "&lt;"); break;
		case '>': strbuf_addstr(sb, "&gt;"); break;
		case '"': strbuf_addstr(sb, "&quot;"); break;
		case '\'': strbuf_addstr(sb, "&#39;"); break;
		default: strbuf_addch(sb, *s);
		}
	}
}

/*
 * s as a JSON string.  Bytes of 0x80 and up are copied as they are: the
 * text perfsift reads is UTF-8 (or ASCII), and JSON is UTF-8.
 */
void strbuf_add_json_str(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, c);
		} else if (c == '\n') {
			strbuf_addstr(sb, "\\n");
		} else if (c == '\t') {
			strbuf_addstr(sb, "\\t");
		} else if (c < 0x20) {
			strbuf_addf(sb, "\\u%04x", c);
		} else {
			strbuf_addch(sb, c);
		}
	}
	strbuf_addch(sb, '"');
}

/*
 * JSON has no NaN or infinity: a missing or undefined value is null.
 * %.12g keeps the figures a stat has without printing binary noise
 * (0.1 as 0.10000000000000001).
 */
void strbuf_add_json_num(struct strbuf *sb, double v)
{
	if (!isfinite(v))
		strbuf_addstr(sb, "null");
	else
		strbuf_addf(sb, "%.12g", v);
}

/* RFC 4180: quoted only when it must be, a quote doubled inside quotes */
void strbuf_add_csv_str(struct strbuf *sb, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		strbuf_addstr(sb, s);
		return;
	}
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		if (*s == '"')
			strbuf_addch(sb, '"');
		strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, '"');
}

/*
 * Plain when every character is one a shell leaves alone, else in single
 * quotes with each quote as '\'' (the one quote a single-quoted word
 * cannot hold).
 */
void strbuf_add_shell_word(struct strbuf *sb, const char *arg)
{
	const char *p;

	for (p = arg; *p; p++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			    "0123456789_@%+=:,./-", *p))
			break;
	if (*arg && !*p) {
		strbuf_addstr(sb, arg);
		return;
	}
	strbuf_addch(sb, '\'');
	for (p = arg; *p; p++) {
		if (*p == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '\'');
}
