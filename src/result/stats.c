/*
 * stats.c: LKP's selection rules driven by its own tables, the display
 * numbers, and the statistics perfsift adds (see stats.h).  Pure
 * computation: no I/O, no globals; the compiled tables live in the
 * caller's struct stat_rules.
 *
 * Speed matters (50,000 stats in a fraction of a second), so every
 * pattern carries a literal prefilter -- an anchored prefix, a required
 * substring or a set of required alternatives -- checked before regexec.
 */
#include "util/compat.h"
#include <ctype.h>
#include <fnmatch.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_psi.h>
#include "compare/lkp_tables.h"
#include "result/matrix.h"
#include "result/stats.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/xalloc.h"

struct stat_regex {
	regex_t re;
	char *full;    /* the POSIX pattern, compiled on first use */
	bool compiled;
	char *prefix;  /* the name must start with it */
	char *substr;  /* the name must contain it */
	char **set;    /* the name must contain one of these */
	size_t nset;
	double value;  /* weight / floor of table entries */
	int is_int;
};

enum anchor { ANCHOR_NONE, ANCHOR_START, ANCHOR_WHOLE };

/* ---- literal prefilters ---- */

static bool is_meta(int c)
{
	return c && strchr(".[]()*+?{}|^$\\", c) != NULL;
}

/* index just past the bracket expression starting at re[i] == '[' */
static size_t skip_bracket(const char *re, size_t i)
{
	i++;
	if (re[i] == '^')
		i++;
	if (re[i] == ']')
		i++;
	while (re[i] && re[i] != ']')
		i++;
	return re[i] ? i + 1 : i;
}

/* index of the ')' matching the '(' at re[i], or strlen */
static size_t match_paren(const char *re, size_t i)
{
	int depth = 0;

	while (re[i]) {
		if (re[i] == '\\' && re[i + 1]) {
			i += 2;
			continue;
		}
		if (re[i] == '[') {
			i = skip_bracket(re, i);
			continue;
		}
		if (re[i] == '(')
			depth++;
		else if (re[i] == ')' && --depth == 0)
			return i;
		i++;
	}
	return i;
}

/*
 * If re[from, to) is "lit|lit|..." of plain literals, split it into set
 * (returns true); else false.
 */
static bool literal_alternatives(const char *re, size_t from, size_t to,
				 char ***set, size_t *nset)
{
	size_t i, alloc = 0, n = 0;
	char **out = NULL;
	char buf[256];
	size_t len = 0;

	for (i = from; i <= to; i++) {
		if (i == to || re[i] == '|') {
			if (!len || n >= 32)
				goto fail;
			ALLOC_GROW(out, n + 1, alloc);
			out[n++] = xstrndup(buf, len);
			len = 0;
			continue;
		}
		if (len + 1 >= sizeof(buf))
			goto fail;
		if (re[i] == '\\' && i + 1 < to && !isalnum((unsigned char)re[i + 1])) {
			buf[len++] = re[++i];
			continue;
		}
		if (is_meta(re[i]))
			goto fail;
		buf[len++] = re[i];
	}
	*set = out;
	*nset = n;
	return true;
fail:
	while (n)
		free(out[--n]);
	free(out);
	return false;
}

/*
 * Walk the top level of re and keep the literal facts every match must
 * satisfy: a prefix (when anchored), the longest required literal run and
 * a required alternative set.  A top-level '|' gives no prefilter.
 */
static void make_prefilter(struct stat_regex *sr, const char *re,
			   bool anchored)
{
	char run[256], best[256];
	size_t rlen = 0, blen = 0, i = 0;
	bool at_start;

	if (re[0] == '^') {
		anchored = true;
		i = 1;
	}
	at_start = anchored;
	while (re[i]) {
		size_t atom_end, group_from = 0, group_to = 0;
		int lit = -1; /* literal char of this atom, or -1 */
		bool is_group = false, optional = false, repeated = false;

		if (re[i] == '|')
			goto none;
		if (re[i] == '\\' && re[i + 1]) {
			if (!isalnum((unsigned char)re[i + 1]))
				lit = (unsigned char)re[i + 1];
			atom_end = i + 2;
		} else if (re[i] == '[') {
			atom_end = skip_bracket(re, i);
		} else if (re[i] == '(') {
			size_t close = match_paren(re, i);

			if (!re[close])
				goto none;
			is_group = true;
			group_from = i + 1;
			group_to = close;
			atom_end = close + 1;
		} else if (is_meta(re[i])) {
			atom_end = i + 1; /* '.', anchors: not literal */
		} else {
			lit = (unsigned char)re[i];
			atom_end = i + 1;
		}
		i = atom_end;
		if (re[i] == '*' || re[i] == '?') {
			optional = true;
			i++;
		} else if (re[i] == '{') {
			optional = true; /* conservatively: may be {0,n} */
			while (re[i] && re[i] != '}')
				i++;
			if (re[i])
				i++;
		} else if (re[i] == '+') {
			repeated = true;
			i++;
		}
		if (lit >= 0 && !optional && rlen + 1 < sizeof(run)) {
			run[rlen++] = (char)lit;
			if (!repeated)
				continue;
		}
		/* the literal run ends here */
		if (at_start && rlen && !sr->prefix)
			sr->prefix = xstrndup(run, rlen);
		if (rlen > blen) {
			memcpy(best, run, rlen);
			blen = rlen;
		}
		rlen = 0;
		at_start = false;
		if (is_group && !optional && !sr->set) {
			char **set;
			size_t nset, k, minlen = SIZE_MAX;

			if (literal_alternatives(re, group_from, group_to,
						 &set, &nset)) {
				for (k = 0; k < nset; k++)
					if (strlen(set[k]) < minlen)
						minlen = strlen(set[k]);
				if (minlen >= 2) {
					sr->set = set;
					sr->nset = nset;
				} else {
					while (nset)
						free(set[--nset]);
					free(set);
				}
			}
		}
	}
	if (at_start && rlen && !sr->prefix)
		sr->prefix = xstrndup(run, rlen);
	if (rlen > blen) {
		memcpy(best, run, rlen);
		blen = rlen;
	}
	if (blen >= 2 && !(sr->prefix && strlen(sr->prefix) >= blen))
		sr->substr = xstrndup(best, blen);
	return;
none:
	FREE_AND_NULL(sr->prefix);
	FREE_AND_NULL(sr->substr);
	while (sr->nset)
		free(sr->set[--sr->nset]);
	FREE_AND_NULL(sr->set);
}

