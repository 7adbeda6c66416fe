/*
 * wis.c: the built-in `will-it-scale` test program -- LKP's
 * programs/will-it-scale/run and the suite's harness (runtest.py and
 * main.c) in C, written from their description.  One run measures one
 * testcase (wis_cases.c) with nr_task tasks: as processes, as threads of
 * one process, or both one after the other (LKP's default), each for the
 * runtime: a warm-up, then a window over which every task's operations
 * are counted and the machine's idle time is read from /proc/stat.  The
 * output is runtest.py's table, which LKP's parser (wis_parse.c) reads:
 *
 *   tasks,processes,processes_idle,threads,threads_idle,linear
 *   0,0,100,0,100,0
 *   2,4117203,0.31,0,0.00,0
 *
 * processes / threads are operations per second of all tasks together;
 * linear is the single task's rate times the tasks when the run is of one
 * task (runtest.py's rule), else 0.
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "benchmarks/bench.h"
#include "benchmarks/wis.h"
#include "benchmarks/wis_cases.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

/* a counter per cache-line pair: no task's count shares a line with another's */
#define CTR_STRIDE (128 / sizeof(uint64_t))
/* will-it-scale's warm-up before its average (WARMUP_ITERATIONS in main.c) */
#define WARMUP_S 5.0
/* how long a window waits for its first operation beyond its duration */
#define STALL_S 60.0
/* LKP's `ulimit -n 65536` before runtest.py */
#define NOFILE_WANT 65536

void wis_split_runtime(double runtime_s, double *warmup_s, double *duration_s)
{
	/*
	 * LKP gives the suite runtime - 5 seconds to average over, after its
	 * 5 s warm-up.  Shorter runtimes (perfsift's quick jobs) keep a
	 * quarter for the warm-up, so that the tasks are past their set-up.
	 */
	*warmup_s = runtime_s >= 4 * WARMUP_S ? WARMUP_S : runtime_s / 4;
	*duration_s = runtime_s - *warmup_s;
}

/* ------------------------------------------------------ the tasks */

/* what a task needs to start, in memory its process or thread inherits */
struct wis_spawn {
	const struct wis_case *c;
	struct wis_task *tasks;
	int *cpu;                 /* the CPU of task i, -1: not bound */
	pid_t parent;
	pthread_barrier_t start;  /* threads: all created before any loops */
};

static void bind_cpu(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	/* 0: the calling thread (Linux); a CPU taken away meanwhile is no error */
	sched_setaffinity(0, sizeof(set), &set);
}

/* a child process dies with its parent: no task outlives the harness */
static void die_with_parent(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
}

/* context_switch1's partner as a process: a child of the task */
static int new_process(void *(*fn)(void *), void *arg)
{
	pid_t parent = getpid(), pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		die_with_parent(parent);
		fn(arg);
		_exit(0);
	}
	return 0;
}

/* ... and as a thread of the task's process */
static int new_thread(void *(*fn)(void *), void *arg)
{
	pthread_attr_t a;
	pthread_t th;
	int r;

	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	r = pthread_create(&th, &a, fn, arg);
	pthread_attr_destroy(&a);
	return r ? -1 : 0;
}

struct thread_arg {
	struct wis_spawn *sp;
	unsigned i;
};

static void *thread_main(void *arg)
{
	struct thread_arg *ta = arg;

	bind_cpu(ta->sp->cpu[ta->i]);
	/*
	 * Wait until every thread exists: pthread_create may allocate on the
	 * heap, which brk1's threads move up and down.
	 */
	pthread_barrier_wait(&ta->sp->start);
	ta->sp->c->loop(&ta->sp->tasks[ta->i]);
	return NULL;
}

/* the thread mode's process: n threads, then nothing until it is killed */
static NORETURN void thread_leader(struct wis_spawn *sp, unsigned n)
{
	struct thread_arg *ta = xcalloc(n, sizeof(*ta));
	unsigned i;

	die_with_parent(sp->parent);
	pthread_barrier_init(&sp->start, NULL, n + 1);
	for (i = 0; i < n; i++) {
		pthread_t th;

		ta[i].sp = sp;
		ta[i].i = i;
		if (pthread_create(&th, NULL, thread_main, &ta[i])) {
			static const char msg[] = "will-it-scale: cannot create a thread\n";

			if (write(2, msg, sizeof(msg) - 1) < 0)
				_exit(1);
			_exit(1);
		}
	}
	pthread_barrier_wait(&sp->start);
	for (;;)
		pause();
}

/*
 * Start the tasks: n processes, or one process of n threads.  The pids
 * to kill at the end go into pids (n, or 1); -1 with err.
 */
