/*
 * input.c: gather the samples a chart draws, from result groups
 * (select.h: a directory, a commit id or key=value selectors; one value
 * per run) or from one run's <monitor>.json (one value per sample).
 */
#include "util/compat.h"
#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "plot/input.h"
#include "select/select.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/trust.h"
#include "util/xalloc.h"

/* the runs that have the stat: a run without it is no point at 0 */
static size_t take_stat(const struct matrix *m, const char *stat, double **out)
{
	ssize_t s = matrix_find(m, stat);
	size_t n = 0;

	*out = NULL;
	if (s >= 0)
		*out = matrix_real_dup(m, (size_t)s, &n);
	return n;
}

/*
 * The two sides of a bisect-style chart: base's runs are the good points,
 * head's the bad.  One side without the stat is still a chart (the stat
 * appeared or vanished, which is itself the change); neither side is an
 * error naming both specs.
 */
int plot_sides_load(struct plot_sides *s, const char *root,
		    const char *store_url, const char *base, const char *head,
		    const char *stat, struct strbuf *err)
{
	struct select_ctx ctx = { root, store_url };

	memset(s, 0, sizeof(*s));
	result_group_init(&s->base);
	result_group_init(&s->head);
	if (select_group(&ctx, base, &s->base, err) ||
	    select_group(&ctx, head, &s->head, err))
		goto fail;
	s->ngood = take_stat(&s->base.matrix, stat, &s->good);
	s->nbad = take_stat(&s->head.matrix, stat, &s->bad);
	if (!s->ngood && !s->nbad) {
		strbuf_addf(err, "'%s': no such stat in '%s' or '%s'", stat,
			    base, head);
		goto fail;
	}
	return 0;
fail:
	plot_sides_release(s);
	return -1;
}

void plot_sides_release(struct plot_sides *s)
{
	result_group_release(&s->base);
	result_group_release(&s->head);
	FREE_AND_NULL(s->good);
	FREE_AND_NULL(s->bad);
	s->ngood = s->nbad = 0;
}

/*
 * A stat's samples from one <monitor>.json of a run: 1 found, 0 not in
 * this file, -1 error (err filled).  A null sample (the monitor had no
 * value that interval) becomes NaN, a gap in the chart, not a zero.
 */
static int series_from_file(const char *path, const char *stat, double **v,
			    size_t *n, struct strbuf *err)
{
	json_error_t jerr;
	json_t *root, *arr;
	size_t i;
	int ret = 0;

	root = json_load_file(path, 0, &jerr);
	if (!root) {
		strbuf_addf(err, "%s:%d: %s", path, jerr.line, trust_json_why(jerr.text));
		return -1;
	}
	arr = json_is_object(root) ? json_object_get(root, stat) : NULL;
	if (!arr)
		goto out;
	if (!json_is_array(arr)) {
		strbuf_addf(err, "%s: %s: expected an array of numbers", path,
			    stat);
		ret = -1;
		goto out;
	}
	*n = json_array_size(arr);
	*v = xcalloc(*n ? *n : 1, sizeof(double));
	for (i = 0; i < *n; i++) {
		json_t *x = json_array_get(arr, i);

		if (json_is_number(x)) {
			(*v)[i] = json_number_value(x);
		} else if (json_is_null(x)) {
			(*v)[i] = NAN;
		} else {
			strbuf_addf(err, "%s: %s[%zu]: not a number", path,
				    stat, i);
			FREE_AND_NULL(*v);
			ret = -1;
			goto out;
		}
	}
	ret = 1;
out:
	json_decref(root);
	return ret;
}

/*
 * A run's per-sample files are its <monitor>.json; stats.json and
 * matrix.json are reductions (one value per stat) with nothing over time.
 */
static bool per_sample_file(const char *name)
{
	size_t len = strlen(name);

	return len > 5 && !strcmp(name + len - 5, ".json") &&
	       strcmp(name, "stats.json") && strcmp(name, "matrix.json");
}

/*
 * A stat's samples over one run: first from the file its prefix names
 * ("vmstat.free" from vmstat.json), the usual case and one file to read;
 * only when it is not there, every other per-sample file in turn.
 */
int plot_load_run_series(const char *dir, const char *stat, double **v,
			 size_t *n, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, name = STRBUF_INIT;
	const char *dot = strchr(stat, '.');
	DIR *d = NULL;
	struct dirent *de;
	int found = 0;

	*v = NULL;
	*n = 0;
	if (!dir_exists(dir)) {
		strbuf_addf(err, "'%s': not a run directory", dir);
		return -1;
	}
	if (dot) {
		strbuf_add(&name, stat, (size_t)(dot - stat));
		strbuf_addstr(&name, ".json");
		path_join(&path, dir, name.buf);
		if (file_exists(path.buf))
			found = series_from_file(path.buf, stat, v, n, err);
	}
	/* a benchmark's own stats live in <prog>.json under other names */
	d = found ? NULL : opendir(dir);
	while (d && !found && (de = readdir(d))) {
		if (!per_sample_file(de->d_name) || !strcmp(de->d_name, name.buf))
			continue;
		path_join(&path, dir, de->d_name);
		found = series_from_file(path.buf, stat, v, n, err);
	}
	if (d)
		closedir(d);
	if (!found)
		strbuf_addf(err, "'%s': no per-sample values in '%s'", stat,
			    dir);
	strbuf_release(&path);
	strbuf_release(&name);
	return found == 1 ? 0 : -1;
}
