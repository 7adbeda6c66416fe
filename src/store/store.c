/*
 * store.c: what every store backend shares (see store.h): picking the
 * backend from the URL, parsing group selectors, the list types, and the
 * thin wrappers callers use instead of the function pointers.
 */
#include "util/compat.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "reduce.h"
#include "store/store.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char *const axis_names[STORE_NAXES] = {
	"testcase", "path_params", "tbox_group", "rootfs",
	"kconfig", "compiler", "commit",
};

const char *store_axis_name(enum store_axis axis)
{
	return axis < STORE_NAXES ? axis_names[axis] : NULL;
}

void store_param_list_release(struct store_param_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->items[i].key);
		free(l->items[i].value);
	}
	free(l->items);
	memset(l, 0, sizeof(*l));
}

void store_group_release(struct store_group *g)
{
	size_t a;

	free(g->dir);
	for (a = 0; a < STORE_NAXES; a++)
		free(g->axes[a]);
	memset(g, 0, sizeof(*g));
}

void store_group_copy(struct store_group *dst, const struct store_group *src)
{
	size_t a;

	*dst = *src;
	dst->dir = xstrdup(src->dir);
	for (a = 0; a < STORE_NAXES; a++)
		dst->axes[a] = xstrdup(src->axes[a] ? src->axes[a] : "");
}

void store_group_list_release(struct store_group_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		store_group_release(&l->items[i]);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

void store_run_list_release(struct store_run_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->items[i].dir);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

void store_selector_release(struct store_selector *sel)
{
	size_t i;

	free(sel->dir);
	free(sel->commit);
	for (i = 0; i < sel->nkv; i++) {
		free(sel->kv[i].key);
		free(sel->kv[i].value);
	}
	free(sel->kv);
	memset(sel, 0, sizeof(*sel));
}

/* dir below root, relative to it ("" = root itself); NULL when outside */
static char *relative_to_root(const char *root, const char *dir)
{
	char *rroot = realpath(root, NULL), *rdir = realpath(dir, NULL);
	char *rel = NULL;
	size_t n;

	if (!rroot || !rdir)
		goto out;
	n = strlen(rroot);
	if (!strcmp(rroot, "/"))
		rel = xstrdup(rdir + 1);
	else if (!strcmp(rroot, rdir))
		rel = xstrdup("");
	else if (!strncmp(rroot, rdir, n) && rdir[n] == '/')
		rel = xstrdup(rdir + n + 1);
out:
	free(rroot);
	free(rdir);
	return rel;
}

int store_selector_parse(struct store_selector *sel, const char *root,
			 const char *text, struct strbuf *err)
{
	size_t alloc = 0;
	const char *p;

	memset(sel, 0, sizeof(*sel));
	if (!text || !*text) {
		sel->kind = STORE_SEL_ALL;
		return 0;
	}
	if (dir_exists(text)) {
		sel->kind = STORE_SEL_DIR;
		sel->dir = relative_to_root(root, text);
		return 0;
	}
	if (!strchr(text, '=')) {
		sel->kind = STORE_SEL_COMMIT;
		sel->commit = xstrdup(text);
		return 0;
	}
	sel->kind = STORE_SEL_PARAMS;
	for (p = text; ; ) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		const char *eq = memchr(p, '=', len);

		if (!eq || eq == p) {
			strbuf_addf(err, "'%.*s': expected key=value in '%s'",
				    (int)len, p, text);
			store_selector_release(sel);
			return -1;
		}
		ALLOC_GROW(sel->kv, sel->nkv + 1, alloc);
		sel->kv[sel->nkv].key = xstrndup(p, (size_t)(eq - p));
		sel->kv[sel->nkv].value = xstrndup(eq + 1, len - (size_t)(eq - p) - 1);
		sel->nkv++;
		if (!comma)
			break;
		p = comma + 1;
	}
	return 0;
}

