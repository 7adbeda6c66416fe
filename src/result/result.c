/*
 * result.c: the result root on disk (see result.h).  A run lives in
 * <group>/.tmp-<n> while the runner writes it, is parsed and reduced
 * there, and is renamed to <group>/<n> in one step; the group's
 * matrix.json is then rebuilt from the run directories (never appended
 * to, so re-processing is idempotent) and the run indexed, under a group
 * lock so that two perfsift processes finishing runs of one group do not
 * lose each other's column.  Parsing a run is parse_run.c, the group's
 * matrix.json and the index index.c (shared through result/internal.h).
 */
#include "util/compat.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "job/job.h"
#include "result/internal.h"
#include "result/result.h"
#include "store/store.h"
#include "util/fault.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/trust.h"
#include "util/usage.h"
#include "util/xalloc.h"

/* the group's path below the root, in LKP's order */
static const char *const group_keys[] = {
	"testcase", NULL /* path_params */, "tbox_group", "rootfs",
	"kconfig", "compiler", "commit",
};

/* a control character (a newline, an escape) in s, or NULL */
static const char *control_char(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return s;
	return NULL;
}

/*
 * One component of a group's path, from the job: never empty, "." or
 * "..", no '/' -- a job's value must not lead the run outside the root.
 */
static int check_component(const char *key, const char *v, struct strbuf *err)
{
	const char *why;

	if (!*v || !strcmp(v, ".") || !strcmp(v, "..") || strchr(v, '/')) {
		strbuf_addf(err, "%s: '%s' cannot be a directory name", key, v);
		return -1;
	}
	/* a name with a newline breaks every line-based tool reading the root */
	if (control_char(v)) {
		strbuf_addf(err, "%s: a directory name holds no control character "
			    "(byte 0x%02x)", key, (unsigned char)*control_char(v));
		return -1;
	}
	/*
	 * nor bytes that are no UTF-8, nor a C1 control: the run's job.yaml
	 * could not be read back (its parameters lost), and 0x9b is a
	 * terminal's CSI (the third attack, B4)
	 */
	if ((why = trust_utf8_why(v))) {
		strbuf_addf(err, "%s: a directory name is UTF-8 without control "
			    "characters: '", key);
		/* every byte past ASCII escaped: the value is what is wrong */
		for (; *v; v++) {
			if ((unsigned char)*v >= 0x80 || (unsigned char)*v < 0x20 ||
			    *v == '\\')
				strbuf_addf(err, "\\x%02x", (unsigned char)*v);
			else
				strbuf_addch(err, *v);
		}
		strbuf_addf(err, "' holds %s", why);
		return -1;
	}
	/*
	 * A commit is given to git (bisect, the robot, the site's links):
	 * one starting with '-' reads as an option wherever a call lacks
	 * --end-of-options, and a blank at either end is no commit id but
	 * a directory that lists as another (the third attack, L10)
	 */
	if (!strcmp(key, "commit") &&
	    (*v == '-' || *v == ' ' || v[strlen(v) - 1] == ' ')) {
		strbuf_addf(err, "commit: '%s' is no commit id (a leading '-' or "
			    "a blank at either end)", v);
		return -1;
	}
	return 0;
}

/*
 * The group directory with `pp` as its path_params component, in LKP's
 * order (group_keys), so that LKP's tools find perfsift's runs where
 * they look for their own.
 */
static int group_dir_with(const struct job *job, const char *root,
			  const char *pp, struct strbuf *dir, struct strbuf *err)
{
	struct strbuf comp = STRBUF_INIT, out = STRBUF_INIT;
	size_t i;
	int ret = -1;

	strbuf_addstr(&out, root);
	for (i = 0; i < ARRAY_SIZE(group_keys); i++) {
		const char *key = group_keys[i] ? group_keys[i] : "path_params";

		strbuf_reset(&comp);
		if (!group_keys[i]) {
			strbuf_addstr(&comp, pp);
		} else {
			const char *v = job_get(job, key);

			if (!v || !*v) {
				strbuf_addf(err, "%s: '%s' is not set (machine facts "
					    "not filled in?)", job->file, key);
				goto out;
			}
			/* LKP keeps the rootfs's basename */
			if (!strcmp(key, "rootfs"))
				v = path_basename(v);
			strbuf_addstr(&comp, v);
		}
		if (check_component(key, comp.buf, err))
			goto out;
		strbuf_addch(&out, '/');
		strbuf_addbuf(&out, &comp);
	}
	strbuf_addbuf(dir, &out);
	ret = 0;
out:
	strbuf_release(&comp);
	strbuf_release(&out);
	return ret;
}

