/*
 * state.h: what the robot remembers between passes and across restarts,
 * kept in the result root's store (the SQLite file perfsift.db, tables
 * robot_*): per branch the head last tested and its verdict; per (branch,
 * head, job) the verdict of that test, so that a pass killed after one
 * job's bisect does not bisect it again; per culprit the mail and whether
 * it went out; per repo the last fetch error.  Every write is one
 * statement (SQLite makes it atomic), written after the work it records
 * is safely in the index, so a robot killed anywhere finds either the
 * work undone (and redoes it from the index, running nothing twice) or
 * recorded.
 */
#ifndef PERFSIFT_ROBOT_STATE_H
#define PERFSIFT_ROBOT_STATE_H

#include "util/compat.h"

struct strbuf;

struct robot_state {
	void *db; /* sqlite3 */
};

/* a verdict of a branch (the latest) or of one test of one job */
struct robot_verdict {
	char *head, *base;
	char *verdict;  /* "same", "regression", "improvement", "error", ... */
	char *stat;     /* the KPI that moved, or NULL */
	double change;  /* its %change, head vs base */
	char *culprit;  /* the confirmed first bad commit, or NULL */
	char *detail;   /* an error, or what a bisect said */
	bool done;      /* finished (else: in progress for head) */
	bool mailed;    /* the culprit's mail went out */
};
void robot_verdict_release(struct robot_verdict *v);

/* open (creating the store and the tables) the state of result root */
int robot_state_open(struct robot_state *s, const char *root,
		     struct strbuf *err);
void robot_state_close(struct robot_state *s);

/* the branch's row: 1 found, 0 none, -1 error */
int robot_state_branch(struct robot_state *s, const char *repo,
		       const char *branch, struct robot_verdict *v,
		       struct strbuf *err);
int robot_state_set_branch(struct robot_state *s, const char *repo,
			   const char *branch, const struct robot_verdict *v,
			   struct strbuf *err);
/* one job's test of head: 1 found, 0 none, -1 error */
int robot_state_test(struct robot_state *s, const char *repo,
		     const char *branch, const char *head, const char *job,
		     struct robot_verdict *v, struct strbuf *err);
int robot_state_set_test(struct robot_state *s, const char *repo,
			 const char *branch, const char *head, const char *job,
			 const struct robot_verdict *v, struct strbuf *err);

/* a culprit's mail, keyed by (repo, culprit, job) */
enum robot_mail_state { ROBOT_MAIL_NONE, ROBOT_MAIL_PENDING, ROBOT_MAIL_SENT };
struct robot_mail_row {
	enum robot_mail_state state;
	char *message_id;
	long long offset; /* mbox: its size before the append (-1: none) */
};
int robot_state_mail(struct robot_state *s, const char *repo,
		     const char *culprit, const char *job,
		     struct robot_mail_row *row, struct strbuf *err);
int robot_state_set_mail(struct robot_state *s, const char *repo,
			 const char *culprit, const char *job,
			 const struct robot_mail_row *row, struct strbuf *err);

/*
 * A head's judgement (robot/verdict.c): its record of which runs of base
 * and head were made beside each other (verdict.c's text form), kept so
 * that a later pass goes on with the same pairs.  1 found (*runs set,
 * the caller frees it), 0 none (*runs NULL), -1 error.
 */
int robot_state_judging(struct robot_state *s, const char *repo,
			const char *branch, const char *head, const char *job,
			char **runs, struct strbuf *err);
int robot_state_set_judging(struct robot_state *s, const char *repo,
			    const char *branch, const char *head,
			    const char *job, const char *runs,
			    struct strbuf *err);

/* the repo's last fetch: error NULL when it went well */
int robot_state_set_repo(struct robot_state *s, const char *repo,
			 const char *error, struct strbuf *err);

/* --status: every repo and branch row, in order, through fn */
typedef void (*robot_status_fn)(void *ctx, const char *repo,
				const char *branch, const char *repo_error,
				const struct robot_verdict *v);
int robot_state_each(struct robot_state *s, robot_status_fn fn, void *ctx,
		     struct strbuf *err);

#endif
