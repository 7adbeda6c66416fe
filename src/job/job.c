/*
 * job.c: LKP job files read with libyaml's event parser into a tree that
 * keeps key order and the line of every value, checked against a small
 * schema (plain keys, mapping keys, the program table) so that each bad
 * file gets one `FILE:LINE: KEY: what is wrong` message.  Also the tree's
 * YAML writer, LKP's path_params (and the group directory's, which never
 * lets two jobs share a name) and the job's parameter list.
 */
#include "util/compat.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>
#include "job/job.h"
#include "job/kpi.h"
#include "job/programs.h"
#include "util/hash.h"
#include "setup/setup.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/suggest.h"
#include "util/usage.h"
#include "util/xalloc.h"

/* path_params cuts every value to this many characters (LKP: v[0..30]) */
#define PARAM_VALUE_MAX 31
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

/* ---------------------------------------------------------------- nodes */

static struct jnode *jnode_new(enum jnode_type type, const char *file,
			       int line)
{
	struct jnode *n = xcalloc(1, sizeof(*n));

	n->type = type;
	n->file = file;
	n->line = line;
	return n;
}

static struct jnode *jnode_scalar(const char *text, const char *file,
				  int line)
{
	struct jnode *n;

	if (!text)
		return jnode_new(JNODE_NULL, file, line);
	n = jnode_new(JNODE_SCALAR, file, line);
	n->text = xstrdup(text);
	return n;
}

static void jnode_free(struct jnode *n)
{
	size_t i;

	if (!n)
		return;
	for (i = 0; i < n->n; i++) {
		if (n->keys)
			free(n->keys[i]);
		jnode_free(n->kids[i]);
	}
	free(n->keys);
	free(n->kids);
	free(n->text);
	free(n);
}

/* deep copy; every copied node's file becomes `file` */
static struct jnode *jnode_dup(const struct jnode *src, const char *file)
{
	struct jnode *n = jnode_new(src->type, file, src->line);
	size_t i;

	if (src->text)
		n->text = xstrdup(src->text);
	if (src->n) {
		n->alloc = src->n;
		n->kids = xcalloc(src->n, sizeof(*n->kids));
		if (src->keys)
			n->keys = xcalloc(src->n, sizeof(*n->keys));
	}
	for (i = 0; i < src->n; i++) {
		n->kids[i] = jnode_dup(src->kids[i], file);
		if (src->keys)
			n->keys[i] = xstrdup(src->keys[i]);
	}
	n->n = src->n;
	return n;
}

static void jnode_append(struct jnode *parent, const char *key,
			 struct jnode *kid)
{
	size_t alloc = parent->alloc;

	ALLOC_GROW(parent->kids, parent->n + 1, parent->alloc);
	if (parent->type == JNODE_MAP) {
		/* keys grows in step with kids */
		if (alloc != parent->alloc || !parent->keys)
			parent->keys = xreallocarray(parent->keys,
						     parent->alloc,
						     sizeof(*parent->keys));
		/* a map always passes its key; sequences pass NULL and
		 * never come here (cppcheck cannot see that across files) */
		parent->keys[parent->n] = key ? xstrdup(key) : NULL;
	}
	parent->kids[parent->n++] = kid;
}

static long map_index(const struct jnode *map, const char *key)
{
	size_t i;

	if (!map || map->type != JNODE_MAP)
		return -1;
	for (i = 0; i < map->n; i++)
		if (!strcmp(map->keys[i], key))
			return (long)i;
	return -1;
}

/* --------------------------------------------------------------- schema */

/*
 * The types of top-level keys and program options are programs.c's table.
 * Unknown plain keys with a value are allowed (LKP exports them as
 * environment variables); a mapping, a list of mappings or no value at
 * all under an unknown key is a program perfsift does not know.
 */
static bool kept_whole(const struct program_option *o)
{
	return o && (o->type == OPT_LIST || o->type == OPT_ANY);
}

static bool is_leaf(const struct jnode *n)
{
	return n->type == JNODE_SCALAR || n->type == JNODE_NULL;
}

static bool all_leaves(const struct jnode *seq)
{
	size_t i;

	for (i = 0; i < seq->n; i++)
		if (!is_leaf(seq->kids[i]))
			return false;
	return true;
}

/* ------------------------------------------------------------- messages */

static void err_at(struct strbuf *err, const char *file, int line,
		   const char *key, const char *fmt, ...) PRINTF_LIKE(5, 6);

static void err_at(struct strbuf *err, const char *file, int line,
		   const char *key, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	strbuf_reset(err);
	/* line 0: a value perfsift put there (--set), not read from a file */
	if (line > 0)
		strbuf_addf(err, "%s:%d: %s: ", file, line, key);
	else
		strbuf_addf(err, "%s: %s: ", file, key);
	va_start(ap, fmt);
	strbuf_vaddf(err, fmt, ap);
	va_end(ap);
}

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

/* the program closest to a mistyped name (util/suggest.h), or NULL */
static const char *closest_program(const char *name)
{
	size_t i, n = program_count();
	const char **names = xcalloc(n ? n : 1, sizeof(*names));
	const char *best;

	for (i = 0; i < n; i++)
		names[i] = program_at(i)->name;
	best = suggest_closest(name, names, n, 2);
	free(names);
	return best;
}

/*
 * A plain key perfsift does not know is LKP's business (it becomes an
 * environment variable), but one a typo away from a known key, program
 * or program option is most likely that typo: the known name into hint
 * ("PROGRAM.OPTION" for an option), true when there is one.
 */
