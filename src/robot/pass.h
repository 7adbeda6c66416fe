/*
 * pass.h: one pass of the robot over its config -- fetch each repo into
 * the robot's mirror, find the heads that are new since the last pass,
 * get results for each head and its base, compare them on the jobs'
 * KPIs, bisect what moved, confirm, mail.  Every step is recorded in the
 * state (robot/state.h) once done, and every step is idempotent against
 * the index, so a pass killed anywhere is finished by the next one.
 */
#ifndef PERFSIFT_ROBOT_PASS_H
#define PERFSIFT_ROBOT_PASS_H

#include "util/compat.h"

struct robot_config;
struct robot_state;
struct strbuf;

struct robot_pass {
	const struct robot_config *cfg;
	struct robot_state *state;
	const char *root;  /* the result root (absolute): the state's store */
	/* a PostgreSQL store: the lab mode (robot/via_lab.c); NULL: local runs */
	const char *store_url;
	bool dry_run;      /* fetch and say what would be tested, no more */
	/* out */
	size_t mailed;     /* mails sent by this pass */
	size_t tested;     /* heads whose test finished in this pass */
	size_t failed;     /* repos or heads that ended in an error */
	size_t undecided;  /* heads left undecided (the next pass goes on) */
};

/*
 * Run one pass.  0 when it completed (a repo that cannot be fetched, or a
 * head whose commit does not build, is recorded and counted in failed,
 * and the pass goes on); 1 when interrupted (SIGINT/SIGTERM: resumable);
 * -1 with err when it could not go on (the state cannot be written).
 */
int robot_pass_run(struct robot_pass *p, struct strbuf *err);

/* where the robot keeps repo's mirror, worktrees and per-job results */
void robot_repo_dir(const char *root, const char *repo, const char *what,
		    struct strbuf *out);

#endif
