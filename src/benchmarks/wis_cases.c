/*
 * wis_cases.c: will-it-scale's testcases (see wis_cases.h), each written
 * from the documented operation of LKP's testcase of the same name.  The
 * numbers that define a testcase are will-it-scale's: 128 MiB mappings
 * for the page-fault, mmap and TLB cases (1 MiB for tlb_flush2), 1 MiB
 * files read and written 4 KiB at a time, 128 fds for poll2.  Naming
 * follows the suite: "1" a file of the task's own, "2" one file every
 * task shares, "3" the shared file at a different offset per task.
 * Every loop counts what the suite counts (a page fault per page, two
 * operations for a lock + unlock or a brk up + down, two context switches
 * per pipe round trip).
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "benchmarks/wis_cases.h"
#include "util/strbuf.h"

#define MAP_SIZE (128ul << 20) /* the page-fault, mmap and TLB cases */
#define FILE_SIZE (1ul << 20)  /* read1, write1, fallocate1 */
#define BUFLEN 4096            /* one read or write */
#define POLL_FILES 128         /* poll2 */

void wis_fail(const struct wis_task *t, const char *what, int line)
{
	char msg[512];
	int n = snprintf(msg, sizeof(msg), "%s: wis_cases.c:%d: Assertion `%s' failed. (%s)\n",
			 t->label, line, what, strerror(errno));

	/* write(2), not stdio: a thread may fail while another holds a lock */
	if (n > 0 && write(1, msg, (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1) < 0)
		n = 0;
	_exit(1);
}

/* a file of the task's own in dir, already unlinked when gone is set */
static int own_file_in(const struct wis_task *t, const char *dir, char *path,
		       bool gone)
{
	int fd;

	snprintf(path, PATH_MAX, "%s/willitscale.XXXXXX", dir);
	fd = mkstemp(path);
	WIS_CHECK(t, fd >= 0);
	if (gone)
		WIS_CHECK(t, unlink(path) == 0);
	return fd;
}

/* ... in the task's directory (the run's scratch directory) */
static int own_file(const struct wis_task *t, char *path, bool gone)
{
	return own_file_in(t, t->dir, path, gone);
}

/* zeroes to write files from: a file's data goes in with one write(2) */
static const char zero_mib[FILE_SIZE];

/*
 * An unlinked file of size bytes, written (data) or sparse.  The data is
 * one write, as the suite writes its 1 MiB buffer: how the page cache
 * holds the file (one large folio or 256 small ones) is part of what the
 * read cases measure.
 */
static int sized_file(const struct wis_task *t, size_t size, bool data)
{
	char path[PATH_MAX];
	int fd = own_file(t, path, true);

	if (data)
		WIS_CHECK(t, size <= FILE_SIZE &&
			     write(fd, zero_mib, size) == (ssize_t)size);
	else
		WIS_CHECK(t, ftruncate(fd, (off_t)size) == 0);
	return fd;
}

/* ---------------------------------------------------------- memory */

/* one write per page of a fresh mapping: every touch is a page fault */
static NORETURN void fault_loop(struct wis_task *t, int flags, int fd)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), i;

	for (;;) {
		char *c = mmap(NULL, MAP_SIZE, PROT_READ | PROT_WRITE, flags, fd, 0);

		WIS_CHECK(t, c != MAP_FAILED);
		for (i = 0; i < MAP_SIZE; i += pg) {
			c[i] = 0;
			wis_count(t->iterations, 1);
		}
		munmap(c, MAP_SIZE);
	}
}

static void page_fault1(struct wis_task *t)
{
	fault_loop(t, MAP_PRIVATE | MAP_ANONYMOUS, -1);
}

static void page_fault2(struct wis_task *t)
{
	fault_loop(t, MAP_PRIVATE, sized_file(t, MAP_SIZE, false));
}

static void page_fault3(struct wis_task *t)
{
	fault_loop(t, MAP_SHARED, sized_file(t, MAP_SIZE, false));
}

