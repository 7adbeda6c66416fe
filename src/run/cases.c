/*
 * cases.c: `perfsift run JOB --list-cases` (see cases.h).  For each
 * benchmark the job names: its case option's values from the program
 * table, or -- for a program without one -- the programs that share its
 * command (perf's subcommands, sysbench's tests: each its own job key),
 * one line each, marked `*` when the job runs it, with "runs here" or
 * why not.  The why comes from the run's own checks: the program not
 * installed (the package to install, as run says), perfsift only parsing
 * it, or the benchmark's probe (bench.h) on the job with that case set --
 * the same sizing and machine checks its prepare() makes, reading only.
 */
#include "util/compat.h"
#include <stdlib.h>
#include <string.h>
#include "benchmarks/bench.h"
#include "external/external.h"
#include "job/job.h"
#include "job/params.h"
#include "job/programs.h"
#include "job/split.h"
#include "run/cases.h"
#include "setup/knob.h"
#include "run/machine.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* what every probe shares: the machine, read once */
struct lister {
	struct machine m;
	const char *sysroot;
	struct strbuf *out, *err;
};

/* the option that picks the program's case (OPTF_CASE), or NULL */
static const struct program_option *case_option(const struct program *p)
{
	const struct program_option *o;

	for (o = p->options; o && o->name; o++)
		if (o->flags & OPTF_CASE)
			return o;
	return NULL;
}

/* v (a value or a list of values) holds the word value */
static bool node_holds(const struct jnode *v, const char *value)
{
	size_t i;

	if (!v)
		return false;
	if (v->type == JNODE_SCALAR)
		return !strcmp(v->text, value);
	for (i = 0; v->type == JNODE_SEQ && i < v->n; i++)
		if (node_holds(v->kids[i], value))
			return true;
	return false;
}

/* the job runs value as p's option o: the program's option, else the top-level key */
static bool job_runs(const struct job *job, const struct program *p,
		     const struct program_option *o, const char *value)
{
	const struct jnode *prog = job_program(job, p->name);
	const struct jnode *own = prog ? jnode_get(prog, o->name) : NULL;

	if (own)
		return node_holds(own, value);
	return node_holds(jnode_get(job->root, o->name), value);
}

/* why p cannot run here at all (into why), as the run's plan finds it */
static bool program_missing(const struct program *p, struct strbuf *why)
{
	if (p->parse_only) {
		strbuf_addstr(why, "perfsift only parses its output (not in Debian's main archive)");
		return true;
	}
	/* as the run's plan: mytest runs its command, the rest need their bench_ops */
	if (!p->bench && strcmp(p->name, "mytest")) {
		strbuf_addstr(why, "not a benchmark this perfsift runs");
		return true;
	}
	if (p->command && !ext_have(p->command, NULL)) {
		strbuf_addf(why, "`%s` is not installed (apt-get install %s, or perfsift install JOB)",
			    p->command, p->package);
		return true;
	}
	return false;
}

/*
 * The benchmark's probe on job with p's option o set to value (the
 * first atomic job of the result: the job's other lists pick no case).
 * BENCH_OK, BENCH_SKIP with why, BENCH_ERROR with l->err.
 */
static int probe_case(struct lister *l, const struct job *job,
		      const struct program *p, const struct program_option *o,
		      const char *value, struct strbuf *why)
{
	struct job *j = job_dup(job), **atoms = NULL;
	struct bench_ctx ctx = {0};
	size_t n = 0;
	void *params = NULL;
	int ret = BENCH_ERROR;

	if (o)
		job_set_opt(j, p->name, o->name, value);
	if (split_job(j, &atoms, &n, l->err) < 0 || !n)
		goto out;
	params = xcalloc(1, p->params_size ? p->params_size : 1);
	if (param_fill(p, atoms[0], params, l->err) < 0)
		goto out;
	ctx.job = atoms[0];
	ctx.sysroot = l->sysroot;
	ctx.nr_cpu = l->m.nr_cpu;
	ctx.mem_total = l->m.mem_total;
	ctx.no_zero_page = l->m.zero_page && !strcmp(l->m.zero_page, "no");
	ctx.params = params;
	ctx.skip_reason = why;
	ret = p->bench->probe(&ctx, l->err);
out:
	free(params);
	job_free_all(atoms, n);
	job_free(j);
	return ret;
}

/* one line: `* NAME  runs here` or `  NAME  not here: WHY`; -1 on a probe's error */
static int case_line(struct lister *l, const struct job *job,
		     const struct program *p, const struct program_option *o,
		     const char *value, bool runs)
{
	struct strbuf why = STRBUF_INIT;
	int r = BENCH_OK;

	if (program_missing(p, &why))
		r = BENCH_SKIP;
	else if (p->bench && p->bench->probe)
		r = probe_case(l, job, p, o, value, &why);
	if (r != BENCH_ERROR)
		strbuf_addf(l->out, "%c %-28s %s%s\n", runs ? '*' : ' ', value,
			    r == BENCH_OK ? "runs here" : "not here: ", why.buf);
	strbuf_release(&why);
	return r == BENCH_ERROR ? -1 : 0;
}

