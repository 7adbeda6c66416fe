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
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "benchmarks/vmscal_exec.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

/*
 * A finished line (or lines) to the output, in one write(): the output is
 * shared by the forked tasks, and one write per line keeps their lines
 * whole.
 */
static void out_str(int fd, const struct strbuf *sb)
{
	(void)write_all(fd, sb->buf, sb->len);
}

/*
 * "2026-12-01 12:00:00  truncate F -s N": the suite's log line before
 * each step, in local time as its `date` prints it, so a run's output
 * reads like the original's and the parser can skip these lines.
 */
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

/*
 * The machine facts the cases size themselves from, read under sysroot so
 * the tests can give a fake machine.  Only MemTotal is required: every
 * other fact has a safe fallback (reclaimable memory from MemAvailable,
 * one NUMA node), since a kernel without them still runs the cases.
 */
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
	/* the hugetlb cases use 2 MB pages; other sizes count as none free */
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

/*
 * The case's i-th file, named as the suite names them (sparse-CASE, with
 * -N when a case has one file per task), since a case's output and the
 * kernel's own messages name the files.
 */
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

	strbuf_addf(&what, "truncate %s -s %" PRIu64, path, size);
	vmscal_log_test(log_fd, what.buf);
	strbuf_release(&what);
	if (file_put(path, O_WRONLY | O_CREAT, 0644, NULL, 0, &size) < 0) {
		strbuf_addf(err, "vm-scalability: cannot create '%s': %s", path,
			    strerror(errno));
		return -1;
	}
	return 0;
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
		/* the clock every 256 reads: cheap, and still a fine cut-off */
		if (deadline_ns && !(++k & 255) && time_mono_ns() > deadline_ns)
			break;
	}
	close(fd);
	free(buf);
	return total;
}

/*
 * dd's human-readable sizes: "1.0 GB" (base 1000, iec "") and "954 MiB"
 * (base 1024, iec "i"), one decimal, as GNU dd prints both in its summary
 * line, which the suite's parser reads.
 */
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
	uint64_t t0 = time_mono_ns();
	uint64_t deadline = runtime > 0 ? t0 + (uint64_t)(runtime * 1e9) : 0;
	uint64_t bytes = read_file(path, 4096, deadline);
	double secs = (double)(time_mono_ns() - t0) / 1e9;
	struct strbuf sb = STRBUF_INIT;

	/* a read that took no measurable time must not divide by zero */
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

/*
 * Wait for n children; -1 with err if one failed.  All are waited for
 * even after a failure, so none is left a zombie; a SIGKILL is named as
 * a likely OOM kill, the usual reason a memory case's task dies.
 */
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

/*
 * A /proc or /sys file takes one write(): the kernel parses each write on
 * its own, so a short write is an error here rather than something to
 * retry (write_all's loop would send the rest as a second value).
 */
int vmscal_write_kernel_file(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0, e;

	if (fd < 0)
		return -1;
	if (write(fd, text, len) != (ssize_t)len)
		ret = -1;
	e = errno;
	close(fd);
	errno = e;
	return ret;
}

/* lru-memcg: move the calling process into the case's memory cgroup */
static int enter_memcg(const struct vmscal_plan *pl)
{
	struct strbuf path = STRBUF_INIT, pid = STRBUF_INIT;
	int ret;

	path_join(&path, pl->memcg_dir, "cgroup.procs");
	strbuf_addf(&pid, "%ld\n", (long)getpid());
	ret = vmscal_write_kernel_file(path.buf, pid.buf, pid.len);
	strbuf_release(&path);
	strbuf_release(&pid);
	return ret;
}

/* posix-fadvise (usemem -D F --open-rw): readahead of the whole file, then drop it */
NORETURN static void fadvise_child(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0 || posix_fadvise(fd, 0, 0, POSIX_FADV_WILLNEED))
		_exit(1);
	close(fd);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0 || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED))
		_exit(1);
	close(fd);
	_exit(0);
}

/*
 * remap (usemem_remap F SIZE): a populated shared mapping of the file,
 * then every page remapped (remap_file_pages, one VMA per page) to the
 * file's pages in reverse order; prints "B bytes remapped, U usecs, R MB/s".
 */
NORETURN static void remap_child(const char *path, uint64_t size, int out_fd)
{
	uint64_t npages = size / 4096, i, t0, us;
	struct strbuf sb = STRBUF_INIT;
	char *p;
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0 || !npages)
		_exit(1);
	p = mmap(NULL, npages * 4096, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_POPULATE, fd, 0);
	if (p == MAP_FAILED)
		_exit(1);
	t0 = time_mono_ns();
	for (i = 0; i < npages; i++)
		if (remap_file_pages(p + i * 4096, 4096, 0, (size_t)(npages - 1 - i), 0) < 0) {
			fprintf(stderr, "remap: remap_file_pages: %s\n", strerror(errno));
			_exit(1);
		}
	us = (time_mono_ns() - t0) / 1000;
	strbuf_addf(&sb, "%" PRIu64 " bytes remapped, %" PRIu64 " usecs, %" PRIu64 " MB/s\n",
		    npages * 4096, us, us ? npages * 4096 / us : 0);
	out_str(out_fd, &sb);
	_exit(0);
}

