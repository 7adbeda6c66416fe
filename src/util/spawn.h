/*
 * spawn.h: the one way perfsift starts a program (issue 27), as git has
 * one run-command.c.  Before it there were four fork/exec copies (bisect's
 * git and build commands, the plug-ins' parse scripts, the report's `git
 * log`, the lab worker's `perfsift run`), each with its own half of the
 * details: closing pipes, draining two streams at once so neither blocks
 * the child, a timeout that ends what the child started too, decoding the
 * status.  One copy gets them right once and gives the next caller (the
 * robot's dropped build, issue 25) everything at the same time.
 *
 * A command is argv (argv[0] looked up on PATH, or `exe` when set) or,
 * through spawn_init_sh(), `/bin/sh -c TEXT` for the few callers that are
 * handed shell text on purpose (a repo's build and install, the robot's
 * sendmail).  Nothing else ever goes through a shell.
 *
 * The child's three streams are each inherited, /dev/null, a given fd, a
 * file, or (stdout and stderr) captured into a strbuf; stdout may go to
 * our stderr (so that perfsift's stdout carries only its result) and
 * stderr to the child's stdout (LKP's `2>&1`).  Captures are drained
 * together with poll, and capture_max bounds what both together may
 * bring: past it the child is stopped as on a timeout.
 *
 * run/runner.c stays the measurement's own runner (wait4 rusage, the
 * stop signals collected with sigtimedwait, the callback before the
 * benchmark may start): it shares util/cgroup.h with this file, not the
 * loop.
 */
#ifndef PERFSIFT_UTIL_SPAWN_H
#define PERFSIFT_UTIL_SPAWN_H

#include "util/compat.h"
#include <signal.h>
#include <sys/types.h>
#include "util/cgroup.h"

struct strbuf;

enum spawn_how {
	SPAWN_INHERIT = 0, /* the parent's stream */
	SPAWN_NULL,        /* /dev/null */
	SPAWN_FD,          /* fd, dup'ed (the caller keeps and closes it) */
	SPAWN_FILE,        /* path: read (stdin), else created or truncated */
	SPAWN_CAPTURE,     /* stdout/stderr only: a pipe read into buf */
	SPAWN_TO_STDERR,   /* stdout only: our stderr */
	SPAWN_TO_STDOUT,   /* stderr only: wherever the child's stdout goes */
};

struct spawn_io {
	enum spawn_how how;
	int fd;             /* SPAWN_FD */
	const char *path;   /* SPAWN_FILE */
	struct strbuf *buf; /* SPAWN_CAPTURE: appended to */
};

/*
 * The user a child runs as (spawn_user_lookup()): resolved in the parent,
 * since getpwnam() is not safe between fork and exec; the child calls
 * setgroups, setgid and setuid, in that order, and exits 126 (saying so)
 * when any fails, so a drop is never skipped silently.
 */
struct spawn_user {
	char *name;
	uid_t uid;
	gid_t gid;
	gid_t *groups; /* its supplementary groups (initgroups' list) */
	int ngroups;
	char *home;
};

struct spawn_cmd {
	const char *const *argv;
	const char *exe;            /* the file to run, NULL: argv[0] on PATH */
	const char *cwd;            /* NULL: ours */
	const char *const *env;     /* NAME=VALUE strings added, NULL-ended */
	const char *const *unset;   /* names removed, NULL-ended */
	struct spawn_io in, out, err;
	size_t capture_max;         /* bytes of all captures, 0: no limit */

	bool own_group;             /* setpgid(0, 0): a stop reaches all it started */
	bool kill_group;            /* own_group: what is left in it killed at the end */
	bool contain;               /* util/cgroup.h: a cgroup, else a session */
	int pdeathsig;              /* sent to the child when we die, 0: none */
	bool reset_signals;         /* SIGPIPE/SIGINT/SIGTERM default, mask child_mask */
	const sigset_t *child_mask; /* reset_signals' mask, NULL: empty */
	const sigset_t *wait_mask;  /* ppoll's mask while waiting, NULL: ours */
	const struct spawn_user *user; /* run as this user (root only), NULL: us */

