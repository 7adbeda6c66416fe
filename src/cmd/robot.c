/*
 * robot.c: `perfsift robot` -- the loop that runs by itself: watch the
 * configured repositories, test each new branch head against its base,
 * bisect a KPI that moved, mail the report (robot/pass.h does a pass).
 * `--status` prints what the state holds.  Everything the robot knows
 * lives in the result root's store, so the command itself keeps nothing
 * between runs and can be killed and started again at any moment.
 */
#include "util/compat.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bisect/exec.h"
#include "builtin.h"
#include "robot/config.h"
#include "robot/pass.h"
#include "robot/state.h"
#include "util/fileutil.h"
#include "util/short_sha.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/timeutil.h"
#include "util/usage.h"
#include "util/xalloc.h"

/*
 * A pass every ten minutes unless --interval says otherwise (a pass that
 * finds nothing new only fetches).  Said once: the usage text is made
 * from the number, so the help cannot drift from the code.
 */
#define ROBOT_INTERVAL_S 600
#define ROBOT_STR_(x) #x
#define ROBOT_STR(x) ROBOT_STR_(x)

static const char robot_usage[] =
	"usage: perfsift robot --config ROBOT.yaml [--once | --interval SECONDS]\n"
	"         [--dry-run]\n"
	"   or: perfsift robot --config ROBOT.yaml --status\n"
	"\n"
	"Watch the repositories of ROBOT.yaml (docs/robot.md): at each pass,\n"
	"fetch them into mirrors of the robot's own, and test every branch\n"
	"head matching `branches` that is new since the last pass against its\n"
	"base (its merge-base with `base`), running each job `runs` times on\n"
	"both in worktrees of the mirror after the repo's build command.  A\n"
	"KPI that changed significantly is bisected over the first-parent path\n"
	"from base to head, the culprit is confirmed, and the report of its\n"
	"parent vs it is mailed, once.  The base branch itself is tested head\n"
	"by head against the head tested before.  The state is kept in the\n"
	"result root's store: a robot killed at any point goes on at its next\n"
	"start, running nothing twice and mailing nothing twice.\n"
	"\n"
	"  --config FILE       the robot's configuration (required)\n"
	"  --once              one pass, then exit\n"
	"  --interval SECONDS  a pass every SECONDS (default " ROBOT_STR(ROBOT_INTERVAL_S) "): the default\n"
	"  --dry-run           fetch and print what would be tested; no runs,\n"
	"                      no mail, no state written\n"
	"  --status            print each branch: last head tested, base,\n"
	"                      verdict, culprit, mail sent; and fetch errors\n"
	"\n"
	"exit status: 0 the pass completed (mail or not; undecided heads are\n"
	"judged again by the next pass), or --status; 1 the pass completed\n"
	"with failures (a repo that cannot be fetched, a head that does not\n"
	"build, a run that failed or measured none of its KPIs: --status\n"
	"gives the reason); 2 bad usage or a bad config; 3 runtime error; 130\n"
	"interrupted (resumable)\n";

struct status_ctx {
	bool header;      /* printed */
	char *last_repo;  /* whose fetch error is printed */
};

/* one row of --status: a branch, and a repo's fetch error once */
static void status_line(void *data, const char *repo, const char *branch,
			const char *repo_error, const struct robot_verdict *v)
{
	struct status_ctx *c = data;
	char name[512];

	if (!c->header) {
		printf("%-28s %-*s %-*s %-16s %-*s %s\n", "branch",
		       SHORT_SHA_LEN, "head", SHORT_SHA_LEN, "base", "verdict",
		       SHORT_SHA_LEN, "culprit", "mail");
		c->header = true;
	}
	if (repo_error && (!c->last_repo || strcmp(c->last_repo, repo)))
		printf("%s: unreachable: %s\n", repo, repo_error);
	free(c->last_repo);
	c->last_repo = xstrdup(repo);
	if (!branch)
		return;
	snprintf(name, sizeof(name), "%s/%s", repo, branch);
	printf("%-28s %-*.*s %-*.*s %-16s %-*.*s %s\n", name, SHORT_SHA_LEN,
	       SHORT_SHA_LEN, v->head ? v->head : "-", SHORT_SHA_LEN,
	       SHORT_SHA_LEN, v->base ? v->base : "-",
	       v->verdict ? v->verdict : "-", SHORT_SHA_LEN, SHORT_SHA_LEN,
	       v->culprit ? v->culprit : "-",
	       v->culprit ? (v->mailed ? "sent" : "not yet") : "-");
	/* why: an undecided head's runs so far, an error's reason */
	if (v->detail && v->verdict && (!strcmp(v->verdict, "undecided") ||
					!strcmp(v->verdict, "error")))
		printf("  %.*s\n", (int)strcspn(v->detail, "\n"), v->detail);
}

static int show_status(struct robot_state *st, struct strbuf *err)
{
	struct status_ctx c = { false, NULL };
	int r = robot_state_each(st, status_line, &c, err);

	if (!r && !c.header)
		printf("no pass has run yet\n");
	free(c.last_repo);
	return r;
}

