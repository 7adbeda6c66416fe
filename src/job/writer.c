/*
 * writer.c: a job tree as YAML text (see job_to_yaml() in job.h), for
 * split's atomic job files and each run's job.yaml.  Written by hand, not
 * with libyaml's emitter: the output must look as LKP's Ruby writes it
 * (lists at their key's indentation, plain scalars wherever YAML allows),
 * so that LKP's tools and people diffing job files see the usual shape.
 */
#include "util/compat.h"
#include <string.h>
#include <strings.h>
#include "job/job.h"
#include "util/strbuf.h"

/*
 * Whether s must be double-quoted to read back as the same string: empty,
 * a null word, a leading indicator character, a document marker, blanks
 * or ':' at an end, ": " or " #" inside, or any control character.
 */
static bool needs_quotes(const char *s)
{
	const char *p;

	if (!*s || !strcmp(s, "~") || !strcasecmp(s, "null"))
		return true;
	if (strchr("?:,[]{}#&*!|>'\"%@`", *s))
		return s[1] == ' ' || !s[1] || !strchr("?:", *s);
	if (*s == '-' && (s[1] == ' ' || !s[1] || !strncmp(s, "---", 3)))
		return true;
	if (!strncmp(s, "...", 3))
		return true;
	if (*s == ' ' || s[strlen(s) - 1] == ' ' || s[strlen(s) - 1] == ':')
		return true;
	if (strstr(s, ": ") || strstr(s, " #"))
		return true;
	for (p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return true;
	return false;
}

/*
 * A scalar plain where YAML reads it back unchanged, else double-quoted
 * with the escapes libyaml reads: a job written and read again is the
 * same job (split's files, and a run's job.yaml read by the result root).
 */
static void emit_scalar(struct strbuf *out, const char *s)
{
	const char *p;

	if (!needs_quotes(s)) {
		strbuf_addstr(out, s);
		return;
	}
	strbuf_addch(out, '"');
	for (p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '"' || c == '\\')
			strbuf_addf(out, "\\%c", c);
		else if (c == '\n')
			strbuf_addstr(out, "\\n");
		else if (c == '\t')
			strbuf_addstr(out, "\\t");
		else if (c < 0x20 || c == 0x7f)
			strbuf_addf(out, "\\x%02x", c);
		else
			strbuf_addch(out, (char)c);
	}
	strbuf_addch(out, '"');
}

static void emit_map(struct strbuf *out, const struct jnode *m, int indent,
		     bool inline_first);
static void emit_seq(struct strbuf *out, const struct jnode *s, int indent,
		     bool inline_first);

/* the rest of a line after `key:` or `-`, and what follows */
static void emit_value(struct strbuf *out, const struct jnode *v, int indent,
		       bool in_seq)
{
	switch (v->type) {
	case JNODE_NULL:
		strbuf_addch(out, '\n');
		break;
	case JNODE_SCALAR:
		strbuf_addch(out, ' ');
		emit_scalar(out, v->text);
		strbuf_addch(out, '\n');
		break;
	case JNODE_MAP:
		if (!v->n) {
			strbuf_addstr(out, " {}\n");
		} else if (in_seq) {
			strbuf_addch(out, ' ');
			emit_map(out, v, indent + 2, true);
		} else {
			strbuf_addch(out, '\n');
			emit_map(out, v, indent + 2, false);
		}
		break;
	case JNODE_SEQ:
		if (!v->n) {
			strbuf_addstr(out, " []\n");
		} else if (in_seq) {
			strbuf_addch(out, ' ');
			emit_seq(out, v, indent + 2, true);
		} else {
			/* lists at their key's indentation, as Ruby writes them */
			strbuf_addch(out, '\n');
			emit_seq(out, v, indent, false);
		}
		break;
	}
}

static void emit_map(struct strbuf *out, const struct jnode *m, int indent,
		     bool inline_first)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		if (i || !inline_first)
			strbuf_addchars(out, ' ', (size_t)indent);
		emit_scalar(out, m->keys[i]);
		strbuf_addch(out, ':');
		emit_value(out, m->kids[i], indent, false);
	}
}

static void emit_seq(struct strbuf *out, const struct jnode *s, int indent,
		     bool inline_first)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (i || !inline_first)
			strbuf_addchars(out, ' ', (size_t)indent);
		strbuf_addch(out, '-');
		emit_value(out, s->kids[i], indent, true);
	}
}

void job_to_yaml(const struct job *job, struct strbuf *out)
{
	strbuf_addstr(out, "---\n");
	emit_map(out, job->root, 0, false);
}
