/*
 * cgroup.c: the run's processes in a cgroup v2 of their own, or a session
 * of their own, and what is left of them killed at the run's end (see
 * util/cgroup.h).
 */
#include "util/compat.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/cgroup.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/xalloc.h"

/* how long the killed processes may take to go before the cgroup stays */
#define END_WAIT_MS 5000

/* where the cgroup2 file system is mounted (/sys/fs/cgroup, or .../unified) */
static bool cgroup2_mount(struct strbuf *out)
{
	struct strbuf line = STRBUF_INIT;
	FILE *fp = fopen("/proc/self/mountinfo", "re");
	bool found = false;

	while (fp && !found && strbuf_getline(&line, fp) != EOF) {
		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS... - FSTYPE SOURCE SUPER */
		const char *sep = strstr(line.buf, " - cgroup2 ");
		const char *p = line.buf;
		int field;

		if (!sep)
			continue;
		for (field = 0; field < 4 && p; field++) {
			p = strchr(p, ' ');
			if (p)
				p++;
		}
		if (!p)
			continue;
		strbuf_add(out, p, strcspn(p, " "));
		found = true;
	}
	if (fp)
		fclose(fp);
	strbuf_release(&line);
	return found;
}

/* this process's cgroup v2 path ("0::/PATH" of /proc/self/cgroup) */
static bool own_cgroup(struct strbuf *out)
{
	struct strbuf line = STRBUF_INIT;
	FILE *fp = fopen("/proc/self/cgroup", "re");
	bool found = false;

	while (fp && !found && strbuf_getline(&line, fp) != EOF)
		if (!strncmp(line.buf, "0::", 3)) {
			strbuf_addstr(out, line.buf + 3);
			found = true;
		}
	if (fp)
		fclose(fp);
	strbuf_release(&line);
	return found;
}

/*
 * The empty cgroups of perfsift processes that are gone (SIGKILLed in a
 * run, or whose last rmdir found the cgroup still busy): removed, so
 * that they do not pile up.  rmdir only ever removes an empty cgroup.
 */
static void sweep_stale(const char *parent)
{
	DIR *d = opendir(parent);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		struct strbuf path = STRBUF_INIT;
		long long pid;
		const char *why;
		char num[24];
		size_t n;

		if (strncmp(de->d_name, "perfsift-run.", 13))
			continue;
		n = strcspn(de->d_name + 13, ".");
		if (n >= sizeof(num))
			continue;
		memcpy(num, de->d_name + 13, n);
		num[n] = '\0';
		if (strnum_ll(num, 1, INT32_MAX, &pid, &why) ||
		    !(kill((pid_t)pid, 0) < 0 && errno == ESRCH))
			continue;
		strbuf_addf(&path, "%s/%s", parent, de->d_name);
		rmdir(path.buf);
		strbuf_release(&path);
	}
	if (d)
		closedir(d);
}

bool run_cgroup_create(struct run_cgroup *cg)
{
	static unsigned counter;
	struct strbuf dir = STRBUF_INIT, own = STRBUF_INIT;

	const char *env = getenv("PERFSIFT_CGROUP");

	memset(cg, 0, sizeof(*cg));
	/* PERFSIFT_CGROUP=off: a box whose cgroups another tool manages */
	if ((env && !strcmp(env, "off")) || !cgroup2_mount(&dir) ||
	    !own_cgroup(&own))
		goto none;
	/* below our own: no controller is asked for, so it may have processes */
	strbuf_addbuf(&dir, &own);
	strbuf_rtrim(&dir);
	while (dir.len && dir.buf[dir.len - 1] == '/')
		strbuf_setlen(&dir, dir.len - 1);
	sweep_stale(dir.buf);
	strbuf_addf(&dir, "/perfsift-run.%ld.%u", (long)getpid(), counter++);
	if (mkdir(dir.buf, 0755) < 0)
		goto none;
	cg->dir = strbuf_detach(&dir, NULL);
	cg->procs = xasprintf("%s/cgroup.procs", cg->dir);
	strbuf_release(&own);
	return true;
none:
	strbuf_release(&dir);
	strbuf_release(&own);
	return false;
}

void run_cgroup_enter(const struct run_cgroup *cg)
{
	int fd = cg->procs ? open(cg->procs, O_WRONLY | O_CLOEXEC) : -1;

	/* "0" is the writer itself */
	if (fd >= 0 && write(fd, "0", 1) == 1) {
		close(fd);
		return;
	}
	if (fd >= 0)
		close(fd);
	if (!cg->procs && !cg->session)
		return;
	/* a session of its own (fails when the parent made it a group leader
	 * first: its own group it has either way) */
	if (setsid() < 0)
		setpgid(0, 0);
}

