/*
 * trust.c: checks of outside text and URL redaction (util/trust.h).
 */
#include "util/compat.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include "util/fileutil.h"
#include "util/trust.h"

int trust_first_ctl(const char *s, size_t len, bool tab_ok)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < 0x20 && !(tab_ok && c == '\t')) || c == 0x7f)
			return c;
	}
	return -1;
}

bool trust_has_ctl(const char *s)
{
	return trust_first_ctl(s, strlen(s), false) >= 0;
}

const char *trust_bidi_why_len(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	/*
	 * By their UTF-8 bytes, so that a name that is no UTF-8 otherwise
	 * (trust_name_why() does not ask) is searched too: U+200E/U+200F
	 * and U+202A-U+202E are E2 80 xx, U+2066-U+2069 E2 81 xx, U+061C
	 * D8 9C.
	 */
	for (i = 0; i + 1 < len; i++) {
		if (p[i] == 0xd8 && p[i + 1] == 0x9c)
			return TRUST_BIDI_WHY;
		if (p[i] != 0xe2 || i + 2 >= len)
			continue;
		if ((p[i + 1] == 0x80 &&
		     (p[i + 2] == 0x8e || p[i + 2] == 0x8f ||
		      (p[i + 2] >= 0xaa && p[i + 2] <= 0xae))) ||
		    (p[i + 1] == 0x81 && p[i + 2] >= 0xa6 && p[i + 2] <= 0xa9))
			return TRUST_BIDI_WHY;
	}
	return NULL;
}

const char *trust_bidi_why(const char *s)
{
	return trust_bidi_why_len(s, strlen(s));
}

const char *trust_utf8_why(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		unsigned int c = *p, n, i;

		if (c < 0x80) {
			p++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			n = 1;
		else if (c >= 0xe0 && c <= 0xef)
			n = 2;
		else if (c >= 0xf0 && c <= 0xf4)
			n = 3;
		else
			return "bytes that are not UTF-8";
		c &= 0x3f >> n;
		for (i = 1; i <= n; i++) {
			if ((p[i] & 0xc0) != 0x80)
				return "bytes that are not UTF-8";
			c = c << 6 | (p[i] & 0x3f);
		}
		/* overlong forms, UTF-16 surrogates, past U+10FFFF */
		if ((n == 2 && c < 0x800) || (n == 3 && c < 0x10000) ||
		    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
			return "bytes that are not UTF-8";
		if (c >= 0x80 && c <= 0x9f)
			return "a C1 control character (U+0080-U+009F: U+009B is a "
			       "terminal's CSI)";
		p += n + 1;
	}
	return trust_bidi_why(s);
}

const char *trust_name_why(const char *s)
{
	if (!*s)
		return "an empty name";
	if (!strcmp(s, ".") || !strcmp(s, ".."))
		return "'.' or '..'";
	if (strchr(s, '/'))
		return "a '/' in a name";
	if (trust_has_ctl(s))
		return "a control character";
	return trust_bidi_why(s);
}

const char *trust_stat_why(const char *s)
{
	size_t n = strlen(s);

	if (!n)
		return "an empty stat name";
	if (trust_has_ctl(s))
		return "a control character in a stat name";
	if (s[0] == '.' || s[n - 1] == '.' || strstr(s, ".."))
		return "an empty part in a stat name";
	return NULL;
}

const char *trust_relpath_why_len(const char *s, size_t len)
{
	size_t i, end;

	if (!len)
		return "an empty path";
	/* a NUL inside would make the path another than the bytes say */
	if (memchr(s, '\0', len))
		return "a NUL byte";
	if (*s == '/')
		return "an absolute path";
	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return "a control character";
	if (trust_bidi_why_len(s, len))
		return TRUST_BIDI_WHY;
	for (i = 0;; i = end + 1) {
		const char *slash = memchr(s + i, '/', len - i);

		end = slash ? (size_t)(slash - s) : len;
		if (end == i)
			return "an empty part";
		if ((end - i == 1 && s[i] == '.') ||
		    (end - i == 2 && s[i] == '.' && s[i + 1] == '.'))
			return "a '.' or '..' part";
		if (end == len)
			return NULL;
	}
}

const char *trust_relpath_why(const char *s)
{
	return trust_relpath_why_len(s, strlen(s));
}

const char *trust_arg_why(const char *s)
{
	if (!*s)
		return "empty";
	if (*s == '-')
		return "it starts with '-' (it would be an option)";
	if (trust_has_ctl(s))
		return "a control character";
	return NULL;
}

void trust_escape(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f || c == '\\')
			strbuf_addf(out, "\\x%02x", c);
		else
			strbuf_addch(out, (char)c);
	}
}

void trust_escape_msg(char *dst, size_t size, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;

	if (!size)
		return;
	for (; *p; p++) {
		/* a C1 control in UTF-8 is two bytes: both shown */
		size_t esc = (*p < 0x20 && *p != '\n' && *p != '\t') ||
			     *p == 0x7f ? 1 :
			     *p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f ? 2 : 0;

		if (!esc) {
			if (n + 1 >= size)
				break;
			dst[n++] = (char)*p;
			continue;
		}
		if (n + 4 * esc >= size)
			break;
		n += (size_t)snprintf(dst + n, size - n, "\\x%02x", *p);
		if (esc == 2) {
			p++;
			n += (size_t)snprintf(dst + n, size - n, "\\x%02x", *p);
		}
	}
	dst[n] = '\0';
}

