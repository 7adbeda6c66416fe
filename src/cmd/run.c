/*
 * run.c: `perfsift run JOB.yaml [-n RUNS] [--commit ID] [--set K=V]...
 * [--list-cases] [-- CMD ARGS...]` -- LKP's `lkp run` for a local machine.  The job is
 * read, --set applied, split into atomic jobs, each given its plan
 * (engine.h: what it runs, found before anything is written), and the
 * runs made in the order run/schedule.h gives, each by the run engine
 * (run/engine.h).  This file holds only the options, the loading and the
 * exit status: what one run does is the engine's, so that the lab's
 * worker and the unit tests make runs the same way.
 */
#include "util/compat.h"
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "bisect/git.h"
#include "decide/decide.h"
#include "job/job.h"
#include "job/plugins.h"
#include "run/cases.h"
#include "run/engine.h"
#include "run/runner.h"
#include "run/schedule.h"
#include "run/vm.h"
#include "util/fileutil.h"
#include "util/short_sha.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/usage.h"
#include "util/xalloc.h"

static const char run_usage[] =
	"usage: perfsift run JOB.yaml [-n RUNS] [--commit ID] [--set KEY=VALUE]...\n"
	"                    [--lkp-src DIR] [--list-cases] [-- CMD ARGS...]\n"
	"                    [--kernel IMAGE [--modules DIR] [--vm-cpus N]\n"
	"                     [--vm-memory SIZE] [--append ARGS]]\n"
	"\n"
	"  -n, --runs N        run each atomic job N times (default 1); runs are\n"
	"                      numbered on from those already in the result root\n"
	"  --commit ID         the commit this kernel is (default: uname -r)\n"
	"  --set KEY=VALUE     set a job key; PROG.OPTION=VALUE sets a program's option\n"
	"  --until-decided BASE  after the -n runs (default " DECIDE_DEFAULT_RUNS_TEXT ") compare each KPI with\n"
	"                      BASE and add runs while one is undecided, up to\n"
	"                      --max-runs (default " DECIDE_DEFAULT_MAX_RUNS_TEXT "); stop once a KPI is\n"
	"                      regressed or every KPI changed or the same.  Exit\n"
	"                      status: 0 same or improved, 1 regressed, 4 still\n"
	"                      undecided (each KPI judged on its own:\n"
	"                      docs/detection.md)\n"
	"  --max-runs N        the most runs --until-decided makes of a job\n"
	"  --interleave        run a matrix's atomic jobs round-robin (A B A B ...),\n"
	"                      so drift of the machine falls on every setting alike\n"
	"                      (the default); --sequential: all runs of A, then B\n"
	"  --build-cmd CMD     how the commit under test was built (perfsift does\n"
	"                      not run it): kept in the run as env_build, so the\n"
	"                      report's \"To reproduce\" can give it\n"
	"  --install-cmd CMD   how it was installed (booted), kept as env_install\n"
	"  --lkp-src DIR       an LKP checkout: its programs/<p>/{run,parse} are\n"
	"                      plug-ins (else $LKP_SRC; also $PERFSIFT_PROGRAMS and\n"
	"                      programs/ beside the job: docs/programs.md)\n"
	"  --list-cases        list the cases of the job's benchmarks and whether each\n"
	"                      can run here (and why not); runs and writes nothing\n"
	"  --kernel IMAGE      boot IMAGE (a bzImage or a distribution's vmlinuz) in\n"
	"                      qemu and make each run inside it, with the guest's\n"
	"                      knobs and monitors (also the job's `kernel:` key;\n"
	"                      docs/kernel.md); $PERFSIFT_VM_ACCEL=kvm|tcg picks\n"
	"                      the accelerator\n"
	"  --modules DIR       a lib/modules/RELEASE tree to put in the guest (else\n"
	"                      the virtio and 9p modules of the package the image\n"
	"                      is in: D/boot/vmlinuz-R beside D/lib/modules/R)\n"
	"  --vm-cpus N         the VM's CPUs (default 2)\n"
	"  --vm-memory SIZE    the VM's memory (default 2G)\n"
	"  --append ARGS       more of the guest kernel's command line\n"
	"  -- CMD ARGS...      the command of a `mytest` job (LKP's external benchmark)\n"
	"\n"
	"A job that is not atomic is split into atomic jobs, run round-robin.\n"
	"SIGINT / SIGTERM / the job's `timeout` end the benchmark's process group;\n"
	"finished runs stay, the cut run is kept marked is_incomplete_run, knobs\n"
	"are restored and the exit status is 3.\n";

