/*
 * run.c: `perfsift run JOB.yaml [-n RUNS] [--commit ID] [--set K=V]...
 * [-- CMD ARGS...]` -- LKP's `lkp run` for a local machine.  The job is
 * read, --set applied, split into atomic jobs, and each atomic job run N
 * times.  One run: machine facts into the job, a run directory reserved
 * (result.h), knobs set (setup programs, journaled), monitors started,
 * the benchmark run in its own process group, monitors stopped, knobs
 * restored, <prog>.time and time written, the run finished (parsed,
 * renamed into place, indexed).  SIGINT / SIGTERM / the job's timeout end
 * the benchmark; the cut run is kept as incomplete and nothing more runs.
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "benchmarks/bench.h"
#include "builtin.h"
#include "external/external.h"
#include "compare/compare.h"
#include "job/job.h"
#include "job/kpi.h"
#include "run/knob.h"
#include "run/machine.h"
#include "monitors/time.h"
#include "job/params.h"
#include "job/programs.h"
#include "result/result.h"
#include "run/runner.h"
#include "run/sampler.h"
#include "select/select.h"
#include "setup/setup.h"
#include "job/split.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/timeutil.h"
#include "util/usage.h"
#include "util/xalloc.h"

static const char run_usage[] =
	"usage: perfsift run JOB.yaml [-n RUNS] [--commit ID] [--set KEY=VALUE]...\n"
	"                    [-- CMD ARGS...]\n"
	"\n"
	"  -n, --runs N        run each atomic job N times (default 1); runs are\n"
	"                      numbered on from those already in the result root\n"
	"  --commit ID         the commit this kernel is (default: uname -r)\n"
	"  --set KEY=VALUE     set a job key; PROG.OPTION=VALUE sets a program's option\n"
	"  --until-decided BASE  after the -n runs (default 3) compare each KPI with\n"
	"                      BASE and add runs while one is undecided, up to\n"
	"                      --max-runs (default 20); stop once every KPI is\n"
	"                      changed or the same\n"
	"  --max-runs N        the most runs --until-decided makes of a job\n"
	"  --interleave        run a matrix's atomic jobs round-robin (A B A B ...),\n"
	"                      so drift of the machine falls on every setting alike\n"
	"                      (the default); --sequential: all runs of A, then B\n"
	"  -- CMD ARGS...      the command of a `mytest` job (LKP's external benchmark)\n"
	"\n"
	"A job that is not atomic is split into atomic jobs, run round-robin.\n"
	"SIGINT / SIGTERM / the job's `timeout` end the benchmark's process group;\n"
	"finished runs stay, the cut run is kept marked is_incomplete_run, knobs\n"
	"are restored and the exit status is 3.\n";

/* what one atomic job runs */
struct plan {
	const char *prog;            /* the test program: "mytest", "vm-scalability" */
	const struct bench_ops *ops; /* built-in benchmark, or NULL for mytest */
	char **argv;                 /* mytest: what is exec'd */
	char *cmdline;               /* mytest: the command as text */
	void *params;                /* the built-in benchmark's typed options */
	double runtime_s;            /* the job's runtime, 0 when none */
	double timeout_s;            /* the job's timeout, 0 when none */
};

struct run_ctx {
	struct options *opts;
	const char *sysroot;
	const char *commit;
	char **cmd_argv; /* after `--`, NULL-terminated, or NULL */
	int nr_runs;
	bool tty;
	bool interleave;     /* round-robin over the atomic jobs */
	const char *base;    /* --until-decided BASE, or NULL */
	int max_runs;        /* --max-runs */
	struct strbuf *group_dir; /* run_once: the run's group directory */
	struct machine machine;
	/* the progress line */
	const char *name;
	int run_index, run_total;
	double runtime_s;
	/* the monitors' "not available" notes: said once per command */
	struct sampler_notes monitor_notes;
	/* the outcome */
	int nr_ok, nr_failed, nr_skipped, nr_incomplete, nr_error;
};

enum run_outcome { RUN_OK, RUN_FAILED, RUN_SKIPPED, RUN_STOPPED, RUN_ERROR };

static void plan_release(struct plan *p)
{
	free(p->argv); /* its strings are argv's, literals or cmdline */
	free(p->cmdline);
	free(p->params);
	memset(p, 0, sizeof(*p));
}

/* a shell word that reads back as arg */
static void add_shell_word(struct strbuf *sb, const char *arg)
{
	const char *p;

	for (p = arg; *p; p++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			    "0123456789_@%+=:,./-", *p))
			break;
	if (*arg && !*p) {
		strbuf_addstr(sb, arg);
		return;
	}
	strbuf_addch(sb, '\'');
	for (p = arg; *p; p++) {
		if (*p == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '\'');
}

static const struct program *prog_of(const char *name)
{
	const struct program *p = program_find(name);

	if (!p)
		BUG("'%s' is not in the program table", name);
	return p;
}

