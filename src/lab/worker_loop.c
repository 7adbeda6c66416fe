/*
 * worker_loop.c: a test box's worker (worker.h, docs/lab.md).
 *
 * The loop: put back leases that ran out, claim the next task of the
 * group, run its runs not stored yet, one at a time, and store each as
 * soon as it is finished; between tasks, sleep on LISTEN/NOTIFY (and,
 * with --drain, until the first lease of the group runs out, so that a
 * task whose worker died is retaken).
 *
 * One run goes through the same engine as `perfsift run`: engine_run()
 * is that boundary, the one place to change when run_once moves into the
 * library (src/run/engine.h).  Until then it is a child `perfsift run` of
 * this very binary into a private result root below the cache, whose
 * finished run is then renamed into the cache under the number the queue
 * reserved for (task, run index) and indexed in the shared store.  That
 * order makes every crash safe: a run is in the store under its reserved
 * number or not at all, and the next holder of the task adopts a stored
 * run it finds (lab_runs_done) instead of running it again.
 *
 * Signals: SIGTERM / SIGINT let the run in progress finish, store it and
 * give the task back; SIGKILL leaves the lease to run out (the child
 * `perfsift run` gets SIGTERM from the kernel as its parent dies, so it
 * stops its benchmark and puts the knobs back).
 */
#include "util/compat.h"

#ifdef HAVE_LIBPQ
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "job/job.h"
#include "lab/lab.h"
#include "lab/worker.h"
#include "result/result.h"
#include "util/fault.h"
#include "util/fileutil.h"
#include "util/spawn.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/trust.h"
#include "util/usage.h"
#include "util/xalloc.h"

/* signal flags: the one kind of global the house style allows */
static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* SIGCHLD is caught so that it interrupts a wait (ignored, it would not) */
static void on_child(int sig)
{
	(void)sig;
}

struct worker {
	const struct worker_opts *o;
	struct lab lab;
	sigset_t waitmask;  /* what ppoll unblocks: the stop signals, SIGCHLD */
	sigset_t origmask;  /* for the child */
	struct strbuf tmp;  /* <cache>/.lab/<pid>: the engine's result root */
};

/* what a run came to */
enum run_end {
	RUN_STORED,  /* in the store (or found there already) */
	RUN_BAD,     /* the run failed: the attempt fails, with reason */
	RUN_LOST,    /* the lease is gone: drop the task */
	RUN_BROKEN,  /* the store failed: stop the worker */
};

static void setup_signals(struct worker *w)
{
	struct sigaction sa;
	sigset_t block;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGCHLD);
	/* delivered only inside ppoll: nothing is cut halfway */
	sigprocmask(SIG_BLOCK, &block, &w->origmask);
	w->waitmask = w->origmask;
	sigdelset(&w->waitmask, SIGTERM);
	sigdelset(&w->waitmask, SIGINT);
	sigdelset(&w->waitmask, SIGCHLD);
}

/* the heartbeat's period: a third of the lease, at least a second */
static int beat_ms(const struct worker *w)
{
	int ms = w->o->lease_s * 1000 / 3;

	return ms < 1000 ? 1000 : ms;
}

/* ---- the run engine's boundary ------------------------------------------ */

static int find_run_dir(const char *dir, int depth, struct strbuf *out);

/* a failed run's last_state below root, as "the run failed: a: 1, b: 1" */
static void last_state(const char *root, struct strbuf *out)
{
	struct strbuf run = STRBUF_INIT, path = STRBUF_INIT, text = STRBUF_INIT;
	size_t i;

	if (find_run_dir(root, 0, &run)) {
		path_join(&path, run.buf, "last_state");
		if (read_text_file(&text, path.buf, 4096) >= 0 && text.len) {
			strbuf_rtrim(&text);
			for (i = 0; i < text.len; i++)
				if (text.buf[i] == '\n')
					text.buf[i] = ',';
			strbuf_addf(out, "the run failed: %s", text.buf);
		}
	}
	strbuf_release(&run);
	strbuf_release(&path);
	strbuf_release(&text);
}

/* the lease renewal, spawn's tick: nonzero (the run is stopped) when lost */
struct beat {
	struct worker *w;
	const struct lab_lease *l;
	bool lost;
};

