/*
 * build.c: decide what the report says.  Two comparisons of the
 * same groups: LKP's default selection gives the table (as the e-mail
 * prints it) and the exit status; perfsift's statistics over every stat
 * give the headline KPI and the ranked "what explains it" list, so the
 * story rests on tested changes (q-value, bootstrap interval), not on
 * LKP's range heuristic.  Charts borrow the groups' per-run samples.
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "compare/rules.h"
#include "job/job.h"
#include "job/kpi.h"
#include "job/programs.h"
#include "result/matrix.h"
#include "report/build.h"
#include "report/bundle.h"
#include "select/select.h"
#include "util/spawn.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * The samples a chart draws: the runs that have the stat -- borrowed from
 * the matrix when every run has it, else a copy d owns.
 */
static const double *chart_samples(struct report_data *d,
				   const struct result_group *g,
				   const char *name, size_t *n)
{
	ssize_t i = matrix_find(&g->matrix, name);
	double *v;

	*n = 0;
	if (i < 0 || !g->matrix.nruns)
		return NULL;
	if (!g->matrix.present || matrix_nreal(&g->matrix, (size_t)i) ==
					  g->matrix.nruns) {
		*n = g->matrix.nruns;
		return &g->matrix.values[(size_t)i * g->matrix.nruns];
	}
	v = matrix_real_dup(&g->matrix, (size_t)i, n);
	if (v) {
		ALLOC_GROW(d->owned, d->nowned + 1, d->alloc_owned);
		d->owned[d->nowned++] = v;
	}
	return v;
}

static void fill_stat(struct report_data *d, struct report_stat *s,
		      const struct compare_row *row,
		      const struct result_group *base,
		      const struct result_group *head)
{
	const struct compare_cell *b = &row->cells[0], *h = &row->cells[1];

	memset(s, 0, sizeof(*s));
	s->separation = NAN;
	s->name = row->name;
	s->base_mean = b->mean;
	s->head_mean = h->mean;
	s->base_sd = b->stddev;
	s->head_sd = h->stddev;
	s->change = h->change;
	s->absolute = false; /* the seed: %change for every stat */
	s->is_function = row->is_function;
	s->changed = row->changed;
	s->undecided = h->kpi_judged && h->kpi_verdict == VERDICT_UNKNOWN;
	s->effect = h->effect == EFFECT_UNDEFINED ? NULL
						   : compare_effect_name(h->effect);
	s->q = h->q;
	s->base_v = chart_samples(d, base, row->name, &s->nbase);
	s->head_v = chart_samples(d, head, row->name, &s->nhead);
}

double report_rank_score(const struct report_stat *s)
{
	double b = fabs(s->base_mean), h = fabs(s->head_mean), size, w;

	if (b == 0 && h == 0)
		return 0;
	/* a side at zero (or a sign change) counts as a 1000-fold change */
	if (b == 0 || h == 0 || (s->base_mean < 0) != (s->head_mean < 0))
		size = log(1000);
	else
		size = fmin(fabs(log(h / b)), log(1000));
	/*
	 * significance: -log10(q) over 3, so q = 0.001 and below weigh 1
	 * and a barely significant q = 0.05 weighs 0.43; no q: half weight
	 */
	if (isnan(s->q))
		w = 0.5;
	else
		w = fmin(1, fmax(0, -log10(fmax(s->q, 1e-300)) / 3));
	return size * w;
}

/* the event part of a perf-profile name: "cycles-pp." and the like */
static const char *skip_event(const char *p)
{
	const char *dot = strchr(p, '.');

	return dot ? dot + 1 : p;
}

void report_alias_key(const char *name, struct strbuf *out)
{
	static const char *const pp_kinds[] = { "calltrace.", "children.",
						"self." };
	const char *p, *dot = strchr(name, '.');
	size_t i;

	if (!strncmp(name, "perf-profile.", 13)) {
		p = name + 13;
		for (i = 0; i < ARRAY_SIZE(pp_kinds); i++)
			if (!strncmp(p, pp_kinds[i], strlen(pp_kinds[i])))
				p += strlen(pp_kinds[i]);
		p = skip_event(p);
		/* a chain is callee first: its first frame is the symbol */
		strbuf_addstr(out, "perf-profile:");
		strbuf_add(out, p, strcspn(p, "."));
		return;
	}
	/* `<testcase>.time.X`, one word before it, is the time monitor's */
	if (dot && !strncmp(dot + 1, "time.", 5))
		name = dot + 1;
	p = strstr(name, "numa_local");
	if (p && !p[10] && (p == name || p[-1] == '.')) {
		strbuf_add(out, name, (size_t)(p - name));
		strbuf_addstr(out, "numa_hit");
		return;
	}
	strbuf_addstr(out, name);
}