/*
 * Find the job's benchmark and what it runs.  Errors are the job file's
 * (`FILE:LINE: KEY: what`), found before anything is written.
 */
static int make_plan(struct job *job, struct run_ctx *c, struct plan *p,
		     struct strbuf *err)
{
	const struct jnode *root = job->root, *node = NULL;
	struct opt_value v;
	size_t i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < root->n; i++) {
		const struct program *prog = program_find(root->keys[i]);

		if (prog && prog->kind == PROG_TEST) {
			if (p->prog) {
				strbuf_addf(err, "%s:%d: %s: a job runs one benchmark (it already has '%s')",
					    job->file, root->kids[i]->line,
					    root->keys[i], p->prog);
				return -1;
			}
			p->prog = root->keys[i];
			node = root->kids[i];
		}
	}
	if (!p->prog) {
		strbuf_addf(err, "%s: no benchmark: the job names no test program "
			    "(e.g. `mytest:` with a command, or `vm-scalability:`)",
			    job->file);
		return -1;
	}
	if (strcmp(p->prog, "mytest")) {
		const struct program *prog = prog_of(p->prog);

		p->ops = bench_find(p->prog);
		if (prog->parse_only) {
			strbuf_addf(err, "%s:%d: %s: perfsift parses its output (`perfsift parse %s FILE`) "
				    "but cannot run it: it is not in Debian's main archive",
				    job->file, node->line, p->prog, p->prog);
			return -1;
		}
		/* an external program not installed: say what brings it, run nothing */
		if (prog->command && ext_need(prog->command, prog->package, err) < 0)
			return -1;
		if (!p->ops) {
			strbuf_addf(err, "%s:%d: %s: not a built-in benchmark of this perfsift",
				    job->file, node->line, p->prog);
			return -1;
		}
		/* the options, typed by the table (checked when the job was read) */
		p->params = xcalloc(1, prog_of(p->prog)->params_size);
		if (param_fill(prog_of(p->prog), job, p->params, err) < 0)
			return -1;
		if (c->cmd_argv) {
			strbuf_addf(err, "a command after `--` is for a `mytest` job; '%s' runs %s",
				    job->file, p->prog);
			return -1;
		}
	} else if (c->cmd_argv) {
		struct strbuf sb = STRBUF_INIT;
		size_t n;

		for (n = 0; c->cmd_argv[n]; n++) {
			if (n)
				strbuf_addch(&sb, ' ');
			add_shell_word(&sb, c->cmd_argv[n]);
		}
		p->cmdline = strbuf_detach(&sb, NULL);
		p->argv = xcalloc(n + 1, sizeof(char *));
		memcpy(p->argv, c->cmd_argv, n * sizeof(char *));
		/* the run's job.yaml says what ran, so the run can be repeated */
		job_set_opt(job, "mytest", "cmdline", p->cmdline);
	} else {
		const char *cmd = job_get_opt(job, "mytest", "cmdline");

		if (!cmd && node->type == JNODE_SCALAR)
			cmd = node->text;
		if (!cmd || !*cmd) {
			strbuf_addf(err, "%s:%d: mytest: no command: give it after `--` "
				    "or as `mytest: {cmdline: \"...\"}`",
				    job->file, node->line);
			return -1;
		}
		p->cmdline = xstrdup(cmd);
		p->argv = xcalloc(4, sizeof(char *));
		p->argv[0] = (char *)"/bin/sh";
		p->argv[1] = (char *)"-c";
		p->argv[2] = p->cmdline;
	}
	/* the program's runtime option, else the top-level key; the timeout */
	if (param_value(job, prog_of(p->prog), "runtime", &v, err) < 0)
		return -1;
	p->runtime_s = v.num;
	if (param_value(job, NULL, "timeout", &v, err) < 0)
		return -1;
	p->timeout_s = v.num;
	return 0;
}

/* ---- progress ---------------------------------------------------------- */

/*
 * Progress goes to stdout, which may be a pipe whose reader has gone
 * (`perfsift run ... | head`) or a terminal that hung up.  SIGPIPE is
 * ignored while a job runs (ignore_hangups), so a write fails instead of
 * killing perfsift halfway through a run; the rest of the progress then
 * goes to /dev/null and the job goes on to its end.
 */
static void flush_progress(void)
{
	int fd;

	/* EIO: the terminal hung up */
	if (!fflush(stdout) || (errno != EPIPE && errno != EIO))
		return;
	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
	clearerr(stdout);
}

static void progress_tick(void *arg, double elapsed_s)
{
	struct run_ctx *c = arg;

	if (!c->tty)
		return;
	if (c->runtime_s > 0)
		printf("\r%s: run %d of %d: %.0f s of %.0f s\033[K", c->name,
		       c->run_index, c->run_total, elapsed_s, c->runtime_s);
	else
		printf("\r%s: run %d of %d: %.0f s\033[K", c->name, c->run_index,
		       c->run_total, elapsed_s);
	flush_progress();
}

static void progress_end(struct run_ctx *c)
{
	if (c->tty) {
		printf("\r\033[K");
		flush_progress();
	}
}

