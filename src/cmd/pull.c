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
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "builtin.h"
#include "lab/lab.h"
#include "result/result.h"
#include "util/fault.h"
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

/*
 * Reserve run number n of group gdir as a local run does (result.c
 * result_run_begin(): mkdir of .tmp-<n> is the reservation), so that a
 * `perfsift run` of the same group never gets a number pull is writing,
 * nor pull one a run holds.  A run that held it could not publish after
 * pull had written <n>, and stayed in .tmp-<n> for ever (the third
 * attack, C1).  1 reserved (*res the directory), 0 taken (said), -1.
 */
static int reserve(const char *gdir, const char *group_rel, int n,
		   const char *final, struct strbuf *res, int *owner,
		   struct strbuf *err)
{
	struct stat st;
	bool made;

	if (mkdir_p(gdir, 0777) < 0) {
		strbuf_addf(err, "cannot create '%s': %s", gdir, strerror(errno));
		return -1;
	}
	strbuf_addf(res, "%s/.tmp-%d", gdir, n);
	/*
	 * A killed pull's (or run's) reservation, its .owner unlocked, is
	 * taken back here too: else that run was never pulled again and its
	 * .tmp-<n> stayed for ever, unless a local run of the very group came
	 * (the fourth attack, docs/attack-4.md)
	 */
	made = !mkdir(res->buf, 0700);
	if (!made && errno == EEXIST) {
		if (result_reclaim_stale(res->buf, gdir, n))
			made = !mkdir(res->buf, 0700);
		else
			errno = EEXIST; /* the reclaim's own errno is no cause */
	}
	if (!made) {
		if (errno != EEXIST) {
			strbuf_addf(err, "cannot create '%s': %s", res->buf,
				    strerror(errno));
			strbuf_reset(res);
			return -1;
		}
		warning("%s/%d: a run of that number is being written here "
			"(or was left by a killed perfsift): not pulled; pull "
			"again when it is done", trust_shown(group_rel), n);
		strbuf_reset(res);
		return 0;
	}
	/* locked as a run's: a killed pull's is reclaimed by the next run or pull */
	*owner = result_take_ownership(res->buf);
	/* made between the caller's look and the mkdir: taken after all */
	if (!lstat(final, &st))
		return 0;
	return 1;
}

/* sb one directory up ("a/b" -> "a", "a" -> "") */
static void path_up(struct strbuf *sb)
{
	char *slash = strrchr(sb->buf, '/');

	strbuf_setlen(sb, slash && slash != sb->buf ? (size_t)(slash - sb->buf) : 0);
}

/* the reservation let go: .owner, then the directory, then the lock */
static void unreserve(struct strbuf *res, int owner)
{
	struct strbuf path = STRBUF_INIT;

	if (res->len) {
		path_join(&path, res->buf, ".owner");
		unlink(path.buf);
		rmdir(res->buf);
	}
	if (owner >= 0)
		close(owner);
	strbuf_release(&path);
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
	struct strbuf tmp = STRBUF_INIT, gdir = STRBUF_INIT, res = STRBUF_INIT;
	struct strbuf made = STRBUF_INIT;
	size_t n = 0;
	int ret = -1, owner = -1;

	if (check_dirs(lab, r, group_rel, err) < 0)
		return -1;
	if (dir_exists(r->dir))
		return 0;
	path_dirname(&gdir, r->dir);
	/* the directories reserve() makes go again if nothing is pulled */
	strbuf_addbuf(&made, &gdir);
	while (made.len && !dir_exists(made.buf))
		path_up(&made);
	ret = reserve(gdir.buf, group_rel, r->number, r->dir, &res, &owner, err);
	if (ret <= 0)
		goto out;
	ret = -1;
	/*
	 * written inside the reservation, so that a killed pull's files go
	 * with it when it is reclaimed (a .pull-<n>-<pid> beside it stayed)
	 */
	path_join(&tmp, res.buf, "run");
	if (lab_get_run_files(lab, group_rel, r->number, tmp.buf, &n, err) < 0)
		goto out;
	if (!n) {
		warning("%s/%d: the store has no files of this run (indexed "
			"without them)", group_rel, r->number);
		ret = 0;
		goto out;
	}
	fault_point("pull-files-written");
	/* the run is data: no plug-in of it or below it is ever run */
	if (trust_mark_pulled(tmp.buf, pulled_note, err) < 0)
		goto out;
	if (renameat2(AT_FDCWD, tmp.buf, AT_FDCWD, r->dir, RENAME_NOREPLACE) < 0) {
		strbuf_addf(err, "cannot rename '%s' to '%s': %s", tmp.buf, r->dir,
			    strerror(errno));
		goto out;
	}
	ret = 1;
out:
	if (tmp.len)
		remove_tree(tmp.buf);
	unreserve(&res, owner);
	/* "nothing of it written": not even its group's directories */
	while (ret != 1 && gdir.len && strcmp(gdir.buf, made.buf) &&
	       !rmdir(gdir.buf))
		path_up(&gdir);
	strbuf_release(&tmp);
	strbuf_release(&gdir);
	strbuf_release(&res);
	strbuf_release(&made);
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
