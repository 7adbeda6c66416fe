/*
 * plugins.c: programs in LKP's layout found on a search path (see
 * plugins.h): the search, the registry that makes a found plug-in an
 * entry of the program table, and the running of its parse script the
 * way LKP's run-stats runs programs/<p>/parse.
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include "external/external.h"
#include "job/job.h"
#include "job/lkp_meta.h"
#include "job/lkp_pkg.h"
#include "job/plugins.h"
#include "job/programs.h"
#include "monitors/monitor.h"
#include "util/fileutil.h"
#include "util/spawn.h"
#include "util/strbuf.h"
#include "util/trust.h"
#include "util/strnum.h"
#include "util/timeutil.h"
#include "util/usage.h"
#include "util/xalloc.h"

/* a parse script's output is LKP's key: value stream: 1 GiB is far beyond any */
#define STREAM_MAX (1024UL * 1024 * 1024)
/*
 * How long a parse script may take (PERFSIFT_PARSE_TIMEOUT overrides):
 * LKP's parse scripts read one raw file in well under a second; ten
 * minutes is for a huge one on a slow box, and a script that never ends
 * must not hang `run` (issue 25, F7).
 */
#define PARSE_TIMEOUT_S 600.0
/* the longest PERFSIFT_PARSE_TIMEOUT: a job's timeout's bound (10^7 s, 116 days) */
#define PARSE_TIMEOUT_MAX_S 1e7
/* after the timeout's SIGTERM, this long for the script's group to go */
#define PARSE_GRACE_MS 2000

/* one plug-in found: its table entry first, so the entry leads back to it */
struct plugin {
	struct program prog;
	char *name, *dir, *run, *parse, *help;
	char *daemon;  /* LKP's programs/<p>/daemon (a server role's), or NULL */
	char *lkp_src; /* the LKP checkout it is part of, or NULL */
	bool ruby;     /* the parse script's #! names ruby */
};

/*
 * The plug-ins found so far.  Each is allocated on its own, so that the
 * table entry program_find() hands out stays where it is while the list
 * grows; none is ever freed: like the static table's entries they live as
 * long as the process, and jobs hold pointers to them.
 */
static struct plugin **plugins;
static size_t nr_plugins, alloc_plugins;
/* --lkp-src, which beats $LKP_SRC as a command-line option beats the environment */
static char *lkp_src_opt;
/* built-in names already warned about, "\nname\n" each: one warning a name */
static struct strbuf shadow_said = STRBUF_INIT;

/* a plug-in takes its value (`foo: bar`) as LKP's programs do: exported */
static const struct program_option plugin_value = {
	"(its value)", OPT_STRING, '-', 0,
	.help = "exported to the run script as PROGRAM=VALUE"};

void plugin_set_lkp_src(const char *dir)
{
	free(lkp_src_opt);
	lkp_src_opt = dir ? xstrdup(dir) : NULL;
}

const char *plugin_lkp_src(void)
{
	const char *env = getenv("LKP_SRC");

	if (lkp_src_opt)
		return lkp_src_opt;
	return env && *env ? env : NULL;
}

/*
 * A name that is one plain directory entry: a job key never leads out of
 * a search directory (`../x`, `a/b`) nor to a hidden entry.
 */
static bool plain_name(const char *name)
{
	const char *p;

	if (!*name || *name == '.')
		return false;
	for (p = name; *p; p++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			    "0123456789_.+-", *p))
			return false;
	return true;
}

/* one directory of the search path and where it came from, for messages */
struct search_dir {
	char *dir;
	const char *from;
	const char *lkp; /* DIR is an LKP checkout's programs/: the checkout */
};

struct search_path {
	struct search_dir *d;
	size_t n, alloc;
};

