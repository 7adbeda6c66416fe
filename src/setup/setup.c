/*
 * setup.c: setup_apply(), which runs the setup programs a job names
 * (programs.c's table holds them) in the job's key order -- LKP runs its
 * setup scripts in job order too -- plus the knob helper they share.
 */
#include "util/compat.h"
#include <string.h>
#include "job/job.h"
#include "setup/knob.h"
#include "job/programs.h"
#include "setup/setup.h"
#include "util/strbuf.h"

/*
 * One knob set for a setup program: checked to be a knob perfsift may
 * write (knob_check: under /proc/sys or one of two /sys trees, not a link
 * out of them), its old value read for the run's log, then set through
 * the journal.  The log line "PROG: WHAT OLD -> NEW" tells a reader of
 * the run what the job changed on the machine, and from what.
 */
int setup_knob(const char *prog, const char *what, const char *path,
	       const char *value, struct strbuf *log, struct strbuf *err)
{
	struct strbuf old = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;
	int ret = -1;

	if (knob_check(path, &why) < 0) {
		strbuf_addf(err, "%s: %s", prog, why.buf);
		goto out;
	}
	if (knob_get(path, &old) < 0) {
		strbuf_addf(err, "%s: cannot read '%s'", prog, path);
		goto out;
	}
	if (knob_set(path, value, &why) < 0) {
		strbuf_addf(err, "%s: cannot set %s to '%s'%s%s", prog, what,
			    value, why.len ? ": " : "", why.buf);
		goto out;
	}
	strbuf_addf(log, "%s: %s %s -> %s\n", prog, what, old.buf, value);
	ret = 0;
out:
	strbuf_release(&old);
	strbuf_release(&why);
	return ret;
}

int setup_apply_at(const struct job *job, const char *sysroot,
		   struct strbuf *log, struct strbuf *err)
{
	const struct jnode *root = job->root;
	size_t i;

	for (i = 0; i < root->n; i++) {
		const struct program *p = program_find(root->keys[i]);

		if (!p || !p->setup)
			continue;
		if (p->setup(root->kids[i], sysroot, log, err) < 0)
			return -1;
	}
	return 0;
}

int setup_apply(const struct job *job, struct strbuf *log, struct strbuf *err)
{
	return setup_apply_at(job, "/", log, err);
}
