/*
 * usage.c: die(), error(), warning(), BUG() (see usage.h).
 */
#include "util/compat.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/usage.h"

static const char *command_name;
static die_hook_fn die_hook;

void usage_set_command(const char *name)
{
	command_name = name;
}

void usage_set_die_hook(die_hook_fn fn)
{
	die_hook = fn;
}

static void vreport(const char *prefix, const char *fmt, va_list ap,
		    const char *suffix)
{
	char buf[4096];

	vsnprintf(buf, sizeof(buf), fmt, ap);
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

void die_status(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(status == EXIT_USAGE ? "" : "fatal: ", fmt, ap, NULL);
	va_end(ap);
	do_exit(status);
}

void die_errno(const char *fmt, ...)
{
	const char *s = strerror(errno);
	va_list ap;

	va_start(ap, fmt);
	vreport("fatal: ", fmt, ap, s);
	va_end(ap);
	do_exit(EXIT_RUNTIME);
}

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

void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap, NULL);
	va_end(ap);
}

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