/* "PID (COMM)" of a process, appended to left */
static void name_of(pid_t pid, struct strbuf *left)
{
	struct strbuf path = STRBUF_INIT, comm = STRBUF_INIT;

	strbuf_addf(&path, "/proc/%ld/comm", (long)pid);
	if (strbuf_read_file(&comm, path.buf, 256) < 0)
		strbuf_addstr(&comm, "?");
	strbuf_rtrim(&comm);
	strbuf_addf(left, "%s%ld (%s)", left->len ? " " : "", (long)pid, comm.buf);
	strbuf_release(&path);
	strbuf_release(&comm);
}

/* the pids in the cgroup but the leader's; their number */
static size_t cgroup_pids(const struct run_cgroup *cg, pid_t leader,
			  pid_t **pids)
{
	struct strbuf text = STRBUF_INIT;
	size_t n = 0, alloc = 0;
	const char *p;

	*pids = NULL;
	if (strbuf_read_file(&text, cg->procs, 1 << 20) < 0)
		return 0;
	for (p = text.buf; *p; p = *p ? p + 1 : p) {
		const char *nl = strchrnul(p, '\n'), *why;
		char num[24];
		long long v;

		if ((size_t)(nl - p) < sizeof(num)) {
			memcpy(num, p, (size_t)(nl - p));
			num[nl - p] = '\0';
			if (!strnum_ll(num, 1, INT32_MAX, &v, &why) &&
			    (pid_t)v != leader) {
				ALLOC_GROW(*pids, n + 1, alloc);
				(*pids)[n++] = (pid_t)v;
			}
		}
		p = nl;
	}
	strbuf_release(&text);
	return n;
}

/* the processes of the leader's session or group but the leader */
static size_t session_pids(pid_t leader, pid_t **pids)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	size_t n = 0, alloc = 0;

	*pids = NULL;
	while (d && (de = readdir(d))) {
		struct strbuf path = STRBUF_INIT, stat = STRBUF_INIT;
		long long v;
		const char *why, *close_paren;
		long pgrp, sid;

		if (strnum_ll(de->d_name, 1, INT32_MAX, &v, &why) ||
		    (pid_t)v == leader)
			continue;
		strbuf_addf(&path, "/proc/%s/stat", de->d_name);
		/* PID (COMM) STATE PPID PGRP SESSION ...: COMM may hold ')' */
		if (strbuf_read_file(&stat, path.buf, 4096) >= 0 &&
		    (close_paren = strrchr(stat.buf, ')')) &&
		    sscanf(close_paren + 1, " %*c %*d %ld %ld", &pgrp, &sid) == 2 &&
		    (pgrp == (long)leader || sid == (long)leader)) {
			ALLOC_GROW(*pids, n + 1, alloc);
			(*pids)[n++] = (pid_t)v;
		}
		strbuf_release(&path);
		strbuf_release(&stat);
	}
	if (d)
		closedir(d);
	return n;
}

size_t run_cgroup_end(struct run_cgroup *cg, pid_t pid, struct strbuf *left)
{
	pid_t *pids;
	size_t n, i;
	int waited;

	n = cg->dir ? cgroup_pids(cg, pid, &pids) : session_pids(pid, &pids);
	for (i = 0; i < n; i++)
		name_of(pids[i], left);
	if (cg->dir) {
		struct strbuf kill_path = STRBUF_INIT;
		int fd;

		strbuf_addf(&kill_path, "%s/cgroup.kill", cg->dir);
		/* cgroup.kill (Linux 5.14) kills even what forks meanwhile */
		fd = n ? open(kill_path.buf, O_WRONLY | O_CLOEXEC) : -1;
		if (n && (fd < 0 || write(fd, "1", 1) != 1))
			for (i = 0; i < n; i++)
				kill(pids[i], SIGKILL);
		if (fd >= 0)
			close(fd);
		for (waited = 0; waited < END_WAIT_MS; waited += 10) {
			pid_t *now;
			size_t still = cgroup_pids(cg, pid, &now);

			free(now);
			if (!still)
				break;
			usleep(10000);
		}
		/* the leader (a zombie) leaves when reaped: rmdir after that */
		strbuf_release(&kill_path);
	} else {
		for (i = 0; i < n; i++)
			kill(pids[i], SIGKILL);
	}
	free(pids);
	return n;
}

void run_cgroup_remove(struct run_cgroup *cg)
{
	int i;

	/* the reaped leader's exit reaches the cgroup a moment later */
	for (i = 0; cg->dir && i < END_WAIT_MS / 10; i++) {
		if (!rmdir(cg->dir) || errno != EBUSY)
			break;
		usleep(10000);
	}
	FREE_AND_NULL(cg->dir);
	FREE_AND_NULL(cg->procs);
}
