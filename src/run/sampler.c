/*
 * sampler.c: the monitors that run beside a benchmark (see sampler.h).
 *
 * One thread samples every periodic monitor.  Each monitor's sources are
 * opened once at start (monitors/sampling.h); the thread sleeps on an
 * absolute CLOCK_MONOTONIC deadline (clock_nanosleep TIMER_ABSTIME), so the
 * period does not stretch by the time spent reading, as LKP's
 * sleep-after-work loops do.  Each sample is built in memory and appended
 * with one write(), so a killed perfsift leaves every raw file readable up
 * to its last whole sample.  Monitors without an interval (interrupts,
 * softirqs, cpuidle by default) take one snapshot at start and one at stop;
 * every monitor takes a final sample at stop (LKP quirk Q10).
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "job/job.h"
#include "monitors/monitor.h"
#include "monitors/sampling.h"
#include "job/programs.h"
#include "run/sampler.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/usage.h"
#include "util/xalloc.h"

struct sampler_mon {
	struct mon_inst mi;
	const struct monitor_sampling *ops;
	int fd;              /* the raw file, O_APPEND */
	uint64_t period_ns;  /* 0: no periodic samples */
	uint64_t next_ns;
	uint64_t cpu_ns;     /* the sampler's CPU time spent on this monitor */
	unsigned long samples;
	bool failed;         /* a sample failed once: said so, not again */
};

struct sampler {
	struct sampler_mon *m;
	size_t n;
	pthread_t thread;
	pthread_mutex_t lock; /* a tick: the clock's, or sampler_tick_now()'s */
	bool running;
	atomic_bool stop;
	struct strbuf buf;
	struct mon_share share; /* sources read by several monitors */
	uint64_t ticks, tick_cpu_ns;
	uint64_t tick_cpu[1024]; /* the first ticks' costs, for a median */
};

/*
 * One sample of one monitor.  Its CPU time is measured only when asked
 * (start and stop): reading a thread's CPU clock is a system call, and on
 * the clock's path the tick as a whole is measured instead.
 */
static void take_sample(struct sampler *s, struct sampler_mon *m, bool final,
			bool timed)
{
	uint64_t t0 = timed ? time_thread_cpu_ns() : 0;

	strbuf_reset(&s->buf);
	if (m->ops->sample(&m->mi, &s->buf, final)) {
		if (!m->failed)
			warning("%s: a sample could not be read; skipped",
				m->mi.ops->name);
		m->failed = true;
	} else if (s->buf.len && write_all(m->fd, s->buf.buf, s->buf.len)) {
		if (!m->failed)
			warning("%s: cannot write the raw file: %s",
				m->mi.ops->name, strerror(errno));
		m->failed = true;
	}
	m->samples++;
	if (timed)
		m->cpu_ns += time_thread_cpu_ns() - t0;
}

/*
 * SIGRTMIN+1 exists only to interrupt clock_nanosleep when the run ends;
 * the handler does nothing, and it is installed without SA_RESTART so
 * that the sleep returns instead of resuming.
 */
static void wake_handler(int sig)
{
	(void)sig;
}

/*
 * The sampling thread.  Each tick takes every monitor that is due, under
 * the lock that sampler_tick_now() takes too, so a sample is never taken
 * twice at once; monitors share one tick counter (share.tick) so sources
 * read by several monitors (/proc/stat) are read once per tick.  The cost
 * of each tick is kept for sampler_stats(): the sampler's overhead is
 * measured on the run it sampled, not estimated.
 */
