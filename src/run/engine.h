/*
 * engine.h: the run engine -- one run of one atomic job, from a reserved
 * run directory to a published, indexed result.  `perfsift run` calls it
 * in its loop (run/schedule.h), the lab's queue worker for each task; the
 * unit tests call it against a fake sysroot (tests/unit/test_engine.c).
 *
 * The contract (what a caller may rely on, whatever happens in between):
 *
 *   Order.  One run goes: machine facts and KPIs into a copy of the job,
 *   the run directory reserved in the result root (result.h) with its
 *   job.yaml, setup programs' knobs set (knob.h, journaled before each
 *   change), the built-in benchmark's prepare() in a private scratch
 *   directory, the monitors and the benchmark started (runner.h, its own
 *   process group), the monitors stopped, cleanup(), knobs restored,
 *   <prog>.time, time and last_state written, the run finished (parsed,
 *   renamed into place, indexed in the store).
 *
 *   Knobs.  Every knob this run set (setup programs' and the benchmark's)
 *   is put back before engine_run_once() returns, whatever the outcome,
 *   and recorded in the run's `knobs` file.  A failure to put one back is
 *   recorded in last_state (knob_restore_failed: 1).
 *
 *   cleanup().  A built-in benchmark's cleanup() is called exactly once
 *   whenever its prepare() was called -- whatever prepare() returned
 *   (OK, SKIP or an error: a half-made state is its to undo), and also
 *   when the run was stopped or timed out (bench.h).
 *
 *   Stop.  A stop request is SIGINT or SIGTERM, collected by the runner
 *   (runner_stop_signal(); sticky: once seen, it stays).  Seen when
 *   engine_run_once() is called, nothing is reserved or written (the
 *   outcome is ENGINE_STOPPED, r->dir empty).  Seen after the run
 *   directory was reserved and before the benchmark starts, nothing more
 *   is started (cleanup() still runs); seen while it runs, its
 *   process group is ended.  Either way the run is kept, marked
 *   incomplete (is_incomplete_run: 1, interrupted: SIGNAL in last_state),
 *   and the outcome is ENGINE_STOPPED: the caller starts no more runs.
 *
 *   Records.  A run whose directory was reserved is published (renamed
 *   into place and indexed) unless it cannot be marked or recorded at all
 *   (a full disk: ENGINE_ERROR; its .tmp-<n> is swept by the next run of
 *   the group).  A complete run whose raw file cannot be parsed is kept,
 *   marked incomplete (ENGINE_FAILED).  Whether the benchmark was started
 *   is recorded by the runner (runner_result.started), never guessed.
 *
 *   Output.  Progress lines on stdout ("NAME: run I of N -> DIR", "done
 *   in", "skipped:"; a \r line on a terminal), errors on stderr.
 *
 *   Processes.  The caller calls engine_signals() first, in the main
 *   thread before any other thread exists (the monitors' sampler thread
 *   is started and joined inside each run).  One run at a time per
 *   process: the knob module and the stop request are process-wide.
 */
#ifndef PERFSIFT_ENGINE_H
#define PERFSIFT_ENGINE_H

#include "util/compat.h"
#include "run/machine.h"
#include "run/sampler.h"
#include "util/strbuf.h"

struct bench_ops;
struct job;
struct vm_opts;

/*
 * What one atomic job runs, found from the job before anything is
 * written (so that a bad job is an error of its file, exit 2, with
 * nothing on disk).
 */
struct engine_plan {
	const char *prog;            /* the test program: "mytest", "vm-scalability" */
	const struct bench_ops *ops; /* built-in benchmark, or NULL for mytest */
	char **argv;                 /* mytest: what is exec'd */
	char *cmdline;               /* mytest: the command as text; a plug-in: its run */
	bool plugin;                 /* a plug-in's run script (job/plugins.h) */
	void *params;                /* the built-in benchmark's typed options */
	double runtime_s;            /* the job's runtime, 0 when none */
	double timeout_s;            /* the job's timeout, 0 when none */
};

/*
 * Fill p for job: its one test program, the built-in benchmark's typed
 * options, or mytest's command (cmd_argv, the words after `--`, when not
 * NULL: then written into the job as mytest.cmdline, so that the run's
 * job.yaml says what ran).  0, or -1 with err (`FILE:LINE: KEY: what`).
 * Release p with engine_plan_release() in either case.
 */
int engine_plan_make(struct job *job, char **cmd_argv, struct engine_plan *p,
		     struct strbuf *err);
void engine_plan_release(struct engine_plan *p);

/* what lasts across the runs of one command (or one worker) */
struct engine {
	const char *result_root; /* where the runs go */
	const char *store_url;   /* the index; NULL: the root's SQLite */
	const char *sysroot;     /* the knobs' tree: $PERFSIFT_SYSROOT, else "/" */
	const char *commit;      /* the kernel's commit; NULL: the job's or uname -r */
	bool tty;                /* stdout is a terminal: a \r progress line */
	/* --kernel and the VM's shape (run/vm.h); NULL: runs are native
	 * unless the job names `kernel:` */
	const struct vm_opts *vm;
	struct machine machine;  /* probed once, filled into every run's job */
	/* monitors "not available" here: said once per engine, not per run */
	struct sampler_notes monitor_notes;
};

/* probe the machine, read $PERFSIFT_SYSROOT and whether stdout is a tty */
void engine_init(struct engine *e, const char *result_root,
		 const char *store_url, const char *commit);
void engine_release(struct engine *e);

/*
 * Block SIGINT/SIGTERM/SIGCHLD for the runner to collect (runner.h), and
 * make a closed stdout or a hung-up terminal no reason to die halfway
 * through a run.  Call first, before any thread exists.
 */
void engine_signals(void);

enum engine_outcome {
	ENGINE_OK,      /* complete, published and indexed */
	ENGINE_FAILED,  /* the benchmark failed (or its output was bad): kept, incomplete */
	ENGINE_SKIPPED, /* the benchmark declined this machine: recorded "skipped" */
	ENGINE_STOPPED, /* a stop request cut it: kept, incomplete; stop now */
	ENGINE_ERROR    /* the run could not be recorded: stop now */
};

/* one run's words for the progress lines, and what became of it */
struct engine_run {
	/* in */
	const char *name;    /* the atomic job ("vm-scalability-anon-r-seq") */
	int index, total;    /* "run INDEX of TOTAL" */
	/* out */
	struct strbuf group_dir; /* the run's result group, once reserved */
	struct strbuf dir;       /* the run's final directory, once reserved */
	double elapsed_s;        /* the benchmark's wall time, 0 if not started */
	bool started;            /* the benchmark was started */
};
#define ENGINE_RUN_INIT { NULL, 0, 0, STRBUF_INIT, STRBUF_INIT, 0, false }
void engine_run_release(struct engine_run *r);

/*
 * Run atomic job `atomic` once, as p says, into e's result root and
 * store, keeping the contract above.  With a kernel to boot (e->vm's
 * image or the job's `kernel:`), the run is made in a VM (run/vm.h).  r's in-fields name it; its
 * out-fields are reset and filled.  The job is copied, never changed.
 */
enum engine_outcome engine_run_once(struct engine *e, const struct job *atomic,
				    const struct engine_plan *p,
				    struct engine_run *r);

/*
 * Write buffered progress to stdout; a reader gone (EPIPE) or a terminal
 * hung up (EIO) sends the rest to /dev/null instead of failing the job.
 */
void engine_flush_progress(void);

#endif
