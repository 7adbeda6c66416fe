/*
 * spawn.c: start a program, feed and drain its streams, stop it on a
 * timeout or a caller's request, and reap it (see util/spawn.h).
 *
 * The parent opens every file and pipe before fork, so a missing input
 * or an unwritable log is an error with a reason in the caller's err,
 * not a child that exits 127 with the reason lost in a stream nobody
 * reads.  The child only rearranges descriptors, leaves its group or
 * session, drops its user and execs.
 *
 * The wait is one ppoll over the capture pipes and a pidfd of the child
 * (Linux 5.3; without one the wait looks again every 50 ms), so a child
 * that ends is seen at once, and a ticking caller (the lab worker's
 * lease) or a deadline wakes it as well.  The child's end is first
 * observed with WNOWAIT: the zombie keeps its pid, so its process group
 * and session cannot be a new process's when what it left is killed.
 */
#include "util/compat.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "util/fileutil.h"
#include "util/spawn.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/timeutil.h"
#include "util/trust.h"
#include "util/usage.h"
#include "util/xalloc.h"

/* linux/close_range.h's, which older headers lack */
#define SPAWN_CLOSE_RANGE_CLOEXEC (1u << 2)

const char *const spawn_git_unset[] = {"GIT_DIR", "GIT_WORK_TREE",
				       "GIT_INDEX_FILE", NULL};

void spawn_init(struct spawn_cmd *c)
{
	memset(c, 0, sizeof(*c));
	c->status = -1;
	c->pid = -1;
	c->pfd[0] = c->pfd[1] = -1;
	c->pidfd = -1;
	c->grace_ms = 3000;
}

void spawn_init_sh(struct spawn_cmd *c, const char *script)
{
	spawn_init(c);
	c->sh_argv[0] = "/bin/sh";
	c->sh_argv[1] = "-c";
	c->sh_argv[2] = script;
	c->sh_argv[3] = NULL;
	c->argv = c->sh_argv;
}

void spawn_release(struct spawn_cmd *c)
{
	FREE_AND_NULL(c->left);
}

/* the descriptor the child gets for one stream: -2 inherit, else an fd */
static int open_stream(const struct spawn_io *io, int which, int *pipe_rd,
		       struct strbuf *err)
{
	static const char *const names[] = {"stdin", "stdout", "stderr"};
	int p[2], fd;