static int renew_lease(void *arg)
{
	struct beat *b = arg;
	struct strbuf err = STRBUF_INIT;
	int ret = lab_heartbeat(&b->w->lab, b->l, &err);

	lab_worker_seen(&b->w->lab, b->w->o->name, b->l->task, &err);
	if (ret) {
		/* lost (or the store is gone): the work is not ours */
		warning("task %" PRId64 ": %s: stopping its run", b->l->task,
			ret > 0 ? "the lease is lost" : err.buf);
		b->lost = true;
	}
	strbuf_release(&err);
	return b->lost;
}

/*
 * Run exe with argv (its output into log, its environment plus the
 * NAME=VALUE strings of env, NULL-terminated) in its own process group,
 * renewing the lease every beat; a lost lease stops it (SIGTERM to its
 * group, then waiting for it to end: a run puts its knobs back).  The
 * kernel stops it (SIGTERM) if the worker dies.  *status is its exit
 * status (128 + signal); 1 when the lease was lost, 0 when it ended, -1
 * with reason when it could not be started.
 */
static int run_child(struct worker *w, const struct lab_lease *l,
		     const char *exe, const char *const *argv, const char *log,
		     const char *const *env, const char *cwd, int *status,
		     struct strbuf *reason)
{
	/* a child run indexes into its private root only: the worker stores */
	static const char *const unset[] = {"PERFSIFT_STORE",
					    "PERFSIFT_RESULT_ROOT", NULL};
	struct beat b = {w, l, false};
	struct spawn_cmd c;

	spawn_init(&c);
	c.argv = argv;
	c.exe = exe;
	/* the task's workdir (the robot's worktree of the commit): the job's
	 * commands run there as they would in a local run; a workdir that is
	 * gone fails the attempt (exit 127 and its message in the log) */
	c.cwd = cwd;
	c.env = env;
	c.unset = unset;
	c.out.how = SPAWN_FILE;
	c.out.path = log;
	c.err.how = SPAWN_TO_STDOUT;
	c.own_group = true;
	c.pdeathsig = SIGTERM;
	c.reset_signals = true;
	c.child_mask = &w->origmask;
	/* the stop signals and SIGCHLD are delivered only while it waits */
	c.wait_mask = &w->waitmask;
	c.tick = renew_lease;
	c.tick_arg = &b;
	c.tick_ms = beat_ms(w);
	c.grace_ms = -1;
	*status = spawn_run(&c, reason);
	spawn_release(&c);
	if (*status < 0)
		return -1;
	return b.lost ? 1 : 0;
}

/* true when t's kernel is an image to boot in a VM (a path), not a release */
static bool task_image(const struct lab_task *t)
{
	return t->kernel && strchr(t->kernel, '/');
}

/*
 * Run the job at job_path once, through `perfsift run`, into the result
 * root w->tmp, renewing the lease meanwhile.  0 when the run finished
 * complete; 1 when it failed or was cut (reason says how); 2 when the
 * lease was lost (the run is stopped); -1 with reason when it could not
 * be started or the store failed.
 */
static int engine_run(struct worker *w, const struct lab_lease *l,
		      const char *job_path, const char *commit,
		      const char *image, const char *workdir,
		      struct strbuf *reason)
{
	struct strbuf log = STRBUF_INIT;
	const char *argv[12];
	int argc = 0, status = 0, ret;

	path_join(&log, w->tmp.buf, "run.log");
	argv[argc++] = "perfsift";
	argv[argc++] = "--result-root";
	argv[argc++] = w->tmp.buf;
	argv[argc++] = "run";
	argv[argc++] = job_path;
	argv[argc++] = "-n";
	argv[argc++] = "1";
	if (commit) {
		argv[argc++] = "--commit";
		argv[argc++] = commit;
	}
	if (image) {
		argv[argc++] = "--kernel";
		argv[argc++] = image;
	}
	argv[argc] = NULL;
	/* this very binary: the same engine, monitors and knobs */
	ret = run_child(w, l, "/proc/self/exe", argv, log.buf, NULL, workdir,
			&status, reason);
	if (ret < 0) {
		strbuf_release(&log);
		return -1;
	}
	if (ret) {
		strbuf_addstr(reason, "the lease was lost during the run");
		ret = 2;
	} else if (status) {
		struct strbuf text = STRBUF_INIT;

		/* the run's own words: its last_state, else its last line */
		last_state(w->tmp.buf, reason);
		if (!reason->len && read_text_file(&text, log.buf, 1 << 16) >= 0) {
			strbuf_rtrim(&text);
			strbuf_addstr(reason, strrchr(text.buf, '\n') ?
				      strrchr(text.buf, '\n') + 1 : text.buf);
		}
		if (!reason->len)
			strbuf_addf(reason, "`perfsift run` exited with %d",
				    status);
		strbuf_release(&text);
		ret = status == EXIT_USAGE ? -1 : 1;
	}
	strbuf_release(&log);
	return ret;
}

