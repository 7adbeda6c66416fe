/*
 * stats.c: `perfsift stats RUN_DIR...` -- rebuild runs' <monitor>.json
 * and stats.json from their raw files (the parsers of the monitor
 * registry; a monitor whose raw file is gone keeps its stats, or has
 * them from its <monitor>.json), then their groups' matrix.json and the
 * index.  This is how the index is brought back in line with the files:
 * after a parser fix, after copying runs in from another result root, or
 * after deleting runs.
 */
#include "util/compat.h"
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>
#include "builtin.h"
#include "result/result.h"
#include "store/store.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/usage.h"

static const char stats_usage[] =
	"usage: perfsift stats RUN_DIR...\n"
	"       perfsift stats --all [DIR...]\n"
	"\n"
	"Rebuild each run's <monitor>.json and stats.json from its raw files,\n"
	"then its group's matrix.json (complete runs only) and the run's entry\n"
	"in the result root's index.  Runs the index holds for the group but\n"
	"that are no longer on disk are forgotten.\n"
	"\n"
	"  --all          every run directory below each DIR (default: the\n"
	"                 result root, whose index then also forgets groups\n"
	"                 no longer on disk), e.g. to index a copied LKP root\n"
	"  -q, --quiet    print nothing on success\n"
	"  -h, --help     this text\n"
	"\n"
	"Raw files may be gzip'd or xz'd as LKP writes them (<name>.gz).  Where\n"
	"a monitor's raw file is gone, its stats in stats.json stay as they are\n"
	"(or come from its <name>.json when stats.json has none), and stats\n"
	"nothing in the run gives any more are kept.  A raw file that\n"
	"cannot be parsed, or a rebuild that would replace a file with one that\n"
	"holds less, is an error naming the file (exit status 2), and that\n"
	"run's files are left as they were; the other runs go on.  --all\n"
	"follows no symbolic link.\n";

struct stats_ctx {
	struct options *opts;
	bool quiet;
	int ret;
	size_t done;
};

static void restat_one(struct stats_ctx *c, const char *dir)
{
	struct strbuf err = STRBUF_INIT;
	int r = result_restat(dir, c->opts->result_root, c->opts->store_url,
			      &err);

	if (r) {
		error("%s", err.buf);
		/* bad input wins over a runtime failure of another run */
		if (r == -2)
			c->ret = EXIT_USAGE;
		else if (c->ret != EXIT_USAGE)
			c->ret = EXIT_RUNTIME;
	} else {
		c->done++;
		if (!c->quiet)
			printf("%s\n", dir);
	}
	strbuf_release(&err);
}

static int skip_dots(const struct dirent *de)
{
	return de->d_name[0] != '.';
}

/* a group: its runs at once (one matrix.json rebuild) */
static void restat_group(struct stats_ctx *c, const char *dir)
{
	struct strbuf err = STRBUF_INIT;
	size_t done = 0;
	int r = result_restat_group(dir, c->opts->result_root,
				    c->opts->store_url, &done, &err);

	if (r) {
		if (err.len)
			error("%s", err.buf);
		if (r == -2)
			c->ret = EXIT_USAGE;
		else if (c->ret != EXIT_USAGE)
			c->ret = EXIT_RUNTIME;
	}
	if (done && !c->quiet)
		printf("%s  %zu run%s\n", dir, done, done == 1 ? "" : "s");
	c->done += done;
	strbuf_release(&err);
}

/*
 * every group below dir: directories holding run directories (numbers).
 * Symbolic links are not followed: a link to "." would make the walk
 * exponential, and one out of the tree would have files written there.
 */
static void restat_tree(struct stats_ctx *c, const char *dir, int depth)
{
	struct dirent **ents = NULL;
	struct strbuf sub = STRBUF_INIT;
	bool group = false;
	struct stat st;
	int i, n;

	if (depth > 32)
		return;
	n = scandir(dir, &ents, skip_dots, alphasort);
	if (n < 0) {
		error("cannot read '%s': %s", dir, strerror(errno));
		c->ret = EXIT_RUNTIME;
		return;
	}
	for (i = 0; i < n; i++) {
		strbuf_reset(&sub);
		strbuf_addf(&sub, "%s/%s", dir, ents[i]->d_name);
		if (lstat(sub.buf, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		if (result_is_run_number(ents[i]->d_name))
			group = true;
		else
			restat_tree(c, sub.buf, depth + 1);
	}
	if (group)
		restat_group(c, dir);
	for (i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	strbuf_release(&sub);
}

int cmd_stats(int argc, char **argv, struct options *opts)
{
	static const struct option longopts[] = {
		{"all", no_argument, NULL, 'a'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct stats_ctx c = {opts, false, EXIT_OK, 0};
	bool all = false;
	int ch, i;

	while ((ch = cmd_getopt(argc, argv, "qh", longopts)) != -1) {
		switch (ch) {
		case 'a':
			all = true;
			break;
		case 'q':
			c.quiet = true;
			break;
		case 'h':
			return cmd_usage(stats_usage, false);
		default:
			return cmd_usage(stats_usage, true);
		}
	}
	if (!all && optind >= argc)
		return cmd_usage(stats_usage, true);
	if (all && optind >= argc && dir_exists(opts->result_root)) {
		struct strbuf err = STRBUF_INIT;
		size_t gone = 0;
		bool moved;

		/* a damaged index is rebuilt from the files, not read */
		if (store_set_aside_if_corrupt(opts->result_root, opts->store_url,
					       &moved, &err))
			die("%s", err.buf);
		restat_tree(&c, opts->result_root, 0);
		/* the whole root was walked: groups gone from disk go too */
		if (result_prune_index(opts->result_root, opts->store_url,
				       &gone, &err)) {
			error("%s", err.buf);
			c.ret = c.ret ? c.ret : EXIT_RUNTIME;
		} else if (gone && !c.quiet) {
			printf("forgot %zu group%s no longer on disk\n", gone,
			       gone == 1 ? "" : "s");
		}
		strbuf_release(&err);
	}
	for (i = optind; i < argc; i++) {
		if (!all) {
			restat_one(&c, argv[i]);
		} else if (!dir_exists(argv[i])) {
			error("'%s' is not a directory", argv[i]);
			c.ret = EXIT_USAGE;
		} else {
			restat_tree(&c, argv[i], 0);
		}
	}
	if (all && !c.quiet)
		printf("%zu run%s\n", c.done, c.done == 1 ? "" : "s");
	return c.ret;
}