/*
 * Each page written, dropped with MADV_DONTNEED (the TLB shootdown the
 * case is about) and read back: a private page reads the file's zeroes
 * again, a shared one keeps what was written.
 */
static NORETURN void tlb_loop(struct wis_task *t, size_t size, int flags, int fd)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), i;
	char want = (flags & MAP_SHARED) ? 1 : 0;

	for (;;) {
		char *c = mmap(NULL, size, PROT_READ | PROT_WRITE, flags, fd, 0);

		WIS_CHECK(t, c != MAP_FAILED);
		for (i = 0; i < size; i += pg) {
			c[i] = 1;
			madvise(c + i, pg, MADV_DONTNEED);
			WIS_CHECK(t, *(volatile char *)(c + i) == want);
			wis_count(t->iterations, 1);
		}
		munmap(c, size);
	}
}

static void tlb_flush1(struct wis_task *t)
{
	tlb_loop(t, MAP_SIZE, MAP_PRIVATE, sized_file(t, MAP_SIZE, false));
}

static void tlb_flush2(struct wis_task *t)
{
	tlb_loop(t, 1ul << 20, MAP_PRIVATE | MAP_ANONYMOUS, -1);
}

static void tlb_flush3(struct wis_task *t)
{
	tlb_loop(t, MAP_SIZE, MAP_SHARED, sized_file(t, MAP_SIZE, false));
}

/* mmap and munmap, nothing touched */
static NORETURN void map_loop(struct wis_task *t, int flags, int fd)
{
	for (;;) {
		void *c = mmap(NULL, MAP_SIZE, PROT_READ | PROT_WRITE, flags, fd, 0);

		WIS_CHECK(t, c != MAP_FAILED);
		munmap(c, MAP_SIZE);
		wis_count(t->iterations, 1);
	}
}

static void mmap1(struct wis_task *t)
{
	map_loop(t, MAP_PRIVATE | MAP_ANONYMOUS, -1);
}

static void mmap2(struct wis_task *t)
{
	map_loop(t, MAP_PRIVATE, sized_file(t, MAP_SIZE, false));
}

/* malloc and free; volatile: the compiler may not pair them away */
static NORETURN void malloc_loop(struct wis_task *t, size_t size)
{
	for (;;) {
		void *volatile p = malloc(size);

		WIS_CHECK(t, p != NULL);
		free(p);
		wis_count(t->iterations, 1);
	}
}

static void malloc1(struct wis_task *t)
{
	malloc_loop(t, MAP_SIZE);
}

static void malloc2(struct wis_task *t)
{
	malloc_loop(t, 1024);
}

/* the break up by a page and back: two brk() calls */
static void brk1(struct wis_task *t)
{
	char *base = sbrk(0);
	long pg = sysconf(_SC_PAGESIZE);

	for (;;) {
		brk(base + pg);
		brk(base);
		wis_count(t->iterations, 2);
	}
}

/* brk2: the same above a page of its own, so the heap's mapping is never
 * back to nothing ("unshared") */
static void brk2(struct wis_task *t)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *base = (char *)sbrk(pg) + pg;

	for (;;) {
		WIS_CHECK(t, brk(base + pg) == 0);
		WIS_CHECK(t, brk(base) == 0);
		wis_count(t->iterations, 2);
	}
}

/* ------------------------------------------------ pipes and friends */

/* one byte written and read back on the same task's pair of fds */
static NORETURN void echo_loop(struct wis_task *t, int wfd, int rfd)
{
	char c = 0;

	for (;;) {
		WIS_CHECK(t, write(wfd, &c, 1) == 1);
		WIS_CHECK(t, read(rfd, &c, 1) == 1);
		wis_count(t->iterations, 1);
	}
}

static void pipe1(struct wis_task *t)
{
	int fd[2];

	WIS_CHECK(t, pipe(fd) == 0);
	echo_loop(t, fd[1], fd[0]);
}

