/*
 * args.c: option arguments that several commands take and must read the
 * same way (builtin.h).  One parser per option, so that `compare --seed`
 * and `history --seed` accept the same numbers and word their errors the
 * same: a second copy would drift the first time one of them changed.
 */
#include "util/compat.h"
#include <limits.h>
#include "builtin.h"
#include "util/strnum.h"
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