/* what the command line asked for, beside the schedule's options */
struct run_args {
	const char *job_file;
	const char *commit;
	char **cmd_argv; /* after `--`, NULL-terminated, or NULL */
	const char *build_cmd, *install_cmd; /* facts for env_build/env_install */
	char **sets;     /* --set KEY=VALUE, in order */
	size_t nr_sets, alloc_sets;
	bool runs_given; /* -n was given (else --until-decided's DECIDE_DEFAULT_RUNS) */
	bool list_cases; /* --list-cases: list, run nothing */
	struct vm_opts vm; /* --kernel and the VM's shape */
	bool vm_shape;   /* a VM option was given */
	char *image_abs; /* --kernel's absolute path, owned */
};

/* a run count of -n or --max-runs: 1..99 (LKP's limit), else -1 said */
static int parse_runs(const char *opt, const char *arg, const char *limit,
		      int *out)
{
	const char *why;
	long long n;

	if (strnum_ll(arg, 1, 99, &n, &why) < 0)
		return error("%s '%s': %s (1..99 runs%s)", opt, arg, why, limit);
	*out = (int)n;
	return 0;
}

/* the options: -1 to go on, else the status to exit with */
/*
 * --until-decided --commit C run inside a git work tree that knows C but
 * is at another commit would add runs of the checked-out code under C's
 * name -- the "to decide" line names C, and the tree may have moved on
 * since.  Refused; outside a work tree, or for a C the tree does not
 * know (a kernel release), there is nothing to check.
 */
static int check_worktree_commit(const char *commit)
{
	struct strbuf top = STRBUF_INIT, err = STRBUF_INIT;
	char want[41], head[41];
	int ret = 0;

	if (!commit || bisect_git_toplevel(".", &top, &err) < 0 ||
	    bisect_git_resolve(top.buf, commit, want, &err) < 0 ||
	    bisect_git_resolve(top.buf, "HEAD", head, &err) < 0)
		goto out;
	if (strcmp(want, head))
		ret = error(
			"--commit %s: the work tree %s is at %.*s, not at "
			"%.*s: check out %s first (or run from outside the "
			"tree), so that the runs measure the commit they name",
			commit, top.buf, SHORT_SHA_LEN, head, SHORT_SHA_LEN,
			want, commit);
out:
	strbuf_release(&top);
	strbuf_release(&err);
	return ret;
}