/* does re[i] == '{' start a POSIX interval "{n}", "{n,}" or "{n,m}"? */
static size_t interval_len(const char *re, size_t i)
{
	size_t j = i + 1;

	if (!isdigit((unsigned char)re[j]))
		return 0;
	while (isdigit((unsigned char)re[j]))
		j++;
	if (re[j] == ',')
		for (j++; isdigit((unsigned char)re[j]); j++)
			;
	return re[j] == '}' ? j + 1 - i : 0;
}

/*
 * Ruby reads a brace that starts no interval as a literal ("{#:#}" in
 * etc/stat-denylist); POSIX calls it an error.  Escape those braces.
 */
static char *ruby_to_posix(const char *re)
{
	struct strbuf out = STRBUF_INIT;
	size_t i = 0;

	while (re[i]) {
		if (re[i] == '\\' && re[i + 1]) {
			strbuf_add(&out, re + i, 2);
			i += 2;
		} else if (re[i] == '[') {
			size_t end = skip_bracket(re, i);

			strbuf_add(&out, re + i, end - i);
			i = end;
		} else if (re[i] == '{') {
			size_t n = interval_len(re, i);

			if (n) {
				strbuf_add(&out, re + i, n);
				i += n;
			} else {
				strbuf_addstr(&out, "\\{");
				i++;
			}
		} else if (re[i] == '}') {
			strbuf_addstr(&out, "\\}");
			i++;
		} else {
			strbuf_addch(&out, re[i++]);
		}
	}
	return strbuf_detach(&out, NULL);
}

static void regex_compile(struct stat_regex *sr, const char *ruby_pattern,
			  enum anchor anchor)
{
	char *full, *pattern = ruby_to_posix(ruby_pattern);

	memset(sr, 0, sizeof(*sr));
	if (anchor == ANCHOR_START)
		full = xasprintf("^(%s)", pattern);
	else if (anchor == ANCHOR_WHOLE)
		full = xasprintf("^(%s)$", pattern);
	else
		full = xstrdup(pattern);
	sr->full = full;
	make_prefilter(sr, pattern, anchor != ANCHOR_NONE);
	free(pattern);
}

/*
 * regcomp on first use: most of LKP's ~900 patterns never get past their
 * literal prefilter, and compiling them all was a fifth of a small
 * comparison's time.  stat_rules_compile_all() checks every one.
 */
static void regex_need(struct stat_regex *sr)
{
	int rc;

	if (sr->compiled)
		return;
	rc = regcomp(&sr->re, sr->full, REG_EXTENDED | REG_NOSUB);
	if (rc)
		BUG("cannot compile LKP pattern '%s' (%d)", sr->full, rc);
	sr->compiled = true;
}

static bool regex_match(struct stat_regex *sr, const char *name)
{
	if (sr->prefix && strncmp(name, sr->prefix, strlen(sr->prefix)))
		return false;
	if (sr->substr && !strstr(name, sr->substr))
		return false;
	if (sr->set) {
		size_t k;

		for (k = 0; k < sr->nset; k++)
			if (strstr(name, sr->set[k]))
				break;
		if (k == sr->nset)
			return false;
	}
	regex_need(sr);
	return regexec(&sr->re, name, 0, NULL, 0) == 0;
}

static void regex_release(struct stat_regex *sr)
{
	if (sr->compiled)
		regfree(&sr->re);
	free(sr->full);
	free(sr->prefix);
	free(sr->substr);
	while (sr->nset)
		free(sr->set[--sr->nset]);
	free(sr->set);
}

static struct stat_regex *compile_list(const char *const *list,
				       enum anchor anchor, size_t *n)
{
	struct stat_regex *out;
	size_t i, cnt = 0;

	while (list[cnt])
		cnt++;
	out = xcalloc(cnt ? cnt : 1, sizeof(*out));
	for (i = 0; i < cnt; i++)
		regex_compile(&out[i], list[i], anchor);
	*n = cnt;
	return out;
}

static struct stat_regex *compile_table(const struct lkp_weight *t,
					enum anchor anchor, size_t *n)
{
	struct stat_regex *out;
	size_t i, cnt = 0;

	while (t[cnt].pattern)
		cnt++;
	out = xcalloc(cnt ? cnt : 1, sizeof(*out));
	for (i = 0; i < cnt; i++) {
		regex_compile(&out[i], t[i].pattern, anchor);
		out[i].value = t[i].value;
		out[i].is_int = t[i].is_int;
	}
	*n = cnt;
	return out;
}

static const struct stat_regex *first_match(struct stat_regex *list,
					    size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (regex_match(&list[i], name))
			return &list[i];
	return NULL;
}

void stat_rules_init(struct stat_rules *r)
{
	memset(r, 0, sizeof(*r));
	/* LKP matches etc/failure and etc/pass from the start of the name */
	r->failure = compile_list(lkp_failure, ANCHOR_START, &r->nfailure);
	r->pass = compile_list(lkp_pass, ANCHOR_START, &r->npass);
	r->perf_patterns = compile_list(lkp_perf_metrics_patterns, ANCHOR_NONE,
					&r->nperf_patterns);
	r->report_allow = compile_list(lkp_report_allowlist, ANCHOR_NONE,
				       &r->nreport_allow);
	r->stat_allow = compile_list(lkp_stat_allowlist, ANCHOR_NONE,
				     &r->nstat_allow);
	r->stat_deny = compile_list(lkp_stat_denylist, ANCHOR_NONE,
				    &r->nstat_deny);
	/* the YAML tables' keys must match the whole name */
	r->threshold = compile_table(lkp_perf_metrics_threshold, ANCHOR_WHOLE,
				     &r->nthreshold);
	r->index_perf = compile_table(lkp_index_perf, ANCHOR_WHOLE,
				      &r->nindex_perf);
	r->index_latency = compile_table(lkp_index_latency, ANCHOR_WHOLE,
					 &r->nindex_latency);
	r->time_floor_scale = 1.0;
	/* LKP's mytest runs any command: its stats are the job's own */
	stat_rules_add_benchmark(r, "mytest");
}

static void compile_all(struct stat_regex *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		regex_need(&list[i]);
}

void stat_rules_compile_all(struct stat_rules *r)
{
	compile_all(r->failure, r->nfailure);
	compile_all(r->pass, r->npass);
	compile_all(r->perf_patterns, r->nperf_patterns);
	compile_all(r->report_allow, r->nreport_allow);
	compile_all(r->stat_allow, r->nstat_allow);
	compile_all(r->stat_deny, r->nstat_deny);
	compile_all(r->threshold, r->nthreshold);
	compile_all(r->index_perf, r->nindex_perf);
	compile_all(r->index_latency, r->nindex_latency);
}

