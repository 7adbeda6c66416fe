/*
 * runner.c: one benchmark process, measured and stoppable (see runner.h).
 *
 * perfsift keeps SIGINT/SIGTERM/SIGCHLD blocked and waits with
 * sigtimedwait(), so there is no handler and no race between "child ended"
 * and "user pressed ^C": each wake-up looks at what is pending.  Ending
 * the child means ending its process group: SIGTERM, then SIGKILL after a
 * grace time.  Before reaping the child (waitid WNOWAIT) its group gets
 * SIGKILL, so nothing it started outlives it -- the group id cannot be
 * reused while the unreaped leader holds it.
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "util/cgroup.h"
#include "run/runner.h"
#include "util/strbuf.h"
#include "util/timeutil.h"

/* the stop request, sticky for the process: read by every later step */
static int stop_signal;

static void wait_set(sigset_t *set, bool with_chld)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	if (with_chld)
		sigaddset(set, SIGCHLD);
}

void runner_block_signals(void)
{
	sigset_t set;

	/*
	 * A shell starts background commands with SIGINT ignored, and an
	 * ignored signal is dropped, never pending: take the default back
	 * (harmless while blocked) so that perfsift sees the stop request.
	 */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	/* an inherited SIG_IGN for SIGCHLD would reap children behind our back */
	signal(SIGCHLD, SIG_DFL);
	wait_set(&set, true);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

int runner_stop_signal(void)
{
	static const struct timespec zero = {0, 0};
	sigset_t set;
	int sig;

	wait_set(&set, false);
	while ((sig = sigtimedwait(&set, NULL, &zero)) > 0)
		if (!stop_signal)
			stop_signal = sig;
	return stop_signal;
}

/* the kernel's count of OOM kills (/proc/vmstat oom_kill), or -1 */
static long long oom_kill_count(void)
{
	FILE *fp = fopen("/proc/vmstat", "re");
	char name[64];
	long long v, ret = -1;

	if (!fp)
		return -1;
	while (fscanf(fp, "%63s %lld", name, &v) == 2)
		if (!strcmp(name, "oom_kill")) {
			ret = v;
			break;
		}
	fclose(fp);
	return ret;
}

static int open_out(const char *path, struct strbuf *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		strbuf_addf(err, "cannot create '%s': %s", path, strerror(errno));
	return fd;
}

static NORETURN void child(const struct runner_cmd *cmd,
			   const struct run_cgroup *cg, int out_fd, int err_fd)
{
	sigset_t none;
	int fd;

	/* the run's cgroup (else a session of its own), then its own group */
	run_cgroup_enter(cg);
	setpgid(0, 0);
	if (cmd->pdeathsig)
		prctl(PR_SET_PDEATHSIG, cmd->pdeathsig);
	if (cmd->fsize_max) {
		struct rlimit rl = { cmd->fsize_max, cmd->fsize_max };

		setrlimit(RLIMIT_FSIZE, &rl);
		signal(SIGXFSZ, SIG_DFL);
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* its own process group is not the terminal's: keep it off the tty */
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0 && fd != 0) {
		dup2(fd, 0);
		close(fd);
	}
	if (out_fd >= 0)
		dup2(out_fd, 1);
	if (err_fd >= 0)
		dup2(err_fd, 2);
	for (char **e = cmd->env; e && *e; e++)
		putenv(*e); /* this process's copy: lives until exec or exit */
	if (cmd->cwd && chdir(cmd->cwd) < 0) {
		fprintf(stderr, "cannot enter '%s': %s\n", cmd->cwd, strerror(errno));
		_exit(126);
	}
	if (cmd->argv) {
		execvp(cmd->argv[0], cmd->argv);
		fprintf(stderr, "cannot run '%s': %s\n", cmd->argv[0], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	} else {
		int status = cmd->fn(cmd->arg);

		fflush(stdout);
		fflush(stderr);
		_exit(status);
	}
}

static struct timespec ns_to_ts(uint64_t ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(ns / 1000000000u);
	ts.tv_nsec = (long)(ns % 1000000000u);
	return ts;
}

/* a run's clock and what has been sent to its process group */
struct wait_state {
	pid_t pid;
	uint64_t start;    /* fork, CLOCK_MONOTONIC ns */
	uint64_t deadline; /* the timeout's end, 0: none */
	uint64_t kill_at;  /* SIGKILL after SIGTERM's grace */
	uint64_t next_tick;
	double grace;
	bool term_sent, kill_sent;
	struct run_cgroup cg; /* where the run's processes are */
};

/* SIGTERM to the group now; SIGKILL follows after the grace time */
static void end_group(struct wait_state *w, uint64_t now)
{
	kill(-w->pid, SIGTERM);
	w->term_sent = true;
	w->kill_at = now + (uint64_t)llround(w->grace * 1e9);
}

/*
 * Fork the child; it waits for the go (a byte on a pipe) while
 * before_go() starts perfsift's threads, so that it was forked from a
 * single-threaded process.  0 with w->pid, or -1 with err.
 */
static int fork_child(const struct runner_cmd *cmd, int out_fd, int err_fd,
		      struct wait_state *w, struct strbuf *err)
{
	int go[2] = {-1, -1};
	pid_t pid;

	if (cmd->before_go && pipe2(go, O_CLOEXEC) < 0) {
		strbuf_addf(err, "cannot make a pipe: %s", strerror(errno));
		return -1;
	}
	w->start = time_mono_ns();
	pid = fork();
	if (pid < 0) {
		strbuf_addf(err, "cannot fork: %s", strerror(errno));
		if (go[0] >= 0) {
			close(go[0]);
			close(go[1]);
		}
		return -1;
	}
	if (!pid) {
		if (go[0] >= 0) {
			char c;

			close(go[1]);
			/* wait for the go; EOF (perfsift gone) means go too */
			while (read(go[0], &c, 1) < 0 && errno == EINTR)
				;
			close(go[0]);
		}
		child(cmd, &w->cg, out_fd, err_fd);
	}
	w->pid = pid;
	setpgid(pid, pid); /* both sides: whichever runs first */
	if (go[0] >= 0) {
		close(go[0]);
		cmd->before_go(cmd->before_go_arg);
		/* a failed write means the child died already: the wait
		 * loop sees that */
		(void)!write(go[1], "g", 1);
		close(go[1]);
	}
	return 0;
}

/*
 * Wait until the child ends (without reaping it), ticking, ending its
 * group on the timeout or a stop signal.  0, or -1 with err when the
 * child was reaped by someone else.
 */
static int wait_child(const struct runner_cmd *cmd, struct runner_result *res,
		      struct wait_state *w, struct strbuf *err)
{
	const uint64_t sec = 1000000000u;
	sigset_t set;

	wait_set(&set, true);
	for (;;) {
		siginfo_t si;
		struct timespec ts;
		uint64_t now, until;
		int sig;

		/* has the child ended?  look without reaping it */
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)w->pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0) {
			if (errno == EINTR)
				continue;
			/* reaped by someone else: nothing to measure */
			strbuf_addf(err, "lost the benchmark process: %s", strerror(errno));
			kill(-w->pid, SIGKILL);
			return -1;
		}
		if (si.si_pid == w->pid)
			return 0;

		now = time_mono_ns();
		if (w->deadline && now >= w->deadline && !w->term_sent) {
			res->timed_out = true;
			end_group(w, now);
		}
		if (w->term_sent && !w->kill_sent && now >= w->kill_at) {
			kill(-w->pid, SIGKILL);
			w->kill_sent = true;
		}
		if (now >= w->next_tick) {
			if (cmd->tick)
				cmd->tick(cmd->tick_arg, (double)(now - w->start) / 1e9);
			w->next_tick += sec * ((now - w->next_tick) / sec + 1);
		}
		/* sleep until the next thing to do: a tick, the deadline, SIGKILL */
		until = w->next_tick;
		if (w->deadline && !w->term_sent && w->deadline < until)
			until = w->deadline;
		if (w->term_sent && !w->kill_sent && w->kill_at < until)
			until = w->kill_at;
		/* wake at least every 100 ms: SIGCHLD from a grandchild is not ours */
		if (until > now + sec / 10)
			until = now + sec / 10;
		ts = ns_to_ts(until > now ? until - now : 0);
		sig = sigtimedwait(&set, NULL, &ts);
		if ((sig == SIGINT || sig == SIGTERM) && !w->term_sent) {
			if (!stop_signal)
				stop_signal = sig;
			res->stop_signal = sig;
			end_group(w, time_mono_ns());
		} else if (sig == SIGINT || sig == SIGTERM) {
			/* a second ^C: no more grace */
			kill(-w->pid, SIGKILL);
			w->kill_sent = true;
		}
	}
}

