/*
 * index.c: what a group's runs give when one is finished or restated --
 * the group's matrix.json (with LKP's avg.json and stddev.json), rebuilt
 * from its runs' stats.json rather than appended to, so that doing it
 * again gives the same file; and each run's record in the index (store.h):
 * its axes, parameters, facts and stats, one transaction a run.
 */
#include "util/compat.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "job/job.h"
#include "job/kpi.h"
#include "job/programs.h"
#include "result/internal.h"
#include "result/matrix.h"
#include "result/reduce.h"
#include "result/result.h"
#include "result/unite.h"
#include "store/store.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/usage.h"
#include "util/xalloc.h"

/* the run number of a stats_source entry (".../<n>/stats.json"), or -1 */
static int source_run(const char *src)
{
	struct strbuf dir = STRBUF_INIT;
	const char *base, *why;
	long long v = -1;

	if (src) {
		path_dirname(&dir, src);
		base = path_basename(dir.buf);
		if (!result_is_run_number(base) ||
		    strnum_ll(base, 0, MAX_RUNS, &v, &why))
			v = -1;
	}
	strbuf_release(&dir);
	return (int)v;
}

static bool has_run(const int *nums, size_t n, int num)
{
	return num >= 0 && bsearch(&num, nums, n, sizeof(*nums), result_cmp_int);
}

/* the new matrix's column for run num, or -1 */
static ssize_t column_of(const struct matrix *m, int num)
{
	size_t r;

	for (r = 0; m->sources && r < m->nruns; r++)
		if (source_run(m->sources[r]) == num)
			return (ssize_t)r;
	return -1;
}

/*
 * matrix.json is rebuilt from its runs' stats.json; it must not lose a
 * value the old one holds for a run still on disk that has no stats.json
 * to say what it holds (an archived LKP group can hold a matrix.json and
 * runs whose stats.json is gone).  A value of a run deleted since goes
 * with its run; 0 is LKP's padding, not a value.  -2 with err when a
 * value would be lost.
 */
static int check_matrix_loss(const char *group_dir, const int *nums,
			     size_t n, const struct matrix *m, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, why = STRBUF_INIT, lost = STRBUF_INIT;
	struct matrix old;
	size_t s, r, nlost = 0;
	int ret = 0;

	matrix_init(&old);
	path_join(&path, group_dir, "matrix.json");
	if (!file_exists(path.buf) || matrix_load_json(&old, path.buf, &why))
		goto out; /* none, or nothing readable in it to lose */
	for (s = 0; s < old.nstats; s++) {
		for (r = 0; r < old.nruns; r++) {
			double v = matrix_at(&old, s, r);
			int num = source_run(old.sources ? old.sources[r] : NULL);
			ssize_t c;

			if (v == 0 || isnan(v))
				continue;
			if (num >= 0 && !has_run(nums, n, num))
				continue; /* its run is gone */
			c = num >= 0 ? column_of(m, num) : -1;
			if (c < 0 && num >= 0) {
				/* a run left out as incomplete is not a loss */
				strbuf_reset(&why);
				strbuf_addf(&why, "%s/%d", group_dir, num);
				if (result_run_incomplete(why.buf))
					continue;
			}
			if (c >= 0)
				continue; /* the run's stats.json says what it holds */
			result_add_lost(&lost, &nlost, old.names[s]);
			break;
		}
	}
	if (nlost)
		ret = result_refuse_loss(path.buf, nlost, &lost, err);
out:
	matrix_release(&old);
	strbuf_release(&path);
	strbuf_release(&why);
	strbuf_release(&lost);
	return ret;
}

/*
 * matrix.json (and LKP's avg.json, stddev.json) from the group's complete
 * runs, in run order; removed when no complete run is left.  Never
 * replaced by one that loses a value of a run still on disk (-2).
 */
int result_rebuild_matrix(const char *group_dir, const int *nums, size_t n,
			  struct strbuf *err)
{
	/* the sidecar first: a matrix.json without its own is read by LKP's
	 * padding rule, never with another's (matrix_load_missing checks) */
	static const char *const files[] = {MATRIX_MISSING_FILE, "matrix.json",
					     "avg.json", "stddev.json"};
	struct unite u;
	struct matrix m;
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT, why = STRBUF_INIT;
	size_t i;
	int ret = -1;

