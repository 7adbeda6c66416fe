/*
 * job.h: LKP job files as a tree.  A job is a YAML mapping whose keys keep
 * their order and whose every value remembers the file and line it came
 * from, so that any later complaint can say `FILE:LINE: KEY: what`.
 *
 * Owned by the job/split module: job.c (the tree, accessors, --set),
 * loader.c (reading), check.c (the checks), writer.c (YAML out),
 * path_params.c (path_params, the group identity, the parameters),
 * expand.c; what they share among themselves is job/internal.h.  The
 * runner, the result root and the report only read jobs through this
 * interface.
 */
#ifndef PERFSIFT_JOB_H
#define PERFSIFT_JOB_H

#include "util/compat.h"

struct strbuf;

enum jnode_type {
	JNODE_NULL,   /* `key:` with no value (LKP: "run with defaults") */
	JNODE_SCALAR, /* text, as written (numbers are text too) */
	JNODE_SEQ,    /* a list */
	JNODE_MAP,    /* a mapping, keys in file order */
};

struct jnode {
	enum jnode_type type;
	char *text;        /* JNODE_SCALAR: the value */
	size_t n;          /* JNODE_SEQ / JNODE_MAP: number of children */
	size_t alloc;
	char **keys;       /* JNODE_MAP: keys[i] names kids[i] */
	struct jnode **kids;
	const char *file;  /* where the value was read; borrowed, lives with the job */
	int line;          /* 1-based; 0 for values perfsift added */
};

struct job {
	struct jnode *root; /* always a JNODE_MAP */
	char *file;         /* path it was read from (or "<set>") */
	char *stem;         /* file name without directory and .yaml: the LKP "name" */
};

/*
 * Read every document of a job file.  A single document yields one job;
 * a multi-document file (---) yields doc0, then doc0 merged with each
 * later document (LKP's rule, lib/job.rb: doc0, doc0+doc1, ..., doc0+docN;
 * docN's keys win, program option hashes merge key by key).  The jobs are not yet
 * matrix-expanded (see split.h).  On error fills err with
 * "FILE:LINE: KEY: what is wrong" and returns -1, touching nothing on disk.
 * *jobs is a new array the caller frees with job_free_all().
 */
int job_load_file(const char *path, struct job ***jobs, size_t *njobs,
		  struct strbuf *err);
/*
 * job_load_file without the schema check (unknown programs, value types):
 * for the job.yaml of a run in a result root, which LKP's own robot fills
 * with programs and keys perfsift does not know.  YAML errors and
 * duplicate keys are still errors.
 */
int job_read_file(const char *path, struct job ***jobs, size_t *njobs,
		  struct strbuf *err);
/*
 * A run's job.yaml as the result root reads it: YAML, duplicate keys and
 * the shapes of the keys and programs perfsift knows (an unknown program
 * is an error, so a run of LKP's that names one is known by its path
 * alone); not the value types or the machine checks (it ran elsewhere).
 */
int job_read_run_file(const char *path, struct job ***jobs, size_t *njobs,
		      struct strbuf *err);
/* the same from a string (tests); `name` stands in for the file name */
int job_load_string(const char *text, const char *name, struct job ***jobs,
		    size_t *njobs, struct strbuf *err);
void job_free(struct job *job);
void job_free_all(struct job **jobs, size_t n);
struct job *job_dup(const struct job *job);

/* map lookup: the child of `map` named key, or NULL */
const struct jnode *jnode_get(const struct jnode *map, const char *key);
/* scalar text of a top-level key, or NULL when absent / not a scalar */
const char *job_get(const struct job *job, const char *key);
/* the option hash of program `prog` (NULL when absent or empty) */
const struct jnode *job_program(const struct job *job, const char *prog);
/* scalar text of program option prog.opt, or NULL */
const char *job_get_opt(const struct job *job, const char *prog,
			const char *opt);
/*
 * Set a top-level key (or, for "prog.opt", a program option) to a scalar,
 * replacing what was there and keeping the key's position; new keys are
 * appended.  Used for machine facts and `--set`.
 */
void job_set(struct job *job, const char *key, const char *value);
void job_set_opt(struct job *job, const char *prog, const char *opt,
		 const char *value);
/* remove a top-level key; true if it was there */
bool job_unset(struct job *job, const char *key);

