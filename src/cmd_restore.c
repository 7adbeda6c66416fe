/*
 * cmd_restore.c: `perfsift restore` -- put back the kernel knobs that a
 * killed perfsift left changed, from the journal in the result root.
 * Every other command does the same quietly before it starts (main.c).
 */
#include "util/compat.h"
#include <getopt.h>
#include <stdio.h>
#include "builtin.h"
#include "knob.h"
#include "util/usage.h"

static const char restore_usage[] =
	"usage: perfsift restore\n"
	"\n"
	"Put back the kernel knobs (sysctl, sysfs) that a perfsift killed during\n"
	"a run left changed.  perfsift journals every knob's value in the result\n"
	"root before changing it; every command restores what a dead perfsift\n"
	"left before it starts, this one only does that and says what it did.\n";

int cmd_restore(int argc, char **argv, struct options *opts)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c, n;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 'h')
			return cmd_usage(restore_usage, false);
		return cmd_usage(restore_usage, true);
	}
	if (optind < argc)
		return cmd_usage(restore_usage, true);
	n = knob_restore_journal(opts->result_root, true);
	if (n < 0)
		return EXIT_RUNTIME;
	if (n)
		printf("restored %d knob%s left changed in '%s'\n", n,
		       n == 1 ? "" : "s", opts->result_root);
	else
		printf("nothing to restore in '%s'\n", opts->result_root);
	return EXIT_OK;
}