/*
 * A closed pipe or a hung-up terminal is not a reason to stop a job:
 * SIGPIPE is ignored (writes fail with EPIPE, see flush_progress) and
 * SIGHUP blocked, so it never arrives, as under nohup.  The benchmark
 * does not inherit either: the runner gives it the default SIGPIPE and an
 * empty signal mask, and it runs in its own process group, which a
 * terminal's hangup does not reach.
 */
static void ignore_hangups(void)
{
	sigset_t hup;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&hup);
	sigaddset(&hup, SIGHUP);
	sigprocmask(SIG_BLOCK, &hup, NULL);
}

/* ---- one run ----------------------------------------------------------- */

struct bench_child {
	const struct bench_ops *ops;
	struct bench_ctx *ctx;
};

static int bench_child_run(void *arg)
{
	struct bench_child *b = arg;

	return b->ops->run(b->ctx);
}

static int write_tmp_file(const char *dir, const char *name,
			  const struct strbuf *text, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	path_join(&path, dir, name);
	ret = write_file_atomic(path.buf, text->buf, text->len);
	if (ret < 0)
		strbuf_addf(err, "cannot write '%s': %s", path.buf, strerror(errno));
	strbuf_release(&path);
	return ret;
}

/* an empty raw file says nothing: LKP's run-stats deletes it too */
static void drop_if_empty(const char *dir, const char *name)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;

	path_join(&path, dir, name);
	if (!stat(path.buf, &st) && st.st_size == 0)
		unlink(path.buf);
	strbuf_release(&path);
}

/* show the tail of the benchmark's stderr when it failed */
static void show_stderr_tail(const char *dir)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	const char *p;
	int lines = 0;

	path_join(&path, dir, "stderr");
	if (strbuf_read_file(&text, path.buf, 1 << 20) >= 0 && text.len) {
		strbuf_rtrim(&text);
		for (p = text.buf + text.len; p > text.buf; p--)
			if (p[-1] == '\n' && ++lines == 5)
				break;
		fprintf(stderr, "%s\n", p);
	}
	strbuf_release(&path);
	strbuf_release(&text);
}

static bool env_name_ok(const char *k)
{
	const char *p;

	if (!*k || (*k >= '0' && *k <= '9'))
		return false;
	for (p = k; *p; p++)
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9')))
			return false;
	return true;
}

static void env_push(char ***env, size_t *n, size_t *alloc, char *kv)
{
	ALLOC_GROW(*env, *n + 2, *alloc);
	(*env)[(*n)++] = kv;
	(*env)[*n] = NULL;
}

/*
 * What LKP hands a test program: the job's plain keys and the program's
 * options as environment variables (`nr_threads=4`, `test=anon-r-seq`),
 * and where its results go (RESULT_ROOT, TMP_RESULT_ROOT: the run's
 * directory while it runs).  Caller frees with free_env().
 */
/* the monitors, started by the runner once the benchmark is forked */
struct monitors_start {
	const struct job *job;
	const char *out_dir;
	const char *sysroot;
	struct strbuf *why;
	struct sampler_notes *notes;
	struct sampler *sampler;
};

static void start_monitors(void *arg)
{
	struct monitors_start *ms = arg;

	ms->sampler = sampler_start(ms->job, ms->out_dir, ms->sysroot, ms->notes,
				    ms->why);
	if (!ms->sampler && ms->why->len)
		warning("monitors: %s", ms->why->buf);
}

static char **job_env(const struct job *job, const char *prog,
		      const struct result_run *run)
{
	const struct jnode *root = job->root, *opts = job_program(job, prog);
	char **env = NULL;
	size_t n = 0, alloc = 0, i;

	for (i = 0; i < root->n; i++)
		if (root->kids[i]->type == JNODE_SCALAR && env_name_ok(root->keys[i]))
			env_push(&env, &n, &alloc, xasprintf("%s=%s", root->keys[i],
							     root->kids[i]->text));
	for (i = 0; opts && opts->type == JNODE_MAP && i < opts->n; i++)
		if (opts->kids[i]->type == JNODE_SCALAR && env_name_ok(opts->keys[i]) &&
		    strcmp(opts->keys[i], "cmdline"))
			env_push(&env, &n, &alloc, xasprintf("%s=%s", opts->keys[i],
							     opts->kids[i]->text));
	env_push(&env, &n, &alloc, xasprintf("RESULT_ROOT=%s", run->dir));
	env_push(&env, &n, &alloc, xasprintf("TMP_RESULT_ROOT=%s", run->tmp_dir));
	return env;
}

static void free_env(char **env)
{
	char **e;

	for (e = env; e && *e; e++)
		free(*e);
	free(env);
}

