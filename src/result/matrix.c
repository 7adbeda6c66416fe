/*
 * matrix.c: LKP's matrix.json in memory (see matrix.h): which values are
 * real, the writer (LKP's layout, sorted), and the sidecar
 * matrix-missing.json.  Which values are real (not LKP's 0 padding)
 * comes from the reader (null, short arrays), the sidecar, or LKP's
 * padding rule (matrix.h).  The reader, a hot path of its own, is
 * matrix_read.c.
 */
#include "util/compat.h"
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "result/matrix.h"
#include "util/fileutil.h"
#include "util/sorted.h"
#include "util/strbuf.h"
#include "util/trust.h"
#include "util/xalloc.h"

void matrix_init(struct matrix *m)
{
	memset(m, 0, sizeof(*m));
}

/*
 * The reader keeps every name in one pool (names_pool), a matrix built
 * by hand has one allocation a name: both are freed here.
 */
void matrix_release(struct matrix *m)
{
	size_t i;

	if (!m->names_pool)
		for (i = 0; i < m->nstats; i++)
			free(m->names[i]);
	free(m->names_pool);
	if (m->sources)
		for (i = 0; i < m->nruns; i++)
			free(m->sources[i]);
	free(m->names);
	free(m->values);
	free(m->is_int);
	free(m->sources);
	free(m->present);
	matrix_init(m);
}

/* no present array: nothing was ever marked missing, every value is real */
size_t matrix_nreal(const struct matrix *m, size_t s)
{
	size_t r, n = 0;

	if (!m->present)
		return m->nruns;
	for (r = 0; r < m->nruns; r++)
		n += m->present[s * m->nruns + r];
	return n;
}

/*
 * The real values of stat s: the row itself when none is missing (the
 * common case, no copy), else the real ones copied into buf.
 */
const double *matrix_real(const struct matrix *m, size_t s, double *buf,
			  size_t *n)
{
	const double *row = m->values + s * m->nruns;
	const unsigned char *p;
	size_t r, k = 0;

	if (!m->present || !memchr(m->present + s * m->nruns, 0, m->nruns)) {
		*n = m->nruns;
		return row;
	}
	p = m->present + s * m->nruns;
	for (r = 0; r < m->nruns; r++)
		if (p[r])
			buf[k++] = row[r];
	*n = k;
	return buf;
}

/* matrix_real() into memory of the caller's own, NULL when none is real */
double *matrix_real_dup(const struct matrix *m, size_t s, size_t *n)
{
	double *buf = xcalloc(m->nruns ? m->nruns : 1, sizeof(*buf));
	const double *v = matrix_real(m, s, buf, n);

	if (!*n) {
		free(buf);
		return NULL;
	}
	if (v != buf)
		memcpy(buf, v, *n * sizeof(*buf));
	return buf;
}

/*
 * present is made on the first mark, all ones: most matrices have no
 * missing value and never pay for the array.  A missing value is 0 in
 * values too, as LKP writes it, so that the writer needs no second look.
 */
void matrix_columns(const struct matrix *m, const size_t *cols, size_t ncols,
		    struct matrix *out)
{
	size_t s, r, n = 0, ns = m->nstats ? m->nstats : 1;

	matrix_init(out);
	for (r = 0; r < ncols; r++)
		n += cols[r] < m->nruns;
	if (!n)
		return;
	out->nstats = m->nstats;
	out->nruns = n;
	out->names = xcalloc(ns, sizeof(char *));
	out->values = xcalloc(st_mult(ns, n), sizeof(double));
	out->is_int = xcalloc(ns, 1);
	if (m->present)
		out->present = xcalloc(st_mult(ns, n), 1);
	for (s = 0; s < m->nstats; s++) {
		size_t k = 0;

		out->names[s] = xstrdup(m->names[s]);
		out->is_int[s] = m->is_int[s];
		for (r = 0; r < ncols; r++) {
			size_t c = cols[r];

			if (c >= m->nruns)
				continue;
			out->values[s * n + k] = m->values[s * m->nruns + c];
			if (m->present)
				out->present[s * n + k] =
					m->present[s * m->nruns + c];
			k++;
		}
	}
}

/* a's runs then b's: see matrix.h */
void matrix_concat(const struct matrix *a, const struct matrix *b,
		   struct matrix *out)
{
	size_t i = 0, j = 0, ns = 0, s, r, n = a->nruns + b->nruns;
	const struct matrix *side[2] = { a, b };
	bool partial = a->present || b->present;
	int k;

