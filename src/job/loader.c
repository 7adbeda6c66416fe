/*
 * loader.c: LKP job files read with libyaml's event parser into the job
 * tree (see job.h).  The event parser rather than libyaml's document
 * loader: it gives each value's line, keeps key order, and lets the
 * loader refuse duplicate keys and an alias bomb before building them.
 * Errors name file, line and key (`FILE:LINE: KEY: what`), in plain words
 * instead of libyaml's; the checks themselves are check.c's.
 */
#include "util/compat.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "job/internal.h"
#include "job/lkp_cluster.h"
#include "job/job.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/xalloc.h"

/* nesting deeper than this is not a job file */
#define MAX_DEPTH 64
/*
 * Values in one job file, aliases expanded and documents merged: real job
 * files hold a few hundred; the cap stops a YAML alias bomb ("billion
 * laughs": nine lines that expand to 10^9 values) before it eats memory.
 */
#define MAX_NODES 100000
/* bytes in a job file (LKP's biggest are a few KiB) */
#define MAX_FILE_SIZE (1 << 20)

/*
 * An anchor (`&name`) seen so far in the document.  Its size and height
 * are kept so that an alias to it is weighed before it is copied.
 */
struct anchor {
	char *name;
	const struct jnode *node;
	size_t size;   /* nodes in it: what an alias to it adds */
	int height;    /* levels below it: how much deeper an alias nests */
};

/*
 * One load: libyaml's parser and, for messages, the whole text (libyaml
 * gives a line number; the message also names the key written there).
 */
struct loader {
	yaml_parser_t parser;
	const char *text;
	size_t len;
	const char *file; /* the job's file name string, borrowed */
	struct strbuf *err;
	char *last_key;	  /* the last key read, for messages */
	struct anchor *anchors;
	size_t nr_anchors, alloc_anchors;
	size_t nodes;     /* built so far, aliases expanded (MAX_NODES) */
};

/* the key a message names when the event has none of its own */
static const char *last_key(const struct loader *ld)
{
	return ld->last_key ? ld->last_key : "yaml";
}

/*
 * The text of line `line` (1-based) into sb.  A walk from the top each
 * time: it only runs on the way to an error message.
 */
static void get_line(const struct loader *ld, int line, struct strbuf *sb)
{
	const char *p = ld->text, *end = ld->text + ld->len, *eol;
	int l = 1;

	strbuf_reset(sb);
	while (p < end && l < line) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			return;
		p = eol + 1;
		l++;
	}
	eol = memchr(p, '\n', (size_t)(end - p));
	strbuf_add(sb, p, eol ? (size_t)(eol - p) : (size_t)(end - p));
}

/*
 * Lines in the text, the last one counted without its newline: libyaml
 * places the end of a file one line past it, where no key is written.
 */
static int count_lines(const struct loader *ld)
{
	int n = 0;
	size_t i;

	for (i = 0; i < ld->len; i++)
		if (ld->text[i] == '\n')
			n++;
	if (ld->len && ld->text[ld->len - 1] != '\n')
		n++;
	return n ? n : 1;
}

/* the key written on a line (`  key: ...` or `- key: ...`) into sb */
static bool line_key(const char *s, struct strbuf *sb)
{
	const char *k, *c;

	while (*s == ' ' || *s == '\t' || *s == '-')
		s++;
	if (!*s || *s == '#')
		return false;
	k = s;
	c = strchr(k, ':');
	if (!c || c == k)
		return false;
	/* `key:` then end of line or a blank */
	if (c[1] && c[1] != ' ' && c[1] != '\t')
		return false;
	strbuf_reset(sb);
	strbuf_add(sb, k, (size_t)(c - k));
	strbuf_rtrim(sb);
	if (sb->len && (sb->buf[0] == '"' || sb->buf[0] == '\'') &&
	    sb->buf[sb->len - 1] == sb->buf[0] && sb->len >= 2) {
		memmove(sb->buf, sb->buf + 1, sb->len - 2);
		strbuf_setlen(sb, sb->len - 2);
	}
	return sb->len > 0;
}