static bool closest_known_key(const char *key, struct strbuf *hint)
{
	size_t i, nk = job_key_count(), n = 0, alloc = nk + program_count(), k;
	const char **names = xcalloc(alloc, sizeof(*names));
	const char **progs = xcalloc(alloc, sizeof(*progs));
	const char *best;

	for (i = 0; i < nk; i++)
		names[n++] = job_key_at(i)->name;
	for (i = 0; i < program_count(); i++) {
		const struct program *p = program_at(i);
		const struct program_option *o;

		if (p->kind == PROG_OUTPUT)
			continue;
		if (n == alloc) {
			alloc *= 2;
			names = xreallocarray(names, alloc, sizeof(*names));
			progs = xreallocarray(progs, alloc, sizeof(*progs));
		}
		/* a program is no option: NULL, also past the first growth,
		 * where xreallocarray's new room is not zeroed */
		progs[n] = NULL;
		names[n++] = p->name;
		for (o = p->options; o && o->name; o++) {
			if (n == alloc) {
				alloc *= 2;
				names = xreallocarray(names, alloc, sizeof(*names));
				progs = xreallocarray(progs, alloc, sizeof(*progs));
			}
			progs[n] = p->name;
			names[n++] = o->name;
		}
	}
	best = suggest_closest(key, names, n, suggest_max_distance(key));
	for (k = 0; best && k < n; k++)
		if (names[k] == best) {
			strbuf_reset(hint);
			if (progs[k])
				strbuf_addf(hint, "%s.", progs[k]);
			strbuf_addstr(hint, best);
			break;
		}
	free(names);
	free(progs);
	return best != NULL;
}

static bool is_unknown_key(const char *key)
{
	return !program_find(key) && !job_key_find(key);
}

/* the loader's one warning per likely typo of a document's keys */
static void warn_typos(const char *file, const struct jnode *root)
{
	struct strbuf hint = STRBUF_INIT;
	size_t i;

	for (i = 0; i < root->n; i++)
		if (is_unknown_key(root->keys[i]) &&
		    closest_known_key(root->keys[i], &hint))
			warning("%s:%d: %s: unknown key; did you mean '%s'?", file,
				root->kids[i]->line > 0 ? root->kids[i]->line : 1,
				root->keys[i], hint.buf);
	strbuf_release(&hint);
}

/* ----------------------------------------------------------- validation */

static int check_option(const char *file, const char *prog, const char *opt,
			const struct jnode *v, struct strbuf *err)
{
	size_t i;

	if (v->type == JNODE_MAP) {
		err_at(err, file, v->line, prog,
		       "option '%s' must be a value or a list of values, not a mapping",
		       opt);
		return -1;
	}
	if (v->type == JNODE_SEQ)
		for (i = 0; i < v->n; i++)
			if (!is_leaf(v->kids[i])) {
				err_at(err, file, v->kids[i]->line, prog,
				       "option '%s' is a list of %s; expected a list of values",
				       opt,
				       v->kids[i]->type == JNODE_MAP ?
					       "mappings" :
					       "lists");
				return -1;
			}
	return 0;
}

static int check_program_options(const char *file, const char *prog,
				 const struct jnode *map, struct strbuf *err)
{
	size_t i;

	for (i = 0; i < map->n; i++)
		if (check_option(file, prog, map->keys[i], map->kids[i], err))
			return -1;
	return 0;
}

static int check_program(const char *file, const struct program *p,
			 const struct jnode *v, struct strbuf *err)
{
	size_t i;

	switch (v->type) {
	case JNODE_NULL:
		return 0;
	case JNODE_SCALAR:
		if (p->value)
			return 0;
		err_at(err, file, v->line, p->name,
		       "expected a mapping of options (or nothing), not the value '%s'",
		       v->text);
		return -1;
	case JNODE_MAP:
		return check_program_options(file, p->name, v, err);
	case JNODE_SEQ:
		for (i = 0; i < v->n; i++) {
			const struct jnode *it = v->kids[i];

			if (it->type == JNODE_MAP) {
				if (check_program_options(file, p->name, it,
							  err))
					return -1;
			} else if (it->type == JNODE_SEQ ||
				   (it->type == JNODE_SCALAR &&
				    !p->value)) {
				err_at(err, file, it->line, p->name,
				       "expected a mapping of options, not a list of %s",
				       it->type == JNODE_SEQ ? "lists" :
							       "values");
				return -1;
			}
		}
		return 0;
	}
	return 0;
}

static int check_value_key(const char *file, const char *key,
			   const struct program_option *o, const struct jnode *v,
			   struct strbuf *err)
{
	if (v->type == JNODE_MAP) {
		err_at(err, file, v->line, key,
		       "expected a value (or a list of values), not a mapping");
		return -1;
	}
	if (v->type == JNODE_SEQ && !all_leaves(v)) {
		err_at(err, file, v->line, key,
		       "expected a value (or a list of values), not a list of mappings or lists");
		return -1;
	}
	/*
	 * testcase, suite, category: a list would make atomic jobs that
	 * only differ by a key path_params leaves out (LKP does not expand
	 * them either): split and run both refuse it
	 */
	if (v->type == JNODE_SEQ && o && (o->flags & OPTF_SINGLE)) {
		err_at(err, file, v->line, key,
		       "expected one value, not a list (%s is not a matrix dimension)",
		       key);
		return -1;
	}
	return 0;
}

