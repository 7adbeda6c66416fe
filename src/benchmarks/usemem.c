/*
 * usemem.c: the usemem engine (see usemem.h and spec/vm-scalability.md
 * 1.1-1.4), written from the suite's documented behaviour.  What must stay
 * exactly as the suite does it, so that LKP's numbers stay comparable:
 * 8-byte accesses at the given step (sequential: every step-th word;
 * random: as many accesses, each a uniform word index), the byte count
 * B = size/8 per mapping made + 8 per access, the clock started before
 * any mapping or fork, the runtime test on whole seconds, and the lines.
 * What is ours: the loop itself is a tight per-pattern loop checked for
 * the runtime every 65536 accesses (4096 when random: there almost every
 * access can fault, and the suite's 65536 faults can outlast a short
 * runtime many times over), and a worker's repeat dots are put in
 * front of its own stats line (so lines of many workers never mix).
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "benchmarks/usemem.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif
#define USEMEM_HUGE_2MB (21 << MAP_HUGE_SHIFT)
#define USEMEM_HPAGE (2u << 20)
#define USEMEM_BLOCK 65536u  /* accesses between two runtime checks */
#define USEMEM_BLOCK_RAND 4096u /* random: nearly every access may fault */
#define USEMEM_KEEP 32       /* chunks remembered for the timed free */

/* what every worker shares (read-only after usemem_run() set it up) */
struct usemem_state {
	const struct usemem_opts *o;
	uint64_t start_ns;      /* CLOCK_MONOTONIC, taken first */
	int fd;                 /* the file (-f) or /dev/zero, -1 for -O */
	int prot;
	char *pre;              /* -P: the mapping made before fork */
	uint64_t pre_len;
	uint64_t pre_credit;    /* -P: size/8 (+ size/8 for -E) */
	uint64_t lock_credit;   /* -L: size/8 */
	int rw_ready[2], rw_wake[2];     /* -y */
	int free_ready[2], free_wake[2]; /* -x */
	long ncpu;
};

struct usemem_task {
	const struct usemem_state *st;
	unsigned index;         /* worker number: binding, seed */
	struct drand48_data rnd;
	uint64_t accesses;
	unsigned dots;
	bool stop;              /* runtime exceeded */
	int status;             /* 0 ok, 1 failed */
};

void usemem_opts_init(struct usemem_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->step = 8;
	o->out_fd = 1;
}

uint64_t usemem_kbps(uint64_t bytes, uint64_t usecs)
{
	/* the suite computes in unsigned long: keep its wrap-around */
	return ((bytes * 1000000u) >> 10) / (usecs ? usecs : 1);
}

void usemem_format_stats(struct strbuf *out, unsigned dots, uint64_t bytes,
			 uint64_t usecs)
{
	if (!usecs)
		usecs = 1;
	strbuf_addchars(out, '.', dots);
	strbuf_addf(out, "%" PRIu64 " bytes / %" PRIu64 " usecs = %" PRIu64 " KB/s\n",
		    bytes, usecs, usemem_kbps(bytes, usecs));
}

void usemem_format_free(struct strbuf *out, uint64_t usecs)
{
	strbuf_addf(out, "%" PRIu64 " usecs to free memory\n", usecs);
}

uint64_t usemem_pass_bytes(uint64_t len, uint64_t step)
{
	uint64_t nr = len / 8, stride = step / 8 ? step / 8 : 1;

	return len / 8 + 8 * ((nr + stride - 1) / stride);
}

static void add_size(struct strbuf *out, uint64_t v)
{
	strbuf_addf(out, "%" PRIu64, v);
}

