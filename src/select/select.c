/*
 * select.c: BASE / HEAD specs resolved to result groups (select.h).
 * Directories are read directly: matrix.json (or the runs' stats.json)
 * and the axes from a run's job.yaml.  Commit ids and key=value selectors
 * are looked up by walking the result root for group directories.
 */
#include "util/compat.h"
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "job/job.h"
#include "job/kpi.h"
#include "job/params.h"
#include "result/floor.h"
#include "result/matrix.h"
#include "result/result.h"
#include "result/reduce.h"
#include "select/select.h"
#include "store/store.h"
#include "result/unite.h"
#include "util/fileutil.h"
#include "util/sorted.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/usage.h"
#include "util/xalloc.h"

void result_group_init(struct result_group *g)
{
	memset(g, 0, sizeof(*g));
	matrix_init(&g->matrix);
}

void result_group_release(struct result_group *g)
{
	size_t i;

	for (i = 0; i < g->naxes; i++) {
		free(g->axes[i].key);
		free(g->axes[i].value);
	}
	free(g->axes);
	free(g->spec);
	free(g->label);
	free(g->dir);
	free(g->kpi);
	if (g->floor) {
		noise_floor_release(g->floor);
		free(g->floor);
	}
	free(g->job_file);
	free(g->run_start);
	matrix_release(&g->matrix);
	result_group_init(g);
}

static int cmp_axis_key(const void *key, const void *elem)
{
	return strcmp(key, ((const struct group_axis *)elem)->key);
}

/* the axis' index, or -1 with where it would go in *insert_at */
static ssize_t axis_index(const struct result_group *g, const char *key,
			  size_t *insert_at)
{
	size_t at = sorted_lower_bound(key, g->axes, g->naxes, sizeof(*g->axes),
				       cmp_axis_key);

	if (at < g->naxes && !strcmp(g->axes[at].key, key))
		return (ssize_t)at;
	if (insert_at)
		*insert_at = at;
	return -1;
}

const char *result_group_axis(const struct result_group *g, const char *key)
{
	ssize_t i = axis_index(g, key, NULL);

	return i < 0 ? NULL : g->axes[i].value;
}

/*
 * Add or replace an axis, keeping the array sorted by key: lookups are a
 * binary search, and the group's header lists the axes in this order, so
 * two groups with the same axes print them the same way.
 */
void result_group_set_axis(struct result_group *g, const char *key,
			   const char *value)
{
	size_t at = 0;
	ssize_t i = axis_index(g, key, &at);

	if (i >= 0) {
		free(g->axes[i].value);
		g->axes[i].value = xstrdup(value);
		return;
	}
	ALLOC_GROW(g->axes, g->naxes + 1, g->alloc_axes);
	memmove(g->axes + at + 1, g->axes + at,
		(g->naxes - at) * sizeof(*g->axes));
	g->axes[at].key = xstrdup(key);
	g->axes[at].value = xstrdup(value);
	g->naxes++;
}

/* ---- axes from job.yaml ---- */

/* the machine facts LKP counts among the axes (lib/job.rb:742-763) */
static const char *const fixed_axes[] = {
	"testcase", "tbox_group", "rootfs", "kconfig", "compiler", "commit",
};

/*
 * The machine fingerprint `run` writes into job.yaml (machine.c): facts
 * about the box, not parameters of the job, so never axes of the header
 * (LKP's shows job parameters only).  A job that names one as a program
 * option still does not make it an axis: the box is the tbox_group axis.
 */
static bool is_fingerprint(const char *key)
{
	static const char *const facts[] = {
		"testbox", "arch", "nr_cpu", "memory", "model", "nr_node",
	};
	size_t i;

	if (!strncmp(key, "env_", 4))
		return true;
	for (i = 0; i < ARRAY_SIZE(facts); i++)
		if (!strcmp(key, facts[i]))
			return true;
	return false;
}

/* the job's declared KPIs as the group's line (a malformed key: none) */
static void group_kpi_from_job(struct result_group *g, const struct job *job)
{
	struct strbuf err = STRBUF_INIT, line = STRBUF_INIT;
	struct kpi_set s;

	if (!kpi_from_job(job, &s, &err) && s.n) {
		kpi_format(&s, &line);
		free(g->kpi);
		g->kpi = strbuf_detach(&line, NULL);
	}
	kpi_set_release(&s);
	strbuf_release(&line);
	strbuf_release(&err);
}