static int spawn(struct wis_spawn *sp, bool threads, unsigned n, pid_t *pids,
		 unsigned *npids, struct strbuf *err)
{
	unsigned i, want = threads ? 1 : n;

	*npids = 0;
	for (i = 0; i < want; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			strbuf_addf(err, "cannot fork: %s", strerror(errno));
			return -1;
		}
		if (pid == 0) {
			if (threads)
				thread_leader(sp, n);
			die_with_parent(sp->parent);
			bind_cpu(sp->cpu[i]);
			sp->c->loop(&sp->tasks[i]);
			_exit(0);
		}
		pids[(*npids)++] = pid;
	}
	return 0;
}

static void stop_all(pid_t *pids, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGKILL);
	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
				;
}

/* -1 with err when a task has ended: every task runs until it is killed */
static int check_alive(pid_t *pids, unsigned n, struct strbuf *err)
{
	unsigned i;
	int st;

	for (i = 0; i < n; i++) {
		if (pids[i] <= 0 || waitpid(pids[i], &st, WNOHANG) != pids[i])
			continue;
		pids[i] = 0;
		if (WIFSIGNALED(st))
			strbuf_addf(err, "a task was killed by signal %d", WTERMSIG(st));
		else
			strbuf_addf(err, "a task ended (exit status %d)", WEXITSTATUS(st));
		return -1;
	}
	return 0;
}

/* sleep until deadline, looking at the tasks every 100 ms */
static int wait_until(uint64_t deadline, pid_t *pids, unsigned n,
		      struct strbuf *err)
{
	for (;;) {
		uint64_t now = time_mono_ns(), step = 100000000u;

		if (check_alive(pids, n, err) < 0)
			return -1;
		if (now >= deadline)
			return 0;
		time_sleep_until_ns(deadline - now < step ? deadline : now + step);
	}
}

static uint64_t sum_counters(const uint64_t *ctr, unsigned n)
{
	uint64_t s = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		s += __atomic_load_n(&ctr[i * CTR_STRIDE], __ATOMIC_RELAXED);
	return s;
}

/* ------------------------------------------------- idle CPU time */

struct cpu_times {
	uint64_t busy, idle;
};

/* /proc/stat's "cpu" line as runtest.py splits it: idle + iowait vs the rest */
static void read_cpu_times(struct cpu_times *ct)
{
	char buf[512];
	unsigned long long v[10] = {0};
	int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	memset(ct, 0, sizeof(*ct));
	if (n <= 0)
		return;
	buf[n] = '\0';
	if (sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8],
		   &v[9]) < 4)
		return;
	/* user nice system idle iowait irq softirq steal guest guest_nice */
	ct->idle = v[3] + v[4];
	ct->busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7] + v[8] + v[9];
}

static double idle_pct(const struct cpu_times *a, const struct cpu_times *b)
{
	uint64_t idle = b->idle - a->idle, busy = b->busy - a->busy;

	return idle + busy ? 100.0 * (double)idle / (double)(idle + busy) : 0;
}

/* ---------------------------------------------------- measurement */

/* the CPUs this process may run on, in order */
static unsigned allowed_cpus(int **out)
{
	cpu_set_t set;
	unsigned n = 0;
	int i;

	*out = NULL;
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 0;
	*out = xcalloc(CPU_SETSIZE, sizeof(int));
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			(*out)[n++] = i;
	return n;
}

/* the measured window: until the deadline, and on until an operation was counted */
static int measure_window(const uint64_t *ctr, unsigned nr_tasks,
			  double duration_s, pid_t *pids, unsigned npids,
			  struct wis_result *r, struct strbuf *err)
{
	struct cpu_times c0, c1;
	uint64_t s0, s1, t0, t1;

	read_cpu_times(&c0);
	s0 = sum_counters(ctr, nr_tasks);
	t0 = time_mono_ns();
	if (wait_until(t0 + (uint64_t)(duration_s * 1e9), pids, npids, err) < 0)
		return -1;
	/*
	 * A loaded machine: the window grows until it holds a sample.  A
	 * minute more without one is a testcase that makes no progress (a
	 * partner gone, a blocked call): an error, not a hang.
	 */
	while ((s1 = sum_counters(ctr, nr_tasks)) == s0) {
		if (time_mono_ns() - t0 > (uint64_t)((duration_s + STALL_S) * 1e9)) {
			strbuf_addf(err, "no operation counted in %.0f s", duration_s + STALL_S);
			return -1;
		}
		if (wait_until(time_mono_ns() + 10000000u, pids, npids, err) < 0)
			return -1;
	}
	t1 = time_mono_ns();
	read_cpu_times(&c1);
	r->seconds = (double)(t1 - t0) / 1e9;
	r->ops = (uint64_t)((double)(s1 - s0) / r->seconds);
	r->idle_pct = idle_pct(&c0, &c1);
	r->total = s1;
	return 0;
}