/*
 * A run (or a run being written, .tmp-<n>) of group_dir whose job is not
 * `identity`: 1 with why naming the parameter, else 0.
 */
static int group_holds_other(const char *group_dir, const char *identity,
			     struct strbuf *why)
{
	struct strbuf run = STRBUF_INIT, id = STRBUF_INIT, key = STRBUF_INIT;
	struct strbuf va = STRBUF_INIT, vb = STRBUF_INIT;
	DIR *d = opendir(group_dir);
	struct dirent *de;
	int ret = 0;

	while (d && !ret && (de = readdir(d))) {
		const char *name = de->d_name;

		if (!strncmp(name, ".tmp-", 5))
			name += 5;
		if (!*name || strspn(name, "0123456789") != strlen(name))
			continue;
		strbuf_reset(&run);
		path_join(&run, group_dir, de->d_name);
		strbuf_reset(&id);
		if (result_run_identity(run.buf, &id) ||
		    !job_identity_diff(id.buf, identity, &key, &va, &vb))
			continue;
		strbuf_addf(why, "run %s differs in '%s' ('%s' / '%s')",
			    de->d_name, key.buf, va.buf, vb.buf);
		ret = 1;
	}
	if (d)
		closedir(d);
	strbuf_release(&run);
	strbuf_release(&id);
	strbuf_release(&key);
	strbuf_release(&va);
	strbuf_release(&vb);
	return ret;
}

/*
 * The group of a job whose name may not be unique: LKP's path_params, and
 * only if another job's runs are there already the name with the
 * identity's hash -- so that the groups of LKP's own runs keep LKP's name.
 */
int result_group_dir(const struct job *job, const char *root,
		     struct strbuf *dir, struct strbuf *err)
{
	struct strbuf pp = STRBUF_INIT, lkp = STRBUF_INIT, id = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
	int ret = -1;

	job_group_params(job, &pp);
	job_path_params(job, &lkp);
	job_identity(job, &id);
	if (group_dir_with(job, root, pp.buf, &out, err))
		goto out;
	if (group_holds_other(out.buf, id.buf, &why)) {
		/*
		 * LKP's name was not unique after all: values alike once
		 * turned to its character class ('a b' and 'a/b'), or a group
		 * an older perfsift or LKP filled.  The suffix tells them apart
		 * as it does cut values.
		 */
		if (strcmp(pp.buf, lkp.buf)) {
			strbuf_addf(err, "'%s' holds another job's runs under "
				    "this job's name (%s)", out.buf, why.buf);
			goto out;
		}
		job_identity_suffix(id.buf, &pp);
		strbuf_reset(&out);
		strbuf_reset(&why);
		if (group_dir_with(job, root, pp.buf, &out, err))
			goto out;
		if (group_holds_other(out.buf, id.buf, &why)) {
			strbuf_addf(err, "'%s' holds another job's runs under "
				    "this job's name (%s)", out.buf, why.buf);
			goto out;
		}
	}
	strbuf_addbuf(dir, &out);
	ret = 0;
out:
	strbuf_release(&pp);
	strbuf_release(&lkp);
	strbuf_release(&id);
	strbuf_release(&out);
	strbuf_release(&why);
	return ret;
}

/*
 * Mark tmp as ours: <tmp>/.owner, flock'd for as long as this process (or
 * a child it forks without exec) lives.  The file is locked before it gets
 * its name, so a visible .owner that is not locked is a dead owner's.
 * Returns the fd, or -1 (no mark: the directory is then never reclaimed).
 */