static void unknown_program(const char *file, const char *key,
			    const struct jnode *v, struct strbuf *err)
{
	const char *hint = closest_program(key);

	if (hint)
		err_at(err, file, v->line, key,
		       "unknown program (did you mean '%s'?)", hint);
	else if (v->type == JNODE_NULL)
		err_at(err, file, v->line, key,
		       "unknown program (not a benchmark, monitor or setup program perfsift knows; a plain job key needs a value)");
	else
		err_at(err, file, v->line, key,
		       "unknown program (not a benchmark, monitor or setup program perfsift knows)");
}

/*
 * Debian's package name syntax (Policy 5.6.7): [a-z0-9][a-z0-9+.-]+, with
 * apt's optional ":ARCH".  `perfsift install` hands these to apt-get as
 * root, so nothing else gets through -- no blank, no '$', no leading '-'.
 */
static bool debian_package_name(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789+.-");

	if (n < 2 || !isalnum((unsigned char)s[0]))
		return false;
	if (!s[n])
		return true;
	return s[n] == ':' && s[n + 1] &&
	       strspn(s + n + 1, "abcdefghijklmnopqrstuvwxyz0123456789-") ==
		       strlen(s + n + 1);
}

static int check_packages(const char *file, const struct jnode *v,
			  struct strbuf *err)
{
	size_t i;

	for (i = 0; i < (v->type == JNODE_SEQ ? v->n : 1); i++) {
		const struct jnode *it = v->type == JNODE_SEQ ? v->kids[i] : v;

		if (it->type == JNODE_NULL)
			continue;
		if (it->type != JNODE_SCALAR) {
			err_at(err, file, it->line, "packages",
			       "expected a list of Debian package names, not %s",
			       it->type == JNODE_MAP ? "a mapping" : "a list of lists");
			return -1;
		}
		if (!debian_package_name(it->text)) {
			err_at(err, file, it->line, "packages",
			       "'%s' is not a Debian package name "
			       "(lower-case letters, digits, '+', '-', '.'; an optional ':ARCH')",
			       it->text);
			return -1;
		}
	}
	return 0;
}

/* sysctl's sc_NAME options name files: none may lead out of /proc/sys */
static int check_sysctl(const char *file, const struct jnode *v,
			struct strbuf *err)
{
	size_t i, k;

	for (i = 0; i < (v->type == JNODE_SEQ ? v->n : 1); i++) {
		const struct jnode *map = v->type == JNODE_SEQ ? v->kids[i] : v;

		for (k = 0; map->type == JNODE_MAP && k < map->n; k++) {
			const char *key = map->keys[k];
			const char *why = strncmp(key, "sc_", 3) ?
				"options are named sc_<sysctl>" :
				sysctl_name_problem(key + 3);

			if (why) {
				err_at(err, file, map->kids[k]->line, "sysctl",
				       "%s: %s", key, why);
				return -1;
			}
		}
	}
	return 0;
}

/*
 * The schema check of one document (or of a job built by hand): shapes.
 * strict: also the rules of jobs perfsift runs (one testcase, no unknown
 * `name:` alone), which a run's job.yaml from elsewhere need not keep.
 */
static int check_doc(const char *file, const struct jnode *root, bool strict,
		     struct strbuf *err)
{
	size_t i;

	for (i = 0; i < root->n; i++) {
		const char *key = root->keys[i];
		const struct jnode *v = root->kids[i];
		const struct program *p = program_find(key);
		const struct program_option *o;

		if (p) {
			if (check_program(file, p, v, err))
				return -1;
			if (!strcmp(key, "sysctl") && check_sysctl(file, v, err))
				return -1;
			continue;
		}
		/* declared KPIs: their own form (kpi.c) */
		if (!strcmp(key, "kpi")) {
			if (kpi_from_node(v, file, NULL, err))
				return -1;
			continue;
		}
		o = job_key_find(key);
		if (kept_whole(o)) {
			if (o->type == OPT_LIST && v->type == JNODE_MAP) {
				err_at(err, file, v->line, key,
				       "expected a list, not a mapping");
				return -1;
			}
			if (!strcmp(key, "packages") && check_packages(file, v, err))
				return -1;
			continue;
		}
		if (o) {
			if (check_value_key(file, key, strict ? o : NULL, v, err))
				return -1;
			continue;
		}
		/*
		 * `name:` alone is how a job names a program with its
		 * defaults (`vmstat:`); an unknown name there is a typo or a
		 * program perfsift does not have, not an environment variable
		 */
		if (v->type == JNODE_MAP || (strict && v->type == JNODE_NULL) ||
		    (v->type == JNODE_SEQ && v->n && !all_leaves(v))) {
			unknown_program(file, key, v, err);
			return -1;
		}
	}
	return 0;
}

/* ------------------------------------------------------ values by type */

static const struct program_option *referenced_option(const struct jnode *root,
						      const char *key);

/* one value (or each value of a list) of option o, shown as `key` */
static int check_leaves(const struct program_option *o, const char *key,
			const struct jnode *v, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	struct opt_value val;
	size_t i, n = v->type == JNODE_SEQ ? v->n : 1;
	int ret = 0;

	if (kept_whole(o))
		return 0;
	for (i = 0; i < n && !ret; i++) {
		const struct jnode *it = v->type == JNODE_SEQ ? v->kids[i] : v;

		if (it->type != JNODE_SCALAR)
			continue;
		strbuf_reset(&why);
		if (opt_parse(o, it->text, &val, &why) < 0) {
			err_at(err, it->file, it->line, key, "'%s' %s",
			       it->text, why.buf);
			ret = -1;
		}
	}
	strbuf_release(&why);
	return ret;
}

