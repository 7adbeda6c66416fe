/*
 * daemons.c: the server roles of a one-host LKP cluster (daemons.h) --
 * LKP's programs/<p>/daemon scripts a job names (after `if role server:`
 * was merged in, job/lkp_cluster.c), started before the benchmark and
 * stopped after it, as LKP's start_daemon and post-run do on cs-localhost.
 *
 * A daemon script may stay in the foreground (LKP runs it in the
 * background) or start a server that detaches itself (iperf-server runs
 * `iperf3 --server --daemon`, which leaves its session).  So that neither
 * outlives the run, perfsift is the child subreaper while daemons run:
 * whatever they leave behind becomes perfsift's child, and every child
 * that appeared since the daemons started is stopped when the benchmark
 * is done.
 */
#include "util/compat.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "job/job.h"
#include "job/plugins.h"
#include "job/programs.h"
#include "run/daemons.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/usage.h"
#include "util/xalloc.h"

/* how long a daemon script may take to exit before it counts as a foreground one */
#define START_WAIT_MS 10000
/* how long the daemons have between SIGTERM and SIGKILL */
#define STOP_WAIT_MS 5000
#define TICK_MS 20

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* the pids whose parent is this process, from /proc (the subreaper's children) */
static void children(pid_t **out, size_t *n)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	size_t alloc = 0;
	pid_t self = getpid();

	*out = NULL;
	*n = 0;
	while (d && (de = readdir(d))) {
		char path[300], buf[512], *p;
		FILE *f;
		long ppid;
		long long pid;
		const char *why;

		if (strnum_ll(de->d_name, 1, INT_MAX, &pid, &why) < 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		buf[0] = '\0';
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
		/* pid (comm) state ppid: comm may hold blanks and ')' -- the last ')' */
		p = strrchr(buf, ')');
		if (!p || sscanf(p + 1, " %*c %ld", &ppid) != 1 || ppid != self)
			continue;
		ALLOC_GROW(*out, *n + 1, alloc);
		(*out)[(*n)++] = (pid_t)pid;
	}
	if (d)
		closedir(d);
}

static bool in(const pid_t *set, size_t n, pid_t pid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (set[i] == pid)
			return true;
	return false;
}

/* the daemon script's child: its own process group, output to its file */
static void NORETURN exec_daemon(const char *script, char **env, const char *out)
{
	int fd = open(out, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	sigset_t none;
	char **e;

	setpgid(0, 0);
	if (fd < 0 || null < 0 || dup2(null, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		_exit(127);
	/* what the runner blocks is the daemon's to have back, as a benchmark's */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	for (e = env; e && *e; e++)
		putenv(*e);
	execl(script, script, (char *)NULL);
	fprintf(stderr, "cannot run %s: %s\n", script, strerror(errno));
	_exit(127);
}

/* one daemon: started, and waited for while its script is starting it */
static int start_one(struct daemons *d, const char *name, const char *script,
		     char **env, const char *dir, struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT;
	long waited = 0;
	pid_t pid;
	int st;

	strbuf_addf(&out, "%s/%s", dir, name);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		strbuf_addf(err, "%s: cannot fork: %s", name, strerror(errno));
		strbuf_release(&out);
		return -1;
	}
	if (!pid)
		exec_daemon(script, env, out.buf);
	setpgid(pid, pid); /* both sides: whichever runs first */
	strbuf_release(&out);
	/*
	 * A script that starts a detaching server exits once it is up (LKP's
	 * iperf-server sleeps a second for it): the benchmark waits for that.
	 * One still running after START_WAIT_MS is the server itself.
	 */
	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid) {
			if (!WIFEXITED(st) || WEXITSTATUS(st)) {
				strbuf_addf(err, "%s: its daemon script %s failed (%s %d): "
					    "see %s/%s", name, script,
					    WIFEXITED(st) ? "exit status" : "signal",
					    WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st),
					    dir, name);
				return -1;
			}
			return 0;
		}
		if (r < 0 && errno != EINTR)
			return 0;
		if (waited >= START_WAIT_MS)
			break;
		sleep_ms(TICK_MS);
		waited += TICK_MS;
	}
	ALLOC_GROW(d->groups, d->ngroups + 1, d->alloc_groups);
	d->groups[d->ngroups++] = pid;
	return 0;
}

int daemons_start(const struct job *job, char **env, const char *dir,
		  struct daemons *d, struct strbuf *err)
{
	const struct jnode *root = job->root;
	size_t i;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < root->n; i++) {
		const struct program *p = program_find(root->keys[i]);
		const char *script = p ? plugin_daemon_script(p) : NULL;

		if (!script)
			continue;
		if (!d->reaper) {
			children(&d->before, &d->nbefore);
			if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0) {
				strbuf_addf(err, "%s: cannot be the daemons' subreaper: %s",
					    root->keys[i], strerror(errno));
				return -1;
			}
			d->reaper = true;
		}
		printf("%s: daemon %s started\n", root->keys[i], script);
		if (start_one(d, root->keys[i], script, env, dir, err) < 0)
			return -1;
	}
	fflush(stdout);
	return 0;
}

void daemons_stop(struct daemons *d)
{
	pid_t *now = NULL;
	size_t n = 0, i, left;
	long waited = 0;

	if (!d->reaper)
		return;
	for (i = 0; i < d->ngroups; i++)
		kill(-d->groups[i], SIGTERM);
	/* what the daemons left (a detached server): this process's new children */
	children(&now, &n);
	for (i = 0; i < n; i++)
		if (!in(d->before, d->nbefore, now[i]))
			kill(now[i], SIGTERM);
		else
			now[i] = 0;
	do {
		left = 0;
		for (i = 0; i < n; i++) {
			if (!now[i])
				continue;
			if (waitpid(now[i], NULL, WNOHANG) == now[i] ||
			    (kill(now[i], 0) < 0 && errno == ESRCH))
				now[i] = 0;
			else
				left++;
		}
		if (left && waited < STOP_WAIT_MS) {
			sleep_ms(TICK_MS);
			waited += TICK_MS;
		}
	} while (left && waited < STOP_WAIT_MS);
	for (i = 0; i < n; i++)
		if (now[i]) {
			warning("a daemon's process %ld did not stop on SIGTERM: killed",
				(long)now[i]);
			kill(now[i], SIGKILL);
			waitpid(now[i], NULL, 0);
		}
	prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
	free(now);
	free(d->before);
	free(d->groups);
	memset(d, 0, sizeof(*d));
}