int result_take_ownership(const char *tmp)
{
	struct strbuf path = STRBUF_INIT, final = STRBUF_INIT;
	int fd;

	path_join(&path, tmp, ".owner.new");
	path_join(&final, tmp, ".owner");
	fd = open(path.buf, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd >= 0 && (flock(fd, LOCK_EX) < 0 || rename(path.buf, final.buf) < 0)) {
		unlink(path.buf);
		close(fd);
		fd = -1;
	}
	if (fd >= 0) {
		char pid[32];
		int len = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());

		/* the pid is for people; the lock is what counts */
		if (write(fd, pid, (size_t)len) != len) {
			/* nothing to do: a short write changes nothing */
		}
	}
	strbuf_release(&path);
	strbuf_release(&final);
	return fd;
}

/*
 * tmp exists: when its .owner is not locked, its perfsift is dead; move
 * the directory aside (rename: one reclaimer wins) and remove it.  True
 * when tmp is gone and its number free again.
 */
bool result_reclaim_stale(const char *tmp, const char *group_dir, int n)
{
	struct strbuf owner = STRBUF_INIT, aside = STRBUF_INIT;
	bool ret = false;
	int fd;

	path_join(&owner, tmp, ".owner");
	fd = open(owner.buf, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && !flock(fd, LOCK_EX | LOCK_NB)) {
		strbuf_addf(&aside, "%s/.stale-%d-%ld", group_dir, n,
			    (long)getpid());
		if (!rename(tmp, aside.buf)) {
			remove_tree(aside.buf);
			ret = true;
		}
	}
	if (fd >= 0)
		close(fd);
	strbuf_release(&owner);
	strbuf_release(&aside);
	return ret;
}

/*
 * The lowest free run number, reserved by making .tmp-<n>: mkdir is
 * atomic, so two perfsift processes starting runs of one group at once
 * never get the same number, and no lock is held while the run runs.
 */
int result_run_begin(struct result_run *run, const char *group_dir,
		     struct strbuf *err)
{
	struct strbuf final = STRBUF_INIT, tmp = STRBUF_INIT;
	struct stat st;
	int n, ret = -1;

	memset(run, 0, sizeof(*run));
	run->owner_fd = -1;
	if (mkdir_p(group_dir, 0777) < 0) {
		strbuf_addf(err, "cannot create '%s': %s", group_dir,
			    strerror(errno));
		goto out;
	}
	for (n = 0; n < MAX_RUNS; n++) {
		strbuf_reset(&final);
		strbuf_addf(&final, "%s/%d", group_dir, n);
		if (!lstat(final.buf, &st))
			continue;
		strbuf_reset(&tmp);
		strbuf_addf(&tmp, "%s/.tmp-%d", group_dir, n);
		/* mkdir is the reservation: only one process can make it */
		if (mkdir(tmp.buf, 0777) < 0) {
			if (errno == EEXIST) {
				/* a dead perfsift's: try this number again */
				if (result_reclaim_stale(tmp.buf, group_dir, n))
					n--;
				continue;
			}
			strbuf_addf(err, "cannot create '%s': %s", tmp.buf,
				    strerror(errno));
			goto out;
		}
		/*
		 * Another perfsift may have renamed its .tmp-<n> to <n> between
		 * our lstat and our mkdir: then <n> is taken after all.
		 */
		if (!lstat(final.buf, &st)) {
			rmdir(tmp.buf);
			continue;
		}
		run->group_dir = xstrdup(group_dir);
		run->number = n;
		run->owner_fd = result_take_ownership(tmp.buf);
		run->tmp_dir = strbuf_detach(&tmp, NULL);
		run->dir = strbuf_detach(&final, NULL);
		ret = 0;
		goto out;
	}
	strbuf_addf(err, "'%s': no free run number", group_dir);
out:
	strbuf_release(&final);
	strbuf_release(&tmp);
	return ret;
}

/* closing the fd lets go of the .owner lock: the directory is no one's */
static void drop_ownership(struct result_run *run)
{
	if (run->tmp_dir && run->owner_fd >= 0)
		close(run->owner_fd);
	run->owner_fd = -1;
}

