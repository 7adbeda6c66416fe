/*
 * reduce.c: the per-run reduction (see reduce.h).  The class of every stat
 * comes from the one table below, built from LKP's etc/ lists (kept as
 * they are, so LKP's stats.json values come out) plus perfsift's fixes,
 * each marked with its quirk id from spec/lkp-monitors.md section 7.
 */
#include "util/compat.h"
#include <errno.h>
#include <fnmatch.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "result/reduce.h"
#include "result/samples.h"
#include "util/fileutil.h"
#include "util/sorted.h"
#include "util/strbuf.h"
#include "util/trust.h"
#include "util/xalloc.h"

/*
 * First match wins; a name matching nothing is a gauge (mean).  Globs, not
 * regexes: every LKP pattern is a prefix or "prefix*infix*suffix".
 */
static const struct reduce_rule {
	const char *glob;
	enum reduce_class cls;
	bool add_max; /* also emit <name>.max = the largest sample */
} rules[] = {
	/*
	 * The four classes, and why each exists: a gauge (a level sampled
	 * over time: free memory, a queue length) is averaged; an event
	 * counter (cumulative since boot: interrupts, page faults) is its
	 * growth over the run, last - first, since its absolute value says
	 * how long the box has been up; an independent counter (perf-stat's
	 * per-interval counts, time's one-shot totals) is summed, each
	 * sample being a count of its own; a running maximum is a maximum.
	 */
	/* etc/add-max-latency (gauges with a .max companion) */
	{"*time.elapsed_time", REDUCE_MEAN, true},
	{"iostat.*.await", REDUCE_MEAN, true},
	{"iostat.*.r_await", REDUCE_MEAN, true},
	{"iostat.*.w_await", REDUCE_MEAN, true},
	{"iostat.*.svctm", REDUCE_MEAN, true},
	{"iostat.*.avgqu-sz", REDUCE_MEAN, true},
	{"numa-meminfo.node[0-9].AnonPages", REDUCE_MEAN, true},

	/* etc/independent-counter-prefixes: each sample stands alone, sum */
	{"perf-stat.overall.*", REDUCE_SUM, false},
	{"perf-stat.ps.*", REDUCE_SUM, false},
	{"perf-stat.total.*", REDUCE_SUM, false},
	{"pmu-tools.*", REDUCE_SUM, false},
	{"time.file_system_inputs", REDUCE_SUM, false},
	{"time.file_system_outputs", REDUCE_SUM, false},
	{"time.involuntary_context_switches", REDUCE_SUM, false},
	{"time.major_page_faults", REDUCE_SUM, false},
	{"time.minor_page_faults", REDUCE_SUM, false},
	{"time.percent_of_cpu_this_job_got", REDUCE_SUM, false},
	{"time.socket_messages_received", REDUCE_SUM, false},
	{"time.socket_messages_sent", REDUCE_SUM, false},
	{"time.swaps", REDUCE_SUM, false},
	{"time.system_time", REDUCE_SUM, false},
	{"time.user_time", REDUCE_SUM, false},
	{"time.voluntary_context_switches", REDUCE_SUM, false},

	/* Q5: the parser's running maximum is a maximum, not a mean */
	{"meminfo.max_used_*", REDUCE_MAX, false},

	/* etc/event-counter-prefixes and -patterns: last - first */
	{"cpuidle.*", REDUCE_COUNTER, false},
	{"diskstats.io_ticks.*", REDUCE_COUNTER, false},
	{"diskstats.read_ios.*", REDUCE_COUNTER, false},
	{"diskstats.read_merges.*", REDUCE_COUNTER, false},
	{"diskstats.read_sectors.*", REDUCE_COUNTER, false},
	{"diskstats.read_ticks.*", REDUCE_COUNTER, false},
	{"diskstats.write_ios.*", REDUCE_COUNTER, false},
	{"diskstats.write_merges.*", REDUCE_COUNTER, false},
	{"diskstats.write_sectors.*", REDUCE_COUNTER, false},
	{"diskstats.write_ticks.*", REDUCE_COUNTER, false},
	{"energy.*", REDUCE_COUNTER, false},
	{"ethtool.*", REDUCE_COUNTER, false},
	{"interrupts.*", REDUCE_COUNTER, false},
	{"numa-numastat.*", REDUCE_COUNTER, false},
	{"numa-vmstat.node[0-9]*.nr_dirtied*", REDUCE_COUNTER, false},
	{"numa-vmstat.node[0-9]*.nr_vmscan_immediate_reclaim*", REDUCE_COUNTER, false},
	{"numa-vmstat.node[0-9]*.nr_written*", REDUCE_COUNTER, false},
	{"numa-vmstat.node[0-9]*.numa_*", REDUCE_COUNTER, false},
	{"numa-vmstat.node[0-9]*.pg*", REDUCE_COUNTER, false},
	{"pmu-numa.total_moved*", REDUCE_COUNTER, false},
	{"proc-vmstat.allocstall*", REDUCE_COUNTER, false},
	{"proc-vmstat.compact_*", REDUCE_COUNTER, false},
	{"proc-vmstat.htlb_buddy_alloc_*", REDUCE_COUNTER, false},
	{"proc-vmstat.kswapd_*", REDUCE_COUNTER, false},
	{"proc-vmstat.nr_dirtied*", REDUCE_COUNTER, false},
	{"proc-vmstat.nr_promoted*", REDUCE_COUNTER, false},
	{"proc-vmstat.nr_promote_fail*", REDUCE_COUNTER, false},
	{"proc-vmstat.nr_promote_isolate_fail*", REDUCE_COUNTER, false},
	{"proc-vmstat.nr_promote_ratelimit*", REDUCE_COUNTER, false},
	{"proc-vmstat.nr_vmscan_immediate_reclaim*", REDUCE_COUNTER, false},
	{"proc-vmstat.nr_written*", REDUCE_COUNTER, false},
	{"proc-vmstat.numa_*", REDUCE_COUNTER, false},
	{"proc-vmstat.pageoutrun*", REDUCE_COUNTER, false},
	{"proc-vmstat.pg*", REDUCE_COUNTER, false},
	{"proc-vmstat.pswp*", REDUCE_COUNTER, false},
	{"proc-vmstat.slabs_scanned*", REDUCE_COUNTER, false},
	{"proc-vmstat.thp_*", REDUCE_COUNTER, false},
	{"proc-vmstat.unevictable_pgs_*", REDUCE_COUNTER, false},
	{"proc-vmstat.zone_reclaim_failed*", REDUCE_COUNTER, false},
	{"softirq.*", REDUCE_COUNTER, false},

	/* Q2: LKP's prefix says softirq., the monitor is called softirqs */
	{"softirqs.*", REDUCE_COUNTER, false},
	/* perfsift's proc-stat keys (LKP has no parser): cumulative counts */
	{"proc-stat.cpu.*", REDUCE_COUNTER, false},
	{"proc-stat.intr", REDUCE_COUNTER, false},
	{"proc-stat.softirq", REDUCE_COUNTER, false},
	{"proc-stat.ctxt", REDUCE_COUNTER, false},
	{"proc-stat.processes", REDUCE_COUNTER, false},
	/* Q3: the diskstats fields of kernels >= 4.18, and time_in_queue */
	{"diskstats.discard_*", REDUCE_COUNTER, false},
	{"diskstats.flush_*", REDUCE_COUNTER, false},
	{"diskstats.time_in_queue.*", REDUCE_COUNTER, false},
	/* Q9: cumulative /proc/vmstat fields LKP averages */
	{"proc-vmstat.workingset_refault_*", REDUCE_COUNTER, false},
	{"proc-vmstat.workingset_activate_*", REDUCE_COUNTER, false},
	{"proc-vmstat.workingset_restore_*", REDUCE_COUNTER, false},
	{"proc-vmstat.workingset_nodereclaim", REDUCE_COUNTER, false},
	{"proc-vmstat.oom_kill", REDUCE_COUNTER, false},
	{"proc-vmstat.zswpin", REDUCE_COUNTER, false},
	{"proc-vmstat.zswpout", REDUCE_COUNTER, false},
	{"proc-vmstat.zswpwb", REDUCE_COUNTER, false},
	{"proc-vmstat.swap_ra*", REDUCE_COUNTER, false},
	{"proc-vmstat.swpin_zero", REDUCE_COUNTER, false},
	{"proc-vmstat.swpout_zero", REDUCE_COUNTER, false},
	{"proc-vmstat.nr_foll_pin_*", REDUCE_COUNTER, false},
	{"proc-vmstat.nr_vmscan_write", REDUCE_COUNTER, false},
	{"proc-vmstat.nr_throttled_written", REDUCE_COUNTER, false},
	{"proc-vmstat.nr_tlb_*", REDUCE_COUNTER, false},
	{"proc-vmstat.drop_pagecache", REDUCE_COUNTER, false},
	{"proc-vmstat.drop_slab", REDUCE_COUNTER, false},
	{"proc-vmstat.balloon_*", REDUCE_COUNTER, false},
	{"proc-vmstat.cma_alloc_*", REDUCE_COUNTER, false},
	{"proc-vmstat.kcompactd_*", REDUCE_COUNTER, false},
	{"proc-vmstat.cow_ksm", REDUCE_COUNTER, false},
	{"proc-vmstat.ksm_swpin_copy", REDUCE_COUNTER, false},
	{"proc-vmstat.direct_map_level*", REDUCE_COUNTER, false},
	{"proc-vmstat.vma_lock_*", REDUCE_COUNTER, false},
	{"proc-vmstat.zone_reclaim_success", REDUCE_COUNTER, false},
};