static void add_dir(struct search_path *sp, const char *dir, size_t len,
		    const char *from)
{
	size_t i;
	char *d = xstrndup(dir, len);

	/* the same directory twice (the job's and its origin's) is one */
	for (i = 0; i < sp->n; i++)
		if (!strcmp(sp->d[i].dir, d)) {
			free(d);
			return;
		}
	ALLOC_GROW(sp->d, sp->n + 1, sp->alloc);
	sp->d[sp->n].dir = d;
	sp->d[sp->n].lkp = NULL;
	sp->d[sp->n++].from = from;
}

/* DIR/programs of a job file's directory, when file is a file */
static void add_job_dir(struct search_path *sp, const char *file,
			const char *from)
{
	struct strbuf dir = STRBUF_INIT;
	struct stat st;

	/* "<set>", "-" and test names are no file: no directory to search */
	if (file && !stat(file, &st) && S_ISREG(st.st_mode)) {
		path_dirname(&dir, file);
		strbuf_addstr(&dir, "/programs");
		add_dir(sp, dir.buf, dir.len, from);
	}
	strbuf_release(&dir);
}

/*
 * The search path, in its order (plugins.h): the user's own directories
 * first (they are the most deliberate choice), then what sits beside the
 * job, then the LKP checkout, whose ~355 programs would otherwise take
 * any name first.
 */
static void search_path(struct search_path *sp, const char *job_file,
			const struct jnode *root)
{
	const char *env = getenv("PERFSIFT_PROGRAMS"), *p, *end;
	const struct jnode *origin = root ? jnode_get(root, "job_origin") : NULL;
	const char *lkp = plugin_lkp_src();

	memset(sp, 0, sizeof(*sp));
	for (p = env ? env : ""; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		if (end > p) /* an empty entry is no directory (not the cwd) */
			add_dir(sp, p, (size_t)(end - p), "PERFSIFT_PROGRAMS");
	}
	add_job_dir(sp, job_file, "the job's directory");
	if (origin && origin->type == JNODE_SCALAR)
		add_job_dir(sp, origin->text, "the job_origin's directory");
	if (lkp) {
		struct strbuf d = STRBUF_INIT;

		path_join(&d, lkp, "programs");
		add_dir(sp, d.buf, d.len, lkp_src_opt ? "--lkp-src" : "LKP_SRC");
		if (sp->n && !strcmp(sp->d[sp->n - 1].dir, d.buf))
			sp->d[sp->n - 1].lkp = lkp;
		strbuf_release(&d);
	}
}

static void search_path_release(struct search_path *sp)
{
	size_t i;

	for (i = 0; i < sp->n; i++)
		free(sp->d[i].dir);
	free(sp->d);
}

void plugin_describe_path(const char *name, const char *job_file,
			  const struct jnode *root, struct strbuf *out)
{
	struct search_path sp;
	size_t i;

	search_path(&sp, job_file, root);
	if (sp.n)
		strbuf_addf(out, "no plug-in %s/ in ", name);
	else
		strbuf_addf(out, "no plug-in directory to look in for %s/ "
			    "($PERFSIFT_PROGRAMS, programs/ beside the job file, "
			    "--lkp-src DIR or $LKP_SRC)", name);
	for (i = 0; i < sp.n; i++)
		strbuf_addf(out, "%s%s (%s)", i ? ", " : "", sp.d[i].dir,
			    sp.d[i].from);
	search_path_release(&sp);
}

/* ------------------------------------------------------------ registry */

const struct program *plugin_registered(const char *name)
{
	size_t i;

	for (i = 0; i < nr_plugins; i++)
		if (!strcmp(plugins[i]->name, name))
			return &plugins[i]->prog;
	return NULL;
}

size_t plugin_count(void)
{
	return nr_plugins;
}

const struct program *plugin_at(size_t i)
{
	return i < nr_plugins ? &plugins[i]->prog : NULL;
}

/* the plug-in behind a table entry (p must be one: plugin_dir set) */
static const struct plugin *plugin_of(const struct program *p)
{
	return (const struct plugin *)p; /* prog is struct plugin's first member */
}