int store_open(struct store *st, const char *root, const char *url,
	       unsigned flags, struct strbuf *err)
{
	struct strbuf loc = STRBUF_INIT;
	char *rroot;
	int ret;

	memset(st, 0, sizeof(*st));
	rroot = realpath(root, NULL);
	st->root = rroot ? rroot : xstrdup(root);
	if (!url || !strcmp(url, "sqlite:") || !*url) {
		st->ops = &store_sqlite_ops;
		path_join(&loc, st->root, "perfsift.db");
	} else if (!strncmp(url, "sqlite:", 7)) {
		st->ops = &store_sqlite_ops;
		strbuf_addstr(&loc, url + 7);
	} else if (!strncmp(url, "postgresql://", 13) ||
		   !strncmp(url, "postgres://", 11)) {
#ifdef HAVE_LIBPQ
		st->ops = &store_pg_ops;
		strbuf_addstr(&loc, url);
#else
		strbuf_addf(err, "store '%s': this perfsift was built without "
			    "libpq (install libpq-dev and rebuild)", url);
		goto fail;
#endif
	} else {
		strbuf_addf(err, "store '%s': unknown kind (expected sqlite:PATH "
			    "or postgresql://...)", url);
		goto fail;
	}
	ret = st->ops->open(st, loc.buf, flags, err);
	strbuf_release(&loc);
	if (ret) {
		free(st->root);
		memset(st, 0, sizeof(*st));
	}
	return ret;
fail:
	strbuf_release(&loc);
	free(st->root);
	memset(st, 0, sizeof(*st));
	return -1;
}

void store_close(struct store *st)
{
	if (st->ops)
		st->ops->close(st);
	free(st->root);
	memset(st, 0, sizeof(*st));
}

int store_index_run(struct store *st, const struct store_run_record *rec,
		    struct strbuf *err)
{
	return st->ops->index_run(st, rec, err);
}

int store_find_groups(struct store *st, const struct store_selector *sel,
		      struct store_group_list *out, struct strbuf *err)
{
	return st->ops->find_groups(st, sel, out, err);
}

int store_find_groups_text(struct store *st, const char *text,
			   struct store_group_list *out, struct strbuf *err)
{
	struct store_selector sel;
	int ret;

	if (store_selector_parse(&sel, st->root, text, err))
		return -1;
	ret = store_find_groups(st, &sel, out, err);
	store_selector_release(&sel);
	return ret;
}

int store_resolve(struct store *st, const char *text, struct store_group *g,
		  struct strbuf *err)
{
	struct store_group_list l = {0};
	size_t i;
	int ret = -1;

	memset(g, 0, sizeof(*g));
	if (store_find_groups_text(st, text, &l, err))
		goto out;
	if (!l.n) {
		strbuf_addf(err, "'%s' matches no result group", text);
		goto out;
	}
	if (l.n > 1) {
		strbuf_addf(err, "'%s' is ambiguous: it matches %zu result groups",
			    text, l.n);
		for (i = 0; i < l.n; i++)
			strbuf_addf(err, "\n  %s", l.items[i].dir);
		goto out;
	}
	store_group_copy(g, &l.items[0]);
	ret = 0;
out:
	store_group_list_release(&l);
	return ret;
}

int store_group_params(struct store *st, int64_t group_id,
		       struct store_param_list *out, struct strbuf *err)
{
	return st->ops->group_params(st, group_id, out, err);
}

int store_group_runs(struct store *st, int64_t group_id,
		     struct store_run_list *out, struct strbuf *err)
{
	return st->ops->group_runs(st, group_id, out, err);
}

int store_load_matrix(struct store *st, int64_t group_id, struct matrix *m,
		      struct strbuf *err)
{
	return st->ops->load_matrix(st, group_id, m, err);
}

int store_run_stats(struct store *st, int64_t run_id, struct reduce_stats *out,
		    struct strbuf *err)
{
	return st->ops->run_stats(st, run_id, out, err);
}

int store_forget_group(struct store *st, int64_t group_id, struct strbuf *err)
{
	return st->ops->forget_group(st, group_id, err);
}