/* ---- one run: engine, then store ---------------------------------------- */

/*
 * The run directory the engine made below root: the one directory
 * named by a run number that holds a job.yaml (depth-first).
 */
static int find_run_dir(const char *dir, int depth, struct strbuf *out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		struct strbuf sub = STRBUF_INIT, jy = STRBUF_INIT;

		if (e->d_name[0] == '.' || e->d_type != DT_DIR)
			continue;
		path_join(&sub, dir, e->d_name);
		path_join(&jy, sub.buf, "job.yaml");
		if (result_is_run_number(e->d_name) && file_exists(jy.buf)) {
			strbuf_addbuf(out, &sub);
			found = 1;
		} else if (depth < 10) {
			found = find_run_dir(sub.buf, depth + 1, out);
		}
		strbuf_release(&sub);
		strbuf_release(&jy);
	}
	closedir(d);
	return found;
}

/* the task's job, for this box, at <tmp>/<job_name>; 0 or -1 */
static int write_job(struct worker *w, const struct lab_task *t,
		     struct strbuf *path, struct strbuf *reason)
{
	struct job **jobs = NULL;
	struct strbuf text = STRBUF_INIT;
	size_t n = 0;
	int ret = -1;
	const char *why = trust_name_why(t->job_name);

	/*
	 * the name comes from the shared store: one plain file name, never
	 * a path out of the worker's directory ('../../etc/cron.d/x.yaml',
	 * issue 25 F5)
	 */
	if (why) {
		strbuf_addstr(reason, "the task's job name '");
		trust_escape(reason, t->job_name);
		strbuf_addf(reason, "' is no plain file name (%s): not written",
			    why);
		return -1;
	}
	if (job_load_string(t->job_yaml, t->job_name, &jobs, &n, reason) < 0)
		return -1;
	if (n != 1) {
		strbuf_addf(reason, "the task's job is %zu jobs, not one", n);
		goto out;
	}
	job_set(jobs[0], "testbox", w->o->name);
	job_set(jobs[0], "tbox_group", t->group);
	job_to_yaml(jobs[0], &text);
	path_join(path, w->tmp.buf, t->job_name);
	if (write_file_atomic(path->buf, text.buf, text.len) < 0) {
		strbuf_addf(reason, "cannot write '%s': %s", path->buf,
			    strerror(errno));
		goto out;
	}
	ret = 0;
out:
	job_free_all(jobs, n);
	strbuf_release(&text);
	return ret;
}

/*
 * Move the finished run at src into the cache as <group_rel>/<number>
 * and index it in the store.  A directory already there is a run of the
 * cache that never reached the store (a worker killed in between): it
 * is set aside as .stale-<number>-<time>, not deleted.
 */
static int store_run(struct worker *w, const char *src, const char *group_rel,
		     int number, struct strbuf *err)
{
	struct strbuf gdir = STRBUF_INIT, dst = STRBUF_INIT, aside = STRBUF_INIT;
	char num[16];
	size_t nfiles;
	int ret = -1;

	path_join(&gdir, w->o->root, group_rel);
	snprintf(num, sizeof(num), "%d", number);
	path_join(&dst, gdir.buf, num);
	if (mkdir_p(gdir.buf, 0755) < 0) {
		strbuf_addf(err, "cannot make '%s': %s", gdir.buf, strerror(errno));
		goto out;
	}
	if (dir_exists(dst.buf)) {
		strbuf_addf(&aside, "%s/.stale-%d-%lld", gdir.buf, number,
			    (long long)time(NULL));
		if (rename(dst.buf, aside.buf) < 0) {
			strbuf_addf(err, "cannot set '%s' aside: %s", dst.buf,
				    strerror(errno));
			goto out;
		}
	}
	if (rename(src, dst.buf) < 0) {
		strbuf_addf(err, "cannot move the run to '%s': %s", dst.buf,
			    strerror(errno));
		goto out;
	}
	fsync_dir(gdir.buf);
	/*
	 * Its stats and the cache's matrix.json again, and the store's
	 * index; then its files, last: a run whose files are in the store is
	 * complete there (lab_runs_done adopts only such a run).
	 */
	if (result_restat_shared(dst.buf, w->o->root, w->o->url, err) < 0 ||
	    lab_put_run_files(&w->lab, group_rel, number, dst.buf, &nfiles,
			      err) < 0)
		goto out;
	ret = 0;
out:
	strbuf_release(&gdir);
	strbuf_release(&dst);
	strbuf_release(&aside);
	return ret;
}

