/*
 * vmscal_exec.c: one iteration of a vm-scalability case (see
 * vmscal_exec.h).  usemem cases call the engine; the page-cache cases
 * that the suite runs with shell tools (dd, cat, rm) are done here with
 * the same system calls and print the same lines: dd's "N bytes (...)
 * copied, S s, R MB/s" and the truncate cases' "N bytes truncated in
 * T1-T0 seconds" / "faulted in".
 */
#include "util/compat.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "bench/vmscal_exec.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static void out_str(int fd, const struct strbuf *sb)
{
	size_t off = 0;

	while (off < sb->len) {
		ssize_t w = write(fd, sb->buf + off, sb->len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		off += (size_t)w;
	}
}

void vmscal_log_test(int fd, const char *what)
{
	struct strbuf sb = STRBUF_INIT;
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &tm);
	strbuf_addf(&sb, "%s  %s\n", stamp, what);
	out_str(fd, &sb);
	strbuf_release(&sb);
}

/* a "Key:   123 kB" line of meminfo, in bytes (or plain count) */
static uint64_t meminfo_get(const char *text, const char *key, bool kb)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == ':') {
			unsigned long long v = strtoull(p + klen + 1, NULL, 10);

			return kb ? v * 1024 : v;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

static uint64_t vmstat_get(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == ' ')
			return strtoull(p + klen + 1, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

int vmscal_hw_probe(struct vmscal_hw *hw, const char *sysroot,
		    unsigned nr_cpu, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct dirent *de;
	DIR *d;
	int ret = -1;

	memset(hw, 0, sizeof(*hw));
	hw->nr_cpu = nr_cpu ? nr_cpu : 1;
	path_join(&path, sysroot, "/proc/meminfo");
	if (strbuf_read_file(&text, path.buf, 0) < 0) {
		strbuf_addf(err, "vm-scalability: cannot read '%s'", path.buf);
		goto out;
	}
	hw->mem = meminfo_get(text.buf, "MemTotal", true);
	hw->mem_avail = meminfo_get(text.buf, "MemAvailable", true);
	hw->mem_free = meminfo_get(text.buf, "MemFree", true);
	hw->swap_total = meminfo_get(text.buf, "SwapTotal", true);
	if (meminfo_get(text.buf, "Hugepagesize", true) == 2u << 20)
		hw->hugepages_free = meminfo_get(text.buf, "HugePages_Free", false);
	hw->shm_size = hw->mem; /* the suite mounts its tmpfs with size=100% */
	if (!hw->mem) {
		strbuf_addf(err, "vm-scalability: no MemTotal in '%s'", path.buf);
		goto out;
	}
	strbuf_reset(&text);
	path_join(&path, sysroot, "/proc/vmstat");
	if (strbuf_read_file(&text, path.buf, 0) == 0)
		hw->reclaimable = (vmstat_get(text.buf, "nr_free_pages") +
				   vmstat_get(text.buf, "nr_file_pages")) * 4096;
	if (!hw->reclaimable)
		hw->reclaimable = hw->mem_avail;
	path_join(&path, sysroot, "/sys/devices/system/node");
	d = opendir(path.buf);
	while (d && (de = readdir(d)))
		if (!strncmp(de->d_name, "node", 4) &&
		    de->d_name[4] >= '0' && de->d_name[4] <= '9')
			hw->nr_node++;
	if (d)
		closedir(d);
	if (!hw->nr_node)
		hw->nr_node = 1;
	ret = 0;
out:
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

static void file_path(struct strbuf *sb, const struct vmscal_plan *pl,
		      const char *dir, unsigned i)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "%s/sparse-%s", dir, pl->name);
	if (pl->nfiles > 1 || pl->kind == VMS_USEMEM_EACH ||
	    pl->kind == VMS_DD || pl->kind == VMS_TRUNCATE)
		strbuf_addf(sb, "-%u", i + 1);
}

/* truncate -s SIZE: a sparse file */
static int create_file(int log_fd, const char *path, uint64_t size,
		       struct strbuf *err)
{
	struct strbuf what = STRBUF_INIT;
	int fd;

	strbuf_addf(&what, "truncate %s -s %" PRIu64, path, size);
	vmscal_log_test(log_fd, what.buf);
	strbuf_release(&what);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)size) < 0) {
		strbuf_addf(err, "vm-scalability: cannot create '%s': %s", path,
			    strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* read a file through the page cache in bs-byte reads until EOF or the deadline */
static uint64_t read_file(const char *path, size_t bs, uint64_t deadline_ns)
{
	char *buf = xmalloc(bs);
	uint64_t total = 0;
	unsigned k = 0;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		free(buf);
		return 0;
	}
	while ((r = read(fd, buf, bs)) > 0) {
		total += (uint64_t)r;
		if (deadline_ns && !(++k & 255) && mono_ns() > deadline_ns)
			break;
	}
	close(fd);
	free(buf);
	return total;
}

static void human(struct strbuf *sb, double v, unsigned base, const char *iec)
{
	static const char *const si = "kMGTPE";
	int u = -1;

	while (v >= base && u < 5) {
		v /= base;
		u++;
	}
	if (u < 0)
		strbuf_addf(sb, "%.0f B", v);
	else
		strbuf_addf(sb, "%.1f %c%sB", v, u == 0 && !*iec ? 'k' : si[u], iec);
}

/* one dd reader: dd bs=4k if=F of=/dev/null, stopped after runtime like `timeout -s INT` */
NORETURN static void dd_child(const char *path, double runtime, int out_fd)
{
	uint64_t t0 = mono_ns();
	uint64_t deadline = runtime > 0 ? t0 + (uint64_t)(runtime * 1e9) : 0;
	uint64_t bytes = read_file(path, 4096, deadline);
	double secs = (double)(mono_ns() - t0) / 1e9;
	struct strbuf sb = STRBUF_INIT;

	if (secs <= 0)
		secs = 1e-9;
	strbuf_addf(&sb, "%" PRIu64 " bytes (", bytes);
	human(&sb, (double)bytes, 1000, "");
	strbuf_addstr(&sb, ", ");
	human(&sb, (double)bytes, 1024, "i");
	strbuf_addf(&sb, ") copied, %.6g s, ", secs);
	human(&sb, (double)bytes / secs, 1000, "");
	strbuf_addstr(&sb, "/s\n");
	out_str(out_fd, &sb);
	strbuf_release(&sb);
	_exit(0);
}

/* wait for n children; -1 with err if one failed */
static int wait_children(pid_t *pids, unsigned n, struct strbuf *err)
{
	unsigned i;
	int ret = 0;

	for (i = 0; i < n; i++) {
		int status;

		if (pids[i] <= 0)
			continue;
		while (waitpid(pids[i], &status, 0) < 0)
			if (errno != EINTR)
				return -1;
		if (WIFSIGNALED(status)) {
			strbuf_addf(err, "%svm-scalability: task %u killed by signal %d%s",
				    err->len ? "; " : "", i, WTERMSIG(status),
				    WTERMSIG(status) == SIGKILL ? " (out of memory?)" : "");
			ret = -1;
		} else if (WEXITSTATUS(status)) {
			if (!err->len)
				strbuf_addf(err, "vm-scalability: task %u failed", i);
			ret = -1;
		}
	}
	return ret;
}

static int run_usemem(const struct vmscal_plan *pl, const char *file,
		      int out_fd, struct strbuf *err)
{
	struct usemem_opts o = pl->um;
	struct strbuf cmd = STRBUF_INIT;
	int ret;

	o.file = file;
	o.out_fd = out_fd;
	usemem_cmdline(&o, &cmd);
	vmscal_log_test(out_fd, cmd.buf);
	strbuf_release(&cmd);
	ret = usemem_run(&o, err);
	return ret ? -1 : 0;
}

static void stamp(struct strbuf *sb, const struct timespec *ts)
{
	strbuf_addf(sb, "%lld.%09ld", (long long)ts->tv_sec, ts->tv_nsec);
}

static int run_truncate(const struct vmscal_plan *pl, char **files,
			int out_fd, struct strbuf *err)
{
	unsigned n = pl->nfiles, i;
	pid_t *pids = xcalloc(n, sizeof(*pids));
	struct timespec a, b;
	struct strbuf sb = STRBUF_INIT;
	uint64_t total = pl->file_size * n;
	int ret = 0;

	if (pl->truncate_seq) {
		clock_gettime(CLOCK_REALTIME, &a);
		for (i = 0; i < n && !ret; i++) {
			ret = create_file(out_fd, files[i], pl->file_size, err);
			if (!ret)
				read_file(files[i], 128 << 10, 0);
		}
		clock_gettime(CLOCK_REALTIME, &b);
		if (ret)
			goto out;
		strbuf_addf(&sb, "%" PRIu64 " bytes faulted in ", total);
		stamp(&sb, &b);
		strbuf_addch(&sb, '-');
		stamp(&sb, &a);
		strbuf_addstr(&sb, " seconds\n");
		clock_gettime(CLOCK_REALTIME, &a);
		for (i = 0; i < n; i++)
			unlink(files[i]);
		clock_gettime(CLOCK_REALTIME, &b);
	} else {
		for (i = 0; i < n && !ret; i++)
			ret = create_file(out_fd, files[i], pl->file_size, err);
		for (i = 0; i < n && !ret; i++) {
			pids[i] = fork();
			if (!pids[i]) {
				read_file(files[i], 128 << 10, 0);
				_exit(0);
			}
		}
		if (wait_children(pids, n, err) < 0 || ret)
			goto fail;
		clock_gettime(CLOCK_REALTIME, &a);
		for (i = 0; i < n; i++) {
			pids[i] = fork();
			if (!pids[i])
				_exit(unlink(files[i]) ? 1 : 0);
		}
		if (wait_children(pids, n, err) < 0)
			goto fail;
		clock_gettime(CLOCK_REALTIME, &b);
	}
	strbuf_addf(&sb, "%" PRIu64 " bytes truncated in ", total);
	stamp(&sb, &b);
	strbuf_addch(&sb, '-');
	stamp(&sb, &a);
	strbuf_addstr(&sb, " seconds\n");
	out_str(out_fd, &sb);
	goto out;
fail:
	ret = -1;
out:
	strbuf_release(&sb);
	free(pids);
	return ret;
}

int vmscal_exec(const struct vmscal_plan *pl, const char *shm_dir,
		const char *sparse_dir, int out_fd, struct strbuf *err)
{
	const char *dir = pl->file == VMF_SHM ? shm_dir : sparse_dir;
	unsigned nf = pl->nfiles, i, nkids = 0;
	char **files = NULL;
	pid_t *pids = NULL;
	struct strbuf p = STRBUF_INIT;
	int ret = 0;

	if (nf) {
		files = xcalloc(nf, sizeof(*files));
		for (i = 0; i < nf; i++) {
			file_path(&p, pl, dir, i);
			files[i] = xstrdup(p.buf);
		}
	}
	if (pl->kind != VMS_TRUNCATE)
		for (i = 0; i < nf && !ret; i++)
			ret = create_file(out_fd, files[i], pl->file_size, err);
	if (ret)
		goto out;

	switch (pl->kind) {
	case VMS_USEMEM:
		ret = run_usemem(pl, nf ? files[0] : NULL, out_fd, err);
		break;
	case VMS_USEMEM_EACH:
	case VMS_DD:
		nkids = pl->kind == VMS_DD ? nf * pl->readers : nf;
		pids = xcalloc(nkids, sizeof(*pids));
		for (i = 0; i < nkids; i++) {
			const char *f = files[pl->kind == VMS_DD ? i / pl->readers : i];

			if (pl->kind == VMS_DD) {
				strbuf_reset(&p);
				strbuf_addf(&p, "dd bs=4k if=%s of=/dev/null", f);
				vmscal_log_test(out_fd, p.buf);
			}
			pids[i] = fork();
			if (pids[i] < 0) {
				strbuf_addf(err, "vm-scalability: fork: %s", strerror(errno));
				ret = -1;
				break;
			}
			if (pids[i])
				continue;
			if (pl->kind == VMS_DD)
				dd_child(f, pl->um.runtime, out_fd);
			else {
				struct strbuf e = STRBUF_INIT;
				int r = run_usemem(pl, f, out_fd, &e);

				if (r)
					fprintf(stderr, "%s\n", e.buf);
				_exit(r ? 1 : 0);
			}
		}
		if (wait_children(pids, nkids, err) < 0)
			ret = -1;
		break;
	case VMS_TRUNCATE:
		ret = run_truncate(pl, files, out_fd, err);
		break;
	case VMS_NOTHING:
		break;
	}
out:
	for (i = 0; i < nf; i++) {
		unlink(files[i]);
		free(files[i]);
	}
	free(files);
	free(pids);
	strbuf_release(&p);
	return ret;
}