	switch (io->how) {
	case SPAWN_INHERIT:
		return -2;
	case SPAWN_NULL:
		fd = open("/dev/null", (which ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
		if (fd < 0)
			strbuf_addf(err, "cannot open /dev/null: %s", strerror(errno));
		return fd;
	case SPAWN_FD:
		if (io->fd < 0)
			BUG("spawn: %s from a negative fd", names[which]);
		return io->fd;
	case SPAWN_FILE:
		fd = which ? open(io->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
				  0644) :
			     open(io->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			strbuf_addf(err, "cannot %s '%s' for the %s: %s",
				    which ? "create" : "open", io->path,
				    names[which], strerror(errno));
		return fd;
	case SPAWN_CAPTURE:
		if (!which || !io->buf)
			BUG("spawn: a capture of %s", names[which]);
		if (pipe2(p, O_CLOEXEC) < 0) {
			strbuf_addf(err, "cannot create a pipe: %s", strerror(errno));
			return -1;
		}
		*pipe_rd = p[0];
		return p[1];
	case SPAWN_TO_STDERR:
		if (which != 1)
			BUG("spawn: only stdout goes to our stderr");
		return 2;
	case SPAWN_TO_STDOUT:
		if (which != 2)
			BUG("spawn: only stderr goes to stdout");
		return -3;
	}
	BUG("spawn: stream %d", (int)io->how);
}

/* the child's own fds to close in the parent (not ours to keep) */
static void close_child_end(const struct spawn_io *io, int fd)
{
	if (fd >= 0 && io->how != SPAWN_FD && io->how != SPAWN_TO_STDERR)
		close(fd);
}

/* a message from the child before exec, and its end */
static NORETURN void child_fail(const char *what, const char *arg, int code)
{
	char raw[4096], shown[4 * sizeof(raw)];

	/* arg is a command or a directory, the command line's text: escaped */
	snprintf(raw, sizeof(raw), "perfsift: cannot %s '%s': %s", what, arg,
		 strerror(errno));
	trust_escape_msg(shown, sizeof(shown), raw);
	fprintf(stderr, "%s\n", shown);
	_exit(code);
}

static void drop_user(const struct spawn_user *u)
{
	/* groups first: after setuid there is no right left to change them */
	if (setgroups((size_t)u->ngroups, u->groups) < 0)
		child_fail("set the groups of", u->name, 126);
	if (setgid(u->gid) < 0)
		child_fail("set the group id of", u->name, 126);
	if (setuid(u->uid) < 0)
		child_fail("become", u->name, 126);
	/* a drop that could be undone was none */
	if (getuid() != u->uid || geteuid() != u->uid ||
	    (u->uid && setuid(0) == 0)) {
		errno = EPERM;
		child_fail("drop root for", u->name, 126);
	}
	/* its own home, so a build's caches are not looked for in root's */
	if (u->home)
		setenv("HOME", u->home, 1);
	setenv("USER", u->name, 1);
	setenv("LOGNAME", u->name, 1);
}

/*
 * Every fd but 0-2 closed at exec: one perfsift opened without O_CLOEXEC
 * (a library's: SQLite's, libpq's socket, a lock) is not the child's --
 * for a build as another user, a descriptor of root's files.  Marked
 * rather than closed, so that child_fail() can still say why an exec
 * failed; by close_range where the kernel has it (5.11), else one by one
 * up to the descriptor limit.
 */
static void keep_only_std_fds(void)
{
	struct rlimit rl;
	int fd, max = 65536;

#ifdef SYS_close_range
	if (!syscall(SYS_close_range, 3u, ~0u, SPAWN_CLOSE_RANGE_CLOEXEC))
		return;
#endif
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < (rlim_t)max)
		max = (int)rl.rlim_cur;
	for (fd = 3; fd < max; fd++)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
}

static NORETURN void child(struct spawn_cmd *c, pid_t ppid, const int fd[3])
{
	const char *const *e;
	int i;

	if (c->pdeathsig) {
		prctl(PR_SET_PDEATHSIG, c->pdeathsig);
		/* the parent may have died before the line above */
		if (getppid() != ppid)
			_exit(127);
	}
	/* into the cgroup (as root, before any drop), else a session */
	if (c->contain)
		run_cgroup_enter(&c->cg);
	/*
	 * Another user's child gets a session of its own, so no controlling
	 * terminal: on root's terminal (stdout to our stderr, an operator's
	 * `robot --once`) it could push keys into root's shell with TIOCSTI,
	 * which the kernel allows only on the caller's controlling terminal.
	 * Fails, harmlessly, when the cgroup's fallback made one already.
	 */
	if (c->user)
		setsid();
	/* a group of its own: a stop or a timeout ends all it started; off
	 * the terminal's group, ^C no longer reaches it, and it is stopped
	 * with us instead */
	if (c->own_group && getpgrp() != getpid())
		setpgid(0, 0);
	/* a stream already in its place keeps its number but not O_CLOEXEC */
	for (i = 0; i < 3; i++)
		if (fd[i] == i)
			fcntl(i, F_SETFD, 0);
	if (fd[0] != -2 && dup2(fd[0], 0) < 0)
		child_fail("set up the stdin of", c->argv[0], 127);
	if (fd[1] != -2 && dup2(fd[1], 1) < 0)
		child_fail("set up the stdout of", c->argv[0], 127);
	/* after stdout: 2>&1 follows wherever stdout went */
	if (fd[2] == -3 ? dup2(1, 2) < 0 : fd[2] != -2 && dup2(fd[2], 2) < 0)
		child_fail("set up the stderr of", c->argv[0], 127);
	keep_only_std_fds();
	for (e = c->unset; e && *e; e++)
		unsetenv(*e);
	for (e = c->env; e && *e; e++)
		putenv((char *)*e); /* this process's copy: lives until exec */
	if (c->user)
		drop_user(c->user);
	/* after the drop: a directory the user may not enter is refused */
	if (c->cwd && chdir(c->cwd) < 0)
		child_fail("change to", c->cwd, 127);
	if (c->reset_signals) {
		sigset_t none;

		/*
		 * What perfsift blocks or ignores is the child's to have
		 * back: a run blocks SIGINT/SIGTERM for its runner, and a
		 * child that could not be stopped or that wrote on to a
		 * closed pipe would hang its caller.
		 */
		signal(SIGPIPE, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, c->child_mask ? c->child_mask : &none,
			    NULL);
	}
	execvp(c->exe ? c->exe : c->argv[0], (char *const *)c->argv);
	child_fail("run", c->exe ? c->exe : c->argv[0], errno == ENOENT ? 127 : 126);
}

int spawn_start(struct spawn_cmd *c, struct strbuf *err)
{
	/* another user reads nothing of ours: not root's terminal, say */
	static const struct spawn_io null_in = {.how = SPAWN_NULL};
	const struct spawn_io *io[3] = {
		c->user && c->in.how == SPAWN_INHERIT ? &null_in : &c->in,
		&c->out, &c->err};
	int fd[3] = {-2, -2, -2}, i, e;
	pid_t ppid = getpid();

	if (!c->argv || !c->argv[0])
		BUG("spawn: no program");
	if (c->user && geteuid()) {
		strbuf_addf(err, "cannot run '%s' as %s: that needs root, and "
			    "perfsift runs as uid %ld", c->argv[0], c->user->name,
			    (long)geteuid());
		return -1;
	}
	if (c->contain) {
		c->own_group = true; /* a cgroup alone is no process group */
		if (!run_cgroup_create(&c->cg))
			c->cg.session = true;
	}
	for (i = 0; i < 3; i++) {
		fd[i] = open_stream(io[i], i, &c->pfd[i - 1 < 0 ? 0 : i - 1], err);
		if (fd[i] == -1)
			goto fail;
	}
	fflush(NULL); /* nothing buffered is written twice */
	c->pid = fork();
	if (c->pid < 0) {
		strbuf_addf(err, "cannot fork: %s", strerror(errno));
		goto fail;
	}
	if (!c->pid)
		child(c, ppid, fd);
	for (i = 0; i < 3; i++)
		close_child_end(io[i], fd[i]);
	c->pidfd = (int)syscall(SYS_pidfd_open, c->pid, 0);
	c->status = -1;
	return 0;
fail:
	e = errno;
	for (i = 0; i < 3; i++)
		close_child_end(io[i], fd[i]);
	for (i = 0; i < 2; i++)
		if (c->pfd[i] >= 0) {
			close(c->pfd[i]);
			c->pfd[i] = -1;
		}
	run_cgroup_remove(&c->cg);
	errno = e;
	c->pid = -1;
	return -1;
}

/* the child has ended (left a zombie, see the top), without reaping it */
static bool leader_ended(pid_t pid)
{
	siginfo_t info;

	memset(&info, 0, sizeof(info));
	while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT | WNOHANG) < 0)
		if (errno != EINTR)
			return true; /* not ours to wait for: gone */
	return info.si_pid == pid;
}