static void release_list(struct stat_regex *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		regex_release(&list[i]);
	free(list);
}

void stat_rules_release(struct stat_rules *r)
{
	size_t i;

	release_list(r->failure, r->nfailure);
	release_list(r->pass, r->npass);
	release_list(r->perf_patterns, r->nperf_patterns);
	release_list(r->report_allow, r->nreport_allow);
	release_list(r->stat_allow, r->nstat_allow);
	release_list(r->stat_deny, r->nstat_deny);
	release_list(r->threshold, r->nthreshold);
	release_list(r->index_perf, r->nindex_perf);
	release_list(r->index_latency, r->nindex_latency);
	for (i = 0; i < r->nbenchmarks; i++)
		free(r->benchmarks[i]);
	free(r->benchmarks);
	for (i = 0; i < r->nkpis; i++)
		free(r->kpis[i].pattern);
	free(r->kpis);
	memset(r, 0, sizeof(*r));
}

void stat_rules_add_kpi(struct stat_rules *r, const char *pattern,
			int direction, double threshold)
{
	size_t i;

	for (i = 0; i < r->nkpis; i++)
		if (!strcmp(r->kpis[i].pattern, pattern))
			return;
	ALLOC_GROW(r->kpis, r->nkpis + 1, r->alloc_kpis);
	r->kpis[r->nkpis].pattern = xstrdup(pattern);
	r->kpis[r->nkpis].direction = direction;
	r->kpis[r->nkpis].threshold = threshold;
	r->nkpis++;
}

const struct stat_kpi *stat_kpi_decl(const struct stat_rules *r,
				     const char *name)
{
	size_t i;

	for (i = 0; i < r->nkpis; i++)
		if (!fnmatch(r->kpis[i].pattern, name, 0))
			return &r->kpis[i];
	return NULL;
}

void stat_rules_add_benchmark(struct stat_rules *r, const char *name)
{
	size_t i;

	if (!name || !*name)
		return;
	for (i = 0; i < r->nbenchmarks; i++)
		if (!strcmp(r->benchmarks[i], name))
			return;
	ALLOC_GROW(r->benchmarks, r->nbenchmarks + 1, r->alloc_benchmarks);
	r->benchmarks[r->nbenchmarks++] = xstrdup(name);
}

void stat_rules_set_runtime(struct stat_rules *r, double runtime_s)
{
	if (runtime_s > 0)
		r->time_floor_scale = runtime_s < 300.0 ? runtime_s / 300.0 : 1.0;
}

static bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !memcmp(s + n - m, suffix, m);
}

bool stat_is_function(const struct stat_rules *r, const char *name)
{
	if (strstr(name, ".time.") || strstr(name, ".timestamp:") ||
	    strstr(name, ".bootstage:"))
		return false;
	return first_match(r->failure, r->nfailure, name) ||
	       first_match(r->pass, r->npass, name);
}

/* the benchmark whose stats these are, or NULL */
static const char *benchmark_of(const struct stat_rules *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nbenchmarks; i++) {
		size_t n = strlen(r->benchmarks[i]);

		if (!strncmp(name, r->benchmarks[i], n) && name[n] == '.')
			return r->benchmarks[i];
	}
	return NULL;
}

bool stat_is_perf_metric(const struct stat_rules *r, const char *name)
{
	const char *const *p;

	for (p = lkp_perf_metrics_prefixes; *p; p++)
		if (has_prefix(name, *p))
			return true;
	if (benchmark_of(r, name))
		return true;
	return first_match(r->perf_patterns, r->nperf_patterns, name) != NULL;
}

bool stat_is_bisectable(const struct stat_rules *r, const char *name)
{
	if (first_match(r->stat_allow, r->nstat_allow, name))
		return true;
	return !first_match(r->stat_deny, r->nstat_deny, name);
}

bool stat_in_report_allowlist(const struct stat_rules *r, const char *name)
{
	return first_match(r->report_allow, r->nreport_allow, name) != NULL;
}

bool stat_is_kpi(const struct stat_rules *r, const char *name)
{
	/* a declaration replaces the implicit KPIs */
	if (r->nkpis)
		return stat_kpi_decl(r, name) != NULL;
	return benchmark_of(r, name) != NULL;
}

/* a component "time" followed by one ending in "_time": *.time.*_time */
static bool is_time_time(const char *name)
{
	const char *p = name;

	for (;;) {
		const char *t = strstr(p, "time.");

		if (!t)
			return false;
		if (t == name || t[-1] == '.') {
			const char *comp = t + 5, *end = strchrnul(comp, '.');

			if (end - comp >= 5 && !memcmp(end - 5, "_time", 5))
				return true;
		}
		p = t + 1;
	}
}

bool stat_is_time_valued(const char *name)
{
	return is_time_time(name) || strstr(name, "elapsed_time") != NULL;
}

int stat_index_direction(const struct stat_rules *r, const char *name)
{
	const struct stat_regex *m;

	m = first_match(r->index_perf, r->nindex_perf, name);
	if (!m)
		m = first_match(r->index_latency, r->nindex_latency, name);
	if (!m)
		return 0;
	return m->value > 0 ? 1 : m->value < 0 ? -1 : 0;
}

int stat_direction(const struct stat_rules *r, const char *name)
{
	static const char *const lower_suffixes[] = {
		"seconds", "_ms", "_us", "_ns", "_msec", "_usec", "_nsec",
		".ms", ".us", ".ns", "_secs",
	};
	const struct stat_kpi *k = stat_kpi_decl(r, name);
	size_t i;
	int d;

	if (k && k->direction)
		return k->direction;
	d = stat_index_direction(r, name);
	if (d)
		return d;
	/* perfsift's additions: times and latencies are lower-is-better */
	if (is_time_time(name) || strstr(name, "latency") ||
	    strstr(name, "elapsed_time"))
		return -1;
	for (i = 0; i < ARRAY_SIZE(lower_suffixes); i++)
		if (has_suffix(name, lower_suffixes[i]))
			return -1;
	return 0;
}

bool stat_reasonable_change(const struct stat_rules *r, const char *name,
			    double delta, double max)
{
	const struct stat_regex *m;

	m = first_match(r->threshold, r->nthreshold, name);
	if (m) {
		double t = m->value;

		if (stat_is_time_valued(name))
			t *= r->time_floor_scale;
		if (max < t)
			return false;
		if (m->is_int && delta < t / 2)
			return false;
		return true;
	}
	if (has_prefix(name, "iostat"))
		return max > 1;
	if (has_prefix(name, "pagetypeinfo") || has_prefix(name, "buddyinfo") ||
	    has_prefix(name, "slabinfo"))
		return delta > 100;
	if (has_prefix(name, "proc-vmstat") || strstr(name, "meminfo"))
		return max > 1000;
	if (has_prefix(name, "lock_stat"))
		return delta > (strstr(name, "time") ? 1000 : 10000);
	if (has_prefix(name, "interrupts") || has_prefix(name, "softirqs"))
		return max > 10000;
	return true;
}