/* direct-write (usemem_direct_write F SIZE): O_DIRECT 16 KiB writes up to SIZE or ENOSPC */
NORETURN static void direct_child(const char *path, uint64_t size, double runtime)
{
	uint64_t done = 0, deadline = runtime > 0 ? time_mono_ns() + (uint64_t)(runtime * 1e9) : 0;
	void *buf;
	int fd = open(path, O_WRONLY | O_DIRECT | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "direct-write: cannot open '%s' with O_DIRECT: %s\n",
			path, strerror(errno));
		_exit(1);
	}
	/* O_DIRECT wants the buffer aligned to the device's block (4 KiB
	 * covers every common one), or write() fails with EINVAL */
	if (posix_memalign(&buf, 4096, 16384))
		_exit(1);
	memset(buf, 0x5a, 16384);
	while (done + 16384 <= size && (!deadline || time_mono_ns() < deadline)) {
		ssize_t w = pwrite(fd, buf, 16384, (off_t)done);

		/* a full file system ends the case as the suite's dd does */
		if (w < 0 && errno == ENOSPC)
			break;
		if (w <= 0)
			_exit(1);
		done += (uint64_t)w;
	}
	_exit(0);
}

/*
 * ksm (usemem_ksm): populated anonymous memory offered to KSM
 * (MADV_MERGEABLE) for hold_s, then taken back (UNMERGEABLE), made THP
 * eligible and unmapped; ksm-hugepages maps THP memory first.
 */
NORETURN static void ksm_child(const struct vmscal_plan *pl)
{
	uint64_t len = pl->um.size;
	struct timespec ts = {(time_t)pl->hold_s,
			      (long)((pl->hold_s - (double)(time_t)pl->hold_s) * 1e9)};
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		_exit(1);
	if (pl->ksm_thp)
		madvise(p, len, MADV_HUGEPAGE);
	memset(p, 0, len);
	if (madvise(p, len, MADV_MERGEABLE) < 0) {
		fprintf(stderr, "ksm: MADV_MERGEABLE: %s\n", strerror(errno));
		_exit(1);
	}
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
	madvise(p, len, MADV_UNMERGEABLE);
	if (!pl->ksm_thp)
		madvise(p, len, MADV_HUGEPAGE);
	munmap(p, len);
	_exit(0);
}

/* hugetlb: the pool grown to mem/2M/3 pages, then back to what it was */
static int run_pool(const struct vmscal_plan *pl, int out_fd, struct strbuf *err)
{
	struct strbuf v = STRBUF_INIT;
	int ret = 0;

	strbuf_addf(&v, "echo %" PRIu64 " > /proc/sys/vm/nr_hugepages", pl->pool_pages);
	vmscal_log_test(out_fd, v.buf);
	strbuf_reset(&v);
	strbuf_addf(&v, "%" PRIu64 "\n", pl->pool_pages);
	if (!pl->pool_knob || vmscal_write_kernel_file(pl->pool_knob, v.buf, v.len) < 0) {
		strbuf_addf(err, "vm-scalability: cannot grow the hugetlb pool: %s",
			    strerror(errno));
		ret = -1;
	}
	/* back to what it was even when growing failed: a partly grown pool
	 * holds memory the rest of the machine needs */
	strbuf_reset(&v);
	strbuf_addf(&v, "echo %s > /proc/sys/vm/nr_hugepages", pl->pool_orig ? pl->pool_orig : "0");
	vmscal_log_test(out_fd, v.buf);
	strbuf_reset(&v);
	strbuf_addf(&v, "%s\n", pl->pool_orig ? pl->pool_orig : "0");
	if (pl->pool_knob && vmscal_write_kernel_file(pl->pool_knob, v.buf, v.len) < 0 && !ret) {
		strbuf_addf(err, "vm-scalability: cannot shrink the hugetlb pool: %s",
			    strerror(errno));
		ret = -1;
	}
	strbuf_release(&v);
	return ret;
}

/*
 * mincore-hugepages (usemem -H): a SysV SHM_HUGETLB segment, mincore()
 * over it, mprotect() to read-write, one byte written per 2 MiB page,
 * then the pool set to 5 pages as the suite does (journaled: put back
 * after the run).  No stats line, as the suite's.
 */
static int run_mincore_huge(const struct vmscal_plan *pl, int out_fd,
			    struct strbuf *err)
{
	uint64_t len = pl->um.size, off;
	unsigned char *vec = xcalloc(len / 4096 + 1, 1);
	int id, ret = -1;
	char *p;

