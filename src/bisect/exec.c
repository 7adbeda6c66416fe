/*
 * exec.c: bisect's ops on the real world (see bisect/exec.h).  The
 * job runs through `perfsift run` as a child process rather than in
 * process: the runner owns signals, knobs and monitors, and a crash of a
 * benchmark or of the runner costs one sample, not the bisect.
 */
#include "util/compat.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bisect/bisect.h"
#include "bisect/exec.h"
#include "bisect/git.h"
#include "result/matrix.h"
#include "result/reduce.h"
#include "result/result.h"
#include "select/select.h"
#include "store/store.h"
#include "util/fileutil.h"
#include "util/hash.h"
#include "util/short_sha.h"
#include "util/spawn.h"
#include "util/strbuf.h"
#include "util/trust.h"
#include "util/usage.h"
#include "util/xalloc.h"

/* the one mutable global: set by the signal handler */
static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

void bisect_exec_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

bool bisect_exec_interrupted(void)
{
	return stop_requested != 0;
}

/*
 * What the samples op keeps of a commit between its calls: the runs it
 * took (the store's matrix builder: each run's stats, packed) and the
 * number of the newest.  A bisect step asks for a party's samples after
 * each of its runs, up to --max-runs (~120) a party: reading them all
 * again each time is O(n^2) reads.  Kept, a call reads the run list and
 * only the runs completed since, and unites the columns in memory: the
 * matrix a full load gives (the same builder, the same unite rules).
 * The start time of each run taken is kept beside it.
 */
struct exec_seen {
	char *sha;
	int64_t group;  /* its group's id; 0 until it has runs */
	int last;       /* the number of the newest run taken, -1: none */
	struct store_matrix_builder b;
	double *start;  /* the first nstart runs' start times (x_starts) */
	size_t nstart;
};

static void seen_forget(struct exec_seen *s)
{
	store_matrix_builder_release(&s->b);
	store_matrix_builder_init(&s->b);
	FREE_AND_NULL(s->start);
	s->nstart = 0;
	s->last = -1;
}

int bisect_exec_init(struct bisect_exec *x, const char *wt_base,
		     struct strbuf *err)
{
	char buf[4096];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	int i;

	if (n <= 0) {
		strbuf_addf(err, "cannot find the perfsift binary: %s",
			    strerror(errno));
		return -1;
	}
	buf[n] = '\0';
	x->self = xstrdup(buf);
	for (i = 0; i < BISECT_SLOTS; i++) {
		x->prepared[i] = NULL;
		/* a kernel tree is built in one place, incrementally */
		x->wt[i] = wt_base ? xasprintf("%s/wt%d", wt_base,
					       x->kernel ? 0 : i) :
				     NULL;
	}
	x->group = NULL;
	x->installed = NULL;
	x->store = NULL;
	x->seen = NULL;
	x->nseen = x->alloc_seen = 0;
	x->state_dir = wt_base ? xstrdup(wt_base) : NULL;
	return 0;
}

void bisect_exec_release(struct bisect_exec *x)
{
	int i;

	FREE_AND_NULL(x->self);
	FREE_AND_NULL(x->group);
	FREE_AND_NULL(x->state_dir);
	FREE_AND_NULL(x->installed);
	for (i = 0; i < BISECT_SLOTS; i++) {
		FREE_AND_NULL(x->wt[i]);
		FREE_AND_NULL(x->prepared[i]);
	}
	if (x->store) {
		store_close(x->store);
		FREE_AND_NULL(x->store);
	}
	for (i = 0; i < (int)x->nseen; i++) {
		seen_forget(&x->seen[i]);
		free(x->seen[i].sha);
	}
	FREE_AND_NULL(x->seen);
	x->nseen = x->alloc_seen = 0;
}

/* the notes a bisect resumes from (x_recall, x_confirm_base, x_step_base) */
static const char *const note_files[] = { "log", "confirm", "step" };

static void remove_notes(struct bisect_exec *x)
{
	struct strbuf path = STRBUF_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(note_files); i++) {
		path_join(&path, x->state_dir, note_files[i]);
		unlink(path.buf);
	}
	strbuf_release(&path);
}