	unite_init(&u);
	matrix_init(&m);
	for (i = 0; i < n; i++) {
		struct reduce_stats st;

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%d", group_dir, nums[i]);
		if (result_run_incomplete(path.buf))
			continue;
		strbuf_addstr(&path, "/stats.json");
		if (!file_exists(path.buf))
			continue; /* not processed (yet): no column */
		reduce_stats_init(&st);
		strbuf_reset(&why);
		if (reduce_stats_load_json(&st, path.buf, &why))
			warning("%s (run left out of matrix.json)", why.buf);
		else
			unite_add_run(&u, path.buf, &st);
		reduce_stats_release(&st);
	}
	unite_to_matrix(&u, &m);
	ret = check_matrix_loss(group_dir, nums, n, &m, err);
	if (ret)
		goto out;
	ret = -1;
	if (!u.n) {
		for (i = 0; i < ARRAY_SIZE(files); i++) {
			path_join(&path, group_dir, files[i]);
			if (unlink(path.buf) < 0 && errno != ENOENT) {
				strbuf_addf(err, "cannot remove '%s': %s",
					    path.buf, strerror(errno));
				goto out;
			}
		}
		ret = 0;
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		strbuf_reset(&text);
		if (i == 0)
			matrix_missing_to_json(&m, &text);
		else if (i == 1)
			matrix_to_json(&m, &text);
		else if (i == 2)
			unite_avg_json(&m, &text);
		else
			unite_stddev_json(&m, &text);
		if (result_write_text(group_dir, files[i], &text, err))
			goto out;
	}
	ret = 0;
out:
	matrix_release(&m);
	unite_release(&u);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&why);
	return ret;
}

static int cmp_param(const void *a, const void *b)
{
	return strcmp(((const struct store_param *)a)->key,
		      ((const struct store_param *)b)->key);
}

/* one parameter more (key and value copied); sorted at the end */
static void add_param(struct store_param_list *params, const char *key,
		      const char *value, enum store_param_kind kind)
{
	ALLOC_GROW(params->items, params->n + 1, params->alloc);
	params->items[params->n].key = xstrdup(key);
	params->items[params->n].value = xstrdup(value);
	params->items[params->n++].kind = kind;
}

static bool has_param(const struct store_param_list *params, const char *key)
{
	size_t j;

	for (j = 0; j < params->n; j++)
		if (!strcmp(params->items[j].key, key))
			return true;
	return false;
}

/*
 * The job's declared KPIs (a mapping, so not among the scalar facts): one
 * line in the index, as a fact -- never a parameter, so never part of
 * the group's identity or of key=value selection by parameter.
 */
static void run_kpi_param(const struct job *job,
			  struct store_param_list *params)
{
	struct strbuf err = STRBUF_INIT, line = STRBUF_INIT;
	struct kpi_set s;

	if (!kpi_from_job(job, &s, &err) && s.n) {
		kpi_format(&s, &line);
		add_param(params, "kpi", line.buf, STORE_PARAM_FACT);
	}
	kpi_set_release(&s);
	strbuf_release(&line);
	strbuf_release(&err);
}

/*
 * The axes from the group's place below the root, LKP's layout
 * (testcase/path_params/tbox_group/...): all of them, or none when the
 * group is not that many levels down (axes stay NULL then).
 */
static void axes_from_dir(const char *root, const char *group_dir,
			  char *axes[STORE_NAXES])
{
	size_t rl = strlen(root);
	char *copy, *p, *save = NULL;
	int a = 0;

	if (strncmp(group_dir, root, rl) || group_dir[rl] != '/')
		return;
	copy = xstrdup(group_dir + rl + 1);
	for (p = strtok_r(copy, "/", &save); p; p = strtok_r(NULL, "/", &save))
		if (a++ < STORE_NAXES)
			axes[a - 1] = xstrdup(p);
	if (a != STORE_NAXES)
		for (a = 0; a < STORE_NAXES; a++)
			FREE_AND_NULL(axes[a]);
	free(copy);
}

/* a group not in LKP's layout below the root: its axes are the job's */
static void axes_from_job(const struct job *job, char *axes[STORE_NAXES])
{
	struct strbuf pp = STRBUF_INIT;
	int a;

	for (a = 0; a < STORE_NAXES; a++) {
		const char *v;

		if (a == STORE_PATH_PARAMS) {
			job_group_params(job, &pp);
			v = pp.buf;
		} else {
			v = job_get(job, store_axis_name(a));
		}
		axes[a] = xstrdup(v ? v : "");
	}
	strbuf_release(&pp);
}

/*
 * A program perfsift does not know (LKP's robot writes stress-ng:,
 * oom-killer:, ...): its scalar options are the run's parameters too, as
 * LKP's each_param has them, unless a known one of the same name came
 * first.  A mapping under one of perfsift's own top-level keys (kpi:,
 * env:, hw:, pp:) is no program: its entries are not parameters (kpi:'s
 * `mytest.score: higher` would otherwise show in compare's header, and
 * only when read from the index).
 */
static void unknown_program_params(const struct jnode *r,
				   struct store_param_list *params)
{
	size_t i, o;

	for (i = 0; i < r->n; i++) {
		const struct jnode *prog = r->kids[i];

		if (prog->type != JNODE_MAP || program_find(r->keys[i]) ||
		    job_key_find(r->keys[i]))
			continue;
		for (o = 0; o < prog->n; o++)
			if (prog->kids[o]->type == JNODE_SCALAR &&
			    !has_param(params, prog->keys[o]))
				add_param(params, prog->keys[o],
					  prog->kids[o]->text, STORE_PARAM_JOB);
	}
}