/*
 * A run's stats packed in one blob, so that loading a group's matrix reads
 * one row per run instead of one per value: "PSS1", the count (uint64),
 * the values (doubles), the is_int flags (bytes), then the names, each
 * NUL-terminated, sorted.  Host byte order: the index belongs to this
 * machine's result root.
 */
#define PACK_MAGIC "PSS1"

void store_pack_stats(struct strbuf *blob, const struct reduce_stats *in)
{
	const struct reduce_stats *stats = in;
	struct reduce_stats sorted;
	uint64_t n = in ? in->n : 0;
	size_t i;

	reduce_stats_init(&sorted);
	for (i = 1; i < n; i++)
		if (strcmp(in->items[i - 1].name, in->items[i].name) >= 0)
			break;
	if (i < n) { /* the loader merges sorted lists: sort a copy */
		for (i = 0; i < n; i++)
			reduce_stats_add(&sorted, in->items[i].name,
					 in->items[i].value, in->items[i].is_int);
		reduce_stats_sort(&sorted);
		stats = &sorted;
		n = sorted.n;
	}

	strbuf_add(blob, PACK_MAGIC, 4);
	strbuf_add(blob, &n, sizeof(n));
	for (i = 0; i < n; i++)
		strbuf_add(blob, &stats->items[i].value, sizeof(double));
	for (i = 0; i < n; i++)
		strbuf_addch(blob, stats->items[i].is_int);
	for (i = 0; i < n; i++)
		strbuf_add(blob, stats->items[i].name,
			   strlen(stats->items[i].name) + 1);
	reduce_stats_release(&sorted);
}

int store_unpack_stats(struct store_packed *p, const void *data, size_t len)
{
	return store_unpack_stats_like(p, data, len, NULL);
}

int store_unpack_stats_like(struct store_packed *p, const void *data,
			    size_t len, const struct store_packed *like)
{
	uint64_t n;
	size_t i, off;
	const char *q, *end;

	if (len < 12 || memcmp(data, PACK_MAGIC, 4))
		return -1;
	memcpy(&n, (const char *)data + 4, sizeof(n));
	if (n > (len - 12) / 10) /* 8 + 1 + at least a NUL each */
		return -1;
	off = 12 + (size_t)n * 9;
	if (like && n && like->n == n && !like->shared_names &&
	    like->names_len == len - off &&
	    !memcmp(like->names[0], (const char *)data + off, len - off)) {
		p->n = (size_t)n;
		p->names_len = len - off;
		p->names = like->names;
		p->shared_names = true;
		p->values = xmalloc(p->n * sizeof(double));
		memcpy(p->values, (const char *)data + 12, p->n * sizeof(double));
		p->buf = xmalloc(p->n);
		memcpy(p->buf, (const char *)data + 12 + p->n * sizeof(double),
		       p->n);
		p->is_int = (unsigned char *)p->buf;
		return 0;
	}
	p->buf = xmalloc(len + 1);
	memcpy(p->buf, data, len);
	p->buf[len] = '\0';
	p->n = (size_t)n;
	p->values = xcalloc(p->n ? p->n : 1, sizeof(double));
	memcpy(p->values, p->buf + 12, p->n * sizeof(double));
	p->is_int = (unsigned char *)p->buf + 12 + p->n * sizeof(double);
	p->names = xcalloc(p->n ? p->n : 1, sizeof(*p->names));
	p->names_len = len - off;
	q = p->buf + off;
	end = p->buf + len;
	for (i = 0; i < p->n; i++) {
		const char *nul = memchr(q, '\0', (size_t)(end - q));

		if (!nul)
			return -1;
		p->names[i] = q;
		q = nul + 1;
	}
	return 0;
}

void store_packed_release(struct store_packed *p)
{
	free(p->buf);
	if (!p->shared_names)
		free(p->names);
	free(p->values);
	memset(p, 0, sizeof(*p));
}

