/*
 * usage.h: the three error tiers of perfsift.
 *
 *  BUG()     a broken invariant: reports file:line and aborts.
 *  error()   library code: prints "error: ..." and returns -1, so
 *            `return error("cannot open '%s'", path);` is the idiom.
 *  die()     only main.c and src/cmd/: prints "fatal: ..." and exits
 *            with the runtime-error status (3) unless told otherwise.
 *
 * Messages are lowercase, have no final period and quote the subject.
 */
#ifndef PERFSIFT_USAGE_H
#define PERFSIFT_USAGE_H

#include "util/compat.h"

/* exit codes, as listed in `perfsift --help` */
enum exit_code {
	EXIT_OK = 0,
	EXIT_REGRESSION = 1, /* compare/report: a KPI regressed */
	EXIT_USAGE = 2,      /* bad usage or bad job file */
	EXIT_RUNTIME = 3,    /* anything else that went wrong */
	/* run --until-decided: a KPI still undecided at the end (no
	 * regression decided) -- neither "same" nor "regressed" */
	EXIT_UNDECIDED = 4,
};

NORETURN void die(const char *fmt, ...) PRINTF_LIKE(1, 2);
NORETURN void die_errno(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* die with an explicit exit status */
NORETURN void die_status(int status, const char *fmt, ...) PRINTF_LIKE(2, 3);
int error(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* error() with ": strerror(errno)" appended */
int error_errno(const char *fmt, ...) PRINTF_LIKE(1, 2);
void warning(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* an informational line on stderr, "perfsift: ..." */
void note(const char *fmt, ...) PRINTF_LIKE(1, 2);
/*
 * msg on a line of its own, as it is but escaped as every message is
 * (a control byte of the command line's text or a file's as \xHH): for
 * a FILE:LINE: message or one that names its command itself
 */
void usage_puts(const char *msg);
NORETURN void bug_fl(const char *file, int line, const char *fmt, ...)
	PRINTF_LIKE(3, 4);
#define BUG(...) bug_fl(__FILE__, __LINE__, __VA_ARGS__)

/*
 * The command name shown before messages ("perfsift run: ...") is kept by
 * main.c; library code never needs to know it.
 */
void usage_set_command(const char *name);

/* run before exit(): registered by modules that must undo things on die() */
typedef void (*die_hook_fn)(void);
void usage_set_die_hook(die_hook_fn fn);

#endif