/* etc/ignore-part-prefixes: never cut by the stats_part window */
static const char *const unwindowed[] = {
	"perf-stat.overall.", "perf-stat.ps.", "perf-stat.total.",
};

/*
 * A linear scan of ~120 globs per distinct stat name: a run has a few
 * thousand names and each is classified once, so this never shows in a
 * profile, and the table stays readable as LKP's lists.
 */
enum reduce_class reduce_classify(const char *name, bool *add_max)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rules); i++)
		if (!fnmatch(rules[i].glob, name, 0)) {
			if (add_max)
				*add_max = rules[i].add_max;
			return rules[i].cls;
		}
	if (add_max)
		*add_max = false;
	return REDUCE_MEAN;
}

void reduce_stats_init(struct reduce_stats *st)
{
	memset(st, 0, sizeof(*st));
}

void reduce_stats_release(struct reduce_stats *st)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		free(st->items[i].name);
	free(st->items);
	reduce_stats_init(st);
}

void reduce_stats_add(struct reduce_stats *st, const char *name, double value,
		      bool is_int)
{
	ALLOC_GROW(st->items, st->n + 1, st->alloc);
	st->items[st->n].name = xstrdup(name);
	st->items[st->n].value = value;
	st->items[st->n].is_int = is_int;
	st->n++;
}