void usemem_cmdline(const struct usemem_opts *o, struct strbuf *out)
{
	strbuf_addstr(out, "usemem");
	if (o->runtime > 0)
		strbuf_addf(out, " --runtime %g", o->runtime);
	if (o->sync_rw)
		strbuf_addstr(out, " -y");
	if (o->sync_free)
		strbuf_addstr(out, " -x");
	if (o->bind)
		strbuf_addf(out, " -b %u", o->bind);
	if (o->repeat > 1)
		strbuf_addf(out, " -r %u", o->repeat);
	if (o->delay_ns)
		strbuf_addf(out, " -e %" PRIu64, o->delay_ns);
	if (o->nproc)
		strbuf_addf(out, " -n %u", o->nproc);
	if (o->nthread)
		strbuf_addf(out, " -t %u", o->nthread);
	if (o->file)
		strbuf_addf(out, " -f %s", o->file);
	if (o->msync)
		strbuf_addstr(out, " -S");
	if (o->mlock)
		strbuf_addstr(out, " --mlock");
	if (o->prealloc)
		strbuf_addstr(out, " --prealloc");
	if (o->prefault)
		strbuf_addstr(out, " --prefault");
	if (o->remap)
		strbuf_addstr(out, " -E");
	if (o->open_rw)
		strbuf_addstr(out, " --open-rw");
	if (o->readonly)
		strbuf_addstr(out, " --readonly");
	if (o->random)
		strbuf_addstr(out, " --random");
	if (o->anonymous)
		strbuf_addstr(out, " -O");
	if (o->hugetlb)
		strbuf_addstr(out, " -U");
	if (o->madv_thp)
		strbuf_addstr(out, " --madv-thp");
	if (o->lock_shm)
		strbuf_addstr(out, " -L");
	if (o->sleep_s > 0)
		strbuf_addf(out, " --sleep %g", o->sleep_s);
	if (o->unit && o->unit != o->size) {
		strbuf_addstr(out, " --unit ");
		add_size(out, o->unit);
	}
	if (o->step != 8) {
		strbuf_addstr(out, " --step ");
		add_size(out, o->step);
	}
	strbuf_addch(out, ' ');
	add_size(out, o->size);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* write all of sb to fd as one write() when possible (lines stay whole) */
static void emit(int fd, const struct strbuf *sb)
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

static void task_error(const struct usemem_task *t, const char *what)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "usemem: worker %u: %s: %s\n", t->index, what,
		    strerror(errno));
	emit(2, &sb);
	strbuf_release(&sb);
}

/* the suite's runtime test: whole seconds elapsed > runtime */
static bool runtime_over(struct usemem_task *t)
{
	const struct usemem_state *st = t->st;

	if (st->o->runtime <= 0)
		return false;
	if ((double)(now_ns() / 1000000000u - st->start_ns / 1000000000u) >
	    st->o->runtime)
		t->stop = true;
	return t->stop;
}

static uint64_t next_index(struct usemem_task *t, uint64_t nr)
{
	long a, b;

	lrand48_r(&t->rnd, &a);
	if (nr <= (1ul << 31))
		return (uint64_t)a % nr;
	lrand48_r(&t->rnd, &b);
	return (((uint64_t)a << 31) | (uint64_t)b) % nr;
}

static void spin_ns(uint64_t ns)
{
	uint64_t end = now_ns() + ns;

	while (now_ns() < end)
		;
}

/*
 * One pass over nr words: the heart of the benchmark.  Each branch is a
 * plain loop of volatile 8-byte accesses; the runtime is looked at every
 * USEMEM_BLOCK accesses.  Returns -1 when a verify fails.
 */
static int rw_once(struct usemem_task *t, uint64_t *p, uint64_t nr,
		   bool verify)
{
	const struct usemem_opts *o = t->st->o;
	volatile uint64_t *vp = p;
	uint64_t stride = o->step / 8 ? o->step / 8 : 1;
	uint64_t count = (nr + stride - 1) / stride, done = 0;
	uint64_t block = o->random ? USEMEM_BLOCK_RAND : USEMEM_BLOCK;
	bool wr = !o->readonly;

	while (done < count && !t->stop) {
		uint64_t n = count - done < block ? count - done : block;
		uint64_t k, i = done * stride;

		if (o->delay_ns) {
			for (k = 0; k < n; k++, i += stride) {
				uint64_t idx = o->random ? next_index(t, nr) : i;

				if (o->random || ((idx * 8) & 4095) < stride * 8)
					spin_ns(o->delay_ns);
				if (wr)
					vp[idx] = idx;
				else
					(void)vp[idx];
			}
		} else if (o->random && wr) {
			for (k = 0; k < n; k++) {
				uint64_t idx = next_index(t, nr);

				vp[idx] = idx;
			}
		} else if (o->random) {
			for (k = 0; k < n; k++)
				(void)vp[next_index(t, nr)];
		} else if (wr && verify) {
			for (k = 0; k < n; k++, i += stride) {
				if (vp[i] != i) {
					struct strbuf sb = STRBUF_INIT;

					strbuf_addf(&sb, "usemem: worker %u: verify error at word %" PRIu64 "\n",
						    t->index, i);
					emit(2, &sb);
					strbuf_release(&sb);
					return -1;
				}
				vp[i] = i;
			}
		} else if (wr) {
			for (k = 0; k < n; k++, i += stride)
				vp[i] = i;
		} else {
			for (k = 0; k < n; k++, i += stride)
				(void)vp[i];
		}
		done += n;
		t->accesses += n;
		runtime_over(t);
	}
	return 0;
}