	matrix_init(out);
	if (!n)
		return;
	out->names = xcalloc(a->nstats + b->nstats + 1, sizeof(char *));
	/* the union of the names, sorted as both sides' are */
	while (i < a->nstats || j < b->nstats) {
		int c = i == a->nstats ? 1 : j == b->nstats ? -1 :
			strcmp(a->names[i], b->names[j]);

		partial = partial || c;
		out->names[ns++] = xstrdup(c <= 0 ? a->names[i] : b->names[j]);
		i += c <= 0;
		j += c >= 0;
	}
	out->nstats = ns;
	out->nruns = n;
	out->values = xcalloc(st_mult(ns ? ns : 1, n), sizeof(double));
	out->is_int = xcalloc(ns ? ns : 1, 1);
	/* a stat one side lacks is missing in its runs, not 0 */
	if (partial)
		out->present = xcalloc(st_mult(ns ? ns : 1, n), 1);
	for (s = 0; s < ns; s++) {
		size_t at = 0;

		out->is_int[s] = 1;
		for (k = 0; k < 2; k++) {
			const struct matrix *m = side[k];
			ssize_t f = matrix_find(m, out->names[s]);

			if (f < 0) {
				at += m->nruns;
				continue;
			}
			out->is_int[s] &= m->is_int[f];
			for (r = 0; r < m->nruns; r++, at++) {
				out->values[s * n + at] = m->values[(size_t)f * m->nruns + r];
				if (partial)
					out->present[s * n + at] =
						!m->present ||
						m->present[(size_t)f * m->nruns + r];
			}
		}
	}
}

void matrix_columns_from(const struct matrix *m, size_t from,
			 struct matrix *out)
{
	size_t n = m->nruns > from ? m->nruns - from : 0, r;
	size_t *cols = xcalloc(n ? n : 1, sizeof(*cols));

	for (r = 0; r < n; r++)
		cols[r] = from + r;
	matrix_columns(m, cols, n, out);
	free(cols);
}

void matrix_set_missing(struct matrix *m, size_t s, size_t r)
{
	if (!m->present) {
		m->present = xmalloc(st_mult(m->nstats ? m->nstats : 1,
					     m->nruns ? m->nruns : 1));
		memset(m->present, 1, m->nstats * m->nruns);
	}
	m->present[s * m->nruns + r] = 0;
	m->values[s * m->nruns + r] = 0;
}

/*
 * LKP pads a stat that appears in a later run with zeros for the runs
 * before it: without a sidecar, leading zeros are taken for that padding.
 */
void matrix_assume_lkp_padding(struct matrix *m)
{
	size_t s, r, lead;

	for (s = 0; s < m->nstats; s++) {
		const double *row = m->values + s * m->nruns;

		for (lead = 0; lead < m->nruns && row[lead] == 0; lead++)
			;
		if (lead == m->nruns)
			continue; /* all zeros: real (LKP drops padding-only) */
		for (r = 0; r < lead; r++)
			matrix_set_missing(m, s, r);
	}
}

int matrix_cmp_name(const void *key, const void *elem)
{
	return strcmp(key, *(char *const *)elem);
}