struct tagged_stat {
	struct reduce_stat s;
	size_t pos; /* input position: qsort is not stable */
};

static int cmp_tagged(const void *a, const void *b)
{
	const struct tagged_stat *x = a, *y = b;
	int c = strcmp(x->s.name, y->s.name);

	if (c)
		return c;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * Sorted by name, a later duplicate winning: a parser that prints a key
 * twice means its last value (LKP's Hash semantics, where a later
 * assignment replaces), and sorted stats are what unite's merge and the
 * store's packed blobs need.
 */
void reduce_stats_sort(struct reduce_stats *st)
{
	struct tagged_stat *t;
	size_t i, j;

	if (st->n < 2)
		return;
	t = xcalloc(st->n, sizeof(*t));
	for (i = 0; i < st->n; i++) {
		t[i].s = st->items[i];
		t[i].pos = i;
	}
	qsort(t, st->n, sizeof(*t), cmp_tagged);
	for (i = j = 0; i < st->n; i++) {
		if (j && !strcmp(st->items[j - 1].name, t[i].s.name)) {
			/* a later duplicate replaces the earlier value */
			free(st->items[j - 1].name);
			st->items[j - 1] = t[i].s;
			continue;
		}
		st->items[j++] = t[i].s;
	}
	st->n = j;
	free(t);
}

static int cmp_stat_name(const void *key, const void *elem)
{
	return strcmp(key, ((const struct reduce_stat *)elem)->name);
}

const struct reduce_stat *reduce_stats_find(const struct reduce_stats *st,
					    const char *name)
{
	size_t at = sorted_lower_bound(name, st->items, st->n,
				       sizeof(*st->items), cmp_stat_name);

	return at < st->n && !strcmp(st->items[at].name, name) ?
		&st->items[at] : NULL;
}

static bool is_unwindowed(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(unwindowed); i++)
		if (!strncmp(name, unwindowed[i], strlen(unwindowed[i])))
			return true;
	return false;
}

