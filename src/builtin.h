/*
 * builtin.h: the commands of perfsift.  Each, cmd_<name>(), lives in its
 * own file src/cmd/<name>.c, parses its own options (getopt_long, with
 * --help) and returns an exit code from util/usage.h.  Only main.c and
 * the files of src/cmd/ may die().
 */
#ifndef PERFSIFT_BUILTIN_H
#define PERFSIFT_BUILTIN_H

#include "util/compat.h"
#include <getopt.h>

/* options that main.c parses before the command name, owned by main */
struct options {
	const char *result_root; /* --result-root, resolved; never NULL */
	const char *store_url;   /* --store or PERFSIFT_STORE; NULL = SQLite */
	bool result_root_given;  /* --result-root or PERFSIFT_RESULT_ROOT set */
};

/*
 * Flags of a command in main.c's table.  CMD_OWN_KNOB_RESTORE: the
 * command puts back the knobs a killed perfsift left itself (`restore`,
 * verbosely), so main() does not do it first, as it does for every other
 * command.
 */
#define CMD_OWN_KNOB_RESTORE (1u << 0)

#define CMD_ARGS int argc, char **argv, struct options *opts
int cmd_split(CMD_ARGS);
int cmd_install(CMD_ARGS);
int cmd_run(CMD_ARGS);
int cmd_restore(CMD_ARGS);
int cmd_parse(CMD_ARGS);
int cmd_stats(CMD_ARGS);
int cmd_results(CMD_ARGS);
int cmd_compare(CMD_ARGS);
int cmd_plot(CMD_ARGS);
int cmd_report(CMD_ARGS);
int cmd_bisect(CMD_ARGS);
int cmd_bisect_step(CMD_ARGS);
int cmd_robot(CMD_ARGS);
int cmd_history(CMD_ARGS);
int cmd_site(CMD_ARGS);
int cmd_queue(CMD_ARGS);
int cmd_worker(CMD_ARGS);
int cmd_push(CMD_ARGS);
int cmd_pull(CMD_ARGS);
int cmd_calibrate(CMD_ARGS);

/*
 * Print a command's usage text; to stdout with status 0 for --help, to
 * stderr with EXIT_USAGE for a mistake.  Returns the status to exit with.
 */
int cmd_usage(const char *text, bool on_error);
/* the same for a command that is not built yet on this branch */
int cmd_not_built(const char *name, int argc, char **argv);

/*
 * getopt_long() for every command and main's own options, but its
 * errors are perfsift's (cmd/args.c): glibc's quote the option as typed,
 * control bytes and all ("unrecognized option '--\e]0;...'", the fourth
 * attack, L12), this one escaped, through note().  Returns what
 * getopt_long() does ('?' after the message).
 */
int cmd_getopt(int argc, char **argv, const char *shortopts,
	       const struct option *longopts);

/* --seed N of compare and history (cmd/args.c): dies with EXIT_USAGE */
uint64_t cmd_seed_arg(const char *arg);
/*
 * A number option in [min, max], or exit 2 naming opt and arg.  One
 * double for every numeric option: an integer option is cast by its
 * caller after the range check, so "1e3" is accepted wherever 1000 is.
 */
double cmd_double_arg(const char *opt, const char *arg, double min, double max);
/*
 * --commit ID of run and calibrate: the id names a directory of the
 * result root, so one plain name (no '/', no control character).  0, or
 * -1 said on stderr; NULL (not given) is fine.
 */
int cmd_check_commit(const char *commit);

#endif