/* the key a message about `line` should name: on that line or above */
static char *key_near(const struct loader *ld, int line)
{
	struct strbuf l = STRBUF_INIT, k = STRBUF_INIT;
	char *ret = NULL;

	for (int at = line; at >= 1; at--) {
		get_line(ld, at, &l);
		if (line_key(l.buf, &k)) {
			ret = strbuf_detach(&k, NULL);
			break;
		}
		/* a line with no `key:` at all (cut short): name its word */
		if (at == line && l.buf[strspn(l.buf, " ")] != '-') {
			const char *s = l.buf + strspn(l.buf, " ");
			size_t len = strcspn(s, " \t#:[]{},\"'");

			if (len && *s != '#') {
				ret = xstrndup(s, len);
				break;
			}
		}
	}
	strbuf_release(&l);
	strbuf_release(&k);
	return ret ? ret : xstrdup(last_key(ld));
}

/* the first line up to `upto` whose indentation holds a tab, or 0 */
static int tab_line(const struct loader *ld, int upto)
{
	struct strbuf l = STRBUF_INIT;
	int line, ret = 0;

	for (line = 1; line <= upto && !ret; line++) {
		const char *s;

		get_line(ld, line, &l);
		for (s = l.buf; *s == ' ' || *s == '\t'; s++)
			if (*s == '\t' && s[strspn(s, " \t")] &&
			    s[strspn(s, " \t")] != '#') {
				ret = line;
				break;
			}
	}
	strbuf_release(&l);
	return ret;
}

/* libyaml's problem text in plain words */
static const char *plain_problem(const char *problem, const char *context)
{
	static const struct {
		const char *problem, *context, *plain;
	} words[] = {
		{"found unexpected end of stream", "while scanning a quoted scalar",
		 "a quoted string is never closed (is the file cut short?)"},
		{"found unexpected document indicator",
		 "while scanning a quoted scalar",
		 "a quoted string is never closed (it runs into a '---' document marker)"},
		{"found unexpected document indicator", NULL,
		 "a '---' or '...' document marker inside a value"},
		{"found unexpected end of stream", NULL,
		 "the file ends in the middle of a value (is it cut short?)"},
		{"did not find expected ',' or ']'", NULL,
		 "a '[' list is not closed with ']' (or an item lacks a ',')"},
		{"did not find expected ',' or '}'", NULL,
		 "a '{' mapping is not closed with '}' (or an entry lacks a ',')"},
		{"did not find expected key", NULL,
		 "the indentation is wrong: expected a key at this level"},
		{"did not find expected '-' indicator", NULL,
		 "the indentation is wrong: expected a '- ' list item at this level"},
		{"mapping values are not allowed in this context", NULL,
		 "a ':' is not allowed here (bad indentation, or a value with ': ' that needs quotes)"},
		{"block sequence entries are not allowed in this context", NULL,
		 "a '- ' list item is not allowed here (bad indentation?)"},
		{"could not find expected ':'", NULL,
		 "a key without ':' (or a line cut short)"},
		{"found character that cannot start any token", NULL,
		 "a character that cannot start a value here (quote the value)"},
		{"did not find expected node content", NULL,
		 "a value is missing here"},
		{"found undefined alias", NULL,
		 "an alias ('*name') names no anchor ('&name')"},
		{"found duplicate anchor", NULL, "an anchor is defined twice"},
		{"control characters are not allowed", NULL,
		 "the file holds control characters (is it binary?)"},
		{"invalid leading UTF-8 octet", NULL,
		 "the file is not valid UTF-8"},
		{"invalid trailing UTF-8 octet", NULL,
		 "the file is not valid UTF-8"},
		{"incomplete UTF-8 octet sequence", NULL,
		 "the file is not valid UTF-8 (cut short?)"},
		{"found unknown escape character", NULL,
		 "an unknown '\\' escape in a double-quoted string"},
	};
	size_t i;

	if (!problem)
		return "the YAML cannot be read";
	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (!strcmp(words[i].problem, problem) &&
		    (!words[i].context ||
		     (context && !strcmp(words[i].context, context))))
			return words[i].plain;
	return NULL;
}

/*
 * libyaml's error as `FILE:LINE: KEY: what`.  Tabs first: a tab in the
 * indentation is the commonest mistake in a hand-written job file, and
 * libyaml reports it as whatever it makes of the line, often far below.
 */
