/*
 * usage.c: die(), error(), warning(), BUG() (see usage.h).
 */
#include "util/compat.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/trust.h"
#include "util/usage.h"

/* "perfsift run: error: ..." names the command, as git's messages do */
static const char *command_name;
/*
 * Run once before a die() exits: setup/knob.c restores the kernel knobs it
 * changed this way, so a fatal error never leaves the machine tuned.
 */
static die_hook_fn die_hook;

void usage_set_command(const char *name)
{
	command_name = name;
}

void usage_set_die_hook(die_hook_fn fn)
{
	die_hook = fn;
}

/*
 * One message, formatted whole before the one fprintf: stderr is
 * unbuffered, and a line written in pieces can be split by another
 * process writing to the same terminal (a benchmark's own output).
 * stdout is flushed first so the message comes after what was printed
 * before it.  suffix: strerror(errno) for the *_errno forms.
 */
static void vreport(const char *prefix, const char *fmt, va_list ap,
		    const char *suffix)
{
	char raw[4096], buf[4 * sizeof(raw)];

	/*
	 * Escaped whole: a message quotes the command line's text (an
	 * option, a path) and text read from files, and a control byte of
	 * either must not reach the terminal (trust.h)
	 */
	vsnprintf(raw, sizeof(raw), fmt, ap);
	trust_escape_msg(buf, sizeof(buf), raw);
	fflush(stdout);
	if (command_name)
		fprintf(stderr, "perfsift %s: %s%s%s%s\n", command_name, prefix,
			buf, suffix ? ": " : "", suffix ? suffix : "");
	else
		fprintf(stderr, "perfsift: %s%s%s%s\n", prefix, buf,
			suffix ? ": " : "", suffix ? suffix : "");
}

static NORETURN void do_exit(int status)
{
	die_hook_fn fn = die_hook;

	die_hook = NULL; /* a hook that dies must not loop */
	if (fn)
		fn();
	exit(status);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("fatal: ", fmt, ap, NULL);
	va_end(ap);
	do_exit(EXIT_RUNTIME);
}

/*
 * A usage or input error (exit 2) has no "fatal:" prefix: the message is
 * the FILE:LINE: KEY: ... the user must act on, and nothing went wrong
 * inside perfsift.
 */
void die_status(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(status == EXIT_USAGE ? "" : "fatal: ", fmt, ap, NULL);
	va_end(ap);
	do_exit(status);
}

/* errno is read first: formatting the message may change it */
void die_errno(const char *fmt, ...)
{
	const char *s = strerror(errno);
	va_list ap;

	va_start(ap, fmt);
	vreport("fatal: ", fmt, ap, s);
	va_end(ap);
	do_exit(EXIT_RUNTIME);
}

/* -1, so that "return error(...)" reports and fails in one statement */
int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap, NULL);
	va_end(ap);
	return -1;
}

int error_errno(const char *fmt, ...)
{
	const char *s = strerror(errno);
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap, s);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap, NULL);
	va_end(ap);
}

/* information with no level: what perfsift left out or assumed */
void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap, NULL);
	va_end(ap);
}

void usage_puts(const char *msg)
{
	char buf[16384];

	trust_escape_msg(buf, sizeof(buf), msg);
	fflush(stdout);
	fprintf(stderr, "%s\n", buf);
}

/*
 * A broken invariant: perfsift's fault, not the user's.  It aborts (a core
 * and the sanitizers' stack trace) instead of exiting, and names the
 * source line, since the message alone cannot tell the user what to fix.
 */
void bug_fl(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	char buf[1024];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fflush(stdout);
	fprintf(stderr, "perfsift: BUG: %s:%d: %s\n", file, line, buf);
	abort();
}
