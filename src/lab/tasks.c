/*
 * tasks.c: atomic jobs as lab tasks (lab.h) -- each task's job name (the
 * atomic job's file name) and YAML text, with the fields every task of
 * one batch shares.  The one loop `perfsift queue add` and the robot's
 * lab mode (robot/via_lab.c) both need; no store is touched here, so it is
 * built with or without libpq.
 */
#include "util/compat.h"
#include <stdlib.h>
#include "job/job.h"
#include "job/split.h"
#include "lab/lab.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

void lab_task_batch_init(struct lab_task_batch *b, struct job *const *atoms,
			 size_t n, const struct lab_new_task *tmpl)
{
	size_t i;

	b->n = n;
	/* one more than needed: calloc(0) may be NULL, and n may be 0 */
	b->t = xcalloc(n + 1, sizeof(*b->t));
	b->names = xcalloc(n + 1, sizeof(*b->names));
	b->yaml = xcalloc(n + 1, sizeof(*b->yaml));
	for (i = 0; i < n; i++) {
		strbuf_init(&b->names[i], 0);
		strbuf_init(&b->yaml[i], 0);
		split_job_filename(atoms[i], &b->names[i]);
		job_to_yaml(atoms[i], &b->yaml[i]);
		b->t[i] = *tmpl;
		/* each task's own: its box group, name and text */
		b->t[i].group = job_get(atoms[i], "tbox_group");
		b->t[i].job_name = b->names[i].buf;
		b->t[i].job_yaml = b->yaml[i].buf;
	}
}

void lab_task_batch_release(struct lab_task_batch *b)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		strbuf_release(&b->names[i]);
		strbuf_release(&b->yaml[i]);
	}
	free(b->t);
	free(b->names);
	free(b->yaml);
	b->t = NULL;
	b->names = b->yaml = NULL;
	b->n = 0;
}