/* by separation (not judged: last), then by rank score, then by name */
static int cmp_explain(const void *a, const void *b)
{
	const struct report_stat *x = *(const struct report_stat *const *)a;
	const struct report_stat *y = *(const struct report_stat *const *)b;
	double px = isnan(x->separation) ? -1 : x->separation;
	double py = isnan(y->separation) ? -1 : y->separation;
	double sx = report_rank_score(x), sy = report_rank_score(y);

	if (px != py)
		return px > py ? -1 : 1;
	if (sx != sy)
		return sx > sy ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double report_separation(const double *good, size_t ngood, const double *bad,
			 size_t nbad)
{
	double *g, u = 0;
	size_t i, lo, hi;

	if (ngood < 3 || nbad < 3)
		return NAN;
	g = xmalloc(ngood * sizeof(*g));
	memcpy(g, good, ngood * sizeof(*g));
	qsort(g, ngood, sizeof(*g), cmp_double);
	/* U: for each bad value, the good ones below it, ties counting half */
	for (i = 0; i < nbad; i++) {
		for (lo = 0; lo < ngood && g[lo] < bad[i]; lo++)
			;
		for (hi = lo; hi < ngood && g[hi] == bad[i]; hi++)
			;
		u += (double)lo + 0.5 * (double)(hi - lo);
	}
	free(g);
	return fabs(2 * u / ((double)ngood * (double)nbad) - 1);
}

/* every present value of stat in the matrices, appended to *v */
static void pool_values(const struct matrix *const *m, size_t n,
			const char *stat, double **v, size_t *nv, size_t *alloc)
{
	size_t i, r;

	for (i = 0; i < n; i++) {
		ssize_t s = matrix_find(m[i], stat);

		if (s < 0)
			continue;
		ALLOC_GROW(*v, *nv + m[i]->nruns, *alloc);
		for (r = 0; r < m[i]->nruns; r++)
			if (matrix_has(m[i], (size_t)s, r))
				(*v)[(*nv)++] = matrix_at(m[i], (size_t)s, r);
	}
}

/*
 * s's separation over the pool's runs (else the two groups' own);
 * *decided when the pool holds REPORT_POOL_MIN_RUNS runs a side of it.
 */
static double stat_separation(const struct report_stat *s,
			      const struct report_pool *pool, bool *decided)
{
	double *g = NULL, *b = NULL, sep;
	size_t ng = 0, nb = 0, ag = 0, ab = 0;

	*decided = false;
	if (!pool)
		return report_separation(s->base_v, s->nbase, s->head_v,
					 s->nhead);
	pool_values(pool->good, pool->ngood, s->name, &g, &ng, &ag);
	pool_values(pool->bad, pool->nbad, s->name, &b, &nb, &ab);
	sep = report_separation(g, ng, b, nb);
	*decided = ng >= REPORT_POOL_MIN_RUNS && nb >= REPORT_POOL_MIN_RUNS;
	free(g);
	free(b);
	return sep;
}

/* the largest sample of either side */
static double max_sample(const struct report_stat *s)
{
	double m = -INFINITY;
	size_t i;

	for (i = 0; i < s->nbase; i++)
		m = fmax(m, s->base_v[i]);
	for (i = 0; i < s->nhead; i++)
		m = fmax(m, s->head_v[i]);
	return isfinite(m) ? m : fmax(s->base_mean, s->head_mean);
}

/*
 * A stat explains a change only if the change is large enough to matter
 * by LKP's per-stat floors (interrupts going from 1 to 2 is a +100%
 * change of no interest): the same floors compare applies to its table.
 */
static bool worth_explaining(const struct stat_rules *rules,
			     const struct report_stat *s)
{
	return stat_reasonable_change(rules, s->name,
				      fabs(s->head_mean - s->base_mean),
				      max_sample(s));
}

/*
 * A stat may explain the change when it changed significantly, both sides
 * have it (a stat one side lacks is a -100% or +inf row that says
 * nothing about the workload) and it names something: perf-profile's
 * `[unknown]` symbols are samples perf could not resolve.
 */
static bool explains(const struct compare_row *row, const struct report_stat *s,
		     bool pool_decides)
{
	return !row->is_function &&
	       (pool_decides || row->cells[1].verdict == VERDICT_CHANGED) &&
	       row->cells[0].present && row->cells[1].present &&
	       s->nbase && s->nhead && !strstr(s->name, "[unknown]");
}

/*
 * Whether s separates the bad runs from the good well enough to explain
 * anything (a stat not judged -- fewer than 3 runs a side -- keeps
 * compare's word alone)
 */
static bool separates(const struct report_stat *s)
{
	return isnan(s->separation) || s->separation >= REPORT_MIN_SEPARATION;
}

/* is key among the n keys? */
static bool has_key(char *const *keys, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(keys[i], key))
			return true;
	return false;
}

