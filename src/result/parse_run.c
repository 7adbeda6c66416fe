/*
 * parse_run.c: a run directory's raw files parsed and reduced (see result.h):
 * every raw file with a parser, LKP's compressed ones too, gives its
 * <group>.json and its share of stats.json, and a <group>.json whose raw
 * file is gone is reduced as it is.  Everything is parsed before anything
 * is written, and nothing is rewritten that would lose a value the old
 * files hold: a result root is the only copy of what a run measured.
 */
#include "util/compat.h"
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "job/job.h"
#include "job/plugins.h"
#include "job/programs.h"
#include "monitors/monitor.h"
#include "result/internal.h"
#include "result/reduce.h"
#include "result/samples.h"
#include "util/archive_io.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/trust.h"
#include "util/usage.h"
#include "util/xalloc.h"

#define RAW_MAX (1024UL * 1024 * 1024) /* refuse raw files above 1 GiB */

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

void run_output_init(struct run_output *o)
{
	memset(o, 0, sizeof(*o));
	reduce_stats_init(&o->stats);
}

void run_output_release(struct run_output *o)
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
struct job *result_read_run_job(const char *run_dir, bool warn)
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

static void job_window(const struct job *job, struct reduce_window *w)
{
	const char *b, *e, *why;
	double v;

	memset(w, 0, sizeof(*w));
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
}

/*
 * The parser of a plug-in's raw file (job/plugins.h): the plug-in that
 * wrote it (NAME.plugin beside it says where it was: its directory, and
 * on a second line the LKP checkout it came from), else one of that name
 * on the search path when the run's job names it.  NULL: none.
 *
 * A pulled run (util/trust.h) is another box's: its NAME.plugin and
 * job_origin name that box's paths, written by whoever may write the
 * store, so only the plug-ins this user configured ($PERFSIFT_PROGRAMS,
 * --lkp-src or $LKP_SRC) parse it (issue 25 F2).
 */
