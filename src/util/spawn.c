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
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "util/spawn.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/timeutil.h"
#include "util/usage.h"
#include "util/xalloc.h"

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
	fprintf(stderr, "perfsift: cannot %s '%s': %s\n", what, arg,
		strerror(errno));
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
	/* a group of its own: a stop or a timeout ends all it started; off
	 * the terminal's group, ^C no longer reaches it, and it is stopped
	 * with us instead */
	if (c->own_group)
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
	const struct spawn_io *io[3] = {&c->in, &c->out, &c->err};
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
			    "and perfsift runs as uid %ld", name, (long)geteuid());
		return -1;
	}
	r = getpwnam_r(name, &pw, buf, sizeof(buf), &res);
	if (r || !res) {
		strbuf_addf(err, "no user '%s' on this machine%s%s", name,
			    r ? ": " : "", r ? strerror(r) : "");
		return -1;
	}
	/* the count first, then the list (getgrouplist's own protocol) */
	getgrouplist(name, pw.pw_gid, NULL, &n);
	u->groups = xcalloc(n > 0 ? (size_t)n : 1, sizeof(*u->groups));
	if (getgrouplist(name, pw.pw_gid, u->groups, &n) < 0) {
		strbuf_addf(err, "cannot read the groups of '%s'", name);
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
 * The real and effective uids of /proc/PID/status; false when gone or a
 * zombie (dead already: killing it again would find it forever).
 */
static bool proc_uids(const char *pid, uid_t *ruid, uid_t *euid)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	const char *p;
	unsigned long r, e;
	bool ok = false;

	strbuf_addf(&path, "/proc/%s/status", pid);
	if (strbuf_read_file(&text, path.buf, 1 << 16) >= 0 &&
	    !strstr(text.buf, "\nState:\tZ") &&
	    (p = strstr(text.buf, "\nUid:")) &&
	    sscanf(p + 5, "%lu %lu", &r, &e) == 2) {
		*ruid = (uid_t)r;
		*euid = (uid_t)e;
		ok = true;
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return ok;
}

size_t spawn_kill_user(uid_t uid, struct strbuf *left)
{
	size_t total = 0, found;
	int round;

	if (!uid)
		BUG("spawn_kill_user: uid 0");
	/* a process may fork while it is being found: look until none */
	for (round = 0; round < 100; round++) {
		DIR *d = opendir("/proc");
		struct dirent *de;

		found = 0;
		while (d && (de = readdir(d))) {
			long long v;
			const char *why;
			uid_t r, e;

			if (strnum_ll(de->d_name, 1, INT32_MAX, &v, &why) ||
			    !proc_uids(de->d_name, &r, &e) || (r != uid && e != uid))
				continue;
			if (kill((pid_t)v, SIGKILL) < 0)
				continue;
			if (left && !round) {
				struct strbuf path = STRBUF_INIT, comm = STRBUF_INIT;

				strbuf_addf(&path, "/proc/%s/comm", de->d_name);
				if (strbuf_read_file(&comm, path.buf, 256) < 0)
					strbuf_addstr(&comm, "?");
				strbuf_rtrim(&comm);
				strbuf_addf(left, "%s%s (%s)", left->len ? " " : "",
					    de->d_name, comm.buf);
				strbuf_release(&path);
				strbuf_release(&comm);
			}
			found++;
		}
		if (d)
			closedir(d);
		total += found;
		if (!found)
			break;
		usleep(10000); /* the killed ones leave /proc when reaped */
	}
	return total;
}

/*
 * One entry below dirfd, and (a directory) all below it: by descriptor,
 * opened with O_NOFOLLOW, so a link swapped in meanwhile is not followed.
 */
static int chown_at(int dirfd, const char *name, uid_t uid, gid_t gid,
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
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    ((st.st_uid != uid || st.st_gid != gid) &&
	     fchownat(dirfd, name, uid, gid, AT_SYMLINK_NOFOLLOW) < 0)) {
		strbuf_addf(err, "cannot hand '%s' to uid %ld: %s", path->buf,
			    (long)uid, strerror(errno));
		ret = -1;
		goto out;
	}
	if (!S_ISDIR(st.st_mode))
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
			ret = chown_at(fd, de->d_name, uid, gid, path, err);
	closedir(d);
out:
	strbuf_setlen(path, len);
	return ret;
}

int spawn_chown_tree(const char *dir, uid_t uid, gid_t gid,
		     struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	int ret = chown_at(AT_FDCWD, dir, uid, gid, &path, err);

	strbuf_release(&path);
	return ret;
}
