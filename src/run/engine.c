/*
 * engine.c: one run of one atomic job (engine.h has the contract).  The
 * run is a struct one_run carried through named phases -- begin (the run
 * directory), knobs (setup programs), prepare (the built-in benchmark),
 * start (monitors and benchmark), undo (cleanup and knobs back), judge
 * (how the benchmark ended, into last_state) and publish (finish the
 * run) -- so that each promise of the contract sits in one place: undo()
 * is reached on every path once the directory exists, which is what makes
 * "knobs restored" and "cleanup always" true.
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "benchmarks/bench.h"
#include "external/external.h"
#include "job/job.h"
#include "job/kpi.h"
#include "job/params.h"
#include "job/lkp_meta.h"
#include "job/lkp_pkg.h"
#include "job/plugins.h"
#include "job/programs.h"
#include "monitors/time.h"
#include "result/result.h"
#include "run/daemons.h"
#include "run/engine.h"
#include "setup/knob.h"
#include "run/runner.h"
#include "run/vm.h"
#include "setup/setup.h"
#include "util/fileutil.h"
#include "util/usage.h"
#include "util/xalloc.h"

/* ---- the plan: what an atomic job runs ----------------------------------- */

void engine_plan_release(struct engine_plan *p)
{
	free(p->argv); /* its strings are argv's, literals or cmdline */
	free(p->cmdline);
	free(p->params);
	memset(p, 0, sizeof(*p));
}

/* the job loader only lets table programs through: a miss is our bug */
static const struct program *prog_of(const char *name)
{
	const struct program *p = program_find(name);

	if (!p)
		BUG("'%s' is not in the program table", name);
	return p;
}

/* the job's one test program (PROG_TEST), or -1 with err */
static int find_test_program(const struct job *job, struct engine_plan *p,
			     const struct jnode **node, struct strbuf *err)
{
	const struct jnode *root = job->root;
	size_t i;

	for (i = 0; i < root->n; i++) {
		const struct program *prog = program_find(root->keys[i]);

		/* a server role's daemon runs beside the benchmark (daemons.c) */
		if (prog && prog->kind == PROG_TEST && !plugin_daemon_script(prog)) {
			if (p->prog) {
				strbuf_addf(err, "%s:%d: %s: a job runs one benchmark (it already has '%s')",
					    job->file, root->kids[i]->line,
					    root->keys[i], p->prog);
				return -1;
			}
			p->prog = root->keys[i];
			*node = root->kids[i];
		}
	}
	if (!p->prog) {
		strbuf_addf(err, "%s: no benchmark: the job names no test program "
			    "(e.g. `mytest:` with a command, or `vm-scalability:`)",
			    job->file);
		return -1;
	}
	return 0;
}

/* mytest: the command after `--`, else mytest.cmdline (or mytest's scalar) */
static int plan_mytest(struct job *job, const struct jnode *node,
		       char **cmd_argv, struct engine_plan *p, struct strbuf *err)
{
	const char *cmd;

	if (cmd_argv) {
		struct strbuf sb = STRBUF_INIT;
		size_t n;

		for (n = 0; cmd_argv[n]; n++) {
			if (n)
				strbuf_addch(&sb, ' ');
			strbuf_add_shell_word(&sb, cmd_argv[n]);
		}
		p->cmdline = strbuf_detach(&sb, NULL);
		p->argv = xcalloc(n + 1, sizeof(char *));
		memcpy(p->argv, cmd_argv, n * sizeof(char *));
		/* the run's job.yaml says what ran, so the run can be repeated */
		job_set_opt(job, "mytest", "cmdline", p->cmdline);
		return 0;
	}
	cmd = job_get_opt(job, "mytest", "cmdline");
	if (!cmd && node->type == JNODE_SCALAR)
		cmd = node->text;
	if (!cmd || !*cmd) {
		strbuf_addf(err, "%s:%d: mytest: no command: give it after `--` "
			    "or as `mytest: {cmdline: \"...\"}`",
			    job->file, node->line);
		return -1;
	}
	/* through a shell, as LKP's own test scripts are run */
	p->cmdline = xstrdup(cmd);
	p->argv = xcalloc(4, sizeof(char *));
	p->argv[0] = (char *)"/bin/sh";
	p->argv[1] = (char *)"-c";
	p->argv[2] = p->cmdline;
	return 0;
}

