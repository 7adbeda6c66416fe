/*
 * fio.c: fio, run as LKP's fio-basic does and parsed as LKP's
 * programs/fio/parse does.  The run writes fio-setup-basic's task file
 * (a [global] section from the job's bs, ioengine, iodepth, test_size,
 * nr_files, direct, runtime, fallocate, and one [task_0] with rw and
 * numjobs = nr_task, its files in the run's scratch directory), logs it as
 * LKP's log_echo does and feeds it to `fio --output-format=json -`; the
 * JSON goes to the raw file after the log line.
 *
 * The parser reads the JSON from the first `{` (the raw file begins with
 * the command): per read/write, bandwidth in MiB/s, iops, clat mean and
 * stddev and the 90/95/99th percentiles, slat mean and stddev; the
 * latency_us / latency_ms histograms; workload (the I/Os done).  As
 * LKP's, it prefers a result root's fio.output next to the raw file, and
 * with fio.output.N files (one per instance) prints their sum (bandwidth,
 * iops, workload) or mean (the rest) and then each with `.instanceN`.
 * Numbers print as Ruby prints JSON's: integers as they are, reals in
 * Float#to_s form.
 */
#include "util/compat.h"
#include <dirent.h>
#include <jansson.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "external/external.h"
#include "external/ext_params.h"
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- the parser */

/* one stat: an integer (as JSON had it) or a real, in the order LKP adds them */
struct fio_stat {
	char *key;
	bool is_int;
	long long i;
	double d;
};

struct fio_stats {
	struct fio_stat *v;
	size_t n, alloc;
};

static void stat_set(struct fio_stats *s, const char *key, const json_t *j)
{
	struct fio_stat *st = NULL;
	size_t k;

	/* a key set again keeps its place (Ruby's Hash) */
	for (k = 0; k < s->n && !st; k++)
		if (!strcmp(s->v[k].key, key))
			st = &s->v[k];
	if (!st) {
		ALLOC_GROW(s->v, s->n + 1, s->alloc);
		st = &s->v[s->n++];
		st->key = xstrdup(key);
	}
	st->is_int = json_is_integer(j);
	st->i = json_is_integer(j) ? json_integer_value(j) : 0;
	st->d = json_is_number(j) ? json_number_value(j) : 0;
}

static void stat_real(struct fio_stats *s, const char *key, double d)
{
	json_t *j = json_real(d);

	stat_set(s, key, j);
	json_decref(j);
}

static void stats_release(struct fio_stats *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].key);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static void stat_print(struct strbuf *out, const struct fio_stat *st,
		       const char *suffix)
{
	strbuf_addf(out, "%s%s: ", st->key, suffix);
	if (st->is_int)
		strbuf_addf(out, "%lld", st->i);
	else
		mon_ruby_float(out, st->d);
	strbuf_addch(out, '\n');
}

/* 90.000000 -> 90 (trailing zeros, then a trailing dot, go) */
static void percentile_name(struct strbuf *sb, const char *p)
{
	strbuf_addstr(sb, p);
	while (sb->len && sb->buf[sb->len - 1] == '0')
		strbuf_setlen(sb, sb->len - 1);
	if (sb->len && sb->buf[sb->len - 1] == '.')
		strbuf_setlen(sb, sb->len - 1);
}

/* key = OP_NAME (read_iops, write_clat_stddev, ...) */
static const char *op_key(struct strbuf *key, const char *op, const char *name)
{
	strbuf_reset(key);
	strbuf_addf(key, "%s_%s", op, name);
	return key->buf;
}

/*
 * A latency of op (clat, slat) -- NAME_ns in fio 3, NAME in older fio --
 * as OP_NAME_mean_UNIT and OP_NAME_stddev, LKP's keys; the latency's
 * object is returned for its percentiles.
 */
static const json_t *lat_stats(struct fio_stats *s, struct strbuf *key,
			       const char *op, const json_t *res,
			       const char *name, const char *mean_unit)
{
	const json_t *lat = json_object_get(res, name);

	if (!lat)
		lat = json_object_get(res, op_key(key, name, "ns"));
	strbuf_reset(key);
	strbuf_addf(key, "%s_%s_mean_%s", op, name, mean_unit);
	stat_set(s, key->buf, json_object_get(lat, "mean"));
	strbuf_reset(key);
	strbuf_addf(key, "%s_%s_stddev", op, name);
	stat_set(s, key->buf, json_object_get(lat, "stddev"));
	return lat;
}

