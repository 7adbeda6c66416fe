/*
 * restore.c: `perfsift restore` -- put back the kernel knobs that a
 * killed perfsift left changed, from the machine-wide knob journal.
 * Every other command does the same quietly before it starts (main.c).
 */
#include "util/compat.h"
#include <getopt.h>
#include <stdio.h>
#include "builtin.h"
#include "setup/knob.h"
#include "util/strbuf.h"
#include "util/usage.h"

static const char restore_usage[] =
	"usage: perfsift restore\n"
	"\n"
	"Put back the kernel knobs (sysctl, sysfs) that a perfsift killed during\n"
	"a run left changed.  perfsift journals every knob's original value in a\n"
	"machine-wide journal (/run/perfsift, or $PERFSIFT_KNOB_DIR) before\n"
	"changing it; every command restores what a dead perfsift left before it\n"
	"starts, this one only does that and says what it did.  A knob that a\n"
	"running perfsift still uses is left to it.\n";

int cmd_restore(int argc, char **argv, struct options *opts)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct strbuf dir = STRBUF_INIT;
	int c, n;

	while ((c = cmd_getopt(argc, argv, "h", longopts)) != -1) {
		if (c == 'h')
			return cmd_usage(restore_usage, false);
		return cmd_usage(restore_usage, true);
	}
	if (optind < argc)
		return cmd_usage(restore_usage, true);
	(void)opts; /* the journal is the machine's, not the result root's */
	n = knob_restore_journal(true);
	if (n < 0)
		return EXIT_RUNTIME;
	knob_journal_dir(&dir);
	if (n)
		printf("restored %d knob%s left changed (journal '%s')\n", n,
		       n == 1 ? "" : "s", dir.buf);
	else
		printf("nothing to restore (journal '%s')\n", dir.buf);
	strbuf_release(&dir);
	return EXIT_OK;
}