/*
 * The top REPORT_MAX_EXPLAIN of the ranked stats into d->explain and
 * cand, one per alias (report_alias_key(): the best-ranked row of a
 * symbol stands for its calltrace/children/self rows), none an alias of a
 * KPI (time.system_time beside vm-scalability.time.system_time).
 */
static size_t pick_explain(struct report_data *d,
			   const struct report_stat *const *ranked, size_t n,
			   const struct report_stat **cand)
{
	char **keys = NULL;
	size_t i, nkeys = 0, alloc = 0, picked = 0;
	struct strbuf key = STRBUF_INIT;

	for (i = 0; i < d->nall; i++) {
		if (!d->all_res.rows[i].is_kpi)
			continue;
		report_alias_key(d->all[i].name, &key);
		ALLOC_GROW(keys, nkeys + 1, alloc);
		keys[nkeys++] = strbuf_detach(&key, NULL);
	}
	for (i = 0; i < n && picked < REPORT_MAX_EXPLAIN; i++) {
		report_alias_key(ranked[i]->name, &key);
		if (has_key(keys, nkeys, key.buf)) {
			strbuf_reset(&key);
			continue;
		}
		ALLOC_GROW(keys, nkeys + 1, alloc);
		keys[nkeys++] = strbuf_detach(&key, NULL);
		d->explain[picked] = cand[picked] = ranked[i];
		picked++;
	}
	for (i = 0; i < nkeys; i++)
		free(keys[i]);
	free(keys);
	strbuf_release(&key);
	return picked;
}

/*
 * ---- The headline KPI (docs/lkp-compat.md "report") ----
 *
 * It is the answer the reader (and the mail's subject) gets first, so it
 * follows the table, whose selection sets the exit status: a KPI that
 * moved the wrong way leads, the one with the largest rank score
 * (report_rank_score: size of the change weighted by its significance);
 * else the best-ranked improvement; else the best-ranked change without
 * a direction; else, when nothing moved, the first declared KPI (in
 * declaration order, marked undecided or unchanged as the table judged
 * it) or, without declarations, the best-ranked implicit one.  Only KPIs
 * compete: a declaration replaces the implicit ones (stat_is_kpi), and a
 * monitor stat never leads.  Runs with no KPI at all (an LKP result root
 * of a benchmark whose own metric is not in the stats) lead with the
 * benchmark's time, `<testcase>.time.*`, as LKP's e-mails do, saying so.
 */
enum headline_class { HL_REGRESSION, HL_IMPROVEMENT, HL_CHANGE, HL_NONE };

struct headline {
	const struct report_stat *stat;
	enum headline_class cls;
	size_t decl;  /* declaration index, SIZE_MAX: not declared */
	double score; /* report_rank_score() */
};

/*
 * c beats best: a better class; then, when nothing moved, the earlier
 * declaration and (implicit KPIs) a direction before none; then the score
 */
static bool better_headline(const struct headline *c, const struct headline *best)
{
	if (!best->stat || c->cls != best->cls)
		return !best->stat || c->cls < best->cls;
	if (c->cls == HL_NONE && c->decl != best->decl)
		return c->decl < best->decl;
	if (c->cls == HL_NONE && !c->stat->effect != !best->stat->effect)
		return c->stat->effect != NULL;
	return c->score > best->score;
}

