/*
 * main.c: perfsift's entry point.  Parses the global options, finds the
 * command in the table and runs it; then checks that everything written to
 * stdout really reached it (a full disk or a closed pipe is an error, not a
 * silently short table), as git's run_builtin() does.
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "builtin.h"
#include "util/config.h"
#include "setup/knob.h"
#include "util/suggest.h"
#include "job/plugins.h"
#include "job/programs.h"
#include "util/strbuf.h"
#include "util/trust.h"
#include "util/usage.h"
#include "util/fault.h"

#ifdef HAVE_LIBPQ
#define BUILT_LIBPQ " libpq"
#else
#define BUILT_LIBPQ ""
#endif

struct cmd {
	const char *name;
	int (*fn)(CMD_ARGS);
	const char *help;
	unsigned flags; /* CMD_* of builtin.h */
};

static const struct cmd commands[] = {
	{"split", cmd_split, "expand a job's matrix into atomic job files", 0},
	{"install", cmd_install, "check and install what a job needs", 0},
	{"run", cmd_run, "run a job with its monitors; store the results", 0},
	{"calibrate", cmd_calibrate, "an A/A run of a job: each stat's noise floor", 0},
	{"restore", cmd_restore, "put back kernel knobs a killed perfsift left",
	 CMD_OWN_KNOB_RESTORE},
	{"parse", cmd_parse, "raw monitor output -> LKP's key: value stream", 0},
	{"stats", cmd_stats, "rebuild a run's stats from its raw files", 0},
	{"results", cmd_results, "list what the result root holds", 0},
	{"compare", cmd_compare, "compare result groups (LKP's table)", 0},
	{"plot", cmd_plot, "ASCII or SVG chart of a stat", 0},
	{"report", cmd_report, "the e-mail report, job.yaml, bundle, HTML", 0},
	{"bisect", cmd_bisect, "find the commit that moved a stat", 0},
	{"bisect-step", cmd_bisect_step, "one git-bisect-run step (0/1/125)", 0},
	{"robot", cmd_robot, "watch branches, bisect what moved, mail the report", 0},
	{"history", cmd_history, "change points of a stat over the commits", 0},
	{"site", cmd_site, "a static dashboard of every KPI's history", 0},
	{"queue", cmd_queue, "the lab's job queue in the PostgreSQL store", 0},
	{"worker", cmd_worker, "a test box's worker: run the lab's queued tasks", 0},
	{"push", cmd_push, "export the result root's runs to the PostgreSQL store", 0},
	{"pull", cmd_pull, "copy runs (their files) from the store into the root", 0},
};

static const char main_usage[] =
	"usage: perfsift [--result-root DIR] [--store URL] COMMAND [ARGS]\n"
	"       perfsift help COMMAND | perfsift COMMAND --help\n"
	"       perfsift help keys [PROGRAM]   (the keys a job file can hold)\n"
	"       perfsift help programs [--lkp-src DIR]   (every program: its kind,\n"
	"                                        whether it can run here)\n"
	"       perfsift --version\n";

/*
 * The command list comes from the command table, so a new command is
 * listed the moment it is added; fp is stderr when the help answers a
 * mistake, so a script's stdout stays clean.
 */
static void print_help(FILE *fp)
{
	size_t i;

	fputs(main_usage, fp);
	fputs("\ncommands:\n", fp);
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(fp, "  %-12s %s\n", commands[i].name, commands[i].help);
	fputs("\nresult root: --result-root DIR, else $PERFSIFT_RESULT_ROOT, else\n"
	      "  /var/lib/perfsift/result as root, else\n"
	      "  $XDG_DATA_HOME/perfsift/result (~/.local/share when unset)\n"
	      "\nexit status: 0 ok, 1 a KPI regressed (compare, report),\n"
	      "  2 usage or job-file error, 3 runtime error,\n"
	      "  4 still undecided (run --until-decided);\n"
	      "  bisect-step: 0 good, 1 bad, 125 skip\n",
	      fp);
}

/* `perfsift help keys [PROGRAM]`: the job keys, from the program table */
static int help_keys(int argc, char **argv)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int ret = EXIT_OK;

	if (argc >= 2 && !strcmp(argv[0], "--lkp-src")) {
		plugin_set_lkp_src(argv[1]);
		argc -= 2, argv += 2;
	} else if (argc >= 1 && !strncmp(argv[0], "--lkp-src=", 10)) {
		plugin_set_lkp_src(argv[0] + 10);
		argc--, argv++;
	}
	if (argc > 1) {
		fputs("usage: perfsift help keys [--lkp-src DIR] [PROGRAM]\n", stderr);
		return EXIT_USAGE;
	}
	/* a plug-in's options are its meta.yaml's and run header's: find it first */
	if (argc)
		plugin_find(argv[0], NULL, NULL);
	if (program_help(argc ? argv[0] : NULL, &out, &err) < 0) {
		usage_set_command("help keys");
		note("%s", err.buf);
		ret = EXIT_USAGE;
	}
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
	strbuf_release(&err);
	return ret;
}

/*
 * `perfsift help programs [--lkp-src DIR]`: every program and plug-in,
 * its kind and whether it can run here (programs_list.c)
 */
static int help_programs(int argc, char **argv)
{
	struct strbuf out = STRBUF_INIT;

	if (argc == 2 && !strcmp(argv[0], "--lkp-src")) {
		plugin_set_lkp_src(argv[1]);
	} else if (argc == 1 && !strncmp(argv[0], "--lkp-src=", 10)) {
		plugin_set_lkp_src(argv[0] + 10);
	} else if (argc) {
		fputs("usage: perfsift help programs [--lkp-src DIR]\n", stderr);
		return EXIT_USAGE;
	}
	program_list_help(&out);
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
	return EXIT_OK;
}

