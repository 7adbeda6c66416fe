/*
 * judge.h: the robot's verdict on one head for one job (robot/verdict.c)
 * and the mail of its culprit (robot/notify.c): compare the head with its
 * base on the job's KPIs, bisect a KPI that moved over the first-parent
 * path, confirm, and mail the report.  Internal to robot/.
 */
#ifndef PERFSIFT_ROBOT_JUDGE_H
#define PERFSIFT_ROBOT_JUDGE_H

#include "util/compat.h"

struct robot_config;
struct robot_job;
struct robot_repo;
struct robot_results;
struct robot_state;
struct robot_verdict;
struct strbuf;

struct robot_judge {
	const struct robot_config *cfg;
	struct robot_state *state;
	const char *root;        /* the robot's result root */
	const struct robot_repo *repo;
	const struct robot_job *job;
	const char *branch;
	const char *mirror;      /* the bare mirror: git asks go here */
	struct robot_results *res;
	const char *where;       /* "head 2 of 3, " for the log, or NULL */
};

enum robot_judged {
	ROBOT_JUDGED = 0,      /* v holds the verdict (maybe "error") */
	ROBOT_JUDGE_PENDING,   /* results are queued: a later pass */
	ROBOT_JUDGE_STOPPED,   /* interrupted: resumable */
};

/*
 * Judge head against base: results for both, the comparison, and on a
 * KPI change the bisect and its confirmation.  v is filled (verdict,
 * stat, change, culprit, detail); -1 only when the robot cannot go on.
 */
int robot_judge_head(struct robot_judge *j, const char *base, const char *head,
		     struct robot_verdict *v, struct strbuf *err);

/*
 * Mail v's culprit (its parent is compared with it), once: the state's
 * mail row says whether it went out.  1 when sent now, 0 when it was
 * sent before (by this branch or another with the same culprit), -1 err.
 */
int robot_notify(struct robot_judge *j, const struct robot_verdict *v,
		 struct strbuf *err);

#endif