int bisect_exec_own_notes(struct bisect_exec *x, const char *good,
			  const char *bad, const char *stat, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, owner = STRBUF_INIT,
		      had = STRBUF_INIT, job = STRBUF_INIT;
	const char *const *c;
	bool notes = false;
	size_t i;
	int ret = 0;

	if (!x->state_dir)
		return 0;
	/*
	 * Everything the notes' verdicts and run counts are relative to:
	 * the runs (result root or store, the job's text: its group), the
	 * range and stat judged, and what made each commit's runs
	 */
	if (strbuf_read_file(&job, x->job, 0) < 0)
		strbuf_reset(&job);
	strbuf_addf(&owner, "repo %s\nresult_root %s\nstore %s\n"
		    "job %s %016llx\ngood %s\nbad %s\nstat %s\n",
		    x->repo, x->result_root, x->store_url ? x->store_url : "-",
		    x->job,
		    (unsigned long long)fnv1a64(FNV1A64_INIT, job.buf, job.len),
		    good, bad, stat ? stat : "-");
	strbuf_addf(&owner, "build %s\ninstall %s\nkernel %s\ncmd",
		    x->build ? x->build : "-", x->install ? x->install : "-",
		    x->kernel ? x->kernel : "-");
	for (c = x->cmd; c && *c; c++)
		strbuf_addf(&owner, " %s", *c);
	strbuf_addch(&owner, '\n');
	for (i = 0; i < ARRAY_SIZE(note_files); i++) {
		path_join(&path, x->state_dir, note_files[i]);
		notes |= file_exists(path.buf);
	}
	path_join(&path, x->state_dir, "owner");
	if (strbuf_read_file(&had, path.buf, 1 << 16) < 0)
		strbuf_reset(&had);
	if (!strcmp(had.buf, owner.buf))
		goto out; /* this bisect's own: it resumes from them */
	if (notes) {
		note("the notes in '%s' are another bisect's (%s): not used, "
		     "removed", x->state_dir,
		     had.len ? "its arguments or runs differ" :
			       "no owner: an older perfsift's, or cut short");
		remove_notes(x);
	}
	if (write_file_atomic(path.buf, owner.buf, owner.len)) {
		strbuf_addf(err, "cannot write '%s': %s", path.buf,
			    strerror(errno));
		ret = -1;
	}
out:
	strbuf_release(&path);
	strbuf_release(&owner);
	strbuf_release(&had);
	strbuf_release(&job);
	return ret;
}

void bisect_exec_cleanup(struct bisect_exec *x)
{
	struct strbuf err = STRBUF_INIT;
	int i;

	for (i = 0; i < BISECT_SLOTS; i++) {
		if (!x->wt[i] || x->keep_worktrees)
			continue;
		/* removed by git as the mirror's owner: its files must be too */
		if (x->user && dir_exists(x->wt[i]) &&
		    spawn_chown_tree(x->wt[i], x->user->uid, x->user->gid, &err) < 0) {
			warning("%s", err.buf);
			strbuf_reset(&err);
		}
		if (bisect_git_worktree_remove(x->repo, x->wt[i], &err) < 0)
			warning("cannot remove worktree '%s': %s", x->wt[i],
				err.buf);
		strbuf_reset(&err);
	}
	if (x->state_dir) {
		struct strbuf path = STRBUF_INIT;

		remove_notes(x);
		path_join(&path, x->state_dir, "owner");
		unlink(path.buf);
		path_join(&path, x->state_dir, "kernels");
		/* the built kernels go with the built tree */
		if (!x->keep_worktrees && dir_exists(path.buf) &&
		    remove_tree(path.buf) < 0)
			warning("cannot remove '%s'", path.buf);
		strbuf_release(&path);
		rmdir(x->state_dir);
	}
	strbuf_release(&err);
}

/*
 * The end of a step that ran as x->user: nothing of that user's may be
 * left running (a daemon of the build could change the tree between the
 * build and root's run), whatever its cgroup or session; said when
 * something was.  0, or -1 with why when some process of the user
 * outlived its SIGKILL: the tree is then not handed to root's run.
 */
static int end_user_step(const struct bisect_exec *x, const char *what,
			 const char *sha, struct strbuf *why)
{
	struct strbuf killed = STRBUF_INIT, left = STRBUF_INIT;
	size_t n;
	int ret = spawn_kill_user(x->user, &n, &killed, &left);

	if (n)
		warning("%.*s: the %s left %zu process%s of user %s running, "
			"killed: %s",
			SHORT_SHA_LEN, sha, what, n, n == 1 ? "" : "es",
			x->user->name, killed.buf);
	if (ret < 0) {
		warning("%.*s: still alive after SIGKILL, of user %s: %s",
			SHORT_SHA_LEN, sha, x->user->name, left.buf);
		strbuf_addf(why, "processes of user %s outlived their SIGKILL "
			    "after the %s of %.*s (%s): the tree is not run",
			    x->user->name, what, SHORT_SHA_LEN, sha, left.buf);
	}
	strbuf_release(&killed);
	strbuf_release(&left);
	return ret;
}

