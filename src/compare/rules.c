/*
 * rules.c: LKP's selection rules, driven by its own tables (lkp_tables.c):
 * which stats are failures, perf metrics, bisectable, KPIs, which way is
 * better, and whether a change is large enough to report (rules.h).
 *
 * Why it lives in compare/: these rules exist to decide what a
 * comparison reports (compare, and bisect and report, which sit above
 * it, ask the same questions); they compile the LKP tables that live
 * beside them here, and nothing below the compare stage uses them but
 * the job's KPI declaration (job/kpi.c fills struct stat_rules).
 *
 * Pure computation: no I/O, no globals; the compiled tables live in the
 * caller's struct stat_rules.  Speed matters (50,000 stats in a fraction
 * of a second), so every pattern carries a literal prefilter -- an
 * anchored prefix, a required substring or a set of required
 * alternatives -- checked before regexec.
 */
#include "util/compat.h"
#include <ctype.h>
#include <fnmatch.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include "compare/lkp_tables.h"
#include "compare/rules.h"
#include "job/programs.h"
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

/*
 * How LKP applies a pattern: its line lists (etc/failure, etc/pass) match
 * from the start of the name, the YAML tables' keys match the whole name,
 * the other lists anywhere.  Made explicit here, as POSIX anchors.
 */
enum anchor { ANCHOR_NONE, ANCHOR_START, ANCHOR_WHOLE };

/* ---- literal prefilters ---- */

/* a character a prefilter cannot take literally (ERE's metacharacters) */
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
		/* "\." is a literal dot; "\d" and friends are classes */
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
		/*
		 * A literal that must occur extends the run; "x+" must occur
		 * once but may repeat, so it ends the run after itself.
		 */
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
				/* one-character alternatives filter
				 * nothing: strstr would cost more than
				 * it saves */
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
	/* a substring the prefix already implies would be checked twice */
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

/*
 * Prepare one of LKP's patterns: Ruby's syntax made POSIX, the anchor
 * written into the pattern, the prefilter taken from the unanchored
 * text (regcomp waits for the first name that passes the prefilter).
 */
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

/* the prefilter first: it rejects most names without regexec */
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

/* a YAML table: each pattern with its weight or floor (value, is_int) */
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

/*
 * LKP takes the first pattern of a table that matches (its tables are
 * ordered, specific before general), so the order is kept and the scan
 * stops there.
 */
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

void stat_rules_reset_job(struct stat_rules *r)
{
	size_t i;

	for (i = 0; i < r->nbenchmarks; i++)
		free(r->benchmarks[i]);
	r->nbenchmarks = 0;
	for (i = 0; i < r->nkpis; i++)
		free(r->kpis[i].pattern);
	r->nkpis = 0;
	stat_rules_add_benchmark(r, "mytest");
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
		r->time_floor_scale = runtime_s < LKP_RUNTIME ?
					      runtime_s / LKP_RUNTIME : 1.0;
}

/*
 * Timings and boot stages of a failure-looking name ("dmesg.timestamp:",
 * "*.time.*") are numbers, not events: LKP's function test leaves them
 * out before it looks at etc/failure.
 */
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
		if (stat_has_prefix(name, *p))
			return true;
	if (benchmark_of(r, name))
		return true;
	return first_match(r->perf_patterns, r->nperf_patterns, name) != NULL;
}

/* the allow-list wins over the deny-list, as in LKP's stat filter */
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
	const char *b;

	/* a declaration replaces the implicit KPIs */
	if (r->nkpis)
		return stat_kpi_decl(r, name) != NULL;
	b = benchmark_of(r, name);
	/*
	 * The time monitor's figures (`time.*`, and `<testcase>.time.*`, its
	 * per-program copy) say how fast the machine was, not what the
	 * benchmark measured: as implicit KPIs they made CI's exit status
	 * depend on machine speed (a slower head exited 1).  They are still
	 * compared and shown; only a declaration makes one a KPI.
	 */
	return b && !stat_has_prefix(name + strlen(b) + 1, "time.") &&
	       !stat_has_prefix(name, "time.");
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