static void unix1(struct wis_task *t)
{
	int fd[2];

	WIS_CHECK(t, socketpair(AF_UNIX, SOCK_STREAM, 0, fd) == 0);
	echo_loop(t, fd[1], fd[0]);
}

static void eventfd1(struct wis_task *t)
{
	uint64_t one = 1, got;
	int fd = eventfd(0, 0);

	WIS_CHECK(t, fd >= 0);
	for (;;) {
		WIS_CHECK(t, write(fd, &one, sizeof(one)) == sizeof(one));
		WIS_CHECK(t, read(fd, &got, sizeof(got)) == sizeof(got));
		wis_count(t->iterations, 1);
	}
}

/* context_switch1: a partner echoes each byte back through a second pipe */
struct ping {
	int to[2], back[2];
	struct wis_task *t;
};

static void *pong(void *arg)
{
	struct ping *p = arg;
	char c;

	for (;;) {
		WIS_CHECK(p->t, read(p->to[0], &c, 1) == 1);
		WIS_CHECK(p->t, write(p->back[1], &c, 1) == 1);
	}
	return NULL;
}

static void context_switch1(struct wis_task *t)
{
	static __thread struct ping p; /* outlives this frame for the partner thread */
	char c = 0;

	p.t = t;
	WIS_CHECK(t, pipe(p.to) == 0 && pipe(p.back) == 0);
	WIS_CHECK(t, t->new_task(pong, &p) == 0);
	for (;;) {
		WIS_CHECK(t, write(p.to[1], &c, 1) == 1);
		WIS_CHECK(t, read(p.back[0], &c, 1) == 1);
		/* a round trip is two switches: there and back */
		wis_count(t->iterations, 2);
	}
}

/* poll of n files that are always writable: the poll itself is the work */
static NORETURN void poll_loop(struct wis_task *t, unsigned n)
{
	struct pollfd pfd[POLL_FILES];
	char path[PATH_MAX];
	unsigned i;

	for (i = 0; i < n; i++)
		pfd[i].fd = own_file(t, path, true);
	for (;;) {
		for (i = 0; i < n; i++) {
			pfd[i].events = POLLOUT;
			pfd[i].revents = 0;
		}
		WIS_CHECK(t, poll(pfd, n, 0) >= 0);
		wis_count(t->iterations, 1);
	}
}

static void poll1(struct wis_task *t)
{
	poll_loop(t, 1);
}

static void poll2(struct wis_task *t)
{
	poll_loop(t, POLL_FILES);
}

/* ------------------------------------------------- syscalls, signals */

/* FUTEX_WAKE with no waiter; FUTEX_WAIT on a value that differs: both return at once */
static NORETURN void futex_loop(struct wis_task *t, int op)
{
	for (;;) {
		unsigned word = 0;

		syscall(SYS_futex, &word, op, 1, NULL, NULL, 0);
		wis_count(t->iterations, 1);
	}
}

static void futex1(struct wis_task *t)
{
	futex_loop(t, FUTEX_WAKE);
}

static void futex2(struct wis_task *t)
{
	futex_loop(t, FUTEX_WAIT);
}

/* futex3, futex4: the same, as a process-private futex */
static void futex3(struct wis_task *t)
{
	futex_loop(t, FUTEX_WAKE_PRIVATE);
}

static void futex4(struct wis_task *t)
{
	futex_loop(t, FUTEX_WAIT_PRIVATE);
}

/*
 * pthread_mutex1-5: lock and unlock a mutex, one operation.  A global one
 * is contended between threads (each process has its own copy); 3, 4 and
 * 5 update a counter under it: global, on the stack, thread-local.
 */
static pthread_mutex_t wis_mutex = PTHREAD_MUTEX_INITIALIZER;
static volatile unsigned long wis_mutex_global;
static __thread unsigned long wis_mutex_tls;

enum mutex_update { UPD_NONE, UPD_GLOBAL, UPD_LOCAL, UPD_TLS };