/*
 * The axes of a run's job.yaml: the machine facts and every job parameter
 * with a value (job_params(): program options and value-programs such as
 * `cpufreq_governor: performance`), as LKP's DataStore indexes them.
 */
static int read_job_axes(const char *path, struct result_group *g)
{
	struct strbuf err = STRBUF_INIT;
	struct job **jobs = NULL;
	struct job_param *jp = NULL;
	size_t njobs = 0, njp = 0, i;

	if (!file_exists(path) || job_read_file(path, &jobs, &njobs, &err) ||
	    !njobs) {
		strbuf_release(&err);
		job_free_all(jobs, njobs);
		return -1;
	}
	for (i = 0; i < ARRAY_SIZE(fixed_axes); i++) {
		const char *v = job_get(jobs[0], fixed_axes[i]);

		if (v && *v)
			result_group_set_axis(g, fixed_axes[i], v);
	}
	/* the runtime as the engine planned it: the benchmark's default too */
	if (param_runtime(jobs[0], NULL, &g->runtime_s, &err) < 0)
		g->runtime_s = 0;
	job_params(jobs[0], &jp, &njp);
	for (i = 0; i < njp; i++)
		if (jp[i].value && *jp[i].value && !is_fingerprint(jp[i].key))
			result_group_set_axis(g, jp[i].key, jp[i].value);
	job_params_free(jp, njp);
	group_kpi_from_job(g, jobs[0]);
	job_free_all(jobs, njobs);
	strbuf_release(&err);
	return 0;
}

/* ---- matrices from directories ---- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * A run directory's name: a number of at most two digits, as `run` makes
 * them (0..99 runs a group); anything else in a group directory (a plot,
 * a matrix.json, an editor's backup) is not a run.
 */
static bool is_run_name(const char *name)
{
	const char *p = name;

	if (!*p)
		return false;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return strlen(name) <= 2;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * The run numbers under dir holding stats.json, sorted numerically, so
 * run 10 comes after run 9 as the matrix's columns must (readdir gives
 * no order at all).
 */
static size_t list_runs(const char *dir, int **runs)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct strbuf path = STRBUF_INIT;
	size_t n = 0, alloc = 0;

	*runs = NULL;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (!is_run_name(de->d_name))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s/stats.json", dir, de->d_name);
		if (!file_exists(path.buf))
			continue;
		ALLOC_GROW(*runs, n + 1, alloc);
		(*runs)[n++] = (int)strtol(de->d_name, NULL, 10);
	}
	closedir(d);
	strbuf_release(&path);
	if (n)
		qsort(*runs, n, sizeof(**runs), cmp_int);
	return n;
}

/* LKP's last_state: is_incomplete_run: 1 leaves the run out */
static bool run_incomplete(const char *rundir)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	bool bad = false;

	strbuf_addf(&path, "%s/last_state", rundir);
	if (!strbuf_read_file(&text, path.buf, 1 << 20))
		bad = strstr(text.buf, "is_incomplete_run: 1") != NULL;
	strbuf_release(&path);
	strbuf_release(&text);
	return bad;
}

/*
 * No matrix.json: unite the complete runs' stats.json files as LKP's
 * unite_to does (unite.c: the same drop rules as a matrix.json rebuild;
 * a stat missing from a run is 0 there, and missing).
 */
static int matrix_from_runs(const char *dir, const int *runs, size_t nruns,
			    struct matrix *m, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	struct unite u;
	size_t i;
	int ret = -1;

	matrix_init(m);
	unite_init(&u);
	for (i = 0; i < nruns; i++) {
		struct reduce_stats st;

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%d", dir, runs[i]);
		if (run_incomplete(path.buf))
			continue;
		strbuf_addstr(&path, "/stats.json");
		reduce_stats_init(&st);
		if (reduce_stats_load_json(&st, path.buf, err)) {
			reduce_stats_release(&st);
			goto out;
		}
		unite_add_run(&u, path.buf, &st);
		reduce_stats_release(&st);
	}
	unite_to_matrix(&u, m);
	ret = 0;
out:
	unite_release(&u);
	strbuf_release(&path);
	return ret;
}

/*
 * The job's runtime as seconds, for compare's floors on time-based stats.
 * A group whose job was read has it already (read_job_axes: the
 * benchmark's default included); one from the index has only its axes,
 * which hold what the job wrote, read here as the job's top-level key
 * is.  0 (unknown) when neither says or it does not parse: compare uses
 * the measured elapsed time instead.
 */