static void signal_child(const struct spawn_cmd *c, int sig)
{
	kill(c->own_group ? -c->pid : c->pid, sig);
}

/* read what one capture pipe has; false when it closed */
static bool read_capture(struct spawn_cmd *c, int which, size_t *total)
{
	struct strbuf *sb = which ? c->err.buf : c->out.buf;
	char buf[65536];
	ssize_t n = read(c->pfd[which], buf, sizeof(buf));
	int i;

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0) {
		if (n < 0 && !c->read_errno)
			c->read_errno = errno;
		close(c->pfd[which]);
		c->pfd[which] = -1;
		return false;
	}
	if (c->capture_max && *total + (size_t)n > c->capture_max) {
		/* nothing more is read, and the child is stopped */
		c->overflow = true;
		for (i = 0; i < 2; i++)
			if (c->pfd[i] >= 0) {
				close(c->pfd[i]);
				c->pfd[i] = -1;
			}
		return false;
	}
	*total += (size_t)n;
	strbuf_add(sb, buf, (size_t)n);
	return true;
}

/* nanoseconds as ppoll's timeout */
static struct timespec ts_of(uint64_t ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(ns / 1000000000u);
	ts.tv_nsec = (long)(ns % 1000000000u);
	return ts;
}

static uint64_t sooner(uint64_t a, uint64_t b)
{
	return !a ? b : !b ? a : a < b ? a : b;
}