/* a linear search: the table has a dozen entries and is searched once */
static const struct cmd *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* a name that is not a command: say so, with the closest one; exit 2 */
static int not_a_command(const char *name)
{
	const char *names[ARRAY_SIZE(commands) + 1], *hint;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		names[i] = commands[i].name;
	names[i] = "help";
	hint = suggest_closest(name, names, ARRAY_SIZE(names), 2);
	/* the name as typed, escaped: it may hold ESC (the fourth attack, L12) */
	if (hint)
		note("'%s' is not a command; did you mean '%s'? (see "
		     "'perfsift --help')", trust_shown(name), hint);
	else
		note("'%s' is not a command; see 'perfsift --help'",
		     trust_shown(name));
	return EXIT_USAGE;
}

/*
 * A command's usage text: on stdout with status 0 for --help (the user
 * asked for it), on stderr with status 2 after a usage error.
 */
int cmd_usage(const char *text, bool on_error)
{
	fputs(text, on_error ? stderr : stdout);
	return on_error ? EXIT_USAGE : EXIT_OK;
}

int cmd_not_built(const char *name, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "perfsift %s: not available in this build yet\n", name);
	return EXIT_RUNTIME;
}

/*
 * Flush and close stdout, and turn a failure into a failing status (a
 * full disk, a closed pipe): output is buffered, so a write error often
 * shows only here, and a report that was not written must not exit 0.
 * EPIPE is not worth a message: the reader left on purpose.
 */
static int check_stdout(int status)
{
	/* a short write to stdout must not pass as success */
	if (fflush(stdout) || ferror(stdout)) {
		if (errno != EPIPE)
			fprintf(stderr, "perfsift: error writing output: %s\n",
				strerror(errno));
		return status ? status : EXIT_RUNTIME;
	}
	if (fclose(stdout) && errno != EBADF) {
		fprintf(stderr, "perfsift: error closing output: %s\n",
			strerror(errno));
		return status ? status : EXIT_RUNTIME;
	}
	return status;
}

/*
 * 0, 1 and 2 open, on /dev/null when we were started without them: else
 * the first file we open takes the number, and our messages, or a
 * child's stdin or stdout (util/spawn.c inherits them), land in it.
 */
static void open_std_fds(void)
{
	int fd;

	while ((fd = open("/dev/null", O_RDWR)) >= 0 && fd <= 2)
		;
	if (fd > 2)
		close(fd);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"result-root", required_argument, NULL, 'R'},
		{"store", required_argument, NULL, 'S'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	struct options opts = {0};
	const char *root_opt = NULL;
	const struct cmd *cmd;
	int c, status;

	open_std_fds();
	/* a closed pipe (perfsift compare | head) ends us quietly */
	signal(SIGPIPE, SIG_DFL);

	/* '+': stop at the command name; its options are its own */
	while ((c = cmd_getopt(argc, argv, "+hV", longopts)) != -1) {
		switch (c) {
		case 'R':
			root_opt = optarg;
			break;
		case 'S':
			opts.store_url = optarg;
			break;
		case 'h':
			print_help(stdout);
			return check_stdout(EXIT_OK);
		case 'V':
			printf("perfsift %s\n", PERFSIFT_VERSION);
			/* what this build can do that another may not */
			printf("built with:%s%s\n", BUILT_LIBPQ,
			       FAULT_HOOKS_BUILT ? " test-hooks" : "");
			return check_stdout(EXIT_OK);
		default:
			fputs(main_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		print_help(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[optind], "help")) {
		if (optind + 1 < argc && !strcmp(argv[optind + 1], "keys"))
			return check_stdout(help_keys(argc - optind - 2,
						      argv + optind + 2));
		if (optind + 1 < argc && !strcmp(argv[optind + 1], "programs"))
			return check_stdout(help_programs(argc - optind - 2,
							  argv + optind + 2));
		if (optind + 1 < argc && strcmp(argv[optind + 1], "help") &&
		    !find_cmd(argv[optind + 1]))
			return not_a_command(argv[optind + 1]);
		if (optind + 1 < argc && find_cmd(argv[optind + 1])) {
			char *hv[] = {argv[optind + 1], (char *)"--help", NULL};

			cmd = find_cmd(argv[optind + 1]);
			usage_set_command(cmd->name);
			optind = 0;
			return check_stdout(cmd->fn(2, hv, &opts));
		}
		print_help(stdout);
		return check_stdout(EXIT_OK);
	}
	cmd = find_cmd(argv[optind]);
	if (!cmd)
		return not_a_command(argv[optind]);
	if (!opts.store_url)
		opts.store_url = getenv("PERFSIFT_STORE");
	opts.result_root = config_result_root(root_opt, &opts.result_root_given);
	usage_set_command(cmd->name);
	/*
	 * Knobs a killed perfsift left changed are put back before anything
	 * else runs, whatever the command: the first perfsift after a crash
	 * is the first chance to give the machine its settings back, and a
	 * user need not know which commands would take it.  `restore` does
	 * it itself, verbosely (its table flag says so).
	 */
	if (!(cmd->flags & CMD_OWN_KNOB_RESTORE))
		knob_restore_journal(false);
	argc -= optind;
	argv += optind;
	optind = 0; /* reset getopt for the command */
	status = cmd->fn(argc, argv, &opts);
	return check_stdout(status);
}
