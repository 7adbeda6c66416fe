/*
 * queue.c: `perfsift --store postgresql://... queue add|list|cancel|retry|
 * workers` -- the lab's job queue (src/lab/, docs/lab.md).  `add` splits
 * a job as `perfsift run` does and enqueues one task per atomic job, all
 * in one transaction: a bad job file is one `FILE:LINE: KEY:` error and
 * nothing is enqueued.
 */
#include "util/compat.h"
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "job/job.h"
#include "job/split.h"
#include "lab/lab.h"
#include "run/vm.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/trust.h"
#include "util/usage.h"
#include "util/xalloc.h"

#ifdef HAVE_LIBPQ
static const char queue_usage[] =
	"usage: perfsift --store postgresql://... queue add JOB.yaml\n"
	"           [--testbox-group G] [--commit C] [-n RUNS] [--priority P]\n"
	"           [--max-attempts N] [--kernel RELEASE | --kernel IMAGE]\n"
	"       perfsift --store URL queue list [--state STATE] [--json]\n"
	"       perfsift --store URL queue cancel ID | retry ID | workers\n"
	"\n"
	"The lab's queue (docs/lab.md): tasks in the PostgreSQL store that the\n"
	"workers of each test-box group drain (`perfsift worker`).\n"
	"\n"
	"  add JOB.yaml        split the job; one task per atomic job, each of\n"
	"                      RUNS runs (-n, default 1); prints the task ids\n"
	"    --testbox-group G the group whose workers run it (default: the\n"
	"                      job's tbox_group)\n"
	"    --commit C        the commit the runs are of (default: the kernel\n"
	"                      the worker runs, uname -r)\n"
	"    --priority P      higher first (default 0); then the oldest first\n"
	"    --max-attempts N  attempts (a failure, a lost lease) before the\n"
	"                      task ends failed (default 3)\n"
	"    --kernel RELEASE  run it on that kernel (uname -r): a worker whose\n"
	"                      box runs another calls its --install hook; the\n"
	"                      runs' commit defaults to RELEASE\n"
	"    --kernel IMAGE    a path (it has a '/'): boot IMAGE in a VM and\n"
	"                      run it there (`perfsift run --kernel`); a worker\n"
	"                      started with --vm runs it, on any box that sees\n"
	"                      the file at that path\n"
	"  list                every task: id, state, group, job, commit, runs\n"
	"                      done/asked, worker, attempts, last error\n"
	"    --state STATE     only queued|leased|done|failed|cancelled\n"
	"    --json            an array of task objects\n"
	"  cancel ID           a queued or leased task ends cancelled\n"
	"  retry ID            a failed or cancelled task is queued again\n"
	"  workers             the workers, their last heartbeat and task\n";

/*
 * The same rule `perfsift run --commit` applies: the value becomes a
 * directory name of every worker's result root.
 */
static bool commit_ok(const char *c)
{
	for (; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f || *c == '/')
			return false;
	return true;
}

struct add_opts {
	const char *group, *commit, *kernel;
	int runs, priority, max_attempts;
	char *image; /* --kernel IMAGE made absolute (kernel points to it) */
};

/*
 * The atomic jobs of path as tasks: everything is checked and built
 * before the one transaction that enqueues them.
 */
/*
 * The group goes into each atomic job as tbox_group: it is an axis of
 * the result tree, so the runs of one task on any box of the group land
 * in one result group.
 */
static int build_tasks(const char *path, const struct add_opts *o,
		       struct job ***atoms, size_t *natoms, struct strbuf *err)
{
	struct job **jobs = NULL, **parts = NULL;
	size_t njobs = 0, nparts, i, j, alloc = 0;
	int ret = -1;