int spawn_finish(struct spawn_cmd *c)
{
	uint64_t now = time_mono_ns(), deadline = 0, next_tick = 0, kill_at = 0;
	bool ended = false, stop_sent = false, kill_sent = false;
	size_t total = 0;
	int st, i;

	if (c->pid < 0)
		return -1;
	if (c->timeout > 0)
		deadline = now + (uint64_t)(c->timeout * 1e9);
	if (c->tick)
		next_tick = now + (uint64_t)(c->tick_ms > 0 ? c->tick_ms : 1000) *
			    1000000u;
	for (;;) {
		struct pollfd p[3];
		struct timespec ts;
		uint64_t wake;
		int n = 0, r;

		if (!ended)
			ended = leader_ended(c->pid);
		/* done: it ended and its streams closed, or it was killed and
		 * something it started (in a session of its own) keeps them */
		if (ended && ((c->pfd[0] < 0 && c->pfd[1] < 0) || kill_sent))
			break;
		now = time_mono_ns();
		if (!stop_sent) {
			if (deadline && now >= deadline)
				c->timed_out = true;
			else if (next_tick && now >= next_tick) {
				c->stopped = c->tick(c->tick_arg);
				next_tick = now + (uint64_t)(c->tick_ms > 0 ?
					    c->tick_ms : 1000) * 1000000u;
			}
			if (c->timed_out || c->stopped || c->overflow) {
				signal_child(c, SIGTERM);
				stop_sent = true;
				next_tick = 0;
				if (c->grace_ms >= 0)
					kill_at = now + (uint64_t)c->grace_ms *
						  1000000u;
			}
		}
		if (kill_at && !kill_sent && now >= kill_at) {
			signal_child(c, SIGKILL);
			kill_sent = true;
		}
		for (i = 0; i < 2; i++)
			if (c->pfd[i] >= 0) {
				p[n].fd = c->pfd[i];
				p[n].events = POLLIN;
				p[n++].revents = 0;
			}
		if (!ended && c->pidfd >= 0) {
			p[n].fd = c->pidfd;
			p[n].events = POLLIN;
			p[n++].revents = 0;
		}
		wake = sooner(sooner(deadline && !stop_sent ? deadline : 0,
				     next_tick),
			      kill_sent ? 0 : kill_at);
		/* no pidfd: look at the child again every 50 ms */
		if (!ended && c->pidfd < 0)
			wake = sooner(wake, now + 50000000u);
		ts = ts_of(wake > now ? wake - now : 0);
		r = ppoll(p, (nfds_t)n, wake ? &ts : NULL, c->wait_mask);
		if (r < 0 && errno != EINTR)
			break;
		if (r <= 0)
			continue;
		for (i = 0; i < n; i++) {
			if (!p[i].revents || p[i].fd == c->pidfd)
				continue;
			/* a capture closed by the one before (the limit) */
			if (p[i].fd != c->pfd[0] && p[i].fd != c->pfd[1])
				continue;
			read_capture(c, p[i].fd == c->pfd[0] ? 0 : 1, &total);
		}
	}
	for (i = 0; i < 2; i++)
		if (c->pfd[i] >= 0) {
			close(c->pfd[i]);
			c->pfd[i] = -1;
		}
	if (c->contain) {
		struct strbuf left = STRBUF_INIT;

		c->in_cgroup = c->cg.dir != NULL;
		c->nleft = run_cgroup_end(&c->cg, c->pid, &left);
		c->left = left.len ? strbuf_detach(&left, NULL) : NULL;
		strbuf_release(&left);
	} else if (c->kill_group && c->own_group) {
		kill(-c->pid, SIGKILL);
	}
	while (waitpid(c->pid, &st, 0) < 0)
		if (errno != EINTR) {
			st = -1;
			break;
		}
	if (c->contain)
		run_cgroup_remove(&c->cg);
	if (c->pidfd >= 0) {
		close(c->pidfd);
		c->pidfd = -1;
	}
	c->status = st < 0 ? -1 : WIFSIGNALED(st) ? 128 + WTERMSIG(st) :
		    WEXITSTATUS(st);
	c->pid = -1;
	return c->status;
}