	vmscal_log_test(out_fd, "usemem -H (SHM_HUGETLB segment, mincore, mprotect)");
	id = shmget(IPC_PRIVATE, len, SHM_HUGETLB | IPC_CREAT | 0600);
	if (id < 0) {
		strbuf_addf(err, "vm-scalability: shmget(SHM_HUGETLB) of %" PRIu64 " bytes: %s",
			    len, strerror(errno));
		free(vec);
		return -1;
	}
	p = shmat(id, NULL, SHM_RDONLY);
	if (p == (void *)-1) {
		strbuf_addf(err, "vm-scalability: shmat: %s", strerror(errno));
		goto out;
	}
	if (mincore(p, len, vec) < 0 || mprotect(p, len, PROT_READ | PROT_WRITE) < 0) {
		/* a read-only attach cannot be made writable: attach again read-write */
		shmdt(p);
		p = shmat(id, NULL, 0);
		if (p == (void *)-1) {
			strbuf_addf(err, "vm-scalability: shmat: %s", strerror(errno));
			goto out;
		}
	}
	for (off = 0; off < len; off += 2u << 20)
		p[off] = 1;
	shmdt(p);
	if (pl->pool_knob) {
		vmscal_log_test(out_fd, "echo 5 > /proc/sys/vm/nr_hugepages");
		vmscal_write_kernel_file(pl->pool_knob, "5\n", 2);
	}
	ret = 0;
out:
	shmctl(id, IPC_RMID, NULL);
	free(vec);
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
		a = time_epoch_ts();
		for (i = 0; i < n && !ret; i++) {
			ret = create_file(out_fd, files[i], pl->file_size, err);
			if (!ret)
				read_file(files[i], 128 << 10, 0);
		}
		b = time_epoch_ts();
		if (ret)
			goto out;
		strbuf_addf(&sb, "%" PRIu64 " bytes faulted in ", total);
		stamp(&sb, &b);
		strbuf_addch(&sb, '-');
		stamp(&sb, &a);
		strbuf_addstr(&sb, " seconds\n");
		a = time_epoch_ts();
		for (i = 0; i < n; i++)
			unlink(files[i]);
		b = time_epoch_ts();
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
		a = time_epoch_ts();
		for (i = 0; i < n; i++) {
			pids[i] = fork();
			if (!pids[i])
				_exit(unlink(files[i]) ? 1 : 0);
		}
		if (wait_children(pids, n, err) < 0)
			goto fail;
		b = time_epoch_ts();
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
	case VMS_FADVISE:
	case VMS_REMAP:
	case VMS_DIRECT:
	case VMS_KSM:
		nkids = pl->kind == VMS_DD ? nf * pl->readers
			: pl->kind == VMS_KSM ? pl->workers : nf;
		pids = xcalloc(nkids ? nkids : 1, sizeof(*pids));
		for (i = 0; i < nkids; i++) {
			const char *f = nf ? files[pl->kind == VMS_DD ? i / pl->readers : i] : NULL;

			strbuf_reset(&p);
			if (pl->kind == VMS_DD)
				strbuf_addf(&p, "dd bs=4k if=%s of=/dev/null", f);
			else if (pl->kind == VMS_FADVISE)
				strbuf_addf(&p, "usemem -D %s --open-rw", f);
			else if (pl->kind == VMS_REMAP)
				strbuf_addf(&p, "usemem_remap %s %" PRIu64, f, pl->um.size);
			else if (pl->kind == VMS_DIRECT)
				strbuf_addf(&p, "usemem_direct_write %s %" PRIu64, f, pl->file_size);
			else if (pl->kind == VMS_KSM)
				strbuf_addf(&p, "%s %" PRIu64, pl->ksm_thp ? "usemem_ksm_hugepages"
					    : "usemem_ksm", pl->um.size);
			if (p.len)
				vmscal_log_test(out_fd, p.buf);
			pids[i] = fork();
			if (pids[i] < 0) {
				strbuf_addf(err, "vm-scalability: fork: %s", strerror(errno));
				ret = -1;
				break;
			}
			if (pids[i])
				continue;
			if (pl->memcg && enter_memcg(pl) < 0) {
				fprintf(stderr, "vm-scalability: cannot enter the memory cgroup '%s': %s\n",
					pl->memcg_dir, strerror(errno));
				_exit(1);
			}
			if (pl->kind == VMS_DD)
				dd_child(f, pl->um.runtime, out_fd);
			else if (pl->kind == VMS_FADVISE)
				fadvise_child(f);
			else if (pl->kind == VMS_REMAP)
				remap_child(f, pl->um.size, out_fd);
			else if (pl->kind == VMS_DIRECT)
				direct_child(f, pl->file_size, pl->um.runtime);
			else if (pl->kind == VMS_KSM)
				ksm_child(pl);
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
	case VMS_HUGETLB_POOL:
		ret = run_pool(pl, out_fd, err);
		break;
	case VMS_MINCORE_HUGE:
		ret = run_mincore_huge(pl, out_fd, err);
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