static void set_runtime(struct result_group *g)
{
	const char *rt = result_group_axis(g, "runtime");
	struct strbuf why = STRBUF_INIT;
	struct opt_value v;

	if (!g->runtime_s && rt && !param_text_value(NULL, "runtime", rt, &v, &why))
		g->runtime_s = v.num;
	strbuf_release(&why);
}

int select_run_start(const char *run_dir, double *t)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	const char *why;
	int ret = -1;

	strbuf_addf(&path, "%s/start_time", run_dir);
	if (strbuf_read_file(&text, path.buf, 64) >= 0) {
		strbuf_trim(&text);
		if (!strnum_double(text.buf, t, &why) && isfinite(*t))
			ret = 0;
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

/*
 * Each run's start time from <group>/<n>/start_time (`perfsift run`
 * writes it as the run begins), in the matrix's run order (its
 * stats_source entries name the runs); NULL when no run has one (runs
 * made before perfsift wrote it, LKP's own).
 */
static void read_run_starts(struct result_group *g)
{
	const struct matrix *m = &g->matrix;
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	bool any = false;
	size_t r;

	if (!g->dir || !m->sources || !m->nruns)
		return;
	g->run_start = xcalloc(m->nruns, sizeof(double));
	for (r = 0; r < m->nruns; r++) {
		double t;

		g->run_start[r] = NAN;
		/* a source is ".../<n>/stats.json": its run directory */
		strbuf_reset(&path);
		path_dirname(&path, m->sources[r]);
		if (!result_is_run_number(path_basename(path.buf)))
			continue;
		strbuf_reset(&text);
		strbuf_addf(&text, "%s/%s", g->dir, path_basename(path.buf));
		if (!select_run_start(text.buf, &t)) {
			g->run_start[r] = t;
			any = true;
		}
	}
	if (!any)
		FREE_AND_NULL(g->run_start);
	strbuf_release(&path);
	strbuf_release(&text);
}

int select_group_dir(const char *dir, struct result_group *g,
		     struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, group = STRBUF_INIT;
	char *abs;
	int *runs = NULL;
	size_t nruns, i;
	int ret = -1;

	abs = realpath(dir, NULL);
	if (!abs) {
		strbuf_addf(err, "cannot resolve '%s': %s", dir, strerror(errno));
		return -1;
	}
	strbuf_addstr(&group, abs);
	free(abs);
	/* a run directory stands for its group */
	path_join(&path, group.buf, "stats.json");
	if (file_exists(path.buf) && is_run_name(path_basename(group.buf))) {
		struct strbuf parent = STRBUF_INIT;

		path_dirname(&parent, group.buf);
		strbuf_reset(&group);
		strbuf_addbuf(&group, &parent);
		strbuf_release(&parent);
	}
	g->dir = xstrdup(group.buf);
	nruns = list_runs(group.buf, &runs);
	path_join(&path, group.buf, "matrix.json");
	if (file_exists(path.buf)) {
		if (matrix_load_group(&g->matrix, group.buf, err))
			goto out;
	} else if (nruns) {
		if (matrix_from_runs(group.buf, runs, nruns, &g->matrix, err))
			goto out;
	} else {
		strbuf_addf(err, "'%s' holds no matrix.json and no runs", dir);
		goto out;
	}
	/* the axes: the first run's job.yaml, else one beside matrix.json */
	for (i = 0; i < nruns; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%d/job.yaml", group.buf, runs[i]);
		if (!read_job_axes(path.buf, g)) {
			g->job_file = xstrdup(path.buf);
			break;
		}
	}
	if (i == nruns) {
		path_join(&path, group.buf, "job.yaml");
		read_job_axes(path.buf, g);
	}
	if (!result_group_axis(g, "commit"))
		result_group_set_axis(g, "commit", path_basename(group.buf));
	g->label = xstrdup(result_group_axis(g, "commit"));
	set_runtime(g);
	read_run_starts(g);
	ret = 0;
out:
	free(runs);
	strbuf_release(&path);
	strbuf_release(&group);
	return ret;
}

/* ---- commit ids and selectors: a walk over the result root ---- */

struct candidates {
	char **dirs;
	size_t n, alloc;
};

static void candidates_release(struct candidates *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->dirs[i]);
	free(c->dirs);
	memset(c, 0, sizeof(*c));
}

