/*
 * bundle.c: what the report puts beside itself so that a reader
 * can reproduce it: job.yaml (the head side's atomic job without this
 * machine's facts, so `perfsift run job.yaml` fills in the reader's) and
 * repro.tar.gz (that job, the environment fingerprint of both sides and
 * the raw samples of every run of both sides), written with libarchive
 * to a temporary name and renamed into place.
 */
#include "util/compat.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "util/archive_io.h"
#include "job/job.h"
#include "result/matrix.h"
#include "report/bundle.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* facts machine_fill_job() writes for the machine a run was made on */
static const char *const machine_keys[] = {
	"testbox", "tbox_group", "arch", "commit", "rootfs", "compiler",
	"nr_cpu", "memory", "model",
};

/* a run directory is named by its number alone ("0", "1", ...) */
static bool is_run_name(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/*
 * Numeric order of digit strings: shorter first, then by text, which for
 * numbers without leading zeros is their numeric order ("9" before "10")
 * with no conversion that could overflow.
 */
static int cmp_run(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	size_t lx = strlen(x), ly = strlen(y);

	return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x, y);
}

/* the numbered run directories of a group, in run order */
static size_t list_runs(const char *group_dir, char ***runs)
{
	DIR *d = opendir(group_dir);
	struct dirent *de;
	struct strbuf path = STRBUF_INIT;
	size_t n = 0, alloc = 0;

	*runs = NULL;
	while (d && (de = readdir(d))) {
		if (!is_run_name(de->d_name))
			continue;
		path_join(&path, group_dir, de->d_name);
		if (!dir_exists(path.buf))
			continue;
		ALLOC_GROW(*runs, n + 1, alloc);
		(*runs)[n++] = xstrdup(de->d_name);
	}
	if (d)
		closedir(d);
	if (n)
		qsort(*runs, n, sizeof(**runs), cmp_run);
	strbuf_release(&path);
	return n;
}

static void free_runs(char **runs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(runs[i]);
	free(runs);
}

/*
 * The job of a group: the first run's job.yaml that exists, since every
 * run of a group ran the same atomic job (a run that died before writing
 * one is skipped).  No job.yaml at all is not an error: *job stays NULL
 * and the report says so.
 */
int report_load_job(const char *group_dir, struct job **job,
		    struct strbuf *err)
{
	char **runs;
	size_t n = group_dir ? list_runs(group_dir, &runs) : 0, i;
	struct strbuf path = STRBUF_INIT;
	int ret = 0;

	*job = NULL;
	for (i = 0; i < n && !*job; i++) {
		struct job **jobs;
		size_t njobs;

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s/job.yaml", group_dir, runs[i]);
		if (!file_exists(path.buf))
			continue;
		if (job_read_file(path.buf, &jobs, &njobs, err)) {
			ret = -1;
			break;
		}
		if (njobs) {
			*job = jobs[0];
			jobs[0] = NULL;
		}
		job_free_all(jobs, njobs);
	}
	if (n)
		free_runs(runs, n);
	strbuf_release(&path);
	return ret;
}

/*
 * The job to give the reader: the head's, without the facts `run` adds
 * about the machine, so that running it on another machine records that
 * machine's facts and not a copy of ours.
 */
void report_repro_job(const struct job *job, struct strbuf *out)
{
	struct job *j = job_dup(job);
	const struct jnode *root = j->root;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(machine_keys); i++)
		job_unset(j, machine_keys[i]);
	/* env_*: the fingerprint goes to env.yaml, not into the job */
	for (i = 0; i < root->n;) {
		if (!strncmp(root->keys[i], "env_", 4))
			job_unset(j, root->keys[i]);
		else
			i++;
	}
	job_to_yaml(j, out);
	job_free(j);
}

/*
 * One side's environment as YAML: the machine facts and the env_*
 * fingerprint (kernel command line, THP, governor, ...), every value
 * quoted so a value such as "yes" or "1.10" stays a string when read
 * back.
 */
void report_env_yaml(struct strbuf *out, const char *side,
		     const struct job *job)
{
	const struct jnode *root;
	size_t i, k;

	strbuf_addf(out, "%s:\n", side);
	if (!job) {
		strbuf_addstr(out, "  unknown: no job.yaml in this result group\n");
		return;
	}
	root = job->root;
	for (k = 0; k < ARRAY_SIZE(machine_keys); k++) {
		const char *v = job_get(job, machine_keys[k]);

		if (v)
			strbuf_addf(out, "  %s: \"%s\"\n", machine_keys[k], v);
	}
	for (i = 0; i < root->n; i++) {
		const struct jnode *v = root->kids[i];

		if (!strncmp(root->keys[i], "env_", 4) &&
		    v->type == JNODE_SCALAR) {
			struct strbuf q = STRBUF_INIT;

			/* YAML double-quoted is JSON's string syntax */
			strbuf_add_json_str(&q, v->text);
			strbuf_addf(out, "  %s: %s\n", root->keys[i], q.buf);
			strbuf_release(&q);
		}
	}
}

/*
 * The archive being written.  now is the time stamp of the members made
 * in memory (the README, job.yaml, env.yaml); the files copied in keep
 * their own modification time, which says when the run made them.
 */
struct bundle {
	struct archive *a;
	struct strbuf *err;
	time_t now;
};

static int add_data(struct bundle *b, const char *name, const void *data,
		    size_t len, time_t mtime)
{
	struct archive_entry *e = archive_entry_new();
	int ret = 0;

	archive_entry_set_pathname(e, name);
	archive_entry_set_size(e, (la_int64_t)len);
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_perm(e, 0644);
	archive_entry_set_mtime(e, mtime, 0);
	if (archive_write_header(b->a, e) != ARCHIVE_OK ||
	    (len && archive_write_data(b->a, data, len) != (la_ssize_t)len)) {
		strbuf_addf(b->err, "%s: %s", name,
			    archive_error_string(b->a));
		ret = -1;
	}
	archive_entry_free(e);
	return ret;
}