/*
 * Reached only through a bug: a plug-in's parse script needs its
 * directory, which a bare monitor_parse_fn cannot be given, so every
 * caller goes through monitor_parse().  The entry's parse is set (to
 * this) so that `has a parser` tests see the script.
 */
static int plugin_parse_direct(const char *raw, size_t len, const char *path,
			       struct strbuf *out, struct strbuf *err)
{
	(void)raw, (void)len, (void)path, (void)out, (void)err;
	BUG("a plug-in's parse script is run through monitor_parse()");
}

/* #! of the script names ruby (`#!/usr/bin/env ruby`, `#!/usr/bin/ruby -w`) */
static bool script_is_ruby(const char *path)
{
	struct strbuf err = STRBUF_INIT;
	char line[256];
	FILE *f = fopen_regular(path, &err); /* never blocked by a FIFO */
	bool ruby = false;

	strbuf_release(&err);
	if (!f)
		return false;
	if (fgets(line, sizeof(line), f) && !strncmp(line, "#!", 2))
		ruby = strstr(line, "ruby") != NULL;
	fclose(f);
	return ruby;
}

/* path is a regular file */
static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/*
 * dir/name as a plug-in: a directory holding a run or a parse file.
 * Registered (once: a second find returns the first) and returned.
 */
static const struct program *try_dir(const char *dir, const char *name,
				     const char *lkp)
{
	struct strbuf base = STRBUF_INIT, run = STRBUF_INIT, parse = STRBUF_INIT;
	struct strbuf daemon = STRBUF_INIT;
	const struct program *known = plugin_registered(name);
	char real[PATH_MAX];
	struct plugin *pl = NULL;

	if (known)
		return known;
	/*
	 * realpath: the run records the directory (NAME.plugin) for `stats`
	 * to find again, so a job's relative programs/ must not depend on
	 * the directory perfsift was started in
	 */
	path_join(&base, dir, name);
	path_join(&run, base.buf, "run");
	path_join(&parse, base.buf, "parse");
	path_join(&daemon, base.buf, "daemon");
	/* nothing pulled from a store is ever run (util/trust.h, issue 25 F2) */
	if (!dir_exists(base.buf) ||
	    (!is_file(run.buf) && !is_file(parse.buf) && !is_file(daemon.buf)) ||
	    !realpath(base.buf, real) || trust_inside_pulled(real))
		goto out;
	pl = xcalloc(1, sizeof(*pl));
	pl->name = xstrdup(name);
	pl->dir = xstrdup(real);
	pl->run = xasprintf("%s/run", real);
	pl->parse = is_file(parse.buf) ? xasprintf("%s/parse", real) : NULL;
	/* a daemon and no run script: LKP starts it for the benchmark, beside it */
	pl->daemon = !is_file(run.buf) && is_file(daemon.buf) ?
			     xasprintf("%s/daemon", real) : NULL;
	pl->ruby = pl->parse && script_is_ruby(pl->parse);
	/* its scripts find LKP's lib/ through LKP_SRC, whoever runs them */
	pl->lkp_src = lkp && realpath(lkp, real) ? xstrdup(real) : NULL;
	pl->help = xasprintf("a plug-in: %s", pl->dir);
	pl->prog.name = pl->name;
	pl->prog.kind = PROG_TEST;
	pl->prog.value = &plugin_value;
	/* LKP's parameters (run's header, meta.yaml): options, path, identity */
	pl->prog.options = lkp_meta_options(pl->dir, pl->run);
	pl->prog.mon.name = pl->name;
	pl->prog.mon.parse = pl->parse ? plugin_parse_direct : NULL;
	pl->prog.help = pl->help;
	pl->prog.plugin_dir = pl->dir;
	ALLOC_GROW(plugins, nr_plugins + 1, alloc_plugins);
	plugins[nr_plugins++] = pl;
out:
	strbuf_release(&base);
	strbuf_release(&run);
	strbuf_release(&parse);
	strbuf_release(&daemon);
	return pl ? &pl->prog : NULL;
}