/* every declared option of one option mapping of program p */
static int check_option_values(const struct program *p,
			       const struct jnode *map, struct strbuf *err)
{
	struct strbuf key = STRBUF_INIT;
	size_t i;
	int ret = 0;

	for (i = 0; i < map->n && !ret; i++) {
		const struct program_option *o = program_option(p, map->keys[i]);

		if (!o)
			continue; /* an option perfsift does not read */
		strbuf_reset(&key);
		strbuf_addf(&key, "%s.%s", p->name, map->keys[i]);
		ret = check_leaves(o, key.buf, map->kids[i], err);
	}
	strbuf_release(&key);
	return ret;
}

static int check_program_values(const struct program *p,
				const struct jnode *v, struct strbuf *err)
{
	const char *root = program_sysroot();
	size_t i;

	if (v->type == JNODE_MAP)
		return check_option_values(p, v, err) ||
		       (p->check && p->check(v, root, err));
	if (v->type != JNODE_SEQ)
		return p->value ? check_leaves(p->value, p->name, v, err) : 0;
	for (i = 0; i < v->n; i++) {
		const struct jnode *it = v->kids[i];

		if (it->type == JNODE_MAP) {
			if (check_option_values(p, it, err) ||
			    (p->check && p->check(it, root, err)))
				return -1;
		} else if (p->value && check_leaves(p->value, p->name, it, err)) {
			return -1;
		}
	}
	return 0;
}

/*
 * Every value by its type and range (programs.c's table), once per job
 * as the documents merge into it, before anything is split, written or
 * run: a top-level key by its own type, or -- not being one -- as the
 * option of a program the job names (LKP flattens the two levels).
 */
static int check_values(const struct jnode *root, struct strbuf *err)
{
	size_t i;

	for (i = 0; i < root->n; i++) {
		const char *key = root->keys[i];
		const struct jnode *v = root->kids[i];
		const struct program *p = program_find(key);
		const struct program_option *o;

		if (p) {
			if (check_program_values(p, v, err))
				return -1;
			continue;
		}
		o = job_key_find(key);
		if (!o)
			o = referenced_option(root, key);
		if (o && check_leaves(o, key, v, err))
			return -1;
	}
	return 0;
}

/* -------------------------------------------------------------- loading */

struct anchor {
	char *name;
	const struct jnode *node;
	size_t size;   /* nodes in it: what an alias to it adds */
	int height;    /* levels below it: how much deeper an alias nests */
};

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

/* the text of line `line` (1-based) into sb */
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
	return ret ? ret : xstrdup(ld->last_key ? ld->last_key : "yaml");
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
		err_at(ld->err, ld->file, tab, key,
		       "tab characters are not allowed in YAML indentation");
	} else {
		key = key_near(ld, line);
		if (plain)
			err_at(ld->err, ld->file, line, key, "%s", plain);
		else
			err_at(ld->err, ld->file, line, key,
			       "invalid YAML (%s)", p->problem);
	}
	free(key);
}

static int next_event(struct loader *ld, yaml_event_t *ev)
{
	if (yaml_parser_parse(&ld->parser, ev))
		return 0;
	yaml_error(ld);
	return -1;
}

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
	err_at(ld->err, ld->file, line, ld->last_key ? ld->last_key : "yaml",
	       "the file holds more than %d values%s", MAX_NODES,
	       n > 1 ? " once its aliases are expanded (a YAML alias bomb?)" : "");
	return false;
}