int spawn_run(struct spawn_cmd *c, struct strbuf *err)
{
	if (spawn_start(c, err) < 0)
		return -1;
	return spawn_finish(c);
}

int spawn_user_lookup(const char *name, struct spawn_user *u,
		      struct strbuf *err)
{
	struct passwd pw, *res = NULL;
	char buf[16384];
	int n = 0, r;

	memset(u, 0, sizeof(*u));
	if (geteuid()) {
		strbuf_addf(err, "cannot run commands as '%s': that needs root, "
			    "and perfsift runs as uid %ld", trust_shown(name),
			    (long)geteuid());
		return -1;
	}
	r = getpwnam_r(name, &pw, buf, sizeof(buf), &res);
	if (r || !res) {
		/* escaped: the name is a config's text (ESC reached the terminal) */
		strbuf_addf(err, "no user '%s' on this machine%s%s",
			    trust_shown(name), r ? ": " : "", r ? strerror(r) : "");
		return -1;
	}
	/* the count first, then the list (getgrouplist's own protocol) */
	getgrouplist(name, pw.pw_gid, NULL, &n);
	u->groups = xcalloc(n > 0 ? (size_t)n : 1, sizeof(*u->groups));
	if (getgrouplist(name, pw.pw_gid, u->groups, &n) < 0) {
		strbuf_addf(err, "cannot read the groups of '%s'", trust_shown(name));
		spawn_user_release(u);
		return -1;
	}
	u->ngroups = n;
	u->name = xstrdup(name);
	u->uid = pw.pw_uid;
	u->gid = pw.pw_gid;
	u->home = pw.pw_dir && *pw.pw_dir ? xstrdup(pw.pw_dir) : NULL;
	return 0;
}

void spawn_user_release(struct spawn_user *u)
{
	free(u->name);
	free(u->groups);
	free(u->home);
	memset(u, 0, sizeof(*u));
}

int spawn_user_of(const char *path, struct spawn_user *u)
{
	struct strbuf err = STRBUF_INIT;
	struct passwd *pw;
	struct stat st;
	int ret = 0;

	memset(u, 0, sizeof(*u));
	if (geteuid() || stat(path, &st) < 0 || st.st_uid == geteuid())
		return 0;
	pw = getpwuid(st.st_uid);
	if (pw && pw->pw_name)
		ret = spawn_user_lookup(pw->pw_name, u, &err) ? 0 : 1;
	strbuf_release(&err);
	return ret;
}