static enum run_outcome run_once(struct run_ctx *c, const struct job *atomic,
				 const struct plan *p)
{
	const char *root = c->opts->result_root;
	struct job *job = job_dup(atomic);
	struct strbuf gdir = STRBUF_INIT, err = STRBUF_INIT, log = STRBUF_INIT;
	struct strbuf state = STRBUF_INIT, text = STRBUF_INIT, why = STRBUF_INIT;
	struct strbuf out_path = STRBUF_INIT, err_path = STRBUF_INIT;
	struct strbuf skip = STRBUF_INIT;
	struct result_run run = {0};
	struct runner_result res = {0};
	struct runner_cmd cmd = {0};
	struct bench_ctx bctx = {0};
	struct bench_child bchild;
	struct sampler *sampler = NULL;
	struct monitors_start ms = {0};
	char scratch[] = "/tmp/perfsift-scratch.XXXXXX";
	bool prepared = false, have_scratch = false, ran = false;
	bool complete = false;
	enum run_outcome outcome = RUN_ERROR;
	int r;

	machine_fill_job(&c->machine, job, c->commit);
	kpi_fill_job(job); /* the run records what it is judged by */
	if (result_group_dir(job, root, &gdir, &err) < 0 ||
	    result_run_begin(&run, gdir.buf, &err) < 0) {
		error("%s", err.buf);
		goto out_nofinish;
	}
	if (c->group_dir) {
		strbuf_reset(c->group_dir);
		strbuf_addbuf(c->group_dir, &gdir);
	}
	job_to_yaml(job, &text);
	if (write_tmp_file(run.tmp_dir, "job.yaml", &text, &err) < 0) {
		error("%s", err.buf);
		result_run_abort(&run);
		goto out_nofinish;
	}
	if (!c->tty)
		printf("%s: run %d of %d -> %s\n", c->name, c->run_index,
		       c->run_total, run.dir);
	flush_progress();

	/* knobs: journaled before each change, put back below whatever happens */
	knob_init(c->sysroot);
	if (setup_apply_at(job, c->sysroot, &log, &err) < 0) {
		error("%s", err.buf);
		strbuf_addstr(&state, "setup_failed: 1\n");
		goto finish;
	}
	if (log.len) {
		/* kept with the run (what was set, what could not be here) */
		if (write_tmp_file(run.tmp_dir, "setup.log", &log, &err) < 0) {
			error("%s", err.buf);
			strbuf_reset(&err);
		}
		if (c->run_index == 1)
			fputs(log.buf, stdout); /* the same for every run: say it once */
		flush_progress();
	}
	if (runner_stop_signal())
		goto finish;

	if (p->ops) {
		if (!mkdtemp(scratch)) {
			error_errno("cannot create a scratch directory");
			strbuf_addstr(&state, "prepare_failed: 1\n");
			goto finish;
		}
		have_scratch = true;
		bctx.job = job;
		bctx.scratch = scratch;
		bctx.sysroot = c->sysroot;
		bctx.nr_cpu = c->machine.nr_cpu;
		bctx.mem_total = c->machine.mem_total;
		bctx.params = p->params;
		bctx.skip_reason = &skip;
		switch (p->ops->prepare(&bctx, &err)) {
		case BENCH_OK:
			prepared = true;
			break;
		case BENCH_SKIP:
			prepared = true;
			printf("%s: skipped: %s\n", c->name, skip.buf);
			strbuf_addf(&state, "skipped: %s\n", skip.buf);
			outcome = RUN_SKIPPED;
			goto finish;
		default:
			error("%s: %s", p->prog, err.buf);
			strbuf_addstr(&state, "prepare_failed: 1\n");
			goto finish;
		}
		bchild.ops = p->ops;
		bchild.ctx = &bctx;
		cmd.fn = bench_child_run;
		cmd.arg = &bchild;
	} else {
		cmd.argv = p->argv;
	}
	if (runner_stop_signal())
		goto finish;

	path_join(&out_path, run.tmp_dir, p->prog);
	path_join(&err_path, run.tmp_dir, "stderr");
	cmd.stdout_path = out_path.buf;
	cmd.stderr_path = err_path.buf;
	cmd.timeout_s = p->timeout_s;
	cmd.tick = progress_tick;
	cmd.tick_arg = c;
	cmd.env = job_env(job, p->prog, &run);

	ms.job = job;
	ms.out_dir = run.tmp_dir;
	ms.sysroot = c->sysroot;
	ms.why = &why;
	ms.notes = &c->monitor_notes;
	ms.sampler = NULL;
	cmd.before_go = start_monitors;
	cmd.before_go_arg = &ms;
	progress_tick(c, 0);
	if (runner_run(&cmd, &res, &err) < 0) {
		error("%s", err.buf);
		strbuf_addstr(&state, "start_failed: 1\n");
	} else {
		ran = !(res.stop_signal && res.wait_status == 0 && res.elapsed_s == 0);
	}
	sampler = ms.sampler;
	if (sampler && sampler_stop(sampler) < 0)
		warning("monitors: could not stop cleanly");
	sampler = NULL;
	progress_end(c);

finish:
	if (prepared && p->ops->cleanup)
		p->ops->cleanup(&bctx);
	prepared = false;
	if (have_scratch && remove_tree(scratch) < 0)
		warning("cannot remove the scratch directory '%s'", scratch);
	have_scratch = false;
	/* the run's record of every knob it ran under (setup's and the benchmark's) */
	strbuf_reset(&text);
	knob_applied(&text);
	if (text.len && write_tmp_file(run.tmp_dir, "knobs", &text, &err) < 0)
		error("%s", err.buf);
	if (knob_restore_all() < 0)
		strbuf_addstr(&state, "knob_restore_failed: 1\n");

	if (ran) {
		int st = res.wait_status;

		strbuf_reset(&text);
		time_format_verbose(&text, p->cmdline ? p->cmdline : p->prog,
				    &res.ru, res.elapsed_s, st);
		strbuf_reset(&why);
		strbuf_addf(&why, "%s.time", p->prog);
		/* LKP's `time` is every test's <prog>.time appended: one test here */
		if (write_tmp_file(run.tmp_dir, why.buf, &text, &err) < 0 ||
		    write_tmp_file(run.tmp_dir, "time", &text, &err) < 0) {
			error("%s", err.buf);
			strbuf_reset(&err);
		}
		strbuf_reset(&why);
		runner_describe(&res, &why);
		if (res.timed_out) {
			strbuf_addstr(&state, "timeout: 1\n");
		} else if (res.stop_signal) {
			strbuf_addf(&state, "interrupted: %d\n", res.stop_signal);
		} else if (res.killed) {
			strbuf_addstr(&state, "killed_by_sigkill: 1\n");
			if (res.oom_kill)
				strbuf_addstr(&state, "oom_killed: 1\n");
		} else if (WIFSIGNALED(st)) {
			strbuf_addf(&state, "killed_by_signal.%d: 1\n", WTERMSIG(st));
		} else if (WIFEXITED(st) && WEXITSTATUS(st)) {
			strbuf_addf(&state, "exit_code.%d: 1\n", WEXITSTATUS(st));
			/* a built-in benchmark's worker (a grandchild) died of it */
			if (res.oom_during)
				strbuf_addstr(&state, "oom_killed: 1\n");
		} else {
			complete = true;
		}
		if (!complete) {
			printf("%s: run %d of %d: %s (%.2f s)\n", c->name,
			       c->run_index, c->run_total, why.buf, res.elapsed_s);
			if (!res.stop_signal && !res.timed_out)
				show_stderr_tail(run.tmp_dir);
		}
		if (res.stop_signal)
			outcome = RUN_STOPPED;
		else
			outcome = complete ? RUN_OK : RUN_FAILED;
	} else if (runner_stop_signal()) {
		strbuf_addf(&state, "interrupted: %d\n", runner_stop_signal());
		outcome = RUN_STOPPED;
	} else if (outcome != RUN_SKIPPED) {
		outcome = RUN_FAILED;
	}
	flush_progress();
	drop_if_empty(run.tmp_dir, "stderr");
	drop_if_empty(run.tmp_dir, p->prog);
	if (state.len && write_tmp_file(run.tmp_dir, "last_state", &state, &err) < 0) {
		/*
		 * A run that cannot be marked cannot be published (a full
		 * disk): it stays in its temporary directory, which the next
		 * run in this group sets aside as .stale-*, and the job stops.
		 */
		error("%s", err.buf);
		outcome = RUN_ERROR;
		goto out_nofinish;
	}
	r = result_run_finish(&run, root, c->opts->store_url, complete, &err);
	if (r == -2 && complete) {
		/*
		 * A raw file of a finished run cannot be parsed: keep the run,
		 * marked incomplete (its files are there to look at), rather
		 * than leave a .tmp-<n> for the next run to sweep away.
		 */
		error("%s (the run is kept, marked incomplete)", err.buf);
		strbuf_reset(&err);
		outcome = RUN_FAILED;
		r = result_run_finish(&run, root, c->opts->store_url, false, &err);
	}
	if (r < 0) {
		error("%s", err.buf);
		outcome = RUN_ERROR;
	} else if (outcome == RUN_OK) {
		/* only now: a "done" run is on disk and in the index */
		printf("%s: run %d of %d: done in %.2f s\n", c->name,
		       c->run_index, c->run_total, res.elapsed_s);
		flush_progress();
	}
out_nofinish:
	free_env(cmd.env);
	result_run_release(&run);
	job_free(job);
	strbuf_release(&gdir);
	strbuf_release(&err);
	strbuf_release(&log);
	strbuf_release(&state);
	strbuf_release(&text);
	strbuf_release(&why);
	strbuf_release(&out_path);
	strbuf_release(&err_path);
	strbuf_release(&skip);
	return outcome;
}

