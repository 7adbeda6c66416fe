/*
 * sync.c: find the run directories a result root holds but its
 * index lacks, and index them; and the groups and runs the index holds
 * but the root no longer does, and forget them (result.h,
 * result_sync_index()).
 *
 * A run becomes visible (renamed into place) before it is indexed; a
 * perfsift killed in between, or a run directory copied in by hand,
 * leaves a run the index does not know.  The disk is the truth, so the
 * commands that read the index look at it first -- cheaply: the index
 * keeps, for each directory of the root down to the groups, the mtime at
 * which every run below it was known to be indexed (store.h, "directory
 * marks").  A directory whose mtime still matches needs no look; one that
 * changed (a run renamed in, a group or testcase created) is read, its
 * new subdirectories walked, its runs compared with the index's.  Nothing
 * here trusts a mark perfsift left on disk: a mark only ever says "this
 * directory, as it was then, was checked", and any change of the
 * directory voids it.
 */
#include "util/compat.h"
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "result/internal.h"
#include "result/result.h"
#include "store/store.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/xalloc.h"

/* <testcase>/<path_params>/<tbox_group>/<rootfs>/<kconfig>/<compiler>/<commit> */
#define GROUP_DEPTH 7
/*
 * Runs indexed by one command at most: a crash leaves one or two; a whole
 * LKP root copied in is `perfsift stats --all`'s work, not `results`'.
 */
#define SYNC_MAX_RUNS 64

struct sync {
	const char *root;                 /* absolute, no links */
	const char *store_url;
	struct store *st;
	struct store_dir_mark_list marks; /* from the index, sorted by dir */
	struct store_dir_mark_list set;   /* marks to save */
	size_t indexed, failed, left;     /* runs the index lacked */
	struct strbuf first_left;         /* one of those left, for the note */
};

static int cmp_mark(const void *a, const void *b)
{
	return strcmp(((const struct store_dir_mark *)a)->dir,
		      ((const struct store_dir_mark *)b)->dir);
}

static const struct store_dir_mark *find_mark(const struct sync *s,
					      const char *rel)
{
	struct store_dir_mark key = {(char *)rel, 0};

	if (!s->marks.n)
		return NULL;
	return bsearch(&key, s->marks.items, s->marks.n, sizeof(key), cmp_mark);
}