/* run the user's --build / --install command in dir: 0, 1 skip, -1 */
static int user_step(const struct bisect_exec *x, const char *what,
		     const char *cmd, const char *dir, const char *sha,
		     struct strbuf *why)
{
	struct strbuf err = STRBUF_INIT;
	struct spawn_cmd c;
	int st;

	setenv("PERFSIFT_BISECT_COMMIT", sha, 1);
	spawn_init_sh(&c, cmd);
	c.cwd = dir;
	c.out.how = SPAWN_TO_STDERR;
	c.unset = spawn_git_unset;
	if (x->user) {
		/* as the build user, in a cgroup (else a session) of its own */
		c.user = x->user;
		c.contain = true;
	}
	st = spawn_run(&c, &err);
	if (st < 0)
		note("%s", err.buf);
	if (c.nleft)
		warning("%.*s: the %s left %zu process%s running, killed: %s",
			SHORT_SHA_LEN, sha, what, c.nleft,
			c.nleft == 1 ? "" : "es", c.left);
	spawn_release(&c);
	strbuf_release(&err);
	if (x->user && end_user_step(x, what, sha, why) < 0)
		return -1;
	if (stop_requested) {
		strbuf_addf(why, "interrupted during the %s of %.*s", what,
			    SHORT_SHA_LEN, sha);
		return -1;
	}
	if (!st)
		return 0;
	if (st == 125)
		strbuf_addf(why, "the %s exited 125", what);
	else if (st < 0)
		strbuf_addf(why, "the %s could not be started", what);
	else if (st > 128)
		strbuf_addf(why, "the %s was killed by signal %d", what,
			    st - 128);
	else
		strbuf_addf(why, "the %s failed (exit %d)", what, st);
	/* say so: a failed build is worth a line even when it is skipped */
	if (st != 125)
		warning("%.*s: %s; skipping the commit", SHORT_SHA_LEN, sha,
			why->buf);
	return 1;
}

/*
 * Where commit sha's kernel is for its runs (*out): its copy under
 * <state_dir>/kernels, else (no notes: bisect-step) the image in dir.
 */
static void kernel_image(const struct bisect_exec *x, const char *dir,
			 const char *sha, struct strbuf *out)
{
	strbuf_reset(out);
	if (x->state_dir) {
		/*
		 * named by how it was made too: a bisect resumed (or run
		 * again on a kept --worktree) with another --build or
		 * --kernel booted the images of the first for every commit
		 * built before (docs/attack-5.md, K2)
		 */
		uint64_t h = fnv1a64(FNV1A64_INIT, x->kernel, strlen(x->kernel) + 1);

		if (x->build)
			h = fnv1a64(h, x->build, strlen(x->build) + 1);
		path_join(out, x->state_dir, "kernels");
		strbuf_addf(out, "/%s-%016" PRIx64, sha, h);
	} else if (dir && x->kernel[0] != '/') {
		path_join(out, dir, x->kernel);
	} else {
		strbuf_addstr(out, x->kernel);
	}
}

/*
 * The image the build made, into img: a regular file only (followed
 * through links, as arch/x86_64/boot/bzImage is one).  The build may
 * leave a FIFO there, and reading it blocked the bisect for ever
 * (docs/attack-5.md, K1).  -1 when it is none.
 */
static int read_image(const char *path, struct strbuf *img)
{
	struct strbuf why = STRBUF_INIT;
	int ret = read_regular_file(img, path, (size_t)1 << 30, &why);

	strbuf_release(&why);
	return ret;
}

/*
 * Keep the kernel sha's build made: the worktree moves on to other
 * commits, and the runs of this one (the endpoints' interleaved runs,
 * the confirmation) boot its copy.  0, or 1 (skip the commit: the
 * build made no kernel) with why.
 */
static int keep_kernel(struct bisect_exec *x, const char *dir,
		       const char *sha, struct strbuf *why)
{
	struct strbuf src = STRBUF_INIT, dst = STRBUF_INIT, img = STRBUF_INIT;
	int ret = 0;

	if (x->kernel[0] == '/' || !dir)
		strbuf_addstr(&src, x->kernel);
	else
		path_join(&src, dir, x->kernel);
	kernel_image(x, dir, sha, &dst);
	if (read_image(src.buf, &img) < 0 || !img.len) {
		strbuf_addf(why, "the build made no kernel '%s'", src.buf);
		warning("%.*s: %s; skipping the commit", SHORT_SHA_LEN, sha,
			why->buf);
		ret = 1;
	} else if (strcmp(src.buf, dst.buf)) {
		struct strbuf d = STRBUF_INIT;

		path_dirname(&d, dst.buf);
		if (mkdir_p(d.buf, 0700) < 0 ||
		    write_file_atomic(dst.buf, img.buf, img.len) < 0) {
			strbuf_addf(why, "cannot keep the kernel in '%s': %s",
				    dst.buf, strerror(errno));
			ret = -1;
		}
		strbuf_release(&d);
	}
	strbuf_release(&src);
	strbuf_release(&dst);
	strbuf_release(&img);
	return ret;
}