/* group directories: those holding matrix.json or numbered runs */
static void find_groups(const char *dir, int depth, struct candidates *out)
{
	DIR *d;
	struct dirent *de;
	struct strbuf path = STRBUF_INIT;
	bool is_group = false;

	if (depth > 12)
		return;
	path_join(&path, dir, "matrix.json");
	if (file_exists(path.buf))
		is_group = true;
	d = opendir(dir);
	if (!d) {
		strbuf_release(&path);
		return;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		path_join(&path, dir, de->d_name);
		if (!dir_exists(path.buf))
			continue;
		if (is_run_name(de->d_name)) {
			struct strbuf st = STRBUF_INIT;

			path_join(&st, path.buf, "stats.json");
			if (file_exists(st.buf))
				is_group = true;
			strbuf_release(&st);
			continue;
		}
		find_groups(path.buf, depth + 1, out);
	}
	closedir(d);
	strbuf_release(&path);
	if (is_group) {
		ALLOC_GROW(out->dirs, out->n + 1, out->alloc);
		out->dirs[out->n++] = xstrdup(dir);
	}
}

/* does the group match every key=value of sel? */
static bool selector_matches(const struct result_group *g, const char *sel)
{
	char *copy = xstrdup(sel), *save = NULL, *tok;
	bool ok = true;

	for (tok = strtok_r(copy, ",", &save); tok && ok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		const char *v;

		*eq = '\0';
		v = result_group_axis(g, tok);
		ok = v && !strcmp(v, eq + 1);
	}
	free(copy);
	return ok;
}

static bool valid_selector(const char *spec)
{
	const char *p = spec;

	while (*p) {
		const char *end = strchrnul(p, ',');
		const char *eq = memchr(p, '=', (size_t)(end - p));

		if (!eq || eq == p)
			return false;
		p = *end ? end + 1 : end;
	}
	return *spec != '\0';
}

static void list_candidates(struct strbuf *err, const struct candidates *c,
			    const char *root)
{
	size_t i, rl = strlen(root);

	for (i = 0; i < c->n && i < 20; i++) {
		const char *d = c->dirs[i];

		if (!strncmp(d, root, rl) && d[rl] == '/')
			d += rl + 1;
		strbuf_addf(err, "\n  %s", d);
	}
	if (c->n > 20)
		strbuf_addf(err, "\n  ... and %zu more", c->n - 20);
}

/* the directories of a list of groups, as candidates */
static void store_candidates(const struct store_group_list *l,
			     struct candidates *c)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		ALLOC_GROW(c->dirs, c->n + 1, c->alloc);
		c->dirs[c->n++] = xstrdup(l->items[i].dir);
	}
}

/*
 * The one group spec names in the index; else -1 with the candidates:
 * those an ambiguous spec matches, or every group when a key=value
 * selector matches none.
 */
static int resolve_in_store(struct store *st, const char *root,
			    const char *spec, struct store_group *g,
			    struct strbuf *err)
{
	struct store_group_list l = { 0 }, every = { 0 };
	struct candidates c = { 0 };
	char *real = realpath(root, NULL);
	const char *shown = real ? real : root;
	int ret = -1;

	if (store_find_groups_text(st, spec, &l, err))
		goto out;
	if (l.n == 1) {
		store_group_copy(g, &l.items[0]);
		ret = 0;
	} else if (l.n > 1) {
		strbuf_addf(err, "'%s' is ambiguous: it matches %zu result groups:",
			    spec, l.n);
		store_candidates(&l, &c);
		list_candidates(err, &c, shown);
	} else {
		strbuf_addf(err, "'%s' matches no result group under '%s'", spec,
			    shown);
		if (strchr(spec, '=') &&
		    !store_find_groups_text(st, NULL, &every, err) && every.n) {
			strbuf_addstr(err, "; the groups are:");
			store_candidates(&every, &c);
			list_candidates(err, &c, shown);
		}
	}
out:
	candidates_release(&c);
	store_group_list_release(&l);
	store_group_list_release(&every);
	free(real);
	return ret;
}

/*
 * The job.yaml of the first run of group dir that has one (NULL: none
 * on this disk): what `perfsift run` runs again into the group.
 */
static char *group_job_file(const char *dir)
{
	struct strbuf path = STRBUF_INIT;
	char *found = NULL;
	int *runs = NULL;
	size_t n = list_runs(dir, &runs), i;

	for (i = 0; i < n && !found; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%d/job.yaml", dir, runs[i]);
		if (file_exists(path.buf))
			found = xstrdup(path.buf);
	}
	free(runs);
	strbuf_release(&path);
	return found;
}

int select_group_store(struct store *st, const struct store_group *sg,
		       struct result_group *g, struct strbuf *err)
{
	struct store_param_list params = { 0 };
	size_t i;

