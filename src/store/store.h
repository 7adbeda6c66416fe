/*
 * store.h: the index of a result root -- result groups (with every job
 * parameter, for key=value selection), runs, stat names and values -- so
 * that compare, plot, report, history and bisect never walk the tree.
 *
 * One interface, several backends (struct store_ops): SQLite, one database
 * per result root (<root>/perfsift.db, WAL) is the default; a PostgreSQL
 * backend for a lab of test boxes plugs in by URL scheme without touching
 * a caller.  The files stay the truth: `perfsift stats RUN_DIR` re-indexes
 * a run, and group and run directories are stored relative to the root.
 *
 * Typical use (compare):
 *   struct store st;  struct store_group g;  struct matrix m;
 *   store_open(&st, opts->result_root, opts->store_url, 0, &err);
 *   store_resolve(&st, "abc123", &g, &err);   -- one group, or an error
 *   store_load_matrix(&st, g.id, &m, &err);   -- complete runs only
 */
#ifndef PERFSIFT_STORE_H
#define PERFSIFT_STORE_H

#include "util/compat.h"

struct matrix;
struct noise_floor;
struct reduce_stats;
struct strbuf;
struct unite_column;

/* the fixed axes of a result group: its path below the result root */
enum store_axis {
	STORE_TESTCASE,
	STORE_PATH_PARAMS,
	STORE_TBOX_GROUP,
	STORE_ROOTFS,
	STORE_KCONFIG,
	STORE_COMPILER,
	STORE_COMMIT,
	STORE_NAXES
};
/* "testcase", "path_params", ..., "commit" */
const char *store_axis_name(enum store_axis axis);

enum store_param_kind {
	STORE_PARAM_JOB,  /* a job parameter (job_params(): path_params' set) */
	STORE_PARAM_AXIS, /* testcase, path_params, ..., commit */
	STORE_PARAM_FACT, /* another top-level scalar of the run's job.yaml:
			     machine facts, the environment fingerprint */
};
struct store_param {
	char *key;
	char *value;
	enum store_param_kind kind;
};
struct store_param_list {
	struct store_param *items; /* sorted by key */
	size_t n, alloc;
};
void store_param_list_release(struct store_param_list *l);

struct store_group {
	int64_t id;
	char *dir;                /* absolute: <root>/<testcase>/.../<commit> */
	char *axes[STORE_NAXES];  /* testcase ... commit */
	size_t nruns;             /* complete runs (what comparisons use) */
	size_t nincomplete;       /* runs marked is_incomplete_run */
};
struct store_group_list {
	struct store_group *items; /* sorted by directory */
	size_t n, alloc;
};
void store_group_release(struct store_group *g);
void store_group_list_release(struct store_group_list *l);
/* deep copy (for callers keeping one item of a list) */
void store_group_copy(struct store_group *dst, const struct store_group *src);

struct store_run {
	int64_t id;
	int number;
	bool complete;
	char *dir; /* absolute */
};
struct store_run_list {
	struct store_run *items; /* sorted by number */
	size_t n, alloc;
};
void store_run_list_release(struct store_run_list *l);

/*
 * A directory of the root (a group or one above groups) as the index last
 * saw it: every run below it that was on disk at mtime_ns was indexed.
 * result_sync_index() compares these against the disk (one lstat each) to
 * find run directories the index lacks.
 */
struct store_dir_mark {
	char *dir;         /* relative to the root ("" = the root) */
	int64_t mtime_ns;
};
struct store_dir_mark_list {
	struct store_dir_mark *items;
	size_t n, alloc;
};
void store_dir_mark_list_release(struct store_dir_mark_list *l);
void store_dir_mark_list_add(struct store_dir_mark_list *l, const char *dir,
			     int64_t mtime_ns);

/* one run as result_run_finish() / result_restat() index it */
struct store_run_record {
	const char *group_dir;          /* absolute, below the store's root */
	const char *axes[STORE_NAXES];
	const struct store_param *params; /* every job parameter (key=value) */
	size_t nparams;
	int number;
	bool complete;
	const char *run_dir;            /* absolute */
	const struct reduce_stats *stats; /* the run's stats.json */
	/*
	 * The run numbers present on disk in the group (this one included):
	 * indexed runs of the group not in the list are forgotten, in the same
	 * transaction.  NULL keeps every other run as it is.
	 */
	const int *present_runs;
	size_t npresent;
};

/*
 * What names result groups on a command line (DESIGN.md): an existing
 * directory (a group, a run in it, or any directory above groups) wins;
 * else key=value[,key=value...] matched against every job parameter and
 * axis; else a commit id or a unique prefix of one.
 */