static int parse_options(int argc, char **argv, struct run_args *a,
			 struct schedule *s)
{
	static const struct option longopts[] = {
		{"runs", required_argument, NULL, 'n'},
		{"commit", required_argument, NULL, 'c'},
		{"set", required_argument, NULL, 's'},
		{"until-decided", required_argument, NULL, 'u'},
		{"max-runs", required_argument, NULL, 'M'},
		{"interleave", no_argument, NULL, 'I'},
		{"sequential", no_argument, NULL, 'S'},
		{"build-cmd", required_argument, NULL, 'B'},
		{"install-cmd", required_argument, NULL, 'i'},
		{"lkp-src", required_argument, NULL, 'L'},
		{"list-cases", no_argument, NULL, 'C'},
		{"kernel", required_argument, NULL, 'K'},
		{"modules", required_argument, NULL, 'D'},
		{"vm-cpus", required_argument, NULL, 'P'},
		{"vm-memory", required_argument, NULL, 'm'},
		{"append", required_argument, NULL, 'A'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int argc_opts = argc, ch, i;

	/* everything after `--` is the command; getopt must not see it */
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			argc_opts = i;
			a->cmd_argv = argv + i + 1;
			break;
		}
	while ((ch = cmd_getopt(argc_opts, argv, "n:h", longopts)) != -1) {
		switch (ch) {
		case 'n':
			if (parse_runs("-n", optarg, ", LKP's limit", &s->nr_runs))
				return EXIT_USAGE;
			a->runs_given = true;
			break;
		case 'M':
			if (parse_runs("--max-runs", optarg, "", &s->max_runs))
				return EXIT_USAGE;
			break;
		case 'u': s->base = optarg; break;
		case 'I': s->interleave = true; break;
		case 'S': s->interleave = false; break;
		case 'C': a->list_cases = true; break;
		case 'c': a->commit = optarg; break;
		case 'B': a->build_cmd = optarg; break;
		case 'i': a->install_cmd = optarg; break;
		case 'L': plugin_set_lkp_src(optarg); break;
		case 'K': a->vm.image = optarg; break;
		case 'D': a->vm.modules = optarg; a->vm_shape = true; break;
		case 'A': a->vm.append = optarg; a->vm_shape = true; break;
		case 'P': {
			long long n;
			const char *why;

			if (strnum_ll(optarg, 1, 64, &n, &why) < 0)
				return error("--vm-cpus '%s': %s (1..64)", optarg, why), EXIT_USAGE;
			a->vm.cpus = (unsigned)n;
			a->vm_shape = true;
			break;
		}
		case 'm': {
			const char *why = "at least 128M";

			/* 0 parses: why stayed unset and was printed (attack 5, M1) */
			if (strnum_size(optarg, &a->vm.memory, &why) < 0 ||
			    a->vm.memory < ((uint64_t)128 << 20))
				return error("--vm-memory '%s': %s", optarg, why), EXIT_USAGE;
			a->vm_shape = true;
			break;
		}
		case 's':
			ALLOC_GROW(a->sets, a->nr_sets + 1, a->alloc_sets);
			a->sets[a->nr_sets++] = optarg;
			break;
		case 'h': return cmd_usage(run_usage, false);
		default: return cmd_usage(run_usage, true);
		}
	}
	if (optind + 1 != argc_opts || (a->cmd_argv && !a->cmd_argv[0]))
		return cmd_usage(run_usage, true);
	a->job_file = argv[optind];
	if (cmd_check_commit(a->commit) < 0 ||
	    (s->base && schedule_check_base(s, a->runs_given) < 0) ||
	    (s->base && check_worktree_commit(a->commit) < 0))
		return EXIT_USAGE;
	return -1;
}

/* the exit status: 3 when stopped, a run unrecorded or failed */
static int run_status(enum engine_outcome o, const struct schedule *s)
{
	if (o == ENGINE_STOPPED) {
		int sig = runner_stop_signal();

		error("interrupted by %s: finished runs are kept, the cut run is "
		      "marked incomplete", sig == SIGTERM ? "SIGTERM" : "SIGINT");
		return EXIT_RUNTIME;
	}
	if (s->nr_error) {
		error("stopped: a run could not be recorded (see above); the "
		      "finished runs are kept");
		return EXIT_RUNTIME;
	}
	if (s->nr_failed) {
		error("%d run%s failed (see last_state in the run directory)",
		      s->nr_failed, s->nr_failed == 1 ? "" : "s");
		return EXIT_RUNTIME;
	}
	/* --until-decided: the exit status is the verdict */
	if (s->nr_regressed)
		return EXIT_REGRESSION;
	if (s->nr_undecided)
		return EXIT_UNDECIDED;
	return EXIT_OK;
}

/*
 * --list-cases: the job read and --set applied as a run would, then the
 * cases of its benchmarks listed (run/cases.h); nothing split, run or
 * written, so a job still lacking its test: lists the cases to pick from.
 */
static int list_cases(const struct run_args *a)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct job **jobs = NULL;
	size_t njobs = 0, i, j;
	int status = EXIT_USAGE;

	if (job_load_file(a->job_file, &jobs, &njobs, &err) < 0)
		goto out;
	for (i = 0; i < njobs; i++)
		for (j = 0; j < a->nr_sets; j++)
			if (job_apply_set(jobs[i], a->sets[j], &err) < 0)
				goto out;
	if (cases_list(jobs, njobs, &out, &err) < 0)
		goto out;
	fputs(out.buf, stdout);
	status = EXIT_OK;
out:
	if (status != EXIT_OK)
		note("%s", err.buf);
	job_free_all(jobs, njobs);
	strbuf_release(&err);
	strbuf_release(&out);
	return status;
}

/* the line of a top-level key in its job file, for `FILE:LINE: KEY:` */
static int key_line(const struct job *job, const char *key)
{
	size_t i;

	for (i = 0; i < job->root->n; i++)
		if (!strcmp(job->root->keys[i], key))
			return job->root->kids[i]->line;
	return 0;
}

/*
 * Before anything is written: --kernel's image (or each job's `kernel:`,
 * made absolute from the job file's directory) must be a kernel, a VM
 * option needs one, and --modules a directory with a modules.dep.  -1
 * with err.
 */