/*
 * `--set` for the runner: "key=value" sets a top-level key,
 * "program.option=value" a program's option ("key=" means no value).
 * A plain key that is not at the top level but is an option of exactly one
 * program of the job sets that option (`test=x` for vm-scalability's test).
 * A program given a list of option hashes gets the option in each.  The
 * job is checked again afterwards; on error fills err and returns -1.
 */
int job_apply_set(struct job *job, const char *kv, struct strbuf *err);
/*
 * The warning for a `--set KEY=VALUE` whose KEY is unknown but a typo
 * away from a known key or program ("did you mean ...?"), once per --set
 * (job_apply_set() is per job); unknown keys are still set, as LKP does.
 */
void job_warn_set(const struct job *job, const char *kv);
/*
 * The checks job_load_* make, for a job built or changed in memory: the
 * shapes, then every value by its type and range (programs.h's table) and
 * each program's own check; 0, or -1 with err as `FILE:LINE: KEY: what`.
 */
int job_check(const struct job *job, struct strbuf *err);
/*
 * The options an atomic job's programs cannot run without (the table's
 * OPTF_REQUIRED: vm-scalability's and will-it-scale's test), each given
 * a value: split_job() checks every atomic job it makes, so split,
 * install and run refuse a job without one before anything is written,
 * and a `--set` may still give it.  0, or -1 with err `FILE:LINE: KEY:`.
 */
int job_check_required(const struct job *job, struct strbuf *err);

/*
 * The first list that multiplies jobs, in key order (top-level keys, then
 * a program's options where the program stands): the slot holding it, so
 * that split can put each item in its place; *key (if key) names it.
 * NULL when the job is atomic.  Lists that are lists by nature
 * (packages, need_*) never expand.
 */
struct jnode **job_first_dim(struct job *job, const char **key);
/* true when nothing in the job expands (job_first_dim() is NULL) */
bool job_is_atomic(const struct job *job);

/* the job as YAML text, LKP's key order, appended to out */
void job_to_yaml(const struct job *job, struct strbuf *out);

/*
 * LKP's path_params: every parameter (plain keys and program options, as
 * program-options declares them), sorted by name, values cut to 31
 * characters, `name=value` or value only per option type, joined with
 * '-', characters outside [-a-zA-Z0-9+=:.%] turned to '_', "defaults"
 * when empty.  Appended to out.
 */
void job_path_params(const struct job *job, struct strbuf *out);

/*
 * What tells two atomic jobs apart (a result group's identity): every job
 * parameter (job_params(): program options and the top-level keys a
 * program declares, the full value, never cut) as "key=value\n" lines
 * sorted by key and value (a newline or backslash in a value escaped with
 * a backslash: one line a parameter).  Monitors and their settings, machine facts
 * and plain keys (kpi:, comments for people) change nothing that runs and
 * are not in it.  Appended to out.
 */
void job_identity(const struct job *job, struct strbuf *out);
/*
 * Whether two identity texts differ: true with the first parameter (in
 * key order) that does appended to key, its values to va and vb
 * ("(not set)" where one side lacks it).
 */
bool job_identity_diff(const char *a, const char *b, struct strbuf *key,
		       struct strbuf *va, struct strbuf *vb);
/* "-h" and 8 hex digits of a hash of an identity text, appended to out */
void job_identity_suffix(const char *identity, struct strbuf *out);
/*
 * The path_params directory of the job's result group (and the middle of
 * split's file names): LKP's path_params, unless a value was cut to 31
 * characters -- then jobs alike in their first 31 characters would share
 * a group -- when job_identity_suffix() of the job is appended:
 * `perf_bench_sched_pipe_-T_-l_200-h2f59bca1` for the command
 * `perf bench sched pipe -T -l 2000000`.  Appended to out.
 */
void job_group_params(const struct job *job, struct strbuf *out);

/*
 * Every job parameter as "key=value" pairs (what `compare` selects on and
 * the report header prints), sorted by key.  Caller frees with
 * job_params_free().
 */
struct job_param {
	char *key;
	char *value;
};
void job_params(const struct job *job, struct job_param **params, size_t *n);
void job_params_free(struct job_param *params, size_t n);

/*
 * Debian's package name syntax (Policy 5.6.7), with apt's optional
 * ":ARCH": the only names `perfsift install` hands to apt-get.
 */
bool debian_package_name(const char *s);

#endif