/* ---- runs of the atomic jobs: round-robin, until decided ----------------- */

/* one atomic job's runs in this command */
struct job_runs {
	struct strbuf name; /* its file name without .yaml (progress lines) */
	struct strbuf gdir; /* its result group, once a run began */
	int done;           /* runs made (or tried) */
	bool finished;      /* skipped on this machine, or decided */
};

/* run atomic job j once and count the outcome; true when all must stop */
static bool run_counted(struct run_ctx *c, struct job_runs *jr,
			const struct job *atomic, const struct plan *p,
			enum run_outcome *o)
{
	c->name = jr->name.buf;
	c->runtime_s = p->runtime_s;
	c->run_index = jr->done + 1;
	c->run_total = c->base ? c->max_runs : c->nr_runs;
	c->group_dir = &jr->gdir;
	/* stopped between two runs: no run is cut, none is begun */
	if (runner_stop_signal()) {
		*o = RUN_STOPPED;
		return true;
	}
	*o = run_once(c, atomic, p);
	c->group_dir = NULL;
	jr->done++;
	if (*o == RUN_OK)
		c->nr_ok++;
	else if (*o == RUN_SKIPPED)
		c->nr_skipped++;
	else if (*o == RUN_STOPPED)
		c->nr_incomplete++;
	else if (*o == RUN_ERROR)
		c->nr_error++;
	else
		c->nr_failed++;
	if (*o == RUN_SKIPPED)
		jr->finished = true; /* this machine cannot run it: once is enough */
	return *o == RUN_STOPPED || *o == RUN_ERROR;
}

