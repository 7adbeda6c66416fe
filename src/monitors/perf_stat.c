/*
 * perf_stat.c: the perf-stat monitor's parser -- `perf stat -I <ms> -x ,`
 * interval output (and the older space-separated form), spec/lkp-monitors.md
 * 2.10.  Per interval: `time:`, `i.<event>` per-second rates, derived
 * `i.` metrics (ipc, miss rates, MPKI, ...) and perf's own metric columns as
 * `i.metric.<Unit>`; at the end `ps.<event>` (total per second), `total.
 * instructions` and `overall.<metric>`.  Like LKP, the last interval of a
 * file is taken as incomplete and not flushed (quirk Q7: perf, killed at
 * the end of the test, may have printed it only in part), unless the file
 * says it is whole: perfsift's sampler ends its file with PS_END_LINE
 * after the interval it reads at stop, which ends when the run ends.  So
 * the run's final partial interval counts, and a run shorter than one
 * interval has its one interval, its `ps.*` and totals (LKP's parser
 * skips the line, as every line that is not a count).
 */
#include "util/compat.h"
#include <errno.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "util/timeutil.h"
#include "monitors/sampling.h"
#include "util/xalloc.h"

/*
 * The sampler's last line: the interval above it is whole (read at stop,
 * it ends with the run).  A comment, so LKP's parser skips it.
 */
#define PS_END_LINE "# perfsift: end of run"

struct ps_state {
	struct mon_kv events;  /* learned from the command line's -e */
	struct mon_kv cur;     /* this interval's sums, first-seen order */
	struct mon_kv metrics; /* this interval's perf metric columns */
	struct mon_kv total;   /* flushed intervals' sums */
	double cur_ts, prev_ts, last_ts;
	bool in_interval;
};

static void add_float(struct strbuf *out, const char *prefix, const char *key,
		      double v)
{
	strbuf_addf(out, "%s%s: ", prefix, key);
	mon_ruby_float(out, v);
	strbuf_addch(out, '\n');
}

static bool kv_get(const struct mon_kv *kv, const char *key, double *v)
{
	long i = mon_kv_find(kv, key);

	if (i < 0)
		return false;
	*v = kv->vals[i];
	return true;
}

/* LKP's derived metrics, from raw counts */
static void derived(const struct mon_kv *kv, const char *prefix,
		    struct strbuf *out)
{
	double cyc = 0, ins = 0, m, b;
	bool have_cyc = kv_get(kv, "cpu-cycles", &cyc) || kv_get(kv, "cycles", &cyc);
	bool have_ins = kv_get(kv, "instructions", &ins);
	char base[256];
	size_t i, n;

	if (have_cyc && have_ins && cyc != 0)
		add_float(out, prefix, "ipc", ins / cyc);
	if (have_cyc && have_ins && ins != 0)
		add_float(out, prefix, "cpi", cyc / ins);
	for (i = 0; i < kv->n; i++) {
		n = strlen(kv->keys[i]);
		if (n <= 7 || n > 200 || strcmp(kv->keys[i] + n - 7, "-misses"))
			continue;
		m = kv->vals[i];
		snprintf(base, sizeof(base), "%.*ss", (int)(n - 7), kv->keys[i]);
		if (kv_get(kv, base, &b)) {
			b += m;
		} else {
			snprintf(base, sizeof(base), "%.*s-references",
				 (int)(n - 7), kv->keys[i]);
			if (!kv_get(kv, base, &b)) {
				snprintf(base, sizeof(base), "%.*s-instructions",
					 (int)(n - 7), kv->keys[i]);
				if (!kv_get(kv, base, &b))
					continue;
			}
		}
		if (b != 0) {
			snprintf(base, sizeof(base), "%.*s-miss-rate%%",
				 (int)(n - 7), kv->keys[i]);
			add_float(out, prefix, base, m * 100 / b);
		}
		if (!strcmp(kv->keys[i], "cache-misses")) {
			if (have_cyc && m != 0)
				add_float(out, prefix, "cycles-between-cache-misses",
					  cyc / m);
			if (have_ins && ins != 0)
				add_float(out, prefix, "MPKI", m / ins * 1000);
		}
		if (!strcmp(kv->keys[i], "iTLB-load-misses") && have_ins && m != 0)
			add_float(out, prefix, "instructions-per-iTLB-miss", ins / m);
	}
}

