/*
 * store.c: what every store backend shares (see store.h): picking the
 * backend from the URL, parsing group selectors, the list types, and the
 * thin wrappers callers use instead of the function pointers.
 */
#include "util/compat.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "result/reduce.h"
#include "store/store.h"
#include "result/unite.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/xalloc.h"

/*
 * The seven parts of LKP's result path, in its order
 * (/result/TESTCASE/PATH_PARAMS/TBOX_GROUP/ROOTFS/KCONFIG/COMPILER/COMMIT):
 * enum store_axis indexes this table and both backends name their
 * columns by it, so the order is part of the index's schema.
 */
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

/*
 * A deep copy: a group handed out by store_resolve() outlives the list it
 * was found in.  A missing axis becomes "", so no caller tests for NULL.
 */
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

/*
 * dir below root, relative to it ("" = root itself); NULL when outside
 *
 * Both resolved first: a selector written through a symlink or with ".."
 * still names the group the index knows, since the index keeps every
 * path relative to the root (so that a result root can move).
 */
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

/*
 * A selector is tried as, in this order: nothing (every group), a
 * directory that exists (that group, or a run of it), a word without
 * "=" (a commit), else KEY=VALUE[,KEY=VALUE...] where every pair must
 * match.  A directory wins over a commit so that a path is never taken
 * for a hash; only the first "=" of a pair splits it, so a value may
 * hold one.
 */
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

/*
 * The URL picks the backend: none or "sqlite:" is the result root's own
 * perfsift.db, "sqlite:PATH" another file, postgresql:// a shared server.
 * A perfsift built without libpq says how to get it instead of failing
 * to link.  The root is resolved once, here, so that every relative path
 * the backend stores is relative to the same real directory.
 */
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
		flags |= STORE_NAMED;
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

/*
 * the parameters then the axes, one per key (struct store_index)
 *
 * A parameter named like an axis is dropped, and of two with one name
 * the first is kept: the axes are the group's identity and come from the
 * record's axes only, never from a job key that happens to be called
 * "commit"; and a query by KEY=VALUE must find one value per key.
 */
static void index_params(struct store_index *ix)
{
	const struct store_run_record *rec = ix->rec;
	size_t i, k;
	int a;

	ix->params = xcalloc(rec->nparams + STORE_NAXES, sizeof(*ix->params));
	for (i = 0; i < rec->nparams; i++) {
		const char *key = rec->params[i].key;
		bool shadowed = false;

		for (a = 0; a < STORE_NAXES && !shadowed; a++)
			shadowed = !strcmp(key, axis_names[a]);
		for (k = 0; k < ix->nparams && !shadowed; k++)
			shadowed = !strcmp(key, ix->params[k].key);
		if (!shadowed)
			ix->params[ix->nparams++] = (struct store_kv){
				key, rec->params[i].value, rec->params[i].kind
			};
	}
	for (a = 0; a < STORE_NAXES; a++)
		ix->params[ix->nparams++] = (struct store_kv){
			axis_names[a], rec->axes[a] ? rec->axes[a] : "",
			STORE_PARAM_AXIS
		};
}

/*
 * Paths go into the index relative to the root, so that the index moves
 * with its result root (rsync, restore); a run outside the root is
 * refused rather than indexed by a path no other copy could resolve.
 */
int store_index_run(struct store *st, const struct store_run_record *rec,
		    struct strbuf *err)
{
	struct store_index ix;
	struct strbuf blob = STRBUF_INIT;
	int ret;