/* the first plug-in called name on the path, unregistered look-up included */
static const struct program *search(const char *name, const char *job_file,
				    const struct jnode *root)
{
	struct search_path sp;
	const struct program *p = NULL;
	size_t i;

	if (!plain_name(name))
		return NULL;
	search_path(&sp, job_file, root);
	for (i = 0; i < sp.n && !p; i++)
		p = try_dir(sp.d[i].dir, name, sp.d[i].lkp);
	search_path_release(&sp);
	return p;
}

const struct program *plugin_find(const char *name, const char *job_file,
				  const struct jnode *root)
{
	const struct program *p = program_find(name);

	/* a built-in comes first; a plug-in found before is that one */
	if (p)
		return p->plugin_dir ? p : NULL;
	return search(name, job_file, root);
}

const struct program *plugin_find_at(const char *dir, const char *name,
				     const char *lkp)
{
	struct strbuf parent = STRBUF_INIT;
	const struct program *p = program_find(name);

	if (p)
		return p->plugin_dir ? p : NULL;
	if (!plain_name(name) || strcmp(path_basename(dir), name))
		return NULL;
	path_dirname(&parent, dir);
	p = try_dir(parent.buf, name, lkp);
	strbuf_release(&parent);
	return p;
}

void plugin_warn_shadowed(const char *name, const char *job_file,
			  const struct jnode *root, int line)
{
	struct search_path sp;
	struct strbuf base = STRBUF_INIT, key = STRBUF_INIT;
	size_t i;

	if (!plain_name(name))
		return;
	strbuf_addf(&key, "\n%s\n", name);
	if (strstr(shadow_said.buf ? shadow_said.buf : "", key.buf))
		goto out;
	search_path(&sp, job_file, root);
	for (i = 0; i < sp.n; i++) {
		/* a directory of that name is what its author meant as the program */
		path_join(&base, sp.d[i].dir, name);
		if (dir_exists(base.buf)) {
			warning("%s:%d: %s: perfsift's built-in %s is used, not the plug-in "
				"%s (from %s): a built-in program comes first; give the "
				"plug-in another name to run it",
				job_file, line > 0 ? line : 1, name, name, base.buf,
				sp.d[i].from);
			strbuf_addbuf(&shadow_said, &key);
			break;
		}
	}
	search_path_release(&sp);
out:
	strbuf_release(&base);
	strbuf_release(&key);
}

size_t plugin_scan_all(void)
{
	struct search_path sp;
	size_t i, n = 0;

	search_path(&sp, NULL, NULL);
	for (i = 0; i < sp.n; i++) {
		DIR *d = opendir(sp.d[i].dir);
		struct dirent *de;

		while (d && (de = readdir(d))) {
			const struct program *p;

			if (!plain_name(de->d_name))
				continue;
			p = program_find(de->d_name);
			if (p && !p->plugin_dir)
				continue; /* a built-in's name: never a plug-in */
			if (try_dir(sp.d[i].dir, de->d_name, sp.d[i].lkp))
				n++;
		}
		if (d)
			closedir(d);
	}
	search_path_release(&sp);
	return n;
}

/* ----------------------------------------------------------- accessors */

const char *plugin_dir(const struct program *p)
{
	return p->plugin_dir;
}

const char *plugin_run_script(const struct program *p)
{
	return p->plugin_dir ? plugin_of(p)->run : NULL;
}

const char *plugin_parse_script(const struct program *p)
{
	return p->plugin_dir ? plugin_of(p)->parse : NULL;
}

const char *plugin_lkp_root(const struct program *p)
{
	if (!p->plugin_dir)
		return NULL;
	return plugin_of(p)->lkp_src ? plugin_of(p)->lkp_src : plugin_lkp_src();
}

const char *plugin_daemon_script(const struct program *p)
{
	return p->plugin_dir ? plugin_of(p)->daemon : NULL;
}