/*
 * The worktree dir made the build user's for its checkout and build:
 * made empty here when missing (git adds a worktree into an empty
 * directory), since the directory it is in stays root's -- root writes
 * its notes there, and a directory the builder could write would let it
 * plant a link that root then writes through.
 */
static int hand_to_user(const struct bisect_exec *x, const char *dir,
			struct strbuf *why)
{
	if (!dir_exists(dir) && mkdir(dir, 0755) < 0) {
		strbuf_addf(why, "cannot create '%s': %s", dir, strerror(errno));
		return -1;
	}
	return spawn_chown_tree(dir, x->user->uid, x->user->gid, why);
}

static int x_prepare(void *data, int slot, const char *sha, struct strbuf *why)
{
	struct bisect_exec *x = data;
	struct strbuf err = STRBUF_INIT;
	const char *dir = x->wt[slot];
	int r;

	FREE_AND_NULL(x->prepared[slot]);
	/* its kernel kept from an earlier step (or an earlier process) */
	if (x->kernel && x->state_dir && !x->install) {
		kernel_image(x, dir, sha, &err);
		r = file_exists(err.buf);
		strbuf_release(&err);
		if (r) {
			x->prepared[slot] = xstrdup(sha);
			return 0;
		}
	}
	if (dir && x->user && hand_to_user(x, dir, why) < 0)
		return -1;
	if (dir) {
		if (bisect_git_worktree_checkout(x->repo, dir, sha, &err) < 0) {
			strbuf_addbuf(why, &err);
			strbuf_release(&err);
			return -1;
		}
		strbuf_release(&err);
	}
	if (x->build) {
		r = user_step(x, "build", x->build, dir, sha, why);
		if (r)
			return r;
	}
	if (x->kernel) {
		r = keep_kernel(x, dir, sha, why);
		if (r)
			return r;
	}
	FREE_AND_NULL(x->installed);
	if (x->install) {
		r = user_step(x, "install", x->install, dir, sha, why);
		if (r)
			return r;
		x->installed = xstrdup(sha);
	}
	/*
	 * root runs from it: none of it the builder's any more, and nothing
	 * of the builder's left to change it -- killed here too, not only
	 * after a build: with no build, the checkout (git as the user, the
	 * mirror's hooks) was the user's last code
	 */
	if (dir && x->user) {
		if (end_user_step(x, "checkout", sha, why) < 0 ||
		    spawn_chown_tree(dir, 0, 0, why) < 0)
			return -1;
	}
	x->prepared[slot] = xstrdup(sha);
	return 0;
}

int bisect_exec_measure(struct bisect_exec *x, int slot, const char *sha,
			struct strbuf *err)
{
	const char *argv[64];
	struct strbuf image = STRBUF_INIT;
	size_t n = 0, i;
	int st;