/*
 * Every other top-level scalar (machine facts, the fingerprint) as a
 * fact; not the axes, which the index holds in columns of their own.
 */
static void scalar_facts(const struct jnode *r, struct store_param_list *params)
{
	size_t i;
	int a;

	for (i = 0; i < r->n; i++) {
		bool seen;

		if (r->kids[i]->type != JNODE_SCALAR)
			continue;
		seen = has_param(params, r->keys[i]);
		for (a = 0; a < STORE_NAXES && !seen; a++)
			seen = !strcmp(store_axis_name(a), r->keys[i]);
		if (!seen)
			add_param(params, r->keys[i], r->kids[i]->text,
				  STORE_PARAM_FACT);
	}
}

/*
 * The group's axes from its place below the root (the directory is the
 * truth), and its parameters from the run's job.yaml: job_params() and
 * every other top-level scalar (machine facts, fingerprint) as facts.
 */
static void run_facts(const char *root, const char *group_dir,
		      const char *run_dir, char *axes[STORE_NAXES],
		      struct store_param_list *params)
{
	struct job *job;
	size_t i;
	int a;

	memset(axes, 0, sizeof(char *) * STORE_NAXES);
	memset(params, 0, sizeof(*params));
	axes_from_dir(root, group_dir, axes);
	/* result_parse_run has named a job.yaml it could not read */
	job = result_read_run_job(run_dir, false);
	if (job) {
		struct job_param *jp = NULL;
		size_t njp = 0;

		if (!axes[0])
			axes_from_job(job, axes);
		job_params(job, &jp, &njp);
		for (i = 0; i < njp; i++)
			add_param(params, jp[i].key, jp[i].value,
				  STORE_PARAM_JOB);
		job_params_free(jp, njp);
		unknown_program_params(job->root, params);
		scalar_facts(job->root, params);
		run_kpi_param(job, params);
		if (params->n)
			qsort(params->items, params->n, sizeof(*params->items),
			      cmp_param);
	}
	for (a = 0; a < STORE_NAXES; a++)
		if (!axes[a])
			axes[a] = xstrdup("");
	job_free(job);
}

/* one run into an open store, one transaction (nums: result_index_runs) */
static int index_run(struct store *st, const char *root, const char *group_dir,
		     const int *nums, size_t n, const struct index_item *item,
		     struct strbuf *err)
{
	struct store_run_record rec;
	struct store_param_list params;
	char *axes[STORE_NAXES];
	int a, ret;

	run_facts(root, group_dir, item->dir, axes, &params);
	memset(&rec, 0, sizeof(rec));
	rec.group_dir = group_dir;
	for (a = 0; a < STORE_NAXES; a++)
		rec.axes[a] = axes[a];
	rec.params = params.items;
	rec.nparams = params.n;
	rec.number = item->number;
	rec.complete = item->complete;
	rec.run_dir = item->dir;
	rec.stats = item->stats;
	rec.present_runs = nums;
	rec.npresent = n;
	ret = store_index_run(st, &rec, err);
	for (a = 0; a < STORE_NAXES; a++)
		free(axes[a]);
	store_param_list_release(&params);
	return ret;
}

/*
 * Index runs of one group, one transaction each; the group's other runs
 * that are no longer on disk (not in nums) are forgotten meanwhile.
 */
int result_index_runs(const char *root, const char *store_url,
		      const char *group_dir, const int *nums, size_t n,
		      const struct index_item *items, size_t nitems,
		      struct strbuf *err)
{
	struct store st;
	size_t i;
	int ret = 0;

	if (store_open(&st, root, store_url, STORE_CREATE, err))
		return -1;
	for (i = 0; i < nitems && !ret; i++)
		ret = index_run(&st, root, group_dir, nums, n, &items[i], err);
	store_close(&st);
	return ret;
}

int result_index_kept(struct store *st, const struct result_kept *k,
		      struct strbuf *err)
{
	struct index_item item = {k->dir, k->number, k->complete, k->stats};

	return index_run(st, k->root, k->group, NULL, 0, &item, err);
}

/*
 * Under the group lock: matrix.json from the complete runs, then the run
 * in the index (one transaction, forgetting runs no longer on disk unless
 * the store is shared: result_restat_shared).
 */
int result_publish_run(const char *root, const char *store_url,
		       const char *group_dir, const char *run_dir, int number,
		       bool complete, const struct reduce_stats *stats,
		       bool forget, struct strbuf *err)
{
	struct index_item item = {run_dir, number, complete, stats};
	int *nums = NULL, ret = -1;
	size_t n = 0;

	if (!result_group_runs(group_dir, &nums, &n, err) &&
	    !result_rebuild_matrix(group_dir, nums, n, err))
		ret = result_index_runs(root, store_url, group_dir,
					forget ? nums : NULL, forget ? n : 0,
					&item, 1, err);
	free(nums);
	return ret;
}