/* ---- display numbers ---- */

double stats_mean(const double *v, size_t n)
{
	double sum = 0;
	size_t i;

	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

double stats_stddev(const double *v, size_t n, double mean)
{
	double ss = 0;
	size_t i;

	if (n <= 1)
		return -1;
	for (i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return sqrt(ss / (double)n);
}

/* ---- LKP's changed-stat test ---- */

void lkp_options_init(struct lkp_options *o)
{
	memset(o, 0, sizeof(*o));
	o->perf_profile = true;
}

const char *lkp_outcome_name(enum lkp_outcome o)
{
	switch (o) {
	case LKP_CHANGED: return "changed";
	case LKP_NOT_CHANGED: return "not-changed";
	case LKP_SKIP_FILTER: return "skip-filter";
	case LKP_SKIP_FUNCTION: return "skip-function";
	case LKP_SKIP_FEW_RUNS: return "skip-few-runs";
	case LKP_SKIP_NO_BASE: return "skip-no-base";
	case LKP_SKIP_SMALL: return "skip-small-change";
	case LKP_SKIP_PERF: return "skip-not-perf";
	case LKP_SKIP_MISSING: return "skip-missing";
	}
	return "?";
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* insertion sort: LKP's samples are a handful of runs */
static void sort_small(double *v, size_t n)
{
	size_t i, j;

	if (n > 32) {
		qsort(v, n, sizeof(*v), cmp_double);
		return;
	}
	for (i = 1; i < n; i++) {
		double x = v[i];

		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

size_t lkp_trim(double *v, size_t n, size_t cap)
{
	size_t margin = n >> 5, skip = 0;

	if (margin > cap)
		margin = cap;
	sort_small(v, n);
	/* LKP's sort drops leading -1 ("empty data point") values */
	while (skip < n && v[skip] == -1)
		skip++;
	if (skip)
		memmove(v, v + skip, (n - skip) * sizeof(*v));
	n -= skip;
	if (n <= 2 * margin)
		return n;
	memmove(v, v + margin, (n - 2 * margin) * sizeof(*v));
	return n - 2 * margin;
}

/* v sorted and trimmed from n0 to n: trim more to min_margin a side */
static size_t trim_min_margin(double *v, size_t n0, size_t n,
			      size_t min_margin)
{
	size_t done = (n0 - n) / 2, more;

	if (n0 < 6 || done >= min_margin)
		return n;
	more = min_margin - done;
	if (n <= 2 * more)
		return n;
	memmove(v, v + more, (n - 2 * more) * sizeof(*v));
	return n - 2 * more;
}

void lkp_summarize(const double *v, size_t n, size_t min_margin,
		   struct lkp_summary *out)
{
	double buf[128], *s = n > ARRAY_SIZE(buf) ? xmalloc(n * sizeof(*s)) : buf;

	memset(out, 0, sizeof(*out));
	if (n) {
		memcpy(s, v, n * sizeof(*s));
		out->n = trim_min_margin(s, n, lkp_trim(s, n, 3), min_margin);
		if (out->n) {
			out->min = s[0];
			out->max = s[out->n - 1];
			out->median = s[out->n / 2];
		}
	}
	if (s != buf)
		free(s);
}

static bool all_integral(const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] != floor(v[i]))
			return false;
	return true;
}

/* the part of name before a trailing .error/.warn/.fail/.pass */
static size_t function_stem(const char *name, const char *const *suffixes,
			    size_t nsuffixes)
{
	size_t i, n = strlen(name);

	for (i = 0; i < nsuffixes; i++)
		if (has_suffix(name, suffixes[i]))
			return n - strlen(suffixes[i]);
	return 0;
}

static bool base_has_variant(const struct matrix *base, const char *name,
			     size_t stem, const char *const *suffixes,
			     size_t nsuffixes)
{
	char buf[4096];
	size_t i;

	if (stem + 8 >= sizeof(buf))
		return true;
	memcpy(buf, name, stem);
	for (i = 0; i < nsuffixes; i++) {
		snprintf(buf + stem, sizeof(buf) - stem, "%s", suffixes[i]);
		if (matrix_find(base, buf) >= 0)
			return true;
	}
	return false;
}

/* error/pass stats need their counterpart in the base (stats.rb:572-584) */
static bool skip_function_stat(const struct lkp_options *o, const char *name)
{
	static const char *const bad[] = { ".error", ".warn", ".fail" };
	static const char *const good[] = { ".pass" };
	size_t stem;

	if (!o->base || has_prefix(name, "dmesg.") || has_prefix(name, "kmsg.") ||
	    has_prefix(name, "last_state.") || has_prefix(name, "stderr."))
		return false;
	stem = function_stem(name, bad, ARRAY_SIZE(bad));
	if (stem)
		return !base_has_variant(o->base, name, stem, good, 1);
	stem = function_stem(name, good, 1);
	if (stem)
		return !base_has_variant(o->base, name, stem, bad,
					 ARRAY_SIZE(bad));
	return false;
}

/* LKP::ChangedStat#change? (changed_stat.rb:43-85) */
static bool changed_stat(const struct lkp_record *s, bool integral,
			 const struct lkp_options *o)
{
	double len_a = s->max_a - s->min_a, len_b = s->max_b - s->min_b;

	if (o->distance > 0) {
		double gap = fmax(s->min_a - s->max_b, s->min_b - s->max_a);
		double gd = o->gap_distance > 0 ? o->gap_distance : 2;

		if (integral && (s->min_a - s->max_b == 1 ||
				 s->min_b - s->max_a == 1))
			return false;
		if (s->na < 3 || s->nb < 3)
			return gap > o->distance * fmax(len_a, len_b);
		return gap > 0 &&
		       gap > fabs(s->median_b - s->median_a) / gd;
	}
	return (s->min_b > s->median_a && s->median_b > s->max_a) ||
	       (s->min_a > s->median_b && s->median_a > s->max_b);
}

enum lkp_outcome lkp_changed(const struct stat_rules *r, const char *name,
			     const double *a, size_t na, const double *b,
			     size_t nb, bool base_has,
			     const struct lkp_options *o,
			     struct lkp_record *rec)
{
	struct lkp_record local;
	/* cppcheck-suppress uninitvar ; memset below fills it before any read */
	struct lkp_record *s = rec ? rec : &local;
	double abuf[128], bbuf[128], *sa = abuf, *sb = bbuf;
	size_t cap_a, cap_b, i;
	bool is_func, is_profile, integral;
	enum lkp_outcome ret;

	memset(s, 0, sizeof(*s));
	is_func = stat_is_function(r, name);
	s->is_function = is_func;
	s->nr_run = na;
	if (o->perf_only && !is_func && !stat_is_perf_metric(r, name))
		return LKP_SKIP_PERF;
	/*
	 * A perf stat one side has no value of is not a change: a missing
	 * value is missing (LKP compares zeros: -100%, or +5e+101% vs 0).
	 * A failure stat's absence is "did not happen", its zeros are real.
	 */
	if (!is_func && (!na || !nb))
		return nb ? LKP_SKIP_MISSING : LKP_SKIP_NO_BASE;
	/* the bisectable / allow-list filter (step 2) is checked after the
	 * change test: same decision, but 300 patterns only for candidates */
	if (is_func) {
		if (skip_function_stat(o, name))
			return LKP_SKIP_FUNCTION;
	} else if (!o->force && na < 3 && nb < 3) {
		return LKP_SKIP_FEW_RUNS;
	}
	is_profile = has_prefix(name, "perf-profile.");
	if (!base_has && !is_func &&
	    !(is_profile && o->base_has_perf_profile) &&
	    !(has_prefix(name, "lock_stat.") && o->base_has_lock_stat))
		return LKP_SKIP_NO_BASE;
	if (!na)
		return LKP_NOT_CHANGED;

	if (na > ARRAY_SIZE(abuf))
		sa = xmalloc(na * sizeof(*sa));
	if (nb > ARRAY_SIZE(bbuf))
		sb = xmalloc(nb * sizeof(*sb));
	memcpy(sa, a, na * sizeof(*sa));
	if (b)
		memcpy(sb, b, nb * sizeof(*sb));
	else
		for (i = 0; i < nb; i++)
			sb[i] = 0; /* a missing stat is zeros (stats.rb:698) */
	integral = all_integral(sa, na) && all_integral(sb, nb);

	/* margins: n/32 capped at 3 (perf) or 0 (function); a at 1 when b <= 3 */
	cap_b = is_func ? 0 : 3;
	cap_a = cap_b;
	if (nb <= 3 && cap_a > 1)
		cap_a = 1;
	s->na = lkp_trim(sa, na, cap_a);
	s->nb = lkp_trim(sb, nb, cap_b);
	if (!is_func) {
		s->na = trim_min_margin(sa, na, s->na, o->min_margin);
		s->nb = trim_min_margin(sb, nb, s->nb, o->min_margin);
	}
	if (!s->na || !s->nb) {
		ret = LKP_NOT_CHANGED;
		goto out;
	}
	s->min_a = sa[0];
	s->max_a = sa[s->na - 1];
	s->median_a = sa[s->na / 2];
	s->min_b = sb[0];
	s->max_b = sb[s->nb - 1];
	s->median_b = sb[s->nb / 2];
	/* the change test, first matching branch (stats.rb:521-531) */
	{
		double len_a = s->max_a - s->min_a, len_b = s->max_b - s->min_b;
		bool changed;

		if (is_func) {
			changed = s->max_a != s->max_b;
		} else if (o->variance > 0 && s->na >= 10 && s->nb >= 10) {
			changed = len_a * s->median_b >
					  o->variance * len_b * s->median_a ||
				  len_b * s->median_a >
					  o->variance * len_a * s->median_b;
		} else if (o->gap > 0) {
			double gap = fmax(s->min_a - s->max_b,
					  s->min_b - s->max_a);

			changed = gap > 0 &&
				  gap > o->gap *
						fabs(s->median_a - s->median_b);
		} else {
			s->used_changed_stat = true;
			changed = changed_stat(s, integral, o);
		}
		if (!changed) {
			ret = LKP_NOT_CHANGED;
			goto out;
		}
		/* formatted only for candidates: four %g per stat were a
		 * tenth of compare's time on 50,000 stats */
		snprintf(s->interval, sizeof(s->interval),
			 "[ %-10.5g - %-10.5g ] -- [ %-10.5g - %-10.5g ]",
			 s->min_a, s->max_a, s->min_b, s->max_b);
		if (!o->more && !o->force &&
		    !stat_in_report_allowlist(r, name) &&
		    !stat_is_bisectable(r, name)) {
			ret = LKP_SKIP_FILTER;
			goto out;
		}

		/* metrics (calc_stats_metrics, stats.rb:657-682) */
		{
			bool a_high = s->median_a > s->median_b;
			double med_hi = a_high ? s->median_a : s->median_b;
			double med_lo = a_high ? s->median_b : s->median_a;
			double min_hi = a_high ? s->min_a : s->min_b;
			double max_lo = a_high ? s->max_b : s->max_a;

			s->ratio = med_lo <= 0 ? 5 : med_hi / med_lo;
			if (s->ratio > 5)
				s->ratio = 5;
			s->delta = med_hi - med_lo;
			s->y = fmax(0, min_hi - max_lo);
			s->x = (s->na <= 2 && len_a < len_b) ? len_b : len_a;
			s->z = len_b;
			s->max = fmax(s->max_a, s->max_b);
		}
	}

	/* the small-change filter (skip_small_change?, stats.rb:599-608) */
	if (!is_func && !o->force && !(is_profile && o->perf_profile)) {
		if (!(s->ratio > 1.01) ||
		    (!(s->ratio > 1.05) && !stat_is_perf_metric(r, name)) ||
		    !stat_reasonable_change(r, name, s->delta, s->max)) {
			ret = LKP_SKIP_SMALL;
			goto out;
		}
	}
	ret = LKP_CHANGED;
out:
	if (sa != abuf)
		free(sa);
	if (sb != bbuf)
		free(sb);
	return ret;
}

/* ---- beyond LKP ---- */

void stats_scratch_init(struct stats_scratch *s)
{
	memset(s, 0, sizeof(*s));
}

void stats_scratch_release(struct stats_scratch *s)
{
	free(s->buf);
	free(s->mwu_cdf);
	memset(s, 0, sizeof(*s));
}

static double *scratch_buf(struct stats_scratch *s, size_t n)
{
	ALLOC_GROW(s->buf, n, s->alloc);
	return s->buf;
}

static void mean_var(const double *v, size_t n, double *mean, double *var)
{
	double m = stats_mean(v, n), ss = 0;
	size_t i;

	for (i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	*mean = m;
	*var = n > 1 ? ss / (double)(n - 1) : 0;
}

double stats_welch_p(const double *a, size_t na, const double *b, size_t nb)
{
	double ma, va, mb, vb, sa, sb, se2, t, df, scale;

	if (na < 2 || nb < 2)
		return 1;
	mean_var(a, na, &ma, &va);
	mean_var(b, nb, &mb, &vb);
	sa = va / (double)na;
	sb = vb / (double)nb;
	se2 = sa + sb;
	/* variance below rounding noise of the means: treat as exact */
	scale = fmax(fabs(ma), fabs(mb));
	if (se2 <= 0 || sqrt(se2) <= 1e-12 * scale)
		return ma == mb || fabs(ma - mb) <= 1e-12 * scale ? 1 : 0;
	t = (ma - mb) / sqrt(se2);
	df = se2 * se2 / (sa * sa / (double)(na - 1) +
			  sb * sb / (double)(nb - 1));
	return fmin(1, 2 * gsl_cdf_tdist_Q(fabs(t), df));
}

/* ---- the noise guard: a moderated t (stats.h) ---- */

void stats_noise_prior_init(struct stats_noise_prior *np, size_t na,
			    size_t nb)
{
	memset(np, 0, sizeof(*np));
	np->na = na;
	np->nb = nb;
	np->d = na + nb >= 2 ? (double)(na + nb - 2) : 0;
}

double stats_rel_var(const double *a, size_t na, const double *b, size_t nb)
{
	double ma, va, mb, vb;

	/* one run on a side is fine: the other side gives the noise */
	if (!na || !nb || na + nb < 3)
		return -1;
	mean_var(a, na, &ma, &va);
	mean_var(b, nb, &mb, &vb);
	if (mb == 0 || !isfinite(va) || !isfinite(vb))
		return -1;
	return (va * (double)(na - 1) + vb * (double)(nb - 1)) /
	       (double)(na + nb - 2) / (mb * mb);
}

void stats_noise_prior_add(struct stats_noise_prior *np, double rel_var)
{
	double z;

	if (!(rel_var > 0) || !isfinite(rel_var))
		return; /* constant stats carry no noise to learn from */
	z = log(rel_var);
	np->sum_z += z;
	np->sum_z2 += z * z;
	np->n++;
}

/* the y with trigamma(y) = x: Newton's method as in limma */
static double trigamma_inverse(double x)
{
	double y;
	int i;

	if (x > 1e7)
		return 1 / sqrt(x);
	if (x < 1e-6)
		return 1 / x;
	y = 0.5 + 1 / x;
	for (i = 0; i < 50; i++) {
		double tri = gsl_sf_psi_1(y);
		double dif = tri * (1 - tri / x) / gsl_sf_psi_n(2, y);

		y += dif;
		if (-dif / y < 1e-8)
			break;
	}
	return y;
}

/*
 * Smyth's moment estimate: log s^2 has mean log s0^2 + psi(d/2) -
 * log(d/2) - psi(d0/2) + log(d0/2) and variance psi'(d/2) + psi'(d0/2).
 */
void stats_noise_prior_fit(struct stats_noise_prior *np)
{
	double n = (double)np->n, zmean, zvar, emean, evar;

	np->d0 = 0;
	np->s02 = 0;
	if (np->n < 3 || np->d <= 0)
		return;
	zmean = np->sum_z / n;
	zvar = (np->sum_z2 - n * zmean * zmean) / (n - 1);
	emean = zmean - gsl_sf_psi(np->d / 2) + log(np->d / 2);
	evar = zvar - gsl_sf_psi_1(np->d / 2);
	if (evar > 0) {
		np->d0 = 2 * trigamma_inverse(evar);
		np->s02 = exp(emean + gsl_sf_psi(np->d0 / 2) - log(np->d0 / 2));
	} else {
		np->d0 = INFINITY;
		np->s02 = exp(emean);
	}
}

double stats_moderated_p(const struct stats_noise_prior *np, const double *a,
			 const double *b)
{
	double ma = stats_mean(a, np->na), mb = stats_mean(b, np->nb);
	double s2 = stats_rel_var(a, np->na, b, np->nb), post, t, df;

	if (s2 < 0)
		return stats_welch_p(a, np->na, b, np->nb);
	if (isinf(np->d0))
		post = np->s02;
	else
		post = (np->d0 * np->s02 + np->d * s2) / (np->d0 + np->d);
	if (!(post > 0))
		return ma == mb ? 1 : 0;
	t = (ma - mb) / fabs(mb) /
	    sqrt(post * (1 / (double)np->na + 1 / (double)np->nb));
	df = np->d + np->d0;
	if (isinf(df))
		return fmin(1, 2 * gsl_cdf_ugaussian_Q(fabs(t)));
	return fmin(1, 2 * gsl_cdf_tdist_Q(fabs(t), df));
}

struct ranked {
	double v;
	int from_a;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	return (a->v > b->v) - (a->v < b->v);
}

/* P(U <= u) for sizes (m, n) without ties, into s->mwu_cdf */
static void mwu_exact_cdf(struct stats_scratch *s, size_t m, size_t n)
{
	size_t umax = m * n, i, j, u;
	double *f, *g, total = 0;

	if (s->mwu_cdf && s->mwu_na == m && s->mwu_nb == n)
		return;
	free(s->mwu_cdf);
	/* f[j][u]: arrangements of i a's and j b's with U = u, built up in i */
	f = xcalloc((n + 1) * (umax + 1), sizeof(double));
	g = xcalloc((n + 1) * (umax + 1), sizeof(double));
	for (j = 0; j <= n; j++)
		f[j * (umax + 1)] = 1; /* i = 0: U = 0 */
	for (i = 1; i <= m; i++) {
		memset(g, 0, (n + 1) * (umax + 1) * sizeof(double));
		for (j = 0; j <= n; j++)
			for (u = 0; u <= umax; u++) {
				/* last element an a (beats j b's) or a b */
				double v = 0;

				if (u >= j)
					v += f[j * (umax + 1) + u - j];
				if (j)
					v += g[(j - 1) * (umax + 1) + u];
				g[j * (umax + 1) + u] = v;
			}
		memcpy(f, g, (n + 1) * (umax + 1) * sizeof(double));
	}
	s->mwu_cdf = xcalloc(umax + 1, sizeof(double));
	for (u = 0; u <= umax; u++)
		total += f[n * (umax + 1) + u];
	for (u = 0; u <= umax; u++)
		s->mwu_cdf[u] = (u ? s->mwu_cdf[u - 1] : 0) +
				f[n * (umax + 1) + u] / total;
	free(f);
	free(g);
	s->mwu_na = m;
	s->mwu_nb = n;
}

/*
 * Exact two-sided p with ties: enumerate the null distribution of the
 * doubled rank sum of a over all C(N, na) subsets by counting (N <= 14).
 */
static double mwu_exact_ties(const int *r2, size_t N, size_t na, int obs2)
{
	size_t maxsum = 0, i, k, sidx;
	double *cnt, total = 0, ge = 0;
	double mean2;

	for (i = 0; i < N; i++)
		maxsum += (size_t)r2[i];
	cnt = xcalloc((na + 1) * (maxsum + 1), sizeof(double));
	cnt[0] = 1;
	for (i = 0; i < N; i++)
		for (k = (i + 1 < na ? i + 1 : na); k >= 1; k--)
			for (sidx = maxsum; sidx >= (size_t)r2[i]; sidx--)
				cnt[k * (maxsum + 1) + sidx] +=
					cnt[(k - 1) * (maxsum + 1) + sidx -
					    (size_t)r2[i]];
	mean2 = (double)na * (double)(N + 1); /* E[doubled rank sum] */
	for (sidx = 0; sidx <= maxsum; sidx++) {
		double c = cnt[na * (maxsum + 1) + sidx];

		total += c;
		/* two-sided: as far from the mean as observed, or further */
		if (fabs((double)sidx - mean2) >= fabs((double)obs2 - mean2) - 1e-9)
			ge += c;
	}
	free(cnt);
	return total > 0 ? fmin(1, ge / total) : 1;
}

double stats_mwu_p(struct stats_scratch *s, const double *a, size_t na,
		   const double *b, size_t nb, double *u_out)
{
	size_t N = na + nb, i, j;
	struct ranked stack[64], *all = stack;
	int r2stack[64], *r2 = r2stack;
	double ra2 = 0, u, tie_term = 0, p;
	bool ties = false;

	if (u_out)
		*u_out = 0;
	if (!na || !nb)
		return 1;
	if (N > ARRAY_SIZE(stack)) {
		all = xmalloc(N * sizeof(*all));
		r2 = xmalloc(N * sizeof(*r2));
	}
	for (i = 0; i < na; i++) {
		all[i].v = a[i];
		all[i].from_a = 1;
	}
	for (i = 0; i < nb; i++) {
		all[na + i].v = b[i];
		all[na + i].from_a = 0;
	}
	qsort(all, N, sizeof(*all), cmp_ranked);
	/* doubled midranks: ranks i+1 .. j share (i+1 + j) */
	for (i = 0; i < N; i = j) {
		size_t t;

		for (j = i + 1; j < N && all[j].v == all[i].v; j++)
			;
		t = j - i;
		if (t > 1) {
			ties = true;
			tie_term += (double)t * (double)t * (double)t - (double)t;
		}
		for (size_t k = i; k < j; k++)
			r2[k] = (int)(i + 1 + j);
	}
	for (i = 0; i < N; i++)
		if (all[i].from_a)
			ra2 += r2[i];
	u = ra2 / 2 - (double)na * (double)(na + 1) / 2;
	if (u_out)
		*u_out = u;
	if (tie_term == (double)N * N * N - (double)N) {
		p = 1; /* every value equal */
	} else if (!ties && N <= 20) {
		size_t ui = (size_t)llround(u);
		double lo, hi;

		mwu_exact_cdf(s, na, nb);
		lo = s->mwu_cdf[ui];
		hi = 1 - (ui ? s->mwu_cdf[ui - 1] : 0);
		p = fmin(1, 2 * fmin(lo, hi));
	} else if (ties && N <= 14) {
		p = mwu_exact_ties(r2, N, na, (int)llround(ra2));
	} else {
		double mu = (double)na * (double)nb / 2;
		double sigma2 = (double)na * (double)nb / 12 *
				((double)(N + 1) - tie_term / ((double)N * (double)(N - 1)));
		double z;

		if (sigma2 <= 0) {
			p = 1;
		} else {
			z = (fabs(u - mu) - 0.5) / sqrt(sigma2);
			p = z <= 0 ? 1 : fmin(1, 2 * gsl_cdf_ugaussian_Q(z));
		}
	}
	if (all != stack) {
		free(all);
		free(r2);
	}
	return p;
}

uint64_t stats_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

static bool constant(const double *v, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i] != v[0])
			return false;
	return true;
}

/*
 * Mean of n draws with replacement from v.  Each 64-bit output gives two
 * draws (its halves, mapped by multiply-shift: a bias of n / 2^32 at
 * most), which halves the bootstrap's cost.
 */
static double resample_mean(const double *v, size_t n, uint64_t *state)
{
	uint64_t m = (uint64_t)n;
	double sum = 0;
	size_t i;

	for (i = 0; i + 1 < n; i += 2) {
		uint64_t x = stats_splitmix64(state);

		sum += v[((x >> 32) * m) >> 32];
		sum += v[((x & 0xffffffffu) * m) >> 32];
	}
	if (i < n)
		sum += v[((stats_splitmix64(state) >> 32) * m) >> 32];
	return sum / (double)n;
}

/*
 * The lo-th smallest and the hi-th smallest of v[0..n) (0-based, lo <=
 * hi) when both lie in a short tail: one pass keeping the smallest lo + 1
 * and the largest n - hi values, sorted by insertion.  The bootstrap's
 * 2.5% and 97.5% points of 1,000 resamples need 25 values at each end;
 * two quickselects cost a fifth of the bootstrap.  false when a tail is
 * too long for this.
 */
#define TAIL_MAX 64
static bool select_tails(const double *v, size_t n, size_t lo, size_t hi,
			 double *vlo, double *vhi)
{
	double low[TAIL_MAX], high[TAIL_MAX];
	size_t nl = lo + 1, nh = n - hi, cl = 0, ch = 0, i, j;

	if (lo > hi || hi >= n || nl > TAIL_MAX || nh > TAIL_MAX)
		return false;
	for (i = 0; i < n; i++) {
		double x = v[i];

		/* low: ascending, the nl smallest so far */
		if (cl < nl || x < low[cl - 1]) {
			if (cl < nl)
				cl++;
			for (j = cl - 1; j > 0 && low[j - 1] > x; j--)
				low[j] = low[j - 1];
			low[j] = x;
		}
		/* high: descending, the nh largest so far */
		if (ch < nh || x > high[ch - 1]) {
			if (ch < nh)
				ch++;
			for (j = ch - 1; j > 0 && high[j - 1] < x; j--)
				high[j] = high[j - 1];
			high[j] = x;
		}
	}
	*vlo = low[nl - 1];
	*vhi = high[nh - 1];
	return true;
}

double stats_select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		double pivot = v[lo + (hi - lo) / 2];
		size_t i = lo, j = hi;

		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				double t = v[i];

				v[i] = v[j];
				v[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return v[k];
}

void stats_bootstrap_ci(struct stats_scratch *s, const double *a, size_t na,
			const double *b, size_t nb, const char *name,
			uint64_t seed, unsigned iters, double *lo, double *hi)
{
	uint64_t state = seed ^ fnv1a(name);
	double ma = stats_mean(a, na), mb = stats_mean(b, nb);
	bool ca = constant(a, na), cb = constant(b, nb);
	double *v;
	size_t k = 0, i, klo, khi;

	if (!na || !nb || mb == 0 || !iters) {
		*lo = -INFINITY;
		*hi = INFINITY;
		return;
	}
	if (ca && cb) {
		*lo = *hi = 100 * (ma - mb) / mb;
		return;
	}
	v = scratch_buf(s, iters);
	for (i = 0; i < iters; i++) {
		double xa = ca ? ma : resample_mean(a, na, &state);
		double xb = cb ? mb : resample_mean(b, nb, &state);

		if (xb == 0)
			continue;
		v[k++] = 100 * (xa - xb) / xb;
	}
	if (!k) {
		*lo = -INFINITY;
		*hi = INFINITY;
		return;
	}
	/* percentile interval: the 2.5% and 97.5% points */
	klo = (size_t)floor(0.025 * (double)(k - 1));
	khi = (size_t)ceil(0.975 * (double)(k - 1));
	if (!select_tails(v, k, klo, khi, lo, hi)) {
		*lo = stats_select_kth(v, k, klo);
		*hi = stats_select_kth(v, k, khi);
	}
}

struct pidx {
	double p;
	size_t i;
};

static int cmp_pidx(const void *pa, const void *pb)
{
	const struct pidx *a = pa, *b = pb;

	if (a->p != b->p)
		return (a->p > b->p) - (a->p < b->p);
	return (a->i > b->i) - (a->i < b->i);
}

void stats_bh_qvalues(const double *p, size_t n, double *q)
{
	struct pidx *v;
	double running = 1;
	size_t k;

	if (!n)
		return;
	v = xmalloc(n * sizeof(*v));
	for (k = 0; k < n; k++) {
		v[k].p = isnan(p[k]) ? 1 : p[k];
		v[k].i = k;
	}
	qsort(v, n, sizeof(*v), cmp_pidx);
	for (k = n; k-- > 0;) {
		double qk = v[k].p * (double)n / (double)(k + 1);

		if (qk < running)
			running = qk;
		q[v[k].i] = running;
	}
	free(v);
}

const char *stats_verdict_name(enum stats_verdict v)
{
	switch (v) {
	case VERDICT_CHANGED: return "changed";
	case VERDICT_SAME: return "same";
	case VERDICT_UNKNOWN: return "unknown";
	}
	return "?";
}

enum stats_verdict stats_verdict(double q, double ci_lo, double ci_hi,
				 double change_pct, double rel_noise_pct,
				 size_t n, const struct verdict_params *vp,
				 unsigned *more_runs)
{
	double d = fabs(change_pct), s = rel_noise_pct, need;

	*more_runs = 0;
	if (q <= vp->alpha && (ci_lo > 0 || ci_hi < 0))
		return VERDICT_CHANGED;
	if (ci_lo >= -vp->margin && ci_hi <= vp->margin)
		return VERDICT_SAME;
	/*
	 * Runs per side for the interval to clear 0 with 80% power (when the
	 * change is beyond the margin) or to fit inside the margin (when it
	 * is within): n = 2 (z s / gap)^2, normal approximation.
	 */
	if (!isfinite(s) || !isfinite(d) || s <= 0) {
		need = (double)n + 1;
	} else if (d >= vp->margin) {
		need = 2 * pow((1.96 + 0.84) * s / d, 2);
	} else {
		need = 2 * pow(1.96 * s / (vp->margin - d), 2);
	}
	if (need > (double)n + 999 || isnan(need))
		*more_runs = 999;
	else if (need <= (double)n)
		*more_runs = 1;
	else
		*more_runs = (unsigned)ceil(need - (double)n);
	return VERDICT_UNKNOWN;
}

bool stats_head_can_decide(double change_pct, double base_noise_pct,
			   size_t nb, double head_noise_pct, size_t nh,
			   const struct kpi_verdict_params *kp)
{
	double margin = kp->threshold > 0 ? kp->threshold : kp->margin;
	double d = fabs(change_pct), eh, eb;

	if (!nb || !nh || !isfinite(d) || !isfinite(base_noise_pct) ||
	    !isfinite(head_noise_pct))
		return true; /* nothing to go by: let runs tell */
	eh = 1.96 * head_noise_pct / sqrt((double)nh);
	eb = base_noise_pct / sqrt((double)nb);
	if (d + eh >= gsl_cdf_ugaussian_Qinv(kp->level / 2) * eb)
		return true; /* could become significant */
	return fmax(d - eh, 0) + 1.96 * eb <= margin; /* could fit the margin */
}

enum stats_verdict stats_kpi_verdict(bool selected, double ci_lo,
				     double ci_hi, double change_pct,
				     double rel_noise_pct, size_t n,
				     const struct kpi_verdict_params *kp,
				     unsigned *more_runs)
{
	double d = fabs(change_pct), s = rel_noise_pct, need;
	double margin = kp->threshold > 0 ? kp->threshold : kp->margin;
	double z_level = gsl_cdf_ugaussian_Qinv(kp->level / 2);

	*more_runs = 0;
	if (selected && d >= kp->threshold)
		return VERDICT_CHANGED;
	if (ci_lo >= -margin && ci_hi <= margin)
		return VERDICT_SAME;
	if (!isfinite(s) || !isfinite(d) || s <= 0)
		need = (double)n + 1; /* no noise to go by: one more */
	else if (d >= margin)
		need = 2 * pow((z_level + 0.84) * s / d, 2);
	else
		need = 2 * pow(1.96 * s / (margin - d), 2);
	if (need < 3)
		need = 3; /* LKP's rules judge no stat below 3 runs a side */
	if (isnan(need) || need > (double)n + 999)
		*more_runs = 999;
	else if (need <= (double)n)
		*more_runs = 1;
	else
		*more_runs = (unsigned)ceil(need - (double)n);
	return VERDICT_UNKNOWN;
}