/* ---- the calibrated noise floor (perfsift's, not LKP's) ---- */

bool stat_within_noise_floor(double change_pct, double floor_pct, double k)
{
	/* written so that a NAN on either side is "no floor to go by" */
	return isfinite(change_pct) && isfinite(floor_pct) && floor_pct >= 0 &&
	       fabs(change_pct) <= k * floor_pct;
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
		if (stat_has_suffix(name, lower_suffixes[i]))
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

		/* a floor in seconds assumes LKP's 300 s run (rules.h) */
		if (stat_is_time_valued(name))
			t *= r->time_floor_scale;
		if (max < t)
			return false;
		if (m->is_int && delta < t / 2)
			return false;
		return true;
	}
	/*
	 * No table entry: LKP's built-in floors per monitor, in the units
	 * each one counts in (pages, events, interrupts), below which a
	 * change is the monitor's own noise.
	 */
	if (stat_has_prefix(name, "iostat"))
		return max > 1;
	if (stat_has_prefix(name, "pagetypeinfo") || stat_has_prefix(name, "buddyinfo") ||
	    stat_has_prefix(name, "slabinfo"))
		return delta > 100;
	if (stat_has_prefix(name, "proc-vmstat") || strstr(name, "meminfo"))
		return max > 1000;
	if (stat_has_prefix(name, "lock_stat"))
		return delta > (strstr(name, "time") ? 1000 : 10000);
	if (stat_has_prefix(name, "interrupts") || stat_has_prefix(name, "softirqs"))
		return max > 10000;
	return true;
}

/* ---- perfsift's default rules beyond LKP's (rules.h) ---- */

const char *stat_noise_rule_name(enum stat_noise_rule rule)
{
	switch (rule) {
	case NOISE_RULE_PASS: return "";
	case NOISE_RULE_IDENTIFIER: return "identifier";
	case NOISE_RULE_SMALL_SHARE: return "small-share";
	case NOISE_RULE_FEW_RUNS: return "machine-state-few-runs";
	case NOISE_RULE_SPREAD: return "machine-state-spread";
	case NOISE_RULE_FLOOR: return "machine-state-floor";
	}
	return "?";
}

/*
 * sched_debug's `curr->pid` is the PID of whatever task ran when the
 * file was read: PIDs only grow, with every fork on the machine, so two
 * batches of runs always differ and the difference says nothing.
 */
bool stat_is_identifier(const char *name)
{
	return stat_has_prefix(name, "sched_debug.") &&
	       strstr(name, "curr->pid") != NULL;
}

/*
 * The monitors whose stats describe the whole machine: what every other
 * process on it moves.  The CPU's idle time and shares (cpuidle counts
 * the machine's idle, not the workload's work), the scheduler's averages
 * and run queues, the load average, the memory state (free, page cache,
 * slab, page tables of every process) and perf-profile, which samples
 * every CPU (`perf record -a`), so its shares are of the machine's time.
 */
static const char *const machine_state_prefixes[] = {
	"cpuidle.", "vmstat.cpu.", "vmstat.procs.", "vmstat.memory.",
	"mpstat.", "proc-stat.cpu.", "proc-stat.procs_",
	"proc-stat.processes", "sched_debug.", "loadavg.",
	"meminfo.", "numa-meminfo.", "boot-meminfo.", "proc-vmstat.nr_",
	"numa-vmstat.", "buddyinfo.", "pagetypeinfo.", "slabinfo.",
	"perf-profile.",
};

/*
 * Among those, LKP's event counters (etc/event-counter-prefixes and
 * -patterns: proc-vmstat and numa-vmstat): they count what happened
 * during the run (pages dirtied, written, promoted), which the workload
 * drives, not a level of the machine.
 */
static const char *const vmstat_counters[] = {
	"nr_dirtied", "nr_written", "nr_vmscan_immediate_reclaim",
	"nr_promote", ".numa_", ".pg",
};