	double timeout;             /* seconds, 0: none; then SIGTERM */
	int grace_ms;               /* SIGTERM to SIGKILL; < 0: never SIGKILL */
	/* called every tick_ms while waiting; nonzero stops the child */
	int (*tick)(void *arg);
	void *tick_arg;
	int tick_ms;

	/* what happened (spawn_finish) */
	pid_t pid;
	int status;       /* the exit status, 128 + signal, -1: not started */
	bool timed_out;   /* the timeout passed */
	int stopped;      /* tick's nonzero return, 0: not stopped */
	bool overflow;    /* the captures passed capture_max */
	int read_errno;   /* a capture's read failed: its errno, else 0 */
	bool in_cgroup;   /* contain: a cgroup (else a session) held it */
	size_t nleft;     /* contain: processes left at its end, killed */
	char *left;       /* contain: "PID (COMM)" each, NULL: none */

	/* private */
	const char *sh_argv[4];
	int pfd[2];       /* the capture pipes' read ends, -1: none */
	int pidfd;
	struct run_cgroup cg;
};

void spawn_init(struct spawn_cmd *c);
/* spawn_init() with argv `/bin/sh -c script` */
void spawn_init_sh(struct spawn_cmd *c, const char *script);

/* fork and exec; 0, or -1 with err (nothing left running) */
int spawn_start(struct spawn_cmd *c, struct strbuf *err);
/*
 * Drain the captures, enforce the timeout, the limit and tick, reap the
 * child (and, with kill_group or contain, what it left).  The status.
 */
int spawn_finish(struct spawn_cmd *c);
/* start and finish: the status, or -1 with err when it could not start */
int spawn_run(struct spawn_cmd *c, struct strbuf *err);
/* what spawn_finish allocated (left) */
void spawn_release(struct spawn_cmd *c);

/*
 * The variables of git's that would send a git command (or a build that
 * runs git) to another repository: a `git bisect run` or a hook around
 * perfsift sets them.  For spawn_cmd.unset.
 */
extern const char *const spawn_git_unset[];

/*
 * Look name up for spawn_cmd.user: 0, or -1 with err when we are not
 * root (a drop needs it) or no such user exists.
 */
int spawn_user_lookup(const char *name, struct spawn_user *u,
		      struct strbuf *err);
void spawn_user_release(struct spawn_user *u);

/*
 * The owner of path when we are root and it is another user with a
 * passwd entry: 1 with u filled (release it), else 0.  Root runs git in
 * a repository another user owns as that user (bisect/git.c): that
 * user's .git/config, hooks and fsmonitor are that user's code, which
 * root must never run -- git's own safe.directory check refuses, and
 * this makes the command work without lifting the check.
 */
int spawn_user_of(const char *path, struct spawn_user *u);

/*
 * Kill (SIGKILL) every process of user u (its real, effective or saved
 * uid u's), until none is alive: the end of a dropped build, so that
 * nothing of the builder's can change the tree root then runs from.
 * kill(-1) from a child that is u takes them all at once, a fork storm
 * too (a walk of /proc may pass the child of one it finds later), and
 * root kills whatever that cannot reach.  Never for uid 0.  *nkilled:
 * how many were alive at first, "PID (COMM)" each appended to killed
 * (when not NULL).  0, or -1 when some are still alive after about 2 s
 * (in the kernel, unkillable for now): those appended to left.
 */
int spawn_kill_user(const struct spawn_user *u, size_t *nkilled,
		    struct strbuf *killed, struct strbuf *left);

/*
 * Every file below dir (dir too, symbolic links themselves, never what
 * they point to) made owned by uid:gid; handed to root (uid 0), each also
 * loses its group and other write bits and set-id bits, so that only
 * root may change the tree.  0, or -1 with err.
 */
int spawn_chown_tree(const char *dir, uid_t uid, gid_t gid,
		     struct strbuf *err);

#endif
