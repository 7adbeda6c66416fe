/*
 * files.c: a run's files in the store (lab.h), so that a result can be
 * read, re-parsed and reported from any machine: `perfsift pull` copies
 * them into a local result root, `perfsift push` and the workers send
 * them.  One row per file (its path relative to the run directory), the
 * bytes as bytea, which PostgreSQL compresses itself (TOAST: every value
 * over about 2 kB) -- raw monitor output is text that shrinks several
 * times.  A run's files are replaced in one transaction.
 */
#include "util/compat.h"

#ifdef HAVE_LIBPQ
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "lab/lab.h"
#include "store/pq_lazy.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/trust.h"
#include "util/trust.h"

/* the largest raw file sent (a bytea value is at most 1 GB) */
#define MAX_FILE (256u << 20)

/* one file: a binary bytea parameter beside text ones */
/*
 * The bytes go as a binary parameter: text would need escaping, and a
 * raw file is whatever the benchmark wrote, NUL bytes included.
 */
static int put_file(struct lab *lab, const char *group, const char *num,
		    const char *name, const struct strbuf *data,
		    struct strbuf *err)
{
	const char *p[4] = {group, num, name, data->buf};
	int lens[4] = {0, 0, 0, (int)data->len};
	int fmts[4] = {0, 0, 0, 1};
	PGresult *res = PQexecParams(lab->conn, "INSERT INTO lab_run_files"
				     " (group_dir, number, name, data) VALUES"
				     " ($1, $2::int, $3, $4)", 4, NULL, p,
				     lens, fmts, 0);
	int ret = 0;

	if (PQresultStatus(res) != PGRES_COMMAND_OK) {
		strbuf_addf(err, "lab: storing '%s': %s", name,
			    PQresultErrorMessage(res));
		strbuf_rtrim(err);
		ret = -1;
	}
	PQclear(res);
	return ret;
}

/* every regular file below dir (rel: its path so far), depth-first */
static int put_tree(struct lab *lab, const char *group, const char *num,
		    const char *dir, const char *rel, size_t *n,
		    struct strbuf *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int ret = 0;

	if (!d) {
		strbuf_addf(err, "cannot read '%s': %s", dir, strerror(errno));
		return -1;
	}
	while (!ret && (e = readdir(d))) {
		struct strbuf path = STRBUF_INIT, name = STRBUF_INIT;
		struct strbuf data = STRBUF_INIT;
		struct stat st;

		/* the lock files of a run (.owner, ...) are not results */
		if (e->d_name[0] == '.')
			continue;
		path_join(&path, dir, e->d_name);
		if (*rel)
			path_join(&name, rel, e->d_name);
		else
			strbuf_addstr(&name, e->d_name);
		if (lstat(path.buf, &st) < 0) {
			strbuf_addf(err, "cannot stat '%s': %s", path.buf,
				    strerror(errno));
			ret = -1;
		} else if (S_ISDIR(st.st_mode)) {
			ret = put_tree(lab, group, num, path.buf, name.buf, n, err);
		} else if (S_ISREG(st.st_mode)) {
			if (strbuf_read_file(&data, path.buf, MAX_FILE) < 0) {
				strbuf_addf(err, "cannot read '%s': %s", path.buf,
					    strerror(errno));
				ret = -1;
			} else {
				ret = put_file(lab, group, num, name.buf, &data, err);
				(*n)++;
			}
		}
		strbuf_release(&path);
		strbuf_release(&name);
		strbuf_release(&data);
	}
	closedir(d);
	return ret;
}

/*
 * DELETE then INSERT in one transaction: a run stored again (a task
 * taken over re-runs a run whose files were half sent) replaces them.
 */
int lab_put_run_files(struct lab *lab, const char *group_rel, int number,
		      const char *run_dir, size_t *nfiles, struct strbuf *err)
{
	char num[16];
	const char *p[2] = {group_rel, num};

	*nfiles = 0;
	snprintf(num, sizeof(num), "%d", number);
	if (lab_exec(lab, "BEGIN", 0, NULL, err) < 0)
		return -1;
	if (lab_exec(lab, "DELETE FROM lab_run_files WHERE group_dir = $1 AND"
		     " number = $2::int", 2, p, err) < 0 ||
	    put_tree(lab, group_rel, num, run_dir, "", nfiles, err) < 0 ||
	    lab_exec(lab, "COMMIT", 0, NULL, err) < 0) {
		PQclear(PQexec(lab->conn, "ROLLBACK"));
		return -1;
	}
	return 0;
}

/*
 * Each file written atomically; the caller writes into a temporary
 * directory and renames it, so a run appears whole or not at all.
 */
int lab_get_run_files(struct lab *lab, const char *group_rel, int number,
		      const char *dest, size_t *nfiles, struct strbuf *err)
{
	char num[16];
	const char *p[2] = {group_rel, num};
	PGresult *res;
	int i, ret = 0;

	*nfiles = 0;
	snprintf(num, sizeof(num), "%d", number);
	/* binary results: the bytes as they were sent */
	res = PQexecParams(lab->conn, "SELECT name, data FROM lab_run_files"
			   " WHERE group_dir = $1 AND number = $2::int ORDER BY"
			   " name", 2, NULL, p, NULL, NULL, 1);
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		strbuf_addf(err, "lab: %s", PQresultErrorMessage(res));
		strbuf_rtrim(err);
		PQclear(res);
		return -1;
	}
	for (i = 0; i < PQntuples(res) && !ret; i++) {
		ret = lab_write_file_row(dest, PQgetvalue(res, i, 0),
					 (size_t)PQgetlength(res, i, 0),
					 PQgetvalue(res, i, 1),
					 (size_t)PQgetlength(res, i, 1), err);
		if (!ret)
			(*nfiles)++;
	}
	PQclear(res);
	return ret;
}
#endif /* HAVE_LIBPQ */

/*
 * The unpacking of a file row, without a server (the fuzzer's way in,
 * tests/fuzz/fuzz_filerow.c): what pull reads from the store.
 */
#include <errno.h>
#include <string.h>
#include "lab/lab.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/trust.h"

int lab_write_file_row(const char *dest, const char *name, size_t name_len,
		       const void *data, size_t len, struct strbuf *err)
{
	struct strbuf nm = STRBUF_INIT, path = STRBUF_INIT, dir = STRBUF_INIT;
	const char *why;
	int ret = -1;

	strbuf_add(&nm, name, name_len);
	/*
	 * The store is shared: a row written by anyone with access to it
	 * must not make pull write outside the run's directory ("../../etc")
	 * nor a name with control characters (util/trust.h).
	 */
	why = trust_relpath_why_len(name, name_len);
	if (why) {
		strbuf_addstr(err, "the store holds a file '");
		trust_escape(err, nm.buf);
		strbuf_addf(err, "' outside its run (%s): not written", why);
		goto out;
	}
	path_join(&path, dest, nm.buf);
	path_dirname(&dir, path.buf);
	if (mkdir_p(dir.buf, 0755) < 0 ||
	    write_file_atomic(path.buf, data, len) < 0) {
		strbuf_addf(err, "cannot write '%s': %s", path.buf,
			    strerror(errno));
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&nm);
	strbuf_release(&path);
	strbuf_release(&dir);
	return ret;
}
