/*
 * args.c: option arguments that several commands take and must read the
 * same way (builtin.h).  One parser per option, so that `compare --seed`
 * and `history --seed` accept the same numbers and word their errors the
 * same: a second copy would drift the first time one of them changed.
 */
#include "util/compat.h"
#include <limits.h>
#include <string.h>
#include "builtin.h"
#include "util/strnum.h"
#include "util/trust.h"
#include "util/usage.h"

uint64_t cmd_seed_arg(const char *arg)
{
	long long v;
	const char *why;

	/*
	 * Non-negative and at most LLONG_MAX: the seed is written back in
	 * JSON output, where a signed 64-bit integer is what readers (and
	 * jansson) agree on.
	 */
	if (strnum_ll(arg, 0, LLONG_MAX, &v, &why))
		die_status(EXIT_USAGE, "--seed '%s': %s", arg, why);
	return (uint64_t)v;
}

double cmd_double_arg(const char *opt, const char *arg, double min, double max)
{
	const char *why;
	double v;

	/* written so that a NaN fails the range too */
	if (strnum_double(arg, &v, &why) || !(v >= min && v <= max))
		die_status(EXIT_USAGE, "%s '%s': expected a number in [%g, %g]",
			   opt, arg, min, max);
	return v;
}

int cmd_check_commit(const char *commit)
{
	size_t i;

	if (!commit)
		return 0;
	if (!*commit)
		return error("--commit: empty commit id");
	for (i = 0; commit[i]; i++) {
		unsigned char b = (unsigned char)commit[i];

		if (b < 0x20 || b == 0x7f || b == '/')
			return error("--commit: a commit id has no '/', newline or "
				     "other control character");
	}
	/* git would read "-x" as an option; " x" lists as x (L10) */
	if (commit[0] == '-' || commit[0] == ' ' || commit[i - 1] == ' ')
		return error("--commit: '%s' is no commit id (a leading '-' or a "
			     "blank at either end)", commit);
	return 0;
}

/*
 * The long option text names ("--name" or "--name=value", or a prefix
 * of the name, as getopt_long() takes it), or NULL
 */
static const struct option *long_named(const char *text,
				       const struct option *longopts)
{
	size_t n = strcspn(text + 2, "=");
	const struct option *o, *prefix = NULL;

	for (o = longopts; o && o->name; o++) {
		if (strncmp(o->name, text + 2, n))
			continue;
		if (strlen(o->name) == n)
			return o;
		if (!prefix)
			prefix = o;
	}
	return prefix;
}

/*
 * What was wrong with the option getopt_long() just refused.  glibc
 * leaves optind past the word it read, and optopt the short option
 * (or a long option's val when its argument was wrong, 0 when the long
 * option is unknown).
 */
static void bad_option(int argc, char **argv, const char *shortopts,
		       const struct option *longopts)
{
	const char *word = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	const struct option *o;
	const char *sc;
	char ch[2] = {(char)optopt, '\0'};

	if (!strncmp(word, "--", 2)) {
		o = optopt ? long_named(word, longopts) : NULL;
		if (!o)
			note("unrecognized option '%s'", trust_shown(word));
		else if (o->has_arg == no_argument)
			note("option '--%s' takes no argument", o->name);
		else
			note("option '--%s' requires an argument", o->name);
		return;
	}
	sc = optopt ? strchr(shortopts, optopt) : NULL;
	if (sc && sc[1] == ':')
		note("option requires an argument -- '%s'", trust_shown(ch));
	else
		note("invalid option -- '%s'", trust_shown(ch));
}

int cmd_getopt(int argc, char **argv, const char *shortopts,
	       const struct option *longopts)
{
	int c;

	opterr = 0;
	c = getopt_long(argc, argv, shortopts, longopts, NULL);
	if (c == '?')
		bad_option(argc, argv, shortopts, longopts);
	return c;
}