static void clear_anchors(struct loader *ld)
{
	size_t i;

	for (i = 0; i < ld->nr_anchors; i++)
		free(ld->anchors[i].name);
	ld->nr_anchors = 0;
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
	yaml_event_t kev, vev;
	const yaml_char_t *anchor = NULL;
	int line = (int)ev->start_mark.line + 1;
	size_t i;

	*out = NULL;
	if (depth > MAX_DEPTH) {
		err_at(ld->err, ld->file, line,
		       ld->last_key ? ld->last_key : "yaml",
		       "nested too deeply");
		return -1;
	}
	if (ev->type != YAML_ALIAS_EVENT && !count_nodes(ld, 1, line))
		return -1;
	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		for (i = ld->nr_anchors; i-- > 0;)
			if (!strcmp(ld->anchors[i].name,
				    (const char *)ev->data.alias.anchor))
				break;
		if (i == (size_t)-1) {
			err_at(ld->err, ld->file, line,
			       ld->last_key ? ld->last_key : "yaml",
			       "the alias '*%s' names no anchor defined before it",
			       (const char *)ev->data.alias.anchor);
			return -1;
		}
		/* checked before copying: an alias bomb never gets built */
		if (depth + ld->anchors[i].height > MAX_DEPTH) {
			err_at(ld->err, ld->file, line,
			       ld->last_key ? ld->last_key : "yaml",
			       "nested too deeply (through the alias '*%s')",
			       ld->anchors[i].name);
			return -1;
		}
		if (!count_nodes(ld, ld->anchors[i].size, line))
			return -1;
		n = jnode_dup(ld->anchors[i].node, ld->file);
		n->line = line;
		*out = n;
		return 0;
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
		for (;;) {
			struct jnode *kid;

			if (next_event(ld, &vev))
				goto fail;
			if (vev.type == YAML_SEQUENCE_END_EVENT) {
				yaml_event_delete(&vev);
				break;
			}
			if (load_node(ld, &vev, 0, depth + 1, &kid)) {
				yaml_event_delete(&vev);
				goto fail;
			}
			yaml_event_delete(&vev);
			jnode_append(n, NULL, kid);
		}
		break;
	case YAML_MAPPING_START_EVENT:
		n = jnode_new(JNODE_MAP, ld->file, key_line ? key_line : line);
		anchor = ev->data.mapping_start.anchor;
		for (;;) {
			struct jnode *kid;
			const char *key;
			int kline;
			long dup;

			if (next_event(ld, &kev))
				goto fail;
			if (kev.type == YAML_MAPPING_END_EVENT) {
				yaml_event_delete(&kev);
				break;
			}
			kline = (int)kev.start_mark.line + 1;
			if (kev.type != YAML_SCALAR_EVENT) {
				err_at(ld->err, ld->file, kline,
				       ld->last_key ? ld->last_key : "yaml",
				       "a key must be a plain name, not a list or a mapping");
				yaml_event_delete(&kev);
				goto fail;
			}
			key = (const char *)kev.data.scalar.value;
			dup = map_index(n, key);
			if (dup >= 0) {
				err_at(ld->err, ld->file, kline, key,
				       "duplicate key (first given at line %d)",
				       n->kids[dup]->line);
				yaml_event_delete(&kev);
				goto fail;
			}
			free(ld->last_key);
			ld->last_key = xstrdup(key);
			if (next_event(ld, &vev)) {
				yaml_event_delete(&kev);
				goto fail;
			}
			if (load_node(ld, &vev, kline, depth + 1, &kid)) {
				yaml_event_delete(&vev);
				yaml_event_delete(&kev);
				goto fail;
			}
			/* a key's value is reported at the key's line */
			if (kid->type == JNODE_NULL)
				kid->line = kline;
			jnode_append(n, key, kid);
			yaml_event_delete(&vev);
			yaml_event_delete(&kev);
		}
		break;
	default:
		err_at(ld->err, ld->file, line, "yaml", "unexpected YAML event");
		return -1;
	}
	add_anchor(ld, anchor, n);
	*out = n;
	return 0;
fail:
	jnode_free(n);
	return -1;
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
		long at = map_index(dst, src->keys[i]);
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
			err_at(err, ld.file, root->line, "job",
			       "a job must be a mapping of keys, not %s",
			       type_name(root));
			jnode_free(root);
			goto out;
		}
		ALLOC_GROW(docs, ndocs + 1, alloc);
		docs[ndocs++] = root;
		if (check != CHECK_NONE &&
		    check_doc(ld.file, root, check == CHECK_ALL, err))
			goto out;
		if (check)
			warn_typos(ld.file, root);
	}
	if (!ndocs || (ndocs == 1 && !docs[0]->n)) {
		err_at(err, ld.file, 1, "job", "the job file is empty");
		goto out;
	}
	/* every later document gets a copy of doc0: that counts too */
	if (ndocs > 1) {
		int h;
		size_t size0 = jnode_size(docs[0], &h);

		if (size0 * (ndocs - 1) > MAX_NODES - ld.nodes) {
			err_at(err, ld.file, docs[ndocs - 1]->line, "job",
			       "the file holds more than %d values once its "
			       "%zu documents are merged with the first",
			       MAX_NODES, ndocs);
			goto out;
		}
	}

	/* doc0, doc0+doc1, ..., doc0+docN (lib/job.rb) */
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
		if (check_values((*jobs)[i]->root, err) < 0) {
			job_free_all(*jobs, *njobs);
			*jobs = NULL;
			*njobs = 0;
			goto out;
		}
	ret = 0;
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