/* the values of o (its words, or its list's), each a line */
static int list_values(struct lister *l, const struct job *job,
		       const struct program *p, const struct program_option *o)
{
	const char *const *w;
	const char *name;
	size_t i;

	strbuf_addf(l->out, "%s: its cases (%s:), * the job runs it\n", p->name, o->name);
	for (w = o->choices; w && *w; w++)
		if (case_line(l, job, p, o, *w, job_runs(job, p, o, *w)) < 0)
			return -1;
	for (i = 0; o->nth && (name = o->nth(i)); i++)
		if (case_line(l, job, p, o, name, job_runs(job, p, o, name)) < 0)
			return -1;
	return 0;
}

/*
 * A free-form case option (stress-ng's test: any stressor of the
 * installed stress-ng; perfsift holds no list): the job's own values.
 */
static int list_free(struct lister *l, const struct job *job,
		     const struct program *p, const struct program_option *o)
{
	const struct jnode *prog = job_program(job, p->name);
	const struct jnode *v = prog ? jnode_get(prog, o->name) : NULL;
	size_t i, n;

	if (!v)
		v = jnode_get(job->root, o->name);
	strbuf_addf(l->out, "%s: its cases (%s:) are any of %s's own; perfsift holds no list of them. The job's:\n",
		    p->name, o->name, p->command ? p->command : p->name);
	n = !v ? 0 : v->type == JNODE_SEQ ? v->n : 1;
	if (!n || (v->type != JNODE_SEQ && v->type != JNODE_SCALAR))
		strbuf_addstr(l->out, "  (none)\n");
	for (i = 0; i < n; i++) {
		const struct jnode *it = v->type == JNODE_SEQ ? v->kids[i] : v;

		if (it->type == JNODE_SCALAR && case_line(l, job, p, o, it->text, true) < 0)
			return -1;
	}
	return 0;
}

/* the benchmarks run by the external command cmd */
static bool same_command(const struct program *q, const char *cmd)
{
	return q->kind == PROG_TEST && q->command && !strcmp(q->command, cmd);
}

/* a program without a case option: it and the programs of its command */
static int list_family(struct lister *l, const struct job *job,
		       const struct program *p)
{
	size_t i, n = 0;

	for (i = 0; p->command && i < program_count(); i++)
		n += same_command(program_at(i), p->command);
	if (n < 2) {
		strbuf_addf(l->out, "%s: one case (no case option)\n", p->name);
		return case_line(l, job, p, NULL, p->name, true);
	}
	strbuf_addf(l->out, "%s: the programs of `%s` (each its own job key), * the job's\n",
		    p->name, p->command);
	for (i = 0; i < program_count(); i++) {
		const struct program *q = program_at(i);

		if (!same_command(q, p->command))
			continue;
		/* a sibling's probe would need a job of its own: the program's checks only */
		if (case_line(l, job, q, NULL, q->name, q == p) < 0)
			return -1;
	}
	return 0;
}

static int list_program(struct lister *l, const struct job *job,
			const struct program *p)
{
	const struct program_option *o = case_option(p);

	if (!o)
		return list_family(l, job, p);
	if (o->choices || o->nth)
		return list_values(l, job, p, o);
	return list_free(l, job, p, o);
}

int cases_list(struct job *const *jobs, size_t njobs, struct strbuf *out,
	       struct strbuf *err)
{
	struct lister l = {.out = out, .err = err, .sysroot = program_sysroot()};
	const struct program **seen = NULL;
	size_t nseen = 0, alloc = 0, i, k, s;
	int ret = 0;

	machine_probe(&l.m, "/");
	knob_init(l.sysroot); /* the probes' knob_check(): reading only */
	for (i = 0; i < njobs && !ret; i++)
		for (k = 0; k < jobs[i]->root->n && !ret; k++) {
			const struct program *p = program_find(jobs[i]->root->keys[k]);

			if (!p || p->kind != PROG_TEST)
				continue;
			/* a program once, with the first document naming it */
			for (s = 0; s < nseen && seen[s] != p; s++)
				;
			if (s < nseen)
				continue;
			ALLOC_GROW(seen, nseen + 1, alloc);
			seen[nseen++] = p;
			if (nseen > 1)
				strbuf_addch(out, '\n');
			ret = list_program(&l, jobs[i], p);
		}
	if (!ret && !nseen) {
		strbuf_addf(err, "%s: the job names no benchmark (perfsift help keys lists them)",
			    njobs ? jobs[0]->file : "the job");
		ret = -1;
	}
	free(seen);
	machine_release(&l.m);
	return ret;
}
