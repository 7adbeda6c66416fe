/*
 * params.h: a program's typed parameters, filled from an atomic job by the
 * program table (programs.h).  A benchmark or monitor declares a struct of
 * its parameters and, per option, where the value goes (`offset`); the
 * runner fills it once and the program parses nothing.  The values were
 * checked when the job was read (job.c), so a fill only fails on a job
 * built past those checks.
 *
 * Storage by type: STRING, ENUM `const char *` (borrowed from the job, NULL
 * when not given); BOOL `bool`; COUNT, SIZE, NSEC `uint64_t`; SECONDS
 * `double`; CPUS, MEM `struct param_share` (a count or bytes, or a share
 * the program resolves against its CPUs or memory: param_share_of()).
 */
#ifndef PERFSIFT_PARAMS_H
#define PERFSIFT_PARAMS_H

#include "util/compat.h"
#include "job/programs.h"

struct job;
struct strbuf;

/* a CPUS or MEM value: a number, or a percentage of a whole */
struct param_share {
	double num; /* the count, the bytes, or the percentage */
	bool pct;   /* num is a percentage */
	bool given; /* the job gave it (else: the option's default) */
};
/* the share's number for a whole of `whole`: a percentage truncated */
uint64_t param_share_of(const struct param_share *s, uint64_t whole);
/*
 * A CPUS value's number of tasks on nr_cpu CPUs, the one rule for the
 * built-ins and the plug-ins' environment: a percentage truncated as
 * LKP's (params/nr_threads: `($1.to_f * nr_cpu / 100).to_i`, so 50% of 3
 * CPUs is 1), a count as given, and at least 1 either way (50% of one
 * CPU is still a task, where LKP would hand a script 0).
 */
unsigned param_cpus_of(const struct param_share *s, unsigned nr_cpu);

/*
 * The job's text for program p's option name: the program's option, else
 * -- for benchmarks and setup programs, as LKP flattens the two levels --
 * the top-level key of that name; NULL when neither gives a value.
 */
const char *param_text(const struct job *job, const struct program *p,
		       const char *name);

/*
 * The value of option name of program p by its type: the job's, else the
 * option's default.  1 given, 0 not given (v holds the default's value, or
 * zeros), -1 with err `FILE: PROG.NAME: ...` for a value that is not one.
 */
int param_value(const struct job *job, const struct program *p,
		const char *name, struct opt_value *v, struct strbuf *err);

/*
 * text (a value as a job writes it: an axis of a group) read as option
 * name of program p (NULL: the top-level key) would be read from a job:
 * by its type, NULL or "" as the default, the option's 0-means-default.
 * 0, or -1 with why.
 */
int param_text_value(const struct program *p, const char *name,
		     const char *text, struct opt_value *v, struct strbuf *why);

/*
 * The runtime, in seconds, that job's benchmark p (NULL: the job's own
 * test program) runs for: p's runtime option, else the top-level key,
 * else p's default (LKP_RUNTIME for vm-scalability, will-it-scale and
 * fio), 0 when none says.  The one reader of a job's runtime: the engine
 * plans with it and compare's floors scale by it, and the benchmark's
 * param_fill() goes through the same parse.  0, or -1 with err.
 */
int param_runtime(const struct job *job, const struct program *p,
		  double *seconds, struct strbuf *err);

/*
 * Fill *params (p->params_size bytes) from job: every option with a
 * place in the struct (`at`), the job's value or the default; a required
 * option not given is an error.  0, or -1 with err.
 */
int param_fill(const struct program *p, const struct job *job, void *params,
	       struct strbuf *err);

#endif
