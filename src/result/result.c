/*
 * result.c: the result root on disk (see result.h).  A run lives in
 * <group>/.tmp-<n> while the runner writes it, is parsed and reduced
 * there, and is renamed to <group>/<n> in one step; the group's
 * matrix.json is then rebuilt from the run directories (never appended
 * to, so re-processing is idempotent) and the run indexed, under a group
 * lock so that two perfsift processes finishing runs of one group do not
 * lose each other's column.
 */
#include "util/compat.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/archive_io.h"
#include "job/job.h"
#include "job/kpi.h"
#include "result/matrix.h"
#include "job/programs.h"
#include "monitors/monitor.h"
#include "result/reduce.h"
#include "result/result.h"
#include "result/samples.h"
#include "store/store.h"
#include "result/unite.h"
#include "util/fault.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/usage.h"
#include "util/xalloc.h"

#define RAW_MAX (1024UL * 1024 * 1024) /* refuse raw files above 1 GiB */
#define MAX_RUNS 1000000

/* the group's path below the root, in LKP's order */
static const char *const group_keys[] = {
	"testcase", NULL /* path_params */, "tbox_group", "rootfs",
	"kconfig", "compiler", "commit",
};

/* a control character (a newline, an escape) in s, or NULL */
static const char *control_char(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return s;
	return NULL;
}

static int check_component(const char *key, const char *v, struct strbuf *err)
{
	if (!*v || !strcmp(v, ".") || !strcmp(v, "..") || strchr(v, '/')) {
		strbuf_addf(err, "%s: '%s' cannot be a directory name", key, v);
		return -1;
	}
	/* a name with a newline breaks every line-based tool reading the root */
	if (control_char(v)) {
		strbuf_addf(err, "%s: a directory name holds no control character "
			    "(byte 0x%02x)", key, (unsigned char)*control_char(v));
		return -1;
	}
	return 0;
}

/* the group directory with `pp` as its path_params component */
static int group_dir_with(const struct job *job, const char *root,
			  const char *pp, struct strbuf *dir, struct strbuf *err)
{
	struct strbuf comp = STRBUF_INIT, out = STRBUF_INIT;
	size_t i;
	int ret = -1;

	strbuf_addstr(&out, root);
	for (i = 0; i < ARRAY_SIZE(group_keys); i++) {
		const char *key = group_keys[i] ? group_keys[i] : "path_params";

		strbuf_reset(&comp);
		if (!group_keys[i]) {
			strbuf_addstr(&comp, pp);
		} else {
			const char *v = job_get(job, key);

			if (!v || !*v) {
				strbuf_addf(err, "%s: '%s' is not set (machine facts "
					    "not filled in?)", job->file, key);
				goto out;
			}
			/* LKP keeps the rootfs's basename */
			if (!strcmp(key, "rootfs"))
				v = path_basename(v);
			strbuf_addstr(&comp, v);
		}
		if (check_component(key, comp.buf, err))
			goto out;
		strbuf_addch(&out, '/');
		strbuf_addbuf(&out, &comp);
	}
	strbuf_addbuf(dir, &out);
	ret = 0;
out:
	strbuf_release(&comp);
	strbuf_release(&out);
	return ret;
}

/*
 * A run (or a run being written, .tmp-<n>) of group_dir whose job is not
 * `identity`: 1 with why naming the parameter, else 0.
 */
static int group_holds_other(const char *group_dir, const char *identity,
			     struct strbuf *why)
{
	struct strbuf run = STRBUF_INIT, id = STRBUF_INIT, key = STRBUF_INIT;
	struct strbuf va = STRBUF_INIT, vb = STRBUF_INIT;
	DIR *d = opendir(group_dir);
	struct dirent *de;
	int ret = 0;

	while (d && !ret && (de = readdir(d))) {
		const char *name = de->d_name;

		if (!strncmp(name, ".tmp-", 5))
			name += 5;
		if (!*name || strspn(name, "0123456789") != strlen(name))
			continue;
		strbuf_reset(&run);
		path_join(&run, group_dir, de->d_name);
		strbuf_reset(&id);
		if (result_run_identity(run.buf, &id) ||
		    !job_identity_diff(id.buf, identity, &key, &va, &vb))
			continue;
		strbuf_addf(why, "run %s differs in '%s' ('%s' / '%s')",
			    de->d_name, key.buf, va.buf, vb.buf);
		ret = 1;
	}
	if (d)
		closedir(d);
	strbuf_release(&run);
	strbuf_release(&id);
	strbuf_release(&key);
	strbuf_release(&va);
	strbuf_release(&vb);
	return ret;
}

int result_group_dir(const struct job *job, const char *root,
		     struct strbuf *dir, struct strbuf *err)
{
	struct strbuf pp = STRBUF_INIT, lkp = STRBUF_INIT, id = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
	int ret = -1;

	job_group_params(job, &pp);
	job_path_params(job, &lkp);
	job_identity(job, &id);
	if (group_dir_with(job, root, pp.buf, &out, err))
		goto out;
	if (group_holds_other(out.buf, id.buf, &why)) {
		/*
		 * LKP's name was not unique after all: values alike once
		 * turned to its character class ('a b' and 'a/b'), or a group
		 * an older perfsift or LKP filled.  The suffix tells them apart
		 * as it does cut values.
		 */
		if (strcmp(pp.buf, lkp.buf)) {
			strbuf_addf(err, "'%s' holds another job's runs under "
				    "this job's name (%s)", out.buf, why.buf);
			goto out;
		}
		job_identity_suffix(id.buf, &pp);
		strbuf_reset(&out);
		strbuf_reset(&why);
		if (group_dir_with(job, root, pp.buf, &out, err))
			goto out;
		if (group_holds_other(out.buf, id.buf, &why)) {
			strbuf_addf(err, "'%s' holds another job's runs under "
				    "this job's name (%s)", out.buf, why.buf);
			goto out;
		}
	}
	strbuf_addbuf(dir, &out);
	ret = 0;
out:
	strbuf_release(&pp);
	strbuf_release(&lkp);
	strbuf_release(&id);
	strbuf_release(&out);
	strbuf_release(&why);
	return ret;
}

/*
 * Mark tmp as ours: <tmp>/.owner, flock'd for as long as this process (or
 * a child it forks without exec) lives.  The file is locked before it gets
 * its name, so a visible .owner that is not locked is a dead owner's.
 * Returns the fd, or -1 (no mark: the directory is then never reclaimed).
 */
static int take_ownership(const char *tmp)
{
	struct strbuf path = STRBUF_INIT, final = STRBUF_INIT;
	int fd;

	path_join(&path, tmp, ".owner.new");
	path_join(&final, tmp, ".owner");
	fd = open(path.buf, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd >= 0 && (flock(fd, LOCK_EX) < 0 || rename(path.buf, final.buf) < 0)) {
		unlink(path.buf);
		close(fd);
		fd = -1;
	}
	if (fd >= 0) {
		char pid[32];
		int len = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());

		/* the pid is for people; the lock is what counts */
		if (write(fd, pid, (size_t)len) != len) {
			/* nothing to do: a short write changes nothing */
		}
	}
	strbuf_release(&path);
	strbuf_release(&final);
	return fd;
}