/*
 * Whether /proc/PID/status is a living process of uid: its real,
 * effective or saved uid (a set-uid program of uid's, run by another
 * user, keeps uid as its saved one and may take it back at will); false
 * when gone or a zombie (dead already: killing it again would find it
 * forever).
 */
static bool proc_of_uid(const char *pid, uid_t uid)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	const char *p;
	unsigned long r, e, s;
	bool of = false;

	strbuf_addf(&path, "/proc/%s/status", pid);
	if (strbuf_read_file(&text, path.buf, 1 << 16) >= 0 &&
	    !strstr(text.buf, "\nState:\tZ") &&
	    (p = strstr(text.buf, "\nUid:")) &&
	    sscanf(p + 5, "%lu %lu %lu", &r, &e, &s) == 3)
		of = r == uid || e == uid || s == uid;
	strbuf_release(&path);
	strbuf_release(&text);
	return of;
}

/*
 * Every living process of uid, SIGKILLed by root one by one when kill
 * is set (what kill(-1) as uid may not reach: a process whose real and
 * saved uids are another's); "PID (COMM)" of each appended to list when
 * not NULL.  How many were found.
 */
static size_t scan_user(uid_t uid, bool kill_them, struct strbuf *list)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	size_t found = 0;

	while (d && (de = readdir(d))) {
		long long v;
		const char *why;

		if (strnum_ll(de->d_name, 1, INT32_MAX, &v, &why) ||
		    !proc_of_uid(de->d_name, uid))
			continue;
		if (kill_them)
			kill((pid_t)v, SIGKILL);
		if (list) {
			struct strbuf path = STRBUF_INIT, comm = STRBUF_INIT;

			strbuf_addf(&path, "/proc/%s/comm", de->d_name);
			if (strbuf_read_file(&comm, path.buf, 256) < 0)
				strbuf_addstr(&comm, "?");
			strbuf_rtrim(&comm);
			strbuf_addf(list, "%s%s (%s)", list->len ? " " : "",
				    de->d_name, trust_shown(comm.buf));
			strbuf_release(&path);
			strbuf_release(&comm);
		}
		found++;
	}
	if (d)
		closedir(d);
	return found;
}

/*
 * kill(-1, SIGKILL) from a child that drops to uid: every process uid may
 * signal, whatever its cgroup or session, at once -- the kernel signals
 * them all under one lock, so a fork racing it fails (its parent has the
 * SIGKILL pending) instead of leaving a child a walk of /proc has passed,
 * as a fork storm may (the fourth attack).  Repeated until nothing is
 * left to signal or a few rounds have gone (the child may be killed by
 * one of them: the caller's walk of /proc tells).  Only system calls
 * between fork and _exit.
 */
