/*
 * split.h: LKP's split-job.  A job whose values hold lists is expanded
 * into atomic jobs (the cartesian product of every list, first list
 * outermost), each of which then gets its machine (testbox, tbox_group,
 * arch) and its LKP file name `<stem>-<path_params>.yaml`.
 */
#ifndef PERFSIFT_SPLIT_H
#define PERFSIFT_SPLIT_H

#include "util/compat.h"

struct job;
struct strbuf;

/* more atomic jobs than this from one job is a mistake in the job file */
#define SPLIT_MAX_JOBS 100000

/*
 * Expand job into atomic jobs, in LKP's order.  *out is a new array of new
 * jobs (free with job_free_all(*out, *n)); an atomic job yields one copy.
 * -1 with err filled ("FILE:LINE: KEY: ...") when the product is too big
 * or an atomic job lacks an option its program requires
 * (job_check_required()).
 */
int split_job(const struct job *job, struct job ***out, size_t *n,
	      struct strbuf *err);

/* set testbox, arch and tbox_group (testbox minus a trailing -N) */
void split_fill_box(struct job *job, const char *testbox, const char *arch);

/* tbox_group of a testbox name into out: "lkp-tbox-2" -> "lkp-tbox" */
void split_tbox_group(const char *testbox, struct strbuf *out);

/*
 * The atomic job's file name, appended to out:
 * `<stem>-<path_params>[-<commit>][-<rootfs>].yaml` as LKP's split-job
 * names it (commit and rootfs only when the job sets them), path_params
 * being the group directory's (job_group_params(): LKP's, with a hash
 * appended when a value was cut, so two jobs never get one name).
 */
void split_job_filename(const struct job *job, struct strbuf *out);

#endif