static int load_file(const char *path, enum check_level check, struct job ***jobs,
		     size_t *njobs, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	int ret;

	*jobs = NULL;
	*njobs = 0;
	if (strbuf_read_file(&text, path, MAX_FILE_SIZE) < 0) {
		if (errno == EFBIG)
			err_at(err, path, 1, "job",
			       "the file is larger than %d KiB (not a job file?)",
			       MAX_FILE_SIZE >> 10);
		else if (err) {
			strbuf_reset(err);
			strbuf_addf(err, "cannot read '%s': %s", path,
				    strerror(errno));
		}
		strbuf_release(&text);
		return -1;
	}
	if (memchr(text.buf, '\0', text.len)) {
		err_at(err, path, 1, "job",
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

void job_free(struct job *job)
{
	if (!job)
		return;
	jnode_free(job->root);
	free(job->file);
	free(job->stem);
	free(job);
}

void job_free_all(struct job **jobs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		job_free(jobs[i]);
	free(jobs);
}

struct job *job_dup(const struct job *job)
{
	struct job *d = xcalloc(1, sizeof(*d));

	d->file = xstrdup(job->file);
	d->stem = xstrdup(job->stem);
	d->root = job->root ? jnode_dup(job->root, d->file) :
			      jnode_new(JNODE_MAP, d->file, 0);
	return d;
}

int job_check(const struct job *job, struct strbuf *err)
{
	return check_doc(job->file, job->root, true, err) ||
	       check_values(job->root, err) ? -1 : 0;
}

/* --------------------------------------------------------------- access */

const struct jnode *jnode_get(const struct jnode *map, const char *key)
{
	long i = map_index(map, key);

	return i < 0 ? NULL : map->kids[i];
}

const char *job_get(const struct job *job, const char *key)
{
	const struct jnode *n = jnode_get(job->root, key);

	return n && n->type == JNODE_SCALAR ? n->text : NULL;
}

const struct jnode *job_program(const struct job *job, const char *prog)
{
	const struct jnode *n = jnode_get(job->root, prog);

	return n && n->type == JNODE_MAP && n->n ? n : NULL;
}

const char *job_get_opt(const struct job *job, const char *prog,
			const char *opt)
{
	const struct jnode *n = jnode_get(job_program(job, prog), opt);

	return n && n->type == JNODE_SCALAR ? n->text : NULL;
}

/* put kid under key in map, in place of an old value or at the end */
static void map_put(struct jnode *map, const char *key, struct jnode *kid)
{
	long i = map_index(map, key);

	if (i < 0) {
		jnode_append(map, key, kid);
		return;
	}
	jnode_free(map->kids[i]);
	map->kids[i] = kid;
}

/* job_set_opt, the new value read from `file` (job->file, or "--set") */
static void set_opt_from(struct job *job, const char *prog, const char *opt,
			 const char *value, const char *file)
{
	long i = map_index(job->root, prog);
	struct jnode *p;
	size_t k;

	if (i >= 0 && job->root->kids[i]->type == JNODE_SEQ) {
		/* a list of option hashes (not split yet): set it in each */
		p = job->root->kids[i];
		for (k = 0; k < p->n; k++) {
			if (p->kids[k]->type != JNODE_MAP) {
				int line = p->kids[k]->line;

				jnode_free(p->kids[k]);
				p->kids[k] = jnode_new(JNODE_MAP, job->file,
						       line);
			}
			map_put(p->kids[k], opt,
				jnode_scalar(value, file, 0));
		}
		if (p->n)
			return;
	}
	if (i < 0 || job->root->kids[i]->type != JNODE_MAP) {
		p = jnode_new(JNODE_MAP, job->file,
			      i < 0 ? 0 : job->root->kids[i]->line);
		map_put(job->root, prog, p);
	} else {
		p = job->root->kids[i];
	}
	map_put(p, opt, jnode_scalar(value, file, 0));
}

void job_set_opt(struct job *job, const char *prog, const char *opt,
		 const char *value)
{
	set_opt_from(job, prog, opt, value, job->file);
}

/*
 * The program of the job whose options already hold `opt`, when exactly
 * one does: `--set test=x` then means vm-scalability's test, which would
 * otherwise win over a top-level `test`.
 */
static const char *program_holding(const struct job *job, const char *opt)
{
	const struct jnode *r = job->root;
	const char *found = NULL;
	size_t i, k;

	for (i = 0; i < r->n; i++) {
		const struct jnode *v = r->kids[i];
		bool has = false;

		if (!program_find(r->keys[i]))
			continue;
		if (v->type == JNODE_MAP)
			has = map_index(v, opt) >= 0;
		else if (v->type == JNODE_SEQ)
			for (k = 0; k < v->n && !has; k++)
				has = map_index(v->kids[k], opt) >= 0;
		if (has) {
			if (found)
				return NULL;
			found = r->keys[i];
		}
	}
	return found;
}

void job_set(struct job *job, const char *key, const char *value)
{
	const char *dot = strchr(key, '.');

	if (dot && dot != key && dot[1]) {
		char *prog = xstrndup(key, (size_t)(dot - key));

		if (program_find(prog)) {
			job_set_opt(job, prog, dot + 1, value);
			free(prog);
			return;
		}
		free(prog);
	}
	map_put(job->root, key, jnode_scalar(value, job->file, 0));
}

bool job_unset(struct job *job, const char *key)
{
	long i = map_index(job->root, key);
	struct jnode *m = job->root;

	if (i < 0)
		return false;
	jnode_free(m->kids[i]);
	free(m->keys[i]);
	memmove(m->kids + i, m->kids + i + 1,
		(m->n - (size_t)i - 1) * sizeof(*m->kids));
	memmove(m->keys + i, m->keys + i + 1,
		(m->n - (size_t)i - 1) * sizeof(*m->keys));
	m->n--;
	return true;
}

/*
 * The "file" of a value given with --set: its messages read
 * `--set: KEY: what` (a value perfsift put there has line 0).
 */
#define SET_FILE "--set"

int job_apply_set(struct job *job, const char *kv, struct strbuf *err)
{
	const char *eq = strchr(kv, '=');
	char *key = NULL, *prog = NULL;
	const char *dot, *value;
	const struct program *p;
	int ret = -1;

	if (!eq || eq == kv) {
		strbuf_reset(err);
		strbuf_addf(err, "--set '%s': expected KEY=VALUE or PROGRAM.OPTION=VALUE",
			    kv);
		return -1;
	}
	key = xstrndup(kv, (size_t)(eq - kv));
	value = eq[1] ? eq + 1 : NULL; /* `key=` means "no value" */
	dot = strchr(key, '.');
	if (dot) {
		prog = xstrndup(key, (size_t)(dot - key));
		p = program_find(prog);
		if (!p && !(jnode_get(job->root, prog) &&
			    jnode_get(job->root, prog)->type == JNODE_MAP)) {
			strbuf_reset(err);
			strbuf_addf(err, "--set '%s': '%s' is not a program",
				    kv, prog);
			goto out;
		}
		if (!dot[1] || strchr(dot + 1, '.')) {
			strbuf_reset(err);
			strbuf_addf(err, "--set '%s': expected PROGRAM.OPTION=VALUE",
				    kv);
			goto out;
		}
		set_opt_from(job, prog, dot + 1, value, SET_FILE);
	} else {
		p = program_find(key);
		if (p && !p->value) {
			strbuf_reset(err);
			strbuf_addf(err, "--set '%s': '%s' is a program with options; use %s.OPTION=VALUE",
				    kv, key, key);
			goto out;
		}
		if (!p && map_index(job->root, key) < 0 &&
		    program_holding(job, key))
			set_opt_from(job, program_holding(job, key), key, value,
				     SET_FILE);
		else
			map_put(job->root, key, jnode_scalar(value, SET_FILE, 0));
	}
	ret = job_check(job, err);
out:
	free(key);
	free(prog);
	return ret;
}

void job_warn_set(const struct job *job, const char *kv)
{
	const char *eq = strchr(kv, '=');
	struct strbuf hint = STRBUF_INIT;
	char *key;

	if (!eq || eq == kv || memchr(kv, '.', (size_t)(eq - kv)))
		return; /* not KEY=VALUE: job_apply_set() says so */
	key = xstrndup(kv, (size_t)(eq - kv));
	if (is_unknown_key(key) && !program_holding(job, key) &&
	    closest_known_key(key, &hint))
		warning("--set '%s': %s: unknown key; did you mean '%s'?", kv,
			key, hint.buf);
	free(key);
	strbuf_release(&hint);
}

/* ------------------------------------------------------------ expansion */

/*
 * Which lists multiply jobs.  LKP expands the values of its "dimensions"
 * (program names, every program option, kconfig/commit/rootfs); perfsift,
 * with a far smaller program table, expands every list of values except
 * those of keys whose value is a list by nature (packages, need_*).
 */
static bool top_list_expands(const char *key, const struct jnode *v)
{
	if (v->type != JNODE_SEQ || !v->n)
		return false;
	if (program_find(key))
		return true;
	if (kept_whole(job_key_find(key)))
		return false;
	return all_leaves(v);
}

struct jnode **job_first_dim(struct job *job, const char **key)
{
	struct jnode *root = job->root;
	size_t i, j;

	for (i = 0; i < root->n; i++) {
		struct jnode *v = root->kids[i];

		if (top_list_expands(root->keys[i], v)) {
			if (key)
				*key = root->keys[i];
			return &root->kids[i];
		}
		if (v->type != JNODE_MAP || !program_find(root->keys[i]))
			continue;
		for (j = 0; j < v->n; j++)
			if (v->kids[j]->type == JNODE_SEQ && v->kids[j]->n &&
			    all_leaves(v->kids[j])) {
				if (key)
					*key = v->keys[j];
				return &v->kids[j];
			}
	}
	return NULL;
}

bool job_is_atomic(const struct job *job)
{
	/* job_first_dim does not modify the job */
	return !job_first_dim((struct job *)job, NULL);
}

/* ----------------------------------------------------------------- YAML */

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

/* ----------------------------------------------------------- parameters */

struct param {
	const char *name;
	const struct jnode *value;
	char type;
};

static int param_cmp(const void *a, const void *b)
{
	const struct param *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/* the declared type of a top-level key that is an option of a program the job names */
static const struct program_option *referenced_option(const struct jnode *root,
						      const char *key)
{
	size_t i;

	for (i = 0; i < root->n; i++) {
		const struct program *p = program_find(root->keys[i]);
		const struct program_option *o;

		if (!p || p->kind == PROG_MONITOR)
			continue;
		o = program_option(p, key);
		if (o)
			return o;
	}
	return NULL;
}

/*
 * LKP's each_param: the values of setup and test programs (cpufreq_governor:
 * performance), their options, and top-level keys that are options of a
 * setup or test program the job names (runtime, size for vm-scalability).
 * Monitors are not parameters.  Sorted by name (qsort is not stable, so
 * equal names keep no particular order; LKP does not define one either).
 */
static size_t collect_params(const struct job *job, struct param **out)
{
	const struct jnode *root = job->root;
	struct param *ps = NULL;
	size_t n = 0, alloc = 0, i, j;

	for (i = 0; i < root->n; i++) {
		const char *key = root->keys[i];
		const struct jnode *v = root->kids[i];
		const struct program *p = program_find(key);
		const struct program_option *o;

		if (p) {
			if (p->kind == PROG_MONITOR)
				continue;
			if (is_leaf(v)) {
				ALLOC_GROW(ps, n + 1, alloc);
				ps[n++] = (struct param){key, v, '-'};
			} else if (v->type == JNODE_MAP) {
				for (j = 0; j < v->n; j++) {
					if (!is_leaf(v->kids[j]))
						continue;
					o = program_option(p, v->keys[j]);
					ALLOC_GROW(ps, n + 1, alloc);
					ps[n++] = (struct param){
						v->keys[j], v->kids[j],
						o && o->role ? o->role : '-'};
				}
			}
			continue;
		}
		o = referenced_option(root, key);
		if (o && is_leaf(v)) {
			ALLOC_GROW(ps, n + 1, alloc);
			ps[n++] = (struct param){key, v,
						 o->role ? o->role : '-'};
		}
	}
	if (n)
		qsort(ps, n, sizeof(*ps), param_cmp);
	*out = ps;
	return n;
}

/*
 * append at most `max` UTF-8 characters of s, each outside the class as
 * '_'; true when s had more (the value was cut)
 */
static bool add_path_value(struct strbuf *out, const char *s, size_t max)
{
	size_t chars = 0;

	while (*s && chars < max) {
		unsigned char c = (unsigned char)*s;
		size_t len = 1;

		if (c >= 0xc0) /* a multibyte character is one character */
			while ((s[len] & 0xc0) == 0x80)
				len++;
		if (c < 0x80 && (isalnum(c) || strchr("-+=:.%", c)))
			strbuf_addch(out, (char)c);
		else
			strbuf_addch(out, '_');
		s += len;
		chars++;
	}
	return *s != '\0';
}

/* LKP's path_params appended to out; true when a value was cut */
static bool lkp_path_params(const struct job *job, struct strbuf *out)
{
	struct param *ps;
	size_t n = collect_params(job, &ps), i, start = out->len;
	bool first = true, cut = false;

	for (i = 0; i < n; i++) {
		const char *v = ps[i].value->type == JNODE_SCALAR ?
					ps[i].value->text :
					NULL;

		if (ps[i].type != '=' && !v)
			continue;
		if (!first)
			strbuf_addch(out, '-');
		first = false;
		if (ps[i].type == '=') {
			add_path_value(out, ps[i].name, SIZE_MAX);
			if (v && *v) {
				strbuf_addch(out, '=');
				cut |= add_path_value(out, v, PARAM_VALUE_MAX);
			}
		} else {
			cut |= add_path_value(out, v, PARAM_VALUE_MAX);
		}
	}
	if (out->len == start)
		strbuf_addstr(out, "defaults");
	free(ps);
	return cut;
}

void job_path_params(const struct job *job, struct strbuf *out)
{
	lkp_path_params(job, out);
}

static int job_param_cmp(const void *a, const void *b)
{
	const struct job_param *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : strcmp(x->value, y->value);
}

void job_identity(const struct job *job, struct strbuf *out)
{
	struct job_param *ps;
	size_t n, i;

	job_params(job, &ps, &n);
	/* by key, then value: the same text whatever the order in the file */
	if (n)
		qsort(ps, n, sizeof(*ps), job_param_cmp);
	for (i = 0; i < n; i++) {
		const char *c;

		strbuf_addstr(out, ps[i].key);
		strbuf_addch(out, '=');
		/* one line a parameter, also for a multi-line command */
		for (c = ps[i].value; *c; c++) {
			if (*c == '\\' || *c == '\n')
				strbuf_addch(out, '\\');
			strbuf_addch(out, *c == '\n' ? 'n' : *c);
		}
		strbuf_addch(out, '\n');
	}
	job_params_free(ps, n);
}

/* the key of an identity line (up to '='), its length */
static size_t identity_key_len(const char *line)
{
	return strcspn(line, "=\n");
}

bool job_identity_diff(const char *a, const char *b, struct strbuf *key,
		       struct strbuf *va, struct strbuf *vb)
{
	while (*a || *b) {
		size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
		size_t ka = identity_key_len(a), kb = identity_key_len(b);
		int c;

		if (la == lb && !memcmp(a, b, la)) {
			a += la + !!a[la];
			b += lb + !!b[lb];
			continue;
		}
		/* both sorted by key: the smaller key is missing on the other side */
		if (!*a)
			c = 1;
		else if (!*b)
			c = -1;
		else {
			c = memcmp(a, b, ka < kb ? ka : kb);
			if (!c)
				c = ka == kb ? 0 : ka < kb ? -1 : 1;
		}
		strbuf_add(key, c <= 0 ? a : b, c <= 0 ? ka : kb);
		if (c <= 0)
			strbuf_add(va, a + ka + 1, la - ka - 1);
		else
			strbuf_addstr(va, "(not set)");
		if (c >= 0)
			strbuf_add(vb, b + kb + 1, lb - kb - 1);
		else
			strbuf_addstr(vb, "(not set)");
		return true;
	}
	return false;
}

void job_identity_suffix(const char *identity, struct strbuf *out)
{
	uint64_t h = fnv1a64(FNV1A64_INIT, identity, strlen(identity));

	/* 32 bits: a clash needs two jobs alike in every cut prefix too */
	strbuf_addf(out, "-h%08" PRIx32, (uint32_t)(h ^ (h >> 32)));
}

void job_group_params(const struct job *job, struct strbuf *out)
{
	struct strbuf id = STRBUF_INIT;

	if (!lkp_path_params(job, out))
		return;
	job_identity(job, &id);
	job_identity_suffix(id.buf, out);
	strbuf_release(&id);
}

void job_params(const struct job *job, struct job_param **params, size_t *n)
{
	struct param *ps;
	size_t np = collect_params(job, &ps), i;

	*params = NULL;
	*n = 0;
	for (i = 0; i < np; i++) {
		if (ps[i].value->type != JNODE_SCALAR)
			continue;
		if (!*params)
			*params = xcalloc(np, sizeof(**params));
		(*params)[*n].key = xstrdup(ps[i].name);
		(*params)[*n].value = xstrdup(ps[i].value->text);
		(*n)++;
	}
	free(ps);
}

void job_params_free(struct job_param *params, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(params[i].key);
		free(params[i].value);
	}
	free(params);
}