static NORETURN void mutex_loop(struct wis_task *t, pthread_mutex_t *m,
				enum mutex_update upd)
{
	volatile unsigned long local = 0;

	for (;;) {
		WIS_CHECK(t, pthread_mutex_lock(m) == 0);
		if (upd == UPD_GLOBAL)
			wis_mutex_global++;
		else if (upd == UPD_LOCAL)
			local++;
		else if (upd == UPD_TLS)
			wis_mutex_tls++;
		pthread_mutex_unlock(m);
		wis_count(t->iterations, 1);
	}
}

static void pthread_mutex1(struct wis_task *t)
{
	mutex_loop(t, &wis_mutex, UPD_NONE);
}

static void pthread_mutex2(struct wis_task *t)
{
	pthread_mutex_t own = PTHREAD_MUTEX_INITIALIZER;

	mutex_loop(t, &own, UPD_NONE);
}

static void pthread_mutex3(struct wis_task *t)
{
	mutex_loop(t, &wis_mutex, UPD_GLOBAL);
}

static void pthread_mutex4(struct wis_task *t)
{
	mutex_loop(t, &wis_mutex, UPD_LOCAL);
}

static void pthread_mutex5(struct wis_task *t)
{
	mutex_loop(t, &wis_mutex, UPD_TLS);
}

static void sig_nothing(int sig)
{
	(void)sig;
}

static void signal1(struct wis_task *t)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sig_nothing;
	WIS_CHECK(t, sigaction(SIGUSR1, &sa, NULL) == 0);
	for (;;) {
		raise(SIGUSR1);
		wis_count(t->iterations, 1);
	}
}

static void sched_yield1(struct wis_task *t)
{
	for (;;) {
		syscall(SYS_sched_yield);
		wis_count(t->iterations, 1);
	}
}

static void getppid1(struct wis_task *t)
{
	for (;;) {
		/* the system call itself: a libc could cache the answer */
		syscall(SYS_getppid);
		wis_count(t->iterations, 1);
	}
}

static void posix_semaphore1(struct wis_task *t)
{
	sem_t sem;

	WIS_CHECK(t, sem_init(&sem, 0, 1) == 0);
	for (;;) {
		sem_wait(&sem);
		sem_post(&sem);
		wis_count(t->iterations, 1);
	}
}

/* ---------------------------------------------------------- files */

/* a write lock on the first byte, then unlock: two operations */
static NORETURN void lock_loop(struct wis_task *t, int fd)
{
	struct flock l;

	memset(&l, 0, sizeof(l));
	l.l_whence = SEEK_SET;
	l.l_len = 1;
	for (;;) {
		l.l_type = F_WRLCK;
		WIS_CHECK(t, fcntl(fd, F_SETLKW, &l) == 0);
		l.l_type = F_UNLCK;
		WIS_CHECK(t, fcntl(fd, F_SETLKW, &l) == 0);
		wis_count(t->iterations, 2);
	}
}

static void lock1(struct wis_task *t)
{
	char path[PATH_MAX];

	lock_loop(t, own_file(t, path, true));
}

/* a directory of the task's own under its scratch directory */
static void own_dir(const struct wis_task *t, char *path)
{
	snprintf(path, PATH_MAX, "%s/willitscale.XXXXXX", t->dir);
	WIS_CHECK(t, mkdtemp(path) != NULL);
	/* appended with a bound, not strncat (util/banned.h) */
	snprintf(path + strlen(path), PATH_MAX - strlen(path), "/willitscale");
}

static NORETURN void open_loop(struct wis_task *t, const char *path)
{
	for (;;) {
		int fd = open(path, O_RDWR);

		WIS_CHECK(t, fd >= 0);
		close(fd);
		wis_count(t->iterations, 1);
	}
}

/* create, close and unlink the same name again and again */
static NORETURN void unlink_loop(struct wis_task *t, const char *path)
{
	for (;;) {
		int fd = open(path, O_RDWR | O_CREAT, 0600);

		WIS_CHECK(t, fd >= 0);
		close(fd);
		WIS_CHECK(t, unlink(path) == 0);
		wis_count(t->iterations, 1);
	}
}