	*atoms = NULL;
	*natoms = 0;
	if (job_load_file(path, &jobs, &njobs, err) < 0)
		goto out;
	for (i = 0; i < njobs; i++) {
		if (split_job(jobs[i], &parts, &nparts, err) < 0)
			goto out;
		for (j = 0; j < nparts; j++) {
			ALLOC_GROW(*atoms, *natoms + 1, alloc);
			(*atoms)[(*natoms)++] = parts[j];
		}
		FREE_AND_NULL(parts);
	}
	for (i = 0; i < *natoms; i++) {
		struct job *a = (*atoms)[i];

		if (o->group)
			job_set(a, "tbox_group", o->group);
		else if (!job_get(a, "tbox_group")) {
			strbuf_addf(err, "%s: tbox_group: no test-box group for the "
				    "task: give --testbox-group G (or tbox_group: "
				    "in the job)", path);
			goto out;
		} else if (trust_name_why(job_get(a, "tbox_group"))) {
			strbuf_addf(err, "%s: tbox_group: '%s' is no plain name (%s)",
				    path, trust_shown(job_get(a, "tbox_group")),
				    trust_name_why(job_get(a, "tbox_group")));
			goto out;
		}
	}
	ret = 0;
out:
	job_free_all(jobs, njobs);
	return ret;
}

/* the job is read and split before the store is opened */
static int queue_add(const struct options *opts, const char *path,
		     const struct add_opts *o)
{
	struct strbuf err = STRBUF_INIT;
	struct job **atoms = NULL;
	struct lab_new_task tmpl;
	struct lab_task_batch b;
	struct lab lab;
	int64_t *ids = NULL;
	size_t n = 0, i;
	int ret = EXIT_RUNTIME;

	if (build_tasks(path, o, &atoms, &n, &err) < 0) {
		note("%s", err.buf);
		strbuf_release(&err);
		job_free_all(atoms, n);
		return EXIT_USAGE;
	}
	if (lab_open(&lab, opts->result_root, opts->store_url, &err) < 0) {
		error("%s", err.buf);
		strbuf_release(&err);
		job_free_all(atoms, n);
		return EXIT_RUNTIME;
	}
	memset(&tmpl, 0, sizeof(tmpl));
	tmpl.commit = o->commit;
	tmpl.kernel = o->kernel;
	tmpl.runs = o->runs;
	tmpl.priority = o->priority;
	tmpl.max_attempts = o->max_attempts;
	lab_task_batch_init(&b, atoms, n, &tmpl);
	ids = xcalloc(n + 1, sizeof(*ids));
	if (lab_add_tasks(&lab, b.t, n, ids, &err) < 0) {
		error("%s", err.buf);
	} else {
		for (i = 0; i < n; i++)
			printf("%" PRId64 "\t%s\t%s\t%d run%s\n", ids[i],
			       b.t[i].group, b.t[i].job_name, o->runs,
			       o->runs == 1 ? "" : "s");
		ret = EXIT_OK;
	}
	lab_task_batch_release(&b);
	free(ids);
	job_free_all(atoms, n);
	lab_close(&lab);
	strbuf_release(&err);
	return ret;
}

/* a JSON string, or null for a field the task does not have */
static void add_json_field(struct strbuf *sb, const char *key, const char *v,
			   bool first)
{
	strbuf_addf(sb, "%s\"%s\": ", first ? "" : ", ", key);
	if (v)
		strbuf_add_json_str(sb, v);
	else
		strbuf_addstr(sb, "null");
}

/* the fields of `queue list`, named as docs/lab.md lists them */
static void task_json(struct strbuf *sb, const struct lab_task *t)
{
	strbuf_addf(sb, "{\"id\": %" PRId64, t->id);
	add_json_field(sb, "state", lab_state_name(t->state), false);
	add_json_field(sb, "group", t->group, false);
	add_json_field(sb, "job", t->job_name, false);
	add_json_field(sb, "commit", t->commit, false);
	add_json_field(sb, "kernel", t->kernel, false);
	strbuf_addf(sb, ", \"runs_done\": %d, \"runs\": %d", t->runs_done,
		    t->runs);
	add_json_field(sb, "worker", t->worker, false);
	strbuf_addf(sb, ", \"attempts\": %d, \"max_attempts\": %d, "
		    "\"priority\": %d", t->attempts, t->max_attempts,
		    t->priority);
	add_json_field(sb, "last_error", t->last_error, false);
	strbuf_addch(sb, '}');
}

/*
 * A table for people (fixed columns, the last error last since it is the
 * longest), or a JSON array for scripts.
 */
