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
#include "history/history.h"
#include "history/load.h"
#include "result/stats.h"
#include "util/sorted.h"
#include "util/strbuf.h"
#include "util/strnum.h"
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

/* a string the set owns */
static const char *keep(struct history_set *s, char *str)
{
	ALLOC_GROW(s->strings, s->nstrings + 1, s->alloc_strings);
	s->strings[s->nstrings++] = str;
	return str;
}

/*
 * The detector's view of a series: pointers into the commits' own run
 * arrays, no copy (a series of 10,000 commits is read many times by the
 * window search).  At least one element, so the caller can always free.
 */
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

/* one run's value; v and runs grow together (runs[i] is v[i]'s run) */
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
 * The state of one pass over the index's values.  The values come in
 * whatever order the store gives them, so every lookup a value needs is
 * prepared before the pass as a flat table: group id -> group (by_id,
 * searched), group -> key and slot, and (key, stat name) -> series.  A
 * series is made when its first value arrives, so a stat no group of a
 * key has costs nothing.
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
};

/*
 * One value from the index: into its commit's runs, in the series of its
 * (key, stat).  A commit's time is its earliest run's, so a commit re-run
 * later keeps its place in a time-ordered series.
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

/* the set keeps its own copies: the store's rows are freed after the call */
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

/*
 * dir below the root: a group's key (and what the pages show) must be the
 * same whether the store gave the directory with the root in front or
 * without it.
 */