/*
 * The name open1/2 and unlink1/2 work on: a file of the task's own in the
 * directory every task uses (the 1 cases), or in a directory of its own
 * (the 2 cases).  made: the file is there on return (open's loop opens
 * it; unlink's makes it itself).
 */
static void loop_path(const struct wis_task *t, char *path, bool own_directory,
		      bool made)
{
	int fd;

	if (!own_directory) {
		close(own_file(t, path, !made));
		return;
	}
	own_dir(t, path);
	if (!made)
		return;
	fd = open(path, O_RDWR | O_CREAT, 0600);
	WIS_CHECK(t, fd >= 0);
	close(fd);
}

/*
 * open1, open2, unlink1, unlink2: the loop on the name loop_path() gives;
 * the four differ only in those two choices.
 */
#define PATH_CASE(fn, loop, own_directory, made)                               \
	static void fn(struct wis_task *t)                                     \
	{                                                                      \
		char path[PATH_MAX];                                           \
									       \
		loop_path(t, path, own_directory, made);                       \
		loop(t, path);                                                 \
	}
PATH_CASE(open1, open_loop, false, true)
PATH_CASE(open2, open_loop, true, true)
PATH_CASE(unlink1, unlink_loop, false, false)
PATH_CASE(unlink2, unlink_loop, true, false)

static void dup1(struct wis_task *t)
{
	char path[PATH_MAX];
	int fd = own_file(t, path, true);

	for (;;) {
		int d = dup(fd);

		WIS_CHECK(t, d >= 0);
		close(d);
		wis_count(t->iterations, 1);
	}
}

/* reads of len bytes through a file, back to the start at its end */
static NORETURN void read_loop_into(struct wis_task *t, int fd, char *buf,
				    size_t len)
{
	for (;;) {
		ssize_t n = read(fd, buf, len);

		WIS_CHECK(t, n >= 0);
		if (n == 0)
			lseek(fd, 0, SEEK_SET);
		wis_count(t->iterations, 1);
	}
}

static NORETURN void read_loop(struct wis_task *t, int fd)
{
	static __thread char buf[BUFLEN];

	read_loop_into(t, fd, buf, BUFLEN);
}

static void read1(struct wis_task *t)
{
	int fd = sized_file(t, FILE_SIZE, true);

	WIS_CHECK(t, lseek(fd, 0, SEEK_SET) == 0);
	read_loop(t, fd);
}

/* the shared file, opened by each task for itself */
static int open_shared(const struct wis_task *t, int flags)
{
	int fd = open(t->shared, flags);

	WIS_CHECK(t, fd >= 0);
	return fd;
}

static void read2(struct wis_task *t)
{
	read_loop(t, open_shared(t, O_RDONLY));
}

/*
 * read3, read4: O_DIRECT reads of a page at a time through a 1 MiB file
 * (the task's own, the shared one), into a page-aligned buffer
 */
static NORETURN void direct_read_loop(struct wis_task *t, int fd)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	char *buf = aligned_alloc(pg, pg);

	WIS_CHECK(t, buf != NULL);
	read_loop_into(t, fd, buf, pg);
}

static void read3(struct wis_task *t)
{
	int fd = sized_file(t, FILE_SIZE, true);

	/* the data went in through the page cache; the reads go around it */
	WIS_CHECK(t, fcntl(fd, F_SETFL, O_DIRECT) == 0);
	WIS_CHECK(t, lseek(fd, 0, SEEK_SET) == 0);
	direct_read_loop(t, fd);
}

static void read4(struct wis_task *t)
{
	direct_read_loop(t, open_shared(t, O_RDONLY | O_DIRECT));
}

/* lock2, open3: lock1's and open1's loops on the file every task shares */
static void lock2(struct wis_task *t)
{
	lock_loop(t, open_shared(t, O_RDWR));
}