static void *sampler_main(void *arg)
{
	struct sampler *s = arg;
	struct timespec ts;
	uint64_t next, now, t0;
	size_t i;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN + 1);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	while (!atomic_load(&s->stop)) {
		next = UINT64_MAX;
		for (i = 0; i < s->n; i++)
			if (s->m[i].period_ns && s->m[i].next_ns < next)
				next = s->m[i].next_ns;
		if (next == UINT64_MAX)
			break;
		ts.tv_sec = (time_t)(next / 1000000000u);
		ts.tv_nsec = (long)(next % 1000000000u);
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
			continue; /* woken by sampler_stop, or spurious */
		if (atomic_load(&s->stop))
			break;
		pthread_mutex_lock(&s->lock);
		t0 = time_thread_cpu_ns();
		now = time_mono_ns();
		s->share.tick++;
		for (i = 0; i < s->n; i++) {
			struct sampler_mon *m = &s->m[i];

			if (!m->period_ns || m->next_ns > now)
				continue;
			take_sample(s, m, false, false);
			/* fixed rate: the next tick of the grid, never a drift */
			while (m->next_ns <= now)
				m->next_ns += m->period_ns;
		}
		t0 = time_thread_cpu_ns() - t0;
		if (s->ticks < ARRAY_SIZE(s->tick_cpu))
			s->tick_cpu[s->ticks] = t0;
		s->ticks++;
		s->tick_cpu_ns += t0;
		pthread_mutex_unlock(&s->lock);
	}
	return NULL;
}

/*
 * A tick outside the clock, for tests and benches that need a sample at a
 * known moment without sleeping for one; cost_ns, when given, gets each
 * monitor's CPU time.
 */
void sampler_tick_now(struct sampler *s, uint64_t *cost_ns)
{
	uint64_t t0;
	size_t i;

	pthread_mutex_lock(&s->lock);
	s->share.tick++;
	for (i = 0; i < s->n; i++) {
		if (!s->m[i].period_ns)
			continue;
		t0 = cost_ns ? time_thread_cpu_ns() : 0;
		take_sample(s, &s->m[i], false, false);
		if (cost_ns)
			cost_ns[i] = time_thread_cpu_ns() - t0;
	}
	pthread_mutex_unlock(&s->lock);
}

/* ------------------------------------------------------ which monitors */

/* name as a whole word of a comma- or blank-separated list */
static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while ((p = strstr(p, name))) {
		if ((p == list || strchr(", \t", p[-1])) &&
		    (!p[n] || strchr(", \t", p[n])))
			return true;
		p += n;
	}
	return false;
}

/*
 * The monitors a job asks for: the default set when the job is a
 * benchmark (`category: benchmark`, or no job at all) unless `monitors:`
 * names the set ("none" for none); plus every monitor key the job has;
 * minus those in `disable_monitors:`.
 */
static bool wanted(const struct job *job, const struct monitor_ops *ops,
		   bool *named)
{
	const char *cat, *list, *off;
	bool benchmark;

	*named = false;
	if (!ops->sampling)
		return false;
	if (!job)
		return ops->sampling->in_default_set;
	off = job_get(job, "disable_monitors");
	if (off && in_list(off, ops->name))
		return false;
	list = job_get(job, "monitors");
	if (jnode_get(job->root, ops->name) || (list && in_list(list, ops->name)))
		return *named = true;
	if (list)
		return false;
	cat = job_get(job, "category");
	benchmark = cat && !strcmp(cat, "benchmark");
	return benchmark && ops->sampling->in_default_set;
}

/* a monitor's period in seconds: interval_ms when given, else interval */
static double interval_of(const struct mon_inst *mi,
			  const struct monitor_sampling *ops)
{
	double ms = mon_param_double(mi, "interval_ms", 0);

	if (ms > 0)
		return ms / 1000;
	return mon_param_double(mi, "interval", ops->default_interval);
}

/*
 * "not available" notes said once per robot pass, not once per run: a
 * pass makes dozens of runs, and the same missing turbostat on each would
 * bury the one message that matters.  The runs share the file
 * PERFSIFT_MONITOR_NOTES names (robot/pass.c sets it; the runs are
 * separate processes); each run's monitors.log still says everything.
 */
void sampler_notes_init(struct sampler_notes *notes)
{
	const char *f = getenv("PERFSIFT_MONITOR_NOTES");

	strbuf_init(&notes->said, 0);
	notes->file = NULL;
	if (!f || !*f)
		return;
	notes->file = xstrdup(f);
	/* none yet (the first run of the pass): nothing said */
	if (strbuf_read_file(&notes->said, f, 1 << 20) < 0)
		strbuf_reset(&notes->said);
}

