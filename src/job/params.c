/*
 * params.c: a program's typed parameters filled from a job through the
 * program table (see params.h).  The one place where option text becomes
 * a benchmark's or monitor's numbers: opt_parse() (programs.c) parses,
 * the table's `at` says where each value goes.
 */
#include "util/compat.h"
#include <string.h>
#include <limits.h>
#include "job/job.h"
#include "job/params.h"
#include "job/plugins.h"
#include "util/strbuf.h"
#include "util/usage.h"

static const char *scalar_text(const struct jnode *n)
{
	return n && n->type == JNODE_SCALAR && n->text[0] ? n->text : NULL;
}

const char *param_text(const struct job *job, const struct program *p,
		       const char *name)
{
	const char *s;

	if (!job)
		return NULL;
	s = p ? scalar_text(jnode_get(job_program(job, p->name), name)) : NULL;
	if (!s && (!p || p->kind != PROG_MONITOR))
		s = scalar_text(jnode_get(job->root, name));
	return s;
}

/* the declaration of name: the program's option, else the top-level key */
static const struct program_option *declared(const struct program *p,
					     const char *name)
{
	const struct program_option *o = p ? program_option(p, name) : NULL;

	return o ? o : job_key_find(name);
}

/*
 * text read as o's value: opt_parse() by o's type, then a 0 that means
 * the default (OPTF_ZERO_DEFAULT) read as the default.  Every reader of
 * an option's value comes here -- param_fill() for the benchmark,
 * param_value() for the engine, param_text_value() for the axes compare
 * reads -- so none of them can apply a default the others do not.
 */
static int parse_value(const struct program_option *o, const char *text,
		       struct opt_value *v, struct strbuf *why)
{
	if (opt_parse(o, text, v, why) < 0)
		return -1;
	if ((o->flags & OPTF_ZERO_DEFAULT) && v->num == 0 && o->dflt)
		return opt_parse(o, o->dflt, v, why);
	return 0;
}

static int value_of(const struct job *job, const struct program *p,
		    const struct program_option *o, struct opt_value *v,
		    struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	const char *text = param_text(job, p, o->name);
	int ret = text ? 1 : 0;

	if (!text)
		text = o->dflt ? o->dflt : "";
	if (parse_value(o, text, v, &why) < 0) {
		strbuf_addf(err, "%s: %s%s%s: '%s' %s", job ? job->file : "<job>",
			    p ? p->name : "", p ? "." : "", o->name, text,
			    why.buf);
		ret = -1;
	}
	strbuf_release(&why);
	return ret;
}

int param_value(const struct job *job, const struct program *p,
		const char *name, struct opt_value *v, struct strbuf *err)
{
	const struct program_option *o = declared(p, name);

	if (!o)
		BUG("param_value: '%s' is not declared for %s", name,
		    p ? p->name : "the job");
	return value_of(job, p, o, v, err);
}

int param_text_value(const struct program *p, const char *name,
		     const char *text, struct opt_value *v, struct strbuf *why)
{
	const struct program_option *o = declared(p, name);

	if (!o)
		BUG("param_text_value: '%s' is not declared for %s", name,
		    p ? p->name : "the job");
	return parse_value(o, text && *text ? text : o->dflt ? o->dflt : "",
			   v, why);
}

/*
 * The job's benchmark: its first test program (a job runs one; the
 * engine says so when there are two), not a plug-in's server daemon,
 * which runs beside the benchmark.  NULL: the job names none.
 */
static const struct program *benchmark_of(const struct job *job)
{
	const struct jnode *root = job->root;
	size_t i;

	for (i = 0; i < root->n; i++) {
		const struct program *prog = program_find(root->keys[i]);

		if (prog && prog->kind == PROG_TEST && !plugin_daemon_script(prog))
			return prog;
	}
	return NULL;
}

int param_runtime(const struct job *job, const struct program *p,
		  double *seconds, struct strbuf *err)
{
	struct opt_value v;

	if (!p)
		p = benchmark_of(job);
	if (param_value(job, p, "runtime", &v, err) < 0)
		return -1;
	*seconds = v.num;
	return 0;
}

/* store v where o says, by o's type (params.h) */
static void store(const struct program_option *o, const struct opt_value *v,
		  bool given, char *base)
{
	void *at = base + o->at - 1;

	switch (o->type) {
	case OPT_STRING:
	case OPT_ENUM:
		*(const char **)at = v->s && *v->s ? v->s : NULL;
		break;
	case OPT_BOOL:
		*(bool *)at = v->b;
		break;
	case OPT_COUNT:
	case OPT_SIZE:
	case OPT_NSEC:
		*(uint64_t *)at = (uint64_t)v->num;
		break;
	case OPT_SECONDS:
		*(double *)at = v->num;
		break;
	case OPT_CPUS:
	case OPT_MEM:
		*(struct param_share *)at = (struct param_share){
			v->num, v->pct, given};
		break;
	default:
		BUG("param_fill: option '%s' of type %s has no storage",
		    o->name, opt_type_name(o->type));
	}
	if (o->given_at)
		*(bool *)(base + o->given_at - 1) = given;
}

int param_fill(const struct program *p, const struct job *job, void *params,
	       struct strbuf *err)
{
	const struct program_option *o;

	memset(params, 0, p->params_size);
	for (o = p->options; o && o->name; o++) {
		struct opt_value v;
		int r;

		if (!o->at)
			continue;
		r = value_of(job, p, o, &v, err);
		if (r < 0)
			return -1;
		if (!r && (o->flags & OPTF_REQUIRED)) {
			strbuf_addf(err, "%s: %s.%s: not given, and %s needs it (%s: {%s: ...})",
				    job ? job->file : "<job>", p->name, o->name, p->name,
				    p->name, o->name);
			return -1;
		}
		store(o, &v, r > 0, params);
	}
	return 0;
}

uint64_t param_share_of(const struct param_share *s, uint64_t whole)
{
	return s->pct ? (uint64_t)((long double)whole * s->num / 100) :
			(uint64_t)s->num;
}

unsigned param_cpus_of(const struct param_share *s, unsigned nr_cpu)
{
	long double n = s->pct ? (long double)nr_cpu * s->num / 100 : s->num;

	/* compared before the cast: a negative count is no huge one */
	if (n < 1)
		return 1;
	if (n > UINT_MAX)
		return UINT_MAX;
	return (unsigned)n;
}
