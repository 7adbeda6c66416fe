/*
 * programs.h: the one table of what a job can name -- the top-level keys
 * and the programs (benchmarks, monitors, setup programs, and the parsers
 * of files every run has) -- each declared once with its kind, its
 * operations (run / parse / sample / setup) and its options.  Every option
 * is typed (size, seconds, count, share of the CPUs, bool, enum, string,
 * ...) with a range, a default, its LKP path_params role and a one-line
 * help, as fio's options.c declares its job keys.  The job reader checks
 * every value against it once (job.c), the runner fills the benchmark's
 * typed parameters from it, and `perfsift help keys` prints it.
 */
#ifndef PERFSIFT_PROGRAMS_H
#define PERFSIFT_PROGRAMS_H

#include "util/compat.h"
#include <stddef.h>
#include "monitors/monitor.h"

struct bench_ops;
struct jnode;
struct strbuf;

enum program_kind {
	PROG_TEST,    /* a benchmark: vm-scalability, mytest, ... */
	PROG_MONITOR, /* runs beside the benchmark: vmstat, perf-profile, ... */
	PROG_SETUP,   /* sets a kernel knob before the benchmark */
	PROG_OUTPUT,  /* parses a file every run has (time): not a job key */
};

enum opt_type {
	OPT_STRING,  /* any text */
	OPT_ENUM,    /* one of a set of words */
	OPT_BOOL,    /* 1/0, true/false, yes/no, on/off */
	OPT_COUNT,   /* a whole number */
	OPT_SIZE,    /* bytes, with K/M/G/T (powers of 1024): 16G */
	OPT_SECONDS, /* a duration: 300, 300s, 5m, 1h */
	OPT_CPUS,    /* a count, or a percentage of the CPUs: 4, 50% */
	OPT_MEM,     /* a size, or a percentage of MemTotal: 10% */
	OPT_NSEC,    /* nanoseconds; with u or m: micro-, milliseconds */
	OPT_LIST,    /* a list kept whole (packages): never a matrix */
	OPT_ANY,     /* any shape, not checked (pp, hw, need_*) */
};

enum opt_flags {
	OPTF_SINGLE = 1 << 0,   /* one value: a list is an error, not a matrix */
	OPTF_NONEMPTY = 1 << 1, /* `key: ""` is an error (else: the default) */
	OPTF_REQUIRED = 1 << 2, /* the program cannot run without it */
	OPTF_CASE = 1 << 3,     /* picks the benchmark's case: --list-cases lists its values */
	/*
	 * 0 is read as the default (vm-scalability's and will-it-scale's
	 * runtime: "0: LKP's 300"), by the one reader of option values
	 * (params.c), so the engine, the benchmark and compare agree on it
	 */
	OPTF_ZERO_DEFAULT = 1 << 4,
};

/*
 * LKP's runtime when a job gives none: the one place it is said.  It is
 * the default of the runtime of vm-scalability, will-it-scale and fio
 * (their LKP scripts' own), and the run length LKP's floors on
 * time-valued stats assume (compare/rules.c).  The table's defaults are
 * text, as a job writes them, so the text is made from the number.
 */
#define LKP_RUNTIME 300
#define LKP_RUNTIME_TEXT PROGRAM_STR(LKP_RUNTIME)
#define PROGRAM_STR(x) PROGRAM_STR_(x)
#define PROGRAM_STR_(x) #x

/* where an option's value goes in the program's parameter struct (params.h) */
#define PARAM_AT(type, field) (offsetof(type, field) + 1)

/* an option value, parsed by its type */
struct opt_value {
	double num;    /* COUNT, SIZE, SECONDS, CPUS, MEM, NSEC: the number */
	bool pct;      /* CPUS, MEM: num is a percentage */
	bool b;        /* BOOL */
	const char *s; /* STRING, ENUM: the text (borrowed) */
};