static const struct monitor_ops *plugin_parser(const char *run_dir,
					       const char *name,
					       const struct job *job)
{
	struct strbuf path = STRBUF_INIT, dir = STRBUF_INIT, why = STRBUF_INIT;
	const struct program *p = NULL;

	bool pulled;

	if (!job || !jnode_get(job->root, name))
		return NULL; /* the run's job does not name it: no plug-in's file */
	pulled = trust_inside_pulled(run_dir);
	path_join(&path, run_dir, name);
	strbuf_addstr(&path, ".plugin");
	if (!pulled && read_regular_file(&dir, path.buf, 4096, &why) >= 0) {
		char *nl = strchr(dir.buf, '\n'), *lkp = NULL;

		if (nl) {
			*nl = '\0';
			lkp = nl + 1;
			nl = strchr(lkp, '\n');
			if (nl)
				*nl = '\0';
		}
		p = plugin_find_at(dir.buf, name, lkp && *lkp ? lkp : NULL);
	}
	if (!p)
		p = plugin_find(name, NULL, pulled ? NULL : job->root);
	strbuf_release(&path);
	strbuf_release(&dir);
	strbuf_release(&why);
	return p && p->mon.parse ? &p->mon : NULL;
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
 * Read one raw file of a run whole (decompressed when LKP compressed it)
 * into raw; -1 with why naming it.
 */
static int read_raw(const char *path, const char *suffix, struct strbuf *raw,
		    struct strbuf *why)
{
	/* a FIFO a benchmark left in the run never blocks `stats` (L14) */
	int r = suffix ? archive_io_read_compressed(raw, path, RAW_MAX, why)
		       : read_regular_file(raw, path, RAW_MAX, why);

	if (r < 0 && !suffix && errno == EFBIG)
		strbuf_addf(why, "cannot read '%s': %s", path, strerror(EFBIG));
	return r < 0 ? -1 : 0;
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
	r = read_raw(path.buf, suffix, &text, &why);
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
 * The raw file `file` of a run: parsed by its monitor's parser, its
 * samples kept as <name>.json text in o and reduced into o's stats.
 * 0 when done or when the file is none to parse (no parser, the plain
 * file beside a compressed one, not a regular file, empty); -1 with why.
 */
static int parse_raw_file(const char *run_dir, const char *file,
			  const struct job *job, const struct reduce_window *w,
			  struct run_output *o, struct strbuf *why)
{
	struct strbuf path = STRBUF_INIT, raw = STRBUF_INIT;
	struct strbuf stream = STRBUF_INIT;
	const char *suffix = compressed_suffix(file);
	const struct monitor_ops *m;
	struct samples s;
	struct stat st;
	char *name;
	int ret = -1, r;

	/* LKP gzips some raw files (and xz's dmesg): <name>.gz etc. */
	name = suffix ? xstrndup(file, (size_t)(suffix - file)) : xstrdup(file);
	m = parser_for(name);
	if (!m)
		m = plugin_parser(run_dir, name, job);
	path_join(&path, run_dir, name);
	ret = 0;
	if (!m || (suffix && file_exists(path.buf)))
		goto out; /* no parser, or the plain file is there too */
	path_join(&path, run_dir, file);
	if (stat(path.buf, &st) < 0 || !S_ISREG(st.st_mode))
		goto out;
	ret = -1;
	if (read_raw(path.buf, suffix, &raw, why))
		goto out;
	ret = 0;
	if (!raw.len)
		goto out; /* LKP: an empty log gives no stats */
	ret = -1;
	if (memchr(raw.buf, '\0', raw.len) && !nul_ok(name)) {
		strbuf_addf(why, "'%s' holds NUL bytes: a corrupt raw file",
			    path.buf);
		goto out;
	}
	r = monitor_parse(m, raw.buf, raw.len, path.buf, &stream, why);
	if (r > 0) {
		/* a parser that cannot run here (no Ruby): the raw file stays */
		warning("%s (no %s stats in this run until then)", why->buf, name);
		strbuf_reset(why);
		ret = 0;
		goto out;
	}
	if (r) {
		struct strbuf reason = STRBUF_INIT;

		/* the parser's reason, prefixed with the file it is about */
		strbuf_addbuf(&reason, why);
		strbuf_reset(why);
		strbuf_addf(why, "cannot parse '%s': %s", path.buf, reason.buf);
		strbuf_release(&reason);
		goto out;
	}
	samples_init(&s, name);
	if (samples_parse(&s, stream.buf, stream.len, path.buf, why)) {
		samples_release(&s);
		goto out;
	}
	/* the group takes its keys before samples_finish() drops all-zero ones */
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
	reduce_samples(&s, w, &o->stats);
	samples_release(&s);
	ret = 0;
out:
	free(name);
	strbuf_release(&path);
	strbuf_release(&raw);
	strbuf_release(&stream);
	return ret;
}

/*
 * A bad file: an error (-2, why into err) for a complete run, a warning
 * for a cut one (0), whose files may be cut too, and which must still be
 * recorded with what it has.
 */
static int bad_file(bool lenient, const struct strbuf *why, struct strbuf *err)
{
	if (!lenient) {
		strbuf_addbuf(err, why);
		return -2;
	}
	warning("%s (left out of this cut run's stats)", why->buf);
	return 0;
}

/*
 * Parse and reduce every raw file of run_dir that has a parser, and every
 * <group>.json whose raw file is not there (reduce_json): raw files first,
 * so that a group with both is what its raw file says.  Nothing is
 * written.  A file that cannot be read or parsed is an error naming it
 * (-2); with `lenient` (a cut run, whose files may be cut too) it is a
 * warning and the file is left out.
 */
int result_parse_run(const char *run_dir, bool lenient, struct run_output *o,
		     struct strbuf *err)
{
	struct dirent **ents = NULL;
	struct strbuf why = STRBUF_INIT;
	struct reduce_window w;
	struct job *job = result_read_run_job(run_dir, true);
	int i, n, ret = 0;

	job_window(job, &w);
	n = scandir(run_dir, &ents, filter_raw, alphasort);
	if (n < 0) {
		strbuf_addf(err, "cannot read '%s': %s", run_dir, strerror(errno));
		job_free(job);
		return -1;
	}
	for (i = 0; i < n && !ret; i++) {
		strbuf_reset(&why);
		if (parse_raw_file(run_dir, ents[i]->d_name, job, &w, o, &why))
			ret = bad_file(lenient, &why, err);
	}
	for (i = 0; i < n && !ret; i++) {
		strbuf_reset(&why);
		if (reduce_json(run_dir, ents[i]->d_name, &w, o, &why) < 0)
			ret = bad_file(lenient, &why, err);
	}
	if (!ret)
		reduce_derived(&o->stats);
	for (i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	strbuf_release(&why);
	job_free(job);
	return ret;
}

/*
 * dir/name := t, unless it holds t already (file_holds()): *wrote (when
 * not NULL) is set when a file was written.
 */
static int write_text(const char *dir, const char *name,
		      const struct strbuf *t, bool *wrote, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	int ret = 0;

	path_join(&path, dir, name);
	if (file_holds(path.buf, t->buf, t->len))
		goto out;
	if (write_file_atomic(path.buf, t->buf, t->len) < 0) {
		strbuf_addf(err, "cannot write '%s': %s", path.buf, strerror(errno));
		ret = -1;
	} else if (wrote) {
		*wrote = true;
	}
out:
	strbuf_release(&path);
	return ret;
}

int result_write_text(const char *dir, const char *name, const struct strbuf *t,
		      struct strbuf *err)
{
	return write_text(dir, name, t, NULL, err);
}

/* the first few names of a list of lost ones, for a message */
void result_add_lost(struct strbuf *lost, size_t *nlost, const char *name)
{
	if (++*nlost <= 3)
		strbuf_addf(lost, "%s'%s'", *nlost > 1 ? ", " : "", name);
	else if (*nlost == 4)
		strbuf_addstr(lost, ", ...");
}

int result_refuse_loss(const char *path, size_t nlost,
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
			result_add_lost(&lost, &nlost, k);
	}
	if (nlost)
		ret = result_refuse_loss(path.buf, nlost, &lost, err);
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
int result_keep_what_is_there(const char *dir, struct run_output *o,
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

int result_write_output(const char *dir, const struct run_output *o,
			bool *wrote, struct strbuf *err)
{
	struct strbuf t = STRBUF_INIT;
	size_t i;
	int ret = -1;

	if (wrote)
		*wrote = false;
	for (i = 0; i < o->n; i++)
		if (write_text(dir, o->names[i], &o->texts[i], wrote, err))
			goto out;
	reduce_stats_to_json(&o->stats, &t);
	/* the same numbers: LKP's file stays as LKP wrote it */
	if (!o->same_stats && write_text(dir, "stats.json", &t, wrote, err))
		goto out;
	ret = 0;
out:
	strbuf_release(&t);
	return ret;
}
