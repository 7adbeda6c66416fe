/*
 * sqlite_internal.h: what the two files of the SQLite backend share --
 * sqlite.c (opening, the schema, writing the index) and sqlite_read.c
 * (the queries).  Not for other modules: they go through store.h's ops.
 */
#ifndef PERFSIFT_STORE_SQLITE_INTERNAL_H
#define PERFSIFT_STORE_SQLITE_INTERNAL_H

#include "util/compat.h"
#include <sqlite3.h>
#include "store/store.h"

struct matrix;
struct noise_floor;
struct reduce_stats;
struct strbuf;

/* st->priv of a SQLite store */
struct sqlite_priv {
	sqlite3 *db;
	char *path;
};

/*
 * err = "index: WHAT: SQLite's message"; -1.  A damaged file never gets
 * this far: store_corrupt() ends the command first.
 */
int sq_error(struct store *st, struct strbuf *err, const char *what);
/* prepare sql into *stmt; 0 or -1 with err (sq_: this backend's own) */
int sq_prepare(struct store *st, sqlite3_stmt **stmt, const char *sql,
	       struct strbuf *err);
/* bind s (NULL as '') as parameter i, copied */
void sq_bind(sqlite3_stmt *stmt, int i, const char *s);
/* a read came back looking wrong: ends the command if the file is damaged */
void sq_suspect(struct store *st, const char *what);

/* the queries (store.h's ops of the same names) */
int sqlite_find_groups(struct store *st, const struct store_selector *sel,
		       struct store_group_list *out, struct strbuf *err);
int sqlite_group_params(struct store *st, int64_t group_id,
			struct store_param_list *out, struct strbuf *err);
int sqlite_group_runs(struct store *st, int64_t group_id,
		      struct store_run_list *out, struct strbuf *err);
int sqlite_run_stats(struct store *st, int64_t run_id,
		     struct reduce_stats *out, struct strbuf *err);
int sqlite_load_matrix(struct store *st, int64_t group_id, struct matrix *m,
		       struct strbuf *err);
int sqlite_stat_values(struct store *st, const int64_t *group_ids,
		       size_t ngroups, const char *const *names, size_t nnames,
		       store_value_fn fn, void *ctx, struct strbuf *err);
int sqlite_group_rows(struct store *st, store_group_row_fn fn, void *ctx,
		      struct strbuf *err);
int sqlite_stat_names(struct store *st, const char *prefix,
		      struct store_name_list *out, struct strbuf *err);
/* sqlite_floor.c: the noise floors (store.h's put_floor / get_floor) */
int sqlite_put_floor(struct store *st, const struct noise_floor *f,
		     struct strbuf *err);
int sqlite_get_floor(struct store *st, const char *series,
		     struct noise_floor *out, bool *found, struct strbuf *err);
int sqlite_dir_marks(struct store *st, struct store_dir_mark_list *out,
		     struct strbuf *err);

#endif