struct program_option {
	const char *name;
	enum opt_type type;
	char role;         /* path_params: '-' value only, '=' name=value */
	unsigned flags;    /* enum opt_flags */
	/*
	 * the range of the number (bytes, seconds, nanoseconds, a count or
	 * a percentage); both 0: the type's own range (opt_range())
	 */
	double min, max;
	const char *dflt;  /* the default as a job writes it; NULL: none */
	const char *const *choices; /* OPT_ENUM: NULL-terminated words */
	/* OPT_ENUM with a set too large to list: membership, and its name */
	bool (*known)(const char *value);
	/* ... and its i-th word, NULL past the last (--list-cases lists them) */
	const char *(*nth)(size_t i);
	const char *what;  /* "a case of vm-scalability (the cases: ...)" */
	/* OPT_COUNT: a unit LKP's jobs may write after the number, taken off
	 * as LKP's run script does (sched-pipe's `loops: 10000000ops`) */
	const char *suffix;
	const char *help;  /* one line */
	/*
	 * PARAM_AT(struct, field) of the value in the program's parameter
	 * struct, and of a bool "the job gave it"; 0: not stored
	 */
	size_t at, given_at;
};

/*
 * A setup program's apply (setup/setup.h), and a program's own check of
 * its value beyond the types (a sysctl name that exists under sysroot):
 * 0, or -1 with err as `FILE:LINE: KEY: what`.
 */
typedef int (*program_apply_fn)(const struct jnode *value, const char *sysroot,
				struct strbuf *log, struct strbuf *err);
typedef int (*program_check_fn)(const struct jnode *value, const char *sysroot,
				struct strbuf *err);

struct program {
	const char *name;
	enum program_kind kind;
	const struct program_option *options; /* NULL-name terminated, or NULL */
	/* the program's one parameter as its value (cpufreq_governor: performance) */
	const struct program_option *value;
	/* an option name pattern beyond options: "sc_" for sysctl, or NULL */
	const char *option_prefix;
	struct monitor_ops mon;        /* parse and sample (name == name) */
	const struct bench_ops *bench; /* a built-in benchmark's run */
	program_apply_fn setup;        /* a setup program's knobs */
	program_check_fn check;        /* more checks, before anything runs */
	const char *help;              /* one line */
	/* an external benchmark's command and the Debian package it comes
	 * from (`perfsift install` gets it; `run` names it when missing) */
	const char *command, *package;
	/* LKP's benchmark perfsift only parses (not packaged): run says so */
	bool parse_only;
	size_t params_size; /* its parameter struct, filled by param_fill() */
	/* a plug-in's directory (PROGRAM/run, PROGRAM/parse: job/plugins.h),
	 * found on the search path at load time; NULL for the table's own */
	const char *plugin_dir;
};

/* the program a job can name called name (never PROG_OUTPUT), or NULL */
const struct program *program_find(const char *name);
/* the declared option (or one matching option_prefix), or NULL */
const struct program_option *program_option(const struct program *p,
					    const char *opt);
/* iterate every entry, PROG_OUTPUT too: programs[i] for i < program_count() */
size_t program_count(void);
const struct program *program_at(size_t i);
/* "benchmark", "monitor", "setup", "output parser" */
const char *program_kind_name(enum program_kind kind);

/* the top-level job key called name (need_* included), or NULL */
const struct program_option *job_key_find(const char *name);
size_t job_key_count(void);
const struct program_option *job_key_at(size_t i);

/* the type's name for help and messages: "size", "seconds", ... */
const char *opt_type_name(enum opt_type type);
/* the option's range, the type's own when the table gives none */
void opt_range(const struct program_option *o, double *min, double *max);
/*
 * Parse text as the option's type and check its range; 0, or -1 with
 * *why saying what is wrong in words ("is not a size (...)").  An empty
 * text is "no value" (the default) unless OPTF_NONEMPTY.
 */
int opt_parse(const struct program_option *o, const char *text,
	      struct opt_value *v, struct strbuf *why);

/*
 * `perfsift help keys [PROGRAM]`, from the table: without name, the
 * top-level keys and every program's options; 0, or -1 when name is no
 * program (err says so).
 */
int program_help(const char *name, struct strbuf *out, struct strbuf *err);

/*
 * `perfsift help programs`: every program of the table and every plug-in
 * on the search path, one line each in name order, with its kind and
 * whether it can run here (the reason when not).  programs_list.c.
 */
void program_list_help(struct strbuf *out);

/* the root a program's check looks under: $PERFSIFT_SYSROOT, else "/" */
const char *program_sysroot(void);

#endif
