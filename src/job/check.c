/*
 * check.c: the checks of a job (see job.h), against the program table
 * (programs.c) and a few rules of their own, in two passes: the shapes of
 * each document as loader.c reads it (a mapping where a value belongs, an
 * unknown program), then every value of each merged job by its type and
 * range.  Two passes because a value's type may come from a program
 * another document names; each failure is one `FILE:LINE: KEY: what`.
 */
#include "util/compat.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "job/internal.h"
#include "job/job.h"
#include "job/kpi.h"
#include "job/plugins.h"
#include "job/programs.h"
#include "setup/setup.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/usage.h"
#include "util/xalloc.h"

/* --------------------------------------------------------------- schema */

/*
 * The types of top-level keys and program options are programs.c's table.
 * Unknown plain keys with a value are allowed (LKP exports them as
 * environment variables); a mapping, a list of mappings or no value at
 * all under an unknown key is a program perfsift does not know.
 */
bool job_opt_kept_whole(const struct program_option *o)
{
	return o && (o->type == OPT_LIST || o->type == OPT_ANY);
}


/* ------------------------------------------------------------- messages */

/*
 * A key an error may quote: a name as job keys are (letters, digits and
 * _ . + - / <, and the spaces of LKP's `if role server`; at most 128
 * bytes).  Anything else is no job file's key
 * but a line of some other file -- `perfsift run /etc/shadow` as root, a
 * robot `job: /etc/shadow` -- whose content an error must not show
 * (issue 25 F13).
 */
static bool key_shown(const char *key)
{
	size_t n = strspn(key, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			       "0123456789_.+-/< ");

	return n && n <= 128 && !key[n] && key[0] != ' ';
}