const char *plugin_lkp_checkout(const struct program *p)
{
	return p->plugin_dir ? plugin_of(p)->lkp_src : NULL;
}

bool plugin_parse_needs_ruby(const struct program *p)
{
	return p->plugin_dir && plugin_of(p)->ruby;
}

bool plugin_have_ruby(void)
{
	return ext_have("ruby", NULL);
}

/*
 * What run needs: an executable run script (LKP's programs/<p>/ may hold
 * only a parse script: then it can parse, not run), and Ruby for a Ruby
 * parse script, without which the run's stats would wait for `stats`.
 */
bool plugin_can_run(const struct program *p, struct strbuf *why)
{
	const struct plugin *pl = plugin_of(p);

	if (pl->daemon) {
		if (access(pl->daemon, X_OK))
			strbuf_addf(why, "%s: not executable (chmod +x)", pl->daemon);
		return !access(pl->daemon, X_OK);
	}
	if (access(pl->run, X_OK)) {
		strbuf_addf(why, "%s: %s", pl->run,
			    is_file(pl->run) ? "not executable (chmod +x)" :
					       "no run script (it can only parse)");
		return false;
	}
	if (pl->ruby && !plugin_have_ruby()) {
		strbuf_addf(why, "its parse script %s needs Ruby: apt-get install ruby",
			    pl->parse);
		return false;
	}
	/* an LKP program's pkg/depends, which `perfsift install` installs */
	if (pl->lkp_src) {
		struct strbuf pkgs = STRBUF_INIT, bad = STRBUF_INIT, miss = STRBUF_INIT;
		bool ok;

		lkp_pkg_depends(pl->lkp_src, pl->name, &pkgs, &bad);
		ok = lkp_pkg_installed(pkgs.buf, &miss);
		if (!ok)
			strbuf_addf(why, "it needs the Debian package%s %s "
				    "(its pkg/depends): perfsift install JOB",
				    strchr(miss.buf, ' ') ? "s" : "", miss.buf);
		strbuf_release(&pkgs);
		strbuf_release(&bad);
		strbuf_release(&miss);
		if (!ok)
			return false;
	}
	/* what LKP builds into $BENCHMARK_ROOT, looked for where the script looks */
	return lkp_bench_ready(pl->dir, pl->name, pl->run, why);
}

/* ------------------------------------------------------------- parsing */

/*
 * The file the script reads: the raw file itself when it is one (LKP
 * passes its path), else (stdin, a compressed file) the text in a
 * private temporary file, named into tmp for the caller to remove.
 */
static int input_file(const char *raw, size_t len, const char *path,
		      struct strbuf *tmp, struct strbuf *err)
{
	static const char *const sfx[] = {".gz", ".xz", ".bz2"};
	size_t i, n = path ? strlen(path) : 0;
	bool plain = path && is_file(path);
	int fd;

	for (i = 0; plain && i < ARRAY_SIZE(sfx); i++)
		if (n > strlen(sfx[i]) && !strcmp(path + n - strlen(sfx[i]), sfx[i]))
			plain = false;
	if (plain) {
		strbuf_addstr(tmp, path);
		return 0;
	}
	strbuf_addstr(tmp, "/tmp/perfsift-raw.XXXXXX");
	fd = mkstemp(tmp->buf);
	if (fd < 0 || write_all(fd, raw, len) < 0) {
		strbuf_addf(err, "cannot write a temporary file: %s", strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp->buf);
		}
		strbuf_reset(tmp);
		return -1;
	}
	close(fd);
	return 1;
}

