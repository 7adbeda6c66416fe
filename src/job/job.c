/*
 * job.c: the job tree (see job.h) -- its nodes, which keep key order and
 * the line of every value so that any later complaint can name them; the
 * accessors; `--set`; and which list of a job multiplies it (expand.c
 * expands it).  Reading a job file is loader.c, its checks check.c, the
 * YAML writer writer.c, path_params and the group identity path_params.c:
 * one file for each reader's question, one interface (job.h) for callers.
 */
#include "util/compat.h"
#include <stdlib.h>
#include <string.h>
#include "job/internal.h"
#include "job/job.h"
#include "job/programs.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/xalloc.h"

/* ---------------------------------------------------------------- nodes */

struct jnode *jnode_new(enum jnode_type type, const char *file, int line)
{
	struct jnode *n = xcalloc(1, sizeof(*n));

	n->type = type;
	n->file = file;
	n->line = line;
	return n;
}

/*
 * A plain `key:` (or `~`, `null`) is a JNODE_NULL rather than an empty
 * scalar: LKP reads it as "this program with its defaults".
 */
struct jnode *jnode_scalar(const char *text, const char *file, int line)
{
	struct jnode *n;

	if (!text)
		return jnode_new(JNODE_NULL, file, line);
	n = jnode_new(JNODE_SCALAR, file, line);
	n->text = xstrdup(text);
	return n;
}

/* keys and kids are freed with the node: a tree owns all that is in it */
void jnode_free(struct jnode *n)
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

/*
 * Deep copy; every copied node's file becomes `file`: a copy lives with
 * another job (a merged document, a split job), whose own file string it
 * must borrow, for the original's may be freed first.
 */
struct jnode *jnode_dup(const struct jnode *src, const char *file)
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

void jnode_append(struct jnode *parent, const char *key, struct jnode *kid)
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

/*
 * A linear search: a job's mappings hold a few dozen keys at most, and
 * their order is the file's, which LKP's path_params and the YAML writer
 * keep.
 */
long jnode_index(const struct jnode *map, const char *key)
{
	size_t i;

	if (!map || map->type != JNODE_MAP)
		return -1;
	for (i = 0; i < map->n; i++)
		if (!strcmp(map->keys[i], key))
			return (long)i;
	return -1;
}

bool jnode_is_leaf(const struct jnode *n)
{
	return n->type == JNODE_SCALAR || n->type == JNODE_NULL;
}

bool jnode_all_leaves(const struct jnode *seq)
{
	size_t i;

	for (i = 0; i < seq->n; i++)
		if (!jnode_is_leaf(seq->kids[i]))
			return false;
	return true;
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

/*
 * A copy that owns its own file name string: split makes many jobs of
 * one, and each is freed on its own.  A job without a root (built in
 * memory) gets an empty mapping, so a copy is always a job.
 */
struct job *job_dup(const struct job *job)
{
	struct job *d = xcalloc(1, sizeof(*d));

	d->file = xstrdup(job->file);
	d->stem = xstrdup(job->stem);
	d->root = job->root ? jnode_dup(job->root, d->file) :
			      jnode_new(JNODE_MAP, d->file, 0);
	return d;
}

/* --------------------------------------------------------------- access */

const struct jnode *jnode_get(const struct jnode *map, const char *key)
{
	long i = jnode_index(map, key);

	return i < 0 ? NULL : map->kids[i];
}

const char *job_get(const struct job *job, const char *key)
{
	const struct jnode *n = jnode_get(job->root, key);

	return n && n->type == JNODE_SCALAR ? n->text : NULL;
}

/* `vmstat:` alone or `vmstat: {}` is no option hash: callers see NULL */
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
	long i = jnode_index(map, key);

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
	long i = jnode_index(job->root, prog);
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

/* the value reads as the job file's own (line 0: put there by perfsift) */
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
			has = jnode_index(v, opt) >= 0;
		else if (v->type == JNODE_SEQ)
			for (k = 0; k < v->n && !has; k++)
				has = jnode_index(v->kids[k], opt) >= 0;
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

/* keys and kids shift down together: the mapping keeps its file order */
bool job_unset(struct job *job, const char *key)
{
	long i = jnode_index(job->root, key);
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
		if (!p && jnode_index(job->root, key) < 0 &&
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
	if (job_key_unknown(key) && !program_holding(job, key) &&
	    job_closest_known_key(key, &hint))
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
	if (job_opt_kept_whole(job_key_find(key)))
		return false;
	return jnode_all_leaves(v);
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
			    jnode_all_leaves(v->kids[j])) {
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