/* the length of a "password=" key at p (case as libpq spells it), or 0 */
static size_t password_key(const char *p)
{
	static const char key[] = "password=";

	return !strncmp(p, key, sizeof(key) - 1) ? sizeof(key) - 1 : 0;
}

/* trust_redact_url(); each value hidden appended to secrets, NUL-ended */
static void redact(struct strbuf *out, const char *url, struct strbuf *secrets)
{
	const char *scheme = strstr(url, "://"), *p = url;

	if (scheme) {
		const char *auth = scheme + 3;
		const char *end = auth + strcspn(auth, "/?#");
		const char *at = NULL, *q, *colon;

		/* the last '@' of the authority: a password may hold '@' */
		for (q = auth; q < end; q++)
			if (*q == '@')
				at = q;
		if (at) {
			colon = memchr(auth, ':', (size_t)(at - auth));
			if (colon) {
				strbuf_add(out, url, (size_t)(colon + 1 - url));
				strbuf_addstr(out, "***");
				if (secrets) {
					strbuf_add(secrets, colon + 1,
						   (size_t)(at - colon - 1));
					strbuf_addch(secrets, '\0');
				}
				p = at;
			}
		}
	}
	/* key=value strings and URL queries: password=... up to a blank or & */
	while (*p) {
		size_t k = password_key(p);
		bool start = p == url || p[-1] == ' ' || p[-1] == '?' ||
			     p[-1] == '&' || p[-1] == '\t';

		if (k && start) {
			const char *v;

			strbuf_add(out, p, k);
			strbuf_addstr(out, "***");
			p += k;
			v = p;
			if (*p == '\'') { /* libpq's quoted value */
				for (p++; *p && *p != '\''; p++)
					if (*p == '\\' && p[1])
						p++;
				if (*p)
					p++;
			} else {
				p += strcspn(p, " \t&#");
			}
			if (secrets) {
				strbuf_add(secrets, v, (size_t)(p - v));
				strbuf_addch(secrets, '\0');
			}
			continue;
		}
		strbuf_addch(out, *p++);
	}
}

void trust_redact_url(struct strbuf *out, const char *url)
{
	redact(out, url, NULL);
}

/* every occurrence of what in text replaced by with */
static void replace_all(struct strbuf *text, const char *what, const char *with)
{
	struct strbuf out = STRBUF_INIT;
	size_t n = strlen(what);
	const char *p = text->buf, *q;

	if (!n)
		return;
	while ((q = strstr(p, what))) {
		strbuf_add(&out, p, (size_t)(q - p));
		strbuf_addstr(&out, with);
		p = q + n;
	}
	if (p == text->buf) {
		strbuf_release(&out);
		return;
	}
	strbuf_addstr(&out, p);
	strbuf_reset(text);
	strbuf_addbuf(text, &out);
	strbuf_release(&out);
}

void trust_redact_text(struct strbuf *text, const char *url)
{
	struct strbuf red = STRBUF_INIT, secrets = STRBUF_INIT;
	size_t i;

	redact(&red, url, &secrets);
	replace_all(text, url, red.buf);
	for (i = 0; i < secrets.len; i += strlen(secrets.buf + i) + 1)
		replace_all(text, secrets.buf + i, "***");
	strbuf_release(&red);
	strbuf_release(&secrets);
}

/*
 * The buffers trust_shown() and trust_redacted() return: one ring, so a
 * caller may hold the last 12 results of either (a printf of several
 * names and a URL) without freeing anything.
 */
static struct strbuf *ring_next(void)
{
	static struct strbuf bufs[12];
	static unsigned next;
	struct strbuf *b = &bufs[next++ % ARRAY_SIZE(bufs)];

	if (!b->buf)
		strbuf_init(b, 0);
	strbuf_reset(b);
	return b;
}

const char *trust_shown(const char *s)
{
	struct strbuf *b = ring_next();

	if (s)
		trust_escape(b, s);
	return b->buf;
}

const char *trust_redacted(const char *url)
{
	struct strbuf *b = ring_next();

	if (url)
		trust_redact_url(b, url);
	return b->buf;
}

bool trust_inside_pulled(const char *dir)
{
	char real[PATH_MAX];
	struct strbuf mark = STRBUF_INIT;
	struct stat st;
	bool found = false;
	char *slash;

	/* every link followed: a link into a pulled run is inside it */
	if (!realpath(dir, real))
		return false;
	for (;;) {
		strbuf_reset(&mark);
		strbuf_addf(&mark, "%s/%s", real, TRUST_PULLED_MARK);
		if (!lstat(mark.buf, &st)) {
			found = true;
			break;
		}
		slash = strrchr(real, '/');
		if (!slash || slash == real)
			break;
		*slash = '\0';
	}
	strbuf_release(&mark);
	return found;
}

int trust_mark_pulled(const char *dir, const char *note, struct strbuf *err)
{
	struct strbuf mark = STRBUF_INIT;
	int ret = 0;

	path_join(&mark, dir, TRUST_PULLED_MARK);
	if (write_file_atomic(mark.buf, note, strlen(note)) < 0) {
		strbuf_addf(err, "cannot write '%s': %s", mark.buf,
			    strerror(errno));
		ret = -1;
	}
	strbuf_release(&mark);
	return ret;
}

const char *trust_json_why(const char *text)
{
	struct strbuf *b = ring_next();
	const char *near = strstr(text, " near ");

	strbuf_reset(b);
	strbuf_add(b, text, near ? (size_t)(near - text) : strlen(text));
	return b->buf;
}