/*
 * the sample range [*from, *to) the window selects; all when unset
 *
 * (LKP's stats_part: the job may ask for the stats of a part of the run
 * only, say the steady state after a warm-up.  A monitor's samples are
 * located by its own "<group>.time" stamps, relative or epoch; a monitor
 * without stamps is not cut at all, since guessing the times would be
 * worse than using every sample.)
 */
static void window_range(const struct samples *s, const struct reduce_window *w,
			 size_t *from, size_t *to)
{
	struct strbuf tk = STRBUF_INIT;
	const struct samples_key *t;
	double base = 0;
	size_t i;

	*from = 0;
	*to = SIZE_MAX;
	if (!w || !w->set)
		return;
	strbuf_addf(&tk, "%s.time", s->group);
	t = samples_find(s, tk.buf);
	strbuf_release(&tk);
	if (!t || t->n <= 2 || t->type[0] == SAMPLES_ABSENT)
		return;
	if (t->v[0] > 2)
		base = t->v[0]; /* epoch stamps: make them relative */
	for (i = 0; i < t->n && (t->type[i] == SAMPLES_ABSENT ||
				 t->v[i] - base < w->begin); i++)
		;
	*from = i;
	for (; i < t->n && (t->type[i] == SAMPLES_ABSENT ||
			    t->v[i] - base < w->end); i++)
		;
	*to = i;
}

/*
 * One key's samples in [from, to) to its stat, by its class; absent
 * samples (an unparsable or out-of-range value) are skipped, not zeros.
 * A value is an integer only when every sample it came from was one, so
 * stats.json prints it as LKP would.
 */
static void reduce_key(const struct samples_key *k, size_t from, size_t to,
		       struct reduce_stats *out)
{
	enum reduce_class cls;
	bool add_max, all_int = true;
	size_t i, count = 0, first = 0, last = 0, imax = 0;
	double sum = 0;
	struct strbuf name = STRBUF_INIT;

	if (to > k->n)
		to = k->n;
	for (i = from; i < to; i++) {
		if (k->type[i] == SAMPLES_ABSENT)
			continue;
		if (!count++)
			first = imax = i;
		last = i;
		sum += k->v[i];
		if (k->v[i] > k->v[imax])
			imax = i;
		if (k->type[i] != SAMPLES_INT)
			all_int = false;
	}
	if (!count)
		return;
	cls = reduce_classify(k->name, &add_max);
	if (count == 1 && cls != REDUCE_COUNTER) {
		/* LKP: one sample is the value, whatever the class */
		reduce_stats_add(out, k->name, k->v[first],
				 k->type[first] == SAMPLES_INT);
	} else {
		switch (cls) {
		case REDUCE_SUM:
			reduce_stats_add(out, k->name, sum, all_int);
			break;
		case REDUCE_COUNTER:
			/* one reading of a counter says nothing about the run */
			if (count > 1)
				reduce_stats_add(out, k->name,
						 k->v[last] - k->v[first],
						 k->type[first] == SAMPLES_INT &&
						 k->type[last] == SAMPLES_INT);
			break;
		case REDUCE_MAX:
			reduce_stats_add(out, k->name, k->v[imax],
					 k->type[imax] == SAMPLES_INT);
			break;
		case REDUCE_MEAN:
			reduce_stats_add(out, k->name, sum / (double)count, false);
			break;
		}
	}
	if (add_max) {
		strbuf_addf(&name, "%s.max", k->name);
		reduce_stats_add(out, name.buf, k->v[imax],
				 k->type[imax] == SAMPLES_INT);
	}
	strbuf_release(&name);
}

void reduce_samples(const struct samples *s, const struct reduce_window *w,
		    struct reduce_stats *out)
{
	struct strbuf tk = STRBUF_INIT;
	size_t i, from, to;