static enum headline_class headline_class(bool changed, enum compare_effect e)
{
	if (!changed)
		return HL_NONE;
	return e == EFFECT_REGRESSION ? HL_REGRESSION :
	       e == EFFECT_IMPROVEMENT ? HL_IMPROVEMENT : HL_CHANGE;
}

/* d->all's stat of that name (the statistics over every stat), or NULL */
static struct report_stat *all_stat(struct report_data *d, const char *name)
{
	size_t k;

	for (k = 0; k < d->nall; k++)
		if (!strcmp(d->all[k].name, name))
			return &d->all[k];
	return NULL;
}

/* the benchmark's own time stats: `<testcase>.time.*`, `mytest.time.*` */
static bool is_bench_time(const char *name, const char *testcase)
{
	size_t n = testcase ? strlen(testcase) : 0;

	if (n && !strncmp(name, testcase, n) && !strncmp(name + n, ".time.", 6))
		return true;
	return !strncmp(name, "mytest.time.", 12);
}

static void pick_headline(struct report_data *d, const struct result_group *base,
			  const struct result_group *head)
{
	struct headline best = { NULL, HL_NONE, SIZE_MAX, 0 };
	struct stat_rules decl;
	size_t i;

	/* the declarations in compare's order: the head's, then the base's */
	stat_rules_init(&decl);
	if (head->kpi)
		kpi_declare(&decl, head->kpi);
	if (base->kpi)
		kpi_declare(&decl, base->kpi);
	for (i = 0; i < d->table_res.nrows; i++) {
		const struct compare_row *row = &d->table_res.rows[i];
		const struct compare_cell *cell = &row->cells[1];
		const struct stat_kpi *k = stat_kpi_decl(&decl, row->name);
		struct report_stat *s;
		struct headline c;

		if (!row->is_kpi || row->is_function || !row->cells[0].present ||
		    !cell->present || !(s = all_stat(d, row->name)))
			continue;
		/* the table's verdict, which the exit status follows */
		s->changed = cell->changed;
		s->undecided = d->rows[i].undecided;
		c.stat = s;
		c.cls = headline_class(cell->changed, cell->effect);
		c.decl = k ? (size_t)(k - decl.kpis) : SIZE_MAX;
		c.score = report_rank_score(s);
		if (better_headline(&c, &best))
			best = c;
	}
	stat_rules_release(&decl);
	if (!best.stat) {
		const char *tc = result_group_axis(head, "testcase");

		for (i = 0; i < d->nall; i++) {
			const struct compare_row *row = &d->all_res.rows[i];
			struct headline c = { &d->all[i], HL_NONE, SIZE_MAX, 0 };

			if (!is_bench_time(row->name, tc) ||
			    !row->cells[0].present || !row->cells[1].present)
				continue;
			c.cls = headline_class(row->changed, row->cells[1].effect);
			c.score = report_rank_score(c.stat);
			if (better_headline(&c, &best))
				best = c;
		}
		d->r.kpi_fallback = best.stat != NULL;
	}
	d->r.kpi = best.stat;
}

/* machine facts and fingerprint: shown with the test box, not as parameters */
static bool is_param(const char *key)
{
	static const char *const facts[] = { "commit", "testbox", "model",
					     "nr_cpu", "memory" };
	size_t i;

	if (!strncmp(key, "env_", 4))
		return false;
	for (i = 0; i < ARRAY_SIZE(facts); i++)
		if (!strcmp(key, facts[i]))
			return false;
	return true;
}

/* one side's "key=value,..." of the parameters the other side lacks or differs in */
static void add_setting(struct strbuf *out, const struct result_group *g,
			const struct result_group *other)
{
	size_t i;

	for (i = 0; i < g->naxes; i++) {
		const struct group_axis *a = &g->axes[i];
		const char *ov = result_group_axis(other, a->key);

		if (!is_param(a->key) || (ov && !strcmp(ov, a->value)))
			continue;
		strbuf_addf(out, "%s%s=%s", out->len ? "," : "", a->key, a->value);
	}
}

/* the axes both sides share with the same value, by key (the header's) */
static void add_params(struct report_data *d, const struct result_group *base,
		       const struct result_group *head)
{
	size_t i;

	add_setting(&d->base_setting, base, head);
	add_setting(&d->head_setting, head, base);
	if (d->base_setting.len)
		d->r.base_setting = d->base_setting.buf;
	if (d->head_setting.len)
		d->r.head_setting = d->head_setting.buf;

	d->params = xcalloc(head->naxes ? head->naxes : 1, sizeof(*d->params));
	for (i = 0; i < head->naxes; i++) {
		const struct group_axis *a = &head->axes[i];
		const char *bv = result_group_axis(base, a->key);

		if (is_param(a->key) && bv && !strcmp(bv, a->value))
			d->params[d->r.nparams++] =
				(struct report_param){ a->key, a->value };
	}
	d->r.params = d->params;
}