void sampler_notes_release(struct sampler_notes *notes)
{
	strbuf_release(&notes->said);
	FREE_AND_NULL(notes->file);
}

/* line into the shared notes file (best effort: at worst said twice) */
static void notes_append(const struct sampler_notes *notes, const char *line)
{
	int fd;

	if (!notes->file)
		return;
	/*
	 * Never through a link (a link planted there would have the root's
	 * notes appended to whatever it names), and 0644 whatever the
	 * umask: a file of root's that others need not write (the third
	 * attack's listed item; robot/pass.c makes its directory 0755).
	 */
	fd = open(notes->file, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW |
		  O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, line, strlen(line)) < 0) {
		/* nothing to do: the note is said again by the next run */
	}
	close(fd);
}

/* note one monitor's absence: in the run's log, and on stderr once */
static void not_available(struct sampler_notes *notes, struct strbuf *log,
			  const char *name, const char *why)
{
	size_t start = log->len;
	const char *line, *p;

	strbuf_addf(log, "%s: not available: %s\n", name, why);
	line = log->buf + start;
	if (notes) {
		/* said before in this command (whole lines only) */
		for (p = notes->said.buf; p && (p = strstr(p, line)); p++)
			if (p == notes->said.buf || p[-1] == '\n')
				return;
		strbuf_addstr(&notes->said, line);
		notes_append(notes, line);
	}
	note("%s: not available: %s", name, why);
}

struct sampler *sampler_start(const struct job *job, const char *out_dir,
			      const char *sysroot, struct sampler_notes *notes)
{
	struct sampler *s = xcalloc(1, sizeof(*s));
	struct strbuf why = STRBUF_INIT, path = STRBUF_INIT, log = STRBUF_INIT;
	const struct monitor_ops *ops;
	struct sampler_mon *m;
	struct sigaction sa;
	uint64_t now;
	size_t i, alloc = 0;
	bool named;

	strbuf_init(&s->buf, 64 * 1024);
	atomic_init(&s->stop, false);
	pthread_mutex_init(&s->lock, NULL);
	mon_share_init(&s->share);
	for (i = 0; i < monitor_count(); i++) {
		ops = monitor_at(i);
		if (!wanted(job, ops, &named))
			continue;
		ALLOC_GROW(s->m, s->n + 1, alloc);
		m = &s->m[s->n];
		memset(m, 0, sizeof(*m));
		m->mi.ops = ops;
		m->mi.sysroot = sysroot ? sysroot : "/";
		m->mi.job = job;
		m->mi.named = named;
		m->mi.share = &s->share;
		m->ops = ops->sampling;
		m->mi.interval = interval_of(&m->mi, m->ops);
		strbuf_reset(&why);
		if (m->ops->open(&m->mi, &why)) {
			not_available(notes, &log, ops->name, why.buf);
			continue;
		}
		path_join(&path, out_dir, ops->name);
		m->fd = open(path.buf, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND |
				       O_CLOEXEC, 0644);
		if (m->fd < 0) {
			warning("%s: cannot create '%s': %s", ops->name,
				path.buf, strerror(errno));
			m->ops->close(&m->mi);
			continue;
		}
		s->n++;
	}
	/* monitors the job names that perfsift has no sampler for */
	for (i = 0; job && i < job->root->n; i++) {
		const struct program *p = program_find(job->root->keys[i]);

		ops = monitor_find(job->root->keys[i]);
		if (p && p->kind == PROG_MONITOR && (!ops || !ops->sampling))
			not_available(notes, &log, p->name,
				      "perfsift does not sample this monitor");
	}
	if (log.len) {
		path_join(&path, out_dir, "monitors.log");
		if (write_file_atomic(path.buf, log.buf, log.len))
			warning("cannot write '%s': %s", path.buf, strerror(errno));
	}
	/* the start snapshot of every monitor that samples before stop */
	now = time_mono_ns();
	s->share.tick++;
	for (i = 0; i < s->n; i++) {
		m = &s->m[i];
		if (m->mi.interval >= 0 && m->ops->default_interval >= 0)
			take_sample(s, m, false, true);
		if (m->mi.interval > 0 && m->ops->default_interval >= 0) {
			m->period_ns = (uint64_t)(m->mi.interval * 1e9);
			if (!m->period_ns)
				m->period_ns = 1;
			m->next_ns = now + m->period_ns;
		}
	}
	for (i = 0; i < s->n && !s->m[i].period_ns; i++)
		;
	if (i < s->n) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = wake_handler; /* no SA_RESTART: sleeps end */
		sigemptyset(&sa.sa_mask);
		sigaction(SIGRTMIN + 1, &sa, NULL);
		if (pthread_create(&s->thread, NULL, sampler_main, s))
			warning("cannot start the sampler thread: %s; only start and stop samples are taken",
				strerror(errno));
		else
			s->running = true;
	}
	strbuf_release(&why);
	strbuf_release(&path);
	strbuf_release(&log);
	return s;
}