	strbuf_addf(&tk, "%s.time", s->group);
	window_range(s, w, &from, &to);
	for (i = 0; i < s->nkeys; i++) {
		const struct samples_key *k = &s->keys[i];

		if (!strcmp(k->name, tk.buf))
			continue; /* the sample stamps are not a stat */
		if (is_unwindowed(k->name))
			reduce_key(k, 0, SIZE_MAX, out);
		else
			reduce_key(k, from, to, out);
	}
	/*
	 * Keys dump-stat drops for being 0 are 0 in stats.json: the run had
	 * them, and a stat a run lacks is missing, not 0 (matrix.h).  LKP's
	 * stats.json leaves them out; its matrix.json pads them with the
	 * same 0, and unite still drops a stat that is integer 0 everywhere.
	 */
	for (i = 0; i < s->nzero; i++)
		if (strcmp(s->zero_names[i], tk.buf))
			reduce_stats_add(out, s->zero_names[i], 0, true);
	strbuf_release(&tk);
}

/*
 * Stats computed from others: the path length (instructions per unit
 * of the benchmark's work) when the run has exactly one benchmark
 * workload to divide by -- with two, which one the instructions belong
 * to is not known, so none is given.
 */
void reduce_derived(struct reduce_stats *st)
{
	const struct reduce_stat *ins, *work = NULL;
	size_t i, n, nwork = 0;

	reduce_stats_sort(st);
	for (i = 0; i < st->n; i++) {
		n = strlen(st->items[i].name);
		if (n > 9 && !strcmp(st->items[i].name + n - 9, ".workload")) {
			work = &st->items[i];
			nwork++;
		}
	}
	ins = reduce_stats_find(st, "perf-stat.total.instructions");
	if (!ins || nwork != 1 || work->value == 0)
		return;
	reduce_stats_add(st, "perf-stat.overall.path-length",
			 ins->value / work->value, false);
	reduce_stats_sort(st);
}

void reduce_stats_to_json(const struct reduce_stats *st, struct strbuf *out)
{
	size_t i;

	if (!st->n) {
		strbuf_addstr(out, "{}");
		return;
	}
	strbuf_addstr(out, "{\n");
	for (i = 0; i < st->n; i++) {
		strbuf_addstr(out, "  ");
		strbuf_add_json_str(out, st->items[i].name);
		strbuf_addstr(out, ": ");
		samples_add_number(out, st->items[i].value, st->items[i].is_int);
		strbuf_addstr(out, i + 1 < st->n ? ",\n" : "\n");
	}
	strbuf_addstr(out, "}");
}

/* the numbers of a parsed stats.json; takes root */
static int stats_from_json(struct reduce_stats *st, json_t *root,
			   const char *path, struct strbuf *err)
{
	json_t *v;
	const char *key;
	int ret = -1;

	if (!json_is_object(root)) {
		strbuf_addf(err, "%s: not a stats.json (expected an object)", path);
		goto out;
	}
	json_object_foreach(root, key, v) {
		/* a stats.json may come from a store: names are outside text */
		if (trust_stat_why(key)) {
			strbuf_addf(err, "%s: ", path);
			trust_escape(err, key);
			strbuf_addf(err, ": %s", trust_stat_why(key));
			goto out;
		}
		if (json_is_integer(v))
			reduce_stats_add(st, key, (double)json_integer_value(v), true);
		else if (json_is_real(v))
			reduce_stats_add(st, key, json_real_value(v), false);
		else if (!json_is_null(v)) {
			strbuf_addf(err, "%s: %s: not a number", path, key);
			goto out;
		}
	}
	reduce_stats_sort(st);
	ret = 0;
out:
	json_decref(root);
	return ret;
}

/*
 * A regular file only (read_regular_file()): a FIFO planted as a run's
 * stats.json hung every command that synced the index -- a bisect for
 * ever (docs/attack-5.md, B1).
 */
int reduce_stats_load_json(struct reduce_stats *st, const char *path,
			   struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	int ret = -1;

	if (read_regular_file(&text, path, (size_t)1 << 30, err) < 0) {
		if (errno == EFBIG)
			strbuf_addf(err, "'%s' is larger than 1 GiB", path);
	} else {
		ret = reduce_stats_parse_json(st, text.buf, text.len, path, err);
	}
	strbuf_release(&text);
	return ret;
}

int reduce_stats_parse_json(struct reduce_stats *st, const char *text,
			    size_t len, const char *name, struct strbuf *err)
{
	json_error_t jerr;
	json_t *root = json_loadb(text, len, 0, &jerr);

	if (!root) {
		strbuf_addf(err, "%s:%d: %s", name, jerr.line, trust_json_why(jerr.text));
		return -1;
	}
	return stats_from_json(st, root, name, err);
}