	memset(&ix, 0, sizeof(ix));
	ix.rec = rec;
	ix.group_rel = store_rel_dir(st, rec->group_dir);
	ix.run_rel = store_rel_dir(st, rec->run_dir);
	if (!ix.group_rel || !ix.run_rel) {
		strbuf_addf(err, "'%s' is not below the result root '%s'",
			    ix.group_rel ? rec->run_dir : rec->group_dir,
			    st->root);
		return -1;
	}
	index_params(&ix);
	store_pack_stats(&blob, rec->stats);
	ix.blob = blob.buf;
	ix.blob_len = blob.len;
	ret = st->ops->index_run(st, &ix, err);
	free(ix.params);
	strbuf_release(&blob);
	return ret;
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

/*
 * Exactly one group, else an error: a command that acts on one group
 * (report, plot) must not pick one of several silently, and the list in
 * the error is what the user needs to narrow the selector.
 */
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

void store_corrupt(const char *where, const char *what)
{
	/*
	 * One of the two die()s below the commands (store_not_ours() the
	 * other): a damaged index must stop every command the same way,
	 * wherever it is read.
	 */
	die_status(EXIT_RUNTIME, "index corrupt: rebuild it with `perfsift stats "
		   "--all` ('%s': %s)", where, what);
}

void store_not_ours(const char *where, const char *why)
{
	die_status(EXIT_USAGE, "'%s' is %s, not an index perfsift made: "
		   "refusing to use or change it (--store or PERFSIFT_STORE "
		   "sqlite:PATH names a new file or perfsift's own index)",
		   where, why);
}

/*
 * Only a SQLite index is repaired: it is this result root's cache of the
 * runs' files, so a damaged one can be rebuilt from them, and it is moved
 * aside (kept for a post-mortem) rather than deleted.  A PostgreSQL store
 * is shared and holds the lab's queue too: its damage is not ours to fix.
 */
int store_set_aside_if_corrupt(const char *root, const char *url, bool *moved,
			       struct strbuf *err)
{
	static const char *const suffixes[] = {"-wal", "-shm", ""};
	struct strbuf db = STRBUF_INIT, why = STRBUF_INIT;
	struct strbuf from = STRBUF_INIT, to = STRBUF_INIT;
	enum store_sqlite_owner owner = STORE_SQLITE_OURS;
	size_t i;
	int ret = 0;