static int64_t mtime_ns(const struct stat *st)
{
	return (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
}

static bool is_number(const char *s)
{
	return *s && strlen(s) < 8 && strspn(s, "0123456789") == strlen(s);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/* the run numbers the index has for group rel, sorted, and its id (0:
 * not indexed) */
static int indexed_runs(struct sync *s, const char *rel, int **nums, size_t *n,
			int64_t *id, struct strbuf *err)
{
	struct store_selector sel = {0};
	struct store_group_list groups = {0};
	char *abs = store_abs_dir(s->st, rel);
	size_t i, alloc = 0;
	int ret = 0;

	*nums = NULL;
	*n = 0;
	*id = 0;
	sel.kind = STORE_SEL_DIR;
	sel.dir = (char *)rel;
	if (store_find_groups(s->st, &sel, &groups, err))
		ret = -1;
	for (i = 0; !ret && i < groups.n; i++) {
		struct store_run_list runs = {0};
		size_t k;

		if (strcmp(groups.items[i].dir, abs))
			continue;
		*id = groups.items[i].id;
		if (store_group_runs(s->st, groups.items[i].id, &runs, err))
			ret = -1;
		for (k = 0; !ret && k < runs.n; k++) {
			ALLOC_GROW(*nums, *n + 1, alloc);
			(*nums)[(*n)++] = runs.items[k].number;
		}
		store_run_list_release(&runs);
	}
	store_group_list_release(&groups);
	free(abs);
	if (*n)
		qsort(*nums, *n, sizeof(**nums), cmp_int);
	return ret;
}

/* index one run directory the index lacked; false when it is left out */
static bool index_missing(struct sync *s, const char *dir)
{
	struct strbuf err = STRBUF_INIT;
	bool ok = false;

	if (s->indexed + s->failed >= SYNC_MAX_RUNS) {
		if (!s->left++)
			strbuf_addstr(&s->first_left, dir);
	} else if (result_restat(dir, s->root, s->store_url, &err)) {
		warning("'%s' is not indexed: %s (`perfsift stats %s` retries)",
			dir, err.buf, dir);
		s->failed++;
	} else {
		note("indexed '%s', a run directory the index lacked", dir);
		s->indexed++;
		ok = true;
	}
	strbuf_release(&err);
	return ok;
}

/* a directory of the root: never through a link, as the walk never is */
static bool real_dir(const char *path)
{
	struct stat st;

	return !lstat(path, &st) && S_ISDIR(st.st_mode);
}

static bool has_num(const int *nums, size_t n, int num)
{
	return n && bsearch(&num, nums, n, sizeof(num), cmp_int);
}

/*
 * A group directory: its runs on disk against the index's.  A run only
 * on disk is indexed; a run only in the index was deleted (by hand:
 * perfsift never deletes a run), so the group is forgotten and the runs
 * still on disk indexed again -- `results` and `compare` must never
 * count a run that is not there.  When the forgetting fails the group
 * keeps no mark, so the next command tries again.
 */
static bool check_group(struct sync *s, const char *rel, const char *path,
			DIR *d)
{
	struct strbuf run = STRBUF_INIT, err = STRBUF_INIT;
	struct dirent *de;
	int *have = NULL, *disk = NULL;
	size_t nhave = 0, ndisk = 0, alloc = 0, i;
	int64_t id;
	bool ok = true, stale = false;

	while ((de = readdir(d))) {
		if (!is_number(de->d_name))
			continue;
		path_join(&run, path, de->d_name);
		if (!real_dir(run.buf))
			continue; /* a link is not a run of this root */
		ALLOC_GROW(disk, ndisk + 1, alloc);
		disk[ndisk++] = (int)strtol(de->d_name, NULL, 10);
	}
	if (ndisk)
		qsort(disk, ndisk, sizeof(*disk), cmp_int);
	if (indexed_runs(s, rel, &have, &nhave, &id, &err)) {
		warning("%s", err.buf);
		ok = false;
		goto out;
	}
	/*
	 * Not on disk when read, and still not: a run renamed in (and
	 * indexed) by another perfsift after the readdir is not stale.
	 */
	for (i = 0; i < nhave && !stale; i++) {
		if (has_num(disk, ndisk, have[i]))
			continue;
		strbuf_reset(&run);
		strbuf_addf(&run, "%s/%d", path, have[i]);
		stale = !real_dir(run.buf);
	}
	if (stale && store_forget_group(s->st, id, &err)) {
		warning("%s", err.buf);
		ok = false;
		goto out;
	}
	if (stale) {
		note("forgot the runs of '%s' from the index: some of its run "
		     "directories are gone", path);
		nhave = 0;
	}
	for (i = 0; i < ndisk; i++) {
		if (has_num(have, nhave, disk[i]))
			continue;
		strbuf_reset(&run);
		strbuf_addf(&run, "%s/%d", path, disk[i]);
		if (!index_missing(s, run.buf))
			ok = false;
	}
out:
	free(have);
	free(disk);
	strbuf_release(&run);
	strbuf_release(&err);
	return ok;
}

/*
 * Read directory rel (depth levels below the root) whose mtime was mt:
 * walk the subdirectories without a mark of their own, or check the runs
 * of a group.  Marks rel when everything below it is known to be indexed.
 */
static bool scan(struct sync *s, const char *rel, int depth, int64_t mt)
{
	struct strbuf path = STRBUF_INIT, child = STRBUF_INIT;
	struct dirent *de;
	bool ok = true;
	DIR *d;

	path_join(&path, s->root, rel);
	d = opendir(path.buf);
	if (!d) {
		strbuf_release(&path);
		return errno == ENOENT; /* gone meanwhile: nothing to index */
	}
	if (depth == GROUP_DEPTH) {
		ok = check_group(s, rel, path.buf, d);
	} else {
		while ((de = readdir(d))) {
			struct strbuf full = STRBUF_INIT;
			struct stat st;

			/* ., .., perfsift.db*, .tmp-N of running runs, .stale-N */
			if (de->d_name[0] == '.')
				continue;
			strbuf_reset(&child);
			if (*rel)
				strbuf_addf(&child, "%s/", rel);
			strbuf_addstr(&child, de->d_name);
			path_join(&full, s->root, child.buf);
			/* never follow a link: the walk stays in the root */
			if (!lstat(full.buf, &st) && S_ISDIR(st.st_mode) &&
			    !find_mark(s, child.buf) &&
			    !scan(s, child.buf, depth + 1, mtime_ns(&st)))
				ok = false;
			strbuf_release(&full);
		}
	}
	closedir(d);
	if (ok)
		store_dir_mark_list_add(&s->set, rel, mt);
	strbuf_release(&path);
	strbuf_release(&child);
	return ok;
}

/*
 * Groups of the index under rel whose directories were deleted: rel
 * changed since its mark (a deletion below it changes the mtime of the
 * directory it was made in), so the index's groups below it are looked
 * at, one lstat each; each directory that still exists was checked run
 * by run by scan() (check_group) when its own mtime changed.
 */
static void forget_vanished(struct sync *s, const char *rel)
{
	struct store_selector sel = {0};
	struct store_group_list groups = {0};
	struct strbuf err = STRBUF_INIT;
	size_t i;

	sel.kind = STORE_SEL_DIR;
	sel.dir = (char *)rel;
	if (store_find_groups(s->st, &sel, &groups, &err))
		goto out;
	for (i = 0; i < groups.n; i++) {
		const struct store_group *g = &groups.items[i];

		if (real_dir(g->dir))
			continue;
		if (store_forget_group(s->st, g->id, &err)) {
			warning("%s", err.buf);
			break;
		}
		note("forgot group '%s' from the index: its directory is gone",
		     g->dir);
	}
out:
	store_group_list_release(&groups);
	strbuf_release(&err);
}

static int depth_of(const char *rel)
{
	int depth = *rel ? 1 : 0;

	for (; *rel; rel++)
		depth += *rel == '/';
	return depth;
}

int result_sync_index(const char *root, const char *store_url,
		      struct strbuf *err)
{
	struct store st;
	struct store_dir_mark_list drop = {0};
	struct sync s;
	struct stat sb;
	char *rroot = realpath(root, NULL);
	size_t i;
	int ret = -1;

	if (!rroot)
		return 0; /* no root yet: nothing on disk to index */
	memset(&s, 0, sizeof(s));
	strbuf_init(&s.first_left, 0);
	s.root = rroot;
	s.store_url = store_url;
	s.st = &st;
	if (store_open(&st, rroot, store_url, 0, err)) {
		free(rroot);
		return -1;
	}
	if (!store_has_dir_marks(&st)) {
		ret = 0;
		goto out;
	}
	if (store_dir_marks(&st, &s.marks, err))
		goto out;
	if (s.marks.n)
		qsort(s.marks.items, s.marks.n, sizeof(*s.marks.items), cmp_mark);
	if (!find_mark(&s, "") && !lstat(rroot, &sb)) {
		scan(&s, "", 0, mtime_ns(&sb));
		forget_vanished(&s, "");
	}
	for (i = 0; i < s.marks.n; i++) {
		const struct store_dir_mark *m = &s.marks.items[i];
		struct strbuf path = STRBUF_INIT;
		int depth = depth_of(m->dir);

		path_join(&path, rroot, m->dir);
		if (depth > GROUP_DEPTH || lstat(path.buf, &sb) < 0 ||
		    !S_ISDIR(sb.st_mode))
			store_dir_mark_list_add(&drop, m->dir, 0);
		else if (mtime_ns(&sb) != m->mtime_ns) {
			scan(&s, m->dir, depth, mtime_ns(&sb));
			forget_vanished(&s, m->dir);
		}
		strbuf_release(&path);
	}
	if (s.left)
		note("%zu more run director%s not indexed (e.g. '%s'): "
		     "`perfsift stats --all` indexes them", s.left,
		     s.left == 1 ? "y is" : "ies are", s.first_left.buf);
	store_close(&st);
	/* the runs indexed meanwhile may have made the index file: reopen */
	if (store_open(&st, rroot, store_url, s.indexed ? STORE_CREATE : 0, err))
		goto out_closed;
	if (store_save_dir_marks(&st, &s.set, &drop, err)) {
		/* a root the user may read but not write: no marks, no harm */
		strbuf_reset(err);
	}
	ret = 0;
out:
	store_close(&st);
out_closed:
	store_dir_mark_list_release(&s.marks);
	store_dir_mark_list_release(&s.set);
	store_dir_mark_list_release(&drop);
	strbuf_release(&s.first_left);
	free(rroot);
	return ret;
}

int result_store_open(struct store *st, const char *root, const char *store_url,
		      unsigned flags, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	int sync = result_sync_index(root, store_url, &why);
	int ret = store_open(st, root, store_url, flags, err);

	/* an index that does not open says so once, through err */
	if (sync && !ret)
		warning("cannot check the index against the disk: %s", why.buf);
	strbuf_release(&why);
	return ret;
}
