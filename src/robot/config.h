/*
 * config.h: the robot's configuration file (ROBOT.yaml) -- which
 * repositories to watch, which branches of each, how to build a commit,
 * which jobs to run and where to send the mail.  Read with the job
 * loader's YAML reader (so the config gets the same line numbers and the
 * same YAML errors as a job file) and checked here, every mistake one
 * `FILE:LINE: KEY: what is wrong` error before anything runs.
 */
#ifndef PERFSIFT_ROBOT_CONFIG_H
#define PERFSIFT_ROBOT_CONFIG_H

#include "util/compat.h"
#include "util/spawn.h"

struct strbuf;

struct robot_repo {
	char *name;      /* in mail subjects, the state and the mirror's name */
	char *url;       /* anything `git fetch` takes */
	char *base;      /* the branch heads are compared against */
	char **branches; /* shell globs over branch names */
	size_t nbranches;
	char *build;     /* sh command run in each commit's worktree, or NULL */
	char *install;   /* as bisect's --install, or NULL */
	char *kernel;    /* as bisect's --kernel: the image in the worktree */
	/* the config's build_user: fetch, build and install run as it */
	const struct spawn_user *user;
};

struct robot_job {
	char *job;           /* the job file, absolute */
	char *name;          /* its stem: names its result root */
	size_t runs;         /* per commit (default 3): the first pairs */
	size_t max_runs;     /* an undecided head's budget, runs a side */
	char *testbox_group; /* for the lab queue; NULL here */
	char *testcase;      /* the job's: its stats are the benchmark's */
	char *kpi;           /* its declared KPIs, kpi_format()'s line */
};

struct robot_mail {
	char *to, *from;
	/* exactly one of the three */
	char *mbox, *maildir, *sendmail;
	const struct spawn_user *user; /* sendmail runs as it (build_user) */
};

struct robot_config {
	char *file;       /* as given */
	struct robot_repo *repos;
	size_t nrepos;
	struct robot_job *jobs;
	size_t njobs;
	struct robot_mail mail;
	/*
	 * build_user: the user fetch, build, install and sendmail run as
	 * (the runs stay root: docs/security.md); name NULL when not set.
	 * The repos and the mail point at it: cfg stays where it is.
	 */
	struct spawn_user build_user;
};

/*
 * Read and check path.  0, or -1 with err as "FILE:LINE: KEY: ..." (the
 * caller exits 2).  Relative job paths are taken from the config's
 * directory, as a job file's are from its own.
 */
int robot_config_load(const char *path, struct robot_config *cfg,
		      struct strbuf *err);
void robot_config_release(struct robot_config *cfg);

/* true when branch matches one of the repo's globs */
bool robot_branch_matches(const struct robot_repo *r, const char *branch);

#endif