/* the passes over one mapping: repeats, msync, mlock */
static int do_passes(struct usemem_task *t, char *p, uint64_t len)
{
	const struct usemem_opts *o = t->st->o;
	unsigned r, passes = o->repeat > 1 ? o->repeat : 1;

	for (r = 0; r < passes && !t->stop; r++) {
		if (r > 0)
			t->dots++;
		if (rw_once(t, (uint64_t *)(void *)p, len / 8,
			    r > 0 && !o->random) < 0)
			return -1;
		if (o->msync && msync(p, len, MS_SYNC) < 0) {
			task_error(t, "msync");
			return -1;
		}
	}
	if (o->mlock && mlock(p, len) < 0) {
		task_error(t, "mlock");
		return -1;
	}
	return 0;
}

static uint64_t map_len(const struct usemem_opts *o, uint64_t len)
{
	if (o->hugetlb && o->anonymous)
		return (len + USEMEM_HPAGE - 1) & ~(uint64_t)(USEMEM_HPAGE - 1);
	return len;
}

/* one mapping as the options ask; MAP_FAILED with errno on failure */
static char *usemem_map(const struct usemem_state *st, uint64_t len)
{
	const struct usemem_opts *o = st->o;
	int flags = o->prefault ? MAP_POPULATE : 0;
	int fd = st->fd;
	void *p;

	if (o->file) {
		flags |= MAP_SHARED;
	} else if (o->anonymous) {
		flags |= MAP_PRIVATE | MAP_ANONYMOUS;
		if (o->hugetlb)
			flags |= MAP_HUGETLB | USEMEM_HUGE_2MB;
		fd = -1;
	} else {
		flags |= MAP_PRIVATE; /* /dev/zero: an anonymous VMA */
	}
	p = mmap(NULL, map_len(o, len), st->prot, flags, fd, 0);
	if (p != MAP_FAILED && o->madv_thp)
		madvise(p, len, MADV_HUGEPAGE);
	return p;
}

/* -y / -x: tell the parent we are here, wait until it wakes everybody */
static void sync_point(const int ready[2], const int wake[2])
{
	struct pollfd pfd = {.fd = wake[0], .events = POLLIN};
	char c = 1;

	if (write(ready[1], &c, 1) < 0)
		return;
	while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
		;
}