void result_run_abort(struct result_run *run)
{
	if (run->tmp_dir)
		remove_tree(run->tmp_dir);
	drop_ownership(run);
	FREE_AND_NULL(run->tmp_dir);
}

void result_run_release(struct result_run *run)
{
	drop_ownership(run);
	free(run->group_dir);
	free(run->tmp_dir);
	free(run->dir);
	free(run->kpi_missing);
	memset(run, 0, sizeof(*run));
}

/* LKP's last_state: "is_incomplete_run: 1" marks a cut run */
bool result_run_incomplete(const char *run_dir)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	const char *p;
	bool ret = false;

	path_join(&path, run_dir, "last_state");
	if (strbuf_read_file(&text, path.buf, 1 << 20) < 0)
		goto out;
	for (p = text.buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *key = "is_incomplete_run:";

		if (!strncmp(p, key, strlen(key))) {
			long long v;
			struct strbuf val = STRBUF_INIT;
			const char *eol = strchrnul(p, '\n'), *why;

			strbuf_add(&val, p + strlen(key),
				   (size_t)(eol - p) - strlen(key));
			strbuf_trim(&val);
			if (!strnum_ll(val.buf, 0, 1, &v, &why) && v == 1)
				ret = true;
			strbuf_release(&val);
		}
	}
out:
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

/*
 * An exclusive lock on <group>/.lock; the fd, or -1 with err.  flock,
 * not a lock file made and removed: the kernel drops it when its process
 * dies, so a killed perfsift never leaves a group locked.
 */