static int check_kernels(struct run_args *a, struct job **atomic, size_t n,
			 struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, why = STRBUF_INIT;
	bool any = a->vm.image != NULL;
	char *abs;
	size_t i;
	int ret = -1;

	if (a->vm.image) {
		struct vm_image info;
		int bad = vm_image_check(a->vm.image, &info, err) < 0 ||
			  vm_cmdline_check(&info, a->vm.append, err) < 0;

		vm_image_release(&info);
		if (bad)
			goto out;
		/* kept for the run's job.yaml; lives as long as the command */
		abs = realpath(a->vm.image, NULL);
		if (abs)
			a->vm.image = a->image_abs = abs;
	}
	for (i = 0; !a->vm.image && i < n; i++) {
		const char *k = job_get(atomic[i], "kernel");

		if (!k || !*k)
			continue;
		any = true;
		strbuf_reset(&path);
		if (k[0] != '/') {
			path_dirname(&path, atomic[i]->file);
			strbuf_addch(&path, '/');
		}
		strbuf_addstr(&path, k);
		strbuf_reset(&why);
		if (vm_image_check(path.buf, NULL, &why) < 0) {
			strbuf_addf(err, "%s:%d: kernel: %s", atomic[i]->file,
				    key_line(atomic[i], "kernel"), why.buf);
			goto out;
		}
		/* the run records where the image was, from anywhere */
		abs = realpath(path.buf, NULL);
		job_set(atomic[i], "kernel", abs ? abs : path.buf);
		free(abs);
	}
	if (a->vm_shape && !any) {
		strbuf_addstr(err, "--modules, --vm-cpus, --vm-memory and --append are for "
			      "a run in a VM: give --kernel IMAGE (or `kernel:` in the job)");
		goto out;
	}
	if (any && getenv("PERFSIFT_VM_ACCEL") && *getenv("PERFSIFT_VM_ACCEL") &&
	    strcmp(getenv("PERFSIFT_VM_ACCEL"), "kvm") &&
	    strcmp(getenv("PERFSIFT_VM_ACCEL"), "tcg")) {
		strbuf_addf(err, "PERFSIFT_VM_ACCEL='%s': kvm or tcg",
			    getenv("PERFSIFT_VM_ACCEL"));
		goto out;
	}
	if (a->vm.modules && !dir_exists(a->vm.modules)) {
		strbuf_addf(err, "--modules '%s': not a directory", a->vm.modules);
		goto out;
	}
	/*
	 * the guest's modprobe finds a module and what it needs through
	 * modules.dep; a package's tree comes without it (Debian's
	 * linux-image's postinst runs depmod), and every modprobe in the
	 * guest would fail far from the cause
	 */
	if (a->vm.modules) {
		strbuf_reset(&path);
		path_join(&path, a->vm.modules, "modules.dep");
		if (!file_exists(path.buf)) {
			strbuf_addf(err, "--modules '%s': no modules.dep in it "
				    "(a tree as `make modules_install` leaves it; for an "
				    "unpacked package: depmod -b ROOT RELEASE)",
				    a->vm.modules);
			goto out;
		}
	}
	ret = 0;
out:
	strbuf_release(&path);
	strbuf_release(&why);
	return ret;
}

int cmd_run(int argc, char **argv, struct options *opts)
{
	struct run_args a = {0};
	struct schedule s = {0};
	struct engine e;
	struct job **atomic = NULL;
	struct engine_plan *plans = NULL;
	struct strbuf err = STRBUF_INIT;
	size_t nr_atomic = 0, i;
	int status;

	s.result_root = opts->result_root;
	s.store_url = opts->store_url;
	s.nr_runs = 1;
	s.max_runs = DECIDE_DEFAULT_MAX_RUNS;
	s.interleave = true;
	status = parse_options(argc, argv, &a, &s);
	if (status >= 0)
		goto out;
	if (a.list_cases) {
		status = list_cases(&a);
		goto out;
	}
	engine_signals();
	status = EXIT_USAGE;
	if (schedule_load(a.job_file, a.sets, a.nr_sets, a.cmd_argv, &atomic,
			  &nr_atomic, &plans, &err) < 0) {
		/* the job file's error: said before anything was written */
		note("%s", err.buf);
		goto out;
	}
	if (check_kernels(&a, atomic, nr_atomic, &err) < 0) {
		note("%s", err.buf);
		goto out;
	}
	/*
	 * How the commit was built and installed is a fact of the runs, like
	 * the machine's (env_*: not a parameter, so not part of the group's
	 * identity), kept so that a report can say how to reproduce them.
	 */
	for (i = 0; i < nr_atomic; i++) {
		if (a.build_cmd)
			job_set(atomic[i], "env_build", a.build_cmd);
		if (a.install_cmd)
			job_set(atomic[i], "env_install", a.install_cmd);
	}
	engine_init(&e, opts->result_root, opts->store_url, a.commit);
	e.vm = &a.vm;
	status = run_status(schedule_run_all(&s, &e, atomic, plans, nr_atomic), &s);
	engine_release(&e);
	engine_flush_progress(); /* a closed pipe is not the job's failure */
out:
	for (i = 0; i < nr_atomic; i++)
		engine_plan_release(&plans[i]);
	free(plans);
	job_free_all(atomic, nr_atomic);
	free(a.sets);
	free(a.image_abs);
	strbuf_release(&err);
	return status;
}