/*
 * A plug-in (plugins.h): its run script, exec'd as it is (any
 * executable, as LKP's programs/<p>/run), with no command of its own.
 */
static int plan_plugin(const struct job *job, const struct jnode *node,
		       const struct program *prog, char **cmd_argv,
		       struct engine_plan *p, struct strbuf *err)
{
	const char *run = plugin_run_script(prog);

	if (cmd_argv) {
		strbuf_addf(err, "a command after `--` is for a `mytest` job; '%s' runs the plug-in %s",
			    job->file, run);
		return -1;
	}
	if (access(run, X_OK)) {
		strbuf_addf(err, "%s:%d: %s: the plug-in's run script %s is %s",
			    job->file, node->line, p->prog, run,
			    access(run, F_OK) ? "missing (the plug-in can only parse)" :
						"not executable (chmod +x it)");
		return -1;
	}
	{
		struct strbuf why = STRBUF_INIT;

		/* LKP's script would die on it later, after the monitors started */
		if (!lkp_bench_ready(plugin_dir(prog), p->prog, run, &why)) {
			strbuf_addf(err, "%s:%d: %s: %s", job->file, node->line, p->prog,
				    why.buf);
			strbuf_release(&why);
			return -1;
		}
		strbuf_release(&why);
	}
	/* said before it runs (a run may take hours), and again when parsed */
	if (plugin_parse_needs_ruby(prog) && !plugin_have_ruby())
		warning("%s: its parse script %s is a Ruby script and Ruby is not "
			"installed (apt-get install ruby): the run is made and its raw "
			"output kept, but it gets no %s stats until `perfsift stats "
			"RUN_DIR` parses it with Ruby there",
			p->prog, plugin_parse_script(prog), p->prog);
	p->plugin = true;
	p->cmdline = xstrdup(run);
	p->argv = xcalloc(2, sizeof(char *));
	p->argv[0] = p->cmdline;
	return 0;
}

int engine_plan_make(struct job *job, char **cmd_argv, struct engine_plan *p,
		     struct strbuf *err)
{
	const struct jnode *node = NULL;
	struct opt_value v;

	memset(p, 0, sizeof(*p));
	if (find_test_program(job, p, &node, err) < 0)
		return -1;
	if (prog_of(p->prog)->plugin_dir) {
		if (plan_plugin(job, node, prog_of(p->prog), cmd_argv, p, err) < 0)
			return -1;
	} else if (strcmp(p->prog, "mytest")) {
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
		if (cmd_argv) {
			strbuf_addf(err, "a command after `--` is for a `mytest` job; '%s' runs %s",
				    job->file, p->prog);
			return -1;
		}
	} else if (plan_mytest(job, node, cmd_argv, p, err) < 0) {
		return -1;
	}
	/* the program's runtime option, else the top-level key; the timeout */
	if (param_runtime(job, prog_of(p->prog), &p->runtime_s, err) < 0)
		return -1;
	if (param_value(job, NULL, "timeout", &v, err) < 0)
		return -1;
	p->timeout_s = v.num;
	return 0;
}

/* ---- the engine's lifetime and progress ---------------------------------- */

void engine_init(struct engine *e, const char *result_root,
		 const char *store_url, const char *commit)
{
	/* a fake /proc and /sys tree for the knobs, for tests */
	const char *env = getenv("PERFSIFT_SYSROOT");

	memset(e, 0, sizeof(*e));
	e->result_root = result_root;
	e->store_url = store_url;
	e->commit = commit;
	e->sysroot = env && *env ? env : "/";
	/* a guest's output port is a tty, but no terminal watches it */
	e->tty = isatty(1) && !vm_in_guest();
	sampler_notes_init(&e->monitor_notes);
	/* the machine's facts, read once: they do not change between runs */
	machine_probe(&e->machine, "/");
}

void engine_release(struct engine *e)
{
	machine_release(&e->machine);
	sampler_notes_release(&e->monitor_notes);
}

void engine_run_release(struct engine_run *r)
{
	strbuf_release(&r->group_dir);
	strbuf_release(&r->dir);
}

/*
 * Progress goes to stdout, which may be a pipe whose reader has gone
 * (`perfsift run ... | head`) or a terminal that hung up.  SIGPIPE is
 * ignored while a job runs (engine_signals), so a write fails instead of
 * killing perfsift halfway through a run; the rest of the progress then
 * goes to /dev/null and the job goes on to its end.
 */