static void kill_as(const struct spawn_user *u)
{
	struct timespec ms = {0, 1000000};
	pid_t pid = fork();
	int st, i;

	if (pid < 0)
		return;
	if (!pid) {
		if (setgroups(0, NULL) < 0 || setresgid(u->gid, u->gid, u->gid) < 0 ||
		    setresuid(u->uid, u->uid, u->uid) < 0)
			_exit(126);
		for (i = 0; i < 20; i++) {
			if (kill(-1, SIGKILL) < 0 && errno == ESRCH)
				break;
			nanosleep(&ms, NULL);
		}
		_exit(0);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
}

int spawn_kill_user(const struct spawn_user *u, size_t *nkilled,
		    struct strbuf *killed, struct strbuf *left)
{
	size_t n;
	int round;

	if (!u->uid)
		BUG("spawn_kill_user: uid 0");
	*nkilled = n = scan_user(u->uid, false, killed);
	/*
	 * Until none is alive: kill(-1) as the user takes them all at once,
	 * root's own kill each one it cannot reach; the killed leave /proc
	 * once reaped (a process in the kernel, in D state, dies when it
	 * comes back).  About 2 s at most, then what is left is said.
	 */
	for (round = 0; n && round < 200; round++) {
		kill_as(u);
		n = scan_user(u->uid, true, NULL);
		if (n)
			usleep(10000);
	}
	if (n && left)
		n = scan_user(u->uid, false, left);
	return n ? -1 : 0;
}

/*
 * A name below the tree that is one of several hard links of a file:
 * whether the file is the tree's own (every link of it is in the tree)
 * is known only once the whole tree has been walked.
 */
struct tree_link {
	dev_t dev;
	ino_t ino;
	nlink_t nlink;
	char *path;
};

struct chown_walk {
	uid_t uid;
	gid_t gid;
	struct tree_link *links;
	size_t nr, alloc;
};

/* one entry made uid:gid's (and, handed to root, nobody else's) */
static int chown_one(int dirfd, const char *name, const struct stat *st,
		     const struct chown_walk *w, const char *path,
		     struct strbuf *err)
{
	if ((st->st_uid != w->uid || st->st_gid != w->gid) &&
	    fchownat(dirfd, name, w->uid, w->gid, AT_SYMLINK_NOFOLLOW) < 0) {
		strbuf_addf(err, "cannot hand '%s' to uid %ld: %s", path,
			    (long)w->uid, strerror(errno));
		return -1;
	}
	/*
	 * Handed to root, nobody else may write it either: a file the
	 * builder made 0666 or a directory 0777 would stay the builder's to
	 * change through the mode.  Set-id bits go too (chown drops them
	 * from a file; this from a directory, and keeps them dropped).  Not
	 * a link (its mode is not its own); the directory it is in has been
	 * through here already, so nobody but root can swap it for one.
	 */
	if (!w->uid && !S_ISLNK(st->st_mode) &&
	    (st->st_mode & 07777) != (st->st_mode & 01755) &&
	    fchmodat(dirfd, name, st->st_mode & 01755, 0) < 0) {
		strbuf_addf(err, "cannot take '%s' from other users: %s",
			    path, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * One entry below dirfd, and (a directory) all below it: by descriptor,
 * opened with O_NOFOLLOW, so a link swapped in meanwhile is not followed.
 * A file of more than one hard link is only noted here (chown_links()).
 */
static int chown_at(int dirfd, const char *name, struct chown_walk *w,
		    struct strbuf *path, struct strbuf *err)
{
	size_t len = path->len;
	struct stat st;
	struct dirent *de;
	DIR *d;
	int fd, ret = 0;

	if (len)
		strbuf_addch(path, '/');
	strbuf_addstr(path, name);
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		strbuf_addf(err, "cannot hand '%s' to uid %ld: %s", path->buf,
			    (long)w->uid, strerror(errno));
		ret = -1;
		goto out;
	}
	if (!S_ISDIR(st.st_mode) && st.st_nlink > 1) {
		ALLOC_GROW(w->links, w->nr + 1, w->alloc);
		w->links[w->nr].dev = st.st_dev;
		w->links[w->nr].ino = st.st_ino;
		w->links[w->nr].nlink = st.st_nlink;
		w->links[w->nr].path = xstrdup(path->buf);
		w->nr++;
		goto out;
	}
	ret = chown_one(dirfd, name, &st, w, path->buf, err);
	if (ret || !S_ISDIR(st.st_mode))
		goto out;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		strbuf_addf(err, "cannot read '%s': %s", path->buf, strerror(errno));
		if (fd >= 0)
			close(fd);
		ret = -1;
		goto out;
	}
	while (!ret && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			ret = chown_at(fd, de->d_name, w, path, err);
	closedir(d);
out:
	strbuf_setlen(path, len);
	return ret;
}

static int link_cmp(const void *a, const void *b)
{
	const struct tree_link *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return 0;
}

/*
 * The directory holding path (top/REL...), opened one name at a time
 * with O_NOFOLLOW from top's parent, so that no directory on the way
 * can have been swapped for a link; *last its last name.  An fd, or -1.
 */
static int open_parent(const char *top, const char *path, const char **last)
{
	struct strbuf dir = STRBUF_INIT;
	const char *p, *slash;
	int fd, next;

	path_dirname(&dir, top);
	fd = open(dir.len ? dir.buf : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	strbuf_release(&dir);
	p = path + strlen(top) - strlen(path_basename(top));
	while (*p == '/') /* a top given with a trailing slash */
		p++;
	while (fd >= 0 && (slash = strchr(p, '/'))) {
		char *name = xstrndup(p, (size_t)(slash - p));

		next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		free(name);
		close(fd);
		fd = next;
		for (p = slash + 1; *p == '/'; p++)
			;
	}
	*last = p;
	return fd;
}

/*
 * The hard links noted by the walk.  A file all of whose links are in
 * the tree is the tree's and handed over as any other.  One with a link
 * outside is not the tree's to change: the builder can link any file it
 * may read and write (fs.protected_hardlinks; any file at all where that
 * is off), and chowning it gave the builder a root-owned file outside
 * the tree -- handed to root, then back to the builder at the next
 * checkout (the fourth attack, docs/attack-4.md).  Its names in the tree
 * are removed (the file itself lives on through its other name), so no
 * later hand-over meets them again, and the hand-over fails.  Each is
 * reached again name by name with O_NOFOLLOW (open_parent()), as the
 * walk reached it, and must be the inode the walk saw.
 */
static int chown_links(const char *top, struct chown_walk *w,
		       struct strbuf *err)
{
	size_t i = 0, j, k;
	bool own;
	int ret = 0;

	if (w->nr)
		qsort(w->links, w->nr, sizeof(*w->links), link_cmp);
	for (; i < w->nr; i = j) {
		for (j = i + 1; j < w->nr && !link_cmp(&w->links[i], &w->links[j]); j++)
			;
		/* the count the walk saw: unlinking one changes the next's */
		own = w->links[i].nlink == j - i;
		for (k = i; k < j; k++) {
			const char *p = w->links[k].path, *name;
			int dfd = open_parent(top, p, &name);
			struct stat st;

			if (dfd < 0 || fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
			    st.st_dev != w->links[i].dev ||
			    st.st_ino != w->links[i].ino) {
				if (!ret)
					strbuf_addf(err, "cannot hand '%s' to uid %ld: "
						    "it changed during the hand-over",
						    p, (long)w->uid);
				ret = -1;
				if (dfd >= 0)
					close(dfd);
				continue;
			}
			if (own) {
				struct strbuf why = STRBUF_INIT;

				if (chown_one(dfd, name, &st, w, p, &why) < 0) {
					if (!ret)
						strbuf_addbuf(err, &why);
					ret = -1;
				}
				strbuf_release(&why);
				close(dfd);
				continue;
			}
			if (unlinkat(dfd, name, 0) < 0 && !ret)
				strbuf_addf(err, "cannot remove '%s': %s", p,
					    strerror(errno));
			else if (!ret)
				strbuf_addf(err, "'%s' is a hard link of a file "
					    "outside the tree (%llu links, %zu in it): "
					    "removed, not handed to uid %ld",
					    p, (unsigned long long)w->links[i].nlink, j - i,
					    (long)w->uid);
			close(dfd);
			ret = -1;
		}
	}
	return ret;
}

int spawn_chown_tree(const char *dir, uid_t uid, gid_t gid,
		     struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	struct chown_walk w = { uid, gid, NULL, 0, 0 };
	int ret = chown_at(AT_FDCWD, dir, &w, &path, err);
	size_t i;

	if (!ret)
		ret = chown_links(dir, &w, err);
	for (i = 0; i < w.nr; i++)
		free(w.links[i].path);
	free(w.links);
	strbuf_release(&path);
	return ret;
}
