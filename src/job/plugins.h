/*
 * plugins.h: programs perfsift finds at load time in LKP's program
 * layout -- a directory PROGRAM/ holding `run` (any executable: the
 * benchmark; its stdout is the raw output) and `parse` (reads the raw
 * output on stdin, its path in argv[1], and prints `key: value` lines),
 * as LKP's programs/<p>/{run,parse}.  They are searched for, in order, in
 *
 *   1. $PERFSIFT_PROGRAMS (colon-separated directories holding PROGRAM/),
 *   2. the job file's own directory's programs/ (and, for an atomic job
 *      `split` wrote elsewhere, its job_origin's directory's programs/),
 *   3. an LKP checkout: --lkp-src DIR, else $LKP_SRC, as DIR/programs/.
 *
 * A built-in program (the table of programs.c) always comes first: a
 * plug-in of the same name is never used, and a job naming that program
 * gets a warning saying so.  A plug-in found is an entry of the program
 * table like any other (program_find() returns it), of kind PROG_TEST
 * with no declared options: every key under it goes to its run script as
 * an environment variable.  See docs/programs.md.
 */
#ifndef PERFSIFT_PLUGINS_H
#define PERFSIFT_PLUGINS_H

#include "util/compat.h"
#include <stddef.h>

struct jnode;
struct monitor_ops;
struct program;
struct strbuf;

/* --lkp-src DIR for this process (NULL: back to $LKP_SRC) */
void plugin_set_lkp_src(const char *dir);
/* the LKP checkout in use (--lkp-src, else $LKP_SRC), or NULL */
const char *plugin_lkp_src(void);

/*
 * The plug-in called name on the search path of a job read from
 * job_file (root: its top-level keys, for job_origin; either may be
 * NULL), registered so that program_find() knows it from now on; NULL
 * when there is none (or name is a built-in's, or no plain file name).
 */
const struct program *plugin_find(const char *name, const char *job_file,
				  const struct jnode *root);
/*
 * The plug-in in directory dir (a run's NAME.plugin names it), which
 * must be called name, part of the LKP checkout lkp (or NULL);
 * registered and returned, or NULL (no plug-in there, or name is a
 * built-in's)
 */
const struct program *plugin_find_at(const char *dir, const char *name,
				     const char *lkp);
/* a plug-in registered before, by name, or NULL (program_find's second look) */
const struct program *plugin_registered(const char *name);

/*
 * For a message about a program not found: "no plug-in NAME/ in DIR
 * (from), DIR (from)", or that there was no directory to look in.
 */
void plugin_describe_path(const char *name, const char *job_file,
			  const struct jnode *root, struct strbuf *out);
/*
 * A job names built-in program `name`: warn (once per name) when a
 * plug-in of that name is on the path, since the built-in is used.
 */
void plugin_warn_shadowed(const char *name, const char *job_file,
			  const struct jnode *root, int line);

/* a plug-in's directory, run and parse scripts (parse may be NULL) */
const char *plugin_dir(const struct program *p);
const char *plugin_run_script(const struct program *p);
const char *plugin_parse_script(const struct program *p);
/*
 * The LKP checkout a plug-in's scripts get as LKP_SRC: the one it was
 * found in, else the one in use (plugin_lkp_src()), else NULL
 */
const char *plugin_lkp_root(const struct program *p);
/*
 * LKP's programs/<p>/daemon of a plug-in that has no run script (a
 * server role's program, iperf-server): started before the job's
 * benchmark and stopped after it; NULL for every other program
 */
const char *plugin_daemon_script(const struct program *p);
/* the LKP checkout the plug-in was found in (its programs/), or NULL */
const char *plugin_lkp_checkout(const struct program *p);
/* the parse script is a Ruby one (#! naming ruby), as LKP's are */
bool plugin_parse_needs_ruby(const struct program *p);
/* Ruby is on PATH */
bool plugin_have_ruby(void);
/*
 * A stop request (SIGINT/SIGTERM) the caller took: from now on no parse
 * script is started (the raw files are kept for `perfsift stats`), as
 * none is while one waits pending.  A script that runs past its time
 * limit (PERFSIFT_PARSE_TIMEOUT, 600 s) is killed with its group.
 */
void plugin_parse_stop(int sig);
/*
 * Whether plug-in p can run here: true, or false with the reason (one
 * line) in why.
 */
bool plugin_can_run(const struct program *p, struct strbuf *why);

/* the plug-ins registered so far: plugin_at(i) for i < plugin_count() */
size_t plugin_count(void);
const struct program *plugin_at(size_t i);

/*
 * Register every plug-in on the search path without a job (for `help
 * programs`); the number found.
 */
size_t plugin_scan_all(void);

/*
 * Run a parser: a table parser directly, a plug-in's parse script as LKP's
 * run-stats does (stdin the raw file, argv[1] its path).  0 with the
 * stream in out; -1 with err; 1 when it cannot be run here (Ruby
 * missing): err says which program, which script and what to install, and
 * the raw file is to be kept for `perfsift stats` to parse later.
 */
int monitor_parse(const struct monitor_ops *m, const char *raw, size_t len,
		  const char *path, struct strbuf *out, struct strbuf *err);

#endif
