/*
 * worker.c: `perfsift --store postgresql://... worker --testbox NAME
 * [--testbox-group G] [--drain | --once] [--lease-s N]` -- a test box's
 * worker for the lab's queue (src/lab/worker_loop.c, docs/lab.md).
 */
#include "util/compat.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "lab/worker.h"
#include "run/machine.h"
#include "util/strnum.h"
#include "util/usage.h"

#ifdef HAVE_LIBPQ
static const char worker_usage[] =
	"usage: perfsift --store postgresql://... worker --testbox NAME\n"
	"           [--testbox-group G] [--drain | --once] [--lease-s N]\n"
	"           [--install CMD] [--vm]\n"
	"\n"
	"Run the lab's queued tasks of a test-box group (docs/lab.md): claim the\n"
	"next one (priority, then age), run its runs with `perfsift run`'s engine\n"
	"into the result root (this box's cache) and store each run in the\n"
	"store as soon as it is finished.  Sleeps on LISTEN/NOTIFY between tasks.\n"
	"\n"
	"  --testbox NAME      this box's name (one worker per box)\n"
	"  --testbox-group G   the group it takes tasks of (default: NAME minus\n"
	"                      a trailing -N)\n"
	"  --drain             exit once no task of the group is queued or leased\n"
	"  --once              take one task (none queued: exit)\n"
	"  --lease-s N         the lease of the tasks it claims, renewed every\n"
	"                      N/3 s (default 30); a worker gone for N s loses\n"
	"                      its task to another\n"
	"  --install CMD       for a task naming a kernel this box does not run:\n"
	"                      sh -c CMD with PERFSIFT_KERNEL and PERFSIFT_TASK\n"
	"                      set; exit 0: installed and running, 100: reboot\n"
	"                      (the worker exits keeping the lease; started at\n"
	"                      boot, it goes on with the task), else it failed\n"
	"  --vm                run a task whose kernel is an image (`queue add\n"
	"                      --kernel IMAGE`) by booting it in a VM\n"
	"                      (`perfsift run --kernel`): no install, no reboot\n"
	"\n"
	"SIGTERM / SIGINT: the run in progress is finished and stored, the task\n"
	"given back.  A killed worker's task is retaken when its lease runs out\n"
	"and goes on from the runs already stored.\n";

/*
 * The options only: everything a worker does is src/lab/worker_loop.c.  The
 * names must be path-safe because the group is a directory of the
 * result tree and the name goes into the store as the lease's holder.
 */
int cmd_worker(int argc, char **argv, struct options *opts)
{
	static const struct option longopts[] = {
		{"testbox", required_argument, NULL, 't'},
		{"testbox-group", required_argument, NULL, 'g'},
		{"drain", no_argument, NULL, 'd'},
		{"once", no_argument, NULL, 'o'},
		{"lease-s", required_argument, NULL, 'l'},
		{"install", required_argument, NULL, 'i'},
		{"vm", no_argument, NULL, 'v'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct worker_opts o = {0};
	char *group = NULL;
	long long v;
	const char *why;
	int ch, ret;

	o.lease_s = 30;
	while ((ch = cmd_getopt(argc, argv, "h", longopts)) != -1) {
		switch (ch) {
		case 't':
			o.name = optarg;
			break;
		case 'g':
			o.group = optarg;
			break;
		case 'd':
		case 'o':
			if (o.mode != WORKER_FOREVER) {
				error("--drain and --once: one or the other");
				return EXIT_USAGE;
			}
			o.mode = ch == 'd' ? WORKER_DRAIN : WORKER_ONCE;
			break;
		case 'l':
			if (strnum_ll(optarg, 1, 86400, &v, &why) < 0) {
				error("--lease-s '%s': %s (1..86400 s)", optarg, why);
				return EXIT_USAGE;
			}
			o.lease_s = (int)v;
			break;
		case 'i':
			o.install = optarg;
			break;
		case 'v':
			o.vm = true;
			break;
		case 'h':
			return cmd_usage(worker_usage, false);
		default:
			return cmd_usage(worker_usage, true);
		}
	}
	if (optind != argc || !o.name)
		return cmd_usage(worker_usage, true);
	if (!*o.name || strchr(o.name, '/') ||
	    (o.group && (!*o.group || strchr(o.group, '/')))) {
		error("--testbox / --testbox-group: a name is not empty and has "
		      "no '/'");
		return EXIT_USAGE;
	}
	/* LKP's rule: lkp-box-1 is of group lkp-box */
	if (!o.group)
		o.group = group = machine_tbox_group(o.name);
	/* the result root is the box's cache; the store is the truth */
	o.root = opts->result_root;
	o.url = opts->store_url;
	ret = worker_main(&o);
	free(group);
	return ret;
}
#else
int cmd_worker(int argc, char **argv, struct options *opts)
{
	(void)opts;
	return cmd_not_built("worker (it needs libpq)", argc, argv);
}
#endif
