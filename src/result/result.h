/*
 * result.h: the result root on disk, in LKP's layout (DESIGN.md "Files"):
 *
 *   <root>/<testcase>/<path_params>/<tbox_group>/<rootfs>/<kconfig>/
 *       <compiler>/<commit>/<run>/
 *
 * A run is built in a temporary directory beside its final place and
 * renamed into place when it ends, so a crash never leaves a half run
 * under a run number.  Finishing a run parses its raw files (monitor
 * registry), writes <monitor>.json and stats.json, rebuilds the group's
 * matrix.json from its complete runs, and indexes the run in the store,
 * in one transaction.
 *
 * Owned by the result module (result.c, samples.c, reduce.c, store/).
 * The runner (cmd/run.c, runner.c) is its main caller.
 */
#ifndef PERFSIFT_RESULT_H
#define PERFSIFT_RESULT_H

#include "util/compat.h"

struct job;
struct store;
struct strbuf;

/*
 * The group directory ("_result_root") of an atomic job whose machine
 * facts are filled in (testcase, tbox_group, rootfs, kconfig, compiler,
 * commit): appended to dir.  path_params is job_group_params()'s; when
 * that directory already holds runs of another job (LKP's name was not
 * unique: 'a b' and 'a/b' both give a_b), job_identity_suffix() is
 * appended to it as for a cut value.  -1 with err naming the missing key,
 * or the run in the way when even the suffixed name is taken.
 */
int result_group_dir(const struct job *job, const char *root,
		     struct strbuf *dir, struct strbuf *err);

struct result_run {
	char *group_dir; /* .../<commit> */
	int number;      /* LKP's run number: first unused integer from 0 */
	char *tmp_dir;   /* where the runner writes raw files meanwhile */
	char *dir;       /* final place: <group_dir>/<number> */
	int owner_fd;    /* flock'd <tmp_dir>/.owner while tmp_dir is set */
	/*
	 * The job's declared KPIs (shell globs over stat names; set by the
	 * caller after result_run_begin(), NULL: none): a run that ended
	 * well but has no stat matching any of them -- the command was not
	 * found, its output parsed to nothing -- is a failed run, published
	 * incomplete with "kpi_missing: 1" in its last_state.
	 */
	const char *const *kpi_patterns;
	size_t nkpi;
	char *kpi_missing; /* out: the patterns ("a, b") nothing matched */
};

/*
 * Own the reserved run directory tmp (a .tmp-<n>): its .owner, locked
 * for as long as the fd is open, tells a live reservation from a dead
 * perfsift's (which the next run reclaims).  The fd, or -1.  For pull,
 * which reserves a number as a run does.
 */
int result_take_ownership(const char *tmp);
/*
 * tmp (group_dir's .tmp-<n>) is a dead perfsift's when its .owner is not
 * locked: then it is removed and true returned (its number is free).
 */
bool result_reclaim_stale(const char *tmp, const char *group_dir, int n);

/*
 * Reserve the next run number in group_dir (creating it) and make the
 * temporary directory <group_dir>/.tmp-<n>.  The reservation survives a
 * concurrent perfsift; the temporary directory of a perfsift that died
 * without finishing (SIGKILL) is removed and its number reused, since its
 * owner lock (<tmp>/.owner, flock) is gone with it.
 */
int result_run_begin(struct result_run *run, const char *group_dir,
		     struct strbuf *err);

/*
 * Finish a run whose raw files (job.yaml, <prog>.time, monitor raw files,
 * benchmark output) are in run->tmp_dir: write last_state (with
 * is_incomplete_run: 1 when !complete), parse and reduce the raw files,
 * rename the directory into place, rebuild matrix.json from the complete
 * runs and index the run in the store at store_url (NULL = the root's
 * SQLite index).  An incomplete run is kept but left out of matrix.json
 * and of comparisons.
 *
 * Returns 0; -2 when a raw file of a complete run is corrupt or cannot be
 * parsed (err names the file; nothing was changed: the temporary directory
 * is left as it was, for result_run_abort() or a look); -1 on any other
 * failure (err says which; once the run is renamed into place, a failure
 * to rebuild matrix.json or to index leaves the run in place, and
 * `perfsift stats` redoes both).  A cut run's unparsable file is only a
 * warning: it is left out of the cut run's stats.
 */
int result_run_finish(struct result_run *run, const char *root,
		      const char *store_url, bool complete, struct strbuf *err);

/* remove the temporary directory of a run that never started */
void result_run_abort(struct result_run *run);
void result_run_release(struct result_run *run);

/* a run directory's name: a run number as LKP writes it ("0", "17") */
bool result_is_run_number(const char *name);