/*
 * nruns runs of each of the k jobs: round-robin (A B A B ...) with
 * --interleave, else (k is 1) one job's runs in a row.
 */
static bool run_rounds(struct run_ctx *c, struct job_runs *jr,
		       struct job **atomic, const struct plan *plans, size_t k,
		       int nruns, enum run_outcome *o)
{
	int r;
	size_t j;

	for (r = 0; r < nruns; r++)
		for (j = 0; j < k; j++)
			if (!jr[j].finished &&
			    run_counted(c, &jr[j], atomic[j], &plans[j], o))
				return true;
	return false;
}

/*
 * The KPIs of job jr against BASE: compare_groups() with every KPI a
 * row, tallied by verdict.  0, or -1 with err.
 */
static int judge_kpis(struct run_ctx *c, const struct job_runs *jr,
		      struct compare_kpi_tally *t, struct strbuf *line,
		      struct strbuf *err)
{
	struct select_ctx sc = { c->opts->result_root, c->opts->store_url };
	struct result_group g[2];
	const struct result_group *gp[2] = { &g[0], &g[1] };
	struct compare_options o;
	struct compare_result res;
	int ret = -1;

	result_group_init(&g[1]);
	if (select_group(&sc, c->base, &g[0], err))
		return -1;
	if (select_group_dir(jr->gdir.buf, &g[1], err))
		goto out;
	if (g[0].dir && !strcmp(g[0].dir, g[1].dir)) {
		strbuf_addf(err, "--until-decided '%s' is the group being run", c->base);
		goto out;
	}
	compare_options_init(&o);
	o.kpi = true;            /* every KPI a row, "same" ones too */
	o.no_statistics = true;  /* the KPIs' own are computed anyway */
	if (compare_groups(gp, 2, &o, &res, err))
		goto out;
	compare_kpi_tally(&res, t);
	strbuf_reset(line);
	if (t->undecided)
		compare_undecided_line(&res, t->worst, 1, line);
	else if (t->worst)
		strbuf_addf(line, "%s %s", t->worst->name,
			    compare_kpi_verdict_name(&t->worst->cells[1]));
	compare_result_release(&res);
	ret = 0;
out:
	result_group_release(&g[0]);
	result_group_release(&g[1]);
	return ret;
}

/*
 * --until-decided: judge each of the k jobs after its runs so far; one
 * with an undecided KPI gets one more run (round-robin), until every KPI
 * is changed or the same, or the job has had --max-runs.
 */
static bool run_until_decided(struct run_ctx *c, struct job_runs *jr,
			      struct job **atomic, const struct plan *plans,
			      size_t k, enum run_outcome *o)
{
	struct strbuf err = STRBUF_INIT, line = STRBUF_INIT;
	bool stop = false, left = true;
	size_t j;

	while (left && !stop) {
		left = false;
		for (j = 0; j < k; j++) {
			struct compare_kpi_tally t;

			if (jr[j].finished || !jr[j].gdir.len)
				continue;
			if (judge_kpis(c, &jr[j], &t, &line, &err)) {
				error("%s: --until-decided: %s", jr[j].name.buf, err.buf);
				c->nr_error++;
				*o = RUN_ERROR;
				stop = true;
				break;
			}
			if (!t.changed && !t.same && !t.undecided) {
				warning("%s: no KPI to decide against '%s' (none judged: "
					"declare one with `kpi:`)", jr[j].name.buf, c->base);
				jr[j].finished = true;
			} else if (!t.undecided) {
				printf("%s: decided after %d runs: %zu KPI%s changed, %zu the same (%s)\n",
				       jr[j].name.buf, jr[j].done, t.changed,
				       t.changed == 1 ? "" : "s", t.same, line.buf);
				jr[j].finished = true;
			} else if (t.base_limited == t.undecided) {
				printf("%s: still undecided after %d runs, and more runs here "
				       "would not decide it: BASE's runs are too few or too "
				       "noisy (give '%s' more runs): %s\n",
				       jr[j].name.buf, jr[j].done, c->base, line.buf);
				jr[j].finished = true;
			} else if (jr[j].done >= c->max_runs) {
				printf("%s: still undecided after the maximum of %d runs: %s\n",
				       jr[j].name.buf, jr[j].done, line.buf);
				jr[j].finished = true;
			} else {
				printf("%s: after %d runs, %s\n", jr[j].name.buf,
				       jr[j].done, line.buf);
				left = true;
			}
			strbuf_reset(&err);
		}
		fflush(stdout);
		for (j = 0; j < k && left && !stop; j++)
			if (!jr[j].finished)
				stop = run_counted(c, &jr[j], atomic[j], &plans[j], o);
	}
	strbuf_release(&err);
	strbuf_release(&line);
	return stop;
}