/* the names are sorted (the reader sorts them, unite merges sorted lists) */
ssize_t matrix_find(const struct matrix *m, const char *name)
{
	size_t at = sorted_lower_bound(name, m->names, m->nstats,
				       sizeof(*m->names), matrix_cmp_name);

	return at < m->nstats && !strcmp(m->names[at], name) ? (ssize_t)at : -1;
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

/*
 * Written by hand in LKP's layout (one stat a line, two-space indent)
 * rather than through jansson: LKP's tools and people diff these files,
 * and the numbers must read back bit for bit (add_number).
 */
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

/* ---- the sidecar: which values of matrix.json are missing ---- */

/*
 * A file beside matrix.json, not a key in it: LKP's readers of
 * matrix.json would take an unknown key for a stat.  Its stats_source
 * ties it to one set of runs, so a matrix.json rebuilt by LKP since
 * (without it) is never read with a stale sidecar.
 */
void matrix_missing_to_json(const struct matrix *m, struct strbuf *out)
{
	size_t s, r;
	bool any = false;

	strbuf_addstr(out, "{\n  \"schema\": \"perfsift-matrix-missing/1\",\n"
			   "  \"stats_source\": [");
	for (r = 0; m->sources && r < m->nruns; r++) {
		if (r)
			strbuf_addstr(out, ", ");
		strbuf_add_json_str(out, m->sources[r]);
	}
	strbuf_addstr(out, "],\n  \"missing\": {");
	for (s = 0; m->present && s < m->nstats; s++) {
		const unsigned char *p = m->present + s * m->nruns;
		bool first = true;

		if (!memchr(p, 0, m->nruns))
			continue;
		strbuf_addstr(out, any ? ",\n    " : "\n    ");
		any = true;
		strbuf_add_json_str(out, m->names[s]);
		strbuf_addstr(out, ": [");
		for (r = 0; r < m->nruns; r++) {
			if (p[r])
				continue;
			strbuf_addf(out, first ? "%zu" : ", %zu", r);
			first = false;
		}
		strbuf_addch(out, ']');
	}
	strbuf_addstr(out, any ? "\n  }\n}\n" : "}\n}\n");
}

/* the line of the file where "key" first appears (1 if nowhere) */
static int line_of(const char *text, const char *key)
{
	struct strbuf q = STRBUF_INIT;
	const char *at, *p;
	int line = 1;

	strbuf_add_json_str(&q, key);
	at = strstr(text, q.buf);
	for (p = text; at && p < at; p++)
		line += *p == '\n';
	strbuf_release(&q);
	return line;
}

/* does the sidecar's stats_source name this matrix's runs? */
static bool same_sources(const struct matrix *m, json_t *src)
{
	size_t r;

	if (json_array_size(src) != m->nruns)
		return false;
	for (r = 0; m->sources && r < m->nruns; r++) {
		const char *v = json_string_value(json_array_get(src, r));

		if (!v || strcmp(v, m->sources[r]))
			return false;
	}
	return true;
}

/*
 * Read through jansson: the sidecar is small and written by perfsift
 * alone, so the lean reader's speed is not needed; its errors still name
 * file, line and key.
 */
int matrix_load_missing(struct matrix *m, const char *path,
			struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	json_error_t jerr;
	json_t *root = NULL, *src, *miss, *runs;
	const char *key, *schema;
	size_t i, k;
	int ret = -1;

	if (strbuf_read_file(&text, path, 256u << 20) < 0) {
		strbuf_release(&text);
		if (errno == ENOENT)
			return 0; /* no sidecar */
		strbuf_addf(err, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	root = json_loadb(text.buf, text.len, 0, &jerr);
	if (!root) {
		strbuf_addf(err, "%s:%d: %s", path, jerr.line, trust_json_why(jerr.text));
		goto out;
	}
	schema = json_string_value(json_object_get(root, "schema"));
	src = json_object_get(root, "stats_source");
	miss = json_object_get(root, "missing");
	if (!json_is_object(root) || !schema ||
	    strcmp(schema, "perfsift-matrix-missing/1")) {
		strbuf_addf(err, "%s:%d: schema: not a perfsift-matrix-missing/1 file",
			    path, line_of(text.buf, "schema"));
		goto out;
	}
	if (!json_is_array(src)) {
		strbuf_addf(err, "%s:%d: stats_source: expected an array of strings",
			    path, line_of(text.buf, "stats_source"));
		goto out;
	}
	if (!json_is_object(miss)) {
		strbuf_addf(err, "%s:%d: missing: expected an object",
			    path, line_of(text.buf, "missing"));
		goto out;
	}
	/* every entry well-formed first: nothing marked on an error */
	json_object_foreach(miss, key, runs) {
		json_t *v;

		if (!json_is_array(runs)) {
			strbuf_addf(err, "%s:%d: %s: expected an array of run indices",
				    path, line_of(text.buf, key), key);
			goto out;
		}
		json_array_foreach(runs, k, v)
			if (!json_is_integer(v) || json_integer_value(v) < 0) {
				strbuf_addf(err, "%s:%d: %s: expected an array of run indices",
					    path, line_of(text.buf, key), key);
				goto out;
			}
	}
	ret = 0;
	if (!same_sources(m, src))
		goto out; /* another set of runs: not this matrix's */
	/* a value called missing must be LKP's padding, 0 */
	json_object_foreach(miss, key, runs) {
		ssize_t s = matrix_find(m, key);
		json_t *v;

		if (s < 0)
			goto out;
		json_array_foreach(runs, k, v) {
			json_int_t r = json_integer_value(v);

			if ((size_t)r >= m->nruns || matrix_at(m, (size_t)s, (size_t)r))
				goto out;
		}
	}
	json_object_foreach(miss, key, runs) {
		size_t s = (size_t)matrix_find(m, key);
		json_t *v;

		json_array_foreach(runs, i, v)
			matrix_set_missing(m, s, (size_t)json_integer_value(v));
	}
	ret = 1;
out:
	json_decref(root);
	strbuf_release(&text);
	return ret;
}

/* the sidecar when it is there and fits, else LKP's padding rule */
int matrix_load_group(struct matrix *m, const char *group_dir,
		      struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	int ret = -1;

	path_join(&path, group_dir, "matrix.json");
	if (matrix_load_json(m, path.buf, err))
		goto out;
	path_join(&path, group_dir, MATRIX_MISSING_FILE);
	switch (matrix_load_missing(m, path.buf, err)) {
	case -1:
		matrix_release(m);
		goto out;
	case 0:
		matrix_assume_lkp_padding(m);
		break;
	}
	ret = 0;
out:
	strbuf_release(&path);
	return ret;
}