/* a file read whole: the run files are small (samples, stats, logs) */
static int add_file(struct bundle *b, const char *name, const char *path)
{
	struct strbuf data = STRBUF_INIT;
	struct stat st;
	int ret;

	if (stat(path, &st) || strbuf_read_file(&data, path, 0) < 0) {
		strbuf_addf(b->err, "cannot read '%s': %s", path,
			    strerror(errno));
		strbuf_release(&data);
		return -1;
	}
	ret = add_data(b, name, data.buf, data.len, st.st_mtime);
	strbuf_release(&data);
	return ret;
}

/*
 * Every regular file of a directory (not recursing), sorted by name so
 * that two bundles of the same runs list their members alike; lstat, so a
 * link in a run directory is not followed out of it.
 */
static int add_dir_files(struct bundle *b, const char *prefix,
			 const char *dir)
{
	struct dirent **names;
	struct strbuf path = STRBUF_INIT, name = STRBUF_INIT;
	int n = scandir(dir, &names, NULL, alphasort), i, ret = 0;
	struct stat st;

	if (n < 0) {
		strbuf_addf(b->err, "cannot read '%s': %s", dir,
			    strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		path_join(&path, dir, names[i]->d_name);
		if (!ret && !lstat(path.buf, &st) && S_ISREG(st.st_mode)) {
			strbuf_reset(&name);
			strbuf_addf(&name, "%s/%s", prefix, names[i]->d_name);
			ret = add_file(b, name.buf, path.buf);
		}
		free(names[i]);
	}
	free(names);
	strbuf_release(&path);
	strbuf_release(&name);
	return ret;
}

/* one side under repro/<side>/: its matrix and every run's files */
static int add_side(struct bundle *b, const struct report_side *s)
{
	struct strbuf prefix = STRBUF_INIT, path = STRBUF_INIT;
	char **runs = NULL;
	size_t n, i;
	int ret = 0;

	if (!s->group_dir)
		return 0;
	/* matrix.json and its sidecar (which values are missing) */
	for (i = 0; i < 2 && !ret; i++) {
		const char *file = i ? MATRIX_MISSING_FILE : "matrix.json";

		path_join(&path, s->group_dir, file);
		if (file_exists(path.buf)) {
			strbuf_reset(&prefix);
			strbuf_addf(&prefix, "repro/%s/%s", s->name, file);
			ret = add_file(b, prefix.buf, path.buf);
		}
	}
	n = list_runs(s->group_dir, &runs);
	for (i = 0; i < n && !ret; i++) {
		strbuf_reset(&prefix);
		strbuf_addf(&prefix, "repro/%s/%s", s->name, runs[i]);
		path_join(&path, s->group_dir, runs[i]);
		ret = add_dir_files(b, prefix.buf, path.buf);
	}
	free_runs(runs, n);
	strbuf_release(&prefix);
	strbuf_release(&path);
	return ret;
}

int report_bundle_write(const char *path, const struct report_side *sides,
			size_t nsides, const char *job_yaml,
			const char *base_job_yaml, const char *env_yaml,
			struct strbuf *err)
{
	struct strbuf tmp = STRBUF_INIT, readme = STRBUF_INIT;
	struct bundle b = { NULL, err, time(NULL) };
	size_t i;
	int ret = -1;

	if (archive_io_load("the report's repro.tar.gz", err) < 0)
		return -1;
	b.a = archive_write_new();

	strbuf_addf(&tmp, "%s.tmp.%d", path, (int)getpid());
	strbuf_addstr(&readme,
		      "perfsift reproduction bundle\n\n"
		      "  job.yaml    the head side's atomic job (base-job.yaml: the\n"
		      "              base's, when it differs); the report's \"To\n"
		      "              reproduce\" gives the commands\n"
		      "  env.yaml    the environment of both sides: kernel, command line,\n"
		      "              THP and governor settings, CPU, memory, compiler\n"
		      "  base/, head/  matrix.json and every run's files (raw monitor\n"
		      "              output, <monitor>.json samples, stats.json)\n");
	if (archive_write_add_filter_gzip(b.a) != ARCHIVE_OK ||
	    archive_write_set_format_pax_restricted(b.a) != ARCHIVE_OK ||
	    archive_write_open_filename(b.a, tmp.buf) != ARCHIVE_OK) {
		strbuf_addf(err, "cannot create '%s': %s", tmp.buf,
			    archive_error_string(b.a));
		goto out;
	}
	if (add_data(&b, "repro/README", readme.buf, readme.len, b.now) ||
	    (job_yaml && add_data(&b, "repro/job.yaml", job_yaml,
				  strlen(job_yaml), b.now)) ||
	    (base_job_yaml && add_data(&b, "repro/base-job.yaml", base_job_yaml,
				       strlen(base_job_yaml), b.now)) ||
	    add_data(&b, "repro/env.yaml", env_yaml, strlen(env_yaml), b.now))
		goto out;
	for (i = 0; i < nsides; i++)
		if (add_side(&b, &sides[i]))
			goto out;
	if (archive_write_close(b.a) != ARCHIVE_OK) {
		strbuf_addf(err, "cannot write '%s': %s", tmp.buf,
			    archive_error_string(b.a));
		goto out;
	}
	if (rename(tmp.buf, path)) {
		strbuf_addf(err, "cannot rename '%s' to '%s': %s", tmp.buf,
			    path, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	archive_write_free(b.a);
	if (ret)
		unlink(tmp.buf);
	strbuf_release(&tmp);
	strbuf_release(&readme);
	return ret;
}