static void bind_task(const struct usemem_task *t)
{
	const struct usemem_state *st = t->st;
	cpu_set_t set;

	if (!st->o->bind || st->ncpu < 1)
		return;
	CPU_ZERO(&set);
	CPU_SET((int)(((uint64_t)t->index * st->o->bind) % (uint64_t)st->ncpu),
		&set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* one worker: map, touch, report, free */
static void do_task(struct usemem_task *t)
{
	const struct usemem_state *st = t->st;
	const struct usemem_opts *o = st->o;
	uint64_t unit = o->unit && o->unit < o->size ? o->unit : o->size;
	char *keep[USEMEM_KEEP];
	uint64_t keep_len[USEMEM_KEEP];
	unsigned nkeep = 0, i;
	uint64_t credit = 0, off, t0, bytes;
	struct strbuf line = STRBUF_INIT;
	long seed = o->seed_set ? o->seed
				: (long)time(NULL) ^ (long)getpid() ^ (long)(t->index * 7919u);

	srand48_r(seed, &t->rnd);
	bind_task(t);
	if (o->prealloc) {
		credit = st->pre_credit;
		if (o->sync_rw)
			sync_point(st->rw_ready, st->rw_wake);
		if (do_passes(t, st->pre, o->size) < 0)
			t->status = 1;
	} else {
		for (off = 0; off < o->size && !t->stop; off += unit) {
			uint64_t len = o->size - off < unit ? o->size - off : unit;
			char *p = usemem_map(st, len);

			if (p == MAP_FAILED) {
				task_error(t, "mmap");
				t->status = 1;
				break;
			}
			credit += len / 8;
			if (nkeep < USEMEM_KEEP) {
				keep[nkeep] = p;
				keep_len[nkeep++] = map_len(o, len);
			}
			if (o->sync_rw)
				sync_point(st->rw_ready, st->rw_wake);
			if (do_passes(t, p, len) < 0) {
				t->status = 1;
				break;
			}
		}
	}
	bytes = credit + st->lock_credit + 8 * t->accesses;
	if (bytes && !t->status) {
		usemem_format_stats(&line, t->dots, bytes,
				    (now_ns() - st->start_ns) / 1000);
		emit(o->out_fd, &line);
	}
	if (o->sleep_s > 0) {
		struct timespec ts = {(time_t)o->sleep_s,
				      (long)((o->sleep_s - (double)(time_t)o->sleep_s) * 1e9)};

		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
	}
	if (o->sync_free)
		sync_point(st->free_ready, st->free_wake);
	if (!o->prealloc) {
		t0 = now_ns();
		for (i = 0; i < nkeep; i++)
			munmap(keep[i], keep_len[i]);
		strbuf_reset(&line);
		usemem_format_free(&line, (now_ns() - t0) / 1000);
		emit(o->out_fd, &line);
	}
	strbuf_release(&line);
}

static void *task_thread(void *arg)
{
	do_task(arg);
	return NULL;
}

/* a worker process: the work itself, or its threads; never returns */
NORETURN static void worker_process(struct usemem_state *st, unsigned proc)
{
	const struct usemem_opts *o = st->o;
	unsigned nt = o->nthread, i;
	int status = 0;

	if (!nt) {
		struct usemem_task t = {.st = st, .index = proc};

		do_task(&t);
		status = t.status;
	} else {
		struct usemem_task *ts = xcalloc(nt, sizeof(*ts));
		pthread_t *th = xcalloc(nt, sizeof(*th));
		unsigned started = 0;

		for (i = 0; i < nt; i++) {
			ts[i].st = st;
			ts[i].index = proc * nt + i;
			if (pthread_create(&th[i], NULL, task_thread, &ts[i])) {
				status = 1;
				break;
			}
			started++;
		}
		for (i = 0; i < started; i++) {
			pthread_join(th[i], NULL);
			status |= ts[i].status;
		}
		free(ts);
		free(th);
	}
	if (o->prealloc && st->pre) {
		struct strbuf line = STRBUF_INIT;
		uint64_t t0 = now_ns();

		munmap(st->pre, st->pre_len);
		usemem_format_free(&line, (now_ns() - t0) / 1000);
		emit(o->out_fd, &line);
		strbuf_release(&line);
	}
	_exit(status);
}

static void close_pair(int p[2])
{
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	p[0] = p[1] = -1;
}

/*
 * The parent's part of -y / -x: count the ready bytes of a phase and
 * wake everybody when all workers are there (or when a worker died, so
 * that the others are never left waiting).
 */
struct sync_phase {
	int *ready, *wake;
	unsigned want, got;
	bool released;
};

static void phase_poll(struct sync_phase *ph, bool force)
{
	char buf[256], c = 1;
	ssize_t r;

	if (ph->released || ph->ready[0] < 0)
		return;
	while ((r = read(ph->ready[0], buf, sizeof(buf))) > 0)
		ph->got += (unsigned)r;
	if (force || ph->got >= ph->want) {
		if (write(ph->wake[1], &c, 1) == 1)
			ph->released = true;
	}
}

/*
 * -L: once, before the workers: a SysV segment of size, one byte written
 * per page, locked (SHM_LOCK) and unlocked, detached and removed.
 */
static int shm_lock_unlock(uint64_t size, struct strbuf *err)
{
	int id = shmget(IPC_PRIVATE, size ? size : 1, IPC_CREAT | 0600);
	char *p;
	uint64_t off;
	int ret = -1;

	if (id < 0) {
		strbuf_addf(err, "usemem: shmget of %" PRIu64 " bytes: %s", size,
			    strerror(errno));
		return -1;
	}
	p = shmat(id, NULL, 0);
	if (p == (void *)-1) {
		strbuf_addf(err, "usemem: shmat: %s", strerror(errno));
		goto out;
	}
	for (off = 0; off < size; off += 4096)
		p[off] = 1;
	if (shmctl(id, SHM_LOCK, NULL) < 0 || shmctl(id, SHM_UNLOCK, NULL) < 0)
		strbuf_addf(err, "usemem: SHM_LOCK/SHM_UNLOCK: %s", strerror(errno));
	else
		ret = 0;
	shmdt(p);
out:
	shmctl(id, IPC_RMID, NULL);
	return ret;
}

/*
 * The memory the workers touch: -f's file or /dev/zero (MAP_PRIVATE of
 * it is what usemem maps by default), none for -O (anonymous).  Opened
 * once, before fork, so that every worker maps the same file.
 */
static int open_target(struct usemem_state *st, struct strbuf *err)
{
	const struct usemem_opts *o = st->o;

	if (o->file) {
		int fl = o->readonly && !o->open_rw ? O_RDONLY : O_RDWR | O_CREAT;

		st->fd = open(o->file, fl | O_CLOEXEC, 0666);
		if (st->fd < 0) {
			strbuf_addf(err, "usemem: cannot open '%s': %s", o->file,
				    strerror(errno));
			return 1;
		}
	} else if (!o->anonymous) {
		st->fd = open("/dev/zero", O_RDWR | O_CLOEXEC);
		if (st->fd < 0) {
			strbuf_addf(err, "usemem: cannot open '/dev/zero': %s",
				    strerror(errno));
			return 1;
		}
	}
	return 0;
}

/*
 * -P (and -E): the mapping made before fork, which the workers inherit
 * and share instead of mapping their own; -E grows it tenfold with
 * mremap, as usemem does to exercise the kernel's remap path.
 */
static int prealloc(struct usemem_state *st, struct strbuf *err)
{
	const struct usemem_opts *o = st->o;

	st->pre_len = map_len(o, o->size);
	st->pre = usemem_map(st, o->size);
	if (st->pre == MAP_FAILED) {
		strbuf_addf(err, "usemem: cannot map %" PRIu64 " bytes: %s",
			    o->size, strerror(errno));
		st->pre = NULL;
		return 1;
	}
	st->pre_credit = o->size / 8;
	if (o->remap) {
		void *q = mremap(st->pre, st->pre_len, 10 * st->pre_len,
				 MREMAP_MAYMOVE);

		if (q == MAP_FAILED) {
			strbuf_addf(err, "usemem: mremap: %s", strerror(errno));
			return 1;
		}
		st->pre = q;
		st->pre_len *= 10;
		st->pre_credit += o->size / 8;
	}
	return 0;
}

/*
 * What is set up once for all workers before they fork: -L's shm lock
 * test, -P's mapping, and the pipes of -y and -x, through which the
 * workers say they are ready and the parent releases them together.
 */
static int setup_shared(struct usemem_state *st, struct strbuf *err)
{
	const struct usemem_opts *o = st->o;

	if (o->lock_shm && shm_lock_unlock(o->size, err) < 0)
		return 1;
	st->lock_credit = o->lock_shm ? o->size / 8 : 0;
	if (o->prealloc && prealloc(st, err))
		return 1;
	if ((o->sync_rw && (pipe2(st->rw_ready, O_CLOEXEC) < 0 ||
			    pipe2(st->rw_wake, O_CLOEXEC) < 0)) ||
	    (o->sync_free && (pipe2(st->free_ready, O_CLOEXEC) < 0 ||
			      pipe2(st->free_wake, O_CLOEXEC) < 0))) {
		strbuf_addf(err, "usemem: pipe: %s", strerror(errno));
		return 1;
	}
	return 0;
}

/*
 * nproc workers forked into pids; *alive counts those started.  1 when a
 * fork failed: the ones started still run, and are reaped as usual.
 */
static int fork_workers(struct usemem_state *st, unsigned nproc,
			pid_t *pids, unsigned *alive, struct strbuf *err)
{
	unsigned i;

	for (i = 0; i < nproc; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			strbuf_addf(err, "usemem: fork: %s", strerror(errno));
			return 1;
		}
		if (!pid)
			worker_process(st, i);
		pids[i] = pid;
		(*alive)++;
	}
	return 0;
}

/*
 * The parent keeps only the read ends of ready and the write ends of
 * wake: a worker's death then shows as EOF on ready instead of a wait
 * for a byte that never comes.
 */
static void keep_parent_ends(struct usemem_state *st)
{
	if (st->rw_ready[1] >= 0) {
		close(st->rw_ready[1]);
		st->rw_ready[1] = -1;
		fcntl(st->rw_ready[0], F_SETFL, O_NONBLOCK);
	}
	if (st->free_ready[1] >= 0) {
		close(st->free_ready[1]);
		st->free_ready[1] = -1;
		fcntl(st->free_ready[0], F_SETFL, O_NONBLOCK);
	}
}

/*
 * Wait for the workers while releasing the sync phases as they fill:
 * waitpid without blocking while a phase still gathers (a poll of its
 * pipe in between), blocking once both are released.  A worker that
 * dies releases both phases, so the others never wait for it.  1 when
 * a worker was killed or failed.
 */
static int reap_workers(pid_t *pids, unsigned nproc, unsigned alive,
			struct sync_phase phases[2], struct strbuf *err)
{
	unsigned i;
	int ret = 0, k;

	while (alive) {
		int status;
		pid_t pid;
		bool died = false;

		if (phases[0].released && phases[1].released)
			pid = waitpid(-1, &status, 0);
		else {
			pid = waitpid(-1, &status, WNOHANG);
			if (!pid) {
				struct pollfd pfd[2];
				nfds_t n = 0;

				for (k = 0; k < 2; k++)
					if (!phases[k].released)
						pfd[n++] = (struct pollfd){.fd = phases[k].ready[0], .events = POLLIN};
				poll(pfd, n, 50);
				for (k = 0; k < 2; k++)
					phase_poll(&phases[k], false);
				continue;
			}
		}
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < nproc; i++)
			if (pids[i] == pid)
				break;
		if (i == nproc)
			continue; /* not ours (a test harness child) */
		alive--;
		pids[i] = 0;
		if (WIFSIGNALED(status)) {
			strbuf_addf(err, "%susemem: worker %u killed by signal %d%s",
				    err->len ? "; " : "", i, WTERMSIG(status),
				    WTERMSIG(status) == SIGKILL ? " (out of memory?)" : "");
			ret = 1;
			died = true;
		} else if (WEXITSTATUS(status)) {
			if (!err->len)
				strbuf_addf(err, "usemem: worker %u failed", i);
			ret = 1;
			died = true;
		}
		if (died)
			for (k = 0; k < 2; k++)
				phase_poll(&phases[k], true);
	}
	return ret;
}

