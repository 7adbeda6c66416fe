/*
 * runner.h: run one benchmark process the way a measurement needs it --
 * forked into its own process group (so that it and everything it starts
 * can be ended together), resource usage from wait4(), a timeout, and
 * SIGINT/SIGTERM turned into an orderly stop instead of a dead perfsift.
 *
 * Signals: a command that runs benchmarks calls runner_block_signals()
 * first (before any thread exists), so SIGINT/SIGTERM never kill perfsift
 * halfway through writing a run; the runner collects them with
 * sigtimedwait() while it waits, and the caller asks runner_stop_signal()
 * between steps.  The benchmark child gets default dispositions back.
 */
#ifndef PERFSIFT_RUNNER_H
#define PERFSIFT_RUNNER_H

#include "util/compat.h"
#include <sys/resource.h>

struct strbuf;

struct runner_cmd {
	/* the child runs argv (execvp) or, when argv is NULL, fn(arg) */
	char *const *argv;
	int (*fn)(void *arg); /* returns the exit status */
	void *arg;
	const char *stdout_path; /* created/truncated; NULL: inherit */
	const char *stderr_path; /* created/truncated; NULL: inherit */
	const char *cwd;         /* NULL: inherit */
	char **env;              /* "KEY=VALUE" added to the child's environment,
				    NULL-terminated; NULL: none */
	double timeout_s;        /* 0: none */
	double kill_grace_s;     /* SIGTERM -> SIGKILL after this; 0: 3 s */
	/* called about once a second while the child runs; may be NULL */
	void (*tick)(void *tick_arg, double elapsed_s);
	void *tick_arg;
	/*
	 * Called in perfsift after the fork, before the child may start:
	 * threads (the monitor sampler) are started here, so that the child is
	 * forked from a single-threaded process and inherits no lock another
	 * thread held (the sanitizers' allocator, for one, is not fork-safe).
	 * May be NULL.
	 */
	void (*before_go)(void *arg);
	void *before_go_arg;
	/*
	 * A benchmark run: the child in a cgroup (else a session) of its
	 * own, and what it leaves when it ends is killed and said in the
	 * result (util/cgroup.h).  Not for an install command, whose
	 * daemons (a database it installs) are meant to stay.
	 */
	bool contain;
	/*
	 * Sent to the child when perfsift dies (PR_SET_PDEATHSIG), 0: none.
	 * qemu's guest may never end by itself, and a SIGKILLed perfsift
	 * left it running for ever (docs/attack-5.md, V2).
	 */
	int pdeathsig;
	/*
	 * RLIMIT_FSIZE of the child, 0: unchanged.  qemu writes the guest's
	 * serial ports into files, and a guest that prints for ever filled
	 * the host's /tmp (docs/attack-5.md, V5): past the bound qemu gets
	 * SIGXFSZ and ends.
	 */
	uint64_t fsize_max;
};

struct runner_result {
	/*
	 * The child was forked: false only when a stop request came first
	 * (or the fork failed).  Recorded here, so that no caller guesses it
	 * from the other fields.
	 */
	bool started;
	int wait_status;   /* as from wait4() */
	struct rusage ru;  /* the child and the children it waited for */
	double elapsed_s;  /* fork to reap, CLOCK_MONOTONIC */
	bool timed_out;    /* the timeout ended it */
	int stop_signal;   /* SIGINT / SIGTERM that ended it, else 0 */
	bool killed;       /* died of SIGKILL that perfsift did not send */
	bool oom_kill;     /* ... and the kernel's oom_kill counter went up */
	bool oom_during;   /* the oom_kill counter went up while it ran (a
			    * worker of a built-in benchmark may have died of it) */
	/*
	 * What the run left running when its leader ended, killed then
	 * (util/cgroup.h): how many, "PID (COMM)" each (cut at the size),
	 * and whether a cgroup held them (else its session and group).
	 */
	size_t nleft;
	char left[512];
	bool in_cgroup;
};

/*
 * Block SIGINT, SIGTERM and SIGCHLD in the calling thread (call it in the
 * main thread before starting any other), so that they wait for
 * runner_run() / runner_stop_signal() to collect them.
 */
void runner_block_signals(void);

/*
 * SIGINT or SIGTERM received so far (collecting any pending one), else 0.
 * Once seen, a stop request stays: every later call returns it.
 */
int runner_stop_signal(void);

/*
 * Fork, run cmd in a new process group, wait for it.  On timeout or a stop
 * signal the whole group gets SIGTERM, then SIGKILL after the grace time;
 * when the child ends, whatever it left running in its group is killed.
 * Returns 0 when the child was started and reaped (whatever its status;
 * see res), -1 with err when it could not be started (or was lost).
 * When a stop was already requested it starts nothing: returns 0 with
 * res->stop_signal set and res->started false.
 */
int runner_run(const struct runner_cmd *cmd, struct runner_result *res,
	       struct strbuf *err);

/* a one-line description of how the child ended ("exit status 3", ...) */
void runner_describe(const struct runner_result *res, struct strbuf *out);

#endif
