/*
 * load.c: series from the index or a CSV file (history/load.h).
 *
 * From the index: the groups selected (store_find_groups, every selector
 * intersected), their KPI names (store_stat_names per testcase) or the
 * one stat asked for, then every complete run's value in one read
 * (store_stat_values) -- a root of 500,000 groups is one query, not half
 * a million -- sorted into series by the group's directory without its
 * commit.
 */
#include "util/compat.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bisect/git.h"
#include "compare/rules.h"
#include "history/history.h"
#include "history/load.h"
#include "util/fileutil.h"
#include "util/sorted.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/trust.h"
#include "util/xalloc.h"

void history_set_init(struct history_set *s)
{
	memset(s, 0, sizeof(*s));
}

void history_set_release(struct history_set *s)
{
	size_t i, j;

	for (i = 0; i < s->n; i++) {
		for (j = 0; j < s->items[i].n; j++) {
			free(s->items[i].commits[j].v);
			free(s->items[i].commits[j].runs);
		}
		free(s->items[i].commits);
	}
	free(s->items);
	for (i = 0; i < s->nstrings; i++)
		free(s->strings[i]);
	free(s->strings);
	free(s->groups);
	free(s->root);
	store_name_list_release(&s->names);
	memset(s, 0, sizeof(*s));
}

/*
 * A string the set owns, freed with it: series, commits and groups point
 * into these rather than copying a directory name per value.
 */
static const char *keep(struct history_set *s, char *str)
{
	ALLOC_GROW(s->strings, s->nstrings + 1, s->alloc_strings);
	s->strings[s->nstrings++] = str;
	return str;
}

/* the commits' values as detect.c's pure functions take them */
struct history_point *history_points(const struct history_series *s)
{
	struct history_point *p = xcalloc(s->n ? s->n : 1, sizeof(*p));
	size_t i;

	for (i = 0; i < s->n; i++) {
		p[i].v = s->commits[i].v;
		p[i].n = s->commits[i].n;
	}
	return p;
}

/* one run's value more; v and runs grow in step, as one array of pairs */
static void commit_add(struct history_commit *c, double v, int run)
{
	if (c->n + 1 > c->alloc) {
		c->alloc = c->alloc ? 2 * c->alloc : 4;
		c->v = xreallocarray(c->v, c->alloc, sizeof(*c->v));
		c->runs = xreallocarray(c->runs, c->alloc, sizeof(*c->runs));
	}
	c->v[c->n] = v;
	c->runs[c->n++] = run;
}

/* ---- from the index ---- */

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* group id -> index in the list, for the values coming back */
struct id_index {
	int64_t id;
	size_t i;
};

static int cmp_id_index(const void *a, const void *b)
{
	return cmp_id(&((const struct id_index *)a)->id,
		      &((const struct id_index *)b)->id);
}

/*
 * What history_load_store builds for on_value, which gets the values of
 * every selected group in one stream: a value's group is found by id,
 * its series by (key, name), its commit by the group's slot in the key.
 */
struct loader {
	struct history_set *set;
	struct id_index *by_id;  /* sorted by id */
	size_t ngroups;
	size_t *key_of;          /* group -> key */
	size_t *slot_of;         /* group -> its position among its key's */
	size_t *key_ngroups;
	size_t nkeys;
	size_t nnames;
	ssize_t *series_of;      /* key * nnames + name -> series, or -1 */
	bool *wanted;            /* key * nnames + name: a KPI of that key */
	/* each key's job: its testcase and declared KPIs (kpi_format()'s
	 * line, NULL: none), read from one of its groups */
	const char **key_tc;
	char **key_kpi;
	struct stat_rules rules; /* set to one key's job by key_rules() */
};

/*
 * One value from the index: into its series (made on its first value, so
 * a stat no group has makes no series) at its group's commit; a commit's
 * time is its earliest run's, the order without a repository.
 */