/*
 * tmp exists: when its .owner is not locked, its perfsift is dead; move
 * the directory aside (rename: one reclaimer wins) and remove it.  True
 * when tmp is gone and its number free again.
 */
static bool reclaim_stale(const char *tmp, const char *group_dir, int n)
{
	struct strbuf owner = STRBUF_INIT, aside = STRBUF_INIT;
	bool ret = false;
	int fd;

	path_join(&owner, tmp, ".owner");
	fd = open(owner.buf, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && !flock(fd, LOCK_EX | LOCK_NB)) {
		strbuf_addf(&aside, "%s/.stale-%d-%ld", group_dir, n,
			    (long)getpid());
		if (!rename(tmp, aside.buf)) {
			remove_tree(aside.buf);
			ret = true;
		}
	}
	if (fd >= 0)
		close(fd);
	strbuf_release(&owner);
	strbuf_release(&aside);
	return ret;
}

int result_run_begin(struct result_run *run, const char *group_dir,
		     struct strbuf *err)
{
	struct strbuf final = STRBUF_INIT, tmp = STRBUF_INIT;
	struct stat st;
	int n, ret = -1;

	memset(run, 0, sizeof(*run));
	run->owner_fd = -1;
	if (mkdir_p(group_dir, 0777) < 0) {
		strbuf_addf(err, "cannot create '%s': %s", group_dir,
			    strerror(errno));
		goto out;
	}
	for (n = 0; n < MAX_RUNS; n++) {
		strbuf_reset(&final);
		strbuf_addf(&final, "%s/%d", group_dir, n);
		if (!lstat(final.buf, &st))
			continue;
		strbuf_reset(&tmp);
		strbuf_addf(&tmp, "%s/.tmp-%d", group_dir, n);
		/* mkdir is the reservation: only one process can make it */
		if (mkdir(tmp.buf, 0777) < 0) {
			if (errno == EEXIST) {
				/* a dead perfsift's: try this number again */
				if (reclaim_stale(tmp.buf, group_dir, n))
					n--;
				continue;
			}
			strbuf_addf(err, "cannot create '%s': %s", tmp.buf,
				    strerror(errno));
			goto out;
		}
		/*
		 * Another perfsift may have renamed its .tmp-<n> to <n> between
		 * our lstat and our mkdir: then <n> is taken after all.
		 */
		if (!lstat(final.buf, &st)) {
			rmdir(tmp.buf);
			continue;
		}
		run->group_dir = xstrdup(group_dir);
		run->number = n;
		run->owner_fd = take_ownership(tmp.buf);
		run->tmp_dir = strbuf_detach(&tmp, NULL);
		run->dir = strbuf_detach(&final, NULL);
		ret = 0;
		goto out;
	}
	strbuf_addf(err, "'%s': no free run number", group_dir);
out:
	strbuf_release(&final);
	strbuf_release(&tmp);
	return ret;
}

static void drop_ownership(struct result_run *run)
{
	if (run->tmp_dir && run->owner_fd >= 0)
		close(run->owner_fd);
	run->owner_fd = -1;
}

void result_run_abort(struct result_run *run)
{
	if (run->tmp_dir)
		remove_tree(run->tmp_dir);
	drop_ownership(run);
	FREE_AND_NULL(run->tmp_dir);
}

void result_run_release(struct result_run *run)
{
	drop_ownership(run);
	free(run->group_dir);
	free(run->tmp_dir);
	free(run->dir);
	memset(run, 0, sizeof(*run));
}

/* LKP's last_state: "is_incomplete_run: 1" marks a cut run */
static bool run_is_incomplete(const char *run_dir)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	const char *p;
	bool ret = false;

	path_join(&path, run_dir, "last_state");
	if (strbuf_read_file(&text, path.buf, 1 << 20) < 0)
		goto out;
	for (p = text.buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *key = "is_incomplete_run:";

		if (!strncmp(p, key, strlen(key))) {
			long long v;
			struct strbuf val = STRBUF_INIT;
			const char *eol = strchrnul(p, '\n'), *why;

			strbuf_add(&val, p + strlen(key),
				   (size_t)(eol - p) - strlen(key));
			strbuf_trim(&val);
			if (!strnum_ll(val.buf, 0, 1, &v, &why) && v == 1)
				ret = true;
			strbuf_release(&val);
		}
	}
out:
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

/* a stats group reduced, and what its source was */
struct run_group {
	char *name;
	bool from_raw;  /* parsed from a raw file (else: its <name>.json) */
	char **keys;    /* from_raw: every key the raw file gave, sorted,
			 * all-zero ones too (dump-stat drops those) */
	size_t nkeys;
	bool kept;      /* from its JSON, and the old stats.json has its
			 * stats: those stay as they are */
};

/* what parsing a run directory produced, before anything is written */
struct run_output {
	char **names; /* <group>.json file names */
	struct strbuf *texts;
	size_t n, alloc;
	struct reduce_stats stats;
	struct run_group *groups;
	size_t ngroups, galloc;
	bool same_stats; /* stats.json would be written as it is: leave it */
};

static void run_output_init(struct run_output *o)
{
	memset(o, 0, sizeof(*o));
	reduce_stats_init(&o->stats);
}