	*moved = false;
	if (!url || !*url || !strcmp(url, "sqlite:")) {
		path_join(&db, root, "perfsift.db");
	} else if (!strncmp(url, "sqlite:", 7)) {
		/* a file the user named: moved only when it says it is ours */
		strbuf_addstr(&db, url + 7);
		owner = store_sqlite_owner(db.buf, &why);
		if (owner == STORE_SQLITE_NOT_DB)
			store_not_ours(db.buf, why.buf);
	}
	if (!db.len || !file_exists(db.buf) || !store_sqlite_damaged(db.buf, &why))
		goto out;
	if (owner != STORE_SQLITE_OURS)
		store_not_ours(db.buf, "a damaged SQLite file without perfsift's "
			       "application id");
	warning("index corrupt ('%s': %s): moved aside to '%s.corrupt', "
		"building a new one", db.buf, why.buf, db.buf);
	/* the database last: a -wal without its database is never read */
	for (i = 0; i < ARRAY_SIZE(suffixes); i++) {
		strbuf_reset(&from);
		strbuf_reset(&to);
		strbuf_addf(&from, "%s%s", db.buf, suffixes[i]);
		strbuf_addf(&to, "%s.corrupt%s", db.buf, suffixes[i]);
		if (rename(from.buf, to.buf) < 0 && errno != ENOENT) {
			strbuf_addf(err, "cannot move '%s' aside: %s", from.buf,
				    strerror(errno));
			ret = -1;
			goto out;
		}
	}
	*moved = true;
out:
	strbuf_release(&db);
	strbuf_release(&why);
	strbuf_release(&from);
	strbuf_release(&to);
	return ret;
}

void store_dir_mark_list_release(struct store_dir_mark_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->items[i].dir);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

void store_dir_mark_list_add(struct store_dir_mark_list *l, const char *dir,
			     int64_t mtime_ns)
{
	ALLOC_GROW(l->items, l->n + 1, l->alloc);
	l->items[l->n].dir = xstrdup(dir);
	l->items[l->n++].mtime_ns = mtime_ns;
}

/*
 * Dir marks (store.h) let a sync skip group directories unchanged since
 * they were last indexed; a backend without them is simply synced in
 * full each time, which is slower and never wrong.
 */
bool store_has_dir_marks(const struct store *st)
{
	return st->ops->dir_marks && st->ops->save_dir_marks;
}

int store_dir_marks(struct store *st, struct store_dir_mark_list *out,
		    struct strbuf *err)
{
	if (!store_has_dir_marks(st))
		return 0;
	return st->ops->dir_marks(st, out, err);
}

int store_save_dir_marks(struct store *st, const struct store_dir_mark_list *set,
			 const struct store_dir_mark_list *drop,
			 struct strbuf *err)
{
	if (!store_has_dir_marks(st) || (!set->n && !drop->n))
		return 0;
	return st->ops->save_dir_marks(st, set, drop, err);
}

int store_forget_group(struct store *st, int64_t group_id, struct strbuf *err)
{
	return st->ops->forget_group(st, group_id, err);
}

int store_stat_values(struct store *st, const int64_t *group_ids,
		      size_t ngroups, const char *const *names, size_t nnames,
		      store_value_fn fn, void *ctx, struct strbuf *err)
{
	if (!nnames || (group_ids && !ngroups))
		return 0;
	return st->ops->stat_values(st, group_ids, ngroups, names, nnames, fn,
				    ctx, err);
}

int store_stat_names(struct store *st, const char *prefix,
		     struct store_name_list *out, struct strbuf *err)
{
	return st->ops->stat_names(st, prefix, out, err);
}

int store_group_rows(struct store *st, store_group_row_fn fn, void *ctx,
		     struct strbuf *err)
{
	return st->ops->group_rows(st, fn, ctx, err);
}

int store_put_floor(struct store *st, const struct noise_floor *f,
		    struct strbuf *err)
{
	if (!st->ops->put_floor) {
		strbuf_addf(err, "the %s index keeps no noise floors", st->ops->name);
		return -1;
	}
	return st->ops->put_floor(st, f, err);
}

/* a backend that keeps no floors answers "none calibrated", not an error */
int store_get_floor(struct store *st, const char *series,
		    struct noise_floor *out, bool *found, struct strbuf *err)
{
	*found = false;
	if (!st->ops->get_floor)
		return 0; /* a backend without floors: none calibrated */
	return st->ops->get_floor(st, series, out, found, err);
}

void store_name_list_release(struct store_name_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->items[i]);
	free(l->items);
	memset(l, 0, sizeof(*l));
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

/*
 * The blob is read with every length checked before it is used: it comes
 * from a file (or a server) that may be damaged or written by another
 * hand, and a bad count must give -1 (store_corrupt), never a read past
 * the end.  The runs of one group nearly always share their stat names,
 * so when this blob's names are byte for byte `like`'s they are borrowed
 * instead of copied: a 1000-run group then holds one copy of its names.
 */
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


/* ---- for backends ---- */

char *store_abs_dir(const struct store *st, const char *rel)
{
	struct strbuf sb = STRBUF_INIT;

	if (*rel)
		path_join(&sb, st->root, rel);
	else
		strbuf_addstr(&sb, st->root);
	return strbuf_detach(&sb, NULL);
}

/* NULL when path is not below the root (the caller refuses to index it) */
const char *store_rel_dir(const struct store *st, const char *path)
{
	size_t n = strlen(st->root);

	if (!strncmp(path, st->root, n) && path[n] == '/')
		return path + n + 1;
	if (!strcmp(st->root, "/") && path[0] == '/')
		return path + 1;
	return NULL;
}

/*
 * A directory selector that names a run (GROUP/3) selects its group: the
 * last component all digits is a run's number, as `run` makes them.
 */
char *store_selector_run_group(const struct store_selector *sel)
{
	const char *slash;

	if (sel->kind != STORE_SEL_DIR || !sel->dir)
		return NULL;
	slash = strrchr(sel->dir, '/');
	if (slash && slash[1] &&
	    strspn(slash + 1, "0123456789") == strlen(slash + 1))
		return xstrndup(sel->dir, (size_t)(slash - sel->dir));
	return NULL;
}

void store_group_list_add(struct store_group_list *out, const struct store *st,
			  int64_t id, const char *rel_dir,
			  const char *const axes[STORE_NAXES], size_t nruns,
			  size_t nincomplete)
{
	struct store_group *g;
	int a;

	ALLOC_GROW(out->items, out->n + 1, out->alloc);
	g = &out->items[out->n++];
	memset(g, 0, sizeof(*g));
	g->id = id;
	g->dir = store_abs_dir(st, rel_dir);
	for (a = 0; a < STORE_NAXES; a++)
		g->axes[a] = xstrdup(axes[a] ? axes[a] : "");
	g->nruns = nruns;
	g->nincomplete = nincomplete;
}

void store_run_list_add(struct store_run_list *out, const struct store *st,
			int64_t id, int number, bool complete,
			const char *rel_dir)
{
	struct store_run *r;

	ALLOC_GROW(out->items, out->n + 1, out->alloc);
	r = &out->items[out->n++];
	r->id = id;
	r->number = number;
	r->complete = complete;
	r->dir = store_abs_dir(st, rel_dir);
}

void store_param_list_add(struct store_param_list *out, const char *key,
			  const char *value, enum store_param_kind kind)
{
	ALLOC_GROW(out->items, out->n + 1, out->alloc);
	out->items[out->n].key = xstrdup(key);
	out->items[out->n].value = xstrdup(value);
	out->items[out->n].kind = kind;
	out->n++;
}

void store_matrix_builder_init(struct store_matrix_builder *b)
{
	memset(b, 0, sizeof(*b));
}

int store_matrix_builder_add(struct store_matrix_builder *b,
			     const struct store *st, const char *rel_dir,
			     const void *blob, size_t len)
{
	struct store_packed *p;
	char *dir;
	size_t old = b->alloc;

	ALLOC_GROW(b->runs, b->n + 1, b->alloc);
	if (b->alloc != old) {
		b->cols = xreallocarray(b->cols, b->alloc, sizeof(*b->cols));
		b->sources = xreallocarray(b->sources, b->alloc,
					   sizeof(*b->sources));
	}
	p = &b->runs[b->n];
	memset(p, 0, sizeof(*p));
	/* the runs of a group nearly always share their names: borrow the
	 * first run's */
	if (!blob || store_unpack_stats_like(p, blob, len,
					     b->n ? &b->runs[0] : NULL)) {
		store_packed_release(p);
		return -1;
	}
	dir = store_abs_dir(st, rel_dir);
	b->sources[b->n] = xasprintf("%s/stats.json", dir);
	free(dir);
	b->cols[b->n] = (struct unite_column){
		b->sources[b->n], p->names, p->values, p->is_int, p->n
	};
	b->n++;
	return 0;
}

void store_matrix_builder_add_stats(struct store_matrix_builder *b,
				    const struct store *st,
				    const char *rel_dir,
				    const struct reduce_stats *stats)
{
	struct strbuf blob = STRBUF_INIT;

	store_pack_stats(&blob, stats);
	if (store_matrix_builder_add(b, st, rel_dir, blob.buf, blob.len))
		BUG("cannot unpack what store_pack_stats packed");
	strbuf_release(&blob);
}

void store_matrix_builder_finish(struct store_matrix_builder *b,
				 struct matrix *m)
{
	unite_columns(b->cols, b->n, m);
}

void store_matrix_builder_release(struct store_matrix_builder *b)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		store_packed_release(&b->runs[i]);
		free(b->sources[i]);
	}
	free(b->runs);
	free(b->cols);
	free(b->sources);
	memset(b, 0, sizeof(*b));
}
