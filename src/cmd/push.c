/*
 * push.c: `perfsift --store postgresql://... push [SELECTOR...]` -- export
 * the runs of the local result root (its own SQLite index) into the
 * PostgreSQL store: each run indexed there and its files stored
 * (src/lab/files.c), so the lab and every machine reading the store see
 * it.  A run the store already holds under its number, or whose number
 * a worker has reserved, is left alone (never replaced): push is safe to
 * repeat.
 */
#include "util/compat.h"
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "builtin.h"
#include "lab/lab.h"
#include "result/result.h"
#include "util/fault.h"
#include "util/strbuf.h"
#include "util/usage.h"

#ifdef HAVE_LIBPQ
static const char push_usage[] =
	"usage: perfsift --store postgresql://... push [SELECTOR...]\n"
	"\n"
	"Export the runs of the result root (indexed in its perfsift.db) to the\n"
	"store: index and files.  SELECTOR (as for compare) limits it to some\n"
	"groups.  Runs the store has already are left alone.\n";

/* whether the store has (or a worker reserved) run number of group rel */
/*
 * A reserved number counts: a worker may be storing its run under it
 * right now, and push must not take it first.
 */
static int taken(struct lab *lab, const char *rel, int number, bool *yes,
		 struct strbuf *err)
{
	char num[16];
	const char *p[2] = {rel, num};
	struct lab_rows r;

	snprintf(num, sizeof(num), "%d", number);
	if (lab_query(lab, "SELECT EXISTS (SELECT 1 FROM runs r JOIN groups g"
		      " ON g.id = r.group_id WHERE g.dir = $1 AND r.number ="
		      " $2::int) OR EXISTS (SELECT 1 FROM lab_task_runs WHERE"
		      " group_dir = $1 AND number = $2::int)", 2, p, &r, err) < 0)
		return -1;
	*yes = !strcmp(lab_get(&r, 0, 0), "t");
	lab_rows_release(&r);
	return 0;
}

/* the runs of the groups sel names (NULL: all) of the local index */
static int push_groups(struct lab *lab, struct store *shared,
		       struct store *local, const char *sel, size_t *pushed,
		       size_t *there, struct strbuf *err)
{
	struct store_group_list gl = {0};
	size_t i, j, nfiles;
	int ret = 0;

	if (store_find_groups_text(local, sel, &gl, err) < 0)
		return -1;
	if (sel && !gl.n) {
		strbuf_addf(err, "'%s' matches no result group of the root", sel);
		ret = -1;
	}
	for (i = 0; i < gl.n && !ret; i++) {
		struct store_run_list rl = {0};
		const char *rel = gl.items[i].dir + strlen(local->root) + 1;
		size_t before = *pushed;

		ret = store_group_runs(local, gl.items[i].id, &rl, err);
		for (j = 0; j < rl.n && !ret; j++) {
			const struct store_run *r = &rl.items[j];
			struct result_kept k;
			bool yes;

			ret = taken(lab, rel, r->number, &yes, err);
			if (ret || yes) {
				*there += !ret;
				continue;
			}
			/*
			 * The files first (one transaction), then the index: a
			 * push killed between the two indexed the run without
			 * its files, and the next push, finding it "there
			 * already", never sent them -- a run no pull could get
			 * (docs/attack-5.md, P1).  Files without an index are
			 * sent again (replaced whole) by the next push.  The
			 * run is restated here first, and the stats that were
			 * written are the ones indexed: the store's index is
			 * of the files sent, the run parsed once.
			 */
			ret = result_restat_keep(r->dir, local->root, &k, err);
			if (!ret)
				ret = lab_put_run_files(lab, rel, r->number, r->dir,
							&nfiles, err);
			fault_point("push-files-stored");
			if (!ret)
				ret = result_index_kept(shared, &k, err);
			result_kept_release(&k);
			*pushed += !ret;
		}
		/* once a group, not once a run (result_restat_keep()) */
		if (!ret && *pushed > before)
			ret = result_refresh_matrix(gl.items[i].dir, err);
		store_run_list_release(&rl);
	}
	store_group_list_release(&gl);
	return ret;
}

int cmd_push(int argc, char **argv, struct options *opts)
{
	struct strbuf err = STRBUF_INIT;
	struct store local, shared;
	struct lab lab;
	size_t pushed = 0, there = 0;
	int i, ret = EXIT_OK;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return cmd_usage(push_usage, false);
		if (argv[i][0] == '-')
			return cmd_usage(push_usage, true);
	}
	if (lab_open(&lab, opts->result_root, opts->store_url, &err) < 0) {
		error("%s", err.buf);
		strbuf_release(&err);
		return EXIT_RUNTIME;
	}
	/* the root's own index: what this machine ran */
	if (result_store_open(&local, opts->result_root, NULL, 0, &err) < 0) {
		error("%s", err.buf);
		lab_close(&lab);
		strbuf_release(&err);
		return EXIT_RUNTIME;
	}
	/* the store's index, one connection for every run pushed */
	if (store_open(&shared, opts->result_root, opts->store_url,
		       STORE_CREATE, &err) < 0) {
		error("%s", err.buf);
		store_close(&local);
		lab_close(&lab);
		strbuf_release(&err);
		return EXIT_RUNTIME;
	}
	for (i = 1; i < argc || (i == 1 && argc == 1); i++)
		if (push_groups(&lab, &shared, &local,
				i < argc ? argv[i] : NULL, &pushed, &there,
				&err) < 0) {
			error("%s", err.buf);
			ret = EXIT_RUNTIME;
			break;
		}
	printf("%zu run%s pushed to the store, %zu there already\n", pushed,
	       pushed == 1 ? "" : "s", there);
	store_close(&shared);
	store_close(&local);
	lab_close(&lab);
	strbuf_release(&err);
	return ret;
}
#else
int cmd_push(int argc, char **argv, struct options *opts)
{
	(void)opts;
	return cmd_not_built("push (it needs libpq)", argc, argv);
}
#endif