static void yaml_error(struct loader *ld)
{
	yaml_parser_t *p = &ld->parser;
	const char *plain = plain_problem(p->problem, p->context);
	int line = (int)p->problem_mark.line + 1, nlines = count_lines(ld);
	int tab;
	char *key;

	/* unclosed things at the end of the file: point where they began */
	if (p->problem && p->context &&
	    (strstr(p->problem, "end of stream") ||
	     !strcmp(p->context, "while scanning a quoted scalar") ||
	     !strcmp(p->context, "while scanning a simple key")))
		line = (int)p->context_mark.line + 1;
	if (line > nlines)
		line = nlines;
	tab = tab_line(ld, line);
	/* libyaml's own "found a tab character ..." problems */
	if (!tab && p->problem && strstr(p->problem, "tab character"))
		tab = line;
	if (tab) {
		key = key_near(ld, tab);
		job_err_at(ld->err, ld->file, tab, key,
			   "tab characters are not allowed in YAML indentation");
	} else {
		key = key_near(ld, line);
		if (plain)
			job_err_at(ld->err, ld->file, line, key, "%s", plain);
		else
			job_err_at(ld->err, ld->file, line, key,
				   "invalid YAML (%s)", p->problem);
	}
	free(key);
}

/* the next event, or -1 with the error in ld->err (nothing to delete) */
static int next_event(struct loader *ld, yaml_event_t *ev)
{
	if (yaml_parser_parse(&ld->parser, ev))
		return 0;
	yaml_error(ld);
	return -1;
}

/*
 * YAML 1.1's null words, unquoted only: `cmd: "null"` is the text null,
 * while `vmstat:` or `vmstat: ~` names the program with its defaults.
 */
static bool plain_null(const yaml_event_t *ev)
{
	const char *v = (const char *)ev->data.scalar.value;

	if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	return !*v || !strcmp(v, "~") || !strcmp(v, "null") ||
	       !strcmp(v, "Null") || !strcmp(v, "NULL");
}

/* nodes in the tree n; *height gets the levels below n */
static size_t jnode_size(const struct jnode *n, int *height)
{
	size_t size = 1, i;

	*height = 0;
	for (i = 0; i < n->n; i++) {
		int h;

		size += jnode_size(n->kids[i], &h);
		if (h + 1 > *height)
			*height = h + 1;
	}
	return size;
}

/*
 * Remember an anchored node for the aliases after it.  The node is
 * borrowed: it lives in the document until clear_anchors() at its end.
 */
static void add_anchor(struct loader *ld, const yaml_char_t *name,
		       const struct jnode *node)
{
	struct anchor *a;

	if (!name)
		return;
	ALLOC_GROW(ld->anchors, ld->nr_anchors + 1, ld->alloc_anchors);
	a = &ld->anchors[ld->nr_anchors++];
	a->name = xstrdup((const char *)name);
	a->node = node;
	a->size = jnode_size(node, &a->height);
}

/* one more node (or an alias's many): false past MAX_NODES, with err */
static bool count_nodes(struct loader *ld, size_t n, int line)
{
	ld->nodes += n;
	if (ld->nodes <= MAX_NODES)
		return true;
	job_err_at(ld->err, ld->file, line, last_key(ld),
		   "the file holds more than %d values%s", MAX_NODES,
		   n > 1 ? " once its aliases are expanded (a YAML alias bomb?)" : "");
	return false;
}

/* anchors hold for one document only (YAML), their nodes are its own */
static void clear_anchors(struct loader *ld)
{
	size_t i;

	for (i = 0; i < ld->nr_anchors; i++)
		free(ld->anchors[i].name);
	ld->nr_anchors = 0;
}

static int load_node(struct loader *ld, yaml_event_t *ev, int key_line,
		     int depth, struct jnode **out);

/*
 * An alias (`*name`): a copy of its anchor's node, the copy counted and
 * its depth checked before it is made, so that an alias bomb is refused
 * without ever being built.
 */
static int load_alias(struct loader *ld, const yaml_event_t *ev, int line,
		      int depth, struct jnode **out)
{
	const char *name = (const char *)ev->data.alias.anchor;
	size_t i;

	/* the latest anchor of that name: YAML lets a later one shadow it */
	for (i = ld->nr_anchors; i-- > 0;)
		if (!strcmp(ld->anchors[i].name, name))
			break;
	if (i == (size_t)-1) {
		job_err_at(ld->err, ld->file, line, last_key(ld),
			   "the alias '*%s' names no anchor defined before it",
			   name);
		return -1;
	}
	if (depth + ld->anchors[i].height > MAX_DEPTH) {
		job_err_at(ld->err, ld->file, line, last_key(ld),
			   "nested too deeply (through the alias '*%s')",
			   ld->anchors[i].name);
		return -1;
	}
	if (!count_nodes(ld, ld->anchors[i].size, line))
		return -1;
	*out = jnode_dup(ld->anchors[i].node, ld->file);
	/* reported where the alias stands, not where its anchor was */
	(*out)->line = line;
	return 0;
}

