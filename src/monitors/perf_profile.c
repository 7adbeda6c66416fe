/*
 * perf_profile.c: the perf-profile monitor's parser -- `perf report
 * --children --header -g folded` text (spec/lkp-monitors.md 2.9).  Entry
 * lines give `children.<ev>.<sym>` and `self.<ev>.<sym>`, folded call
 * chains `calltrace.<ev>.<first five frames>`; values are % of samples,
 * `%.2f`, those under 0.05 dropped, keys sorted.  <ev> is the event in the
 * `# Samples: ... of event 'X'` header with ':' made '-' (cycles-pp,
 * cpu-clock-pp).  A `# legacy_keys: 1` header line (perfsift's sampler
 * writes it) also yields the pre-2016 `<ev>.<frames>` form of each chain.
 * The sampler below records system-wide call chains with perf_event_open
 * in LKP's window (`delay`, `duration`) and writes that report at stop.
 */
#include "util/compat.h"
#include <errno.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "util/sorted.h"
#include "util/strnum.h"
#include "util/timeutil.h"
#include "util/xalloc.h"
#include "monitors/perf_profile.h"
#include "monitors/sampling.h"
#include "monitors/usersym.h"
#include "job/job.h"

/* drop .isra.N, .constprop.N and .part.N (compiler clones) */
static void normalise_sym(struct strbuf *sb, const char *sym, size_t len)
{
	static const char *const sfx[] = {".isra.", ".constprop.", ".part."};
	size_t i, j, start = sb->len, k;

	strbuf_add(sb, sym, len);
	for (i = start; i < sb->len; i++) {
		for (j = 0; j < ARRAY_SIZE(sfx); j++) {
			k = strlen(sfx[j]);
			if (i + k < sb->len && !strncmp(sb->buf + i, sfx[j], k) &&
			    isdigit((unsigned char)sb->buf[i + k])) {
				size_t e = i + k;

				while (e < sb->len && isdigit((unsigned char)sb->buf[e]))
					e++;
				memmove(sb->buf + i, sb->buf + e, sb->len - e + 1);
				sb->len -= e - i;
				i--;
				break;
			}
		}
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool parse_pct(const char *s, double *v, const char **end)
{
	char *e;

	*v = strtod(s, &e);
	if (e == s || *e != '%')
		return false;
	*end = e + 1;
	return true;
}

DECLARE_PARSER(parse_perf_profile)
{
	struct mon_lines it;
	struct mon_kv kv;
	struct strbuf ev = STRBUF_INIT, key = STRBUF_INIT;
	const char *p, *q, *e;
	double c, s;
	bool first = true, legacy = false;
	size_t i, nframes, *order = NULL;
	char **sorted = NULL;

	(void)path;
	(void)err;
	mon_kv_init(&kv);
	mon_lines_init(&it, raw, len);
	strbuf_addstr(&ev, "cycles-pp");
	while (mon_lines_next(&it)) {
		const char *l = it.line.buf;

		if (first) {
			first = false;
			if (strcmp(l, "# ========") && !strstr(l, "--header"))
				break;
		}
		if (l[0] == '#') {
			if (mon_has_prefix(l, "# legacy_keys: 1"))
				legacy = true;
			p = NULL;
			if (mon_has_prefix(l, "# Samples: "))
				p = strstr(l, " of event ");
			else if (mon_has_prefix(l, "# Events: "))
				p = strstr(l, " ");
			if (p && (p = strstr(l, " of event ")) != NULL) {
				p += strlen(" of event ");
				strbuf_reset(&ev);
				for (; *p; p++) {
					if (*p == '\'' || *p == '"')
						continue;
					strbuf_addch(&ev, *p == ':' ? '-' : *p);
				}
				strbuf_trim(&ev);
			}
			continue;
		}
		p = l + strspn(l, " ");
		if (!parse_pct(p, &c, &e))
			continue;
		if (p != l) {
			/* entry: children% self% dso [x] symbol */
			q = e + strspn(e, " ");
			if (!parse_pct(q, &s, &e))
				continue;
			/* the symbol follows "[k] " or "[.] " */
			for (q = strchr(e, '['); q && !(q[1] && q[2] == ']' && q[3] == ' ');)
				q = strchr(q + 1, '[');
			if (!q)
				continue;
			q += 4;
			q += strspn(q, " ");
			strbuf_reset(&key);
			strbuf_addf(&key, "children.%s.", ev.buf);
			normalise_sym(&key, q, strcspn(q, " "));
			mon_kv_add(&kv, key.buf, c);
			strbuf_reset(&key);
			strbuf_addf(&key, "self.%s.", ev.buf);
			normalise_sym(&key, q, strcspn(q, " "));
			mon_kv_add(&kv, key.buf, s);
			continue;
		}
		/* folded chain: pct% callee;caller;... */
		q = e + strspn(e, " ");
		strbuf_reset(&key);
		strbuf_addf(&key, "calltrace.%s", ev.buf);
		for (nframes = 0; *q && nframes < 5; nframes++) {
			size_t n = strcspn(q, ";");

			strbuf_addch(&key, '.');
			normalise_sym(&key, q, n);
			q += n;
			if (*q == ';')
				q++;
		}
		mon_kv_add(&kv, key.buf, c);
		if (legacy)
			mon_kv_add(&kv, key.buf + strlen("calltrace."), c);
	}
	sorted = xcalloc(kv.n + 1, sizeof(*sorted));
	for (i = 0; i < kv.n; i++)
		sorted[i] = kv.keys[i];
	qsort(sorted, kv.n, sizeof(*sorted), cmp_str);
	for (i = 0; i < kv.n; i++) {
		s = kv.vals[mon_kv_find(&kv, sorted[i])];
		if (s >= 0.05)
			strbuf_addf(out, "%s: %.2f\n", sorted[i], s);
	}
	free(sorted);
	free(order);
	strbuf_release(&key);
	strbuf_release(&ev);
	mon_lines_release(&it);
	mon_kv_release(&kv);
	return 0;
}

/* ------------------------------------------------------------- sampling */

/*
 * System-wide sampling through perf_event_open: cycles (precise if the PMU
 * allows) where there is a PMU, cpu-clock where there is none, with kernel
 * call chains, one ring buffer per CPU drained on the sampler's clock.
 * Frames are named from /proc/kallsyms as they arrive; at stop the samples
 * are written as `perf report --children -g folded` text, the raw format
 * LKP's parser reads.  User-space call chains are not unwound, but a
 * sample taken in user mode is named after the function it hit: the
 * events also report the processes' mappings (PERF_RECORD_MMAP2, FORK,
 * an exec's COMM; /proc/PID/maps for a process older than the window),
 * and at stop -- while the binaries still exist -- each user address is
 * looked up in the ELF symbol table of the file mapped there (usersym.h).
 * Without that a user-space benchmark was ~80% `[unknown]`.
 */
#define PP_PAGES 64 /* data pages per CPU ring (a power of two) */
#define PP_MAX_FRAMES 128

struct pp_sym {
	uint64_t addr;
	char *name;
};

/* a sample taken in user mode: resolved at stop (usersym_resolve) */
struct pp_user {
	uint32_t pid;
	uint64_t ip, t;
};

struct pp_cpu {
	int fd;
	void *map;
	size_t map_len;
};

struct pp_src {
	struct pp_cpu *cpu;
	int ncpu;
	struct pp_sym *syms;
	size_t nsyms;
	struct mon_kv chains; /* "sym;caller;..." -> samples */
	uint64_t samples, lost, period;
	uint64_t sample_period; /* as opened: events (cycles) or ns (cpu-clock) */
	char event[32];       /* "cpu-clock:pp" */
	bool legacy;
	bool on;              /* the events are enabled */
	bool timed;           /* samples carry CLOCK_MONOTONIC stamps */
	uint64_t start_ns, stop_ns; /* the window (CLOCK_MONOTONIC) */
	uint64_t tick_ns;     /* the sampler's period */
	double delay, duration;     /* seconds; duration 0: to the end */
	struct strbuf chain;
	unsigned char *tmp;   /* a record that wraps the ring's end */
	struct usersym us;    /* the processes' mappings */
	struct pp_user *user; /* the user-mode samples */
	size_t nuser, alloc_user;
	char **udso;          /* a user symbol, then its file's base name */
	size_t nudso, alloc_udso;
	char *sysroot;
};

static int pp_cmp_sym(const void *a, const void *b)
{
	const struct pp_sym *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

static int pp_load_kallsyms(struct pp_src *s, const char *sysroot,
			    struct strbuf *why)
{
	struct strbuf path = STRBUF_INIT, line = STRBUF_INIT;
	size_t alloc = 0;
	unsigned long long addr;
	char type, name[256];
	FILE *fp;

	mon_path(&path, sysroot, "proc/kallsyms");
	fp = fopen(path.buf, "re");
	if (!fp) {
		strbuf_addf(why, "cannot open '%s': %s", path.buf, strerror(errno));
		strbuf_release(&path);
		return -1;
	}
	while (strbuf_getline(&line, fp) != EOF) {
		if (sscanf(line.buf, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if (!addr)
			continue;
		ALLOC_GROW(s->syms, s->nsyms + 1, alloc);
		s->syms[s->nsyms].addr = addr;
		s->syms[s->nsyms].name = xstrdup(name);
		s->nsyms++;
	}
	fclose(fp);
	strbuf_release(&line);
	strbuf_release(&path);
	if (!s->nsyms) {
		strbuf_addstr(why, "kernel symbols are hidden (kptr_restrict)");
		return -1;
	}
	qsort(s->syms, s->nsyms, sizeof(*s->syms), pp_cmp_sym);
	return 0;
}

/* "elem sorts before key" is "the symbol starts at or before ip" */
static int cmp_sym_ip(const void *key, const void *elem)
{
	return ((const struct pp_sym *)elem)->addr <= *(const uint64_t *)key ? 1 : -1;
}

/*
 * The symbol ip falls in: the last one starting at or before it (the
 * symbols are sorted by address and a symbol runs to the next one's
 * start, as /proc/kallsyms gives no sizes).
 */
static const char *pp_symbol(const struct pp_src *s, uint64_t ip)
{
	size_t after;

	if (!s->nsyms || ip < s->syms[0].addr)
		return "[unknown]";
	after = sorted_lower_bound(&ip, s->syms, s->nsyms, sizeof(*s->syms),
				   cmp_sym_ip);
	return s->syms[after - 1].name;
}

static void pp_close(struct mon_inst *mi)
{
	struct pp_src *s = mi->priv;
	size_t i;
	int c;

	if (!s)
		return;
	for (c = 0; s->cpu && c < s->ncpu; c++) {
		if (s->cpu[c].map)
			munmap(s->cpu[c].map, s->cpu[c].map_len);
		if (s->cpu[c].fd >= 0)
			close(s->cpu[c].fd);
	}
	free(s->cpu);
	for (i = 0; i < s->nsyms; i++)
		free(s->syms[i].name);
	free(s->syms);
	usersym_release(&s->us);
	free(s->user);
	for (i = 0; i < s->nudso; i++)
		free(s->udso[i]);
	free(s->udso);
	free(s->sysroot);
	mon_kv_release(&s->chains);
	strbuf_release(&s->chain);
	free(s->tmp);
	FREE_AND_NULL(mi->priv);
}

/* open one CPU's sampling event: cycles:pp, :p, plain, then cpu-clock */
static int pp_open_cpu(struct pp_src *s, int cpu, double freq, int *kind)
{
	struct perf_event_attr attr;
	int fd, k;

	for (k = *kind; k < 4; k++) {
		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		if (k < 3) {
			attr.type = PERF_TYPE_HARDWARE;
			attr.config = PERF_COUNT_HW_CPU_CYCLES;
			attr.precise_ip = (unsigned)(2 - k);
			attr.sample_period = s->period ? s->period : 1000003;
		} else {
			attr.type = PERF_TYPE_SOFTWARE;
			attr.config = PERF_COUNT_SW_CPU_CLOCK;
			attr.sample_period = s->period ? s->period :
				(uint64_t)(1e9 / freq);
		}
		attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				   PERF_SAMPLE_CALLCHAIN;
		attr.exclude_callchain_user = 1;
		/* the mappings, to name user-mode samples at stop */
		attr.mmap = 1;
		attr.mmap2 = 1;
		attr.task = 1;
		attr.comm = 1;
		attr.comm_exec = 1;
		attr.sample_id_all = 1;
		attr.disabled = 1;
		attr.wakeup_events = 0;
		/* stamped on the sampler's clock, to cut the window exactly */
		if (s->timed) {
			attr.sample_type |= PERF_SAMPLE_TIME;
			attr.use_clockid = 1;
			attr.clockid = CLOCK_MONOTONIC;
		}
		fd = mon_perf_open(&attr, -1, cpu);
		if (fd < 0 && s->timed && errno == EINVAL && cpu == 0) {
			/* a kernel without use_clockid (before 4.1)? */
			attr.sample_type &= ~(uint64_t)PERF_SAMPLE_TIME;
			attr.use_clockid = 0;
			attr.clockid = 0;
			fd = mon_perf_open(&attr, -1, cpu);
			if (fd >= 0)
				s->timed = false;
		}
		if (fd >= 0) {
			*kind = k;
			s->sample_period = attr.sample_period;
			return fd;
		}
	}
	return -1;
}

/*
 * LKP profiles a window: `duration` (10 s) from `delay` (half the job's
 * runtime) on, so a long run pays the sampling cost for 10 s only.  A job
 * without a runtime is profiled whole (its length is unknown).
 */
static void pp_window(struct pp_src *s, const struct mon_inst *mi,
		      const struct pp_opts *o)
{
	double runtime = mon_job_seconds(mi, "runtime");
	uint64_t now = time_mono_ns();

	s->delay = o->delay_given ? o->delay : runtime > 0 ? runtime / 2 : 0;
	s->duration = o->duration_given ? o->duration : runtime > 0 ? 10 : 0;
	s->start_ns = now + (uint64_t)(s->delay * 1e9);
	s->stop_ns = s->duration > 0 ? s->start_ns + (uint64_t)(s->duration * 1e9) :
		     UINT64_MAX;
}

/*
 * Enable the events from the tick before the window on, disable them at
 * the first tick after it: the ticks fall where they fall (late, on a
 * loaded machine), and the samples' stamps cut the window exactly
 * (pp_record); without stamps the window is the ticks'.
 */
static void pp_switch(struct pp_src *s)
{
	uint64_t now = time_mono_ns();
	uint64_t lead = s->timed ? s->tick_ns : 0;
	bool want = now + lead >= s->start_ns && now < s->stop_ns;
	int c;

	if (want == s->on)
		return;
	for (c = 0; c < s->ncpu; c++)
		ioctl(s->cpu[c].fd, want ? PERF_EVENT_IOC_ENABLE :
			     PERF_EVENT_IOC_DISABLE, 0);
	s->on = want;
}

static int pp_open(struct mon_inst *mi, struct strbuf *why)
{
	static const char *const names[] = {"cycles:pp", "cycles:p", "cycles", "cpu-clock:pp"};
	struct pp_src *s = xcalloc(1, sizeof(*s));
	struct pp_opts o;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	double freq;
	int c, kind = 0;

	mi->priv = s;
	usersym_init(&s->us);
	s->sysroot = xstrdup(mi->sysroot ? mi->sysroot : "");
	mon_kv_init(&s->chains);
	strbuf_init(&s->chain, 256);
	mon_params(mi, &o);
	s->legacy = o.legacy_keys;
	s->timed = true;
	s->tick_ns = (uint64_t)(mi->interval * 1e9);
	s->period = o.period;
	freq = (double)o.freq;
	s->ncpu = mon_nr_cpus(mi->sysroot);
	s->cpu = xcalloc((size_t)s->ncpu, sizeof(*s->cpu));
	for (c = 0; c < s->ncpu; c++)
		s->cpu[c].fd = -1;
	if (pp_load_kallsyms(s, mi->sysroot, why))
		goto fail;
	for (c = 0; c < s->ncpu; c++) {
		s->cpu[c].fd = pp_open_cpu(s, c, freq, &kind);
		if (s->cpu[c].fd < 0) {
			strbuf_addf(why, "cannot sample cpu%d: %s", c, strerror(errno));
			goto fail;
		}
		s->cpu[c].map_len = (1 + PP_PAGES) * page;
		s->cpu[c].map = mmap(NULL, s->cpu[c].map_len, PROT_READ | PROT_WRITE,
				     MAP_SHARED, s->cpu[c].fd, 0);
		if (s->cpu[c].map == MAP_FAILED) {
			s->cpu[c].map = NULL;
			strbuf_addf(why, "cannot map the cpu%d ring: %s", c,
				    strerror(errno));
			goto fail;
		}
	}
	snprintf(s->event, sizeof(s->event), "%s", names[kind]);
	s->tmp = xmalloc(65536);
	pp_window(s, mi, &o);
	pp_switch(s);
	return 0;
fail:
	pp_close(mi);
	return -1;
}

/* a u32 / u64 field of a record at byte offset off */
static uint32_t rec_u32(const unsigned char *rec, size_t off)
{
	uint32_t v;

	memcpy(&v, rec + off, 4);
	return v;
}

static uint64_t rec_u64(const unsigned char *rec, size_t off)
{
	uint64_t v;

	memcpy(&v, rec + off, 8);
	return v;
}

/*
 * The mapping records (sample_id_all: a timed record ends in its time):
 * MMAP2 pid, tid, addr, len, pgoff, maj, min, ino, ino_generation, prot,
 * flags, filename; FORK pid, ppid, tid, ptid, time; COMM pid, tid, comm.
 */
static bool pp_task_record(struct pp_src *s, const unsigned char *rec,
			   size_t size)
{
	const struct perf_event_header *h = (const void *)rec;
	uint64_t t = s->timed && size >= 16 ? rec_u64(rec, size - 8) : 0;
	struct strbuf file = STRBUF_INIT;

	switch (h->type) {
	case PERF_RECORD_MMAP2:
		if (size < 73 || (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID))
			return true;
		strbuf_add(&file, rec + 72, strnlen((const char *)rec + 72, size - 72));
		usersym_mmap(&s->us, rec_u32(rec, 8), rec_u64(rec, 16),
			     rec_u64(rec, 24), rec_u64(rec, 32), rec_u64(rec, 48),
			     t, file.buf);
		strbuf_release(&file);
		return true;
	case PERF_RECORD_FORK:
		/* a new process (pid == tid), not a thread */
		if (size >= 32 && rec_u32(rec, 8) == rec_u32(rec, 16))
			usersym_fork(&s->us, rec_u32(rec, 8), rec_u32(rec, 12),
				     rec_u64(rec, 24));
		return true;
	case PERF_RECORD_COMM:
		if (size >= 16 && (h->misc & PERF_RECORD_MISC_COMM_EXEC))
			usersym_exec(&s->us, rec_u32(rec, 8), t);
		return true;
	default:
		return false;
	}
}

static void pp_record(struct pp_src *s, const unsigned char *rec, size_t size)
{
	const struct perf_event_header *h = (const void *)rec;
	size_t off = s->timed ? 8 : 0;
	uint64_t nr, ip, i, t = 0;
	const uint64_t *ips;
	size_t nframes = 0;

	if (h->type == PERF_RECORD_LOST && size >= sizeof(*h) + 16) {
		memcpy(&nr, rec + sizeof(*h) + 8, 8);
		s->lost += nr;
		return;
	}
	if (pp_task_record(s, rec, size))
		return;
	if (h->type != PERF_RECORD_SAMPLE || size < sizeof(*h) + 24 + off)
		return;
	/* ip, pid/tid, [time,] nr, ips[nr] */
	if (s->timed) {
		t = rec_u64(rec, sizeof(*h) + 16);
		if (t < s->start_ns || t >= s->stop_ns)
			return; /* enabled a tick early or switched off late */
	}
	memcpy(&nr, rec + sizeof(*h) + 16 + off, 8);
	if (sizeof(*h) + 24 + off + nr * 8 > size)
		return;
	ips = (const uint64_t *)(const void *)(rec + sizeof(*h) + 24 + off);
	s->samples++;
	strbuf_reset(&s->chain);
	for (i = 0; i < nr && nframes < PP_MAX_FRAMES; i++) {
		memcpy(&ip, &ips[i], 8);
		if (ip >= (uint64_t)PERF_CONTEXT_MAX)
			continue; /* a context marker */
		if (nframes++)
			strbuf_addch(&s->chain, ';');
		strbuf_addstr(&s->chain, pp_symbol(s, ip));
	}
	if (!nframes && (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
	    PERF_RECORD_MISC_USER) {
		struct pp_user *u;

		/* named at stop; the mappings of an older process now,
		 * while it runs */
		ALLOC_GROW(s->user, s->nuser + 1, s->alloc_user);
		u = &s->user[s->nuser++];
		u->pid = rec_u32(rec, sizeof(*h) + 8);
		u->ip = rec_u64(rec, sizeof(*h));
		u->t = t;
		usersym_need_proc(&s->us, s->sysroot, u->pid);
		return;
	}
	if (!nframes)
		strbuf_addstr(&s->chain, "[unknown]");
	mon_kv_add(&s->chains, s->chain.buf, 1);
}

/* the base name of the file a user symbol was found in, or NULL */
static const char *pp_user_dso(const struct pp_src *s, const char *sym)
{
	size_t i;

	for (i = 0; i + 1 < s->nudso; i += 2)
		if (!strcmp(s->udso[i], sym))
			return s->udso[i + 1];
	return NULL;
}

/*
 * The user-mode samples named: the function in the file mapped at the
 * address, `[unknown]` where no mapping or symbol covers it (a stripped
 * library, JIT code).  Each symbol's file is kept for the report's
 * Shared Object column.
 */
static void pp_name_user(struct pp_src *s)
{
	size_t i;

	for (i = 0; i < s->nuser; i++) {
		const struct pp_user *u = &s->user[i];
		const char *dso = NULL;
		const char *name = usersym_resolve(&s->us, u->pid, u->ip, u->t,
						   &dso);

		strbuf_reset(&s->chain);
		if (name)
			normalise_sym(&s->chain, name, strlen(name));
		else
			strbuf_addstr(&s->chain, "[unknown]");
		if (name && !pp_user_dso(s, s->chain.buf)) {
			const char *slash = strrchr(dso, '/');

			ALLOC_GROW(s->udso, s->nudso + 2, s->alloc_udso);
			s->udso[s->nudso++] = xstrdup(s->chain.buf);
			s->udso[s->nudso++] = xstrdup(slash ? slash + 1 : dso);
		}
		mon_kv_add(&s->chains, s->chain.buf, 1);
	}
	s->nuser = 0;
}

static void pp_drain(struct pp_src *s)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), size = PP_PAGES * page;
	struct perf_event_mmap_page *meta;
	struct perf_event_header h;
	unsigned char *data;
	uint64_t head, tail;
	size_t off, first;
	int c;

	for (c = 0; c < s->ncpu; c++) {
		meta = s->cpu[c].map;
		data = (unsigned char *)s->cpu[c].map + page;
		head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
		tail = meta->data_tail;
		while (tail + sizeof(h) <= head) {
			off = (size_t)(tail % size);
			first = size - off;
			if (first >= sizeof(h)) {
				memcpy(&h, data + off, sizeof(h));
			} else {
				memcpy(&h, data + off, first);
				memcpy((unsigned char *)&h + first, data, sizeof(h) - first);
			}
			if (!h.size || tail + h.size > head)
				break;
			if (first >= h.size) {
				pp_record(s, data + off, h.size);
			} else {
				memcpy(s->tmp, data + off, first);
				memcpy(s->tmp + first, data, h.size - first);
				pp_record(s, s->tmp, h.size);
			}
			tail += h.size;
		}
		__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
	}
}

struct pp_entry {
	const char *sym;
	double children, self;
};

static int pp_cmp_entry(const void *a, const void *b)
{
	const struct pp_entry *x = a, *y = b;

	if (x->children != y->children)
		return x->children < y->children ? 1 : -1;
	return strcmp(x->sym, y->sym);
}

/* does the ';'-separated chain contain sym as a frame?  offset or -1 */
static long frame_at(const char *chain, const char *sym)
{
	size_t n = strlen(sym);
	const char *p = chain;

	while ((p = strstr(p, sym))) {
		if ((p == chain || p[-1] == ';') && (p[n] == ';' || !p[n]))
			return p - chain;
		p += n;
	}
	return -1;
}

static void pp_report(struct pp_src *s, struct strbuf *out)
{
	struct mon_kv syms, folded;
	struct pp_entry *e;
	double total = (double)s->samples, min = total * 0.0005;
	size_t i, j, n;
	long at;
	time_t now = time(NULL);
	struct tm tm;
	char date[64], window[64], rate[64];
	const char *p;

	mon_kv_init(&syms);
	mon_kv_init(&folded);
	if (s->duration > 0)
		snprintf(window, sizeof(window), "%g s", s->duration);
	else
		snprintf(window, sizeof(window), "the rest of the run");
	/* the rate, so a reader knows what the sample counts stand for */
	if (!strncmp(s->event, "cpu-clock", 9))
		snprintf(rate, sizeof(rate), "%g Hz per CPU",
			 s->sample_period ? 1e9 / (double)s->sample_period : 0);
	else
		snprintf(rate, sizeof(rate), "every %" PRIu64 " events", s->sample_period);
	strftime(date, sizeof(date), "%a %b %e %H:%M:%S %Y", gmtime_r(&now, &tm));
	strbuf_addf(out, "# ========\n# captured on: %s\n"
		    "# perfsift perf-profile: perf_event_open, system wide, kernel call chains, from %g s for %s\n"
		    "# perfsift sampling: %s\n"
		    "# legacy_keys: %d\n# ========\n#\n#\n"
		    "# Total Lost Samples: %" PRIu64 "\n#\n"
		    "# Samples: %" PRIu64 " of event '%s'\n#\n"
		    "# Children      Self  Shared Object        Symbol\n"
		    "# ........  ........  ...................  ..............................................\n#\n",
		    date, s->delay, window, rate, s->legacy ? 1 : 0, s->lost, s->samples,
		    s->event);
	if (!s->samples)
		goto out;
	/* children: samples whose chain has the symbol; self: as the leaf */
	for (i = 0; i < s->chains.n; i++) {
		const char *ch = s->chains.keys[i];
		double cnt = s->chains.vals[i];
		struct mon_kv once;

		mon_kv_init(&once);
		for (p = ch; *p; p += n + (p[n] == ';')) {
			n = strcspn(p, ";");
			strbuf_reset(&s->chain);
			strbuf_add(&s->chain, p, n);
			if (mon_kv_find(&once, s->chain.buf) >= 0)
				continue;
			mon_kv_slot(&once, s->chain.buf);
			mon_kv_add(&syms, s->chain.buf, 0);
		}
		for (j = 0; j < once.n; j++)
			syms.vals[mon_kv_find(&syms, once.keys[j])] += cnt;
		mon_kv_release(&once);
	}
	e = xcalloc(syms.n + 1, sizeof(*e));
	for (i = 0; i < syms.n; i++) {
		e[i].sym = syms.keys[i];
		e[i].children = syms.vals[i];
	}
	for (i = 0; i < s->chains.n; i++) {
		n = strcspn(s->chains.keys[i], ";");
		for (j = 0; j < syms.n; j++)
			if (strlen(e[j].sym) == n &&
			    !strncmp(e[j].sym, s->chains.keys[i], n)) {
				e[j].self += s->chains.vals[i];
				break;
			}
	}
	qsort(e, syms.n, sizeof(*e), pp_cmp_entry);
	for (i = 0; i < syms.n; i++) {
		if (e[i].children < min)
			break;
		const char *dso = pp_user_dso(s, e[i].sym);

		if (!dso)
			dso = strcmp(e[i].sym, "[unknown]") ? "[kernel.kallsyms]" :
			      "[unknown]";
		strbuf_addf(out, "    %5.2f%%    %5.2f%%  %-19s  [%c] %s\n",
			    e[i].children * 100 / total, e[i].self * 100 / total,
			    dso, strcmp(dso, "[kernel.kallsyms]") ? '.' : 'k',
			    e[i].sym);
		/* the chains from this symbol up to its callers, callee first */
		mon_kv_clear(&folded);
		for (j = 0; j < s->chains.n; j++) {
			at = frame_at(s->chains.keys[j], e[i].sym);
			if (at >= 0)
				mon_kv_add(&folded, s->chains.keys[j] + at,
					   s->chains.vals[j]);
		}
		for (j = 0; j < folded.n; j++)
			if (folded.vals[j] * 100 / total >= 0.5)
				strbuf_addf(out, "%.2f%% %s\n",
					    folded.vals[j] * 100 / total,
					    folded.keys[j]);
	}
	free(e);
out:
	mon_kv_release(&folded);
	mon_kv_release(&syms);
}

static int pp_sample(struct mon_inst *mi, struct strbuf *out, bool final)
{
	struct pp_src *s = mi->priv;
	int c;

	if (final)
		for (c = 0; c < s->ncpu; c++)
			ioctl(s->cpu[c].fd, PERF_EVENT_IOC_DISABLE, 0);
	else
		pp_switch(s);
	pp_drain(s);
	if (final) {
		pp_name_user(s);
		pp_report(s, out);
	}
	return 0;
}

/*
 * drained every half second (and switched on and off at the window's
 * ends): a 256 KiB ring per CPU holds about one second
 */
const struct monitor_sampling sampling_perf_profile = {
	0.5, true, pp_open, pp_sample, pp_close,
};