/* renew the lease now: 0, or -1 with reason when it is lost */
static int renew(struct worker *w, const struct lab_lease *l,
		 struct strbuf *reason)
{
	int r = lab_heartbeat(&w->lab, l, reason);

	if (r > 0)
		strbuf_addf(reason, "the lease of task %" PRId64 " is lost",
			    l->task);
	return r ? -1 : 0;
}

static enum run_end do_run(struct worker *w, const struct lab_task *t,
			   const struct lab_lease *l, int idx,
			   struct strbuf *reason)
{
	struct strbuf job = STRBUF_INIT, run = STRBUF_INIT, grp = STRBUF_INIT;
	enum run_end end = RUN_BAD;
	bool lost = false;
	int number, r;

	remove_tree(w->tmp.buf);
	if (mkdir_p(w->tmp.buf, 0755) < 0) {
		strbuf_addf(reason, "cannot make '%s': %s", w->tmp.buf,
			    strerror(errno));
		end = RUN_BROKEN;
		goto out;
	}
	if (write_job(w, t, &job, reason) < 0)
		goto out;
	/* each step renews the lease: storing the last run took a while */
	if (renew(w, l, reason) < 0) {
		end = RUN_LOST;
		goto out;
	}
	printf("task %" PRId64 ": run %d of %d: %s\n", t->id, idx + 1, t->runs,
	       trust_shown(t->job_name));
	fflush(stdout);
	/*
	 * A kernel task's runs are of that kernel unless a commit is named;
	 * an image's runs are in a VM, of the guest's kernel (its axes).
	 */
	r = engine_run(w, l, job.buf,
		       t->commit ? t->commit :
		       task_image(t) ? NULL : t->kernel,
		       task_image(t) ? t->kernel : NULL, t->workdir, reason);
	if (r == 2 || r < 0) {
		end = r == 2 ? RUN_LOST : RUN_BAD;
		goto out;
	}
	if (r == 1)
		goto out; /* a failed run: the attempt fails with its reason */
	if (!find_run_dir(w->tmp.buf, 0, &run)) {
		strbuf_addstr(reason, "the run left no run directory");
		goto out;
	}
	path_dirname(&grp, run.buf);
	/* the group, relative: what every worker's cache and the store share */
	r = lab_run_reserve(&w->lab, l, idx, grp.buf + w->tmp.len + 1, &number,
			    &lost, reason);
	if (r < 0) {
		end = lost ? RUN_LOST : RUN_BROKEN;
		goto out;
	}
	if (r == 0) {
		if (store_run(w, run.buf, grp.buf + w->tmp.len + 1, number,
			      reason) < 0) {
			end = RUN_BROKEN;
			goto out;
		}
		/* its files in the store, not counted: the next holder adopts
		 * it (lab_runs_done); t8006 kills a worker here */
		fault_point("lab-run-files-stored");
		if (lab_run_stored(&w->lab, l, idx, reason) < 0) {
			end = RUN_BROKEN;
			goto out;
		}
	}
	if (renew(w, l, reason) < 0) {
		end = RUN_LOST;
		goto out;
	}
	printf("task %" PRId64 ": run %d of %d: stored as %s/%d\n", t->id,
	       idx + 1, t->runs, grp.buf + w->tmp.len + 1, number);
	fflush(stdout);
	end = RUN_STORED;
out:
	strbuf_release(&job);
	strbuf_release(&run);
	strbuf_release(&grp);
	return end;
}

/* ---- tasks ----------------------------------------------------------------- */

/* what the kernel step came to */
enum boot_end { BOOT_READY, BOOT_REBOOTING, BOOT_FAILED, BOOT_LOST, BOOT_BROKEN };

/*
 * A task naming a kernel runs only on that kernel.  Not running it: the
 * install hook (once per attempt, recorded before it runs) installs it
 * and asks for a reboot (LAB_EXIT_REBOOT): the worker exits keeping its
 * lease, and the worker started at boot resumes the task here.  Still
 * not running it after the hook ran for this attempt: a wrong kernel
 * booted, and the attempt fails saying which.
 */