/* one of read / write: its stats into s; its I/Os for the workload */
static long long op_stats(struct fio_stats *s, const char *op, const json_t *res)
{
	static const char *const pcts[] = {"90.000000", "95.000000", "99.000000"};
	struct strbuf key = STRBUF_INIT;
	const json_t *clat, *pct, *v;
	const char *p;
	size_t i;

	stat_real(s, op_key(&key, op, "bw_MBps"),
		  json_number_value(json_object_get(res, "bw")) / 1024);
	stat_set(s, op_key(&key, op, "iops"), json_object_get(res, "iops"));
	clat = lat_stats(s, &key, op, res, "clat", "ns");
	pct = json_object_get(clat, "percentile");
	json_object_foreach((json_t *)pct, p, v) {
		for (i = 0; i < ARRAY_SIZE(pcts) && strcmp(p, pcts[i]); i++)
			;
		if (i == ARRAY_SIZE(pcts))
			continue;
		op_key(&key, op, "clat_");
		percentile_name(&key, p);
		strbuf_addstr(&key, "%_ns");
		stat_set(s, key.buf, v);
	}
	lat_stats(s, &key, op, res, "slat", "us");
	strbuf_release(&key);
	v = json_object_get(res, "total_ios");
	return json_is_number(v) ? (long long)json_number_value(v) : 0;
}

static void histogram(struct fio_stats *s, const json_t *h, const char *unit)
{
	struct strbuf key = STRBUF_INIT;
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)h, k, v) {
		strbuf_reset(&key);
		strbuf_addf(&key, "latency_%s%s%%", k, unit);
		stat_set(s, key.buf, v);
	}
	strbuf_release(&key);
}

/* the stats of one fio JSON output; -1 with err when it is none */
static int fio_json(const char *text, size_t len, struct fio_stats *s,
		    struct strbuf *err)
{
	const char *brace = memchr(text, '{', len);
	json_t *root, *job, *w;
	json_error_t jerr;
	long long workload;

	if (!brace) {
		strbuf_addstr(err, "no JSON in fio's output (not --output-format=json?)");
		return -1;
	}
	root = json_loadb(brace, len - (size_t)(brace - text), 0, &jerr);
	job = json_array_get(json_object_get(root, "jobs"), 0);
	if (!root || !json_is_object(json_object_get(job, "read")) ||
	    !json_is_object(json_object_get(job, "write"))) {
		strbuf_addf(err, "fio's JSON %s%s", root ? "has no jobs[0] read and write" :
				"is invalid: ", root ? "" : jerr.text);
		json_decref(root);
		return -1;
	}
	workload = op_stats(s, "read", json_object_get(job, "read"));
	workload += op_stats(s, "write", json_object_get(job, "write"));
	histogram(s, json_object_get(job, "latency_us"), "us");
	histogram(s, json_object_get(job, "latency_ms"), "ms");
	w = json_integer(workload);
	stat_set(s, "workload", w);
	json_decref(w);
	json_decref(root);
	return 0;
}

static bool additive(const char *key)
{
	size_t n = strlen(key);

	return !strcmp(key, "workload") ||
	       (n >= 5 && !strcmp(key + n - 5, "_iops")) ||
	       (n >= 8 && !strcmp(key + n - 8, "_bw_MBps"));
}

/* the instances' sum (bandwidth, iops, workload) or mean, in the first's order */
static void combine(struct strbuf *out, struct fio_stats *in, size_t n)
{
	size_t k, i;

	for (k = 0; k < in[0].n; k++) {
		const struct fio_stat *first = &in[0].v[k];
		struct fio_stat c = {first->key, true, 0, 0};
		double *vals = xcalloc(n, sizeof(double));
		size_t m = 0;

		for (i = 0; i < n; i++) {
			size_t j;

			for (j = 0; j < in[i].n; j++) {
				const struct fio_stat *st = &in[i].v[j];

				if (strcmp(st->key, first->key))
					continue;
				c.i += st->is_int ? st->i : 0;
				c.is_int = c.is_int && st->is_int;
				vals[m++] = st->is_int ? (double)st->i : st->d;
			}
		}
		/* Ruby: integers sum to an integer; a float among them to a float */
		c.d = mon_ruby_sum(vals, m);
		if (!additive(first->key)) {
			c.d = (c.is_int ? (double)c.i : c.d) / (double)m;
			c.is_int = false; /* Ruby's to_f / size: a float */
		}
		if (m)
			stat_print(out, &c, "");
		free(vals);
	}
}

static int inst_cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* fio.output.N next to the raw file: every instance's output, by N */
static int instances(const char *dir, struct strbuf *out, struct strbuf *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	long *ids = NULL;
	size_t n = 0, alloc = 0, i;
	struct fio_stats *st;
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT, sfx = STRBUF_INIT;
	int ret = 0;

	while (d && (e = readdir(d))) {
		char *end;
		long id;

		if (strncmp(e->d_name, "fio.output.", 11))
			continue;
		id = strtol(e->d_name + 11, &end, 10);
		if (*end || end == e->d_name + 11)
			continue;
		ALLOC_GROW(ids, n + 1, alloc);
		ids[n++] = id;
	}
	if (d)
		closedir(d);
	if (!n)
		return 1;
	qsort(ids, n, sizeof(*ids), inst_cmp);
	st = xcalloc(n, sizeof(*st));
	for (i = 0; i < n && !ret; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/fio.output.%ld", dir, ids[i]);
		strbuf_reset(&text);
		if (strbuf_read_file(&text, path.buf, 0) < 0 ||
		    fio_json(text.buf, text.len, &st[i], err) < 0) {
			strbuf_addf(err, " (%s)", path.buf);
			ret = -1;
		}
	}
	if (!ret) {
		combine(out, st, n);
		for (i = 0; i < n; i++) {
			size_t k;

			strbuf_reset(&sfx);
			strbuf_addf(&sfx, ".instance%ld", ids[i]);
			for (k = 0; k < st[i].n; k++)
				stat_print(out, &st[i].v[k], sfx.buf);
		}
	}
	for (i = 0; i < n; i++)
		stats_release(&st[i]);
	free(st);
	free(ids);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&sfx);
	return ret;
}