/* sleep until the next pass, waking for SIGINT/SIGTERM */
static void wait_interval(long long seconds)
{
	uint64_t end = time_mono_ns() + (uint64_t)seconds * 1000000000ULL;

	while (!bisect_exec_interrupted() && time_mono_ns() < end) {
		struct timespec ts = { 0, 200 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
}

/* the command line, parsed */
struct robot_args {
	const char *config;
	bool once, dry_run, status;
	long long interval;
};

static int parse_args(struct robot_args *a, int argc, char **argv, int *status)
{
	static const struct option longopts[] = {
		{"config", required_argument, NULL, 'c'},
		{"once", no_argument, NULL, 'o'},
		{"interval", required_argument, NULL, 'i'},
		{"dry-run", no_argument, NULL, 'd'},
		{"status", no_argument, NULL, 's'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *why;
	bool have_interval = false;
	int c;

	*status = EXIT_USAGE;
	a->interval = ROBOT_INTERVAL_S;
	while ((c = cmd_getopt(argc, argv, "h", longopts)) != -1) {
		switch (c) {
		case 'c': a->config = optarg; break;
		case 'o': a->once = true; break;
		case 'd': a->dry_run = true; break;
		case 's': a->status = true; break;
		case 'i':
			if (strnum_ll(optarg, 1, 86400 * 7, &a->interval, &why) < 0) {
				error("--interval '%s': %s", optarg, why);
				return -1;
			}
			have_interval = true;
			break;
		case 'h':
			*status = cmd_usage(robot_usage, false);
			return -1;
		default:
			cmd_usage(robot_usage, true);
			return -1;
		}
	}
	if (optind < argc) {
		error("unexpected argument '%s'", argv[optind]);
		cmd_usage(robot_usage, true);
		return -1;
	}
	if (!a->config) {
		error("--config ROBOT.yaml is required");
		cmd_usage(robot_usage, true);
		return -1;
	}
	/* one pass or many: both at once is a mistake, not a choice */
	if (a->once && have_interval) {
		error("--once and --interval exclude each other");
		return -1;
	}
	return 0;
}

int cmd_robot(int argc, char **argv, struct options *opts)
{
	struct robot_args a;
	struct robot_config cfg;
	struct robot_state st = { NULL };
	struct robot_pass p;
	struct strbuf err = STRBUF_INIT;
	char *root = NULL;
	int status, r;

	memset(&a, 0, sizeof(a));
	if (parse_args(&a, argc, argv, &status) < 0)
		return status;
	if (robot_config_load(a.config, &cfg, &err) < 0) {
		error("%s", err.buf);
		strbuf_release(&err);
		robot_config_release(&cfg);
		return EXIT_USAGE;
	}
	status = EXIT_RUNTIME;
	if (mkdir_p(opts->result_root, 0777) < 0 ||
	    !(root = realpath(opts->result_root, NULL))) {
		error_errno("cannot create result root '%s'", opts->result_root);
		goto out;
	}
	if (opts->store_url && strncmp(opts->store_url, "sqlite:", 7) &&
	    strncmp(opts->store_url, "postgres", 8)) {
		error("--store: the robot takes a SQLite store (local runs) or a "
		      "PostgreSQL one (the lab mode, docs/robot.md)");
		status = EXIT_USAGE;
		goto out;
	}
	if (robot_state_open(&st, root, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	if (a.status) {
		status = show_status(&st, &err) < 0 ? EXIT_RUNTIME : EXIT_OK;
		if (status)
			error("%s", err.buf);
		goto out;
	}
	/* SIGINT/SIGTERM finish the run in progress (stored), then stop: the
	 * same flag bisect uses, so its driver stops with us */
	bisect_exec_catch_signals();
	memset(&p, 0, sizeof(p));
	p.cfg = &cfg;
	p.state = &st;
	p.root = root;
	/* a PostgreSQL store is a lab: its workers run the jobs */
	if (opts->store_url && strncmp(opts->store_url, "sqlite:", 7))
		p.store_url = opts->store_url;
	p.dry_run = a.dry_run;
	for (;;) {
		strbuf_reset(&err);
		r = robot_pass_run(&p, &err);
		if (r < 0) {
			error("%s", err.buf);
			goto out;
		}
		if (r > 0 || bisect_exec_interrupted()) {
			note("interrupted; start the robot again to go on");
			status = 130;
			goto out;
		}
		note("pass done: %zu heads tested, %zu mails sent, %zu "
		     "failures, %zu undecided (judged again next pass)",
		     p.tested, p.mailed, p.failed, p.undecided);
		/* a dry run changes nothing, so a second one would say the same */
		if (a.once || a.dry_run)
			break;
		wait_interval(a.interval);
		if (bisect_exec_interrupted()) {
			status = 130;
			goto out;
		}
	}
	/* failures are loud: --once says so by its exit status too */
	status = p.failed ? 1 : EXIT_OK;
out:
	robot_state_close(&st);
	robot_config_release(&cfg);
	strbuf_release(&err);
	free(root);
	return status;
}
