/*
 * programs.h: the table of programs a job can name -- benchmarks (tests),
 * monitors and setup programs -- with their options as LKP declares them
 * (`-` value only in path_params, `=` name=value).  One table, so that the
 * job reader, path_params, `install` and `run` agree on what a key means.
 */
#ifndef PERFSIFT_PROGRAMS_H
#define PERFSIFT_PROGRAMS_H

#include "util/compat.h"

enum program_kind {
	PROG_TEST,    /* a benchmark: vm-scalability, mytest, ... */
	PROG_MONITOR, /* runs beside the benchmark: vmstat, perf-profile, ... */
	PROG_SETUP,   /* sets a kernel knob before the benchmark */
};

struct program_option {
	const char *name;
	char type; /* '-' value only, '=' name=value (path_params) */
};

struct program {
	const char *name;
	enum program_kind kind;
	const struct program_option *options; /* NULL-name terminated, or NULL */
	/* true when the value is the program's one parameter (cpufreq_governor: performance) */
	bool takes_value;
};

/* the program called name, or NULL when name is a plain job key */
const struct program *program_find(const char *name);
/* the declared option, or NULL */
const struct program_option *program_option(const struct program *p,
					    const char *opt);
/* iterate: programs[i] for i < program_count() */
size_t program_count(void);
const struct program *program_at(size_t i);

#endif