/* the parse scripts' time limit: PERFSIFT_PARSE_TIMEOUT seconds, or the default */
static double parse_timeout(void)
{
	const char *env = getenv("PERFSIFT_PARSE_TIMEOUT"), *why;
	double s;

	if (!env || !*env)
		return PARSE_TIMEOUT_S;
	if (strnum_seconds(env, &s, &why) || s <= 0) {
		warning("PERFSIFT_PARSE_TIMEOUT '%s' is not a duration; %g s it is",
			env, PARSE_TIMEOUT_S);
		return PARSE_TIMEOUT_S;
	}
	/*
	 * As long as a job's timeout may be: 1e30 s overflowed the deadline
	 * in nanoseconds, and every parse script was killed at once (the
	 * third attack, B3)
	 */
	if (s > PARSE_TIMEOUT_MAX_S) {
		warning("PERFSIFT_PARSE_TIMEOUT '%s' is longer than %g s; %g s it is",
			env, PARSE_TIMEOUT_MAX_S, PARSE_TIMEOUT_MAX_S);
		return PARSE_TIMEOUT_MAX_S;
	}
	return s;
}

/* the stop request the caller took (plugin_parse_stop), 0: none */
static int stop_taken;

void plugin_parse_stop(int sig)
{
	if (!stop_taken)
		stop_taken = sig;
}

/*
 * A stop request: taken by the caller, or waiting while perfsift blocks
 * SIGINT/SIGTERM, as `run` does for its runner (left pending, for the
 * runner to take).
 */
static int stop_pending(void)
{
	sigset_t set;

	if (stop_taken)
		return stop_taken;
	if (sigpending(&set) < 0)
		return 0;
	return sigismember(&set, SIGTERM) ? SIGTERM :
	       sigismember(&set, SIGINT) ? SIGINT : 0;
}

/* spawn's tick: a stop request ends the script (it does not wake poll) */
static int stop_tick(void *arg)
{
	(void)arg;
	return stop_pending();
}

/*
 * The raw files whose parse script failed in this process ("\npath\n"
 * each): a run cut by a signal or a parse error is parsed a second time,
 * leniently, to be kept marked incomplete, and the script that failed
 * (or hung until its timeout) must not be started on it again.
 */
static struct strbuf failed_inputs = STRBUF_INIT;

static bool failed_before(const char *path)
{
	struct strbuf key = STRBUF_INIT;
	bool found;

	strbuf_addf(&key, "\n%s\n", path);
	found = failed_inputs.len && strstr(failed_inputs.buf, key.buf);
	strbuf_release(&key);
	return found;
}

/*
 * LKP's run-stats: `programs/<p>/parse RAWFILE < RAWFILE`.  1 (not -1)
 * when the script needs a Ruby that is not here: nothing is wrong with
 * the raw file, and the caller keeps it for later.
 */
static int run_parse_script(const struct plugin *pl, const char *raw,
			    size_t len, const char *path, struct strbuf *out,
			    struct strbuf *err)
{
	struct strbuf in = STRBUF_INIT, dir = STRBUF_INIT, lkp_env = STRBUF_INIT,
		      root_env = STRBUF_INIT;
	const char *env[3];
	char *argv[4];
	int st, made, ret = -1;
	size_t n = 0, nenv = 0;
	struct spawn_cmd c;
	double limit;