	if (store_load_matrix(st, sg->id, &g->matrix, err) ||
	    store_group_params(st, sg->id, &params, err)) {
		store_param_list_release(&params);
		return -1;
	}
	for (i = 0; i < params.n; i++) {
		const struct store_param *p = &params.items[i];

		if (!strcmp(p->key, "kpi") && p->kind == STORE_PARAM_FACT &&
		    p->value && *p->value) {
			free(g->kpi);
			g->kpi = xstrdup(p->value);
			continue;
		}
		/* the header's axes: job parameters and machine facts */
		if (p->kind == STORE_PARAM_FACT || !strcmp(p->key, "path_params") ||
		    !p->value || !*p->value || is_fingerprint(p->key))
			continue;
		result_group_set_axis(g, p->key, p->value);
	}
	if (sg->axes[STORE_COMMIT] && *sg->axes[STORE_COMMIT])
		result_group_set_axis(g, "commit", sg->axes[STORE_COMMIT]);
	if (!result_group_axis(g, "commit"))
		result_group_set_axis(g, "commit", path_basename(sg->dir));
	g->dir = xstrdup(sg->dir);
	/* the runs of an index on this disk can be run again */
	if (sg->dir[0] == '/')
		g->job_file = group_job_file(sg->dir);
	g->label = xstrdup(result_group_axis(g, "commit"));
	set_runtime(g);
	if (sg->dir[0] == '/')
		read_run_starts(g);
	store_param_list_release(&params);
	return 0;
}

/* the selection has an index to look in: a store URL, or the root's */
static bool have_index(const struct select_ctx *ctx)
{
	struct strbuf db = STRBUF_INIT;
	bool have;

	path_join(&db, ctx->result_root, "perfsift.db");
	have = ctx->store_url || file_exists(db.buf);
	strbuf_release(&db);
	return have;
}

/*
 * Resolve through the index when the root has one (or --store names
 * one): 0 when the index answered (*ret: 0 resolved, -1 with err), 1
 * when there is no index to ask (walk the tree instead).  open, when
 * given, is the index already open and checked against the disk
 * (select_groups()'s); else the index is opened and synced here.
 */
static int select_from_store(const struct select_ctx *ctx, struct store *open,
			     const char *spec, struct result_group *g,
			     struct strbuf *err, int *ret)
{
	struct store own, *st = open;
	struct store_group sg;

	if (!open && !have_index(ctx))
		return 1;
	*ret = -1;
	if (!open) {
		if (result_store_open(&own, ctx->result_root, ctx->store_url, 0,
				      err))
			return 0;
		st = &own;
	}
	if (resolve_in_store(st, ctx->result_root, spec, &sg, err))
		goto out_store;
	*ret = select_group_store(st, &sg, g, err);
	store_group_release(&sg);
out_store:
	if (!open)
		store_close(&own);
	return 0;
}

/*
 * A group holding runs of different jobs (LKP's and older perfsift's
 * group names cut long values) has no one mean to compare: refuse it,
 * naming the parameter the runs differ in (docs/lkp-compat.md).
 */
static int refuse_mixed(const struct result_group *g, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	if (g->dir && result_group_mixed(g->dir, &why) > 0) {
		strbuf_addf(err, "the group '%s' holds runs of different "
			    "jobs: %s; move each job's runs to a group "
			    "directory of its own, then run `perfsift stats "
			    "--all`", g->dir, why.buf);
		ret = -1;
	}
	strbuf_release(&why);
	return ret;
}

/*
 * The noise floor of g's series from the root's index, when the index
 * exists and holds one.  A floor that cannot be read is only a warning:
 * the comparison is still made, without it, and says so (no floor line).
 */
static void attach_floor(const struct select_ctx *ctx, struct store *open,
			 struct result_group *g)
{
	struct strbuf series = STRBUF_INIT, err = STRBUF_INIT;
	char *root = NULL, *dir = NULL;
	struct noise_floor f;
	struct store own, *st = open;
	bool found = false;

	noise_floor_init(&f);
	if (!g->dir || (!open && !have_index(ctx)))
		goto out;
	root = realpath(ctx->result_root, NULL);
	dir = realpath(g->dir, NULL);
	if (!root || !dir || noise_floor_series(root, dir, &series) < 0)
		goto out; /* a group outside the root: no series to look up */
	if (!open) {
		if (store_open(&own, root, ctx->store_url, 0, &err) < 0) {
			warning("noise floor: %s", err.buf);
			goto out;
		}
		st = &own;
	}
	if (store_get_floor(st, series.buf, &f, &found, &err) < 0)
		warning("noise floor: %s", err.buf);
	else if (found) {
		g->floor = xmalloc(sizeof(*g->floor));
		*g->floor = f;
		noise_floor_init(&f);
	}
	if (!open)
		store_close(&own);
out:
	noise_floor_release(&f);
	free(root);
	free(dir);
	strbuf_release(&series);
	strbuf_release(&err);
}