	if (stop_requested) {
		strbuf_addstr(err, "interrupted");
		return -1;
	}
	/*
	 * One installed thing (a kernel) serves both slots: measuring the
	 * other slot's commit installs it again.  The install command is
	 * idempotent (exits 0 at once when its commit is already running);
	 * it may also reboot, and the restarted bisect goes on from here.
	 */
	if (x->install && slot >= 0 &&
	    (!x->installed || strcmp(x->installed, sha))) {
		struct strbuf why = STRBUF_INIT;
		int r = user_step(x, "install", x->install, x->wt[slot], sha,
				  &why);

		if (r) {
			strbuf_addf(err, "%.*s: %s", SHORT_SHA_LEN, sha,
				    why.buf);
			strbuf_release(&why);
			return -1;
		}
		strbuf_release(&why);
		free(x->installed);
		x->installed = xstrdup(sha);
	}
	argv[n++] = x->self;
	argv[n++] = "--result-root";
	argv[n++] = x->result_root;
	if (x->store_url) {
		argv[n++] = "--store";
		argv[n++] = x->store_url;
	}
	argv[n++] = "run";
	argv[n++] = "-n";
	argv[n++] = "1";
	argv[n++] = "--commit";
	argv[n++] = sha;
	/* the run keeps how its commit was made, for the report */
	if (x->build && *x->build) {
		argv[n++] = "--build-cmd";
		argv[n++] = x->build;
	}
	if (x->install && *x->install) {
		argv[n++] = "--install-cmd";
		argv[n++] = x->install;
	}
	if (x->kernel) {
		kernel_image(x, slot >= 0 ? x->wt[slot] : NULL, sha, &image);
		argv[n++] = "--kernel";
		argv[n++] = image.buf;
	}
	argv[n++] = x->job;
	if (x->cmd) {
		argv[n++] = "--";
		for (i = 0; x->cmd[i]; i++) {
			if (n + 2 > ARRAY_SIZE(argv)) {
				strbuf_addstr(err, "too many command arguments");
				strbuf_release(&image);
				return -1;
			}
			argv[n++] = x->cmd[i];
		}
	}
	argv[n] = NULL;
	{
		struct spawn_cmd c;

		/* its stdout to our stderr: perfsift's stdout is the verdict */
		spawn_init(&c);
		c.argv = argv;
		c.cwd = slot >= 0 ? x->wt[slot] : NULL;
		c.out.how = SPAWN_TO_STDERR;
		c.unset = spawn_git_unset;
		st = spawn_run(&c, err);
		spawn_release(&c);
		if (st < 0) {
			strbuf_release(&image);
			return -1;
		}
	}
	strbuf_release(&image);
	if (stop_requested || st == 128 + SIGINT || st == 128 + SIGTERM) {
		strbuf_addstr(err, "interrupted");
		return -1;
	}
	if (st == 2 || st < 0) {
		/* the job file or the options: every commit would fail alike */
		strbuf_addf(err, "'perfsift run' failed on %.*s (exit %d)",
			    SHORT_SHA_LEN, sha, st);
		return -1;
	}
	if (st)
		warning("%.*s: 'perfsift run' exited %d", SHORT_SHA_LEN, sha,
			st);
	return 0;
}

static int x_measure(void *data, int slot, const char *sha, struct strbuf *err)
{
	return bisect_exec_measure(data, slot, sha, err);
}

/*
 * sha's result group for this job in st, copied into *g (*found false
 * when it has no run yet).  Several jobs may have results for one
 * commit; once this bisect's group is known (the first commit found),
 * the others are told apart by their directory, which differs from it
 * only in the commit component.  0, or -1 with err.
 */
static int find_group(struct bisect_exec *x, struct store *st, const char *sha,
		      struct store_group *g, bool *found, struct strbuf *err)
{
	struct store_selector sel;
	struct store_group_list groups = {0};
	const struct store_group *hit = NULL;
	struct strbuf want = STRBUF_INIT;
	size_t i;
	int ret = -1;

	*found = false;
	memset(&sel, 0, sizeof(sel));
	sel.kind = STORE_SEL_COMMIT;
	sel.commit = (char *)sha;
	if (store_find_groups(st, &sel, &groups, err) < 0)
		goto out;
	if (x->group)
		strbuf_addf(&want, "%s/%s", x->group, sha);
	for (i = 0; i < groups.n; i++) {
		const struct store_group *c = &groups.items[i];

		if (!c->axes[STORE_COMMIT] || strcmp(c->axes[STORE_COMMIT], sha))
			continue;
		if (x->group && strcmp(c->dir, want.buf))
			continue;
		if (hit) {
			strbuf_addf(
				err,
				"several result groups hold commit %.*s "
				"('%s', '%s'); use a result root of its own "
				"for this bisect",
				SHORT_SHA_LEN, sha, hit->dir, c->dir);
			goto out;
		}
		hit = c;
	}
	if (hit && hit->nruns) {
		store_group_copy(g, hit);
		*found = true;
		if (!x->group) {
			struct strbuf dir = STRBUF_INIT;

			path_dirname(&dir, hit->dir);
			x->group = strbuf_detach(&dir, NULL);
		}
	}
	ret = 0;
out:
	store_group_list_release(&groups);
	strbuf_release(&want);
	return ret;
}

/*
 * The commit's samples from the index: its result group for this job,
 * loaded whole from a store opened (and synced) for this call.  The
 * bisect's own ops load incrementally instead (x_samples below: one
 * store, each commit's new runs added to what it kept).  Both stay: the
 * callers of this one -- the robot counting runs, bisect-step, the lab's
 * samples -- come once per process or want the runs a lab worker pushed
 * since, which the bisect's one store, synced once, would not show; and
 * t6009 checks the kept samples against this full load (check_full).
 */
int bisect_exec_samples(struct bisect_exec *x, const char *sha,
			struct matrix *m, struct strbuf *err)
{
	struct store st;
	struct store_group g;
	bool found;
	int ret = -1;