/* a group's own name: the last part of its directory, else its spec */
static const char *group_name(const struct result_group *g)
{
	const char *s = g->dir ? g->dir : g->spec;
	const char *slash = s ? strrchr(s, '/') : NULL;

	return slash && slash[1] ? slash + 1 : s;
}

/*
 * The column headings name what differs: the commits when they differ;
 * on one commit the setting each side ran with (thp_enabled=never /
 * thp_enabled=always); else the groups' names; "base"/"head" last, so
 * the two headings are never the same.
 */
static void add_headings(struct report_data *d, const struct result_group *base,
			 const struct result_group *head)
{
	const char *b = base->label, *h = head->label;

	if ((!b || !h || !strcmp(b, h)) &&
	    (d->r.base_setting || d->r.head_setting)) {
		if (d->r.base_setting)
			b = d->r.base_setting;
		if (d->r.head_setting)
			h = d->r.head_setting;
	}
	if (!b || !h || !strcmp(b, h)) {
		b = group_name(base);
		h = group_name(head);
	}
	if (!b || !h || !strcmp(b, h)) {
		b = "base";
		h = "head";
	}
	d->r.base_heading = b;
	d->r.head_heading = h;
}

/*
 * The settings the job applied: every setup program's value in its
 * job.yaml ("thp_enabled=always", "cpufreq_governor=performance").  The
 * env_* facts are what the machine had before the job set them, so they
 * cannot say what the runs ran under.
 */
static void add_job_settings(struct strbuf *out, const struct job *job)
{
	const struct jnode *root = job->root;
	size_t i, k;

	for (i = 0; i < root->n; i++) {
		const struct program *p = program_find(root->keys[i]);
		const struct jnode *v = root->kids[i];

		if (!p || p->kind != PROG_SETUP)
			continue;
		if (v->type == JNODE_SCALAR) {
			strbuf_addf(out, "%s%s=%s", out->len ? ", " : "",
				    root->keys[i], v->text);
			continue;
		}
		for (k = 0; v->type == JNODE_MAP && k < v->n; k++)
			if (v->kids[k]->type == JNODE_SCALAR)
				strbuf_addf(out, "%s%s=%s", out->len ? ", " : "",
					    v->keys[k], v->kids[k]->text);
	}
}

/* the test box: machine facts, and what the job set over them */
static void add_box(struct report_data *d, const struct result_group *head)
{
	struct report_box *b = &d->r.box;
	const struct job *j = d->head_job;
	const char *v;

	if (j) {
		b->host = job_get(j, "testbox");
		b->cpu_model = job_get(j, "model");
		b->nr_cpu = job_get(j, "nr_cpu");
		b->memory = job_get(j, "memory");
		b->thp_enabled = job_get(j, "env_thp_enabled");
		b->thp_defrag = job_get(j, "env_thp_defrag");
		b->governor = job_get(j, "env_cpufreq_governor");
		b->cmdline = job_get(j, "env_kernel_cmdline");
		/* what the runs ran under wins over the value before */
		if ((v = job_get_opt(j, "transparent_hugepage", "thp_enabled")))
			b->thp_enabled = v;
		if ((v = job_get_opt(j, "transparent_hugepage", "thp_defrag")))
			b->thp_defrag = v;
		if ((v = job_get(j, "cpufreq_governor")))
			b->governor = v;
		add_job_settings(&d->settings, j);
		if (d->settings.len)
			b->settings = d->settings.buf;
	}
	if (!b->host)
		b->host = result_group_axis(head, "testbox");
	if (!b->host)
		b->host = result_group_axis(head, "tbox_group");
}

/*
 * A mytest job's command: its cmdline (*is_opt), or mytest's scalar
 * value (`mytest: CMD`, a parameter of another name: `-- CMD` would not
 * give the same group), else NULL.
 */