/* the items of a list up to its end event, appended to seq */
static int load_seq(struct loader *ld, struct jnode *seq, int depth)
{
	yaml_event_t vev;

	for (;;) {
		struct jnode *kid;

		if (next_event(ld, &vev))
			return -1;
		if (vev.type == YAML_SEQUENCE_END_EVENT) {
			yaml_event_delete(&vev);
			return 0;
		}
		if (load_node(ld, &vev, 0, depth + 1, &kid)) {
			yaml_event_delete(&vev);
			return -1;
		}
		yaml_event_delete(&vev);
		jnode_append(seq, NULL, kid);
	}
}

/*
 * One `key: value` of a mapping whose key event is kev: 1 at the
 * mapping's end, 0 for an entry appended to map, -1 on error.  Keys are
 * plain names and never repeat: libyaml allows both, but a repeated key
 * in a job file is a mistake that would silently drop one of the values.
 */
static int load_map_entry(struct loader *ld, struct jnode *map,
			  const yaml_event_t *kev, int depth)
{
	int kline = (int)kev->start_mark.line + 1;
	yaml_event_t vev;
	struct jnode *kid;
	const char *key;
	long dup;

	if (kev->type == YAML_MAPPING_END_EVENT)
		return 1;
	if (kev->type != YAML_SCALAR_EVENT) {
		job_err_at(ld->err, ld->file, kline, last_key(ld),
			   "a key must be a plain name, not a list or a mapping");
		return -1;
	}
	key = (const char *)kev->data.scalar.value;
	dup = jnode_index(map, key);
	if (dup >= 0) {
		job_err_at(ld->err, ld->file, kline, key,
			   "duplicate key (first given at line %d)",
			   map->kids[dup]->line);
		return -1;
	}
	free(ld->last_key);
	ld->last_key = xstrdup(key);
	if (next_event(ld, &vev))
		return -1;
	if (load_node(ld, &vev, kline, depth + 1, &kid)) {
		yaml_event_delete(&vev);
		return -1;
	}
	yaml_event_delete(&vev);
	/* a key's value is reported at the key's line */
	if (kid->type == JNODE_NULL)
		kid->line = kline;
	jnode_append(map, key, kid);
	return 0;
}

/* the entries of a mapping up to its end event, appended to map */
static int load_map(struct loader *ld, struct jnode *map, int depth)
{
	yaml_event_t kev;
	int ret;

	do {
		if (next_event(ld, &kev))
			return -1;
		ret = load_map_entry(ld, map, &kev, depth);
		yaml_event_delete(&kev);
	} while (!ret);
	return ret < 0 ? -1 : 0;
}

/*
 * Build the node whose first event is ev (consumed by the caller).
 * key_line is the line of the key naming this value (0 for list items and
 * the root): a collection is reported at its key's line.
 */
static int load_node(struct loader *ld, yaml_event_t *ev, int key_line,
		     int depth, struct jnode **out)
{
	struct jnode *n = NULL;
	const yaml_char_t *anchor = NULL;
	int line = (int)ev->start_mark.line + 1;
	int ret = 0;

	*out = NULL;
	if (depth > MAX_DEPTH) {
		job_err_at(ld->err, ld->file, line, last_key(ld),
			   "nested too deeply");
		return -1;
	}
	/* an alias counts its anchor's nodes itself (load_alias) */
	if (ev->type != YAML_ALIAS_EVENT && !count_nodes(ld, 1, line))
		return -1;
	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		return load_alias(ld, ev, line, depth, out);
	case YAML_SCALAR_EVENT:
		n = plain_null(ev) ? jnode_new(JNODE_NULL, ld->file, line) :
				     jnode_scalar((const char *)
							  ev->data.scalar.value,
						  ld->file, line);
		anchor = ev->data.scalar.anchor;
		break;
	case YAML_SEQUENCE_START_EVENT:
		n = jnode_new(JNODE_SEQ, ld->file, key_line ? key_line : line);
		anchor = ev->data.sequence_start.anchor;
		ret = load_seq(ld, n, depth);
		break;
	case YAML_MAPPING_START_EVENT:
		n = jnode_new(JNODE_MAP, ld->file, key_line ? key_line : line);
		anchor = ev->data.mapping_start.anchor;
		ret = load_map(ld, n, depth);
		break;
	default:
		job_err_at(ld->err, ld->file, line, "yaml",
			   "unexpected YAML event");
		return -1;
	}
	if (ret) {
		jnode_free(n);
		return -1;
	}
	add_anchor(ld, anchor, n);
	*out = n;
	return 0;
}