static int queue_list(struct lab *lab, int state, bool json)
{
	struct lab_task_list l = {0};
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	size_t i;

	if (lab_list_tasks(lab, state, &l, &err) < 0) {
		error("%s", err.buf);
		strbuf_release(&err);
		return EXIT_RUNTIME;
	}
	if (json)
		strbuf_addch(&out, '[');
	else
		strbuf_addf(&out, "%-6s %-9s %-12s %-40s %-12s %-7s %-14s %-3s %s\n",
			    "id", "state", "group", "job", "commit", "runs",
			    "worker", "try", "last error");
	for (i = 0; i < l.n; i++) {
		const struct lab_task *t = &l.items[i];
		char runs[32];

		if (json) {
			strbuf_addstr(&out, i ? ",\n " : "\n ");
			task_json(&out, t);
			continue;
		}
		snprintf(runs, sizeof(runs), "%d/%d", t->runs_done, t->runs);
		/* the store's text, escaped: a worker may write worker and last_error */
		strbuf_addf(&out, "%-6" PRId64 " %-9s %-12s %-40s %-12s %-7s %-14s "
			    "%-3d %s\n", t->id, lab_state_name(t->state),
			    trust_shown(t->group), trust_shown(t->job_name),
			    t->commit ? trust_shown(t->commit) : "-", runs,
			    t->worker ? trust_shown(t->worker) : "-", t->attempts,
			    t->last_error ? trust_shown(t->last_error) : "");
	}
	if (json)
		strbuf_addstr(&out, l.n ? "\n]\n" : "]\n");
	fwrite(out.buf, 1, out.len, stdout);
	lab_task_list_release(&l);
	strbuf_release(&out);
	strbuf_release(&err);
	return EXIT_OK;
}

/* cancel / retry ID */
/* cancel and retry: the state rules are lab_cancel_task / lab_retry_task */
static int queue_move(struct lab *lab, const char *what, const char *arg)
{
	struct strbuf err = STRBUF_INIT;
	long long id;
	const char *why;
	int ret = EXIT_OK, r;

	if (strnum_ll(arg, 1, INT64_MAX, &id, &why) < 0) {
		error("%s '%s': not a task id: %s", what, arg, why);
		return EXIT_USAGE;
	}
	r = !strcmp(what, "cancel") ? lab_cancel_task(lab, id, &err) :
		lab_retry_task(lab, id, &err);
	if (r < 0) {
		error("%s", err.buf);
		ret = EXIT_RUNTIME;
	} else {
		printf("task %lld %s\n", id, !strcmp(what, "cancel") ?
		       "cancelled" : "queued again");
	}
	strbuf_release(&err);
	return ret;
}

/* the workers' rows, as the store has them */
static int queue_workers(struct lab *lab)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	int ret = EXIT_OK;

	if (lab_workers_table(lab, &out, &err) < 0) {
		error("%s", err.buf);
		ret = EXIT_RUNTIME;
	}
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
	strbuf_release(&err);
	return ret;
}

/* the options of `add` and `list`; -1 for a usage error */
/*
 * One option table for every subcommand: an option a subcommand does
 * not use is accepted and ignored, as `queue list -n 3` harms nothing.
 */