static const char *mytest_cmd(const struct job *j, bool *is_opt)
{
	const char *c = job_get_opt(j, "mytest", "cmdline");
	const struct jnode *v;

	*is_opt = c && *c;
	if (*is_opt)
		return c;
	v = jnode_get(j->root, "mytest");
	return v && v->type == JNODE_SCALAR && *v->text ? v->text : NULL;
}

/*
 * Plain shell words, single blanks between them: `-- CMD` typed into a
 * shell gives the run back the very same mytest.cmdline (run/engine.c
 * quotes every other word, with these same safe characters).  Anything
 * else (quotes, pipes, redirections) is left to the job file's cmdline.
 */
static bool plain_words(const char *s)
{
	static const char safe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				   "0123456789_@%+=:,./-";
	const char *p;

	if (!*s || *s == ' ')
		return false;
	for (p = s; *p; p++) {
		if (*p == ' ' ? p[1] == ' ' || !p[1] : !strchr(safe, *p))
			return false;
	}
	return true;
}

/*
 * One side's `compare` selector: its commit when the commits differ,
 * its setting when the settings do (both: commit=C,SETTING), else the
 * group's directory.
 */
static void add_selector(struct strbuf *out, const char *commit,
			 const char *setting, bool commits_differ,
			 const struct result_group *g)
{
	if (commits_differ && commit && setting)
		strbuf_addf(out, "commit=%s,%s", commit, setting);
	else if (commits_differ && commit)
		strbuf_addstr(out, commit);
	else if (setting)
		strbuf_addstr(out, setting);
	else
		strbuf_addstr(out, g->dir ? g->dir : g->spec);
}

/*
 * What "To reproduce" says (report.h struct report_repro): the jobs the
 * runs recorded (the head's attached, the base's too when it differs),
 * a mytest job's command, the commits, how they were built (the runs'
 * env_build / env_install), the run counts and the selectors.
 */
static void add_repro(struct report_data *d, const struct result_group *base,
		      const struct result_group *head)
{
	struct report_repro *rp = &d->r.repro;
	const struct job *j = d->head_job;
	bool commits_differ, is_opt;

	rp->base_commit = result_group_axis(base, "commit");
	rp->head_commit = result_group_axis(head, "commit");
	rp->base_runs = base->matrix.nruns;
	rp->head_runs = head->matrix.nruns;
	commits_differ = !rp->base_commit || !rp->head_commit ||
			 strcmp(rp->base_commit, rp->head_commit);
	add_selector(&d->base_sel, rp->base_commit, d->r.base_setting,
		     commits_differ, base);
	add_selector(&d->head_sel, rp->head_commit, d->r.head_setting,
		     commits_differ, head);
	rp->base_sel = d->base_sel.buf;
	rp->head_sel = d->head_sel.buf;
	if (!j) {
		rp->no_job = true;
		return;
	}
	report_repro_job(j, &d->head_job_yaml);
	if (d->base_job) {
		report_repro_job(d->base_job, &d->base_job_yaml);
		if (strcmp(d->base_job_yaml.buf, d->head_job_yaml.buf))
			rp->base_job_file = "base-job.yaml";
	} else {
		rp->no_base_job = true;
	}
	rp->cmd = mytest_cmd(j, &is_opt);
	rp->cmd_plain = rp->cmd && is_opt && plain_words(rp->cmd);
	rp->build = job_get(j, "env_build");
	rp->install = job_get(j, "env_install");
}

int report_build(struct report_data *d, const struct result_group *base,
		 const struct result_group *head, struct strbuf *err)
{
	return report_build_pooled(d, base, head, NULL, err);
}