/* what a document is when it is no mapping, for the message */
static const char *type_name(const struct jnode *n)
{
	switch (n->type) {
	case JNODE_NULL:
		return "nothing";
	case JNODE_SCALAR:
		return "a value";
	case JNODE_SEQ:
		return "a list";
	case JNODE_MAP:
		return "a mapping";
	}
	return "?";
}

/*
 * LKP's multi-document rule: doc0 merged with docN, docN's keys winning;
 * where both sides hold a mapping (a program's options) the two merge key
 * by key.  A replaced key keeps doc0's position; new keys go last.
 */
static void merge_map(struct jnode *dst, const struct jnode *src,
		      const char *file)
{
	size_t i;

	for (i = 0; i < src->n; i++) {
		long at = jnode_index(dst, src->keys[i]);
		const struct jnode *v = src->kids[i];

		if (at < 0) {
			jnode_append(dst, src->keys[i], jnode_dup(v, file));
		} else if (dst->kids[at]->type == JNODE_MAP &&
			   v->type == JNODE_MAP) {
			merge_map(dst->kids[at], v, file);
		} else {
			jnode_free(dst->kids[at]);
			dst->kids[at] = jnode_dup(v, file);
		}
	}
}

/*
 * A job's LKP "name": the file name without its directory and .yaml (or
 * .yml), which split's files and the result root are named after.
 */
static char *stem_of(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;

	base = base ? base + 1 : path;
	len = strlen(base);
	if (len > 5 && !strcmp(base + len - 5, ".yaml"))
		len -= 5;
	else if (len > 4 && !strcmp(base + len - 4, ".yml"))
		len -= 4;
	return xstrndup(base, len);
}

/* an empty job read from `name`: the caller gives it a root */
static struct job *job_new(const char *name)
{
	struct job *job = xcalloc(1, sizeof(*job));

	job->file = xstrdup(name);
	job->stem = stem_of(name);
	return job;
}

/* how much of the schema load_string checks */
enum check_level {
	CHECK_NONE,  /* job_read_file: YAML and duplicate keys only */
	CHECK_SHAPE, /* job_read_run_file: the shapes of known keys and programs */
	CHECK_ALL,   /* job_load_*: shapes, then every value by its type */
};

/*
 * The jobs of a file's documents: doc0, doc0+doc1, ..., doc0+docN
 * (lib/job.rb), each a copy that owns its own file name string.  With
 * CHECK_ALL every merged job's values are checked by type; on error no
 * job is returned at all, so a caller never runs half a file.
 */
static int merge_docs(struct jnode **docs, size_t ndocs, const char *name,
		      enum check_level check, struct job ***jobs,
		      size_t *njobs, struct strbuf *err)
{
	size_t i;

	*njobs = ndocs;
	*jobs = xcalloc(*njobs, sizeof(**jobs));
	for (i = 0; i < *njobs; i++) {
		struct job *job = job_new(name);

		job->root = jnode_dup(docs[0], job->file);
		if (i)
			merge_map(job->root, docs[i], job->file);
		(*jobs)[i] = job;
	}
	for (i = 0; check == CHECK_ALL && i < *njobs; i++)
		if (job_check_values((*jobs)[i]->root, err) < 0) {
			job_free_all(*jobs, *njobs);
			*jobs = NULL;
			*njobs = 0;
			return -1;
		}
	return 0;
}

/*
 * Read every document of text, check each as `check` says, and make the
 * jobs (doc0, doc0+doc1, ...).  The documents are checked one by one as
 * they are read, so that an error names the first bad one; the values are
 * checked once merged, as their types may come from another document.
 */