	matrix_init(m);
	if (result_store_open(&st, x->result_root, x->store_url, 0, err) < 0)
		return -1;
	if (find_group(x, &st, sha, &g, &found, err) < 0)
		goto out;
	ret = 0;
	if (found) {
		if (store_load_matrix(&st, g.id, m, err) < 0)
			ret = -1;
		store_group_release(&g);
	}
out:
	store_close(&st);
	return ret;
}

int bisect_exec_count_runs(struct bisect_exec *x, const char *sha, size_t *n,
			   struct strbuf *err)
{
	struct matrix m;

	if (bisect_exec_samples(x, sha, &m, err) < 0)
		return -1;
	*n = m.nruns;
	matrix_release(&m);
	return 0;
}

static struct exec_seen *seen_of(struct bisect_exec *x, const char *sha,
				 bool add)
{
	struct exec_seen *s;
	size_t i;

	for (i = 0; i < x->nseen; i++)
		if (!strcmp(x->seen[i].sha, sha))
			return &x->seen[i];
	if (!add)
		return NULL;
	ALLOC_GROW(x->seen, x->nseen + 1, x->alloc_seen);
	s = &x->seen[x->nseen++];
	memset(s, 0, sizeof(*s));
	s->sha = xstrdup(sha);
	s->last = -1;
	store_matrix_builder_init(&s->b);
	return s;
}

/* take sha's complete runs numbered after s->last: 0, or -1 with err */
static int seen_take(struct store *st, struct exec_seen *s,
		     const struct store_run_list *runs, struct strbuf *err)
{
	size_t i;

	for (i = 0; i < runs->n; i++) {
		const struct store_run *r = &runs->items[i];
		struct reduce_stats rows;

		if (!r->complete || r->number <= s->last)
			continue;
		reduce_stats_init(&rows);
		if (store_run_stats(st, r->id, &rows, err) < 0) {
			reduce_stats_release(&rows);
			return -1;
		}
		store_matrix_builder_add_stats(&s->b, st,
					       store_rel_dir(st, r->dir), &rows);
		reduce_stats_release(&rows);
		s->last = r->number;
	}
	return 0;
}

#ifdef PERFSIFT_TEST_HOOKS
/*
 * The kept samples must be the full load's: with PERFSIFT_TEST_SAMPLES_FULL
 * set (t6009), each call loads sha in full too and stops perfsift on any
 * difference -- of names, values, integer flags, missing values, sources.
 */
static bool same_present(const struct matrix *a, const struct matrix *b,
			 size_t i)
{
	return (a->present ? a->present[i] : 1) == (b->present ? b->present[i] : 1);
}

static void check_full(struct bisect_exec *x, const char *sha,
		       const struct matrix *m)
{
	struct strbuf err = STRBUF_INIT;
	struct matrix full;
	size_t i;

	if (!getenv("PERFSIFT_TEST_SAMPLES_FULL"))
		return;
	if (bisect_exec_samples(x, sha, &full, &err) < 0)
		die("the full load of %.*s: %s", SHORT_SHA_LEN, sha, err.buf);
	if (full.nstats != m->nstats || full.nruns != m->nruns)
		BUG("kept samples of %.*s: %zu stats x %zu runs, the full load "
		    "%zu x %zu",
		    SHORT_SHA_LEN, sha, m->nstats, m->nruns, full.nstats,
		    full.nruns);
	for (i = 0; i < m->nstats; i++)
		if (strcmp(full.names[i], m->names[i]) ||
		    full.is_int[i] != m->is_int[i])
			BUG("kept samples of %.*s: stat %zu is %s, the full "
			    "load's %s",
			    SHORT_SHA_LEN, sha, i, m->names[i], full.names[i]);
	for (i = 0; i < m->nstats * m->nruns; i++)
		if (full.values[i] != m->values[i] || !same_present(&full, m, i))
			BUG("kept samples of %.*s: %s run %zu differs",
			    SHORT_SHA_LEN, sha, m->names[i / m->nruns],
			    i % m->nruns);
	for (i = 0; m->sources && i < m->nruns; i++)
		if (strcmp(full.sources[i], m->sources[i]))
			BUG("kept samples of %.*s: run %zu is %s, the full "
			    "load's %s",
			    SHORT_SHA_LEN, sha, i, m->sources[i],
			    full.sources[i]);
	matrix_release(&full);
	strbuf_release(&err);
}
#else
static inline void check_full(struct bisect_exec *x, const char *sha,
			      const struct matrix *m)
{
	(void)x;
	(void)sha;
	(void)m;
}
#endif

static int x_samples(void *data, const char *sha, struct matrix *m,
		     struct strbuf *err)
{
	struct bisect_exec *x = data;
	struct store_run_list runs = {0};
	struct exec_seen *s;
	size_t i, complete = 0;
	int ret = -1;