static void flush_interval(struct ps_state *st, struct strbuf *out)
{
	double len = st->cur_ts - st->prev_ts;
	size_t i;

	strbuf_addstr(out, "time: ");
	mon_ruby_float(out, st->cur_ts);
	strbuf_addch(out, '\n');
	for (i = 0; i < st->cur.n; i++) {
		/* no rate over no time (a stamp that did not move) */
		if (len > 0)
			add_float(out, "i.", st->cur.keys[i],
				  st->cur.vals[i] / len);
		mon_kv_add(&st->total, st->cur.keys[i], st->cur.vals[i]);
	}
	derived(&st->cur, "i.", out);
	for (i = 0; i < st->metrics.n; i++)
		add_float(out, "i.metric.", st->metrics.keys[i],
			  st->metrics.vals[i]);
	mon_kv_clear(&st->cur);
	mon_kv_clear(&st->metrics);
	st->prev_ts = st->cur_ts;
}

static void learn_events(struct ps_state *st, const char *line)
{
	const char *e = strstr(line, " -e ");
	struct mon_fields f;
	size_t i, n;
	char *name;

	if (!e)
		return;
	e += 4;
	n = strcspn(e, " ");
	mon_fields_init(&f);
	{
		struct strbuf list = STRBUF_INIT;

		strbuf_add(&list, e, n);
		mon_fields_split(&f, list.buf, ",{}");
		strbuf_release(&list);
	}
	for (i = 0; i < f.n; i++) {
		name = f.v[i];
		mon_kv_slot(&st->events, name);
	}
	mon_fields_release(&f);
}

static bool mentions_event(const struct ps_state *st, const char *line)
{
	size_t i;

	if (!st->events.n)
		return true;
	for (i = 0; i < st->events.n; i++)
		if (strstr(line, st->events.keys[i]))
			return true;
	return false;
}

/* split at every ',' keeping empty fields */
static size_t split_csv(char *s, char **v, size_t max)
{
	size_t n = 0;

	while (n < max) {
		v[n++] = s;
		s = strchr(s, ',');
		if (!s)
			break;
		*s++ = '\0';
	}
	return n;
}

static bool is_metric_unit(const char *u)
{
	return isupper((unsigned char)u[0]) && !strpbrk(u, " \t");
}

DECLARE_PARSER(parse_perf_stat)
{
	struct ps_state st;
	struct mon_lines it;
	struct mon_fields f;
	struct strbuf event = STRBUF_INIT, unit = STRBUF_INIT;
	char *v[16];
	const char *ts_s, *val_s, *ev, *mval_s, *slash;
	double ts, val, mval;
	size_t n, i, lineno = 0;
	int ret = 0;

	(void)path;
	memset(&st, 0, sizeof(st));
	mon_lines_init(&it, raw, len);
	mon_fields_init(&f);
	while (mon_lines_next(&it)) {
		lineno++;
		if (!strcmp(it.line.buf, PS_END_LINE)) {
			if (st.in_interval)
				flush_interval(&st, out);
			st.in_interval = false;
			continue;
		}
		if (strstr(it.line.buf, " -e ")) {
			learn_events(&st, it.line.buf);
			continue;
		}
		if (!isdigit((unsigned char)it.line.buf[strspn(it.line.buf, " ")]))
			continue;
		if (!mentions_event(&st, it.line.buf)) {
			strbuf_addf(err, "%s:%zu: no known event in '%s'",
				    path ? path : "perf-stat", lineno, it.line.buf);
			ret = -1;
			goto out;
		}
		strbuf_reset(&unit);
		mval_s = NULL;
		if (strchr(it.line.buf, ',')) {
			n = split_csv(it.line.buf, v, ARRAY_SIZE(v));
			if (n < 4)
				continue;
			ts_s = v[0];
			val_s = v[1];
			ev = v[3];
			if (n >= 8) {
				mval_s = v[6];
				strbuf_addstr(&unit, v[7]);
			}
		} else {
			mon_fields_split(&f, it.line.buf, NULL);
			if (f.n < 3)
				continue;
			ts_s = f.v[0];
			val_s = f.v[1];
			ev = f.v[2];
			if (f.n >= 7) {
				mval_s = f.v[5];
				for (i = 6; i < f.n; i++) {
					if (i > 6)
						strbuf_addch(&unit, ' ');
					strbuf_addstr(&unit, f.v[i]);
				}
			}
		}
		if (!mon_is_number(ts_s) || !mon_is_number(val_s))
			continue;
		ts = strtod(ts_s, NULL);
		val = strtod(val_s, NULL);
		/* hybrid PMUs: cpu_atom/cpu-cycles/ counts as cpu-cycles */
		strbuf_reset(&event);
		slash = strchr(ev, '/');
		if (slash && ev[strlen(ev) - 1] == '/' && slash != ev + strlen(ev) - 1)
			strbuf_add(&event, slash + 1, strlen(slash + 1) - 1);
		else
			strbuf_addstr(&event, ev);
		if (st.in_interval && ts - st.cur_ts > 0.01)
			flush_interval(&st, out);
		st.in_interval = true;
		st.cur_ts = ts;
		if (ts > st.last_ts)
			st.last_ts = ts;
		mon_kv_add(&st.cur, event.buf, val);
		if (mval_s && unit.len && is_metric_unit(unit.buf) &&
		    mon_is_number(mval_s)) {
			mval = strtod(mval_s, NULL);
			mon_kv_add(&st.metrics, unit.buf, mval);
		}
	}
	if (st.total.n) {
		for (i = 0; i < st.total.n; i++)
			add_float(out, "ps.", st.total.keys[i],
				  st.last_ts > 0 ? st.total.vals[i] / st.last_ts : 0);
		if (kv_get(&st.total, "instructions", &val))
			add_float(out, "total.", "instructions", val);
		derived(&st.total, "overall.", out);
	}
out:
	strbuf_release(&unit);
	strbuf_release(&event);
	mon_kv_release(&st.events);
	mon_kv_release(&st.cur);
	mon_kv_release(&st.metrics);
	mon_kv_release(&st.total);
	mon_fields_release(&f);
	mon_lines_release(&it);
	return ret;
}