static void run_output_release(struct run_output *o)
{
	size_t i, j;

	for (i = 0; i < o->n; i++) {
		free(o->names[i]);
		strbuf_release(&o->texts[i]);
	}
	free(o->names);
	free(o->texts);
	for (i = 0; i < o->ngroups; i++) {
		for (j = 0; j < o->groups[i].nkeys; j++)
			free(o->groups[i].keys[j]);
		free(o->groups[i].keys);
		free(o->groups[i].name);
	}
	free(o->groups);
	reduce_stats_release(&o->stats);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* s: the raw file's samples before samples_finish(), or NULL */
static void add_group(struct run_output *o, const char *name,
		      const struct samples *s)
{
	struct run_group *g;
	size_t i;

	ALLOC_GROW(o->groups, o->ngroups + 1, o->galloc);
	g = &o->groups[o->ngroups++];
	memset(g, 0, sizeof(*g));
	g->name = xstrdup(name);
	g->from_raw = s != NULL;
	if (!s)
		return;
	g->keys = xcalloc(s->nkeys ? s->nkeys : 1, sizeof(*g->keys));
	for (i = 0; i < s->nkeys; i++)
		g->keys[i] = xstrdup(s->keys[i].name);
	g->nkeys = s->nkeys;
	qsort(g->keys, g->nkeys, sizeof(*g->keys), cmp_str);
}

static const struct run_group *find_group(const struct run_output *o,
					  const char *name)
{
	size_t i;

	for (i = 0; i < o->ngroups; i++)
		if (!strcmp(o->groups[i].name, name))
			return &o->groups[i];
	return NULL;
}

/* the group a stat comes from: the longest "<group>." its name begins with */
static struct run_group *owner(const struct run_output *o, const char *stat)
{
	struct run_group *best = NULL;
	size_t i;

	for (i = 0; i < o->ngroups; i++) {
		size_t l = strlen(o->groups[i].name);

		if (!strncmp(stat, o->groups[i].name, l) && stat[l] == '.' &&
		    (!best || l > strlen(best->name)))
			best = &o->groups[i];
	}
	return best;
}

/*
 * The parser and stats group for a raw file name: `time` (the job-wide
 * file) and `<prog>.time` go through the time parser, in groups `time` and
 * `<prog>.time`; any other file through the parser of its own name.
 */
static const struct monitor_ops *parser_for(const char *name)
{
	size_t len = strlen(name);
	const struct monitor_ops *m;

	if (!strcmp(name, "time") ||
	    (len > 5 && !strcmp(name + len - 5, ".time")))
		m = monitor_find("time");
	else
		m = monitor_find(name);
	return m && m->parse ? m : NULL;
}

/* the compression suffix of a raw file name (LKP's run-stats), or NULL */
static const char *compressed_suffix(const char *file)
{
	static const char *const sfx[] = {".gz", ".xz", ".bz2"};
	size_t i, len = strlen(file);

	for (i = 0; i < ARRAY_SIZE(sfx); i++) {
		size_t l = strlen(sfx[i]);

		if (len > l && !strcmp(file + len - l, sfx[i]))
			return file + len - l;
	}
	return NULL;
}

/* LKP's run-stats parses these even when they hold NUL bytes */
static bool nul_ok(const char *name)
{
	return !strcmp(name, "dmesg") || !strcmp(name, "kmsg") ||
	       !strcmp(name, "mpstat") || !strcmp(name, "iostat");
}

static int filter_raw(const struct dirent *de)
{
	return de->d_name[0] != '.';
}

/*
 * A run's job.yaml, the one job it holds (NULL: none or unreadable).
 * Read leniently (job_read_file): LKP's robot writes programs and keys
 * perfsift does not know, and one of them must not cost the run its
 * stats window and parameters.  A file that is not YAML at all is named
 * once, by `warn`, and then ignored.
 */
static struct job *read_run_job(const char *run_dir, bool warn)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	struct job **jobs = NULL, *job = NULL;
	size_t njobs = 0, i;

	path_join(&path, run_dir, "job.yaml");
	if (file_exists(path.buf)) {
		if (job_read_file(path.buf, &jobs, &njobs, &err)) {
			if (warn)
				warning("%s (the run's job.yaml is not used: "
					"no stats_part window, no parameters)",
					err.buf);
		} else if (njobs == 1) {
			job = jobs[0];
			jobs[0] = NULL;
		} else if (warn) {
			warning("%s: %zu jobs in a run's job.yaml, not one "
				"(the file is not used)", path.buf, njobs);
		}
		for (i = 0; i < njobs; i++)
			job_free(jobs[i]);
		free(jobs);
	}
	strbuf_release(&path);
	strbuf_release(&err);
	return job;
}

static void job_window(const char *run_dir, struct reduce_window *w)
{
	struct job *job;
	const char *b, *e, *why;
	double v;

	memset(w, 0, sizeof(*w));
	job = read_run_job(run_dir, true);
	if (!job)
		return;
	b = job_get(job, "stats_part_begin");
	e = job_get(job, "stats_part_end");
	if (b || e) {
		w->set = true;
		w->begin = 0;
		w->end = INFINITY;
		if (b && !strnum_seconds(b, &v, &why))
			w->begin = v;
		if (e && !strnum_seconds(e, &v, &why))
			w->end = v;
	}
	job_free(job);
}

/* group-level files, and the run's own outputs: never a monitor's samples */
static bool not_samples(const char *name)
{
	static const char *const names[] = {"stats", "matrix", "avg",
					     "stddev"};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/*
 * A <group>.json[.gz|.xz|.bz2] whose group had no raw file to parse (an
 * archived LKP run keeps only these): reduce it as it is, as LKP's
 * create_stats_matrix does, and leave the file alone.  The JSON of a
 * group perfsift has a parser for must be sound (-1 with err naming it);
 * any other JSON is used when it has the shape dump-stat writes and
 * ignored otherwise (LKP writes no other JSON into a run, but a user may).
 * 1 when reduced, 0 when not a file to reduce.
 */
static int reduce_json(const char *run_dir, const char *file,
		       const struct reduce_window *w, struct run_output *o,
		       struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT, why = STRBUF_INIT;
	const char *suffix = compressed_suffix(file), *dot;
	size_t len = suffix ? (size_t)(suffix - file) : strlen(file);
	char *group = NULL;
	struct samples s;
	struct stat st;
	int r, ret = 0;

	if (len <= 5 || strncmp(file + len - 5, ".json", 5))
		return 0;
	group = xstrndup(file, len - 5);
	dot = strrchr(group, '.');
	if (not_samples(group) || find_group(o, group))
		goto out; /* rebuilt from its raw file: that one wins */
	/* <group>.json and <group>.json.gz both there: the plain one */
	path_join(&path, run_dir, group);
	strbuf_addstr(&path, ".json");
	if (suffix && file_exists(path.buf))
		goto out;
	path_join(&path, run_dir, file);
	if (lstat(path.buf, &st) < 0 || !S_ISREG(st.st_mode))
		goto out;
	r = suffix ? archive_io_read_compressed(&text, path.buf, RAW_MAX, &why)
		   : strbuf_read_file(&text, path.buf, RAW_MAX);
	if (r < 0 && !suffix)
		strbuf_addf(&why, "cannot read '%s': %s", path.buf,
			    strerror(errno));
	samples_init(&s, group);
	if (r >= 0)
		r = samples_load_json(&s, text.buf, text.len, path.buf, &why);
	if (!r) {
		add_group(o, group, NULL);
		reduce_samples(&s, w, &o->stats);
		ret = 1;
	} else if (parser_for(group) || (dot && !strcmp(dot, ".time"))) {
		strbuf_addbuf(err, &why);
		ret = -1;
	}
	samples_release(&s);
out:
	free(group);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&why);
	return ret;
}

/*
 * Parse and reduce every raw file of run_dir that has a parser, and every
 * <group>.json whose raw file is not there (reduce_json).  Nothing is
 * written.  A file that cannot be read or parsed is an error naming it
 * (-2); with `lenient` (a cut run, whose files may be cut too) it is a
 * warning and the file is left out.
 */
static int parse_run(const char *run_dir, bool lenient, struct run_output *o,
		     struct strbuf *err)
{
	struct dirent **ents = NULL;
	struct strbuf path = STRBUF_INIT, raw = STRBUF_INIT, stream = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;
	struct reduce_window w;
	int i, n, ret = -1;