static int select_group_in(const struct select_ctx *ctx, struct store *open,
			   const char *spec, struct result_group *g,
			   struct strbuf *err)
{
	struct candidates all = { 0 }, hit = { 0 };
	char *root = NULL;
	bool selector;
	size_t i;
	int ret = -1;

	result_group_init(g);
	if (dir_exists(spec)) {
		ret = select_group_dir(spec, g, err);
		goto done;
	}
	if (!select_from_store(ctx, open, spec, g, err, &ret))
		goto done;
	selector = strchr(spec, '=') != NULL;
	if (selector && !valid_selector(spec)) {
		strbuf_addf(err, "'%s': expected key=value[,key=value...]", spec);
		goto done;
	}
	root = realpath(ctx->result_root, NULL);
	if (!root) {
		strbuf_addf(err, "'%s' is not a directory, and the result root '%s' does not exist",
			    spec, ctx->result_root);
		goto done;
	}
	find_groups(root, 0, &all);
	qsort(all.dirs, all.n, sizeof(*all.dirs), cmp_str);
	for (i = 0; i < all.n; i++) {
		bool match;

		if (selector) {
			struct result_group tmp;
			struct strbuf ignore = STRBUF_INIT;

			result_group_init(&tmp);
			match = !select_group_dir(all.dirs[i], &tmp, &ignore) &&
				selector_matches(&tmp, spec);
			result_group_release(&tmp);
			strbuf_release(&ignore);
		} else {
			const char *base = path_basename(all.dirs[i]);

			match = !strncmp(base, spec, strlen(spec));
		}
		if (match) {
			ALLOC_GROW(hit.dirs, hit.n + 1, hit.alloc);
			hit.dirs[hit.n++] = xstrdup(all.dirs[i]);
		}
	}
	/* exact commit names win over prefixes */
	if (!selector) {
		size_t exact = 0, k;

		for (k = 0; k < hit.n; k++)
			exact += !strcmp(path_basename(hit.dirs[k]), spec);
		if (exact && exact < hit.n) {
			size_t w = 0;

			for (k = 0; k < hit.n; k++) {
				if (!strcmp(path_basename(hit.dirs[k]), spec))
					hit.dirs[w++] = hit.dirs[k];
				else
					free(hit.dirs[k]);
			}
			hit.n = w;
		}
	}
	if (!hit.n) {
		strbuf_addf(err, "'%s' matches no result group under '%s'", spec,
			    root);
		if (selector && all.n) {
			strbuf_addstr(err, "; the groups are:");
			list_candidates(err, &all, root);
		}
		goto done;
	}
	if (hit.n > 1) {
		strbuf_addf(err, "'%s' is ambiguous: it matches %zu result groups:",
			    spec, hit.n);
		list_candidates(err, &hit, root);
		goto done;
	}
	ret = select_group_dir(hit.dirs[0], g, err);
done:
	if (!ret)
		ret = refuse_mixed(g, err);
	if (!ret) {
		g->spec = xstrdup(spec);
		attach_floor(ctx, open, g);
	}
	else
		result_group_release(g);
	candidates_release(&all);
	candidates_release(&hit);
	free(root);
	return ret;
}

int select_group(const struct select_ctx *ctx, const char *spec,
		 struct result_group *g, struct strbuf *err)
{
	return select_group_in(ctx, NULL, spec, g, err);
}

int select_groups(const struct select_ctx *ctx, const char *const *specs,
		  size_t n, struct result_group *groups, struct strbuf *err)
{
	struct store st;
	bool open = false;
	size_t i;
	int ret = 0;

	for (i = 0; i < n; i++)
		result_group_init(&groups[i]);
	/* one look at the disk for all: each select_group() would sync again */
	if (have_index(ctx)) {
		if (result_store_open(&st, ctx->result_root, ctx->store_url, 0,
				      err))
			return SELECT_NO_STORE;
		open = true;
	}
	for (i = 0; i < n && !ret; i++)
		ret = select_group_in(ctx, open ? &st : NULL, specs[i],
				      &groups[i], err);
	if (open)
		store_close(&st);
	return ret;
}