bool stat_is_machine_state(const char *name)
{
	size_t i;
	bool found = false;

	for (i = 0; i < ARRAY_SIZE(machine_state_prefixes) && !found; i++)
		found = stat_has_prefix(name, machine_state_prefixes[i]);
	if (!found)
		return false;
	if (stat_has_prefix(name, "proc-vmstat.") ||
	    stat_has_prefix(name, "numa-vmstat."))
		for (i = 0; i < ARRAY_SIZE(vmstat_counters); i++)
			if (strstr(name, vmstat_counters[i]))
				return false;
	return true;
}

/* min, max and mean of v[0..n), n > 0 */
static void span_of(const double *v, size_t n, double *lo, double *hi,
		    double *mean)
{
	double sum = 0;
	size_t i;

	*lo = *hi = v[0];
	for (i = 0; i < n; i++) {
		if (v[i] < *lo)
			*lo = v[i];
		if (v[i] > *hi)
			*hi = v[i];
		sum += v[i];
	}
	*mean = sum / (double)n;
}

enum stat_noise_rule stat_noise_rule(const char *name, const double *a,
				     size_t na, const double *b, size_t nb,
				     double floor_pct)
{
	double lo_a, hi_a, mean_a, lo_b, hi_b, mean_b, gap, spread;

	if (stat_is_identifier(name))
		return NOISE_RULE_IDENTIFIER;
	if (!na || !nb)
		return NOISE_RULE_PASS; /* nothing to judge: a side lacks it */
	span_of(a, na, &lo_a, &hi_a, &mean_a);
	span_of(b, nb, &lo_b, &hi_b, &mean_b);
	/*
	 * LKP's own floor for perf-profile.* in perf-metrics-threshold.yaml
	 * (max < 1: not a change), which ncompare's perf-profile option
	 * turns off: a symbol under 1% of the samples on both sides is a
	 * handful of samples, and their count is Poisson noise.
	 */
	if (stat_has_prefix(name, "perf-profile.") && fmax(hi_a, hi_b) < 1)
		return NOISE_RULE_SMALL_SHARE;
	if (!stat_is_machine_state(name))
		return NOISE_RULE_PASS;
	/* the spread of a side is only seen with LKP's 3 runs or more */
	if (na < 3 || nb < 3)
		return NOISE_RULE_FEW_RUNS;
	/*
	 * The sides must be further apart than either spreads: the gap
	 * between the nearest values of the two sides larger than the wider
	 * side's range (LKP's ChangedStat with a distance of 1).  For five
	 * normal runs a side that is a change of about 4.7 standard
	 * deviations, where the noise guard asks about 3.5.
	 */
	gap = fmax(lo_a - hi_b, lo_b - hi_a);
	spread = fmax(hi_a - lo_a, hi_b - lo_b);
	if (!(gap > spread))
		return NOISE_RULE_SPREAD;
	/*
	 * And larger than the class's floor: a level of the machine steps
	 * between two batches of runs even when each batch is steady (the
	 * page cache by 3-8% in bench/aa.sh's A/A), which no spread shows.
	 */
	if (mean_b != 0 && 100 * fabs(mean_a - mean_b) / fabs(mean_b) < floor_pct)
		return NOISE_RULE_FLOOR;
	return NOISE_RULE_PASS;
}

/*
 * The text comes from the job module's kpi_format() (job/kpi.h); the
 * declaring is here, beside the rules it fills, so that job/ needs
 * nothing of compare/.
 */
int kpi_declare(struct stat_rules *r, const char *text)
{
	struct strbuf err = STRBUF_INIT;
	struct kpi_set s;
	size_t i;

	if (kpi_parse_text(text, &s, &err)) {
		strbuf_release(&err);
		return -1;
	}
	for (i = 0; i < s.n; i++)
		stat_rules_add_kpi(r, s.v[i].pattern, s.v[i].direction,
				   s.v[i].threshold);
	kpi_set_release(&s);
	strbuf_release(&err);
	return 0;
}
