/*
 * cmd_stats.c: `perfsift stats RUN_DIR...` -- rebuild runs' <monitor>.json
 * and stats.json from their raw files (the parsers of the monitor
 * registry), then their groups' matrix.json and the index.  This is how
 * the index is brought back in line with the files: after a parser fix,
 * after copying runs in from another result root, or after deleting runs.
 */
#include "util/compat.h"
#include <getopt.h>
#include <stdio.h>
#include "builtin.h"
#include "result.h"
#include "util/strbuf.h"
#include "util/usage.h"

static const char stats_usage[] =
	"usage: perfsift stats RUN_DIR...\n"
	"\n"
	"Rebuild each run's <monitor>.json and stats.json from its raw files,\n"
	"then its group's matrix.json (complete runs only) and the run's entry\n"
	"in the result root's index.  Runs the index holds for the group but\n"
	"that are no longer on disk are forgotten.\n"
	"\n"
	"  -q, --quiet    print nothing on success\n"
	"  -h, --help     this text\n"
	"\n"
	"A raw file that cannot be parsed is an error naming it (exit status\n"
	"2), and that run's files are left as they were.\n";

int cmd_stats(int argc, char **argv, struct options *opts)
{
	static const struct option longopts[] = {
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct strbuf err = STRBUF_INIT;
	bool quiet = false;
	int c, i, ret = EXIT_OK;

	while ((c = getopt_long(argc, argv, "qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'q':
			quiet = true;
			break;
		case 'h':
			return cmd_usage(stats_usage, false);
		default:
			return cmd_usage(stats_usage, true);
		}
	}
	if (optind >= argc)
		return cmd_usage(stats_usage, true);
	for (i = optind; i < argc; i++) {
		int r;

		strbuf_reset(&err);
		r = result_restat(argv[i], opts->result_root, opts->store_url,
				  &err);
		if (r) {
			error("%s", err.buf);
			/* bad input wins over a runtime failure of another run */
			if (r == -2 || ret != EXIT_USAGE)
				ret = r == -2 ? EXIT_USAGE : EXIT_RUNTIME;
			continue;
		}
		if (!quiet)
			printf("%s\n", argv[i]);
	}
	strbuf_release(&err);
	return ret;
}