void job_err_at(struct strbuf *err, const char *file, int line,
		const char *key, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	if (!key_shown(key))
		key = "(a key that is no name: not a job file?)";
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

/* the names a typo may stand for, each with its program (NULL: none) */
struct known_names {
	const char **names;
	const char **progs; /* progs[i]: the program of option names[i] */
	size_t n, alloc;
};

/*
 * One name more.  progs[] is set for every name, NULL included: the
 * arrays grow by realloc, whose new part holds no zeros to rely on.
 */
static void add_known(struct known_names *l, const char *name,
		      const char *prog)
{
	size_t alloc = l->alloc;

	ALLOC_GROW(l->names, l->n + 1, l->alloc);
	if (l->alloc != alloc)
		l->progs = xreallocarray(l->progs, l->alloc, sizeof(*l->progs));
	l->progs[l->n] = prog;
	l->names[l->n++] = name;
}

/*
 * A plain key perfsift does not know is LKP's business (it becomes an
 * environment variable), but one a typo away from a known key, program
 * or program option is most likely that typo: the known name into hint
 * ("PROGRAM.OPTION" for an option), true when there is one.
 */
bool job_closest_known_key(const char *key, struct strbuf *hint)
{
	struct known_names l = {0};
	const char *best;
	size_t i, k;

	for (i = 0; i < job_key_count(); i++)
		add_known(&l, job_key_at(i)->name, NULL);
	for (i = 0; i < program_count(); i++) {
		const struct program *p = program_at(i);
		const struct program_option *o;

		if (p->kind == PROG_OUTPUT)
			continue;
		add_known(&l, p->name, NULL);
		for (o = p->options; o && o->name; o++)
			add_known(&l, o->name, p->name);
	}
	best = suggest_closest(key, l.names, l.n, suggest_max_distance(key));
	for (k = 0; best && k < l.n; k++)
		if (l.names[k] == best) {
			strbuf_reset(hint);
			if (l.progs[k])
				strbuf_addf(hint, "%s.", l.progs[k]);
			strbuf_addstr(hint, best);
			break;
		}
	free(l.names);
	free(l.progs);
	return best != NULL;
}

bool job_key_unknown(const char *key)
{
	return !program_find(key) && !job_key_find(key);
}

/* the loader's one warning per likely typo of a document's keys */
void job_warn_typos(const char *file, const struct jnode *root)
{
	struct strbuf hint = STRBUF_INIT;
	size_t i;

	for (i = 0; i < root->n; i++)
		if (job_key_unknown(root->keys[i]) &&
		    job_closest_known_key(root->keys[i], &hint))
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
		job_err_at(err, file, v->line, prog,
			   "option '%s' must be a value or a list of values, not a mapping",
			   opt);
		return -1;
	}
	if (v->type == JNODE_SEQ)
		for (i = 0; i < v->n; i++)
			if (!jnode_is_leaf(v->kids[i])) {
				job_err_at(err, file, v->kids[i]->line, prog,
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
		job_err_at(err, file, v->line, p->name,
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
				job_err_at(err, file, it->line, p->name,
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
		job_err_at(err, file, v->line, key,
			   "expected a value (or a list of values), not a mapping");
		return -1;
	}
	if (v->type == JNODE_SEQ && !jnode_all_leaves(v)) {
		job_err_at(err, file, v->line, key,
			   "expected a value (or a list of values), not a list of mappings or lists");
		return -1;
	}
	/*
	 * testcase, suite, category: a list would make atomic jobs that
	 * only differ by a key path_params leaves out (LKP does not expand
	 * them either): split and run both refuse it
	 */
	if (v->type == JNODE_SEQ && o && (o->flags & OPTF_SINGLE)) {
		job_err_at(err, file, v->line, key,
			   "expected one value, not a list (%s is not a matrix dimension)",
			   key);
		return -1;
	}
	return 0;
}

/* the unknown program's message, naming the plug-in directories searched */
static void unknown_program(const char *file, const struct jnode *root,
			    const char *key, const struct jnode *v,
			    struct strbuf *err)
{
	const char *hint;
	struct strbuf dirs = STRBUF_INIT;

	if (!key_shown(key)) { /* another file's line: never quoted (F13) */
		job_err_at(err, file, v->line, key, "%s",
			   "not a program, option or parameter");
		return;
	}
	hint = closest_program(key);
	plugin_describe_path(key, file, root, &dirs);
	if (hint)
		job_err_at(err, file, v->line, key,
			   "unknown program (did you mean '%s'?); %s", hint, dirs.buf);
	else
		job_err_at(err, file, v->line, key,
			   "unknown program (not a benchmark, monitor or setup program perfsift knows%s); %s",
			   v->type == JNODE_NULL ? "; a plain job key needs a value" : "",
			   dirs.buf);
	strbuf_release(&dirs);
}

/*
 * Debian's package name syntax (Policy 5.6.7): [a-z0-9][a-z0-9+.-]+, with
 * apt's optional ":ARCH".  `perfsift install` hands these to apt-get as
 * root, so nothing else gets through -- no blank, no '$', no leading '-'.
 */
bool debian_package_name(const char *s)
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
			job_err_at(err, file, it->line, "packages",
				   "expected a list of Debian package names, not %s",
				   it->type == JNODE_MAP ? "a mapping" : "a list of lists");
			return -1;
		}
		if (!debian_package_name(it->text)) {
			job_err_at(err, file, it->line, "packages",
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
				job_err_at(err, file, map->kids[k]->line, "sysctl",
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
int job_check_doc(const char *file, const struct jnode *root, bool strict,
		  struct strbuf *err)
{
	size_t i;

	for (i = 0; i < root->n; i++) {
		const char *key = root->keys[i];
		const struct jnode *v = root->kids[i];
		const struct program *p = program_find(key);
		const struct program_option *o;

		/*
		 * A built-in named by the job: a plug-in of its name on the
		 * path is not used, and the user is told.  A name perfsift
		 * has no key for may be a plug-in's (plugins.h): found, it
		 * is a program from here on.
		 */
		if (p && !p->plugin_dir && strict)
			plugin_warn_shadowed(key, file, root, v->line);
		if (!p && !job_key_find(key) && strcmp(key, "kpi"))
			p = plugin_find(key, file, root);
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
		if (job_opt_kept_whole(o)) {
			if (o->type == OPT_LIST && v->type == JNODE_MAP) {
				job_err_at(err, file, v->line, key,
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
		    (v->type == JNODE_SEQ && v->n && !jnode_all_leaves(v))) {
			unknown_program(file, root, key, v, err);
			return -1;
		}
	}
	return 0;
}

/* ------------------------------------------------------ values by type */

/* one value (or each value of a list) of option o, shown as `key` */
static int check_leaves(const struct program_option *o, const char *key,
			const struct jnode *v, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	struct opt_value val;
	size_t i, n = v->type == JNODE_SEQ ? v->n : 1;
	int ret = 0;

	if (job_opt_kept_whole(o))
		return 0;
	for (i = 0; i < n && !ret; i++) {
		const struct jnode *it = v->type == JNODE_SEQ ? v->kids[i] : v;

		if (it->type != JNODE_SCALAR)
			continue;
		strbuf_reset(&why);
		if (opt_parse(o, it->text, &val, &why) < 0) {
			job_err_at(err, it->file, it->line, key, "'%s' %s",
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
int job_check_values(const struct jnode *root, struct strbuf *err)
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
			o = job_referenced_option(root, key);
		if (o && check_leaves(o, key, v, err))
			return -1;
	}
	return 0;
}

/* ------------------------------------------------------ required options */

/* a scalar with text: what param_text() (params.c) takes for a value */
static bool has_text(const struct jnode *n)
{
	return n && n->type == JNODE_SCALAR && n->text[0];
}

/*
 * The required option o of program p (stood at root[i]) in an atomic
 * job: as param_text() finds it -- the program's option, else, for a
 * benchmark or setup program (LKP flattens the two levels), the
 * top-level key.  Reported where the job leaves it empty, else at the
 * program's own line.
 */
static int check_required_option(const struct job *job, const struct program *p,
				 const struct jnode *prog,
				 const struct program_option *o,
				 struct strbuf *err)
{
	const struct jnode *opt = prog->type == JNODE_MAP ? jnode_get(prog, o->name) : NULL;
	const struct jnode *top = p->kind == PROG_MONITOR ? NULL :
				  jnode_get(job->root, o->name);
	const struct jnode *at = opt ? opt : prog;
	struct strbuf key = STRBUF_INIT, want = STRBUF_INIT;
	const char *const *w;

	if (has_text(opt) || (!opt && has_text(top)))
		return 0;
	if (!opt && top)
		at = top; /* `test: ""` at the top level */
	if (at != top)
		strbuf_addf(&key, "%s.", p->name);
	strbuf_addstr(&key, o->name);
	/* what a value is: the table's words for it */
	if (o->what)
		strbuf_addstr(&want, o->what);
	for (w = o->what ? NULL : o->choices; w && *w; w++)
		strbuf_addf(&want, "%s%s", w == o->choices ? "one of " : ", ", *w);
	if (!want.len)
		strbuf_addf(&want, "it (%s)", o->help);
	job_err_at(err, at->file ? at->file : job->file, at->line, key.buf,
		   "%s: %s needs %s%s",
		   at == prog ? "not given" : "is empty", p->name, want.buf,
		   o->flags & OPTF_CASE ? "; `perfsift run JOB --list-cases` lists them" : "");
	strbuf_release(&key);
	strbuf_release(&want);
	return -1;
}

int job_check_required(const struct job *job, struct strbuf *err)
{
	size_t i;

	for (i = 0; i < job->root->n; i++) {
		const struct program *p = program_find(job->root->keys[i]);
		const struct program_option *o;

		for (o = p ? p->options : NULL; o && o->name; o++)
			if ((o->flags & OPTF_REQUIRED) &&
			    check_required_option(job, p, job->root->kids[i], o, err))
				return -1;
	}
	return 0;
}

int job_check(const struct job *job, struct strbuf *err)
{
	return job_check_doc(job->file, job->root, true, err) ||
	       job_check_values(job->root, err) ? -1 : 0;
}