int report_build_pooled(struct report_data *d, const struct result_group *base,
			const struct result_group *head,
			const struct report_pool *pool, struct strbuf *err)
{
	const struct result_group *groups[2] = { base, head };
	const struct report_stat *cand[REPORT_MAX_EXPLAIN + 1];
	const struct report_stat **ranked;
	struct compare_options o;
	struct stat_rules rules;
	size_t i, n = 0;

	memset(d, 0, sizeof(*d));
	compare_result_init(&d->table_res);
	compare_result_init(&d->all_res);
	strbuf_init(&d->table, 0);
	strbuf_init(&d->base_setting, 0);
	strbuf_init(&d->head_setting, 0);
	strbuf_init(&d->undecided, 0);
	strbuf_init(&d->settings, 0);
	strbuf_init(&d->head_job_yaml, 0);
	strbuf_init(&d->base_job_yaml, 0);
	strbuf_init(&d->base_sel, 0);
	strbuf_init(&d->head_sel, 0);

	/* the table: LKP's rules, as the e-mail shows them, and every KPI */
	compare_options_init(&o);
	o.no_statistics = true;
	o.kpi_rows = true;
	if (compare_groups(groups, 2, &o, &d->table_res, err))
		return -1;
	compare_render_text(&d->table_res, &d->table);
	d->kpi_regressed = d->table_res.kpi_regressed;
	d->rows = xcalloc(d->table_res.nrows ? d->table_res.nrows : 1,
			  sizeof(*d->rows));
	for (i = 0; i < d->table_res.nrows; i++) {
		fill_stat(d, &d->rows[i], &d->table_res.rows[i], base, head);
		/* nothing withheld: the headline says what is not decided */
		if (d->rows[i].undecided) {
			compare_undecided_line(&d->table_res,
					       &d->table_res.rows[i], 1,
					       &d->undecided);
			strbuf_addch(&d->undecided, '\n');
		}
	}
	/* and the command that would decide them (compare's line) */
	compare_decide_line(&d->table_res, 1, "", &d->undecided);
	if (d->undecided.len)
		d->r.undecided = d->undecided.buf;

	/* every stat, with statistics: the headline and the explanation */
	compare_options_init(&o);
	o.method = COMPARE_STATS;
	o.all = true;
	if (compare_groups(groups, 2, &o, &d->all_res, err))
		return -1;
	d->nall = d->all_res.nrows;
	d->all = xcalloc(d->nall ? d->nall : 1, sizeof(*d->all));
	ranked = xcalloc(d->nall ? d->nall : 1, sizeof(*ranked));
	stat_rules_init(&rules);
	for (i = 0; i < d->nall; i++) {
		const struct compare_row *row = &d->all_res.rows[i];

		bool decided = false;

		fill_stat(d, &d->all[i], row, base, head);
		d->all[i].separation = NAN;
		if (row->is_kpi || row->is_function)
			continue;
		d->all[i].separation = stat_separation(&d->all[i], pool,
						       &decided);
		decided = decided && !isnan(d->all[i].separation);
		if (explains(row, &d->all[i], decided) &&
		    separates(&d->all[i]) &&
		    worth_explaining(&rules, &d->all[i]))
			ranked[n++] = &d->all[i];
	}
	stat_rules_release(&rules);
	/* a KPI one side has no value of has no change to head with */
	pick_headline(d, base, head);
	qsort(ranked, n, sizeof(*ranked), cmp_explain);
	d->r.nexplain = pick_explain(d, ranked, n, cand);
	free(ranked);

	/* a chart compares: one drawn from a single side says nothing */
	if (d->r.kpi && d->r.kpi->nbase && d->r.kpi->nhead)
		d->charts[d->r.ncharts++] = d->r.kpi;
	for (i = 0; i < d->r.nexplain && d->r.ncharts < REPORT_MAX_CHARTS; i++)
		if (cand[i]->nbase && cand[i]->nhead)
			d->charts[d->r.ncharts++] = cand[i];

	if (report_load_job(head->dir, &d->head_job, err) ||
	    report_load_job(base->dir, &d->base_job, err))
		return -1;

	d->r.commit = result_group_axis(head, "commit");
	if (!d->r.commit)
		d->r.commit = head->label;
	d->r.base_label = base->label;
	d->r.head_label = head->label;
	add_params(d, base, head);
	d->r.explain = d->explain;
	d->r.charts = d->charts;
	d->r.rows = d->rows;
	d->r.nrows = d->table_res.nrows;
	d->r.nstats = d->all_res.nstats;
	d->r.table = d->table.buf;
	d->r.job_file = "job.yaml";
	add_headings(d, base, head);
	add_box(d, head);
	add_repro(d, base, head);
	return 0;
}

