/*
 * matrix.c: LKP's matrix.json in memory (see matrix.h).  This first
 * reader goes through jansson; the compare module may replace it with a
 * lean reader for speed, keeping the interface.
 */
#include "util/compat.h"
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "matrix.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

void matrix_init(struct matrix *m)
{
	memset(m, 0, sizeof(*m));
}

void matrix_release(struct matrix *m)
{
	size_t i;

	for (i = 0; i < m->nstats; i++)
		free(m->names[i]);
	if (m->sources)
		for (i = 0; i < m->nruns; i++)
			free(m->sources[i]);
	free(m->names);
	free(m->values);
	free(m->is_int);
	free(m->sources);
	matrix_init(m);
}

ssize_t matrix_find(const struct matrix *m, const char *name)
{
	size_t lo = 0, hi = m->nstats;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(m->names[mid], name);

		if (!c)
			return (ssize_t)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int matrix_load_json(struct matrix *m, const char *path, struct strbuf *err)
{
	json_error_t jerr;
	json_t *root, *arr, *src;
	const char *key;
	size_t nkeys, i, s, r;
	char **names = NULL;
	int ret = -1;

	matrix_init(m);
	root = json_load_file(path, 0, &jerr);
	if (!root) {
		strbuf_addf(err, "%s:%d: %s", path, jerr.line, jerr.text);
		return -1;
	}
	if (!json_is_object(root)) {
		strbuf_addf(err, "%s: not an LKP matrix (expected an object)", path);
		goto out;
	}
	src = json_object_get(root, "stats_source");
	nkeys = json_object_size(root);
	names = xcalloc(nkeys ? nkeys : 1, sizeof(*names));
	m->nruns = 0;
	s = 0;
	json_object_foreach(root, key, arr) {
		if (!strcmp(key, "stats_source"))
			continue;
		if (!json_is_array(arr)) {
			strbuf_addf(err, "%s: %s: expected an array of numbers",
				    path, key);
			goto out;
		}
		if (json_array_size(arr) > m->nruns)
			m->nruns = json_array_size(arr);
		names[s++] = (char *)key;
	}
	/* LKP: the run count is the length of stats_source when present */
	if (json_is_array(src) && json_array_size(src))
		m->nruns = json_array_size(src);
	qsort(names, s, sizeof(*names), cmp_str);
	m->nstats = s;
	m->names = xcalloc(s ? s : 1, sizeof(*m->names));
	m->values = xcalloc(st_mult(s ? s : 1, m->nruns ? m->nruns : 1),
			    sizeof(double));
	m->is_int = xcalloc(s ? s : 1, 1);
	for (i = 0; i < s; i++) {
		arr = json_object_get(root, names[i]);
		m->names[i] = xstrdup(names[i]);
		m->is_int[i] = 1;
		for (r = 0; r < json_array_size(arr) && r < m->nruns; r++) {
			json_t *v = json_array_get(arr, r);

			if (json_is_integer(v)) {
				m->values[i * m->nruns + r] =
					(double)json_integer_value(v);
			} else if (json_is_real(v)) {
				m->values[i * m->nruns + r] = json_real_value(v);
				m->is_int[i] = 0;
			} else if (!json_is_null(v)) {
				strbuf_addf(err, "%s: %s[%zu]: not a number",
					    path, names[i], r);
				goto out;
			}
		}
	}
	if (json_is_array(src)) {
		m->sources = xcalloc(m->nruns ? m->nruns : 1, sizeof(char *));
		for (r = 0; r < m->nruns; r++) {
			const char *t = json_string_value(json_array_get(src, r));

			m->sources[r] = xstrdup(t ? t : "");
		}
	}
	ret = 0;
out:
	free(names);
	json_decref(root);
	if (ret)
		matrix_release(m);
	return ret;
}

/* shortest text that reads back as the same double, %.17g at worst */
static void add_number(struct strbuf *out, double v, bool is_int)
{
	char buf[40];
	int prec;

	if (is_int && fabs(v) < 9.007199254740992e15) {
		strbuf_addf(out, "%lld", (long long)v);
		return;
	}
	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	strbuf_addstr(out, buf);
	if (!strpbrk(buf, ".eEn"))
		strbuf_addstr(out, ".0"); /* keep it a float for JSON readers */
}

void matrix_to_json(const struct matrix *m, struct strbuf *out)
{
	size_t s, r;

	strbuf_addstr(out, "{\n");
	for (s = 0; s < m->nstats; s++) {
		strbuf_addstr(out, "  ");
		strbuf_add_json_str(out, m->names[s]);
		strbuf_addstr(out, ": [");
		for (r = 0; r < m->nruns; r++) {
			if (r)
				strbuf_addstr(out, ", ");
			add_number(out, matrix_at(m, s, r), m->is_int[s]);
		}
		strbuf_addstr(out, s + 1 < m->nstats || m->sources ? "],\n" : "]\n");
	}
	if (m->sources) {
		strbuf_addstr(out, "  \"stats_source\": [");
		for (r = 0; r < m->nruns; r++) {
			if (r)
				strbuf_addstr(out, ", ");
			strbuf_add_json_str(out, m->sources[r]);
		}
		strbuf_addstr(out, "]\n");
	}
	strbuf_addstr(out, "}\n");
}
