/*
 * pull.c: `perfsift --store postgresql://... pull [SELECTOR...]` -- copy
 * the runs of the groups named (default: every group) from the store's
 * files (src/lab/files.c) into the local result root, so that a result
 * stored by the lab's workers can be re-parsed, plotted per run or
 * archived here.  A run already in the root is left as it is; each is
 * written into a temporary directory and renamed into place, so an
 * interrupted pull leaves no half run.
 */
#include "util/compat.h"
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "builtin.h"
#include "lab/lab.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/trust.h"
#include "util/usage.h"

#ifdef HAVE_LIBPQ
static const char pull_usage[] =
	"usage: perfsift --store postgresql://... pull [SELECTOR...]\n"
	"\n"
	"Copy the runs of the result groups SELECTOR names (as for compare: a\n"
	"commit, key=value,...; default every group) from the store into the\n"
	"result root.  Runs already in the root are left alone.\n";

/*
 * The store is shared: its group and run directories are rows anyone
 * with access may write.  A group's directory is a relative path of plain
 * names and a run's is one plain name below it -- no '..', no '/', no
 * absolute path, no control character (util/trust.h) -- or the run is
 * not pulled (a runs.dir of "../../../root/.ssh" wrote authorized_keys
 * there, issue 25 F4).
 */
static int check_dirs(const struct lab *lab, const struct store_run *r,
		      const char *group_rel, struct strbuf *err)
{
	const char *rel = store_rel_dir(&lab->st, r->dir), *why;
	size_t n = strlen(group_rel);

	why = trust_relpath_why(group_rel);
	if (!why && rel)
		why = trust_relpath_why(rel);
	if (!why && (!rel || strncmp(rel, group_rel, n) || rel[n] != '/'))
		why = "not a directory of its group";
	if (!why)
		why = trust_name_why(rel + n + 1);
	if (!why)
		return 0;
	strbuf_addstr(err, "the store holds run directory '");
	trust_escape(err, rel ? rel : r->dir);
	strbuf_addstr(err, "' of group '");
	trust_escape(err, group_rel);
	strbuf_addf(err, "' (%s): not pulled", why);
	return -1;
}

/* one run into its place below the root; 1 pulled, 0 skipped, -1 error */
/*
 * A run directory already in the root is the same run (run numbers are
 * unique per group in the store) or the user's own: never overwritten.
 */
static int pull_run(struct lab *lab, const struct store_run *r,
		    const char *group_rel, struct strbuf *err)
{
	static const char pulled_note[] =
		"pulled from a shared store: data only (docs/security.md)\n";
	struct strbuf tmp = STRBUF_INIT, gdir = STRBUF_INIT;
	size_t n = 0;
	int ret = -1;

	if (check_dirs(lab, r, group_rel, err) < 0)
		return -1;
	if (dir_exists(r->dir))
		return 0;
	path_dirname(&gdir, r->dir);
	strbuf_addf(&tmp, "%s/.pull-%d-%ld", gdir.buf, r->number, (long)getpid());
	remove_tree(tmp.buf);
	if (lab_get_run_files(lab, group_rel, r->number, tmp.buf, &n, err) < 0)
		goto out;
	if (!n) {
		warning("%s/%d: the store has no files of this run (indexed "
			"without them)", group_rel, r->number);
		ret = 0;
		goto out;
	}
	/* the run is data: no plug-in of it or below it is ever run */
	if (trust_mark_pulled(tmp.buf, pulled_note, err) < 0)
		goto out;
	if (rename(tmp.buf, r->dir) < 0) {
		strbuf_addf(err, "cannot rename '%s' to '%s': %s", tmp.buf, r->dir,
			    strerror(errno));
		goto out;
	}
	ret = 1;
out:
	remove_tree(tmp.buf);
	strbuf_release(&tmp);
	strbuf_release(&gdir);
	return ret;
}

/* the runs of every group sel names (NULL: all of them) */
static int pull_groups(struct lab *lab, const char *sel, size_t *pulled,
		       size_t *here, struct strbuf *err)
{
	struct store_group_list gl = {0};
	size_t i, j;
	int ret = 0;

	if (store_find_groups_text(&lab->st, sel, &gl, err) < 0)
		return -1;
	if (sel && !gl.n) {
		strbuf_addf(err, "'%s' matches no result group in the store", sel);
		ret = -1;
	}
	for (i = 0; i < gl.n && !ret; i++) {
		struct store_run_list rl = {0};
		const char *rel = store_rel_dir(&lab->st, gl.items[i].dir);

		if (!rel)
			rel = ""; /* the root itself: check_dirs() refuses it */
		ret = store_group_runs(&lab->st, gl.items[i].id, &rl, err);
		for (j = 0; j < rl.n && !ret; j++) {
			int r = pull_run(lab, &rl.items[j], rel, err);

			if (r < 0)
				ret = -1;
			else
				*(r ? pulled : here) += 1;
		}
		store_run_list_release(&rl);
	}
	store_group_list_release(&gl);
	return ret;
}

int cmd_pull(int argc, char **argv, struct options *opts)
{
	struct strbuf err = STRBUF_INIT;
	struct lab lab;
	size_t pulled = 0, here = 0;
	int i, ret = EXIT_OK;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return cmd_usage(pull_usage, false);
		if (argv[i][0] == '-')
			return cmd_usage(pull_usage, true);
	}
	if (lab_open(&lab, opts->result_root, opts->store_url, &err) < 0) {
		error("%s", err.buf);
		strbuf_release(&err);
		return EXIT_RUNTIME;
	}
	for (i = 1; i < argc || (i == 1 && argc == 1); i++)
		if (pull_groups(&lab, i < argc ? argv[i] : NULL, &pulled, &here,
				&err) < 0) {
			error("%s", err.buf);
			ret = EXIT_RUNTIME;
			break;
		}
	printf("%zu run%s pulled into '%s', %zu already there\n", pulled,
	       pulled == 1 ? "" : "s", lab.st.root, here);
	lab_close(&lab);
	strbuf_release(&err);
	return ret;
}
#else
int cmd_pull(int argc, char **argv, struct options *opts)
{
	(void)opts;
	return cmd_not_built("pull (it needs libpq)", argc, argv);
}
#endif