static void on_value(void *ctx, const struct store_value *v)
{
	struct loader *l = ctx;
	struct id_index want = { v->group_id, 0 }, *hit;
	size_t g, k, cell;
	struct history_series *s;
	struct history_commit *c;

	hit = bsearch(&want, l->by_id, l->ngroups, sizeof(want), cmp_id_index);
	if (!hit)
		return; /* a group not selected */
	g = hit->i;
	k = l->key_of[g];
	cell = k * l->nnames + v->stat;
	if (!l->wanted[cell])
		return;
	if (l->series_of[cell] < 0) {
		struct history_set *set = l->set;

		ALLOC_GROW(set->items, set->n + 1, set->alloc);
		s = &set->items[set->n];
		memset(s, 0, sizeof(*s));
		s->n = l->key_ngroups[k];
		s->commits = xcalloc(s->n, sizeof(*s->commits));
		s->stat = set->names.items[v->stat];
		l->series_of[cell] = (ssize_t)set->n++;
	}
	s = &l->set->items[l->series_of[cell]];
	c = &s->commits[l->slot_of[g]];
	if (!c->n) {
		const struct history_group *hg = &l->set->groups[g];

		c->commit = hg->commit;
		c->dir = hg->dir;
		c->group_id = hg->id;
		c->time = v->time;
		s->testcase = hg->testcase;
	}
	if (v->time < c->time)
		c->time = v->time;
	commit_add(c, v->value, v->run);
}

static void group_add(struct history_set *set, int64_t id, const char *dir,
		      const char *testcase, const char *commit)
{
	struct history_group *g;

	ALLOC_GROW(set->groups, set->ngroups + 1, set->alloc_groups);
	g = &set->groups[set->ngroups++];
	g->id = id;
	g->dir = keep(set, xstrdup(dir ? dir : ""));
	g->testcase = keep(set, xstrdup(testcase ? testcase : ""));
	g->commit = keep(set, xstrdup(commit ? commit : ""));
}

static void on_group_row(void *ctx, int64_t id, const char *rel_dir,
			 const char *testcase, const char *commit)
{
	group_add(ctx, id, rel_dir, testcase, commit);
}

/* dir below the root (store_rel_dir), or as it is when outside it */
static const char *below_root(const struct store *st, const char *dir)
{
	const char *rel = store_rel_dir(st, dir);

	return rel ? rel : dir;
}

/*
 * The groups every selector matches, sorted by directory; without a
 * selector every group, read without counting runs (a root of 500,000
 * groups: 0.2 s instead of 5).
 */
static int select_groups(struct store *st, const struct history_query *q,
			 struct history_set *set, struct strbuf *err)
{
	struct store_group_list out = { 0 };
	size_t i, j, w;
	int ret = -1;

	if (!q->nselectors)
		return store_group_rows(st, on_group_row, set, err);
	if (store_find_groups_text(st, q->selectors[0], &out, err))
		goto done;
	for (i = 1; i < q->nselectors; i++) {
		struct store_group_list more = { 0 };
		int64_t *ids;

		if (store_find_groups_text(st, q->selectors[i], &more, err)) {
			store_group_list_release(&more);
			goto done;
		}
		ids = xmalloc((more.n + 1) * sizeof(*ids));
		for (j = 0; j < more.n; j++)
			ids[j] = more.items[j].id;
		qsort(ids, more.n, sizeof(*ids), cmp_id);
		for (j = 0, w = 0; j < out.n; j++) {
			if (bsearch(&out.items[j].id, ids, more.n, sizeof(*ids),
				    cmp_id))
				out.items[w++] = out.items[j];
			else
				store_group_release(&out.items[j]);
		}
		out.n = w;
		free(ids);
		store_group_list_release(&more);
	}
	for (i = 0; i < out.n; i++)
		group_add(set, out.items[i].id, below_root(st, out.items[i].dir),
			  out.items[i].axes[STORE_TESTCASE],
			  out.items[i].axes[STORE_COMMIT]);
	ret = 0;
done:
	store_group_list_release(&out);
	return ret;
}

/* the group's key: its directory without the commit */
static char *group_key(const struct history_group *g)
{
	const char *slash = strrchr(g->dir, '/');

	if (!slash)
		return xstrdup("");
	return xstrndup(g->dir, (size_t)(slash - g->dir));
}

struct pos {
	const char *sha;
	size_t pos;
};

static int cmp_pos(const void *a, const void *b)
{
	return strcmp(((const struct pos *)a)->sha, ((const struct pos *)b)->sha);
}

static int cmp_pos_sha(const void *key, const void *elem)
{
	return strcmp(key, ((const struct pos *)elem)->sha);
}