int wis_measure(const struct wis_case *c, bool threads, unsigned nr_tasks,
		const char *dir, bool affinity, double warmup_s,
		double duration_s, struct wis_result *r, struct strbuf *err)
{
	size_t ctr_len = (size_t)nr_tasks * CTR_STRIDE * sizeof(uint64_t);
	uint64_t *ctr = mmap(NULL, ctr_len, PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct wis_spawn sp;
	char shared[PATH_MAX] = "";
	char label[128];
	int *cpus = NULL;
	unsigned ncpu = affinity ? allowed_cpus(&cpus) : 0, i, npids = 0;
	pid_t *pids = xcalloc(nr_tasks, sizeof(pid_t));
	int ret = -1;

	memset(r, 0, sizeof(*r));
	memset(&sp, 0, sizeof(sp));
	if (ctr == MAP_FAILED) {
		strbuf_addf(err, "cannot map the counters: %s", strerror(errno));
		ctr = NULL;
		goto out;
	}
	if (c->prepare && c->prepare(dir, nr_tasks, shared, err) < 0)
		goto out;
	snprintf(label, sizeof(label), "%s_%s", c->name, threads ? "threads" : "processes");
	sp.c = c;
	sp.parent = getpid();
	sp.tasks = xcalloc(nr_tasks, sizeof(*sp.tasks));
	sp.cpu = xcalloc(nr_tasks, sizeof(int));
	for (i = 0; i < nr_tasks; i++) {
		struct wis_task *t = &sp.tasks[i];

		t->nr = i;
		t->dir = dir;
		t->shared = shared;
		t->iterations = &ctr[i * CTR_STRIDE];
		t->label = label;
		t->new_task = threads ? new_thread : new_process;
		/* task i on the i-th allowed CPU, round and round (main.c's layout) */
		sp.cpu[i] = ncpu ? cpus[i % ncpu] : -1;
	}
	if (spawn(&sp, threads, nr_tasks, pids, &npids, err) < 0)
		goto stop;
	if (wait_until(time_mono_ns() + (uint64_t)(warmup_s * 1e9), pids, npids, err) < 0)
		goto stop;
	if (measure_window(ctr, nr_tasks, duration_s, pids, npids, r, err) < 0)
		goto stop;
	ret = 0;
stop:
	stop_all(pids, npids);
out:
	if (*shared)
		unlink(shared);
	if (ctr)
		munmap(ctr, ctr_len);
	free(sp.tasks);
	free(sp.cpu);
	free(cpus);
	free(pids);
	return ret;
}

/* ------------------------------------------------- the benchmark */

struct wis_state {
	const struct wis_case *c;
	unsigned nr_task;
	bool processes, threads;
	double runtime;
	char *dir;
};

/* LKP's ulimit -n 65536, or what a test case needs beyond it */
static void raise_nofile(unsigned need)
{
	struct rlimit rl;
	rlim_t want = need > NOFILE_WANT ? need : NOFILE_WANT;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= want)
		return;
	if (rl.rlim_max < want) {
		struct rlimit up = {want, want};

		if (setrlimit(RLIMIT_NOFILE, &up) == 0)
			return;
		want = rl.rlim_max;
	}
	rl.rlim_cur = want;
	setrlimit(RLIMIT_NOFILE, &rl);
}

/* fds the run needs: a task's own, and the case's (poll2's 128) per task */
static unsigned nofile_need(const struct wis_state *st)
{
	return st->nr_task * (st->c->nr_files + 16) + 64;
}