static int lock_group(const char *group_dir, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	int fd;

	path_join(&path, group_dir, ".lock");
	fd = open(path.buf, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0 || flock(fd, LOCK_EX) < 0) {
		strbuf_addf(err, "cannot lock '%s': %s", path.buf, strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	strbuf_release(&path);
	return fd;
}

int result_cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

bool result_is_run_number(const char *name)
{
	/* "0", "1", ... as LKP numbers runs: "0123" is a commit, not run 83 */
	return name[0] >= '0' && name[0] <= '9' &&
	       strspn(name, "0123456789") == strlen(name) &&
	       (name[0] != '0' || !name[1]);
}

/* the run numbers present in group_dir (directories named by digits), sorted */
int result_group_runs(const char *group_dir, int **nums, size_t *n,
		      struct strbuf *err)
{
	DIR *d = opendir(group_dir);
	struct dirent *de;
	size_t alloc = 0;

	*nums = NULL;
	*n = 0;
	if (!d) {
		strbuf_addf(err, "cannot read '%s': %s", group_dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		long long v;
		const char *why;
		struct strbuf p = STRBUF_INIT;
		struct stat st;

		if (!result_is_run_number(de->d_name) ||
		    strnum_ll(de->d_name, 0, MAX_RUNS, &v, &why))
			continue;
		path_join(&p, group_dir, de->d_name);
		/* a symbolic link is not a run: it may lead out of the root */
		if (!lstat(p.buf, &st) && S_ISDIR(st.st_mode)) {
			ALLOC_GROW(*nums, *n + 1, alloc);
			(*nums)[(*n)++] = (int)v;
		}
		strbuf_release(&p);
	}
	closedir(d);
	if (*n)
		qsort(*nums, *n, sizeof(**nums), result_cmp_int);
	return 0;
}

/* a run is told apart by its job.yaml's identity: none, none to tell */
int result_run_identity(const char *run_dir, struct strbuf *out)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	struct job **jobs = NULL;
	size_t njobs = 0;
	int ret = -1;

	path_join(&path, run_dir, "job.yaml");
	/* the lenient reader: LKP's job.yaml names programs perfsift lacks */
	if (file_exists(path.buf) &&
	    !job_read_file(path.buf, &jobs, &njobs, &err) && njobs == 1) {
		job_identity(jobs[0], out);
		ret = 0;
	}
	job_free_all(jobs, njobs);
	strbuf_release(&path);
	strbuf_release(&err);
	return ret;
}

/*
 * Every run against the first one with a job.yaml: a group is mixed as
 * soon as one run differs, and the message names the first such pair.
 */
int result_group_mixed(const char *group_dir, struct strbuf *why)
{
	struct strbuf first = STRBUF_INIT, id = STRBUF_INIT, run = STRBUF_INIT;
	struct strbuf key = STRBUF_INIT, va = STRBUF_INIT, vb = STRBUF_INIT;
	struct strbuf ignore = STRBUF_INIT;
	int *nums = NULL, first_num = -1, ret = 0;
	size_t n = 0, i;

	if (result_group_runs(group_dir, &nums, &n, &ignore))
		n = 0;
	for (i = 0; i < n && !ret; i++) {
		strbuf_reset(&run);
		strbuf_addf(&run, "%s/%d", group_dir, nums[i]);
		strbuf_reset(&id);
		if (result_run_identity(run.buf, &id))
			continue; /* no job.yaml: nothing to tell */
		if (first_num < 0) {
			first_num = nums[i];
			strbuf_addbuf(&first, &id);
		} else if (job_identity_diff(first.buf, id.buf, &key, &va,
					     &vb)) {
			strbuf_addf(why, "runs %d and %d differ in '%s' "
				    "('%s' / '%s')", first_num, nums[i],
				    key.buf, va.buf, vb.buf);
			ret = 1;
		}
	}
	free(nums);
	strbuf_release(&first);
	strbuf_release(&id);
	strbuf_release(&run);
	strbuf_release(&key);
	strbuf_release(&va);
	strbuf_release(&vb);
	strbuf_release(&ignore);
	return ret;
}

/*
 * path is inside root (both real paths): only those runs are indexed,
 * since the index stores their place relative to the root.
 */
static bool below(const char *root, const char *path)
{
	size_t n = strlen(root);

	return !strcmp(root, "/") ||
	       (!strncmp(path, root, n) && path[n] == '/');
}

/* absolute and without symbolic links, so the index matches the root */
static char *real_dir(const char *dir)
{
	char *r = realpath(dir, NULL);

	return r ? r : xstrdup(dir);
}

/*
 * A finished run: its last_state marked when it was cut, then parsed and
 * written in .tmp-<n>, renamed to <n> in one step (nothing half-written is
 * ever visible), and published under the group lock.  The order is the
 * point: a kill at any step leaves either no run or a whole one.
 */
/* append mark to the run's last_state: 0, or -1 with err */
static int mark_state(struct result_run *run, const char *mark,
		      struct strbuf *path, struct strbuf *err)
{
	strbuf_reset(path);
	path_join(path, run->tmp_dir, "last_state");
	if (file_put(path->buf, O_WRONLY | O_CREAT | O_APPEND, 0666, mark,
		     strlen(mark), NULL) < 0) {
		strbuf_addf(err, "cannot write '%s': %s", path->buf,
			    strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The declared KPI patterns ("a, b"), when no stat matches any of them:
 * the run measured nothing it is judged by.  NULL when one matches (a
 * KPI one side lacks is compare's "gone" or "new", not a failed run).
 */
static char *kpi_missing(const struct result_run *run,
			 const struct reduce_stats *st)
{
	struct strbuf list = STRBUF_INIT;
	size_t k, i;

	for (k = 0; k < run->nkpi; k++) {
		for (i = 0; i < st->n; i++)
			if (!fnmatch(run->kpi_patterns[k], st->items[i].name, 0))
				return NULL;
		strbuf_addf(&list, "%s%s", k ? ", " : "", run->kpi_patterns[k]);
	}
	if (!run->nkpi)
		return NULL;
	return strbuf_detach(&list, NULL);
}

/*
 * .tmp-<n> renamed to <n>, under the group lock.  When <n> is there
 * already -- made by no perfsift, which all reserve .tmp-<n> first (a
 * hand copy, a directory made by the job itself) -- the run takes the
 * next number that neither a run nor a reservation holds: failing, it
 * stayed in .tmp-<n> with its .owner gone, for ever (the third attack's
 * listed item).  0, or -1 with err.
 */
static int publish_rename(struct result_run *run, struct strbuf *err)
{
	struct strbuf final = STRBUF_INIT, tmp = STRBUF_INIT;
	struct stat st;
	int n = run->number, ret = -1;

	while (renameat2(AT_FDCWD, run->tmp_dir, AT_FDCWD, run->dir,
			 RENAME_NOREPLACE) < 0) {
		if (errno != EEXIST && errno != ENOTEMPTY) {
			strbuf_addf(err, "cannot rename '%s' to '%s': %s",
				    run->tmp_dir, run->dir, strerror(errno));
			goto out;
		}
		for (n++; n < MAX_RUNS; n++) {
			strbuf_reset(&final);
			strbuf_reset(&tmp);
			strbuf_addf(&final, "%s/%d", run->group_dir, n);
			strbuf_addf(&tmp, "%s/.tmp-%d", run->group_dir, n);
			if (lstat(final.buf, &st) < 0 && errno == ENOENT &&
			    lstat(tmp.buf, &st) < 0 && errno == ENOENT)
				break;
		}
		if (n >= MAX_RUNS) {
			strbuf_addf(err, "cannot rename '%s' to '%s' (taken) nor "
				    "to a later number: '%s' has no free run "
				    "number", run->tmp_dir, run->dir,
				    run->group_dir);
			goto out;
		}
		warning("'%s' was taken by something not a perfsift run: this "
			"run is %d", trust_shown(run->dir), n);
		free(run->dir);
		run->dir = strbuf_detach(&final, NULL);
		run->number = n;
	}
	ret = 0;
out:
	strbuf_release(&final);
	strbuf_release(&tmp);
	return ret;
}

int result_run_finish(struct result_run *run, const char *root,
		      const char *store_url, bool complete, struct strbuf *err)
{
	struct run_output o;
	struct strbuf path = STRBUF_INIT;
	char *rroot = NULL, *group = NULL, *dir = NULL;
	int lock = -1, ret = -1;

	run_output_init(&o);
	if (!run->tmp_dir)
		BUG("result_run_finish() without a temporary directory");
	if (!complete && mark_state(run, "is_incomplete_run: 1\n", &path, err))
		goto out;
	ret = result_parse_run(run->tmp_dir, !complete, &o, err);
	if (ret)
		goto out;
	FREE_AND_NULL(run->kpi_missing);
	if (complete && (run->kpi_missing = kpi_missing(run, &o.stats))) {
		/* ended well but measured nothing it is judged by: failed */
		complete = false;
		ret = -1;
		if (mark_state(run, "kpi_missing: 1\nis_incomplete_run: 1\n",
			       &path, err))
			goto out;
		run_output_release(&o);
		run_output_init(&o);
		ret = result_parse_run(run->tmp_dir, true, &o, err);
		if (ret)
			goto out;
	}
	ret = -1;
	if (result_write_output(run->tmp_dir, &o, NULL, err))
		goto out;
	lock = lock_group(run->group_dir, err);
	if (lock < 0)
		goto out;
	path_join(&path, run->tmp_dir, ".owner");
	unlink(path.buf); /* still locked until the rename is done */
	if (publish_rename(run, err))
		goto out;
	drop_ownership(run);
	FREE_AND_NULL(run->tmp_dir); /* in place now: abort must not touch it */
	fsync_dir(run->group_dir);
	/*
	 * Visible, not yet indexed: a kill here is repaired by the next
	 * command that reads the root (result_sync_index()).
	 */
	fault_point("after-publish");
	rroot = real_dir(root);
	group = real_dir(run->group_dir);
	dir = real_dir(run->dir);
	ret = result_publish_run(rroot, store_url, group, dir, run->number,
				 complete, &o.stats, true, err);
	if (ret == -2)
		ret = -1; /* the run is in place: not a bad raw file of its own */
out:
	if (lock >= 0)
		close(lock);
	run_output_release(&o);
	strbuf_release(&path);
	free(rroot);
	free(group);
	free(dir);
	return ret;
}

/*
 * A run parsed again (`perfsift stats`): every file is parsed before any
 * is written, so a bad raw file leaves the run as it was; a run outside
 * the root gets its group's files rebuilt but is not indexed.
 */
static int restat(const char *run_dir, const char *root,
		  const char *store_url, bool forget, struct result_kept *k,
		  struct strbuf *err)
{
	struct run_output o;
	struct strbuf group = STRBUF_INIT;
	char *rroot = NULL, *dir = NULL;
	const char *base, *why;
	long long number;
	bool complete, wrote = false;
	int lock = -1, ret = -1;

	run_output_init(&o);
	if (!dir_exists(run_dir)) {
		strbuf_addf(err, "'%s' is not a directory", run_dir);
		ret = -2;
		goto out;
	}
	dir = real_dir(run_dir);
	base = path_basename(dir);
	if (!result_is_run_number(base) ||
	    strnum_ll(base, 0, MAX_RUNS, &number, &why)) {
		strbuf_addf(err, "'%s' is not a run directory (its name is not "
			    "a run number)", run_dir);
		ret = -2;
		goto out;
	}
	complete = !result_run_incomplete(dir);
	/* everything is parsed before anything is written */
	ret = result_parse_run(dir, false, &o, err);
	if (!ret)
		ret = result_keep_what_is_there(dir, &o, err);
	if (ret < 0)
		goto out;
	if (!ret && result_write_output(dir, &o, &wrote, err)) {
		ret = -1;
		goto out;
	}
	ret = -1;
	path_dirname(&group, dir);
	rroot = real_dir(root);
	if (k && !wrote && below(rroot, dir)) {
		/*
		 * push: the run's files hold what they would be rewritten
		 * to, so its group's matrix.json and the root's index of it
		 * (the run was found there) stand as they are.  Rebuilding
		 * the matrix for each run read every run of the group each
		 * time: a push of a group cost its size squared.
		 */
		ret = 0;
		goto keep;
	}
	lock = lock_group(group.buf, err);
	if (lock < 0)
		goto out;
	if (!below(rroot, dir)) {
		/* a copied LKP run, say: rebuild its group's files only */
		int *nums = NULL;
		size_t n = 0;

		if (k) {
			strbuf_addf(err, "'%s' is not below the result root '%s'",
				    run_dir, rroot);
			goto out;
		}

		note("'%s' is not below the result root '%s': not indexed",
		     run_dir, rroot);
		ret = result_group_runs(group.buf, &nums, &n, err);
		if (!ret)
			ret = result_rebuild_matrix(group.buf, nums, n, err);
		free(nums);
		goto out;
	}
	ret = result_publish_run(rroot, store_url, group.buf, dir, (int)number,
				 complete, &o.stats, forget, err);
keep:
	if (!ret && k) {
		k->root = rroot;
		rroot = NULL;
		k->dir = dir;
		dir = NULL;
		k->group = strbuf_detach(&group, NULL);
		k->number = (int)number;
		k->complete = complete;
		k->stats = xmalloc(sizeof(*k->stats));
		*k->stats = o.stats;
		reduce_stats_init(&o.stats);
	}
out:
	if (lock >= 0)
		close(lock);
	run_output_release(&o);
	strbuf_release(&group);
	free(rroot);
	free(dir);
	return ret;
}

int result_restat(const char *run_dir, const char *root,
		  const char *store_url, struct strbuf *err)
{
	return restat(run_dir, root, store_url, true, NULL, err);
}

int result_restat_shared(const char *run_dir, const char *root,
			 const char *store_url, struct strbuf *err)
{
	return restat(run_dir, root, store_url, false, NULL, err);
}

int result_restat_keep(const char *run_dir, const char *root,
		       struct result_kept *k, struct strbuf *err)
{
	memset(k, 0, sizeof(*k));
	return restat(run_dir, root, NULL, false, k, err);
}

int result_refresh_matrix(const char *group_dir, struct strbuf *err)
{
	int *nums = NULL, lock = lock_group(group_dir, err), ret = -1;
	size_t n = 0;

	if (lock < 0)
		return -1;
	if (!result_group_runs(group_dir, &nums, &n, err))
		ret = result_rebuild_matrix(group_dir, nums, n, err);
	free(nums);
	close(lock);
	return ret;
}

void result_kept_release(struct result_kept *k)
{
	free(k->root);
	free(k->dir);
	free(k->group);
	if (k->stats)
		reduce_stats_release(k->stats);
	free(k->stats);
	memset(k, 0, sizeof(*k));
}

/*
 * Every run of a group parsed again, then the group's matrix.json and the
 * index once for all of them (one lock, one store connection): a group
 * of many runs is not rebuilt once per run.
 */
int result_restat_group(const char *group_dir, const char *root,
			const char *store_url, size_t *done, struct strbuf *err)
{
	struct index_item *items = NULL;
	struct reduce_stats *stats = NULL;
	char **dirs = NULL;
	char *group = real_dir(group_dir), *rroot = real_dir(root);
	int *nums = NULL, lock = -1, ret = 0, r;
	size_t n = 0, nitems = 0, i;

	*done = 0;
	if (result_group_runs(group, &nums, &n, err)) {
		ret = -1;
		goto out;
	}
	items = xcalloc(n ? n : 1, sizeof(*items));
	stats = xcalloc(n ? n : 1, sizeof(*stats));
	dirs = xcalloc(n ? n : 1, sizeof(*dirs));
	for (i = 0; i < n; i++) {
		struct run_output o;
		struct strbuf why = STRBUF_INIT;

		dirs[i] = xasprintf("%s/%d", group, nums[i]);
		reduce_stats_init(&stats[i]);
		run_output_init(&o);
		r = result_parse_run(dirs[i], false, &o, &why);
		if (!r)
			r = result_keep_what_is_there(dirs[i], &o, &why);
		if (!r && result_write_output(dirs[i], &o, NULL, &why))
			r = -1;
		if (r > 0)
			r = 0; /* nothing to write */
		if (r) {
			/* one bad run does not stop its group */
			error("%s", why.buf);
			if (r == -2 || ret != -2)
				ret = r;
		} else {
			stats[i] = o.stats;
			reduce_stats_init(&o.stats);
			items[nitems].dir = dirs[i];
			items[nitems].number = nums[i];
			items[nitems].complete = !result_run_incomplete(dirs[i]);
			items[nitems].stats = &stats[i];
			nitems++;
		}
		run_output_release(&o);
		strbuf_release(&why);
	}
	lock = lock_group(group, err);
	if (lock < 0) {
		ret = -1;
		goto out;
	}
	r = result_rebuild_matrix(group, nums, n, err);
	if (r) {
		ret = r;
		goto out;
	}
	if (!strcmp(rroot, group)) {
		note("'%s' holds runs but is the result root itself, not a group "
		     "below it: not indexed", group_dir);
	} else if (!below(rroot, group)) {
		note("'%s' is not below the result root '%s': not indexed",
		     group_dir, rroot);
	} else if (result_index_runs(rroot, store_url, group, nums, n, items, nitems,
				     err)) {
		ret = -1;
		goto out;
	}
	*done = nitems;
out:
	if (lock >= 0)
		close(lock);
	for (i = 0; i < n; i++) {
		free(dirs[i]);
		reduce_stats_release(&stats[i]);
	}
	free(dirs);
	free(stats);
	free(items);
	free(nums);
	free(group);
	free(rroot);
	return ret;
}

/*
 * Forget the index's groups that hold no run on disk any more: their
 * directories were deleted by hand, which the index cannot see.
 */
int result_prune_index(const char *root, const char *store_url,
		       size_t *forgotten, struct strbuf *err)
{
	struct store st;
	struct store_group_list l = {0};
	size_t i;
	int ret = -1;

	*forgotten = 0;
	if (store_open(&st, root, store_url, 0, err))
		return -1;
	if (store_find_groups_text(&st, NULL, &l, err))
		goto out;
	for (i = 0; i < l.n; i++) {
		int *nums = NULL;
		size_t n = 0;
		struct strbuf why = STRBUF_INIT;

		if (dir_exists(l.items[i].dir))
			result_group_runs(l.items[i].dir, &nums, &n, &why);
		free(nums);
		strbuf_release(&why);
		if (n)
			continue;
		if (store_forget_group(&st, l.items[i].id, err))
			goto out;
		(*forgotten)++;
	}
	ret = 0;
out:
	store_group_list_release(&l);
	store_close(&st);
	return ret;
}
