/*
 * reduce.h: the per-run reduction -- each key's per-sample array to the
 * one value stats.json holds for the run (LKP's create_stats_matrix,
 * spec/lkp-monitors.md 1.6), driven by ONE class table (reduce.c) built
 * from LKP's etc/ lists with the fixes docs/lkp-compat.md lists.
 *
 * Also the run's stats as a list (struct reduce_stats): what stats.json,
 * the store and the unite step (unite.h) exchange.
 */
#ifndef PERFSIFT_REDUCE_H
#define PERFSIFT_REDUCE_H

#include "util/compat.h"

struct samples;
struct strbuf;

enum reduce_class {
	REDUCE_MEAN,    /* gauges: arithmetic mean of the samples */
	REDUCE_COUNTER, /* cumulative counters: last - first */
	REDUCE_SUM,     /* independent counters: sum of the samples */
	REDUCE_MAX,     /* running maxima: the largest sample */
};

/* the class of a full stat name, and whether it gets a `.max` companion */
enum reduce_class reduce_classify(const char *name, bool *add_max);

struct reduce_stat {
	char *name;
	double value;
	bool is_int;
};

struct reduce_stats {
	struct reduce_stat *items;
	size_t n, alloc;
};

void reduce_stats_init(struct reduce_stats *st);
void reduce_stats_release(struct reduce_stats *st);
void reduce_stats_add(struct reduce_stats *st, const char *name, double value,
		      bool is_int);
/* sort by name (strcmp); a later duplicate name replaces the earlier one */
void reduce_stats_sort(struct reduce_stats *st);
/* binary search in a sorted list; NULL when absent */
const struct reduce_stat *reduce_stats_find(const struct reduce_stats *st,
					    const char *name);

/*
 * The job's stats_part_begin / stats_part_end window, in seconds from the
 * first sample (LKP's rule: applied when the monitor's time key has more
 * than 2 samples; epoch stamps are rebased to the first one).
 */
struct reduce_window {
	bool set;
	double begin, end; /* end = INFINITY when only begin is given */
};

/*
 * Reduce one monitor's arrays (after samples_finish) and append the values
 * to out.  The monitor's own `<group>.time` key is not a stat.  Absent
 * samples are skipped: a mean is over the present samples, a counter's
 * delta between its first and last present samples; a counter with fewer
 * than two present samples gives no value.
 */
void reduce_samples(const struct samples *s, const struct reduce_window *w,
		    struct reduce_stats *out);

/*
 * The run's derived stats, after every monitor is reduced (LKP's
 * create_stats_matrix): perf-stat.overall.path-length =
 * perf-stat.total.instructions / <test>.workload, when the run has that
 * counter and exactly one `*.workload` stat.  st sorted on return.
 */
void reduce_derived(struct reduce_stats *st);

/* stats.json in LKP's shape (pretty, no final newline); st sorted */
void reduce_stats_to_json(const struct reduce_stats *st, struct strbuf *out);
/* read a stats.json (flat object of numbers); -1 with err "FILE: what" */
int reduce_stats_load_json(struct reduce_stats *st, const char *path,
			   struct strbuf *err);
/* the same from memory (the fuzzer); name stands in for the file */
int reduce_stats_parse_json(struct reduce_stats *st, const char *text,
			    size_t len, const char *name, struct strbuf *err);

#endif