void engine_flush_progress(void)
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

/*
 * A closed pipe or a hung-up terminal is not a reason to stop a job:
 * SIGPIPE is ignored (writes fail with EPIPE, see engine_flush_progress)
 * and SIGHUP blocked, so it never arrives, as under nohup.  The benchmark
 * does not inherit either: the runner gives it the default SIGPIPE and an
 * empty signal mask, and it runs in its own process group, which a
 * terminal's hangup does not reach.
 */
void engine_signals(void)
{
	sigset_t hup;

	/* no signal may kill us halfway through writing a run */
	runner_block_signals();
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&hup);
	sigaddset(&hup, SIGHUP);
	sigprocmask(SIG_BLOCK, &hup, NULL);
}

/* ---- one run ------------------------------------------------------------- */

#define SCRATCH_TEMPLATE "/tmp/perfsift-scratch.XXXXXX"

/* everything one run carries from phase to phase */
struct one_run {
	struct engine *e;
	const struct engine_plan *p;
	struct engine_run *r;
	struct job *job;              /* the atomic job with the machine's facts */
	struct result_run run;        /* its directory, reserved by begin() */
	struct runner_result res;     /* how the benchmark ended */
	struct bench_ctx bctx;        /* the built-in benchmark's context */
	struct strbuf state;          /* last_state's lines */
	struct strbuf err, skip;
	char scratch[sizeof(SCRATCH_TEMPLATE)];
	bool prepare_called;          /* cleanup() is owed */
	bool have_scratch;
	bool ran;                     /* the benchmark was started and reaped */
	bool complete;                /* the benchmark ended well */
	struct kpi_set declared;      /* the job's own `kpi:` (not filled) */
	const char **kpi_pats;        /* their patterns, for the run */
	enum engine_outcome outcome;
};

/* the tty's progress line, about once a second while the benchmark runs */
static void progress_tick(void *arg, double elapsed_s)
{
	struct one_run *o = arg;

	if (!o->e->tty)
		return;
	if (o->p->runtime_s > 0)
		printf("\r%s: run %d of %d: %.0f s of %.0f s\033[K", o->r->name,
		       o->r->index, o->r->total, elapsed_s, o->p->runtime_s);
	else
		printf("\r%s: run %d of %d: %.0f s\033[K", o->r->name,
		       o->r->index, o->r->total, elapsed_s);
	engine_flush_progress();
}