/* the child ended: end what it left in its group, reap it, say how it died */
static void reap(struct runner_result *res, struct wait_state *w,
		 long long oom_before)
{
	long long oom_after;

	struct strbuf left = STRBUF_INIT;

	/*
	 * What the run left: in its cgroup (a setsid daemon too) or its
	 * session, named and killed; then its group, whose id the leader,
	 * a zombie, still holds.
	 */
	res->in_cgroup = w->cg.dir != NULL;
	if (w->cg.dir || w->cg.session)
		res->nleft = run_cgroup_end(&w->cg, w->pid, &left);
	if (left.len >= sizeof(res->left)) {
		strbuf_setlen(&left, sizeof(res->left) - 4);
		strbuf_addstr(&left, "...");
	}
	memcpy(res->left, left.buf, left.len + 1);
	strbuf_release(&left);
	kill(-w->pid, SIGKILL);
	while (wait4(w->pid, &res->wait_status, 0, &res->ru) < 0 && errno == EINTR)
		;
	run_cgroup_remove(&w->cg);
	res->elapsed_s = (double)(time_mono_ns() - w->start) / 1e9;
	if (!res->stop_signal && stop_signal && w->term_sent && !res->timed_out)
		res->stop_signal = stop_signal;
	oom_after = oom_kill_count();
	res->oom_during = oom_before >= 0 && oom_after > oom_before;
	if (WIFSIGNALED(res->wait_status) && WTERMSIG(res->wait_status) == SIGKILL &&
	    !w->kill_sent) {
		res->killed = true;
		res->oom_kill = res->oom_during;
	}
}