/*
 * Rebuild one run's <monitor>.json and stats.json from its raw files, then
 * the group's matrix.json and the index (`perfsift stats RUN_DIR`).  A
 * group with no raw file left but its <group>.json (an archived LKP run)
 * keeps the stats the old stats.json has of it, or is reduced from that
 * JSON when it has none (the JSON is left as it is); stats no source in
 * the run gives any more are carried over.
 * Everything is parsed before anything is written, and no file is
 * replaced by one that holds less: a corrupt raw file or JSON, or a
 * rebuild that would drop a stat, gives -2 with err naming the file and
 * changes nothing; -1 on other failures.  A run directory outside the
 * result root gets its files rebuilt but is not indexed.
 */
int result_restat(const char *run_dir, const char *root,
		  const char *store_url, struct strbuf *err);

/*
 * result_restat() for a store shared by several result roots that each
 * hold only some runs of a group (the lab's workers, src/lab/): the
 * group's other runs in the index are kept, not forgotten as gone from
 * disk.
 */
int result_restat_shared(const char *run_dir, const char *root,
			 const char *store_url, struct strbuf *err);

/*
 * A run restated into the root's own index as result_restat_shared()
 * does, what was indexed kept: result_index_kept() then indexes the same
 * stats in another store, open once for many runs, without parsing the
 * run again or rebuilding its group's matrix.json a second time.  push's
 * order: the run restated, its files stored, then the shared index
 * (docs/attack-5.md, P1) -- the index is of the files that were sent.
 */
struct result_kept {
	char *root;  /* real paths, as restat() indexed them */
	char *dir;
	char *group;
	int number;
	bool complete;
	struct reduce_stats *stats;
};
/*
 * As result_restat_shared(run_dir, root, NULL, err); k filled on 0.  A
 * run outside the root is not indexed there, and is an error here.  A
 * run none of whose files the restat changed (each left as it is when it
 * holds the bytes it would be given) keeps its group's matrix.json and
 * its index entry as they are: push's cost stays linear in the group.
 */
int result_restat_keep(const char *run_dir, const char *root,
		       struct result_kept *k, struct strbuf *err);
/* k's run into st (the other runs of its group are kept there); 0 or -1 */
int result_index_kept(struct store *st, const struct result_kept *k,
		      struct strbuf *err);
void result_kept_release(struct result_kept *k);
/*
 * A group's matrix.json rebuilt from its complete runs, under its lock
 * (each file left as it is when it holds its bytes already): once a
 * group after result_restat_keep() of its runs, which leaves it alone
 * for a run whose files stand -- a matrix an earlier push or stats
 * killed mid-way left behind its runs is made right all the same.
 */
int result_refresh_matrix(const char *group_dir, struct strbuf *err);

/*
 * result_restat() for every run of a group (its directories named by a
 * number) with a single matrix.json rebuild and index session: what
 * `perfsift stats --all` does per group.  A run with a bad raw file is
 * reported with error() and skipped, its files untouched; the others are
 * rebuilt.  Returns 0, -2 when some run had bad input, -1 on another
 * failure (err says what, unless it was a run's, already reported);
 * *done counts the runs rebuilt.
 */
int result_restat_group(const char *group_dir, const char *root,
			const char *store_url, size_t *done, struct strbuf *err);

/*
 * A run's identity (job_identity() of its job.yaml, read leniently as LKP
 * writes it) appended to out; -1 when the run has no readable job.yaml.
 */
int result_run_identity(const char *run_dir, struct strbuf *out);

/*
 * Whether a group directory mixes runs of different jobs (written by LKP
 * or an older perfsift, whose group names cut long values): 1 with why
 * "runs 0 and 3 differ in 'cmdline' ('a' / 'b')", naming the first run
 * that differs from the first run; 0 when every run with a job.yaml is of
 * one job.  Reads each run's job.yaml.
 */
int result_group_mixed(const char *group_dir, struct strbuf *why);

/*
 * Forget the indexed groups that have no run directory on disk any more
 * (deleted, or moved away): `perfsift stats --all` over the whole root.
 */
int result_prune_index(const char *root, const char *store_url,
		       size_t *forgotten, struct strbuf *err);

/*
 * Index the run directories of the root that its index lacks: a run a
 * killed perfsift renamed into place but never indexed, or one copied in
 * by hand (result/sync.c).  Cheap when nothing changed: one lstat per
 * directory down to the groups, against the mtimes the index keeps.  A run
 * that cannot be indexed is reported (warning) and tried again next time;
 * beyond a few dozen, the rest are left to `perfsift stats --all` (said
 * once).  -1 with err only when the index cannot be read at all.
 */
int result_sync_index(const char *root, const char *store_url,
		      struct strbuf *err);

/*
 * store_open() for the commands that read a root (results, compare, plot,
 * report, bisect): result_sync_index() first, a failure of which is only
 * a warning.
 */
int result_store_open(struct store *st, const char *root, const char *store_url,
		      unsigned flags, struct strbuf *err);

#endif