enum store_sel_kind {
	STORE_SEL_ALL,    /* NULL or empty text: every group */
	STORE_SEL_DIR,
	STORE_SEL_PARAMS,
	STORE_SEL_COMMIT,
};
struct store_selector {
	enum store_sel_kind kind;
	char *dir;    /* DIR: relative to the root ("" = the root); NULL when
			 the directory is outside the root (matches nothing) */
	struct store_param *kv; /* PARAMS */
	size_t nkv;
	char *commit; /* COMMIT */
};
/* -1 with err for a malformed key=value list */
int store_selector_parse(struct store_selector *sel, const char *root,
			 const char *text, struct strbuf *err);
void store_selector_release(struct store_selector *sel);

struct store;

/* a key and value for the index (borrowed) */
struct store_kv {
	const char *key, *value;
	enum store_param_kind kind;
};

/*
 * One run to index, as store_index_run() prepares it for the backend:
 * everything but the SQL is decided here.
 */
struct store_index {
	const struct store_run_record *rec;
	const char *group_rel, *run_rel; /* below the store's root */
	/* the job's parameters, then the axes: one entry per key (an axis
	 * wins over a parameter of its name, a parameter over a later one) */
	struct store_kv *params;
	size_t nparams;
	const char *blob;  /* the run's stats, packed (store_pack_stats) */
	size_t blob_len;
};

/* one value of a complete run, as store_stat_values() hands them out */
struct store_value {
	int64_t group_id;
	int run;          /* the run's number */
	int64_t time;     /* when the run was indexed (seconds since the epoch) */
	size_t stat;      /* index into the names asked for */
	double value;
};
typedef void (*store_value_fn)(void *ctx, const struct store_value *v);
/* one group as store_group_rows() hands them out (borrowed strings) */
typedef void (*store_group_row_fn)(void *ctx, int64_t id, const char *rel_dir,
				   const char *testcase, const char *commit);

struct store_name_list {
	char **items; /* sorted */
	size_t n, alloc;
};
void store_name_list_release(struct store_name_list *l);

/* a backend; every function returns 0, or -1 with a reason in err */
struct store_ops {
	const char *name; /* "sqlite", "postgresql" */
	/* location: what follows the URL scheme (SQLite: the file) */
	int (*open)(struct store *st, const char *location, unsigned flags,
		    struct strbuf *err);
	void (*close)(struct store *st);
	/* the group (created or updated), its params, the run, its values:
	 * one transaction; re-indexing a run replaces it */
	int (*index_run)(struct store *st, const struct store_index *ix,
			 struct strbuf *err);
	/* groups matching sel (appended to out, sorted by directory); for a
	 * commit, exact ids win over prefixes */
	int (*find_groups)(struct store *st, const struct store_selector *sel,
			   struct store_group_list *out, struct strbuf *err);
	/* every parameter and axis of a group, sorted by key */
	int (*group_params)(struct store *st, int64_t group_id,
			    struct store_param_list *out, struct strbuf *err);
	int (*group_runs)(struct store *st, int64_t group_id,
			  struct store_run_list *out, struct strbuf *err);
	/* the group's matrix from its complete runs (unite.h's rules) */
	int (*load_matrix)(struct store *st, int64_t group_id, struct matrix *m,
			   struct strbuf *err);
	/* one run's stats, sorted by name */
	int (*run_stats)(struct store *st, int64_t run_id,
			 struct reduce_stats *out, struct strbuf *err);
	/* drop a group, its parameters, runs and values (one transaction) */
	int (*forget_group)(struct store *st, int64_t group_id,
			    struct strbuf *err);
	/* the directory marks (NULL: the backend keeps none, no sync) */
	int (*dir_marks)(struct store *st, struct store_dir_mark_list *out,
			 struct strbuf *err);
	/* set (insert or replace) and drop marks, one transaction */
	int (*save_dir_marks)(struct store *st,
			      const struct store_dir_mark_list *set,
			      const struct store_dir_mark_list *drop,
			      struct strbuf *err);
	/*
	 * History (one read for a whole series, or a whole root): every
	 * complete run's values of the stats named, for the groups listed
	 * (NULL: every group), in no particular order, through fn.
	 */
	int (*stat_values)(struct store *st, const int64_t *group_ids,
			   size_t ngroups, const char *const *names,
			   size_t nnames, store_value_fn fn, void *ctx,
			   struct strbuf *err);
	/* every group, sorted by directory, without counting its runs */
	int (*group_rows)(struct store *st, store_group_row_fn fn, void *ctx,
			  struct strbuf *err);
	/* the stat names starting with prefix, appended sorted */
	int (*stat_names)(struct store *st, const char *prefix,
			  struct store_name_list *out, struct strbuf *err);
	/*
	 * Noise floors (result/floor.h), one per series: put replaces the
	 * series' floor whole in one transaction (a reader sees the old
	 * floor or the new, never a mix); get fills out (initialised by
	 * the caller) and sets *found.
	 */
	int (*put_floor)(struct store *st, const struct noise_floor *f,
			 struct strbuf *err);
	int (*get_floor)(struct store *st, const char *series,
			 struct noise_floor *out, bool *found,
			 struct strbuf *err);
};