static void open3(struct wis_task *t)
{
	open_loop(t, t->shared);
}

/* 4 KiB writes through the first 1 MiB of a file of its own */
static void write1(struct wis_task *t)
{
	static __thread char buf[BUFLEN];
	char path[PATH_MAX];
	int fd = own_file(t, path, true);
	size_t done = 0;

	for (;;) {
		WIS_CHECK(t, write(fd, buf, BUFLEN) == BUFLEN);
		done += BUFLEN;
		if (done >= FILE_SIZE) {
			done = 0;
			lseek(fd, 0, SEEK_SET);
		}
		wis_count(t->iterations, 1);
	}
}

/* fallocate 8 KiB steps of a 1 MiB file, truncated to 0 at its end */
static NORETURN void fallocate_loop(struct wis_task *t, int fd)
{
	off_t at = 0, step = FILE_SIZE / 128;

	for (;;) {
		int r = fallocate(fd, 0, at, step);

		WIS_CHECK(t, r == 0 || errno == EINTR);
		at += step;
		if (at >= (off_t)FILE_SIZE) {
			WIS_CHECK(t, ftruncate(fd, 0) == 0);
			at = 0;
		}
		wis_count(t->iterations, 1);
	}
}

/* fallocate1 is the suite's "against tmpfs": its file is in /dev/shm */
static void fallocate1(struct wis_task *t)
{
	char path[PATH_MAX];

	fallocate_loop(t, own_file_in(t, "/dev/shm", path, true));
}

/* fallocate2: in the run's scratch directory, on whatever holds it */
static void fallocate2(struct wis_task *t)
{
	char path[PATH_MAX];

	fallocate_loop(t, own_file(t, path, true));
}

static NORETURN void lseek_loop(struct wis_task *t, int fd)
{
	for (;;) {
		lseek(fd, 0, SEEK_SET);
		wis_count(t->iterations, 1);
	}
}

static void lseek1(struct wis_task *t)
{
	lseek_loop(t, sized_file(t, BUFLEN, true));
}

static void lseek2(struct wis_task *t)
{
	lseek_loop(t, open_shared(t, O_RDWR));
}

static off_t own_page(const struct wis_task *t)
{
	return (off_t)t->nr * sysconf(_SC_PAGESIZE);
}

/*
 * 4 KiB read or written at one offset: with pread/pwrite, or (seek) with
 * lseek and then read/write, as readseek* and writeseek* do
 */
static NORETURN void pio_loop(struct wis_task *t, int fd, bool wr, off_t at,
			      bool seek)
{
	static __thread char buf[BUFLEN];

	for (;;) {
		ssize_t n;

		if (seek) {
			lseek(fd, at, SEEK_SET);
			n = wr ? write(fd, buf, BUFLEN) : read(fd, buf, BUFLEN);
		} else {
			n = wr ? pwrite(fd, buf, BUFLEN, at) : pread(fd, buf, BUFLEN, at);
		}
		WIS_CHECK(t, n == BUFLEN);
		wis_count(t->iterations, 1);
	}
}

/* the file of each: "1" a 4 KiB file of the task's own, "2" and "3" the
 * shared one (at 0, at the task's own page) */
#define OWN_BLOCK sized_file(t, BUFLEN, true)
#define SHARED_RO open_shared(t, O_RDONLY)
#define SHARED_RW open_shared(t, O_RDWR)
#define PIO_CASE(name, file, wr, at, seek)                                     \
	static void name(struct wis_task *t)                                   \
	{                                                                      \
		pio_loop(t, file, wr, at, seek);                               \
	}