	job_window(run_dir, &w);
	n = scandir(run_dir, &ents, filter_raw, alphasort);
	if (n < 0) {
		strbuf_addf(err, "cannot read '%s': %s", run_dir, strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		const char *file = ents[i]->d_name, *suffix;
		const struct monitor_ops *m;
		struct samples s;
		struct stat st;
		char *name = NULL;
		int r;

		/* LKP gzips some raw files (and xz's dmesg): <name>.gz etc. */
		suffix = compressed_suffix(file);
		name = suffix ? xstrndup(file, (size_t)(suffix - file))
			      : xstrdup(file);
		m = parser_for(name);
		path_join(&path, run_dir, name);
		if (!m || (suffix && file_exists(path.buf))) {
			free(name); /* no parser, or the plain file is there too */
			continue;
		}
		path_join(&path, run_dir, file);
		if (stat(path.buf, &st) < 0 || !S_ISREG(st.st_mode)) {
			free(name);
			continue;
		}
		strbuf_reset(&raw);
		strbuf_reset(&stream);
		strbuf_reset(&why);
		r = suffix ? archive_io_read_compressed(&raw, path.buf, RAW_MAX, &why)
			   : strbuf_read_file(&raw, path.buf, RAW_MAX);
		if (r < 0) {
			if (!suffix)
				strbuf_addf(&why, "cannot read '%s': %s", path.buf,
					    strerror(errno));
			goto bad;
		}
		if (!raw.len) {
			free(name);
			continue; /* LKP: an empty log gives no stats */
		}
		if (memchr(raw.buf, '\0', raw.len) && !nul_ok(name)) {
			strbuf_addf(&why, "'%s' holds NUL bytes: a corrupt raw "
				    "file", path.buf);
			goto bad;
		}
		if (m->parse(raw.buf, raw.len, path.buf, &stream, &why)) {
			struct strbuf reason = STRBUF_INIT;

			strbuf_addbuf(&reason, &why);
			strbuf_reset(&why);
			strbuf_addf(&why, "cannot parse '%s': %s", path.buf,
				    reason.buf);
			strbuf_release(&reason);
			goto bad;
		}
		samples_init(&s, name);
		if (samples_parse(&s, stream.buf, stream.len, path.buf, &why)) {
			samples_release(&s);
			goto bad;
		}
		add_group(o, name, &s);
		samples_finish(&s);
		if (s.nrejected)
			warning("'%s': %zu value%s not a number or out of range, "
				"left out", path.buf, s.nrejected,
				s.nrejected == 1 ? "" : "s");
		ALLOC_GROW(o->names, o->n + 1, o->alloc);
		o->texts = xreallocarray(o->texts, o->alloc, sizeof(*o->texts));
		o->names[o->n] = xasprintf("%s.json", name);
		strbuf_init(&o->texts[o->n], 0);
		samples_to_json(&s, &o->texts[o->n]);
		o->n++;
		reduce_samples(&s, &w, &o->stats);
		samples_release(&s);
		free(name);
		continue;
bad:
		free(name);
		if (!lenient) {
			strbuf_addbuf(err, &why);
			ret = -2;
			goto out;
		}
		warning("%s (left out of this cut run's stats)", why.buf);
	}
	for (i = 0; i < n; i++) {
		strbuf_reset(&why);
		if (reduce_json(run_dir, ents[i]->d_name, &w, o, &why) >= 0)
			continue;
		if (!lenient) {
			strbuf_addbuf(err, &why);
			ret = -2;
			goto out;
		}
		warning("%s (left out of this cut run's stats)", why.buf);
	}
	reduce_derived(&o->stats);
	ret = 0;
out:
	for (i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	strbuf_release(&path);
	strbuf_release(&raw);
	strbuf_release(&stream);
	strbuf_release(&why);
	return ret;
}

static int write_text(const char *dir, const char *name, const struct strbuf *t,
		      struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	int ret = 0;

	path_join(&path, dir, name);
	if (write_file_atomic(path.buf, t->buf, t->len) < 0) {
		strbuf_addf(err, "cannot write '%s': %s", path.buf, strerror(errno));
		ret = -1;
	}
	strbuf_release(&path);
	return ret;
}

/* the first few names of a list of lost ones, for a message */
static void add_lost(struct strbuf *lost, size_t *nlost, const char *name)
{
	if (++*nlost <= 3)
		strbuf_addf(lost, "%s'%s'", *nlost > 1 ? ", " : "", name);
	else if (*nlost == 4)
		strbuf_addstr(lost, ", ...");
}

static int refuse_loss(const char *path, size_t nlost,
		       const struct strbuf *lost, struct strbuf *err)
{
	strbuf_addf(err, "'%s': rebuilding it would lose %zu %s it holds (%s); "
		    "the run is left as it was (remove the file to rebuild it "
		    "from what the run holds now)", path, nlost,
		    nlost == 1 ? "stat" : "stats", lost->buf);
	return -2;
}

/*
 * A <group>.json about to be rewritten from its raw file: every key the
 * old one holds must be one the raw file gives (a value that is 0 all
 * along is dropped as dump-stat drops it).  A key the raw file does not
 * give came from another parser (LKP's): rewriting would lose it.
 */
static int check_json_loss(const char *dir, const struct run_group *g,
			   struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, old = STRBUF_INIT, why = STRBUF_INIT;
	struct strbuf lost = STRBUF_INIT;
	struct samples a;
	size_t i, nlost = 0;
	int ret = 0;

	path_join(&path, dir, g->name);
	strbuf_addstr(&path, ".json");
	samples_init(&a, g->name);
	if (strbuf_read_file(&old, path.buf, RAW_MAX) < 0 ||
	    samples_load_json(&a, old.buf, old.len, path.buf, &why))
		goto out; /* none, or nothing readable in it to lose */
	for (i = 0; i < a.nkeys; i++) {
		const char *k = a.keys[i].name;

		if (!bsearch(&k, g->keys, g->nkeys, sizeof(*g->keys), cmp_str))
			add_lost(&lost, &nlost, k);
	}
	if (nlost)
		ret = refuse_loss(path.buf, nlost, &lost, err);
out:
	samples_release(&a);
	strbuf_release(&path);
	strbuf_release(&old);
	strbuf_release(&why);
	strbuf_release(&lost);
	return ret;
}

static bool same_stats(const struct reduce_stats *a,
		       const struct reduce_stats *b)
{
	size_t i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (strcmp(a->items[i].name, b->items[i].name) ||
		    a->items[i].value != b->items[i].value ||
		    a->items[i].is_int != b->items[i].is_int)
			return false;
	return true;
}

/* a JSON-reduced group whose stats the old stats.json holds: those win */
static bool old_wins(const struct run_group *g)
{
	return g && !g->from_raw && g->kept;
}

/*
 * Rebuilding a run that has files already (`perfsift stats`): nothing
 * whose source is gone is dropped or changed.  A group with its raw file
 * is what the raw file says now (the raw file is kept: nothing is lost).
 * A group with only its <group>.json keeps the stats the old stats.json
 * has of it, as they are (LKP reduced them: an archived LKP run keeps its
 * numbers); only a group the old stats.json has nothing of is reduced
 * from its JSON.  A stat with no source left at all (a monitor perfsift
 * has no parser for, a file deleted since) is carried over.  A
 * <group>.json whose keys the raw file does not give refuses the whole
 * run (-2, err names the file; nothing is written).  1: nothing to write
 * (no source and no stats.json).
 */
static int keep_what_is_there(const char *dir, struct run_output *o,
			      struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, why = STRBUF_INIT;
	struct reduce_stats old, out;
	size_t i;
	int ret = 0;

	for (i = 0; i < o->ngroups && !ret; i++)
		if (o->groups[i].from_raw)
			ret = check_json_loss(dir, &o->groups[i], err);
	if (ret)
		return ret;
	reduce_stats_init(&old);
	reduce_stats_init(&out);
	path_join(&path, dir, "stats.json");
	if (!file_exists(path.buf)) {
		/* nothing to reduce and nothing there: no stats.json to write
		 * (a `{}` would stand for a run measured with no stats) */
		if (!o->ngroups)
			ret = 1;
		goto out;
	}
	if (reduce_stats_load_json(&old, path.buf, &why)) {
		warning("%s: replaced (nothing in it could be read)", why.buf);
		goto out;
	}
	for (i = 0; i < old.n; i++) {
		struct run_group *g = owner(o, old.items[i].name);

		if (g && !g->from_raw)
			g->kept = true;
	}
	for (i = 0; i < o->stats.n; i++) {
		const struct reduce_stat *x = &o->stats.items[i];

		if (!old_wins(owner(o, x->name)))
			reduce_stats_add(&out, x->name, x->value, x->is_int);
	}
	for (i = 0; i < old.n; i++) {
		const struct reduce_stat *x = &old.items[i];
		const struct run_group *g = owner(o, x->name);

		if (old_wins(g) || (!g && !reduce_stats_find(&o->stats, x->name)))
			reduce_stats_add(&out, x->name, x->value, x->is_int);
	}
	reduce_stats_sort(&out);
	reduce_stats_release(&o->stats);
	o->stats = out;
	reduce_stats_init(&out);
	o->same_stats = same_stats(&o->stats, &old);
out:
	reduce_stats_release(&old);
	reduce_stats_release(&out);
	strbuf_release(&path);
	strbuf_release(&why);
	return ret;
}

static int write_run_output(const char *dir, const struct run_output *o,
			    struct strbuf *err)
{
	struct strbuf t = STRBUF_INIT;
	size_t i;
	int ret = -1;

	for (i = 0; i < o->n; i++)
		if (write_text(dir, o->names[i], &o->texts[i], err))
			goto out;
	reduce_stats_to_json(&o->stats, &t);
	/* the same numbers: LKP's file stays as LKP wrote it */
	if (!o->same_stats && write_text(dir, "stats.json", &t, err))
		goto out;
	ret = 0;
out:
	strbuf_release(&t);
	return ret;
}

/* an exclusive lock on <group>/.lock; the fd, or -1 with err */
static int lock_group(const char *group_dir, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	int fd;

	path_join(&path, group_dir, ".lock");
	fd = open(path.buf, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0 || flock(fd, LOCK_EX) < 0) {
		strbuf_addf(err, "cannot lock '%s': %s", path.buf, strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	strbuf_release(&path);
	return fd;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

bool result_is_run_number(const char *name)
{
	/* "0", "1", ... as LKP numbers runs: "0123" is a commit, not run 83 */
	return name[0] >= '0' && name[0] <= '9' &&
	       strspn(name, "0123456789") == strlen(name) &&
	       (name[0] != '0' || !name[1]);
}

/* the run numbers present in group_dir (directories named by digits), sorted */
static int group_runs(const char *group_dir, int **nums, size_t *n,
		      struct strbuf *err)
{
	DIR *d = opendir(group_dir);
	struct dirent *de;
	size_t alloc = 0;

	*nums = NULL;
	*n = 0;
	if (!d) {
		strbuf_addf(err, "cannot read '%s': %s", group_dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		long long v;
		const char *why;
		struct strbuf p = STRBUF_INIT;
		struct stat st;

		if (!result_is_run_number(de->d_name) ||
		    strnum_ll(de->d_name, 0, MAX_RUNS, &v, &why))
			continue;
		path_join(&p, group_dir, de->d_name);
		/* a symbolic link is not a run: it may lead out of the root */
		if (!lstat(p.buf, &st) && S_ISDIR(st.st_mode)) {
			ALLOC_GROW(*nums, *n + 1, alloc);
			(*nums)[(*n)++] = (int)v;
		}
		strbuf_release(&p);
	}
	closedir(d);
	if (*n)
		qsort(*nums, *n, sizeof(**nums), cmp_int);
	return 0;
}

int result_run_identity(const char *run_dir, struct strbuf *out)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	struct job **jobs = NULL;
	size_t njobs = 0;
	int ret = -1;

	path_join(&path, run_dir, "job.yaml");
	/* the lenient reader: LKP's job.yaml names programs perfsift lacks */
	if (file_exists(path.buf) &&
	    !job_read_file(path.buf, &jobs, &njobs, &err) && njobs == 1) {
		job_identity(jobs[0], out);
		ret = 0;
	}
	job_free_all(jobs, njobs);
	strbuf_release(&path);
	strbuf_release(&err);
	return ret;
}

int result_group_mixed(const char *group_dir, struct strbuf *why)
{
	struct strbuf first = STRBUF_INIT, id = STRBUF_INIT, run = STRBUF_INIT;
	struct strbuf key = STRBUF_INIT, va = STRBUF_INIT, vb = STRBUF_INIT;
	struct strbuf ignore = STRBUF_INIT;
	int *nums = NULL, first_num = -1, ret = 0;
	size_t n = 0, i;

	if (group_runs(group_dir, &nums, &n, &ignore))
		n = 0;
	for (i = 0; i < n && !ret; i++) {
		strbuf_reset(&run);
		strbuf_addf(&run, "%s/%d", group_dir, nums[i]);
		strbuf_reset(&id);
		if (result_run_identity(run.buf, &id))
			continue; /* no job.yaml: nothing to tell */
		if (first_num < 0) {
			first_num = nums[i];
			strbuf_addbuf(&first, &id);
		} else if (job_identity_diff(first.buf, id.buf, &key, &va,
					     &vb)) {
			strbuf_addf(why, "runs %d and %d differ in '%s' "
				    "('%s' / '%s')", first_num, nums[i],
				    key.buf, va.buf, vb.buf);
			ret = 1;
		}
	}
	free(nums);
	strbuf_release(&first);
	strbuf_release(&id);
	strbuf_release(&run);
	strbuf_release(&key);
	strbuf_release(&va);
	strbuf_release(&vb);
	strbuf_release(&ignore);
	return ret;
}

/* the run number of a stats_source entry (".../<n>/stats.json"), or -1 */
static int source_run(const char *src)
{
	struct strbuf dir = STRBUF_INIT;
	const char *base, *why;
	long long v = -1;

	if (src) {
		path_dirname(&dir, src);
		base = path_basename(dir.buf);
		if (!result_is_run_number(base) ||
		    strnum_ll(base, 0, MAX_RUNS, &v, &why))
			v = -1;
	}
	strbuf_release(&dir);
	return (int)v;
}

static bool has_run(const int *nums, size_t n, int num)
{
	return num >= 0 && bsearch(&num, nums, n, sizeof(*nums), cmp_int);
}

/* the new matrix's column for run num, or -1 */
static ssize_t column_of(const struct matrix *m, int num)
{
	size_t r;

	for (r = 0; m->sources && r < m->nruns; r++)
		if (source_run(m->sources[r]) == num)
			return (ssize_t)r;
	return -1;
}

/*
 * matrix.json is rebuilt from its runs' stats.json; it must not lose a
 * value the old one holds for a run still on disk that has no stats.json
 * to say what it holds (an archived LKP group can hold a matrix.json and
 * runs whose stats.json is gone).  A value of a run deleted since goes
 * with its run; 0 is LKP's padding, not a value.  -2 with err when a
 * value would be lost.
 */
static int check_matrix_loss(const char *group_dir, const int *nums,
			     size_t n, const struct matrix *m, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, why = STRBUF_INIT, lost = STRBUF_INIT;
	struct matrix old;
	size_t s, r, nlost = 0;
	int ret = 0;

	matrix_init(&old);
	path_join(&path, group_dir, "matrix.json");
	if (!file_exists(path.buf) || matrix_load_json(&old, path.buf, &why))
		goto out; /* none, or nothing readable in it to lose */
	for (s = 0; s < old.nstats; s++) {
		for (r = 0; r < old.nruns; r++) {
			double v = matrix_at(&old, s, r);
			int num = source_run(old.sources ? old.sources[r] : NULL);
			ssize_t c;

			if (v == 0 || isnan(v))
				continue;
			if (num >= 0 && !has_run(nums, n, num))
				continue; /* its run is gone */
			c = num >= 0 ? column_of(m, num) : -1;
			if (c < 0 && num >= 0) {
				/* a run left out as incomplete is not a loss */
				strbuf_reset(&why);
				strbuf_addf(&why, "%s/%d", group_dir, num);
				if (run_is_incomplete(why.buf))
					continue;
			}
			if (c >= 0)
				continue; /* the run's stats.json says what it holds */
			add_lost(&lost, &nlost, old.names[s]);
			break;
		}
	}
	if (nlost)
		ret = refuse_loss(path.buf, nlost, &lost, err);
out:
	matrix_release(&old);
	strbuf_release(&path);
	strbuf_release(&why);
	strbuf_release(&lost);
	return ret;
}

/*
 * matrix.json (and LKP's avg.json, stddev.json) from the group's complete
 * runs, in run order; removed when no complete run is left.  Never
 * replaced by one that loses a value of a run still on disk (-2).
 */
static int rebuild_matrix(const char *group_dir, const int *nums, size_t n,
			  struct strbuf *err)
{
	/* the sidecar first: a matrix.json without its own is read by LKP's
	 * padding rule, never with another's (matrix_load_missing checks) */
	static const char *const files[] = {MATRIX_MISSING_FILE, "matrix.json",
					     "avg.json", "stddev.json"};
	struct unite u;
	struct matrix m;
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT, why = STRBUF_INIT;
	size_t i;
	int ret = -1;

	unite_init(&u);
	matrix_init(&m);
	for (i = 0; i < n; i++) {
		struct reduce_stats st;

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%d", group_dir, nums[i]);
		if (run_is_incomplete(path.buf))
			continue;
		strbuf_addstr(&path, "/stats.json");
		if (!file_exists(path.buf))
			continue; /* not processed (yet): no column */
		reduce_stats_init(&st);
		strbuf_reset(&why);
		if (reduce_stats_load_json(&st, path.buf, &why))
			warning("%s (run left out of matrix.json)", why.buf);
		else
			unite_add_run(&u, path.buf, &st);
		reduce_stats_release(&st);
	}
	unite_to_matrix(&u, &m);
	ret = check_matrix_loss(group_dir, nums, n, &m, err);
	if (ret)
		goto out;
	ret = -1;
	if (!u.n) {
		for (i = 0; i < ARRAY_SIZE(files); i++) {
			path_join(&path, group_dir, files[i]);
			if (unlink(path.buf) < 0 && errno != ENOENT) {
				strbuf_addf(err, "cannot remove '%s': %s",
					    path.buf, strerror(errno));
				goto out;
			}
		}
		ret = 0;
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		strbuf_reset(&text);
		if (i == 0)
			matrix_missing_to_json(&m, &text);
		else if (i == 1)
			matrix_to_json(&m, &text);
		else if (i == 2)
			unite_avg_json(&m, &text);
		else
			unite_stddev_json(&m, &text);
		if (write_text(group_dir, files[i], &text, err))
			goto out;
	}
	ret = 0;
out:
	matrix_release(&m);
	unite_release(&u);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&why);
	return ret;
}

static int cmp_param(const void *a, const void *b)
{
	return strcmp(((const struct store_param *)a)->key,
		      ((const struct store_param *)b)->key);
}

/*
 * The group's axes from its place below the root (the directory is the
 * truth), and its parameters from the run's job.yaml: job_params() and
 * every other top-level scalar (machine facts, fingerprint) as facts.
 */
/*
 * The job's declared KPIs (a mapping, so not among the scalar facts): one
 * line in the index, as a fact -- never a parameter, so never part of
 * the group's identity or of key=value selection by parameter.
 */
static void run_kpi_param(const struct job *job,
			  struct store_param_list *params, size_t *alloc)
{
	struct strbuf err = STRBUF_INIT, line = STRBUF_INIT;
	struct kpi_set s;

	if (!kpi_from_job(job, &s, &err) && s.n) {
		kpi_format(&s, &line);
		ALLOC_GROW(params->items, params->n + 1, *alloc);
		params->items[params->n].key = xstrdup("kpi");
		params->items[params->n].value = strbuf_detach(&line, NULL);
		params->items[params->n++].kind = STORE_PARAM_FACT;
	}
	kpi_set_release(&s);
	strbuf_release(&line);
	strbuf_release(&err);
}

static void run_facts(const char *root, const char *group_dir,
		      const char *run_dir, char *axes[STORE_NAXES],
		      struct store_param_list *params)
{
	struct strbuf pp = STRBUF_INIT;
	struct job *job;
	size_t i, alloc = 0, rl = strlen(root);
	const char *rel = NULL;
	char *copy = NULL, *p, *save = NULL;
	int a = 0;

	memset(axes, 0, sizeof(char *) * STORE_NAXES);
	memset(params, 0, sizeof(*params));
	if (!strncmp(group_dir, root, rl) && group_dir[rl] == '/')
		rel = group_dir + rl + 1;
	if (rel) {
		copy = xstrdup(rel);
		for (p = strtok_r(copy, "/", &save); p;
		     p = strtok_r(NULL, "/", &save))
			if (a++ < STORE_NAXES)
				axes[a - 1] = xstrdup(p);
		if (a != STORE_NAXES)
			for (a = 0; a < STORE_NAXES; a++)
				FREE_AND_NULL(axes[a]);
	}
	/* parse_run has named a job.yaml it could not read */
	job = read_run_job(run_dir, false);
	if (job) {
		const struct jnode *r = job->root;
		struct job_param *jp = NULL;
		size_t njp = 0;

		if (!axes[0]) { /* not LKP's layout below the root: the job's */
			for (a = 0; a < STORE_NAXES; a++) {
				const char *v;

				if (a == STORE_PATH_PARAMS) {
					job_group_params(job, &pp);
					v = pp.buf;
				} else {
					v = job_get(job, store_axis_name(a));
				}
				axes[a] = xstrdup(v ? v : "");
			}
		}
		job_params(job, &jp, &njp);
		for (i = 0; i < njp; i++) {
			ALLOC_GROW(params->items, params->n + 1, alloc);
			params->items[params->n].key = xstrdup(jp[i].key);
			params->items[params->n].value = xstrdup(jp[i].value);
			params->items[params->n++].kind = STORE_PARAM_JOB;
		}
		job_params_free(jp, njp);
		/*
		 * A program perfsift does not know (LKP's robot writes
		 * stress-ng:, oom-killer:, ...): its scalar options are the
		 * run's parameters too, as LKP's each_param has them, unless
		 * a known one of the same name came first.
		 */
		for (i = 0; i < r->n; i++) {
			const struct jnode *prog = r->kids[i];
			size_t o, j;

			if (prog->type != JNODE_MAP || program_find(r->keys[i]))
				continue;
			for (o = 0; o < prog->n; o++) {
				bool seen = false;

				if (prog->kids[o]->type != JNODE_SCALAR)
					continue;
				for (j = 0; j < params->n && !seen; j++)
					seen = !strcmp(params->items[j].key,
						       prog->keys[o]);
				if (seen)
					continue;
				ALLOC_GROW(params->items, params->n + 1, alloc);
				params->items[params->n].key = xstrdup(prog->keys[o]);
				params->items[params->n].value =
					xstrdup(prog->kids[o]->text);
				params->items[params->n++].kind = STORE_PARAM_JOB;
			}
		}
		for (i = 0; i < r->n; i++) {
			size_t j;
			bool seen = false;

			if (r->kids[i]->type != JNODE_SCALAR)
				continue;
			for (j = 0; j < params->n && !seen; j++)
				seen = !strcmp(params->items[j].key, r->keys[i]);
			for (a = 0; a < STORE_NAXES && !seen; a++)
				seen = !strcmp(store_axis_name(a), r->keys[i]);
			if (seen)
				continue;
			ALLOC_GROW(params->items, params->n + 1, alloc);
			params->items[params->n].key = xstrdup(r->keys[i]);
			params->items[params->n].value = xstrdup(r->kids[i]->text);
			params->items[params->n++].kind = STORE_PARAM_FACT;
		}
		run_kpi_param(job, params, &alloc);
		if (params->n)
			qsort(params->items, params->n, sizeof(*params->items),
			      cmp_param);
	}
	for (a = 0; a < STORE_NAXES; a++)
		if (!axes[a])
			axes[a] = xstrdup("");
	job_free(job);
	free(copy);
	strbuf_release(&pp);
}

/* a run ready for the index */
struct index_item {
	const char *dir; /* absolute */
	int number;
	bool complete;
	const struct reduce_stats *stats;
};

/*
 * Index runs of one group, one transaction each; the group's other runs
 * that are no longer on disk (not in nums) are forgotten meanwhile.
 */
static int index_runs(const char *root, const char *store_url,
		      const char *group_dir, const int *nums, size_t n,
		      const struct index_item *items, size_t nitems,
		      struct strbuf *err)
{
	struct store st;
	size_t i;
	int a, ret = 0;

	if (store_open(&st, root, store_url, STORE_CREATE, err))
		return -1;
	for (i = 0; i < nitems && !ret; i++) {
		struct store_run_record rec;
		struct store_param_list params;
		char *axes[STORE_NAXES];

		run_facts(root, group_dir, items[i].dir, axes, &params);
		memset(&rec, 0, sizeof(rec));
		rec.group_dir = group_dir;
		for (a = 0; a < STORE_NAXES; a++)
			rec.axes[a] = axes[a];
		rec.params = params.items;
		rec.nparams = params.n;
		rec.number = items[i].number;
		rec.complete = items[i].complete;
		rec.run_dir = items[i].dir;
		rec.stats = items[i].stats;
		rec.present_runs = nums;
		rec.npresent = n;
		ret = store_index_run(&st, &rec, err);
		for (a = 0; a < STORE_NAXES; a++)
			free(axes[a]);
		store_param_list_release(&params);
	}
	store_close(&st);
	return ret;
}

/*
 * Under the group lock: matrix.json from the complete runs, then the run
 * in the index (one transaction, forgetting runs no longer on disk unless
 * the store is shared: result_restat_shared).
 */
static int publish_run(const char *root, const char *store_url,
		       const char *group_dir, const char *run_dir, int number,
		       bool complete, const struct reduce_stats *stats,
		       bool forget, struct strbuf *err)
{
	struct index_item item = {run_dir, number, complete, stats};
	int *nums = NULL, ret = -1;
	size_t n = 0;

	if (!group_runs(group_dir, &nums, &n, err) &&
	    !rebuild_matrix(group_dir, nums, n, err))
		ret = index_runs(root, store_url, group_dir, forget ? nums : NULL,
				 forget ? n : 0, &item, 1, err);
	free(nums);
	return ret;
}

static bool below(const char *root, const char *path)
{
	size_t n = strlen(root);

	return !strcmp(root, "/") ||
	       (!strncmp(path, root, n) && path[n] == '/');
}

/* absolute and without symbolic links, so the index matches the root */
static char *real_dir(const char *dir)
{
	char *r = realpath(dir, NULL);

	return r ? r : xstrdup(dir);
}

int result_run_finish(struct result_run *run, const char *root,
		      const char *store_url, bool complete, struct strbuf *err)
{
	struct run_output o;
	struct strbuf path = STRBUF_INIT;
	char *rroot = NULL, *group = NULL, *dir = NULL;
	int lock = -1, ret = -1;

	run_output_init(&o);
	if (!run->tmp_dir)
		BUG("result_run_finish() without a temporary directory");
	if (!complete) {
		static const char mark[] = "is_incomplete_run: 1\n";
		int fd;

		path_join(&path, run->tmp_dir, "last_state");
		fd = open(path.buf, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
			  0666);
		if (fd < 0 || write(fd, mark, sizeof(mark) - 1) !=
		    (ssize_t)(sizeof(mark) - 1)) {
			strbuf_addf(err, "cannot write '%s': %s", path.buf,
				    strerror(errno));
			if (fd >= 0)
				close(fd);
			goto out;
		}
		close(fd);
	}
	ret = parse_run(run->tmp_dir, !complete, &o, err);
	if (ret)
		goto out;
	ret = -1;
	if (write_run_output(run->tmp_dir, &o, err))
		goto out;
	lock = lock_group(run->group_dir, err);
	if (lock < 0)
		goto out;
	path_join(&path, run->tmp_dir, ".owner");
	unlink(path.buf); /* still locked until the rename is done */
	if (renameat2(AT_FDCWD, run->tmp_dir, AT_FDCWD, run->dir,
		      RENAME_NOREPLACE) < 0) {
		strbuf_addf(err, "cannot rename '%s' to '%s': %s", run->tmp_dir,
			    run->dir, strerror(errno));
		goto out;
	}
	drop_ownership(run);
	FREE_AND_NULL(run->tmp_dir); /* in place now: abort must not touch it */
	fsync_dir(run->group_dir);
	/*
	 * Visible, not yet indexed: a kill here is repaired by the next
	 * command that reads the root (result_sync_index()).
	 */
	fault_point("after-publish");
	rroot = real_dir(root);
	group = real_dir(run->group_dir);
	dir = real_dir(run->dir);
	ret = publish_run(rroot, store_url, group, dir, run->number, complete,
			  &o.stats, true, err);
	if (ret == -2)
		ret = -1; /* the run is in place: not a bad raw file of its own */
out:
	if (lock >= 0)
		close(lock);
	run_output_release(&o);
	strbuf_release(&path);
	free(rroot);
	free(group);
	free(dir);
	return ret;
}

static int restat(const char *run_dir, const char *root,
		  const char *store_url, bool forget, struct strbuf *err)
{
	struct run_output o;
	struct strbuf group = STRBUF_INIT;
	char *rroot = NULL, *dir = NULL;
	const char *base, *why;
	long long number;
	bool complete;
	int lock = -1, ret = -1;

	run_output_init(&o);
	if (!dir_exists(run_dir)) {
		strbuf_addf(err, "'%s' is not a directory", run_dir);
		ret = -2;
		goto out;
	}
	dir = real_dir(run_dir);
	base = path_basename(dir);
	if (!result_is_run_number(base) ||
	    strnum_ll(base, 0, MAX_RUNS, &number, &why)) {
		strbuf_addf(err, "'%s' is not a run directory (its name is not "
			    "a run number)", run_dir);
		ret = -2;
		goto out;
	}
	complete = !run_is_incomplete(dir);
	/* everything is parsed before anything is written */
	ret = parse_run(dir, false, &o, err);
	if (!ret)
		ret = keep_what_is_there(dir, &o, err);
	if (ret < 0)
		goto out;
	if (!ret && write_run_output(dir, &o, err)) {
		ret = -1;
		goto out;
	}
	ret = -1;
	path_dirname(&group, dir);
	lock = lock_group(group.buf, err);
	if (lock < 0)
		goto out;
	rroot = real_dir(root);
	if (!below(rroot, dir)) {
		/* a copied LKP run, say: rebuild its group's files only */
		int *nums = NULL;
		size_t n = 0;

		note("'%s' is not below the result root '%s': not indexed",
		     run_dir, rroot);
		ret = group_runs(group.buf, &nums, &n, err);
		if (!ret)
			ret = rebuild_matrix(group.buf, nums, n, err);
		free(nums);
		goto out;
	}
	ret = publish_run(rroot, store_url, group.buf, dir, (int)number,
			  complete, &o.stats, forget, err);
out:
	if (lock >= 0)
		close(lock);
	run_output_release(&o);
	strbuf_release(&group);
	free(rroot);
	free(dir);
	return ret;
}

int result_restat(const char *run_dir, const char *root,
		  const char *store_url, struct strbuf *err)
{
	return restat(run_dir, root, store_url, true, err);
}

int result_restat_shared(const char *run_dir, const char *root,
			 const char *store_url, struct strbuf *err)
{
	return restat(run_dir, root, store_url, false, err);
}

int result_restat_group(const char *group_dir, const char *root,
			const char *store_url, size_t *done, struct strbuf *err)
{
	struct index_item *items = NULL;
	struct reduce_stats *stats = NULL;
	char **dirs = NULL;
	char *group = real_dir(group_dir), *rroot = real_dir(root);
	int *nums = NULL, lock = -1, ret = 0, r;
	size_t n = 0, nitems = 0, i;

	*done = 0;
	if (group_runs(group, &nums, &n, err)) {
		ret = -1;
		goto out;
	}
	items = xcalloc(n ? n : 1, sizeof(*items));
	stats = xcalloc(n ? n : 1, sizeof(*stats));
	dirs = xcalloc(n ? n : 1, sizeof(*dirs));
	for (i = 0; i < n; i++) {
		struct run_output o;
		struct strbuf why = STRBUF_INIT;

		dirs[i] = xasprintf("%s/%d", group, nums[i]);
		reduce_stats_init(&stats[i]);
		run_output_init(&o);
		r = parse_run(dirs[i], false, &o, &why);
		if (!r)
			r = keep_what_is_there(dirs[i], &o, &why);
		if (!r && write_run_output(dirs[i], &o, &why))
			r = -1;
		if (r > 0)
			r = 0; /* nothing to write */
		if (r) {
			/* one bad run does not stop its group */
			error("%s", why.buf);
			if (r == -2 || ret != -2)
				ret = r;
		} else {
			stats[i] = o.stats;
			reduce_stats_init(&o.stats);
			items[nitems].dir = dirs[i];
			items[nitems].number = nums[i];
			items[nitems].complete = !run_is_incomplete(dirs[i]);
			items[nitems].stats = &stats[i];
			nitems++;
		}
		run_output_release(&o);
		strbuf_release(&why);
	}
	lock = lock_group(group, err);
	if (lock < 0) {
		ret = -1;
		goto out;
	}
	r = rebuild_matrix(group, nums, n, err);
	if (r) {
		ret = r;
		goto out;
	}
	if (!strcmp(rroot, group)) {
		note("'%s' holds runs but is the result root itself, not a group "
		     "below it: not indexed", group_dir);
	} else if (!below(rroot, group)) {
		note("'%s' is not below the result root '%s': not indexed",
		     group_dir, rroot);
	} else if (index_runs(rroot, store_url, group, nums, n, items, nitems,
			      err)) {
		ret = -1;
		goto out;
	}
	*done = nitems;
out:
	if (lock >= 0)
		close(lock);
	for (i = 0; i < n; i++) {
		free(dirs[i]);
		reduce_stats_release(&stats[i]);
	}
	free(dirs);
	free(stats);
	free(items);
	free(nums);
	free(group);
	free(rroot);
	return ret;
}

int result_prune_index(const char *root, const char *store_url,
		       size_t *forgotten, struct strbuf *err)
{
	struct store st;
	struct store_group_list l = {0};
	size_t i;
	int ret = -1;

	*forgotten = 0;
	if (store_open(&st, root, store_url, 0, err))
		return -1;
	if (store_find_groups_text(&st, NULL, &l, err))
		goto out;
	for (i = 0; i < l.n; i++) {
		int *nums = NULL;
		size_t n = 0;
		struct strbuf why = STRBUF_INIT;

		if (dir_exists(l.items[i].dir))
			group_runs(l.items[i].dir, &nums, &n, &why);
		free(nums);
		strbuf_release(&why);
		if (n)
			continue;
		if (store_forget_group(&st, l.items[i].id, err))
			goto out;
		(*forgotten)++;
	}
	ret = 0;
out:
	store_group_list_release(&l);
	store_close(&st);
	return ret;
}
