/*
 * expand.c: matrix expansion of LKP jobs.  LKP's each_job walks the job in
 * key order, finds the first list of a dimension, and for each of its
 * items puts the item in the list's place and recurses; so the first list
 * is the outermost loop.  The same walk here works on the tree in place
 * (job_first_dim gives the slot) and copies each job that has no list left.
 */
#include "util/compat.h"
#include <ctype.h>
#include <string.h>
#include "job/job.h"
#include "job/split.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * Values in all the atomic jobs of one job together: 1,000 atomic jobs
 * of 200 values is a big LKP job; a job of 100,000 list items that also
 * expands 100,000 times would need 10^10 (a "matrix bomb").
 */
#define SPLIT_MAX_VALUES 5000000

struct expansion {
	struct job **jobs; /* NULL while only counting */
	size_t n, alloc;
	size_t size;       /* nodes of one atomic job (0: none seen yet) */
	bool count_only;
	bool too_big;      /* stopped by SPLIT_MAX_VALUES */
	struct strbuf *err;
};

static size_t node_count(const struct jnode *n)
{
	size_t count = 1, i;

	for (i = 0; i < n->n; i++)
		count += node_count(n->kids[i]);
	return count;
}

static int expand(struct job *job, struct expansion *ex)
{
	const char *key = NULL;
	struct jnode **slot = job_first_dim(job, &key);
	struct jnode *list;
	size_t i;
	int ret = 0;

	if (!slot) {
		if (ex->n >= SPLIT_MAX_JOBS)
			return -1;
		/* every atomic job has the first one's size: one item per list */
		if (!ex->size)
			ex->size = node_count(job->root);
		if ((ex->n + 1) * ex->size > SPLIT_MAX_VALUES) {
			ex->too_big = true;
			return -1;
		}
		if (ex->count_only) {
			ex->n++;
			return 0;
		}
		ALLOC_GROW(ex->jobs, ex->n + 1, ex->alloc);
		ex->jobs[ex->n++] = job_dup(job);
		return 0;
	}
	/* borrow each item into the list's slot, then put the list back */
	list = *slot;
	for (i = 0; i < list->n && !ret; i++) {
		*slot = list->kids[i];
		ret = expand(job, ex);
	}
	*slot = list;
	if (ret && ex->err && !ex->err->len && ex->too_big) {
		strbuf_addf(ex->err, "%s:%d: %s: the job expands to more than %d "
			    "values in all (%zu atomic jobs of %zu values)",
			    job->file, list->line > 0 ? list->line : 1, key,
			    SPLIT_MAX_VALUES, ex->n, ex->size);
	} else if (ret && ex->err && !ex->err->len) {
		strbuf_addf(ex->err, "%s:%d: %s: the job expands to more than %d atomic jobs",
			    job->file, list->line > 0 ? list->line : 1, key,
			    SPLIT_MAX_JOBS);
	}
	return ret;
}

int split_job(const struct job *job, struct job ***out, size_t *n,
	      struct strbuf *err)
{
	struct expansion ex = {NULL, 0, 0, 0, true, false, err};
	/* the walk borrows nodes in place; work on a copy, keep job const */
	struct job *work = job_dup(job);
	int ret;

	if (err)
		strbuf_reset(err);
	/* count first, so that a huge matrix costs no memory */
	ret = expand(work, &ex);
	if (!ret) {
		ex.n = 0;
		ex.count_only = false;
		ret = expand(work, &ex);
	}
	job_free(work);
	/* an atomic job missing what its benchmark needs: said now, by line */
	for (size_t i = 0; !ret && i < ex.n; i++)
		ret = job_check_required(ex.jobs[i], err);
	if (ret) {
		job_free_all(ex.jobs, ex.count_only ? 0 : ex.n);
		*out = NULL;
		*n = 0;
		return -1;
	}
	*out = ex.jobs;
	*n = ex.n;
	return 0;
}

void split_tbox_group(const char *testbox, struct strbuf *out)
{
	size_t len = strlen(testbox), end = len;

	while (end && isdigit((unsigned char)testbox[end - 1]))
		end--;
	/* "name-12" -> "name"; "name12" or "12" stay as they are */
	if (end < len && end > 1 && testbox[end - 1] == '-')
		len = end - 1;
	strbuf_add(out, testbox, len);
}

void split_fill_box(struct job *job, const char *testbox, const char *arch)
{
	struct strbuf group = STRBUF_INIT;

	split_tbox_group(testbox, &group);
	job_set(job, "testbox", testbox);
	job_set(job, "arch", arch);
	job_set(job, "tbox_group", group.buf);
	strbuf_release(&group);
}

/* a file-name part: '/' and other unsafe characters become '_' */
static void add_name_part(struct strbuf *out, const char *s)
{
	for (; *s; s++)
		strbuf_addch(out, (*s == '/' || (unsigned char)*s < 0x20) ?
					  '_' : *s);
}

void split_job_filename(const struct job *job, struct strbuf *out)
{
	const char *commit = job_get(job, "commit");
	const char *rootfs = job_get(job, "rootfs");

	add_name_part(out, job->stem);
	strbuf_addch(out, '-');
	job_group_params(job, out);
	if (commit && *commit) {
		strbuf_addch(out, '-');
		add_name_part(out, commit);
	}
	if (rootfs && *rootfs) {
		const char *base = strrchr(rootfs, '/');

		strbuf_addch(out, '-');
		add_name_part(out, base ? base + 1 : rootfs);
	}
	strbuf_addstr(out, ".yaml");
}