PIO_CASE(pread1, OWN_BLOCK, false, 0, false)
PIO_CASE(pread2, SHARED_RO, false, 0, false)
PIO_CASE(pread3, SHARED_RO, false, own_page(t), false)
PIO_CASE(pwrite1, OWN_BLOCK, true, 0, false)
PIO_CASE(pwrite2, SHARED_RW, true, 0, false)
PIO_CASE(pwrite3, SHARED_RW, true, own_page(t), false)
PIO_CASE(readseek1, OWN_BLOCK, false, 0, true)
PIO_CASE(readseek2, SHARED_RW, false, 0, true)
PIO_CASE(readseek3, SHARED_RO, false, own_page(t), true)
PIO_CASE(writeseek1, OWN_BLOCK, true, 0, true)
PIO_CASE(writeseek2, SHARED_RW, true, 0, true)
PIO_CASE(writeseek3, SHARED_RW, true, own_page(t), true)

/* --------------------------------------------- the shared files */

/*
 * A file of size bytes of zeroes in dir, its name into shared, written
 * chunk bytes at a time (the suite: its whole buffer at once, or a page
 * at a time for the per-task pages).
 */
static int shared_file(const char *dir, uint64_t size, size_t chunk,
		       char *shared, struct strbuf *err)
{
	uint64_t done;
	int fd;

	snprintf(shared, PATH_MAX, "%s/willitscale-shared.XXXXXX", dir);
	fd = mkstemp(shared);
	if (fd < 0) {
		strbuf_addf(err, "cannot make a file in '%s': %s", dir, strerror(errno));
		return -1;
	}
	for (done = 0; done < size; done += chunk)
		if (write(fd, zero_mib, chunk) != (ssize_t)chunk) {
			strbuf_addf(err, "cannot write '%s': %s", shared, strerror(errno));
			close(fd);
			return -1;
		}
	close(fd);
	return 0;
}

/* read2: 1 MiB read through by every task */
static int prep_mib(const char *dir, unsigned nr, char *shared, struct strbuf *err)
{
	(void)nr;
	return shared_file(dir, FILE_SIZE, FILE_SIZE, shared, err);
}

/* lseek2, pread2, pwrite2: one 4 KiB block */
static int prep_block(const char *dir, unsigned nr, char *shared, struct strbuf *err)
{
	(void)nr;
	return shared_file(dir, BUFLEN, BUFLEN, shared, err);
}

/* pread3, pwrite3: a page per task */
static int prep_pages(const char *dir, unsigned nr, char *shared, struct strbuf *err)
{
	uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);

	return shared_file(dir, pg * (nr ? nr : 1) + BUFLEN - pg, BUFLEN, shared, err);
}

/* ------------------------------------------------------ the table */

#define CASE(n, d, fn) {n, d, NULL, 0, fn}
#define SHARED(n, d, prep, fn) {n, d, prep, 0, fn}