static int parse_opts(int argc, char **argv, struct add_opts *o, int *state,
		      bool *json)
{
	static const struct option longopts[] = {
		{"testbox-group", required_argument, NULL, 'g'},
		{"commit", required_argument, NULL, 'c'},
		{"runs", required_argument, NULL, 'n'},
		{"priority", required_argument, NULL, 'p'},
		{"max-attempts", required_argument, NULL, 'm'},
		{"kernel", required_argument, NULL, 'k'},
		{"state", required_argument, NULL, 's'},
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	long long v;
	const char *why;
	int ch;

	while ((ch = cmd_getopt(argc, argv, "n:h", longopts)) != -1) {
		switch (ch) {
		case 'g':
			/* a directory of every run of the task: ESC there
			 * reached the terminal of `queue add` and `list`, and
			 * no worker could record a run (docs/attack-5.md, Q1) */
			if (trust_name_why(optarg))
				return error("--testbox-group '%s': a group is "
					     "a non-empty name without '/' (%s)",
					     trust_shown(optarg), trust_name_why(optarg));
			o->group = optarg;
			break;
		case 'c':
			if (!*optarg || !commit_ok(optarg))
				return error("--commit: a commit id is not empty "
					     "and has no '/' or control character");
			o->commit = optarg;
			break;
		case 'n':
		case 'p':
		case 'm':
			if (strnum_ll(optarg, ch == 'p' ? -1000000 : 1,
				      ch == 'p' ? 1000000 :
				      ch == 'n' ? LAB_TASK_RUNS_MAX : 99, &v, &why) < 0)
				return error("-%c '%s': %s", ch == 'n' ? 'n' : ch,
					     optarg, why);
			*(ch == 'n' ? &o->runs : ch == 'p' ? &o->priority :
			  &o->max_attempts) = (int)v;
			break;
		case 's':
			*state = lab_state_parse(optarg);
			if (*state < 0)
				return error("--state '%s': one of queued, leased, "
					     "done, failed, cancelled", optarg);
			break;
		case 'j':
			*json = true;
			break;
		case 'k':
			if (strchr(optarg, '/')) {
				/* an image: absolute, for the workers; a
				 * kernel, or one clear error now */
				struct strbuf bad = STRBUF_INIT;

				free(o->image);
				o->image = realpath(optarg, NULL);
				if (!o->image ||
				    vm_image_check(o->image, NULL, &bad) < 0) {
					error("--kernel '%s': %s", optarg,
					      o->image ? bad.buf :
							 strerror(errno));
					strbuf_release(&bad);
					return -1;
				}
				o->kernel = o->image;
				break;
			}
			/* a release reaches the box's --install hook as
			 * $PERFSIFT_KERNEL: "-x" there is an option, "a b"
			 * two words, and neither is ever what uname -r says,
			 * so the task would wait for a box that never comes */
			if (!lab_release_ok(optarg))
				return error("--kernel '%s': a kernel release "
					     "(uname -r) is 1 to 64 letters, digits "
					     "and '.', '-', '_', '+', '~', not "
					     "beginning with '-'; an image is a "
					     "path with a '/'",
					     trust_shown(optarg));
			o->kernel = optarg;
			break;
		case 'h':
			return -2;
		default:
			return -1;
		}
	}
	return 0;
}

/*
 * `queue SUB [OPTIONS] [ARG]`: the subcommand first, then its options
 * (getopt sees argv from the subcommand on).
 */
int cmd_queue(int argc, char **argv, struct options *opts)
{
	struct add_opts o = {NULL, NULL, NULL, 1, 0, 3, NULL};
	struct strbuf err = STRBUF_INIT;
	struct lab lab;
	const char *sub;
	int state = -1, ret, r;
	bool json = false;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return cmd_usage(queue_usage, argc < 2);
	sub = argv[1];
	r = parse_opts(argc - 1, argv + 1, &o, &state, &json);
	if (r < 0) {
		free(o.image);
		return r == -2 ? cmd_usage(queue_usage, false) : EXIT_USAGE;
	}
	if (o.image && strcmp(sub, "add")) {
		free(o.image);
		return cmd_usage(queue_usage, true);
	}
	argc -= optind + 1;
	argv += optind + 1;
	if ((!strcmp(sub, "add") && argc != 1) ||
	    ((!strcmp(sub, "cancel") || !strcmp(sub, "retry")) && argc != 1) ||
	    ((!strcmp(sub, "list") || !strcmp(sub, "workers")) && argc != 0)) {
		free(o.image);
		return cmd_usage(queue_usage, true);
	}
	if (strcmp(sub, "add") && strcmp(sub, "list") && strcmp(sub, "cancel") &&
	    strcmp(sub, "retry") && strcmp(sub, "workers")) {
		error("'%s' is not a queue command (add, list, cancel, retry, "
		      "workers)", sub);
		return EXIT_USAGE;
	}
	if (!strcmp(sub, "add")) {
		ret = queue_add(opts, argv[0], &o);
		free(o.image);
		return ret;
	}
	if (lab_open(&lab, opts->result_root, opts->store_url, &err) < 0) {
		error("%s", err.buf);
		strbuf_release(&err);
		return EXIT_RUNTIME;
	}
	if (!strcmp(sub, "list"))
		ret = queue_list(&lab, state, json);
	else if (!strcmp(sub, "workers"))
		ret = queue_workers(&lab);
	else
		ret = queue_move(&lab, sub, argv[0]);
	lab_close(&lab);
	strbuf_release(&err);
	return ret;
}
#else
int cmd_queue(int argc, char **argv, struct options *opts)
{
	(void)opts;
	return cmd_not_built("queue (it needs libpq)", argc, argv);
}
#endif
