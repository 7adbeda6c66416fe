/*
 * internal.h: what the files of the job module share -- job.c (the tree
 * and its accessors), loader.c (the YAML reader), check.c (the checks),
 * writer.c (the YAML writer) and path_params.c (path_params and the
 * group identity).  Not for other modules: they read jobs through job.h,
 * which stays the one interface, so that splitting job.c into files for
 * its readers changed nothing for its callers.
 */
#ifndef PERFSIFT_JOB_INTERNAL_H
#define PERFSIFT_JOB_INTERNAL_H

#include "util/compat.h"
#include "job/job.h"

struct program_option;

/* ------------------------------------------------- the tree (job.c) */

/* a new empty node of `type` read at file:line (0: put there by perfsift) */
struct jnode *jnode_new(enum jnode_type type, const char *file, int line);
/* a scalar of a copy of text, or a JNODE_NULL when text is NULL */
struct jnode *jnode_scalar(const char *text, const char *file, int line);
/* n and everything below it; NULL is fine */
void jnode_free(struct jnode *n);
/* deep copy; every copied node's file becomes `file` */
struct jnode *jnode_dup(const struct jnode *src, const char *file);
/* append kid to a list (key NULL) or a mapping (key copied) */
void jnode_append(struct jnode *parent, const char *key, struct jnode *kid);
/* the index of key in a mapping, or -1 (also when map is no mapping) */
long jnode_index(const struct jnode *map, const char *key);
/* a scalar or nothing: what a list of values may hold */
bool jnode_is_leaf(const struct jnode *n);
/* every item of a list is a leaf */
bool jnode_all_leaves(const struct jnode *seq);

/* ----------------------------------------------- the checks (check.c) */

/*
 * err = "FILE:LINE: KEY: what" (or "FILE: KEY: what" for line 0, a value
 * perfsift put there); nothing when err is NULL
 */
void job_err_at(struct strbuf *err, const char *file, int line,
		const char *key, const char *fmt, ...) PRINTF_LIKE(5, 6);
/* the keys kept whole (lists by nature, free-form values): never split */
bool job_opt_kept_whole(const struct program_option *o);
/* neither a program nor a top-level key of the table */
bool job_key_unknown(const char *key);
/*
 * The known key, program or "PROGRAM.OPTION" a typo away from key into
 * hint; true when there is one.
 */
bool job_closest_known_key(const char *key, struct strbuf *hint);
/* one warning per likely typo among a document's keys */
void job_warn_typos(const char *file, const struct jnode *root);
/*
 * The shapes of one document; strict adds the rules of jobs perfsift runs
 * (one testcase, no unknown `name:` alone).  0, or -1 with err.
 */
int job_check_doc(const char *file, const struct jnode *root, bool strict,
		  struct strbuf *err);
/* every value by its type and range (programs.c's table); 0 or -1 */
int job_check_values(const struct jnode *root, struct strbuf *err);

/* ------------------------------------------ parameters (path_params.c) */

/*
 * The declared type of a top-level key that is an option of a setup or
 * test program the job names (LKP flattens the two levels), or NULL.
 */
const struct program_option *job_referenced_option(const struct jnode *root,
						   const char *key);

#endif