struct store {
	const struct store_ops *ops;
	char *root; /* the result root, absolute */
	void *priv; /* the backend's */
};

enum store_flags {
	/*
	 * Create the index when it does not exist yet.  Without it a missing
	 * index opens as an empty store (reading commands on a fresh root).
	 */
	STORE_CREATE = 1 << 0,
	/*
	 * Set by store_open() for a "sqlite:PATH" the user named (not the
	 * root's own perfsift.db): a file there that is no SQLite database
	 * is refused untouched (store_not_ours()), never taken for a
	 * damaged index.
	 */
	STORE_NAMED = 1 << 1,
};

/*
 * Open the store of result root `root`: url NULL (or "sqlite:" with no
 * path) is <root>/perfsift.db; "sqlite:PATH" another SQLite file;
 * "postgresql://..." the PostgreSQL backend when built in.
 */
int store_open(struct store *st, const char *root, const char *url,
	       unsigned flags, struct strbuf *err);
void store_close(struct store *st);

int store_index_run(struct store *st, const struct store_run_record *rec,
		    struct strbuf *err);
int store_find_groups(struct store *st, const struct store_selector *sel,
		      struct store_group_list *out, struct strbuf *err);
/* store_selector_parse() + store_find_groups() */
int store_find_groups_text(struct store *st, const char *text,
			   struct store_group_list *out, struct strbuf *err);
/*
 * Exactly one group for text: 0 with *g filled (caller releases it), or -1
 * with err "'TEXT' matches no result group" or "'TEXT' is ambiguous: it
 * matches N result groups" followed by one "  DIR" line per candidate.
 */
int store_resolve(struct store *st, const char *text, struct store_group *g,
		  struct strbuf *err);
int store_group_params(struct store *st, int64_t group_id,
		       struct store_param_list *out, struct strbuf *err);
int store_group_runs(struct store *st, int64_t group_id,
		     struct store_run_list *out, struct strbuf *err);
int store_load_matrix(struct store *st, int64_t group_id, struct matrix *m,
		      struct strbuf *err);
int store_run_stats(struct store *st, int64_t run_id, struct reduce_stats *out,
		    struct strbuf *err);
int store_forget_group(struct store *st, int64_t group_id, struct strbuf *err);
/*
 * The index is damaged (a backend found it so): says "index corrupt:
 * rebuild it with `perfsift stats --all`" naming the file and what was
 * found, and exits with status 3 -- the same from every command, since a
 * comparison answered from a damaged index can say "no regression".
 */
NORETURN void store_corrupt(const char *where, const char *what);
/*
 * A file the user named as the index (--store or PERFSIFT_STORE
 * sqlite:PATH) that perfsift did not make -- no SQLite database, not a
 * regular file, or a damaged one that does not say it is perfsift's: says
 * so naming it (why: what it is) and exits with status 2, the file left
 * as it was (the fourth attack, L13).  A die, as store_corrupt(): every
 * command must stop the same way, before anything reads or writes it.
 */
NORETURN void store_not_ours(const char *where, const char *why);
/*
 * For `perfsift stats --all`: when the root's SQLite index fails SQLite's
 * quick_check, move it (and its -wal, -shm) aside to <db>.corrupt so that
 * a new one is built from the files.  Only perfsift's own index is
 * moved: the root's perfsift.db, or a named file (sqlite:PATH) whose
 * SQLite header carries perfsift's application id; any other damaged
 * file is store_not_ours().  0 (*moved true when it did), -1 with err.
 * Other backends: nothing to do.
 */
int store_set_aside_if_corrupt(const char *root, const char *url, bool *moved,
			       struct strbuf *err);

/* false when the backend keeps no directory marks */
bool store_has_dir_marks(const struct store *st);
int store_dir_marks(struct store *st, struct store_dir_mark_list *out,
		    struct strbuf *err);
int store_save_dir_marks(struct store *st, const struct store_dir_mark_list *set,
			 const struct store_dir_mark_list *drop,
			 struct strbuf *err);
int store_stat_values(struct store *st, const int64_t *group_ids,
		      size_t ngroups, const char *const *names, size_t nnames,
		      store_value_fn fn, void *ctx, struct strbuf *err);