static enum boot_end boot_kernel(struct worker *w, const struct lab_task *t,
				 const struct lab_lease *l, struct strbuf *reason)
{
	struct strbuf running = STRBUF_INIT, log = STRBUF_INIT;
	struct strbuf kv = STRBUF_INIT, tv = STRBUF_INIT;
	const char *argv[4] = {"sh", "-c", w->o->install, NULL};
	const char *env[3];
	enum boot_end end = BOOT_FAILED;
	int status = 0, r;

	if (lab_running_kernel(&running, reason) < 0)
		goto out;
	/* `queue add` refuses such a release; a row another hand wrote
	 * is refused here, before it reaches the hook's environment */
	if (!lab_release_ok(t->kernel)) {
		strbuf_addf(reason, "the task's kernel '%s' is no release "
			    "(uname -r): its install hook is not run",
			    trust_shown(t->kernel));
		goto out;
	}
	if (!strcmp(running.buf, t->kernel)) {
		end = BOOT_READY;
		goto out;
	}
	if (t->install_attempt == t->attempts) {
		strbuf_addf(reason, "booted kernel '%s', the task asks for '%s' "
			    "(the install hook ran)", running.buf, t->kernel);
		goto out;
	}
	if (!w->o->install) {
		strbuf_addf(reason, "the task asks for kernel '%s', this box runs "
			    "'%s' and its worker has no --install hook",
			    t->kernel, running.buf);
		goto out;
	}
	r = lab_mark_install(&w->lab, l, reason);
	if (r) {
		end = r > 0 ? BOOT_LOST : BOOT_BROKEN;
		goto out;
	}
	printf("task %" PRId64 ": installing kernel %s (running %s)\n", t->id,
	       trust_shown(t->kernel), trust_shown(running.buf));
	fflush(stdout);
	mkdir_p(w->tmp.buf, 0755);
	path_join(&log, w->tmp.buf, "install.log");
	strbuf_addf(&kv, "PERFSIFT_KERNEL=%s", t->kernel);
	strbuf_addf(&tv, "PERFSIFT_TASK=%" PRId64, t->id);
	env[0] = kv.buf;
	env[1] = tv.buf;
	env[2] = NULL;
	r = run_child(w, l, "/bin/sh", argv, log.buf, env, NULL, &status,
		      reason);
	if (r < 0)
		goto out;
	if (r) {
		end = BOOT_LOST;
	} else if (status == LAB_EXIT_REBOOT) {
		end = BOOT_REBOOTING;
	} else if (status) {
		strbuf_addf(reason, "the install hook for kernel '%s' failed "
			    "(exit %d; its output: %s)", t->kernel, status,
			    log.buf);
	} else {
		/* installed and running without a reboot (kexec'd in place?) */
		strbuf_reset(&running);
		if (lab_running_kernel(&running, reason) == 0) {
			if (!strcmp(running.buf, t->kernel))
				end = BOOT_READY;
			else
				strbuf_addf(reason, "the install hook ended, and the "
					    "box runs '%s', not '%s'",
					    running.buf, t->kernel);
		}
	}
out:
	strbuf_release(&running);
	strbuf_release(&log);
	strbuf_release(&kv);
	strbuf_release(&tv);
	return end;
}

/*
 * The task's runs not stored yet: 0, 1 when the box reboots for the
 * task's kernel (the worker exits), -1 only when the store failed.
 */