DECLARE_PARSER(parse_fio)
{
	struct strbuf dir = STRBUF_INIT, other = STRBUF_INIT, text = STRBUF_INIT;
	struct fio_stats s = {0};
	size_t i;
	int ret;

	/*
	 * In an LKP result root the raw `fio` holds only the command: the
	 * JSON is fio.output beside it (or fio.output.N, one per instance),
	 * and LKP reads that first.
	 */
	if (path) {
		char *copy = xstrdup(path);

		strbuf_addstr(&dir, dirname(copy));
		free(copy);
		strbuf_addf(&other, "%s/fio.output", dir.buf);
		if (file_exists(other.buf)) {
			if (strbuf_read_file(&text, other.buf, 0) < 0) {
				strbuf_addf(err, "cannot read '%s'", other.buf);
				ret = -1;
				goto out;
			}
			raw = text.buf;
			len = text.len;
		} else if ((ret = instances(dir.buf, out, err)) <= 0) {
			goto out;
		}
	}
	ret = fio_json(raw, len, &s, err);
	for (i = 0; !ret && i < s.n; i++)
		stat_print(out, &s.v[i], "");
out:
	stats_release(&s);
	strbuf_release(&dir);
	strbuf_release(&other);
	strbuf_release(&text);
	return ret;
}

/* ---- the run */

static int fio_prepare(struct bench_ctx *ctx, struct strbuf *err)
{
	const struct fio_opts *o = ctx->params;
	uint64_t jobs = param_cpus_of(&o->nr_task, ctx->nr_cpu);
	uint64_t files = o->nr_files ? o->nr_files : 1, size;
	struct strbuf task = STRBUF_INIT, path = STRBUF_INIT;

	if (ext_need("fio", "fio", err))
		return BENCH_ERROR;
	/* test_size is the whole run's: each job gets its share, in nr_files */
	size = o->test_size / jobs;
	if (size < 4096 * files) {
		strbuf_addf(err, "fio: test_size %" PRIu64 " is too small for %" PRIu64
			    " jobs of %" PRIu64 " files", o->test_size, jobs, files);
		return BENCH_ERROR;
	}
	strbuf_addf(&task, "[global]\nbs=%s\nioengine=%s\niodepth=%" PRIu64 "\n"
		    "size=%" PRIu64 "\nnrfiles=%" PRIu64 "\nfilesize=%" PRIu64 "\n"
		    "direct=%d\nruntime=%.0f\ninvalidate=1\nfallocate=%s\n"
		    "io_size=%" PRIu64 "\nfile_service_type=roundrobin\n"
		    "random_distribution=random\ngroup_reporting\npre_read=0\n",
		    o->bs, o->ioengine, o->iodepth, size, files, size / files,
		    !strcmp(o->direct, "direct") || !strcmp(o->direct, "1"), o->runtime, o->fallocate, size);
	if (o->time_based)
		strbuf_addstr(&task, "time_based\n");
	strbuf_addf(&task, "\n[task_0]\nrw=%s\ndirectory=%s\nnumjobs=%" PRIu64 "\n",
		    o->rw, ctx->scratch, jobs);
	path_join(&path, ctx->scratch, "fio.task");
	if (write_file_atomic(path.buf, task.buf, task.len) < 0) {
		strbuf_addf(err, "cannot write '%s'", path.buf);
		strbuf_release(&task);
		strbuf_release(&path);
		return BENCH_ERROR;
	}
	ctx->priv = strbuf_detach(&task, NULL);
	strbuf_release(&path);
	return BENCH_OK;
}

static int fio_run(struct bench_ctx *ctx)
{
	char *argv[] = {(char *)"fio", (char *)"--output-format=json", (char *)"-", NULL};
	struct strbuf path = STRBUF_INIT;
	int st;

	/* LKP's log_echo of what it runs: the task on stdin */
	printf("echo '%s' | fio --output-format=json -\n", (char *)ctx->priv);
	fflush(stdout);
	path_join(&path, ctx->scratch, "fio.task");
	/* fio's warnings stay on stderr: the raw file must end with the JSON */
	st = ext_run(argv, path.buf, false);
	strbuf_release(&path);
	return st;
}

static void fio_cleanup(struct bench_ctx *ctx)
{
	FREE_AND_NULL(ctx->priv);
}

const struct bench_ops bench_fio = {
	.name = "fio",
	/* LKP's index-perf-all.yaml: fio\..+_bw_MBps: 1, fio\..+_iops: 1 */
	.kpi = "fio.*_bw_MBps: higher; fio.*_iops: higher",
	.prepare = fio_prepare,
	.run = fio_run,
	.cleanup = fio_cleanup,
};