int report_focus(struct report_data *d, const char *stat, struct strbuf *err)
{
	const struct report_stat *old[REPORT_MAX_CHARTS];
	struct report_stat *kpi = NULL;
	size_t i, n = d->r.ncharts;

	for (i = 0; i < d->nall && !kpi; i++)
		if (!strcmp(d->all[i].name, stat))
			kpi = &d->all[i];
	if (!kpi) {
		strbuf_addf(err, "'%s' is not in the comparison", stat);
		return -1;
	}
	/*
	 * The bisect (or the robot's judgement) found it moved: its word is
	 * its effect, whatever the statistics over two groups' few runs say
	 * (changed, and no longer undecided: the confirmation decided it on
	 * interleaved runs the groups' unpaired statistics do not see)
	 */
	kpi->changed = true;
	kpi->undecided = false;
	memcpy(old, d->charts, sizeof(old));
	d->r.kpi = kpi;
	d->charts[0] = kpi;
	d->r.ncharts = 1;
	for (i = 0; i < n && d->r.ncharts < REPORT_MAX_CHARTS; i++)
		if (old[i] != kpi)
			d->charts[d->r.ncharts++] = old[i];
	return 0;
}

void report_chart_samples(struct report_data *d, size_t k,
			  const double *base_v, size_t nbase,
			  const double *head_v, size_t nhead)
{
	if (k >= d->r.ncharts)
		return;
	d->chart_own[k] = *d->charts[k];
	d->chart_own[k].base_v = base_v;
	d->chart_own[k].nbase = nbase;
	d->chart_own[k].head_v = head_v;
	d->chart_own[k].nhead = nhead;
	d->charts[k] = &d->chart_own[k];
	d->r.bisect = true; /* the legend says bisect-good/bad */
}

/* run git with argv, its stdout into out (1 MiB at most); 0 when it exits 0 */
static int run_git(const char *repo, const char *const argv[],
		   struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT;
	struct spawn_user owner;
	struct spawn_cmd c;
	bool as_owner = spawn_user_of(repo, &owner) > 0;
	int st;

	spawn_init(&c);
	/* another user's repository: git as its owner (util/spawn.h) */
	c.user = as_owner ? &owner : NULL;
	c.argv = argv;
	c.out.how = SPAWN_CAPTURE;
	c.out.buf = out;
	c.err.how = SPAWN_NULL;
	c.capture_max = 1 << 20;
	c.unset = spawn_git_unset;
	st = spawn_run(&c, &err);
	spawn_release(&c);
	if (as_owner)
		spawn_user_release(&owner);
	strbuf_release(&err);
	return st || c.overflow ? -1 : 0;
}

int report_git_commit(struct report_data *d, const char *repo,
		      struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT, rev = STRBUF_INIT;
	char *nl;
	int ret = -1;

	if (!d->r.commit || !*d->r.commit || *d->r.commit == '-') {
		strbuf_addstr(err, "no commit to look up");
		return -1;
	}
	strbuf_addf(&rev, "%s^{commit}", d->r.commit);
	{
		const char *argv[] = { "git", "-C", repo, "log", "-1",
				       "--format=%H%n%s", rev.buf, "--", NULL };

		if (run_git(repo, argv, &out)) {
			strbuf_addf(err, "'%s': not a commit in '%s'",
				    d->r.commit, repo);
			goto out;
		}
	}
	nl = strchr(out.buf, '\n');
	if (!nl) {
		strbuf_addf(err, "'%s': git gave no subject", d->r.commit);
		goto out;
	}
	*nl = '\0';
	free(d->commit);
	free(d->subject);
	d->commit = xstrdup(out.buf);
	d->subject = xstrdup(nl + 1);
	d->subject[strcspn(d->subject, "\n")] = '\0';
	d->r.commit = d->commit;
	d->r.subject = d->subject;
	ret = 0;
out:
	strbuf_release(&out);
	strbuf_release(&rev);
	return ret;
}

void report_data_release(struct report_data *d)
{
	size_t i;

	compare_result_release(&d->table_res);
	compare_result_release(&d->all_res);
	strbuf_release(&d->table);
	strbuf_release(&d->base_setting);
	strbuf_release(&d->head_setting);
	strbuf_release(&d->undecided);
	strbuf_release(&d->settings);
	strbuf_release(&d->head_job_yaml);
	strbuf_release(&d->base_job_yaml);
	strbuf_release(&d->base_sel);
	strbuf_release(&d->head_sel);
	free(d->rows);
	free(d->all);
	for (i = 0; i < d->nowned; i++)
		free(d->owned[i]);
	free(d->owned);
	free(d->params);
	if (d->head_job)
		job_free(d->head_job);
	if (d->base_job)
		job_free(d->base_job);
	free(d->commit);
	free(d->subject);
	memset(d, 0, sizeof(*d));
}