/*
 * Every atomic job: its -n runs (round-robin over the jobs with
 * --interleave), then, with --until-decided, more until decided.
 */
static enum run_outcome run_all(struct run_ctx *c, struct job **atomic,
				const struct plan *plans, size_t n)
{
	struct job_runs *jr = xcalloc(n ? n : 1, sizeof(*jr));
	enum run_outcome o = RUN_OK;
	bool stop = false;
	size_t i;

	for (i = 0; i < n; i++) {
		strbuf_init(&jr[i].name, 0);
		strbuf_init(&jr[i].gdir, 0);
		split_job_filename(atomic[i], &jr[i].name);
		if (jr[i].name.len > 5 &&
		    !strcmp(jr[i].name.buf + jr[i].name.len - 5, ".yaml"))
			strbuf_setlen(&jr[i].name, jr[i].name.len - 5);
	}
	if (c->interleave) {
		stop = run_rounds(c, jr, atomic, plans, n, c->nr_runs, &o);
		if (!stop && c->base)
			run_until_decided(c, jr, atomic, plans, n, &o);
	} else {
		for (i = 0; i < n && !stop; i++) {
			stop = run_rounds(c, &jr[i], &atomic[i], &plans[i], 1,
					  c->nr_runs, &o);
			if (!stop && c->base)
				stop = run_until_decided(c, &jr[i], &atomic[i],
							 &plans[i], 1, &o);
		}
	}
	for (i = 0; i < n; i++) {
		strbuf_release(&jr[i].name);
		strbuf_release(&jr[i].gdir);
	}
	free(jr);
	return o;
}

/* ---- the command --------------------------------------------------------- */

/* --until-decided: BASE must name one group now; -n defaults to 3 */
static int check_base(struct run_ctx *c, bool runs_given)
{
	struct select_ctx sc = { c->opts->result_root, c->opts->store_url };
	struct result_group g;
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	if (!runs_given)
		c->nr_runs = 3; /* LKP's rules judge nothing below 3 a side */
	if (c->max_runs < c->nr_runs) {
		error("--max-runs %d is below -n %d", c->max_runs, c->nr_runs);
		return -1;
	}
	if (select_group(&sc, c->base, &g, &err)) {
		error("--until-decided: %s", err.buf);
		ret = -1;
	} else {
		result_group_release(&g);
	}
	strbuf_release(&err);
	return ret;
}

static int load_jobs(const char *path, struct run_ctx *c, char **sets,
		     size_t nr_sets, struct job ***atomic, size_t *nr_atomic,
		     struct plan **plans)
{
	struct job **jobs = NULL, **parts = NULL;
	size_t njobs = 0, nparts, i, j, alloc = 0;
	struct strbuf err = STRBUF_INIT;
	int ret = -1;

	*atomic = NULL;
	*nr_atomic = 0;
	*plans = NULL;
	if (job_load_file(path, &jobs, &njobs, &err) < 0)
		goto out;
	for (j = 0; njobs && j < nr_sets; j++)
		job_warn_set(jobs[0], sets[j]);
	for (i = 0; i < njobs; i++) {
		for (j = 0; j < nr_sets; j++)
			if (job_apply_set(jobs[i], sets[j], &err) < 0)
				goto out;
		if (split_job(jobs[i], &parts, &nparts, &err) < 0)
			goto out;
		for (j = 0; j < nparts; j++) {
			ALLOC_GROW(*atomic, *nr_atomic + 1, alloc);
			(*atomic)[(*nr_atomic)++] = parts[j];
		}
		free(parts);
		parts = NULL;
	}
	*plans = xcalloc(*nr_atomic ? *nr_atomic : 1, sizeof(**plans));
	for (i = 0; i < *nr_atomic; i++)
		if (make_plan((*atomic)[i], c, &(*plans)[i], &err) < 0)
			goto out;
	ret = 0;
out:
	if (ret < 0)
		fprintf(stderr, "perfsift run: %s\n", err.buf);
	job_free_all(jobs, njobs);
	strbuf_release(&err);
	return ret;
}