static int do_task(struct worker *w, const struct lab_task *t)
{
	struct lab_lease l = {t->id, w->o->name, t->attempts};
	struct strbuf err = STRBUF_INIT, reason = STRBUF_INIT;
	bool *done;
	int idx, ret = 0;
	enum run_end end = RUN_STORED;

	/*
	 * The store's number: `queue add -n` gives 1..LAB_TASK_RUNS_MAX, but
	 * a row written by another hand may say -1, and every worker of the
	 * group that claimed it died allocating 2^64 bytes, the task leased
	 * again and again (docs/attack-5.md, W1)
	 */
	if (t->runs < 1 || t->runs > LAB_TASK_RUNS_MAX) {
		strbuf_addf(&reason, "the task asks for %d runs (1 to %d)", t->runs,
			    LAB_TASK_RUNS_MAX);
		error("task %" PRId64 ": %s", t->id, reason.buf);
		if (lab_fail_attempt(&w->lab, &l, reason.buf, &err) < 0) {
			error("%s", err.buf);
			ret = -1;
		}
		strbuf_release(&err);
		strbuf_release(&reason);
		return ret;
	}
	done = xcalloc((size_t)t->runs, sizeof(*done));

	/* the store's text, escaped (util/trust.h): no ESC reaches the terminal */
	printf("task %" PRId64 ": %s (%d run%s, attempt %d of %d)\n", t->id,
	       trust_shown(t->job_name), t->runs, t->runs == 1 ? "" : "s", t->attempts,
	       t->max_attempts);
	fflush(stdout);
	if (lab_runs_done(&w->lab, &l, done, t->runs, &err) < 0 ||
	    lab_worker_seen(&w->lab, w->o->name, t->id, &err) < 0) {
		ret = -1;
		goto out;
	}
	if (task_image(t) && !w->o->vm) {
		strbuf_addf(&reason, "the task boots kernel image '%s' in a VM; "
			    "this worker was not started with --vm", t->kernel);
		end = RUN_BAD;
	} else if (t->kernel && !task_image(t)) {
		switch (boot_kernel(w, t, &l, &reason)) {
		case BOOT_READY:
			break;
		case BOOT_REBOOTING:
			/* the lease stays: the worker started at boot resumes */
			printf("task %" PRId64 ": rebooting into kernel %s; the "
			       "worker started at boot goes on\n", t->id,
			       trust_shown(t->kernel));
			ret = 1;
			goto out;
		case BOOT_FAILED:
			end = RUN_BAD;
			break;
		case BOOT_LOST:
			end = RUN_LOST;
			break;
		case BOOT_BROKEN:
			end = RUN_BROKEN;
			break;
		}
	}
	for (idx = 0; idx < t->runs && end == RUN_STORED; idx++) {
		if (done[idx])
			continue;
		if (stop_requested)
			break;
		strbuf_reset(&reason);
		end = do_run(w, t, &l, idx, &reason);
	}
	if (end == RUN_BAD) {
		error("task %" PRId64 ": run %d: %s", t->id, idx, reason.buf);
		if (lab_fail_attempt(&w->lab, &l, reason.buf, &err) < 0)
			ret = -1;
	} else if (end == RUN_LOST) {
		warning("task %" PRId64 ": %s: left to its new holder", t->id,
			reason.buf);
	} else if (end == RUN_BROKEN) {
		error("task %" PRId64 ": %s", t->id, reason.buf);
		ret = -1;
	} else {
		/* stopped between two runs: the task goes back, not counted */
		bool stopped = idx < t->runs;
		int r = stopped ? lab_release(&w->lab, &l, &err) :
			lab_finish(&w->lab, &l, &err);

		if (r < 0)
			ret = -1;
		else if (r > 0)
			warning("task %" PRId64 ": the lease was lost before the "
				"task could be marked %s", t->id,
				stopped ? "queued" : "done");
		else
			printf("task %" PRId64 ": %s\n", t->id, stopped ?
			       "stopped: given back to the queue" : "done");
	}
	lab_worker_seen(&w->lab, w->o->name, 0, &err);
	fflush(stdout);
out:
	if (ret < 0 && err.len)
		error("%s", err.buf);
	remove_tree(w->tmp.buf);
	free(done);
	strbuf_release(&err);
	strbuf_release(&reason);
	return ret;
}

/* ---- the loop ---------------------------------------------------------- */

/* what `queue workers` shows of the box */
static void box_facts(struct strbuf *out)
{
	struct utsname u;
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);

	if (!uname(&u))
		strbuf_addf(out, "%s %s, ", u.release, u.machine);
	strbuf_addf(out, "%ld cpus, %lld MiB, pid %ld",
		    sysconf(_SC_NPROCESSORS_ONLN),
		    (long long)pages * psize / (1024 * 1024), (long)getpid());
}

/*
 * The engine roots of workers of this cache that are gone (killed):
 * <cache>/.lab/<pid> whose process no longer exists.
 */
static void sweep_stale(const char *root)
{
	struct strbuf dir = STRBUF_INIT, sub = STRBUF_INIT;
	struct dirent *e;
	DIR *d;

	path_join(&dir, root, ".lab");
	d = opendir(dir.buf);
	while (d && (e = readdir(d))) {
		long pid = strtol(e->d_name, NULL, 10);

		if (pid <= 0 || (kill((pid_t)pid, 0) < 0 && errno != ESRCH) ||
		    !kill((pid_t)pid, 0))
			continue;
		strbuf_reset(&sub);
		path_join(&sub, dir.buf, e->d_name);
		remove_tree(sub.buf);
	}
	if (d)
		closedir(d);
	strbuf_release(&dir);
	strbuf_release(&sub);
}