static int load_string(const char *text, const char *name,
		       enum check_level check, struct job ***jobs,
		       size_t *njobs, struct strbuf *err)
{
	struct loader ld;
	struct jnode **docs = NULL;
	size_t ndocs = 0, alloc = 0, i;
	struct job *holder = job_new(name); /* owns the file name string */
	yaml_event_t ev;
	int ret = -1;

	*jobs = NULL;
	*njobs = 0;
	memset(&ld, 0, sizeof(ld));
	ld.text = text;
	ld.len = strlen(text);
	ld.file = holder->file;
	ld.err = err;
	if (!yaml_parser_initialize(&ld.parser))
		BUG("yaml_parser_initialize failed");
	yaml_parser_set_input_string(&ld.parser, (const unsigned char *)text,
				     ld.len);
	for (;;) {
		struct jnode *root;

		if (next_event(&ld, &ev))
			goto out;
		if (ev.type == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			break;
		}
		if (ev.type != YAML_DOCUMENT_START_EVENT) {
			/* stream start, document end */
			yaml_event_delete(&ev);
			continue;
		}
		yaml_event_delete(&ev);
		if (next_event(&ld, &ev))
			goto out;
		if (load_node(&ld, &ev, 0, 0, &root)) {
			yaml_event_delete(&ev);
			goto out;
		}
		yaml_event_delete(&ev);
		clear_anchors(&ld);
		if (root->type == JNODE_NULL) {
			/* an empty document (`---` alone) adds nothing */
			root->type = JNODE_MAP;
		} else if (root->type != JNODE_MAP) {
			job_err_at(err, ld.file, root->line, "job",
				   "a job must be a mapping of keys, not %s",
				   type_name(root));
			jnode_free(root);
			goto out;
		}
		ALLOC_GROW(docs, ndocs + 1, alloc);
		docs[ndocs++] = root;
		/* LKP's roles of a one-host cluster: this box is every role (a
		 * job to run: a stored run's job.yaml has its roles merged) */
		if (check == CHECK_ALL &&
		    lkp_cluster_expand(ld.file, root, docs[0], err))
			goto out;
		if (check != CHECK_NONE &&
		    job_check_doc(ld.file, root, check == CHECK_ALL, err))
			goto out;
		if (check)
			job_warn_typos(ld.file, root);
	}
	if (!ndocs || (ndocs == 1 && !docs[0]->n)) {
		job_err_at(err, ld.file, 1, "job", "the job file is empty");
		goto out;
	}
	/* every later document gets a copy of doc0: that counts too */
	if (ndocs > 1) {
		int h;
		size_t size0 = jnode_size(docs[0], &h);

		if (size0 * (ndocs - 1) > MAX_NODES - ld.nodes) {
			job_err_at(err, ld.file, docs[ndocs - 1]->line, "job",
				   "the file holds more than %d values once its "
				   "%zu documents are merged with the first",
				   MAX_NODES, ndocs);
			goto out;
		}
	}

	ret = merge_docs(docs, ndocs, name, check, jobs, njobs, err);
out:
	for (i = 0; i < ndocs; i++)
		jnode_free(docs[i]);
	free(docs);
	clear_anchors(&ld);
	free(ld.anchors);
	free(ld.last_key);
	yaml_parser_delete(&ld.parser);
	job_free(holder);
	return ret;
}

int job_load_string(const char *text, const char *name, struct job ***jobs,
		    size_t *njobs, struct strbuf *err)
{
	return load_string(text, name, CHECK_ALL, jobs, njobs, err);
}

/*
 * Read a job file whole, then load it as text.  A file that is too big
 * or holds a NUL byte is refused first: libyaml would stop at the NUL and
 * read a different job than the file holds.
 */
static int load_file(const char *path, enum check_level check, struct job ***jobs,
		     size_t *njobs, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	int ret;

	*jobs = NULL;
	*njobs = 0;
	/* a regular file only: a FIFO (a robot job:) blocked for ever */
	if (read_regular_file(&text, path, MAX_FILE_SIZE, &why) < 0) {
		if (errno == EFBIG)
			job_err_at(err, path, 1, "job",
				   "the file is larger than %d KiB (not a job file?)",
				   MAX_FILE_SIZE >> 10);
		else if (err) {
			strbuf_reset(err);
			strbuf_addbuf(err, &why);
		}
		strbuf_release(&text);
		strbuf_release(&why);
		return -1;
	}
	strbuf_release(&why);
	if (memchr(text.buf, '\0', text.len)) {
		job_err_at(err, path, 1, "job",
			   "the file holds NUL bytes (is it binary?)");
		strbuf_release(&text);
		return -1;
	}
	ret = load_string(text.buf, path, check, jobs, njobs, err);
	strbuf_release(&text);
	return ret;
}

int job_load_file(const char *path, struct job ***jobs, size_t *njobs,
		  struct strbuf *err)
{
	return load_file(path, CHECK_ALL, jobs, njobs, err);
}

int job_read_file(const char *path, struct job ***jobs, size_t *njobs,
		  struct strbuf *err)
{
	return load_file(path, CHECK_NONE, jobs, njobs, err);
}

int job_read_run_file(const char *path, struct job ***jobs, size_t *njobs,
		      struct strbuf *err)
{
	return load_file(path, CHECK_SHAPE, jobs, njobs, err);
}