/*
 * usemem itself: open, set up what the workers share, fork them, release
 * their sync phases and reap them; every step undone at the end, whatever
 * step failed.
 */
int usemem_run(const struct usemem_opts *o, struct strbuf *err)
{
	struct usemem_state st;
	unsigned nproc = o->nproc ? o->nproc : 1, alive = 0;
	unsigned workers = nproc * (o->nthread ? o->nthread : 1);
	pid_t *pids = NULL;
	struct sync_phase phases[2];
	int ret = 0, k;

	memset(&st, 0, sizeof(st));
	st.o = o;
	st.fd = -1;
	st.rw_ready[0] = st.rw_ready[1] = st.rw_wake[0] = st.rw_wake[1] = -1;
	st.free_ready[0] = st.free_ready[1] = st.free_wake[0] = st.free_wake[1] = -1;
	st.ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	st.start_ns = now_ns(); /* the suite's start: before open, map, fork */
	st.prot = o->readonly && !o->open_rw ? PROT_READ : PROT_READ | PROT_WRITE;

	if (open_target(&st, err))
		return 1;
	if (setup_shared(&st, err)) {
		ret = 1;
		goto out;
	}
	pids = xcalloc(nproc, sizeof(*pids));
	ret = fork_workers(&st, nproc, pids, &alive, err);
	keep_parent_ends(&st);
	phases[0] = (struct sync_phase){st.rw_ready, st.rw_wake, workers, 0, !o->sync_rw};
	phases[1] = (struct sync_phase){st.free_ready, st.free_wake, workers, 0, !o->sync_free};
	if (ret) /* a fork failed: never let the started ones wait */
		for (k = 0; k < 2; k++)
			phase_poll(&phases[k], true);
	if (reap_workers(pids, nproc, alive, phases, err))
		ret = 1;
out:
	free(pids);
	if (st.pre)
		munmap(st.pre, st.pre_len);
	if (st.fd >= 0)
		close(st.fd);
	close_pair(st.rw_ready);
	close_pair(st.rw_wake);
	close_pair(st.free_ready);
	close_pair(st.free_wake);
	return ret;
}
