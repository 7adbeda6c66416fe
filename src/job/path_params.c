/*
 * path_params.c: a job's parameters (see job.h) -- LKP's path_params, the
 * result group's directory name and identity, and the key=value list that
 * compare selects on.  All of them read the same list (collect_params):
 * the values of setup and test programs and their options, never the
 * monitors, so that what names a result and what tells two results apart
 * can never disagree about what a parameter is.
 */
#include "util/compat.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "job/internal.h"
#include "job/job.h"
#include "job/programs.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* path_params cuts every value to this many characters (LKP: v[0..30]) */
#define PARAM_VALUE_MAX 31

/*
 * One parameter as collect_params finds it: its value is borrowed from
 * the job; type is its path_params role ('=' name=value, '-' value only).
 */
struct param {
	const char *name;
	const struct jnode *value;
	char type;
};

/* by name only: LKP sorts path_params by name, and so must we */
static int param_cmp(const void *a, const void *b)
{
	const struct param *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/* the declared type of a top-level key that is an option of a program the job names */
const struct program_option *job_referenced_option(const struct jnode *root,
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
			if (jnode_is_leaf(v)) {
				ALLOC_GROW(ps, n + 1, alloc);
				ps[n++] = (struct param){key, v, '-'};
			} else if (v->type == JNODE_MAP) {
				for (j = 0; j < v->n; j++) {
					if (!jnode_is_leaf(v->kids[j]))
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
		o = job_referenced_option(root, key);
		if (o && jnode_is_leaf(v)) {
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

/* what LKP names the directory, cut values and all (its result roots) */
void job_path_params(const struct job *job, struct strbuf *out)
{
	lkp_path_params(job, out);
}

/*
 * By key, then value: a key given twice (a top-level key and a program
 * option of the same name) still makes one text whatever the file order.
 */
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

/*
 * A walk over both texts line by line, as both are sorted by key: the
 * message a mixed group gets names one parameter, the first that differs.
 */
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
	size_t start = out->len;
	bool cut = lkp_path_params(job, out);

	/*
	 * A leading '.' (a cmdline `./prog`, a value "..") would make the
	 * group directory hidden from ls and globs, or name its parent:
	 * ours start with '_' where LKP's would start with '.'
	 */
	if (out->buf[start] == '.')
		out->buf[start] = '_';
	if (!cut)
		return;
	job_identity(job, &id);
	job_identity_suffix(id.buf, out);
	strbuf_release(&id);
}

/*
 * collect_params' list, scalars only and copied: a `name=` option without
 * a value names the path but has no value to select on.
 */
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