/* sorted by name (strcmp): searched by halves */
static const struct wis_case cases[] = {
	CASE("brk1", "brk increase/decrease of one page", brk1),
	CASE("brk2", "brk unshared increase/decrease of one page", brk2),
	CASE("context_switch1", "Context switch via pipes", context_switch1),
	CASE("dup1", "Separate file dup/close", dup1),
	CASE("eventfd1", "eventfd read/write of 8 bytes", eventfd1),
	CASE("fallocate1", "Separate file fallocate against tmpfs", fallocate1),
	CASE("fallocate2", "Separate file fallocate", fallocate2),
	CASE("futex1", "futex(FUTEX_WAKE)", futex1),
	CASE("futex2", "futex(FUTEX_WAIT)", futex2),
	CASE("futex3", "futex(FUTEX_WAKE_PRIVATE)", futex3),
	CASE("futex4", "futex(FUTEX_WAIT_PRIVATE)", futex4),
	CASE("getppid1", "getppid", getppid1),
	CASE("lock1", "Separate file write lock/unlock", lock1),
	SHARED("lock2", "Same file write lock/unlock", prep_block, lock2),
	CASE("lseek1", "Separate file lseek", lseek1),
	SHARED("lseek2", "Same file lseek", prep_block, lseek2),
	CASE("malloc1", "malloc/free of 128MB", malloc1),
	CASE("malloc2", "malloc/free of 1kB", malloc2),
	CASE("mmap1", "Anonymous memory mmap/munmap of 128MB", mmap1),
	CASE("mmap2", "Separate file mmap/munmap of 128MB", mmap2),
	CASE("open1", "Separate file open/close", open1),
	CASE("open2", "Separate file open/close in different directories", open2),
	SHARED("open3", "Same file open/close", prep_block, open3),
	CASE("page_fault1", "Anonymous memory page fault", page_fault1),
	CASE("page_fault2", "Separate file private mapping page fault", page_fault2),
	CASE("page_fault3", "Separate file shared mapping page fault", page_fault3),
	CASE("pipe1", "pipe read/write", pipe1),
	CASE("poll1", "poll of 1 fd", poll1),
	{"poll2", "poll of 128 fds", NULL, POLL_FILES, poll2},
	CASE("posix_semaphore1", "POSIX semaphores", posix_semaphore1),
	CASE("pread1", "Separate file pread", pread1),
	SHARED("pread2", "Same file pread", prep_block, pread2),
	SHARED("pread3", "Same file pread to different offsets", prep_pages, pread3),
	CASE("pthread_mutex1", "Contended pthread mutex", pthread_mutex1),
	CASE("pthread_mutex2", "Uncontended pthread mutex", pthread_mutex2),
	CASE("pthread_mutex3", "Contended pthread mutex with global update", pthread_mutex3),
	CASE("pthread_mutex4", "Contended pthread mutex with local update", pthread_mutex4),
	CASE("pthread_mutex5", "Contended pthread mutex with TLS update", pthread_mutex5),
	CASE("pwrite1", "Separate file pwrite", pwrite1),
	SHARED("pwrite2", "Same file pwrite", prep_block, pwrite2),
	SHARED("pwrite3", "Same file pwrite to different offsets", prep_pages, pwrite3),
	CASE("read1", "Separate file read", read1),
	SHARED("read2", "Same file read", prep_mib, read2),
	CASE("read3", "Separate file O_DIRECT read", read3),
	SHARED("read4", "Same file O_DIRECT read", prep_mib, read4),
	CASE("readseek1", "Separate file seek+read", readseek1),
	SHARED("readseek2", "Same file seek+read", prep_block, readseek2),
	SHARED("readseek3", "Same file seek+read to different offsets", prep_pages, readseek3),
	CASE("sched_yield", "sched_yield", sched_yield1),
	CASE("signal1", "signal delivery", signal1),
	CASE("tlb_flush1", "TLB flush of separated file private mapping", tlb_flush1),
	CASE("tlb_flush2", "TLB flush of anonymous memory private mapping", tlb_flush2),
	CASE("tlb_flush3", "TLB flush of separated file shared mapping", tlb_flush3),
	CASE("unix1", "unix domain socket read/write", unix1),
	CASE("unlink1", "Separate file open/close/unlink", unlink1),
	CASE("unlink2", "Separate file open/close/unlink in different directories", unlink2),
	CASE("write1", "Separate file write", write1),
	CASE("writeseek1", "Separate file seek+write", writeseek1),
	SHARED("writeseek2", "Same file seek+write to same offset", prep_block, writeseek2),
	SHARED("writeseek3", "Same file seek+write to different offsets", prep_pages, writeseek3),
};

static int case_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct wis_case *)elem)->name);
}

const struct wis_case *wis_case_find(const char *name)
{
	return name ? bsearch(name, cases, ARRAY_SIZE(cases), sizeof(cases[0]),
			      case_cmp) :
		      NULL;
}

bool wis_case_known(const char *name)
{
	return wis_case_find(name) != NULL;
}

const struct wis_case *wis_case_at(size_t i)
{
	return i < ARRAY_SIZE(cases) ? &cases[i] : NULL;
}

const char *wis_case_name(size_t i)
{
	return i < ARRAY_SIZE(cases) ? cases[i].name : NULL;
}