	matrix_init(m);
	/* one store for the whole bisect: the index synced once, here; each
	 * run of the job indexes itself */
	if (!x->store) {
		x->store = xcalloc(1, sizeof(*x->store));
		if (result_store_open(x->store, x->result_root, x->store_url, 0,
				      err) < 0) {
			FREE_AND_NULL(x->store);
			return -1;
		}
	}
	s = seen_of(x, sha, true);
	if (!s->group) {
		struct store_group g;
		bool found;

		if (find_group(x, x->store, sha, &g, &found, err) < 0)
			return -1;
		if (!found) {
			/* opened before the root had an index (the first
			 * run makes it): open it again next time */
			store_close(x->store);
			FREE_AND_NULL(x->store);
			return 0;
		}
		s->group = g.id;
		store_group_release(&g);
	}
	if (store_group_runs(x->store, s->group, &runs, err) < 0 ||
	    seen_take(x->store, s, &runs, err) < 0)
		goto out;
	for (i = 0; i < runs.n; i++)
		complete += runs.items[i].complete;
	/* runs gone, or one completed out of order: every run again */
	if (complete != s->b.n) {
		seen_forget(s);
		if (seen_take(x->store, s, &runs, err) < 0)
			goto out;
	}
	if (s->b.n)
		store_matrix_builder_finish(&s->b, m);
	check_full(x, sha, m);
	ret = 0;
out:
	store_run_list_release(&runs);
	return ret;
}

/*
 * Keep (save) or find (!save) n run counts under key (shas, one line
 * "KEY N1 N2 ...") in <state_dir>/file: where the confirmation or a step
 * began, across an interruption or a reboot.  true when found / saved.
 */
static bool note_counts(struct bisect_exec *x, const char *file,
			const char *key, size_t *counts, size_t n, bool save)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	const char *p;
	char *end;
	size_t k, klen = strlen(key);
	bool ok = false;

	if (!x->state_dir)
		return false;
	path_join(&path, x->state_dir, file);
	if (save) {
		strbuf_addstr(&sb, key);
		for (k = 0; k < n; k++)
			strbuf_addf(&sb, " %zu", counts[k]);
		strbuf_addch(&sb, '\n');
		ok = !write_file_atomic(path.buf, sb.buf, sb.len);
	} else if (!strbuf_read_file(&sb, path.buf, 4096) &&
		   !strncmp(sb.buf, key, klen) && sb.buf[klen] == ' ') {
		size_t v[3];

		p = sb.buf + klen;
		for (k = 0; k < n && k < ARRAY_SIZE(v); k++) {
			unsigned long long u;

			if (*p != ' ')
				break;
			u = strtoull(p + 1, &end, 10);
			if (end == p + 1)
				break;
			v[k] = (size_t)u;
			p = end;
		}
		if (k == n && (*p == '\n' || !*p)) {
			memcpy(counts, v, n * sizeof(*counts));
			ok = true;
		}
	}
	strbuf_release(&path);
	strbuf_release(&sb);
	return ok;
}

/* the confirmation's starting counts, in <state_dir>/confirm */
static bool x_confirm_base(void *data, const char *a, const char *b,
			   size_t *base_a, size_t *base_b, bool save)
{
	struct strbuf key = STRBUF_INIT;
	size_t c[2] = { *base_a, *base_b };
	bool ok;

	strbuf_addf(&key, "%s %s", a, b);
	ok = note_counts(data, "confirm", key.buf, c, 2, save);
	if (ok && !save) {
		*base_a = c[0];
		*base_b = c[1];
	}
	strbuf_release(&key);
	return ok;
}

/* a step's starting counts (good, commit, bad), in <state_dir>/step */
static bool x_step_base(void *data, const char *sha, size_t base[3], bool save)
{
	return note_counts(data, "step", sha, base, 3, save);
}

/*
 * When each run began: the start_time file of its run directory, read
 * once a run (kept beside the samples op's runs of sha, exec_seen).
 */
static int x_starts(void *data, const char *sha, const struct matrix *m,
		    double *t, struct strbuf *err)
{
	struct exec_seen *s = seen_of(data, sha, false);
	struct strbuf dir = STRBUF_INIT;
	size_t r;

	(void)err;
	for (r = 0; r < m->nruns; r++) {
		bool known = s && m->sources && r < s->nstart &&
			     !strcmp(m->sources[r], s->b.sources[r]);

		t[r] = known ? s->start[r] : NAN;
		if (known || !m->sources)
			continue;
		/* a source is "<run dir>/stats.json" (the store's) */
		strbuf_reset(&dir);
		path_dirname(&dir, m->sources[r]);
		if (select_run_start(dir.buf, &t[r]))
			t[r] = NAN;
		/* kept in order, for the runs the samples op took */
		if (s && r == s->nstart && r < s->b.n &&
		    !strcmp(m->sources[r], s->b.sources[r])) {
			s->start = xreallocarray(s->start, r + 1,
						 sizeof(*s->start));
			s->start[s->nstart++] = t[r];
		}
	}
	strbuf_release(&dir);
	return 0;
}