static void progress_end(const struct one_run *o)
{
	if (o->e->tty) {
		printf("\r\033[K");
		engine_flush_progress();
	}
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

/* write name into the run's directory; a failure is said, not fatal */
static void write_or_say(struct one_run *o, const char *name,
			 const struct strbuf *text)
{
	if (write_tmp_file(o->run.tmp_dir, name, text, &o->err) < 0) {
		error("%s", o->err.buf);
		strbuf_reset(&o->err);
	}
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

/* a name the shell can take as a variable: others are not exported */
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
 * A plug-in's value of a typed top-level key (runtime, nr_threads, ...)
 * as its shell script can use it: a share of the CPUs as a count of them
 * by param_cpus_of() (nr_threads: 50% on 8 CPUs is 4), a duration as seconds
 * (5m is 300).  Any other value as written; NULL: keep it.
 */
static char *plugin_value(const char *key, const char *text, unsigned nr_cpu)
{
	const struct program_option *o = job_key_find(key);
	struct strbuf why = STRBUF_INIT;
	struct opt_value v;
	char *out = NULL;

	if (o && (o->type == OPT_CPUS || o->type == OPT_SECONDS) && *text &&
	    !opt_parse(o, text, &v, &why)) {
		if (o->type == OPT_CPUS && v.pct) {
			struct param_share s = { v.num, true, true };

			/* the built-ins' rule: 50% of 3 CPUs is 1 for both */
			out = xasprintf("%u", param_cpus_of(&s, nr_cpu));
		} else {
			out = xasprintf("%.15g", v.num);
		}
	}
	strbuf_release(&why);
	return out;
}

static void env_push_kv(char ***env, size_t *n, size_t *alloc, const char *k,
			const char *val, bool plugin, unsigned nr_cpu)
{
	char *typed = plugin ? plugin_value(k, val, nr_cpu) : NULL;

	env_push(env, n, alloc, xasprintf("%s=%s", k, typed ? typed : val));
	free(typed);
}

/*
 * What LKP's bin/run-local and bin/run-test add for a program, beyond the
 * job's keys (docs/programs.md, "What the run script gets"):
 * RESULT_ROOT and TMP_RESULT_ROOT both the run's directory as it is while
 * it runs (run-local sets both to one directory; it is renamed to its
 * number when the run is done, and LKP's scripts write reproduce.sh and
 * more into it while they run), TMP a private scratch directory removed
 * after the run, BENCHMARK_ROOT, LKP_SRC, testcase and suite when the
 * job names none, nr_instances and instance_id as run-test exports them
 * for one instance, LKP_LOCAL_RUN, and $LKP_SRC/bin at the end of PATH.
 */
static void plugin_env(const struct job *job, const struct engine_plan *p,
		       const struct result_run *run, const char *tmp,
		       char ***env, size_t *n, size_t *alloc)
{
	const char *lkp = plugin_lkp_root(program_find(p->prog));
	const char *path = getenv("PATH");
	static const char *const names[] = {"testcase", "suite"};
	size_t i;

	env_push(env, n, alloc, xasprintf("RESULT_ROOT=%s", run->tmp_dir));
	env_push(env, n, alloc, xasprintf("TMP_RESULT_ROOT=%s", run->tmp_dir));
	if (tmp)
		env_push(env, n, alloc, xasprintf("TMP=%s", tmp));
	env_push(env, n, alloc, xasprintf("BENCHMARK_ROOT=%s", lkp_benchmark_root()));
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!job_get(job, names[i]))
			env_push(env, n, alloc, xasprintf("%s=%s", names[i], p->prog));
	if (!job_get(job, "nr_instances"))
		env_push(env, n, alloc, xstrdup("nr_instances=1"));
	env_push(env, n, alloc, xstrdup("instance_id=1"));
	env_push(env, n, alloc, xstrdup("LKP_LOCAL_RUN=1"));
	if (lkp) {
		env_push(env, n, alloc, xasprintf("LKP_SRC=%s", lkp));
		env_push(env, n, alloc, xasprintf("PATH=%s:%s/bin",
						  path && *path ? path : "/usr/bin:/bin", lkp));
	}
}

/*
 * What LKP hands a test program: the job's plain keys and the program's
 * options as environment variables (`nr_threads=4`, `test=anon-r-seq`),
 * and where its results go (RESULT_ROOT, TMP_RESULT_ROOT: the run's
 * directory while it runs).  A plug-in's run script gets the typed keys
 * as numbers (plugin_value) and LKP_SRC when an LKP checkout is in use,
 * since LKP's own scripts source its lib/.  Caller frees with free_env().
 */
static char **job_env(const struct job *job, const struct engine_plan *p,
		      const struct result_run *run, const char *tmp, unsigned nr_cpu)
{
	const struct jnode *root = job->root, *opts = job_program(job, p->prog);
	char **env = NULL;
	size_t n = 0, alloc = 0, i;

	for (i = 0; i < root->n; i++)
		if (root->kids[i]->type == JNODE_SCALAR && env_name_ok(root->keys[i]))
			env_push_kv(&env, &n, &alloc, root->keys[i],
				    root->kids[i]->text, p->plugin, nr_cpu);
	for (i = 0; opts && opts->type == JNODE_MAP && i < opts->n; i++)
		if (opts->kids[i]->type == JNODE_SCALAR && env_name_ok(opts->keys[i]) &&
		    strcmp(opts->keys[i], "cmdline"))
			env_push_kv(&env, &n, &alloc, opts->keys[i],
				    opts->kids[i]->text, p->plugin, nr_cpu);
	if (p->plugin) {
		plugin_env(job, p, run, tmp, &env, &n, &alloc);
		return env;
	}
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

/*
 * The monitors, started by the runner once the benchmark is forked and
 * before it may go (runner.h before_go: the sampler thread must not exist
 * at fork time).
 */
struct monitors_start {
	struct one_run *o;
	struct sampler *sampler;
};

static void start_monitors(void *arg)
{
	struct monitors_start *ms = arg;
	struct one_run *o = ms->o;

	ms->sampler = sampler_start(o->job, o->run.tmp_dir, o->e->sysroot,
				    &o->e->monitor_notes);
}

/* the built-in benchmark's run(), in the runner's child */
static int bench_child_run(void *arg)
{
	struct one_run *o = arg;

	return o->p->ops->run(&o->bctx);
}

/*
 * When the run began, seconds since the epoch: compare pairs head and
 * base runs made beside each other by it (select.h's run_start).
 */
static int write_start_time(struct one_run *o)
{
	struct strbuf text = STRBUF_INIT;
	struct timespec ts;
	int ret;

	clock_gettime(CLOCK_REALTIME, &ts);
	strbuf_addf(&text, "%lld.%09ld\n", (long long)ts.tv_sec, ts.tv_nsec);
	ret = write_tmp_file(o->run.tmp_dir, "start_time", &text, &o->err);
	strbuf_release(&text);
	return ret;
}

/*
 * Reserve the run directory and write its job.yaml and start_time.  -1: nothing to
 * publish (said on stderr); the run is not counted as made.
 */
static int begin(struct one_run *o)
{
	struct strbuf text = STRBUF_INIT;
	int ret = -1;

	machine_fill_job(&o->e->machine, o->job, o->e->commit);
	/*
	 * What the job itself declares must be measured, or the run failed
	 * (result_run_finish: kpi_missing); a built-in benchmark's own
	 * KPIs, filled in below, are recorded but not required.
	 */
	if (kpi_from_job(o->job, &o->declared, &o->err) < 0) {
		error("%s", o->err.buf);
		goto out;
	}
	kpi_fill_job(o->job); /* the run records what it is judged by */
	if (result_group_dir(o->job, o->e->result_root, &o->r->group_dir,
			     &o->err) < 0 ||
	    result_run_begin(&o->run, o->r->group_dir.buf, &o->err) < 0) {
		error("%s", o->err.buf);
		strbuf_reset(&o->r->group_dir);
		goto out;
	}
	strbuf_addstr(&o->r->dir, o->run.dir);
	if (o->declared.n) {
		size_t i;

		o->kpi_pats = xcalloc(o->declared.n, sizeof(*o->kpi_pats));
		for (i = 0; i < o->declared.n; i++)
			o->kpi_pats[i] = o->declared.v[i].pattern;
		o->run.kpi_patterns = o->kpi_pats;
		o->run.nkpi = o->declared.n;
	}
	job_to_yaml(o->job, &text);
	if (write_tmp_file(o->run.tmp_dir, "job.yaml", &text, &o->err) < 0 ||
	    write_start_time(o) < 0) {
		error("%s", o->err.buf);
		result_run_abort(&o->run);
		strbuf_reset(&o->r->dir); /* nothing of it is left */
		goto out;
	}
	if (!o->e->tty)
		printf("%s: run %d of %d -> %s\n", o->r->name, o->r->index,
		       o->r->total, o->run.dir);
	engine_flush_progress();
	ret = 0;
out:
	strbuf_release(&text);
	return ret;
}

/* setup programs' knobs: journaled before each change, undone by undo() */
static int set_knobs(struct one_run *o)
{
	struct strbuf log = STRBUF_INIT;
	int ret = 0;

	knob_init(o->e->sysroot);
	if (setup_apply_at(o->job, o->e->sysroot, &log, &o->err) < 0) {
		error("%s", o->err.buf);
		strbuf_reset(&o->err);
		strbuf_addstr(&o->state, "setup_failed: 1\n");
		ret = -1;
	} else if (log.len) {
		/* kept with the run (what was set, what could not be here) */
		write_or_say(o, "setup.log", &log);
		if (o->r->index == 1)
			fputs(log.buf, stdout); /* the same for every run: say it once */
		engine_flush_progress();
	}
	strbuf_release(&log);
	return ret;
}

/*
 * The built-in benchmark's prepare() in a private scratch directory.
 * 0 to go on; -1 when the run ends here (skipped or failed: state says).
 */
static int prepare(struct one_run *o)
{
	struct bench_ctx *b = &o->bctx;

	memcpy(o->scratch, SCRATCH_TEMPLATE, sizeof(o->scratch));
	if (!mkdtemp(o->scratch)) {
		error_errno("cannot create a scratch directory");
		strbuf_addstr(&o->state, "prepare_failed: 1\n");
		return -1;
	}
	o->have_scratch = true;
	b->job = o->job;
	b->scratch = o->scratch;
	b->sysroot = o->e->sysroot;
	b->nr_cpu = o->e->machine.nr_cpu;
	b->mem_total = o->e->machine.mem_total;
	b->no_zero_page = o->e->machine.zero_page &&
			  !strcmp(o->e->machine.zero_page, "no");
	b->params = o->p->params;
	b->skip_reason = &o->skip;
	/* from here cleanup() is owed, whatever prepare() returns (bench.h) */
	o->prepare_called = true;
	switch (o->p->ops->prepare(b, &o->err)) {
	case BENCH_OK:
		return 0;
	case BENCH_SKIP:
		printf("%s: skipped: %s\n", o->r->name, o->skip.buf);
		strbuf_addf(&o->state, "skipped: %s\n", o->skip.buf);
		o->outcome = ENGINE_SKIPPED;
		return -1;
	default:
		error("%s: %s", o->p->prog, o->err.buf);
		strbuf_reset(&o->err);
		strbuf_addstr(&o->state, "prepare_failed: 1\n");
		return -1;
	}
}

/*
 * What the benchmark left running when it ended, killed by the runner:
 * said on the terminal, in the run's stderr file (its log) and in
 * last_state, so that a run that leaked a daemon is known for it.
 */
static void say_left(struct one_run *o, const char *err_path)
{
	const struct runner_result *res = &o->res;
	struct strbuf line = STRBUF_INIT;
	int fd;

	strbuf_addf(&line, "perfsift: left running when the run ended, killed "
		    "(%s): %s\n", res->in_cgroup ? "the run's cgroup" :
		    "the run's session and process group", res->left);
	warning("%s: run %d: %.*s", o->r->name, o->r->index, (int)line.len - 1,
		line.buf + strlen("perfsift: "));
	fd = open(err_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || write_all(fd, line.buf, line.len) < 0)
		warning("cannot write '%s': %s", err_path, strerror(errno));
	if (fd >= 0)
		close(fd);
	strbuf_addf(&o->state, "leftover_processes: %zu\n", res->nleft);
	strbuf_release(&line);
}

/* the monitors and the benchmark, in its own process group, until it ends */
static void start(struct one_run *o)
{
	struct strbuf out_path = STRBUF_INIT, err_path = STRBUF_INIT;
	struct runner_cmd cmd = {0};
	struct monitors_start ms = { o, NULL };
	struct daemons daemons;

	if (o->p->ops) {
		cmd.fn = bench_child_run;
		cmd.arg = o;
	} else {
		cmd.argv = o->p->argv;
	}
	if (o->p->plugin) {
		/* which plug-in wrote the raw file: `perfsift stats` parses it again */
		struct strbuf name = STRBUF_INIT, dir = STRBUF_INIT;

		strbuf_addf(&name, "%s.plugin", o->p->prog);
		strbuf_addf(&dir, "%s\n", plugin_dir(prog_of(o->p->prog)));
		if (plugin_lkp_root(prog_of(o->p->prog)))
			strbuf_addf(&dir, "%s\n", plugin_lkp_root(prog_of(o->p->prog)));
		write_or_say(o, name.buf, &dir);
		strbuf_release(&name);
		strbuf_release(&dir);
	}
	path_join(&out_path, o->run.tmp_dir, o->p->prog);
	path_join(&err_path, o->run.tmp_dir, "stderr");
	cmd.stdout_path = out_path.buf;
	cmd.stderr_path = err_path.buf;
	cmd.timeout_s = o->p->timeout_s;
	cmd.tick = progress_tick;
	cmd.tick_arg = o;
	/* a plug-in's $TMP: LKP's scripts keep fifos, pids and scratch there */
	if (o->p->plugin && !o->have_scratch) {
		memcpy(o->scratch, SCRATCH_TEMPLATE, sizeof(o->scratch));
		if (mkdtemp(o->scratch))
			o->have_scratch = true;
		else
			warning("cannot create a scratch directory for $TMP: %s",
				strerror(errno));
	}
	cmd.env = job_env(o->job, o->p, &o->run, o->have_scratch ? o->scratch : NULL,
			  o->e->machine.nr_cpu);
	cmd.before_go = start_monitors;
	cmd.before_go_arg = &ms;
	/* a server role's daemons (LKP's cs-localhost), up before the benchmark */
	if (daemons_start(o->job, cmd.env, o->run.tmp_dir, &daemons, &o->err) < 0) {
		error("%s", o->err.buf);
		strbuf_reset(&o->err);
		strbuf_addstr(&o->state, "start_failed: 1\n");
		goto out;
	}
	cmd.contain = true; /* nothing of the run outlives it (issue 25, F11) */
	progress_tick(o, 0);
	if (runner_run(&cmd, &o->res, &o->err) < 0) {
		error("%s", o->err.buf);
		strbuf_reset(&o->err);
		strbuf_addstr(&o->state, "start_failed: 1\n");
	} else {
		/* measured: started (the runner says so) and reaped */
		o->ran = o->res.started;
	}
out:
	daemons_stop(&daemons);
	if (ms.sampler && sampler_stop(ms.sampler) < 0)
		warning("monitors: could not stop cleanly");
	progress_end(o);
	if (o->ran && o->res.nleft)
		say_left(o, err_path.buf);
	free_env(cmd.env);
	strbuf_release(&out_path);
	strbuf_release(&err_path);
}

/*
 * Reached on every path once the run directory exists: the benchmark's
 * cleanup(), the scratch directory, the knobs recorded and put back.
 */
static void undo(struct one_run *o)
{
	struct strbuf text = STRBUF_INIT;

	if (o->prepare_called && o->p->ops->cleanup)
		o->p->ops->cleanup(&o->bctx);
	o->prepare_called = false;
	if (o->have_scratch && remove_tree(o->scratch) < 0)
		warning("cannot remove the scratch directory '%s'", o->scratch);
	o->have_scratch = false;
	/* the run's record of every knob it ran under (setup's and the benchmark's) */
	knob_applied(&text);
	if (text.len)
		write_or_say(o, "knobs", &text);
	if (knob_restore_all() < 0)
		strbuf_addstr(&o->state, "knob_restore_failed: 1\n");
	strbuf_release(&text);
}

/* how a started benchmark ended, in last_state's words; sets complete */
static void state_of_end(struct one_run *o)
{
	const struct runner_result *res = &o->res;
	int st = res->wait_status;

	if (res->timed_out) {
		strbuf_addstr(&o->state, "timeout: 1\n");
	} else if (res->stop_signal) {
		strbuf_addf(&o->state, "interrupted: %d\n", res->stop_signal);
	} else if (res->killed) {
		strbuf_addstr(&o->state, "killed_by_sigkill: 1\n");
		if (res->oom_kill)
			strbuf_addstr(&o->state, "oom_killed: 1\n");
	} else if (WIFSIGNALED(st)) {
		strbuf_addf(&o->state, "killed_by_signal.%d: 1\n", WTERMSIG(st));
	} else if (WIFEXITED(st) && WEXITSTATUS(st)) {
		strbuf_addf(&o->state, "exit_code.%d: 1\n", WEXITSTATUS(st));
		/* a built-in benchmark's worker (a grandchild) died of it */
		if (res->oom_during)
			strbuf_addstr(&o->state, "oom_killed: 1\n");
	} else {
		o->complete = true;
	}
}

/* after undo(): the time files, last_state's lines and the outcome */
static void judge(struct one_run *o)
{
	const struct engine_plan *p = o->p;
	struct strbuf text = STRBUF_INIT, name = STRBUF_INIT;

	if (!o->ran) {
		/* never started: stopped before it, or it could not start */
		if (runner_stop_signal()) {
			strbuf_addf(&o->state, "interrupted: %d\n", runner_stop_signal());
			o->outcome = ENGINE_STOPPED;
		} else if (o->outcome != ENGINE_SKIPPED) {
			o->outcome = ENGINE_FAILED;
		}
		return;
	}
	o->r->started = true;
	o->r->elapsed_s = o->res.elapsed_s;
	time_format_verbose(&text, p->cmdline ? p->cmdline : p->prog, &o->res.ru,
			    o->res.elapsed_s, o->res.wait_status);
	/* LKP's `time` is every test's <prog>.time appended: one test here */
	strbuf_addf(&name, "%s.time", p->prog);
	if (write_tmp_file(o->run.tmp_dir, name.buf, &text, &o->err) < 0 ||
	    write_tmp_file(o->run.tmp_dir, "time", &text, &o->err) < 0) {
		error("%s", o->err.buf);
		strbuf_reset(&o->err);
	}
	state_of_end(o);
	if (!o->complete) {
		strbuf_reset(&text);
		runner_describe(&o->res, &text);
		printf("%s: run %d of %d: %s (%.2f s)\n", o->r->name, o->r->index,
		       o->r->total, text.buf, o->res.elapsed_s);
		if (!o->res.stop_signal && !o->res.timed_out)
			show_stderr_tail(o->run.tmp_dir);
	}
	if (o->res.stop_signal) {
		/* the cut run's plug-in parse waits for `perfsift stats` */
		plugin_parse_stop(o->res.stop_signal);
		o->outcome = ENGINE_STOPPED;
	}
	else
		o->outcome = o->complete ? ENGINE_OK : ENGINE_FAILED;
	strbuf_release(&text);
	strbuf_release(&name);
}

/* last_state, then the run parsed, renamed into place and indexed */
static void publish(struct one_run *o)
{
	const char *root = o->e->result_root, *store = o->e->store_url;
	int r;

	engine_flush_progress();
	drop_if_empty(o->run.tmp_dir, "stderr");
	drop_if_empty(o->run.tmp_dir, o->p->prog);
	if (o->state.len &&
	    write_tmp_file(o->run.tmp_dir, "last_state", &o->state, &o->err) < 0) {
		/*
		 * A run that cannot be marked cannot be published (a full
		 * disk): it stays in its temporary directory, which the next
		 * run in this group sets aside as .stale-*, and the job stops.
		 */
		error("%s", o->err.buf);
		o->outcome = ENGINE_ERROR;
		return;
	}
	r = result_run_finish(&o->run, root, store, o->complete, &o->err);
	if (r == -2 && o->complete) {
		/*
		 * A raw file of a finished run cannot be parsed: keep the run,
		 * marked incomplete (its files are there to look at), rather
		 * than leave a .tmp-<n> for the next run to sweep away.
		 */
		error("%s (the run is kept, marked incomplete)", o->err.buf);
		strbuf_reset(&o->err);
		o->outcome = ENGINE_FAILED;
		r = result_run_finish(&o->run, root, store, false, &o->err);
	}
	if (r == 0 && o->run.kpi_missing) {
		/* loud: a run that measured nothing it is judged by failed */
		printf("%s: run %d of %d: failed: no stat matches its declared "
		       "KPIs (%s): command not found, or nothing parsed from "
		       "its output\n", o->r->name, o->r->index, o->r->total,
		       o->run.kpi_missing);
		show_stderr_tail(o->run.dir);
		o->outcome = ENGINE_FAILED;
	}
	if (r < 0) {
		error("%s", o->err.buf);
		o->outcome = ENGINE_ERROR;
	} else if (o->outcome == ENGINE_OK) {
		/* only now: a "done" run is on disk and in the index */
		printf("%s: run %d of %d: done in %.2f s\n", o->r->name,
		       o->r->index, o->r->total, o->res.elapsed_s);
		engine_flush_progress();
	}
}

enum engine_outcome engine_run_once(struct engine *e, const struct job *atomic,
				    const struct engine_plan *p,
				    struct engine_run *r)
{
	struct one_run o = { .e = e, .p = p, .r = r, .outcome = ENGINE_ERROR };
	const char *kernel = vm_image_of(e, atomic);

	strbuf_reset(&r->group_dir);
	strbuf_reset(&r->dir);
	r->elapsed_s = 0;
	r->started = false;
	/* a stop already requested: no run is begun, none is cut */
	if (runner_stop_signal())
		return ENGINE_STOPPED;
	/* a kernel under test: the same run, made inside a VM (vm.h) */
	if (kernel)
		return vm_run_once(e, kernel, atomic, p, r);
	o.job = job_dup(atomic);
	strbuf_init(&o.state, 0);
	strbuf_init(&o.err, 0);
	strbuf_init(&o.skip, 0);
	if (begin(&o) < 0)
		goto out;
	/* each step runs only if the one before went well and no stop came */
	if (!set_knobs(&o) && !runner_stop_signal() &&
	    (!p->ops || !prepare(&o)) && !runner_stop_signal())
		start(&o);
	undo(&o);
	judge(&o);
	publish(&o);
out:
	result_run_release(&o.run);
	job_free(o.job);
	kpi_set_release(&o.declared);
	free(o.kpi_pats);
	strbuf_release(&o.state);
	strbuf_release(&o.err);
	strbuf_release(&o.skip);
	return o.outcome;
}