	if (pl->ruby && !plugin_have_ruby()) {
		strbuf_addf(err, "%s: its parse script %s is a Ruby script and Ruby is "
			    "not installed: apt-get install ruby (`perfsift install JOB` "
			    "does); the raw output is kept, `perfsift stats RUN_DIR` "
			    "parses it once Ruby is there",
			    pl->name, pl->parse);
		return 1;
	}
	if (stop_pending()) {
		strbuf_addf(err, "%s: its parse script %s not started: perfsift "
			    "is stopping (%s); `perfsift stats RUN_DIR` parses "
			    "the kept raw file", pl->name, pl->parse,
			    stop_pending() == SIGTERM ? "SIGTERM" : "SIGINT");
		return -1;
	}
	if (path && failed_before(path)) {
		strbuf_addf(err, "%s: its parse script %s failed on this file "
			    "already; not started again", pl->name, pl->parse);
		return -1;
	}
	made = input_file(raw, len, path, &in, err);
	if (made < 0)
		return -1;
	/* Ruby's scripts through ruby itself: no #! path or x bit to rely on */
	if (pl->ruby)
		argv[n++] = (char *)"ruby";
	argv[n++] = pl->parse;
	argv[n++] = in.buf;
	argv[n] = NULL;
	if (path)
		path_dirname(&dir, path);
	/*
	 * The stream comes back through a pipe; the script's stderr is ours,
	 * so its own complaints reach the user as they would from LKP.  A
	 * group of its own: a timeout ends what the script started too, and
	 * what it left when it ended is killed (a daemon must not outlive
	 * the parse).  Off the terminal's group, ^C no longer reaches it, so
	 * it dies with perfsift instead (PDEATHSIG).
	 */
	spawn_init(&c);
	c.argv = (const char *const *)argv;
	c.in.how = SPAWN_FILE;
	c.in.path = in.buf;
	c.out.how = SPAWN_CAPTURE;
	c.out.buf = out;
	c.capture_max = STREAM_MAX;
	c.own_group = c.kill_group = true;
	c.pdeathsig = SIGKILL;
	c.reset_signals = true;
	/* LKP's parse scripts require "#{LKP_SRC}/lib/..." and read RESULT_ROOT */
	if (plugin_lkp_root(&pl->prog)) {
		strbuf_addf(&lkp_env, "LKP_SRC=%s", plugin_lkp_root(&pl->prog));
		env[nenv++] = lkp_env.buf;
	}
	if (path) {
		strbuf_addf(&root_env, "RESULT_ROOT=%s", dir.buf);
		env[nenv++] = root_env.buf;
	}
	env[nenv] = NULL;
	c.env = env;
	limit = parse_timeout();
	c.timeout = limit;
	c.grace_ms = PARSE_GRACE_MS;
	c.tick = stop_tick;
	c.tick_ms = 100;
	st = spawn_run(&c, err);
	spawn_release(&c);
	if (st < 0)
		goto out;
	if (c.overflow)
		strbuf_addf(err, "%s: cannot read its parse script's output: %s",
			    pl->name, strerror(EFBIG));
	else if (c.read_errno)
		strbuf_addf(err, "%s: cannot read its parse script's output: %s",
			    pl->name, strerror(c.read_errno));
	else if (c.timed_out)
		strbuf_addf(err, "%s: its parse script %s did not finish in %g s "
			    "and was killed (PERFSIFT_PARSE_TIMEOUT sets the limit)",
			    pl->name, pl->parse, limit);
	else if (c.stopped)
		strbuf_addf(err, "%s: its parse script %s was stopped: perfsift "
			    "is stopping (%s)", pl->name, pl->parse,
			    c.stopped == SIGTERM ? "SIGTERM" : "SIGINT");
	if (err->len)
		goto out;
	if (!st)
		ret = 0;
	else if (st < 128)
		strbuf_addf(err, "%s: its parse script %s exited with status %d",
			    pl->name, pl->parse, st);
	else
		strbuf_addf(err, "%s: its parse script %s was killed by signal %d",
			    pl->name, pl->parse, st - 128);
out:
	if (ret && path)
		strbuf_addf(&failed_inputs, "%s%s\n",
			    failed_inputs.len ? "" : "\n", path);
	if (made > 0)
		unlink(in.buf);
	strbuf_release(&in);
	strbuf_release(&dir);
	strbuf_release(&lkp_env);
	strbuf_release(&root_env);
	return ret;
}

int monitor_parse(const struct monitor_ops *m, const char *raw, size_t len,
		  const char *path, struct strbuf *out, struct strbuf *err)
{
	size_t i;

	if (m->parse != plugin_parse_direct)
		return m->parse(raw, len, path, out, err) ? -1 : 0;
	/* a job names one plug-in, `help programs` lists a few: a scan is enough */
	for (i = 0; i < nr_plugins; i++)
		if (&plugins[i]->prog.mon == m)
			return run_parse_script(plugins[i], raw, len, path, out, err);
	BUG("monitor_parse: a plug-in parser that is not registered");
}