/*
 * Why sha's newest run failed: the last_state of the highest-numbered
 * run directory of its group, when that run is incomplete (a run that
 * failed before the runner made a directory leaves an older one
 * newest: nothing is said then).  One line, "a: 1, b: 2".
 */
static void x_failure(void *data, const char *sha, struct strbuf *why)
{
	struct bisect_exec *x = data;
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct dirent *de;
	DIR *dir;
	long newest = -1;
	size_t i;

	if (!x->group)
		return;
	strbuf_addf(&path, "%s/%s", x->group, sha);
	dir = opendir(path.buf);
	while (dir && (de = readdir(dir))) {
		char *end;
		long n = strtol(de->d_name, &end, 10);

		if (end != de->d_name && !*end && n > newest)
			newest = n;
	}
	if (dir)
		closedir(dir);
	strbuf_addf(&path, "/%ld/last_state", newest);
	if (newest >= 0 && read_text_file(&text, path.buf, 4096) >= 0 &&
	    strstr(text.buf, "is_incomplete_run: 1")) {
		char *line = text.buf, *nl;

		/*
		 * Each line escaped (trust_escape()): the run may be a pulled
		 * one or a copy, its last_state written by anyone, and the
		 * reason goes to the terminal (the third attack, L11)
		 */
		strbuf_rtrim(&text);
		for (i = 0; line; i++) {
			nl = strchr(line, '\n');
			if (nl)
				*nl = '\0';
			if (i)
				strbuf_addstr(why, ", ");
			trust_escape(why, line);
			line = nl ? nl + 1 : NULL;
		}
	}
	strbuf_release(&path);
	strbuf_release(&text);
}

/*
 * The verdicts of this bisect, one line each in <state_dir>/log:
 * "<sha> <stat> <verdict>\t<why>" (git keeps a BISECT_LOG the same way).
 */
static bool x_recall(void *data, const char *sha, const char *stat,
		     enum bisect_verdict *v, char **why, bool save)
{
	struct bisect_exec *x = data;
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT, key = STRBUF_INIT;
	bool found = false;
	char *line, *next;

	if (!x->state_dir)
		return false;
	path_join(&path, x->state_dir, "log");
	strbuf_addf(&key, "%s %s ", sha, stat);
	if (strbuf_read_file(&sb, path.buf, 0) < 0)
		strbuf_reset(&sb);
	if (save) {
		strbuf_addf(&sb, "%s%s\t%s\n", key.buf, bisect_verdict_name(*v),
			    *why ? *why : "");
		found = !write_file_atomic(path.buf, sb.buf, sb.len);
		goto out;
	}
	for (line = sb.buf; *line; line = next) {
		char *tab;
		enum bisect_verdict k;

		next = strchrnul(line, '\n');
		if (*next)
			*next++ = '\0';
		if (strncmp(line, key.buf, key.len))
			continue;
		tab = strchr(line, '\t');
		if (!tab)
			continue;
		*tab = '\0';
		/* every verdict a commit can end with (not "unclear") */
		for (k = BISECT_GOOD; k <= BISECT_UNDECIDED; k++)
			if (k != BISECT_UNCLEAR &&
			    !strcmp(line + key.len, bisect_verdict_name(k))) {
				*v = k;
				free(*why);
				*why = *(tab + 1) ? xstrdup(tab + 1) : NULL;
				found = true;
			}
	}
out:
	strbuf_release(&path);
	strbuf_release(&sb);
	strbuf_release(&key);
	return found;
}

static bool x_interrupted(void *data)
{
	(void)data;
	return stop_requested != 0;
}

static void x_progress(void *data, const char *line)
{
	(void)data;
	fprintf(stderr, "bisect: %s\n", line);
	fflush(stderr);
}

void bisect_exec_ops(struct bisect_exec *x, struct bisect_ops *ops)
{
	memset(ops, 0, sizeof(*ops));
	ops->prepare = x_prepare;
	ops->measure = x_measure;
	ops->samples = x_samples;
	ops->interrupted = x_interrupted;
	ops->progress = x_progress;
	ops->confirm_base = x_confirm_base;
	ops->recall = x_recall;
	ops->starts = x_starts;
	ops->step_base = x_step_base;
	ops->failure = x_failure;
	ops->data = x;
}