/* what this machine lacks for the testcase: BENCH_SKIP with the reason */
static int check_machine(struct bench_ctx *ctx, struct wis_state *st)
{
	struct rlimit rl;

	if (st->c->nr_files && getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
	    rl.rlim_max < nofile_need(st) && geteuid() != 0) {
		strbuf_addf(ctx->skip_reason,
			    "%s needs %u open files, the hard limit (ulimit -Hn) is %llu",
			    st->c->name, nofile_need(st), (unsigned long long)rl.rlim_max);
		return BENCH_SKIP;
	}
	if (!strcmp(st->c->name, "fallocate1")) {
		int fd, r;

		/* an unnamed file (O_TMPFILE): the probe leaves no name behind
		 * and --list-cases may ask it of the scratch file system too */
		fd = open(st->dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		if (fd < 0)
			return BENCH_OK; /* the run says why */
		r = fallocate(fd, 0, 0, 4096);
		close(fd);
		if (r < 0 && (errno == EOPNOTSUPP || errno == ENOSYS)) {
			strbuf_addf(ctx->skip_reason,
				    "fallocate1 needs fallocate(2), which the file system of '%s' lacks",
				    st->dir);
			return BENCH_SKIP;
		}
	}
	return BENCH_OK;
}

static int wis_prepare(struct bench_ctx *ctx, struct strbuf *err)
{
	const struct wis_opts *o = ctx->params;
	struct wis_state *st = xcalloc(1, sizeof(*st));
	unsigned nr_cpu = ctx->nr_cpu ? ctx->nr_cpu : 1;

	ctx->priv = st;
	st->c = wis_case_find(o->test);
	if (!st->c) {
		/* the table checked it when the job was read */
		strbuf_addf(err, "'%s' is not a testcase of will-it-scale", o->test ? o->test : "");
		return BENCH_ERROR;
	}
	st->nr_task = param_cpus_of(&o->nr_task, nr_cpu);
	st->processes = !o->mode || strcmp(o->mode, "thread");
	st->threads = !o->mode || strcmp(o->mode, "process");
	st->runtime = o->runtime; /* the default and "0" are param_fill()'s */
	st->dir = xstrdup(ctx->scratch && *ctx->scratch ? ctx->scratch : "/tmp");
	return check_machine(ctx, st);
}

/* "YYYY-MM-DD HH:MM:SS", as LKP's log_cmd stamps the command line */
static void add_stamp(struct strbuf *sb)
{
	time_t now = time(NULL);
	struct tm tm;
	char buf[32];

	localtime_r(&now, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm);
	strbuf_addstr(sb, buf);
}

static int write_all(const struct strbuf *sb)
{
	return write(1, sb->buf, sb->len) == (ssize_t)sb->len ? 0 : -1;
}

static int wis_run(struct bench_ctx *ctx)
{
	const struct wis_opts *o = ctx->params;
	struct wis_state *st = ctx->priv;
	struct wis_result proc = {0}, thr = {0};
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	double warmup, duration;
	uint64_t linear = 0;
	int status = 1;

	wis_split_runtime(st->runtime, &warmup, &duration);
	raise_nofile(nofile_need(st));
	add_stamp(&out);
	strbuf_addf(&out, " perfsift will-it-scale %s %g %s %d %u\n", st->c->name,
		    duration, o->mode ? o->mode : "both", o->no_affinity, st->nr_task);
	strbuf_addstr(&out, "tasks,processes,processes_idle,threads,threads_idle,linear\n"
			    "0,0,100,0,100,0\n");
	/* before any fork: a task must not inherit unwritten output */
	if (write_all(&out) < 0)
		goto out;
	if (st->processes &&
	    wis_measure(st->c, false, st->nr_task, st->dir, !o->no_affinity,
			warmup, duration, &proc, &err) < 0)
		goto fail;
	if (st->threads &&
	    wis_measure(st->c, true, st->nr_task, st->dir, !o->no_affinity,
			warmup, duration, &thr, &err) < 0)
		goto fail;
	/* runtest.py: the 1-task rate is the linear base */
	if (st->nr_task == 1)
		linear = proc.ops > thr.ops ? proc.ops : thr.ops;
	strbuf_reset(&out);
	strbuf_addf(&out, "%u,%" PRIu64 ",%0.2f,%" PRIu64 ",%0.2f,%" PRIu64 "\n",
		    st->nr_task, proc.ops, st->processes ? proc.idle_pct : 0, thr.ops,
		    st->threads ? thr.idle_pct : 0, linear * st->nr_task);
	status = write_all(&out) < 0;
	goto out;
fail:
	fprintf(stderr, "will-it-scale: %s: %s\n", st->c->name, err.buf);
out:
	strbuf_release(&out);
	strbuf_release(&err);
	return status;
}

static void wis_cleanup(struct bench_ctx *ctx)
{
	struct wis_state *st = ctx->priv;

	if (!st)
		return;
	free(st->dir);
	free(st);
	ctx->priv = NULL;
}

/* prepare()'s checks are read-only already: prepare, then give back (bench.h) */
static int wis_probe(struct bench_ctx *ctx, struct strbuf *err)
{
	void *priv = ctx->priv;
	int ret = wis_prepare(ctx, err);

	wis_cleanup(ctx);
	ctx->priv = priv;
	return ret;
}

const struct bench_ops bench_will_it_scale = {
	.name = "will-it-scale",
	/* LKP's index-perf-all.yaml: `will-it-scale\..+_ops: 1`,
	 * `will-it-scale\.scalability: 1` (test_stats checks they agree) */
	.kpi = "will-it-scale.per_process_ops: higher; "
	       "will-it-scale.per_thread_ops: higher; "
	       "will-it-scale.scalability: higher",
	.prepare = wis_prepare,
	.run = wis_run,
	.cleanup = wis_cleanup,
	.probe = wis_probe,
};