/*
 * Stop the thread (the wake-up signal is resent until the join succeeds:
 * one sent before the thread went to sleep would be lost), then the final
 * sample of every monitor, so that a counter has its "last" even when
 * the run was shorter than one interval.
 */
int sampler_stop(struct sampler *s)
{
	struct timespec ts;
	size_t i;
	int ret = 0;

	if (!s)
		return 0;
	if (s->running) {
		atomic_store(&s->stop, true);
		for (;;) {
			/* a signal ends clock_nanosleep; resent until joined */
			pthread_kill(s->thread, SIGRTMIN + 1);
			ts = time_epoch_ts();
			ts.tv_nsec += 20 * 1000000;
			if (ts.tv_nsec >= 1000000000) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000;
			}
			if (!pthread_timedjoin_np(s->thread, NULL, &ts))
				break;
		}
	}
	s->share.tick++;
	for (i = 0; i < s->n; i++)
		take_sample(s, &s->m[i], true, true);
	for (i = 0; i < s->n; i++) {
		if (s->m[i].failed)
			ret = -1;
		s->m[i].ops->close(&s->m[i].mi);
		if (close(s->m[i].fd))
			ret = -1;
	}
	free(s->m);
	mon_share_release(&s->share);
	strbuf_release(&s->buf);
	pthread_mutex_destroy(&s->lock);
	free(s);
	return ret;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The sampler's own cost: per monitor (start and stop samples, timed) and
 * per tick (the median of the first 1024 ticks, robust to the one tick a
 * page-in or a migration made slow).
 */
void sampler_stats(const struct sampler *s, struct sampler_stat **st,
		   size_t *n, struct sampler_ticks *ticks)
{
	uint64_t *sorted;
	size_t i, k;

	*st = xcalloc(s->n + 1, sizeof(**st));
	for (i = 0; i < s->n; i++) {
		(*st)[i].name = s->m[i].mi.ops->name;
		(*st)[i].samples = s->m[i].samples;
		(*st)[i].cpu_ns = s->m[i].cpu_ns;
		(*st)[i].periodic = s->m[i].period_ns != 0;
	}
	*n = s->n;
	memset(ticks, 0, sizeof(*ticks));
	ticks->n = s->ticks;
	ticks->cpu_ns = s->tick_cpu_ns;
	k = s->ticks < ARRAY_SIZE(s->tick_cpu) ? s->ticks : ARRAY_SIZE(s->tick_cpu);
	if (k) {
		sorted = xcalloc(k, sizeof(*sorted));
		memcpy(sorted, s->tick_cpu, k * sizeof(*sorted));
		qsort(sorted, k, sizeof(*sorted), cmp_u64);
		ticks->median_ns = sorted[k / 2];
		ticks->min_ns = sorted[0];
		free(sorted);
	}
}