static const char *below_root(const struct store *st, const char *dir)
{
	size_t rl = strlen(st->root);

	if (!strncmp(dir, st->root, rl) && dir[rl] == '/')
		return dir + rl + 1;
	return dir;
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
		/* AND: keep the groups of out that are also in more, in
		 * out's order (sorted by directory) */
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

/*
 * The group's key: its directory without the commit.  LKP's result path
 * ends in the commit, so the groups of one key are the same job on the
 * same machine at different commits: one series.
 */
static char *group_key(const struct history_group *g)
{
	const char *slash = strrchr(g->dir, '/');

	if (!slash)
		return xstrdup("");
	return xstrndup(g->dir, (size_t)(slash - g->dir));
}

/* a commit of the first-parent line and its place on it (0 = oldest) */
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

/* by time (or path position), then group id, for one order everywhere */
static int cmp_commit_time(const void *a, const void *b)
{
	const struct history_commit *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->group_id < y->group_id ? -1 : x->group_id > y->group_id;
}

/*
 * Order each series: by the repository's first-parent line, or by time.
 * With a repository a commit's position replaces its time (the sort is
 * the same), and a commit not on the line (a branch tested on the side)
 * is left out and counted, since it has no place between its neighbours.
 */
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

/* by key, then stat: the series of one group come together (site.c) */
static int cmp_series(const void *a, const void *b)
{
	const struct history_series *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : strcmp(x->stat, y->stat);
}

/*
 * The loader's group tables, and the keys (returned, l->nkeys of them):
 * the groups come sorted by directory, so a key's groups are together and
 * a new key starts where the key changes.  A group's slot is its place
 * among its key's groups, which is its commit's place in the series.
 */
static char **index_groups(struct loader *l, struct history_set *out)
{
	char **keys = NULL;
	size_t i, alloc_keys = 0;

	l->ngroups = out->ngroups;
	l->by_id = xmalloc((l->ngroups + 1) * sizeof(*l->by_id));
	l->key_of = xmalloc((l->ngroups + 1) * sizeof(size_t));
	l->slot_of = xmalloc((l->ngroups + 1) * sizeof(size_t));
	for (i = 0; i < l->ngroups; i++) {
		char *key = group_key(&out->groups[i]);

		l->by_id[i].id = out->groups[i].id;
		l->by_id[i].i = i;
		if (l->nkeys && !strcmp(keys[l->nkeys - 1], key)) {
			free(key);
		} else {
			ALLOC_GROW(keys, l->nkeys + 1, alloc_keys);
			l->key_ngroups = xreallocarray(l->key_ngroups,
						       alloc_keys, sizeof(size_t));
			keys[l->nkeys] = key;
			l->key_ngroups[l->nkeys++] = 0;
		}
		l->key_of[i] = l->nkeys - 1;
		l->slot_of[i] = l->key_ngroups[l->nkeys - 1]++;
	}
	qsort(l->by_id, l->ngroups, sizeof(*l->by_id), cmp_id_index);
	return keys;
}

/*
 * The stats into out->names: the one asked for, or each testcase's KPIs,
 * which are the stats named "<testcase>.*"; the names are asked for once
 * per testcase (kpi_done), not once per group, since a root has few
 * testcases and many groups (at most one testcase per key).
 */
static int load_names(struct store *st, const struct history_query *q,
		      struct history_set *out, size_t nkeys, struct strbuf *err)
{
	const char **kpi_done;
	size_t i, nkpi = 0;
	int ret = 0;

	if (q->stat) {
		ALLOC_GROW(out->names.items, 1, out->names.alloc);
		out->names.items[out->names.n++] = xstrdup(q->stat);
		return 0;
	}
	kpi_done = xcalloc(nkeys + 1, sizeof(*kpi_done));
	for (i = 0; i < out->ngroups && !ret; i++) {
		const char *tc = out->groups[i].testcase;
		struct strbuf prefix = STRBUF_INIT;
		size_t j;

		for (j = 0; j < nkpi && strcmp(kpi_done[j], tc); j++)
			;
		if (j < nkpi || !tc || !*tc)
			continue;
		kpi_done[nkpi++] = tc;
		strbuf_addf(&prefix, "%s.", tc);
		ret = store_stat_names(st, prefix.buf, &out->names, err);
		strbuf_release(&prefix);
	}
	free(kpi_done);
	return ret;
}

int history_load_store(struct store *st, const struct history_query *q,
		       struct history_set *out, struct strbuf *err)
{
	struct loader l;
	struct stat_rules rules;
	char **keys = NULL;
	size_t i, k;
	int ret = -1;

	memset(&l, 0, sizeof(l));
	l.set = out;
	out->root = xstrdup(st->root);
	if (select_groups(st, q, out, err))
		return -1;
	keys = index_groups(&l, out);
	if (load_names(st, q, out, l.nkeys, err))
		goto out;
	l.nnames = out->names.n;
	l.series_of = xmalloc((l.nkeys * l.nnames + 1) * sizeof(ssize_t));
	l.wanted = xcalloc(l.nkeys * l.nnames + 1, sizeof(bool));
	/* no series yet; wanted: which (key, name) cells the pass keeps,
	 * since a KPI name of one testcase is not a KPI of another's key */
	for (i = 0; i < l.nkeys * l.nnames; i++)
		l.series_of[i] = -1;
	for (i = 0; i < l.ngroups; i++) {
		const char *tc = out->groups[i].testcase;
		size_t n, tl = tc ? strlen(tc) : 0;

		for (n = 0; n < l.nnames; n++) {
			const char *name = out->names.items[n];

			l.wanted[l.key_of[i] * l.nnames + n] = q->stat ||
				(tl && !strncmp(name, tc, tl) && name[tl] == '.');
		}
	}
	{
		/* every group of the root: no id list to send */
		int64_t *ids = NULL;
		bool all = !q->nselectors;

		if (!all) {
			ids = xmalloc((l.ngroups + 1) * sizeof(*ids));
			for (i = 0; i < l.ngroups; i++)
				ids[i] = out->groups[i].id;
		}
		if (store_stat_values(st, all ? NULL : ids, l.ngroups,
				      (const char *const *)out->names.items,
				      l.nnames, on_value, &l, err)) {
			free(ids);
			goto out;
		}
		free(ids);
	}
	/*
	 * The keys and directions, then the order.  The direction (higher
	 * or lower is better) comes from LKP's rules, so a change point can
	 * be called a regression or an improvement.
	 */
	stat_rules_init(&rules);
	for (k = 0; k < l.nkeys; k++) {
		size_t n;

		for (n = 0; n < l.nnames; n++) {
			ssize_t si = l.series_of[k * l.nnames + n];
			struct history_series *s;

			if (si < 0)
				continue;
			s = &out->items[si];
			s->key = keep(out, xstrdup(keys[k]));
			s->direction = history_direction(&rules, s->testcase,
							 s->stat, &s->is_kpi);
		}
	}
	stat_rules_release(&rules);
	if (order_series(out, q->repo, err))
		goto out;
	if (out->n)
		qsort(out->items, out->n, sizeof(*out->items), cmp_series);
	ret = 0;
out:
	for (k = 0; k < l.nkeys; k++)
		free(keys[k]);
	free(keys);
	free(l.by_id);
	free(l.key_of);
	free(l.slot_of);
	free(l.key_ngroups);
	free(l.series_of);
	free(l.wanted);
	return ret;
}

/* ---- from a CSV file ---- */

/*
 * Split one CSV line into fields (RFC 4180 quotes); -1 on a bad quote.
 * In place: a field is unquoted by copying it onto itself (w never passes
 * p), so the fields point into line and nothing is allocated per field.
 * A quoted field may not span lines: Otava's files have none, and a
 * stray quote is then an error on its own line, not a silent merge.
 */
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

/*
 * A series per column (or the one named stat) from an Otava-style CSV
 * text.  A commit is a run of rows with the same first column, so several
 * runs of a commit are several rows; its time is its first row's number,
 * which keeps the file's order.  An empty cell is a run without that
 * metric, not a zero.
 */
int history_read_csv(FILE *fp, const char *path, const char *stat,
		     struct stat_rules *rules, struct history_set *out,
		     struct strbuf *err)
{
	struct strbuf line = STRBUF_INIT, prev = STRBUF_INIT;
	char **f = NULL, **header = NULL;
	size_t nf = 0, alloc = 0, ncols = 0, i, first, lineno = 0;
	size_t *col_series = NULL;
	bool is_kpi, have_prev = false;
	int ret = -1;

	while (strbuf_getline(&line, fp) != EOF) {
		lineno++;
		strbuf_chomp(&line);
		if (!line.len)
			continue;
		if (csv_fields(line.buf, &f, &nf, &alloc)) {
			strbuf_addf(err, "%s:%zu: unbalanced quote", path, lineno);
			goto out;
		}
		if (!header) {
			if (nf < 2) {
				strbuf_addf(err, "%s:%zu: expected a header with a "
					    "commit or time column and metric "
					    "columns", path, lineno);
				goto out;
			}
			ncols = nf;
			header = xcalloc(ncols, sizeof(*header));
			col_series = xcalloc(ncols, sizeof(*col_series));
			for (i = 1; i < ncols; i++) {
				struct history_series *s;

				header[i] = (char *)keep(out, xstrdup(f[i]));
				if (stat && strcmp(f[i], stat)) {
					col_series[i] = SIZE_MAX;
					continue;
				}
				ALLOC_GROW(out->items, out->n + 1, out->alloc);
				s = &out->items[out->n];
				memset(s, 0, sizeof(*s));
				s->key = keep(out, xstrdup(path));
				s->stat = header[i];
				s->direction = history_direction(rules, NULL,
								 s->stat,
								 &is_kpi);
				col_series[i] = out->n++;
			}
			if (stat && !out->n) {
				strbuf_addf(err, "%s:%zu: %s: no such column (the "
					    "columns are:", path, lineno, stat);
				for (i = 1; i < ncols; i++)
					strbuf_addf(err, " %s", header[i]);
				strbuf_addch(err, ')');
				goto out;
			}
			continue;
		}
		if (nf != ncols) {
			strbuf_addf(err, "%s:%zu: %zu fields, the header has %zu",
				    path, lineno, nf, ncols);
			goto out;
		}
		/* a new commit unless the first column repeats */
		first = !have_prev || strcmp(prev.buf, f[0]);
		if (first) {
			strbuf_reset(&prev);
			strbuf_addstr(&prev, f[0]);
			have_prev = true;
		}
		for (i = 1; i < ncols; i++) {
			struct history_series *s;
			struct history_commit *c;
			const char *why;
			double v;

			if (col_series[i] == SIZE_MAX)
				continue;
			s = &out->items[col_series[i]];
			if (first || !s->n) {
				s->commits = xreallocarray(s->commits, s->n + 1,
							   sizeof(*s->commits));
				c = &s->commits[s->n++];
				memset(c, 0, sizeof(*c));
				c->commit = keep(out, xstrdup(f[0]));
				c->group_id = -1;
				c->time = (int64_t)lineno;
			}
			c = &s->commits[s->n - 1];
			if (!*f[i])
				continue; /* no value in this row */
			if (strnum_double(f[i], &v, &why)) {
				strbuf_addf(err, "%s:%zu: %s: '%s' is %s", path,
					    lineno, header[i], f[i], why);
				goto out;
			}
			commit_add(c, v, (int)c->n);
		}
	}
	if (!header) {
		strbuf_addf(err, "%s:1: empty file, expected a header line", path);
		goto out;
	}
	ret = 0;
out:
	free(f);
	free(header);
	free(col_series);
	strbuf_release(&line);
	strbuf_release(&prev);
	return ret;
}

int history_load_csv(const char *path, const char *stat,
		     struct history_set *out, struct strbuf *err)
{
	struct stat_rules rules;
	FILE *fp = fopen(path, "r");
	int ret;

	if (!fp) {
		strbuf_addf(err, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	stat_rules_init(&rules);
	ret = history_read_csv(fp, path, stat, &rules, out, err);
	stat_rules_release(&rules);
	fclose(fp);
	return ret;
}