/*
 * Sleep until something may be claimable: a notification, the first
 * lease of the group running out, or a stop; the worker's heartbeat is
 * kept meanwhile.  For --drain, 1 when nothing is left to wait for.
 */
static int idle(struct worker *w, struct strbuf *err)
{
	int active, r;
	double next_s;

	for (;;) {
		int timeout = beat_ms(w);

		if (lab_pending(&w->lab, w->o->group, &active, &next_s, err) < 0)
			return -1;
		if (w->o->mode == WORKER_DRAIN && !active)
			return 1;
		if (next_s >= 0 && next_s * 1000 < timeout)
			timeout = (int)(next_s * 1000) + 20;
		/* queued but every one being claimed this instant: look again */
		if (active && next_s < 0 && timeout > 1000)
			timeout = 1000;
		r = lab_wait(&w->lab, timeout, &w->waitmask, err);
		if (r < 0)
			return -1;
		if (r > 0 || stop_requested || next_s >= 0 || active)
			return 0;
		if (lab_worker_seen(&w->lab, w->o->name, 0, err) < 0)
			return -1;
	}
}

static int worker_loop(struct worker *w)
{
	struct strbuf err = STRBUF_INIT;
	bool resume = true;
	int ret = EXIT_OK;

	while (!stop_requested) {
		struct lab_task t = {0};
		int r;

		if (lab_reap(&w->lab, w->o->group, &err) < 0)
			goto broken;
		r = lab_claim(&w->lab, w->o->name, w->o->group, w->o->lease_s,
			      resume, &t, &err);
		resume = false;
		if (r < 0)
			goto broken;
		if (r > 0) {
			r = do_task(w, &t);
			lab_task_release(&t);
			if (r) {
				ret = r < 0 ? EXIT_RUNTIME : EXIT_OK;
				break;
			}
			if (w->o->mode == WORKER_ONCE)
				break;
			continue;
		}
		if (w->o->mode == WORKER_ONCE) {
			printf("no task of group '%s' is queued\n", w->o->group);
			break;
		}
		r = idle(w, &err);
		if (r < 0)
			goto broken;
		if (r > 0) {
			printf("drained: no task of group '%s' is queued or "
			       "leased\n", w->o->group);
			break;
		}
	}
	strbuf_release(&err);
	return ret;
broken:
	error("%s", err.buf);
	strbuf_release(&err);
	return EXIT_RUNTIME;
}

int worker_main(const struct worker_opts *o)
{
	struct worker w;
	struct strbuf err = STRBUF_INIT, facts = STRBUF_INIT;
	int ret;

	memset(&w, 0, sizeof(w));
	w.o = o;
	strbuf_init(&w.tmp, 0);
	setup_signals(&w);
	if (mkdir_p(o->root, 0755) < 0) {
		error_errno("cannot make the result root '%s'", o->root);
		return EXIT_RUNTIME;
	}
	sweep_stale(o->root);
	/* absolute: a task's run may start in its own workdir */
	{
		char *abs = realpath(o->root, NULL);

		path_join(&w.tmp, abs ? abs : o->root, ".lab");
		free(abs);
	}
	strbuf_addf(&w.tmp, "/%ld", (long)getpid());
	box_facts(&facts);
	if (lab_open(&w.lab, o->root, o->url, &err) < 0 ||
	    lab_listen(&w.lab, &err) < 0 ||
	    lab_worker_hello(&w.lab, o->name, o->group, facts.buf, &err) < 0) {
		error("%s", err.buf);
		ret = EXIT_RUNTIME;
		goto out;
	}
	printf("worker %s: group '%s', lease %d s\n", o->name, o->group,
	       o->lease_s);
	fflush(stdout);
	ret = worker_loop(&w);
	if (stop_requested)
		printf("worker %s: stopped\n", o->name);
out:
	lab_close(&w.lab);
	remove_tree(w.tmp.buf);
	strbuf_release(&w.tmp);
	strbuf_release(&err);
	strbuf_release(&facts);
	return ret;
}
#endif /* HAVE_LIBPQ */