int store_stat_names(struct store *st, const char *prefix,
		     struct store_name_list *out, struct strbuf *err);
int store_group_rows(struct store *st, store_group_row_fn fn, void *ctx,
		     struct strbuf *err);
/* the noise floor of a series (store_ops' put_floor / get_floor) */
int store_put_floor(struct store *st, const struct noise_floor *f,
		    struct strbuf *err);
int store_get_floor(struct store *st, const char *series,
		    struct noise_floor *out, bool *found, struct strbuf *err);

/*
 * For backends: a run's stats packed in one blob, so that loading a
 * group's matrix reads one row per run instead of one per value (see
 * store.c for the layout).  Unpacking borrows: names point into p->buf.
 */
struct store_packed {
	char *buf;
	const char **names;
	double *values;
	unsigned char *is_int;
	size_t n;
	size_t names_len;   /* bytes of the names section */
	bool shared_names;  /* names borrowed from another run (`like`) */
};
void store_pack_stats(struct strbuf *blob, const struct reduce_stats *stats);
/* 0, or -1 for a blob that is not one (p is then to be released) */
int store_unpack_stats(struct store_packed *p, const void *data, size_t len);
/*
 * The same, but when the blob's names are byte for byte those of `like`
 * (an unpacked run of the same group, which must outlive p), p borrows
 * like's names and copies only the values: the runs of a group nearly
 * always share their stats, and the names are most of a blob's bytes.
 */
int store_unpack_stats_like(struct store_packed *p, const void *data,
			    size_t len, const struct store_packed *like);
void store_packed_release(struct store_packed *p);

/* ---- for backends: what does not depend on their SQL ---- */

/* <root>/<rel> (the root itself for ""), a new string */
char *store_abs_dir(const struct store *st, const char *rel);
/*
 * The inverse: path relative to the store's root (borrowed from path), as
 * the index keeps it and a user names a group; NULL when path is outside
 * the root.
 */
const char *store_rel_dir(const struct store *st, const char *path);
/*
 * The group a DIR selector names when it is a run directory
 * (<group>/<digits>): a new string, or NULL (not a run directory).
 */
char *store_selector_run_group(const struct store_selector *sel);
/* append one row read back from the index (dirs relative to the root) */
void store_group_list_add(struct store_group_list *out, const struct store *st,
			  int64_t id, const char *rel_dir,
			  const char *const axes[STORE_NAXES], size_t nruns,
			  size_t nincomplete);
void store_run_list_add(struct store_run_list *out, const struct store *st,
			int64_t id, int number, bool complete,
			const char *rel_dir);
void store_param_list_add(struct store_param_list *out, const char *key,
			  const char *value, enum store_param_kind kind);

/* a group's matrix, run by run, from the rows a backend reads */
struct store_matrix_builder {
	struct store_packed *runs;
	struct unite_column *cols;
	char **sources;
	size_t n, alloc;
};
void store_matrix_builder_init(struct store_matrix_builder *b);
/* one run from its packed stats: 0, or -1 when blob is not one */
int store_matrix_builder_add(struct store_matrix_builder *b,
			     const struct store *st, const char *rel_dir,
			     const void *blob, size_t len);
/* one run from its stats (a run indexed before the packed blob) */
void store_matrix_builder_add_stats(struct store_matrix_builder *b,
				    const struct store *st,
				    const char *rel_dir,
				    const struct reduce_stats *stats);
/* the matrix of the runs added (unite.h's rules) */
void store_matrix_builder_finish(struct store_matrix_builder *b,
				 struct matrix *m);
void store_matrix_builder_release(struct store_matrix_builder *b);

/*
 * SQLite's quick_check of the index file at path (opened read-only, no
 * die on damage): true, with why, when it is damaged or not a database.
 */
bool store_sqlite_damaged(const char *path, struct strbuf *why);
/*
 * Whose the file at path is, from its SQLite header (the first 100
 * bytes, readable whatever pages are damaged; application id at 68):
 * with why set to what it is when it is not a database.
 */
enum store_sqlite_owner {
	STORE_SQLITE_NONE,     /* no file, or an empty one: SQLite makes it */
	STORE_SQLITE_OURS,     /* a SQLite file with application id "PSFT" */
	STORE_SQLITE_OTHER,    /* a SQLite file without it (older or not ours) */
	STORE_SQLITE_NOT_DB,   /* a file that is no SQLite database, or no file */
};
enum store_sqlite_owner store_sqlite_owner(const char *path, struct strbuf *why);

/* the backends (store/sqlite.c, store/pg.c) */
extern const struct store_ops store_sqlite_ops;
#ifdef HAVE_LIBPQ
extern const struct store_ops store_pg_ops;
#endif

#endif
