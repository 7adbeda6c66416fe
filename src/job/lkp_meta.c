/*
 * lkp_meta.c: a plug-in's parameters as LKP knows them (lkp_meta.h):
 * the `# - name` / `# = name` lines at the top of its run script (LKP's
 * bin/program-options, which lib/job.rb's path_params reads) and the
 * keys of meta.yaml's `parameters:`.  They become the plug-in's options
 * in the program table, so that they are part of the group's identity
 * and path, are listed by `help keys PROGRAM`, and are typed where
 * perfsift's own top-level key of that name says what they are.
 */
#include "util/compat.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "job/job.h"
#include "job/lkp_meta.h"
#include "job/programs.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct opts {
	struct program_option *o;
	size_t n, alloc;
};

static struct program_option *find(struct opts *os, const char *name)
{
	size_t i;

	for (i = 0; i < os->n; i++)
		if (!strcmp(os->o[i].name, name))
			return &os->o[i];
	return NULL;
}

/*
 * One parameter.  Its type is that of perfsift's top-level key of the
 * same name (nr_threads: a share of the CPUs, runtime: seconds), which
 * LKP's keys of those names mean too; any other is text, as LKP passes
 * it.  Range and default stay the plug-in's business.
 */
static void add(struct opts *os, const char *name, char role, const char *help)
{
	const struct program_option *known = job_key_find(name);
	struct program_option *o = find(os, name);

	if (o) {
		if (role == '=')
			o->role = '=';
		if (help && !strncmp(o->help, "an LKP parameter", 16))
			o->help = xstrdup(help);
		return;
	}
	ALLOC_GROW(os->o, os->n + 2, os->alloc);
	o = &os->o[os->n++];
	memset(o, 0, sizeof(*o) * 2);
	o->name = xstrdup(name);
	o->role = role;
	o->type = OPT_STRING;
	if (known && (known->type == OPT_CPUS || known->type == OPT_SECONDS ||
		      known->type == OPT_SIZE || known->type == OPT_COUNT ||
		      known->type == OPT_BOOL || known->type == OPT_MEM)) {
		o->type = known->type;
		o->min = known->min;
		o->max = known->max;
	}
	o->help = help ? xstrdup(help) :
			 "an LKP parameter (its run script's header), exported as NAME=VALUE";
}

/* LKP's program-options: `^# [-=] [a-zA-Z0-9_.]+$` lines up to the first empty one */
static void read_header(struct opts *os, const char *run)
{
	struct strbuf err = STRBUF_INIT;
	char line[512];
	/* a FIFO named run blocked `help keys` for ever: regular files only */
	FILE *f = fopen_regular(run, &err);

	while (f && fgets(line, sizeof(line), f)) {
		size_t n = strcspn(line, "\n");

		line[n] = '\0';
		if (!n)
			break;
		if (n > 4 && line[0] == '#' && line[1] == ' ' &&
		    (line[2] == '-' || line[2] == '=') && line[3] == ' ' &&
		    strspn(line + 4, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				     "0123456789_.") == n - 4)
			add(os, line + 4, line[2], NULL);
	}
	if (f)
		fclose(f);
	strbuf_release(&err);
}

/* meta.yaml's parameters: NAME: description (or nothing) */
static void read_meta(struct opts *os, const char *meta)
{
	struct job **jobs = NULL;
	struct strbuf err = STRBUF_INIT;
	size_t njobs = 0, i;
	const struct jnode *ps;

	/* read as YAML only: a meta.yaml is no job, and a broken one adds nothing */
	if (access(meta, F_OK) || job_read_file(meta, &jobs, &njobs, &err) < 0) {
		strbuf_release(&err);
		return;
	}
	strbuf_release(&err);
	ps = njobs ? jnode_get(jobs[0]->root, "parameters") : NULL;
	for (i = 0; ps && ps->type == JNODE_MAP && i < ps->n; i++) {
		const struct jnode *d = ps->kids[i];
		struct strbuf help = STRBUF_INIT;

		if (d->type == JNODE_SCALAR && d->text && *d->text) {
			const char *c;

			/* one line for help keys: the description's blanks folded */
			for (c = d->text; *c; c++)
				if (!isspace((unsigned char)*c) ||
				    (help.len && help.buf[help.len - 1] != ' '))
					strbuf_addch(&help, isspace((unsigned char)*c) ? ' ' : *c);
			strbuf_rtrim(&help);
		}
		add(os, ps->keys[i], '-', help.len ? help.buf : NULL);
		strbuf_release(&help);
	}
	job_free_all(jobs, njobs);
}

const struct program_option *lkp_meta_options(const char *dir, const char *run)
{
	struct opts os = {0};
	struct strbuf meta = STRBUF_INIT;

	read_header(&os, run);
	strbuf_addf(&meta, "%s/meta.yaml", dir);
	read_meta(&os, meta.buf);
	strbuf_release(&meta);
	return os.o; /* NULL-name terminated (add() keeps one zeroed past the end) */
}

/* LKP's default, where `lkp install` puts what it builds (bin/run-local) */
#define LKP_BENCHMARK_ROOT "/lkp/benchmarks"

const char *lkp_benchmark_root(void)
{
	const char *env = getenv("BENCHMARK_ROOT");

	return env && *env ? env : LKP_BENCHMARK_ROOT;
}