int runner_run(const struct runner_cmd *cmd, struct runner_result *res,
	       struct strbuf *err)
{
	struct wait_state w = {0};
	int out_fd = -1, err_fd = -1, ret = -1;
	long long oom_before;

	memset(res, 0, sizeof(*res));
	if (runner_stop_signal()) {
		res->stop_signal = stop_signal;
		return 0; /* started nothing: res->started stays false */
	}
	if (cmd->stdout_path && (out_fd = open_out(cmd->stdout_path, err)) < 0)
		goto out;
	if (cmd->stderr_path && (err_fd = open_out(cmd->stderr_path, err)) < 0)
		goto out;
	oom_before = oom_kill_count();
	fflush(NULL); /* nothing buffered twice */
	w.grace = cmd->kill_grace_s > 0 ? cmd->kill_grace_s : 3.0;
	if (cmd->contain && !run_cgroup_create(&w.cg))
		w.cg.session = true;
	if (fork_child(cmd, out_fd, err_fd, &w, err) < 0)
		goto out;
	res->started = true;
	if (cmd->timeout_s > 0)
		w.deadline = w.start + (uint64_t)llround(cmd->timeout_s * 1e9);
	w.next_tick = w.start + 1000000000u;
	if (wait_child(cmd, res, &w, err) < 0)
		goto out;
	reap(res, &w, oom_before);
	ret = 0;
out:
	run_cgroup_remove(&w.cg);
	if (out_fd >= 0)
		close(out_fd);
	if (err_fd >= 0)
		close(err_fd);
	return ret;
}

void runner_describe(const struct runner_result *res, struct strbuf *out)
{
	int st = res->wait_status;

	if (res->timed_out)
		strbuf_addstr(out, "ended by the job's timeout");
	else if (res->stop_signal)
		strbuf_addf(out, "interrupted by %s",
			    res->stop_signal == SIGINT ? "SIGINT" : "SIGTERM");
	else if (res->oom_kill)
		strbuf_addstr(out, "killed by the OOM killer");
	else if (res->killed)
		strbuf_addstr(out, "killed by SIGKILL (not sent by perfsift)");
	else if (WIFSIGNALED(st))
		strbuf_addf(out, "killed by signal %d (%s)", WTERMSIG(st),
			    strsignal(WTERMSIG(st)));
	else if (WIFEXITED(st))
		strbuf_addf(out, "exit status %d", WEXITSTATUS(st));
	else
		strbuf_addf(out, "wait status %#x", st);
}