/* ------------------------------------------------------------- sampling */

/*
 * Counting through perf_event_open, system wide (one counter per event and
 * CPU), read every interval and written as `perf stat -I -x ,` CSV after
 * an echo of the equivalent command line (the parser learns the event list
 * from its -e).  Hardware events are tried first; where the machine has no
 * PMU they cannot be opened and only the software events are counted.
 */
struct ps_event_def {
	const char *name;
	uint32_t type;
	uint64_t config;
	unsigned group; /* index into ps_src.g */
	bool named_only; /* counted only when `events:` names it */
};

/* a generalised cache event: cache, operation, result */
#define PS_HWC(c, op, res)                                                     \
	(PERF_COUNT_HW_CACHE_##c | (PERF_COUNT_HW_CACHE_OP_##op << 8) |        \
	 (PERF_COUNT_HW_CACHE_RESULT_##res << 16))
#define PS_HW(name, cfg, group)                                                \
	{name, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##cfg, group, false}
#define PS_SW(name, cfg) {name, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##cfg, 7, false}
/*
 * A software event counted only when named: the fault events.  The kernel
 * updates a counting page-fault event on every fault, twice a fault with
 * page-faults and minor-faults, which on a fault-bound benchmark (vm-
 * scalability's anon-r-seq) raised the workload's system time by several
 * per cent (docs/performance.md "monitors"); proc-vmstat's pgfault and
 * pgmajfault give the same counts for free.
 */
#define PS_SW_NAMED(name, cfg) {name, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##cfg, 7, true}
/* an access count and its misses, one group */
#define PS_PAIR(access, misses, c, op, group)                                  \
	{access, PERF_TYPE_HW_CACHE, PS_HWC(c, op, ACCESS), group, false},     \
	{misses, PERF_TYPE_HW_CACHE, PS_HWC(c, op, MISS), group, false}

/*
 * LKP's default events and groups: {cycles, instructions, cache refs and
 * misses}, {branches, branch misses} (fits a PMU of 4 generic counters),
 * then each TLB and node pair, then the software events (the fault events
 * only when named).
 */
static const struct ps_event_def ps_defs[] = {
	PS_HW("cpu-cycles", CPU_CYCLES, 0),
	PS_HW("instructions", INSTRUCTIONS, 0),
	PS_HW("cache-references", CACHE_REFERENCES, 0),
	PS_HW("cache-misses", CACHE_MISSES, 0),
	PS_HW("branch-instructions", BRANCH_INSTRUCTIONS, 1),
	PS_HW("branch-misses", BRANCH_MISSES, 1),
	PS_PAIR("dTLB-loads", "dTLB-load-misses", DTLB, READ, 2),
	PS_PAIR("dTLB-stores", "dTLB-store-misses", DTLB, WRITE, 3),
	PS_PAIR("iTLB-loads", "iTLB-load-misses", ITLB, READ, 4),
	PS_PAIR("node-loads", "node-load-misses", NODE, READ, 5),
	PS_PAIR("node-stores", "node-store-misses", NODE, WRITE, 6),
	PS_SW("cpu-clock", CPU_CLOCK),
	PS_SW("task-clock", TASK_CLOCK),
	PS_SW_NAMED("page-faults", PAGE_FAULTS),
	PS_SW("context-switches", CONTEXT_SWITCHES),
	PS_SW("cpu-migrations", CPU_MIGRATIONS),
	PS_SW_NAMED("minor-faults", PAGE_FAULTS_MIN),
	PS_SW_NAMED("major-faults", PAGE_FAULTS_MAJ),
};
#define PS_NGROUPS 8

/*
 * The counters of one group form one perf group per CPU, read with
 * PERF_FORMAT_GROUP: one read() -- one cross-CPU call, costly in a VM --
 * per group and CPU instead of one per event and CPU.  A group's members
 * count together or not at all (a PMU without the event leaves it out).
 */
struct ps_group {
	const struct ps_event_def **ev; /* members, leader first */
	size_t n;
	int *fd;          /* ncpu x n */
	uint64_t *last;   /* ncpu x (2 + n): enabled, running, values */
};

struct ps_src {
	struct ps_group g[PS_NGROUPS]; /* ps_defs' groups */
	int ncpu;
	uint64_t t0;
	bool header_done;
	uint64_t *buf;
};

static void ps_close(struct mon_inst *mi)
{
	struct ps_src *s = mi->priv;
	size_t i, k;

	if (!s)
		return;
	for (i = 0; i < ARRAY_SIZE(s->g); i++) {
		for (k = 0; s->g[i].fd && k < (size_t)s->ncpu * ARRAY_SIZE(ps_defs); k++)
			if (s->g[i].fd[k] >= 0)
				close(s->g[i].fd[k]);
		free(s->g[i].fd);
		free(s->g[i].last);
		free(s->g[i].ev);
	}
	free(s->buf);
	FREE_AND_NULL(mi->priv);
}

static bool ps_wanted(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while ((p = strstr(p, name))) {
		if ((p == list || strchr(",{} ", p[-1])) && strchr(",{} ", p[n]))
			return true;
		p += n;
	}
	return false;
}

static int ps_open_one(const struct ps_event_def *def, int cpu, int leader)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = def->type;
	attr.config = def->config;
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* a group counts only when started as one (ps_open enables it) */
	attr.disabled = leader < 0;
	return (int)syscall(SYS_perf_event_open, &attr, -1, cpu, leader,
			    PERF_FLAG_FD_CLOEXEC);
}

static int ps_open(struct mon_inst *mi, struct strbuf *why)
{
	struct ps_src *s = xcalloc(1, sizeof(*s));
	const char *events = mon_param(mi, "events");
	struct ps_group *g;
	size_t i, gi, k, total = 0;
	int cpu, fd, last_errno = ENOENT;

	s->ncpu = mon_nr_cpus(mi->sysroot);
	mi->priv = s;
	for (gi = 0; gi < ARRAY_SIZE(s->g); gi++) {
		g = &s->g[gi];
		g->ev = xcalloc(ARRAY_SIZE(ps_defs), sizeof(*g->ev));
		g->fd = xcalloc((size_t)s->ncpu * ARRAY_SIZE(ps_defs), sizeof(*g->fd));
		for (i = 0; i < (size_t)s->ncpu * ARRAY_SIZE(ps_defs); i++)
			g->fd[i] = -1;
		/* members are added one by one; one that will not open is left out */
		for (i = 0; i < ARRAY_SIZE(ps_defs); i++) {
			if (ps_defs[i].group != gi ||
			    (events ? !ps_wanted(events, ps_defs[i].name)
				    : ps_defs[i].named_only))
				continue;
			for (cpu = 0; cpu < s->ncpu; cpu++) {
				int leader = g->n ? g->fd[(size_t)cpu * ARRAY_SIZE(ps_defs)] : -1;

				fd = ps_open_one(&ps_defs[i], cpu, leader);
				if (fd < 0) {
					last_errno = errno;
					break;
				}
				g->fd[(size_t)cpu * ARRAY_SIZE(ps_defs) + g->n] = fd;
			}
			if (cpu < s->ncpu) {
				while (cpu-- > 0) {
					k = (size_t)cpu * ARRAY_SIZE(ps_defs) + g->n;
					close(g->fd[k]);
					g->fd[k] = -1;
				}
				continue;
			}
			g->ev[g->n++] = &ps_defs[i];
		}
		g->last = xcalloc((size_t)s->ncpu * (2 + ARRAY_SIZE(ps_defs)),
				  sizeof(*g->last));
		total += g->n;
	}
	if (!total) {
		strbuf_addf(why, "no perf event can be opened: %s",
			    strerror(last_errno));
		ps_close(mi);
		return -1;
	}
	for (gi = 0; gi < ARRAY_SIZE(s->g); gi++)
		for (cpu = 0; s->g[gi].n && cpu < s->ncpu; cpu++)
			ioctl(s->g[gi].fd[(size_t)cpu * ARRAY_SIZE(ps_defs)],
			      PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	s->buf = xcalloc(3 + ARRAY_SIZE(ps_defs), sizeof(*s->buf));
	s->t0 = time_mono_ns();
	return 0;
}

static int ps_sample(struct mon_inst *mi, struct strbuf *out, bool final)
{
	struct ps_src *s = mi->priv;
	double ts = (double)(time_mono_ns() - s->t0) / 1e9;
	double val[ARRAY_SIZE(ps_defs)], en, run, d_en, d_run;
	size_t gi, k, stride = 2 + ARRAY_SIZE(ps_defs);
	size_t want = (3 + ARRAY_SIZE(ps_defs)) * sizeof(uint64_t);
	bool baseline = !s->header_done;
	struct ps_group *g;
	uint64_t *last;
	ssize_t n;
	int cpu;

	if (baseline) {
		strbuf_addf(out, "perf stat -a --scale -I %.0f -x , -e ",
			    mi->interval * 1000);
		for (gi = 0, n = 0; gi < ARRAY_SIZE(s->g); gi++)
			for (k = 0; k < s->g[gi].n; k++, n++)
				strbuf_addf(out, "%s%s", n ? "," : "",
					    s->g[gi].ev[k]->name);
		strbuf_addstr(out, " --log-fd 1 -D 0 -- perfsift\n");
		s->header_done = true;
	}
	for (gi = 0; gi < ARRAY_SIZE(s->g); gi++) {
		g = &s->g[gi];
		if (!g->n)
			continue;
		memset(val, 0, sizeof(val));
		en = run = 0;
		for (cpu = 0; cpu < s->ncpu; cpu++) {
			n = read(g->fd[(size_t)cpu * ARRAY_SIZE(ps_defs)], s->buf, want);
			if (n < (ssize_t)((3 + g->n) * sizeof(uint64_t)))
				continue;
			last = &g->last[(size_t)cpu * stride];
			d_en = (double)(s->buf[1] - last[0]);
			d_run = (double)(s->buf[2] - last[1]);
			for (k = 0; k < g->n; k++) {
				double d = (double)(s->buf[3 + k] - last[2 + k]);

				/* --scale: a multiplexed count stands for the whole time */
				if (d_run > 0 && d_en > d_run)
					d = d * d_en / d_run;
				val[k] += d;
				last[2 + k] = s->buf[3 + k];
			}
			last[0] = s->buf[1];
			last[1] = s->buf[2];
			en += d_en;
			run += d_run;
		}
		if (baseline)
			continue;
		for (k = 0; k < g->n; k++) {
			const struct ps_event_def *def = g->ev[k];
			bool clock = def->type == PERF_TYPE_SOFTWARE &&
				     (def->config == PERF_COUNT_SW_CPU_CLOCK ||
				      def->config == PERF_COUNT_SW_TASK_CLOCK);

			if (clock)
				strbuf_addf(out, "%.9f,%.2f,msec,%s,%.0f,%.2f,,\n",
					    ts, val[k] / 1e6, def->name, run,
					    en > 0 ? run * 100 / en : 100.0);
			else
				strbuf_addf(out, "%.9f,%.0f,,%s,%.0f,%.2f,,\n", ts,
					    val[k], def->name, run,
					    en > 0 ? run * 100 / en : 100.0);
		}
	}
	/* read at stop, the interval ends with the run: it is whole */
	if (final && !baseline)
		strbuf_addstr(out, PS_END_LINE "\n");
	return 0;
}

const struct monitor_sampling sampling_perf_stat = {
	1, true, ps_open, ps_sample, ps_close,
};