/* the position of commit id (a full sha or a unique prefix) in the path */
static ssize_t path_pos(const struct pos *p, size_t n, const char *id)
{
	size_t lo, len = strlen(id);

	if (!len)
		return -1;
	/* the first sha >= id is the only one that can start with it; the
	 * next one must not, or the prefix is ambiguous */
	lo = sorted_lower_bound(id, p, n, sizeof(*p), cmp_pos_sha);
	if (lo < n && !strncmp(p[lo].sha, id, len) &&
	    (lo + 1 >= n || strncmp(p[lo + 1].sha, id, len)))
		return (ssize_t)p[lo].pos;
	return -1;
}

static int cmp_commit_time(const void *a, const void *b)
{
	const struct history_commit *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->group_id < y->group_id ? -1 : x->group_id > y->group_id;
}

/* order each series: by the repository's first-parent line, or by time */
static int order_series(struct history_set *set, const char *repo,
			struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT;
	struct pos *p = NULL;
	size_t np = 0, alloc = 0, i, j, w;
	char *line, *save = NULL;

	if (repo) {
		static const char *const args[] = {
			"rev-list", "--first-parent", "HEAD", NULL
		};

		if (bisect_git(repo, &out, err, args))
			return -1;
		/* rev-list gives newest first: the oldest is position 0 */
		for (line = strtok_r(out.buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			ALLOC_GROW(p, np + 1, alloc);
			p[np].sha = line;
			p[np].pos = np;
			np++;
		}
		for (i = 0; i < np; i++)
			p[i].pos = np - 1 - p[i].pos;
		if (np)
			qsort(p, np, sizeof(*p), cmp_pos);
	}
	for (i = 0; i < set->n; i++) {
		struct history_series *s = &set->items[i];

		for (j = 0, w = 0; j < s->n; j++) {
			struct history_commit *c = &s->commits[j];

			if (!c->n)
				continue;
			if (repo) {
				ssize_t at = path_pos(p, np, c->commit);

				if (at < 0) {
					set->off_path++;
					free(c->v);
					free(c->runs);
					continue;
				}
				c->time = at;
			}
			s->commits[w++] = *c;
		}
		s->n = w;
		qsort(s->commits, s->n, sizeof(*s->commits), cmp_commit_time);
	}
	free(p);
	strbuf_release(&out);
	return 0;
}

static int cmp_series(const void *a, const void *b)
{
	const struct history_series *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : strcmp(x->stat, y->stat);
}

/*
 * The loader's index of the selected groups: by id (for on_value's
 * lookup), and each group's key and slot among its key's groups.  The
 * groups come sorted by directory, so a key's groups stand together and
 * one pass finds the keys.  *keys gets the keys' texts.
 */
static void index_groups(struct loader *l, char ***keys)
{
	const struct history_set *set = l->set;
	size_t i, alloc_keys = 0;

	l->ngroups = set->ngroups;
	l->by_id = xmalloc((l->ngroups + 1) * sizeof(*l->by_id));
	l->key_of = xmalloc((l->ngroups + 1) * sizeof(size_t));
	l->slot_of = xmalloc((l->ngroups + 1) * sizeof(size_t));
	for (i = 0; i < l->ngroups; i++) {
		char *key = group_key(&set->groups[i]);

		l->by_id[i].id = set->groups[i].id;
		l->by_id[i].i = i;
		if (l->nkeys && !strcmp((*keys)[l->nkeys - 1], key)) {
			free(key);
		} else {
			ALLOC_GROW(*keys, l->nkeys + 1, alloc_keys);
			l->key_ngroups = xreallocarray(l->key_ngroups,
						       alloc_keys, sizeof(size_t));
			(*keys)[l->nkeys] = key;
			l->key_ngroups[l->nkeys++] = 0;
		}
		l->key_of[i] = l->nkeys - 1;
		l->slot_of[i] = l->key_ngroups[l->nkeys - 1]++;
	}
	qsort(l->by_id, l->ngroups, sizeof(*l->by_id), cmp_id_index);
}

/*
 * Each key's job as the index keeps it: the testcase and the `kpi:` line
 * of one of its groups (every commit of a series runs the same job, so
 * one group a key is read, not 500 -- a root of 1,000 series x 500
 * commits stays 1,000 small queries).
 */
static int read_key_jobs(struct store *st, struct loader *l,
			 struct strbuf *err)
{
	const struct history_set *set = l->set;
	size_t i, j;

	l->key_tc = xcalloc(l->nkeys + 1, sizeof(*l->key_tc));
	l->key_kpi = xcalloc(l->nkeys + 1, sizeof(*l->key_kpi));
	for (i = 0; i < l->ngroups; i++) {
		struct store_param_list params = { 0 };
		size_t k = l->key_of[i];

		if (l->key_tc[k])
			continue;
		l->key_tc[k] = set->groups[i].testcase;
		if (store_group_params(st, set->groups[i].id, &params, err)) {
			store_param_list_release(&params);
			return -1;
		}
		for (j = 0; j < params.n; j++)
			if (!strcmp(params.items[j].key, "kpi") &&
			    params.items[j].kind == STORE_PARAM_FACT &&
			    params.items[j].value && *params.items[j].value)
				l->key_kpi[k] = xstrdup(params.items[j].value);
		store_param_list_release(&params);
	}
	return 0;
}

/*
 * l->rules set to key k's job: its testcase's stats and mytest's are the
 * implicit KPIs, a declaration replaces them and gives the directions
 * (compare's rules, stat_is_kpi and stat_direction: the same KPIs and
 * directions as compare and the robot judge by).
 */
static void key_rules(struct loader *l, size_t k)
{
	stat_rules_reset_job(&l->rules);
	stat_rules_add_benchmark(&l->rules, l->key_tc[k]);
	/* the index's line is kpi_format()'s, which kpi_declare() reads back;
	 * one that did not parse declares nothing, as in compare */
	if (l->key_kpi[k])
		(void)kpi_declare(&l->rules, l->key_kpi[k]);
}

/* add prefix[0..len) to the list unless it is there already */
static void add_prefix(struct store_name_list *pre, const char *prefix,
		       size_t len)
{
	size_t i;

	for (i = 0; i < pre->n; i++)
		if (strlen(pre->items[i]) == len &&
		    !strncmp(pre->items[i], prefix, len))
			return;
	ALLOC_GROW(pre->items, pre->n + 1, pre->alloc);
	pre->items[pre->n++] = xstrndup(prefix, len);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The stats to load: the one asked for, or every name a key's KPIs can
 * match -- the literal start of each declared pattern (up to its first
 * glob character), else `<testcase>.` and `mytest.` -- each prefix read
 * once, the names sorted and each kept once (prefixes can overlap).
 */
static int pick_names(struct store *st, const struct history_query *q,
		      struct loader *l, struct strbuf *err)
{
	struct history_set *out = l->set;
	struct store_name_list pre = { 0 };
	size_t i, k, w;
	int ret = 0;

	if (q->stat) {
		ALLOC_GROW(out->names.items, 1, out->names.alloc);
		out->names.items[out->names.n++] = xstrdup(q->stat);
		return 0;
	}
	for (k = 0; k < l->nkeys; k++) {
		const char *tc = l->key_tc[k];

		key_rules(l, k);
		if (l->rules.nkpis) {
			for (i = 0; i < l->rules.nkpis; i++) {
				const char *p = l->rules.kpis[i].pattern;

				add_prefix(&pre, p, strcspn(p, "*?[\\"));
			}
			continue;
		}
		if (tc && *tc) {
			struct strbuf prefix = STRBUF_INIT;

			strbuf_addf(&prefix, "%s.", tc);
			add_prefix(&pre, prefix.buf, prefix.len);
			strbuf_release(&prefix);
		}
		add_prefix(&pre, "mytest.", strlen("mytest."));
	}
	for (i = 0; i < pre.n && !ret; i++)
		ret = store_stat_names(st, pre.items[i], &out->names, err);
	store_name_list_release(&pre);
	if (out->names.n)
		qsort(out->names.items, out->names.n, sizeof(char *), cmp_name);
	for (i = 0, w = 0; i < out->names.n; i++) {
		if (w && !strcmp(out->names.items[w - 1], out->names.items[i]))
			free(out->names.items[i]);
		else
			out->names.items[w++] = out->names.items[i];
	}
	out->names.n = w;
	return ret ? -1 : 0;
}

/*
 * Which (key, name) cells make a series: every name asked for, or a
 * key's KPIs (key_rules()) -- not another testcase's stat that happens
 * to be indexed too.
 */
static void mark_wanted(struct loader *l, const struct history_query *q)
{
	const struct history_set *out = l->set;
	size_t k, n;

	l->nnames = out->names.n;
	l->series_of = xmalloc((l->nkeys * l->nnames + 1) * sizeof(ssize_t));
	l->wanted = xcalloc(l->nkeys * l->nnames + 1, sizeof(bool));
	for (k = 0; k < l->nkeys * l->nnames; k++)
		l->series_of[k] = -1;
	for (k = 0; k < l->nkeys; k++) {
		if (!q->stat)
			key_rules(l, k);
		for (n = 0; n < l->nnames; n++)
			l->wanted[k * l->nnames + n] = q->stat ||
				stat_is_kpi(&l->rules, out->names.items[n]);
	}
}

/* the values of the selected groups, through on_value, in one query */
static int read_values(struct store *st, const struct history_query *q,
		       struct loader *l, struct strbuf *err)
{
	const struct history_set *out = l->set;
	/* every group of the root: no id list to send */
	int64_t *ids = NULL;
	bool all = !q->nselectors;
	size_t i;
	int ret;

	if (!all) {
		ids = xmalloc((l->ngroups + 1) * sizeof(*ids));
		for (i = 0; i < l->ngroups; i++)
			ids[i] = out->groups[i].id;
	}
	ret = store_stat_values(st, all ? NULL : ids, l->ngroups,
				(const char *const *)out->names.items,
				l->nnames, on_value, l, err);
	free(ids);
	return ret;
}

/* each series' key and direction (higher or lower is better, a KPI) */
static void name_series(struct loader *l, char **keys)
{
	struct history_set *out = l->set;
	size_t k, n;

	for (k = 0; k < l->nkeys; k++) {
		key_rules(l, k);
		for (n = 0; n < l->nnames; n++) {
			ssize_t si = l->series_of[k * l->nnames + n];
			struct history_series *s;

			if (si < 0)
				continue;
			s = &out->items[si];
			s->key = keep(out, xstrdup(keys[k]));
			s->direction = history_direction(&l->rules, s->testcase,
							 s->stat, &s->is_kpi);
		}
	}
}

/*
 * The steps in order: the groups, their keys, the names to load, which
 * (key, name) cells are wanted, the values in one query, then each
 * series named, ordered and the series sorted.
 */
int history_load_store(struct store *st, const struct history_query *q,
		       struct history_set *out, struct strbuf *err)
{
	struct loader l;
	char **keys = NULL;
	size_t k;
	int ret = -1;

	memset(&l, 0, sizeof(l));
	l.set = out;
	out->root = xstrdup(st->root);
	if (select_groups(st, q, out, err))
		return -1;
	stat_rules_init(&l.rules);
	index_groups(&l, &keys);
	if (read_key_jobs(st, &l, err) || pick_names(st, q, &l, err))
		goto out;
	mark_wanted(&l, q);
	if (read_values(st, q, &l, err))
		goto out;
	name_series(&l, keys);
	if (order_series(out, q->repo, err))
		goto out;
	if (out->n)
		qsort(out->items, out->n, sizeof(*out->items), cmp_series);
	ret = 0;
out:
	for (k = 0; k < l.nkeys; k++) {
		free(keys[k]);
		if (l.key_kpi)
			free(l.key_kpi[k]);
	}
	free(keys);
	free(l.key_kpi);
	free(l.key_tc);
	stat_rules_release(&l.rules);
	free(l.by_id);
	free(l.key_of);
	free(l.slot_of);
	free(l.key_ngroups);
	free(l.series_of);
	free(l.wanted);
	return ret;
}

/* ---- from a CSV file ---- */

/* split one CSV line into fields (RFC 4180 quotes); -1 on a bad quote */
static int csv_fields(char *line, char ***fields, size_t *n, size_t *alloc)
{
	char *p = line, *w;

	*n = 0;
	for (;;) {
		ALLOC_GROW(*fields, *n + 1, *alloc);
		(*fields)[(*n)++] = w = p;
		if (*p == '"') {
			for (p++;; p++) {
				if (!*p)
					return -1;
				if (*p == '"') {
					if (p[1] != '"')
						break;
					p++;
				}
				*w++ = *p;
			}
			p++;
			if (*p && *p != ',')
				return -1;
		} else {
			while (*p && *p != ',')
				*w++ = *p++;
		}
		if (!*p) {
			*w = '\0';
			return 0;
		}
		*w = '\0';
		p++;
	}
}

/* reading one CSV file: the header's columns and the row before */
struct csv_reader {
	const char *path;
	const char *stat;   /* the one column asked for, or NULL: every one */
	struct history_set *out;
	struct stat_rules *rules; /* the caller's, made once */
	char **header;      /* the column names (kept in out) */
	size_t ncols;
	size_t *col_series; /* column -> series, SIZE_MAX: not loaded */
	struct strbuf prev; /* the first field of the row before */
	bool have_prev;
	size_t lineno;
};

/*
 * The header line: a series for each metric column (or the one asked
 * for), named after the file, so that two files' series never merge.
 */
static int csv_header(struct csv_reader *r, char **f, size_t nf,
		      struct strbuf *err)
{
	struct history_set *out = r->out;
	bool is_kpi;
	size_t i, j;

	if (nf < 2) {
		strbuf_addf(err, "%s:%zu: expected a header with a commit or "
			    "time column and metric columns", r->path, r->lineno);
		return -1;
	}
	r->ncols = nf;
	r->header = xcalloc(r->ncols, sizeof(*r->header));
	r->col_series = xcalloc(r->ncols, sizeof(*r->col_series));
	for (i = 1; i < r->ncols; i++) {
		struct history_series *s;

		for (j = 1; j < i; j++)
			if (!strcmp(r->header[j], f[i])) {
				strbuf_addf(err, "%s:%zu: %s: the name of columns "
					    "%zu and %zu; a column's name must be "
					    "unique", r->path, r->lineno, f[i],
					    j + 1, i + 1);
				return -1;
			}
		r->header[i] = (char *)keep(out, xstrdup(f[i]));
		if (r->stat && strcmp(f[i], r->stat)) {
			r->col_series[i] = SIZE_MAX;
			continue;
		}
		ALLOC_GROW(out->items, out->n + 1, out->alloc);
		s = &out->items[out->n];
		memset(s, 0, sizeof(*s));
		s->key = keep(out, xstrdup(r->path));
		s->stat = r->header[i];
		s->direction = history_direction(r->rules, NULL, s->stat,
						 &is_kpi);
		r->col_series[i] = out->n++;
	}
	if (r->stat && !out->n) {
		strbuf_addf(err, "%s:%zu: %s: no such column (the columns are:",
			    r->path, r->lineno, r->stat);
		for (i = 1; i < r->ncols; i++)
			strbuf_addf(err, " %s", r->header[i]);
		strbuf_addch(err, ')');
		return -1;
	}
	return 0;
}

/*
 * One data row: a value for each loaded column.  A row whose first field
 * repeats the row before's is another run of the same commit, so that a
 * file can hold several runs of each commit; an empty field is no value.
 */
static int csv_row(struct csv_reader *r, char **f, size_t nf,
		   struct strbuf *err)
{
	struct history_set *out = r->out;
	bool first;
	size_t i;

	if (nf != r->ncols) {
		strbuf_addf(err, "%s:%zu: %zu fields, the header has %zu",
			    r->path, r->lineno, nf, r->ncols);
		return -1;
	}
	/* a new commit unless the first column repeats */
	first = !r->have_prev || strcmp(r->prev.buf, f[0]);
	if (first) {
		strbuf_reset(&r->prev);
		strbuf_addstr(&r->prev, f[0]);
		r->have_prev = true;
	}
	for (i = 1; i < r->ncols; i++) {
		struct history_series *s;
		struct history_commit *c;
		const char *why;
		double v;

		if (r->col_series[i] == SIZE_MAX)
			continue;
		s = &out->items[r->col_series[i]];
		if (first || !s->n) {
			s->commits = xreallocarray(s->commits, s->n + 1,
						   sizeof(*s->commits));
			c = &s->commits[s->n++];
			memset(c, 0, sizeof(*c));
			c->commit = keep(out, xstrdup(f[0]));
			c->group_id = -1;
			/* the line orders the commits: the file's order */
			c->time = (int64_t)r->lineno;
		}
		c = &s->commits[s->n - 1];
		if (!*f[i])
			continue; /* no value in this row */
		if (strnum_double(f[i], &v, &why)) {
			strbuf_addf(err, "%s:%zu: %s: '%s' is %s", r->path,
				    r->lineno, r->header[i], f[i], why);
			return -1;
		}
		commit_add(c, v, (int)c->n);
	}
	return 0;
}

int history_read_csv(FILE *fp, const char *path, const char *stat,
		     struct stat_rules *rules, struct history_set *out,
		     struct strbuf *err)
{
	struct csv_reader r = { .path = path, .stat = stat, .out = out,
				.rules = rules, .prev = STRBUF_INIT };
	struct strbuf line = STRBUF_INIT;
	char **f = NULL;
	size_t nf = 0, alloc = 0, bytes = 0;
	int ret = -1, got, ctl;

	while ((got = strbuf_getline_max(&line, fp, HISTORY_CSV_MAX_LINE)) !=
	       EOF) {
		r.lineno++;
		/* bounded: a CSV is whoever's file, /dev/zero included */
		if (got > 0) {
			strbuf_addf(err, "%s:%zu: a line longer than %d bytes; "
				    "not a CSV file?", path, r.lineno,
				    HISTORY_CSV_MAX_LINE);
			goto out;
		}
		bytes += line.len + 1;
		if (bytes > HISTORY_CSV_MAX_BYTES ||
		    r.lineno > HISTORY_CSV_MAX_ROWS) {
			strbuf_addf(err, "%s:%zu: more than %d MiB or %d lines; "
				    "history reads at most that much", path,
				    r.lineno, HISTORY_CSV_MAX_BYTES >> 20,
				    HISTORY_CSV_MAX_ROWS);
			goto out;
		}
		strbuf_chomp(&line);
		if (!line.len)
			continue;
		if ((ctl = trust_first_ctl(line.buf, line.len, true)) >= 0) {
			/* a name with ESC would reach the terminal; NUL would cut a field */
			strbuf_addf(err, "%s:%zu: a control character (byte 0x%02x); "
				    "not a CSV file?", path, r.lineno, (unsigned)ctl);
			goto out;
		}
		if (csv_fields(line.buf, &f, &nf, &alloc)) {
			strbuf_addf(err, "%s:%zu: unbalanced quote", path,
				    r.lineno);
			goto out;
		}
		if (r.header ? csv_row(&r, f, nf, err) :
			       csv_header(&r, f, nf, err))
			goto out;
	}
	if (ferror(fp)) {
		strbuf_addf(err, "cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	if (!r.header) {
		strbuf_addf(err, "%s:1: empty file, expected a header line", path);
		goto out;
	}
	ret = 0;
out:
	free(f);
	free(r.header);
	free(r.col_series);
	strbuf_release(&line);
	strbuf_release(&r.prev);
	return ret;
}

int history_load_csv(const char *path, const char *stat,
		     struct history_set *out, struct strbuf *err)
{
	struct stat_rules rules;
	struct strbuf why = STRBUF_INIT;
	FILE *fp = stdin;
	int ret;

	/* "-" is the caller's own stream (a pipe), read as it comes */
	if (strcmp(path, "-")) {
		/*
		 * A path is a regular file: a FIFO blocked for ever, and a
		 * device (/dev/zero) is no CSV another tool wrote
		 */
		fp = fopen_regular(path, &why);
		if (!fp) {
			if (errno == EISDIR) {
				strbuf_reset(&why);
				strbuf_addf(&why, "'%s' is a directory, not a "
					    "CSV file", path);
			}
			strbuf_addbuf(err, &why);
			strbuf_release(&why);
			return -1;
		}
	}
	stat_rules_init(&rules);
	ret = history_read_csv(fp, fp == stdin ? "stdin" : path, stat, &rules,
			       out, err);
	stat_rules_release(&rules);
	if (fp != stdin)
		fclose(fp);
	strbuf_release(&why);
	return ret;
}