int cmd_run(int argc, char **argv, struct options *opts)
{
	static const struct option longopts[] = {
		{"runs", required_argument, NULL, 'n'},
		{"commit", required_argument, NULL, 'c'},
		{"set", required_argument, NULL, 's'},
		{"until-decided", required_argument, NULL, 'u'},
		{"max-runs", required_argument, NULL, 'M'},
		{"interleave", no_argument, NULL, 'I'},
		{"sequential", no_argument, NULL, 'S'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	bool runs_given = false;
	struct run_ctx c = {0};
	struct job **atomic = NULL;
	struct plan *plans = NULL;
	size_t nr_atomic = 0, nr_sets = 0, alloc_sets = 0, i;
	char **sets = NULL;
	int argc_opts = argc, ch, status = EXIT_OK;
	long long n;
	const char *why, *env;
	enum run_outcome o = RUN_OK;

	/* everything after `--` is the command; getopt must not see it */
	for (i = 1; i < (size_t)argc; i++)
		if (!strcmp(argv[i], "--")) {
			argc_opts = (int)i;
			c.cmd_argv = argv + i + 1;
			break;
		}
	c.opts = opts;
	c.nr_runs = 1;
	c.max_runs = 20;
	c.interleave = true;
	while ((ch = getopt_long(argc_opts, argv, "n:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'n':
			if (strnum_ll(optarg, 1, 99, &n, &why) < 0) {
				error("-n '%s': %s (1..99 runs, LKP's limit)", optarg, why);
				free(sets);
				return EXIT_USAGE;
			}
			c.nr_runs = (int)n;
			runs_given = true;
			break;
		case 'u':
			c.base = optarg;
			break;
		case 'M':
			if (strnum_ll(optarg, 1, 99, &n, &why) < 0) {
				error("--max-runs '%s': %s (1..99 runs)", optarg, why);
				free(sets);
				return EXIT_USAGE;
			}
			c.max_runs = (int)n;
			break;
		case 'I':
			c.interleave = true;
			break;
		case 'S':
			c.interleave = false;
			break;
		case 'c':
			c.commit = optarg;
			break;
		case 's':
			ALLOC_GROW(sets, nr_sets + 1, alloc_sets);
			sets[nr_sets++] = optarg;
			break;
		case 'h':
			free(sets);
			return cmd_usage(run_usage, false);
		default:
			free(sets);
			return cmd_usage(run_usage, true);
		}
	}
	if (optind + 1 != argc_opts || (c.cmd_argv && !c.cmd_argv[0])) {
		free(sets);
		return cmd_usage(run_usage, true);
	}
	if (c.commit && !*c.commit) {
		free(sets);
		error("--commit: empty commit id");
		return EXIT_USAGE;
	}
	for (i = 0; c.commit && c.commit[i]; i++) {
		unsigned char b = (unsigned char)c.commit[i];

		if (b < 0x20 || b == 0x7f || b == '/') {
			/* it names a directory of the result root */
			free(sets);
			error("--commit: a commit id has no '/', newline or other "
			      "control character");
			return EXIT_USAGE;
		}
	}
	if (c.base && check_base(&c, runs_given) < 0) {
		free(sets);
		return EXIT_USAGE;
	}
	/* a fake /proc and /sys tree for the knobs, for tests */
	env = getenv("PERFSIFT_SYSROOT");
	c.sysroot = env && *env ? env : "/";

	/* no signal may kill us halfway through writing a run */
	runner_block_signals();
	ignore_hangups();
	if (load_jobs(argv[optind], &c, sets, nr_sets, &atomic, &nr_atomic,
		      &plans) < 0) {
		status = EXIT_USAGE;
		goto out;
	}
	c.tty = isatty(1);
	machine_probe(&c.machine, "/");

	o = run_all(&c, atomic, plans, nr_atomic);
	if (o == RUN_STOPPED) {
		int sig = runner_stop_signal();

		error("interrupted by %s: finished runs are kept, the cut run is "
		      "marked incomplete", sig == SIGTERM ? "SIGTERM" : "SIGINT");
		status = EXIT_RUNTIME;
	} else if (c.nr_error) {
		error("stopped: a run could not be recorded (see above); the "
		      "finished runs are kept");
		status = EXIT_RUNTIME;
	} else if (c.nr_failed) {
		error("%d run%s failed (see last_state in the run directory)",
		      c.nr_failed, c.nr_failed == 1 ? "" : "s");
		status = EXIT_RUNTIME;
	}
	machine_release(&c.machine);
	sampler_notes_release(&c.monitor_notes);
	flush_progress(); /* a closed pipe is not the job's failure */
out:
	for (i = 0; i < nr_atomic; i++)
		plan_release(&plans[i]);
	free(plans);
	job_free_all(atomic, nr_atomic);
	free(sets);
	return status;
}
