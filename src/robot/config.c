/*
 * config.c: ROBOT.yaml read and checked (see robot/config.h).  The YAML
 * itself goes through the job loader without its schema checks
 * (job_read_file), so that the robot's config reports YAML mistakes,
 * duplicate keys and line numbers exactly as a job file does; the keys
 * are checked here, each against a small table, because a typo in a
 * config that runs unattended must stop it before the first pass rather
 * than be ignored for weeks.
 */
#include "util/compat.h"
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include "bisect/bisect.h"
#include "decide/decide.h"
#include "job/job.h"
#include "job/kpi.h"
#include "robot/config.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/suggest.h"
#include "util/trust.h"
#include "util/xalloc.h"

/* the largest config read: the job loader's limit for a job file */
#define ROBOT_CONFIG_MAX (1 << 20)

/* where a node came from, for the FILE:LINE: KEY: prefix */
static int bad(struct strbuf *err, const struct jnode *n, const char *file,
	       const char *key, const char *fmt, const char *arg)
{
	strbuf_addf(err, "%s:%d: %s: ", file, n ? n->line : 1, key);
	strbuf_addf(err, fmt, arg);
	return -1;
}

/* a non-empty scalar at map[key]; *out NULL when absent (and !required) */
static int get_str(const struct jnode *map, const char *key, bool required,
		   const char *file, char **out, struct strbuf *err)
{
	const struct jnode *v = jnode_get(map, key);

	*out = NULL;
	if (!v || v->type == JNODE_NULL) {
		if (required)
			return bad(err, map, file, key, "%s", "is required");
		return 0;
	}
	if (v->type != JNODE_SCALAR)
		return bad(err, v, file, key, "%s", "must be a string");
	if (!*v->text) {
		if (required)
			return bad(err, v, file, key, "%s", "must not be empty");
		return 0;
	}
	*out = xstrdup(v->text);
	return 0;
}

/* a key an error may quote: letters, digits, _ - . (every config key is) */
static bool key_is_name(const char *key)
{
	size_t n = strspn(key, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			       "0123456789_-.");

	return n && n <= 64 && !key[n];
}

/*
 * Every key of map must be one of known[]: an unknown key is an error
 * with a did-you-mean, since an ignored `branchs:` would watch nothing.
 */
static int check_keys(const struct jnode *map, const char *const *known,
		      size_t nknown, const char *file, const char *what,
		      struct strbuf *err)
{
	size_t i, k;

	if (map->type != JNODE_MAP)
		return bad(err, map, file, what, "%s", "must be a mapping of keys");
	for (i = 0; i < map->n; i++) {
		const char *hint;

		for (k = 0; k < nknown; k++)
			if (!strcmp(map->keys[i], known[k]))
				break;
		if (k < nknown)
			continue;
		/*
		 * Quoted only when it is a name: `--config /etc/shadow` as
		 * root quoted the file's first line, hash and all (the fourth
		 * attack; issue 25 F13 for a job file).  Escaped even so: a
		 * key is the file's text, and ESC would reach the terminal.
		 */
		strbuf_addf(err, "%s:%d: ", file, map->kids[i]->line);
		if (!key_is_name(map->keys[i])) {
			strbuf_addstr(err, "(a key that is no name: not a robot config?)");
			return -1;
		}
		hint = suggest_closest(map->keys[i], known, nknown,
				       suggest_max_distance(map->keys[i]));
		trust_escape(err, map->keys[i]);
		strbuf_addf(err, ": unknown key in %s", what);
		if (hint)
			strbuf_addf(err, " (did you mean '%s'?)", hint);
		return -1;
	}
	return 0;
}

/*
 * a git ref name component check good enough for config mistakes; no
 * control character either (util/trust.h): a name becomes a directory and
 * part of a mail's Subject:, where CR/LF would add headers (issue 25 F10)
 */
static bool bad_name(const char *s)
{
	return trust_name_why(s) || strchr(s, ' ') || s[0] == '.' ||
	       s[0] == '-';
}

/*
 * A URL or branch the robot gives to git: never an option of git's (a
 * url "--upload-pack=CMD" ran CMD, issue 25 F1); git is also called with
 * --end-of-options, this names the line at load time.
 */
static int check_arg(const struct jnode *n, const char *file, const char *key,
		     const char *s, struct strbuf *err)
{
	const char *why = trust_arg_why(s);
	struct strbuf shown = STRBUF_INIT;
	int ret;

	if (!why)
		return 0;
	strbuf_addch(&shown, '\'');
	trust_escape(&shown, s);
	strbuf_addf(&shown, "': %s", why);
	ret = bad(err, n, file, key, "%s", shown.buf);
	strbuf_release(&shown);
	return ret;
}

/*
 * A url of git's "<transport>::<address>" form names a remote helper:
 * ext:: runs a command, fd:: reads one of git's descriptors (`fd::3` hung
 * the robot until it was killed), and any other name runs the program
 * git-remote-<transport>.  A url is data (docs/security.md): a robot
 * fetches over git's own transports -- a path, file://, git://, ssh://,
 * http(s):// or user@host:path -- and refuses these at load time.
 */
static int check_transport(const struct jnode *n, const char *file,
			   const char *url, struct strbuf *err)
{
	size_t len = strspn(url, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				 "0123456789+.-_");
	struct strbuf shown = STRBUF_INIT;
	int ret;

	if (!len || strncmp(url + len, "::", 2))
		return 0;
	strbuf_addch(&shown, '\'');
	trust_escape(&shown, url);
	strbuf_addf(&shown, "': '%.*s::' names a git remote helper, which runs a "
		    "program; give a path, file://, git://, ssh:// or http(s):// URL",
		    (int)len, url);
	ret = bad(err, n, file, "url", "%s", shown.buf);
	strbuf_release(&shown);
	return ret;
}

/* one entry of repos: */
static int load_repo(const struct jnode *m, const char *file,
		     struct robot_repo *r, struct strbuf *err)
{
	static const char *const keys[] = {"name", "url", "base", "branches",
					   "build", "install", "kernel"};
	const struct jnode *b;
	size_t i;

	if (check_keys(m, keys, ARRAY_SIZE(keys), file, "repos", err) ||
	    get_str(m, "name", true, file, &r->name, err) ||
	    get_str(m, "url", true, file, &r->url, err) ||
	    get_str(m, "base", true, file, &r->base, err) ||
	    get_str(m, "build", false, file, &r->build, err) ||
	    get_str(m, "install", false, file, &r->install, err) ||
	    get_str(m, "kernel", false, file, &r->kernel, err))
		return -1;
	/* the kernel is what the build leaves in the worktree */
	if (r->kernel && !r->build)
		return bad(err, jnode_get(m, "kernel"), file, "kernel", "%s",
			   "needs a build: command that makes it (e.g. "
			   "make bzImage)");
	/* the name is a directory name (the mirror) and part of subjects */
	if (bad_name(r->name)) {
		struct strbuf shown = STRBUF_INIT;
		int ret;

		trust_escape(&shown, r->name);
		ret = bad(err, jnode_get(m, "name"), file, "name",
			  "'%s': a name without '/', blanks, control characters "
			  "or a leading '.' or '-'", shown.buf);
		strbuf_release(&shown);
		return ret;
	}
	if (check_arg(jnode_get(m, "url"), file, "url", r->url, err) ||
	    check_transport(jnode_get(m, "url"), file, r->url, err) ||
	    check_arg(jnode_get(m, "base"), file, "base", r->base, err))
		return -1;
	b = jnode_get(m, "branches");
	if (!b || b->type == JNODE_NULL)
		return bad(err, m, file, "branches", "%s",
			   "is required (a list of globs, e.g. [feature/*])");
	/* one glob may be given alone, as LKP's lists often are */
	if (b->type == JNODE_SCALAR) {
		if (check_arg(b, file, "branches", b->text, err))
			return -1;
		r->branches = xcalloc(1, sizeof(char *));
		r->branches[r->nbranches++] = xstrdup(b->text);
		return 0;
	}
	if (b->type != JNODE_SEQ || !b->n)
		return bad(err, b, file, "branches", "%s",
			   "must be a non-empty list of globs");
	r->branches = xcalloc(b->n, sizeof(char *));
	for (i = 0; i < b->n; i++) {
		if (b->kids[i]->type != JNODE_SCALAR || !*b->kids[i]->text)
			return bad(err, b->kids[i], file, "branches", "%s",
				   "each entry must be a glob string");
		if (check_arg(b->kids[i], file, "branches", b->kids[i]->text, err))
			return -1;
		r->branches[r->nbranches++] = xstrdup(b->kids[i]->text);
	}
	return 0;
}

/* the node errors about a job file point at: its `job:` line */
static const struct jnode *jobs_err_node(const struct jnode *m)
{
	return jnode_get(m, "job");
}

/*
 * The job file itself, checked as `perfsift run` would (a broken job is
 * a broken config: better now than at the first bisect), and what the
 * robot judges it by: its testcase and its KPIs, declared or its built-in
 * benchmark's.  A job without KPIs is refused: the robot mails on KPI
 * changes only, and would never mail.
 */
static int job_facts(struct robot_job *j, const struct jnode *at,
		     const char *file, struct strbuf *err)
{
	struct job **jobs = NULL;
	struct strbuf jerr = STRBUF_INIT, line = STRBUF_INIT;
	struct kpi_set s = {0};
	size_t n = 0;
	const char *tc;
	int ret = -1;

	if (job_load_file(j->job, &jobs, &n, &jerr) < 0) {
		strbuf_addf(err, "%s:%d: job: %s", file, at->line, jerr.buf);
		goto out;
	}
	if (n != 1) {
		bad(err, at, file, "job", "'%s' holds several jobs: give the robot one each",
		    j->job);
		goto out;
	}
	tc = job_get(jobs[0], "testcase");
	j->testcase = tc ? xstrdup(tc) : NULL;
	kpi_fill_job(jobs[0]);
	if (kpi_from_job(jobs[0], &s, &jerr) < 0) {
		strbuf_addf(err, "%s:%d: job: %s", file, at->line, jerr.buf);
		goto out;
	}
	if (!s.n) {
		bad(err, at, file, "job",
		    "'%s' declares no kpi: (the robot judges heads by their KPIs)",
		    j->job);
		goto out;
	}
	kpi_format(&s, &line);
	j->kpi = strbuf_detach(&line, NULL);
	ret = 0;
out:
	kpi_set_release(&s);
	job_free_all(jobs, n);
	strbuf_release(&jerr);
	strbuf_release(&line);
	return ret;
}

/* one entry of jobs: */
static int load_job(const struct jnode *m, const char *file,
		    const char *cfg_dir, struct robot_job *j,
		    struct strbuf *err)
{
	static const char *const keys[] = {"job", "runs", "max_runs",
					   "bisect_max_runs", "testbox_group"};
	struct strbuf path = STRBUF_INIT;
	char *given = NULL, *runs = NULL, *max = NULL, *bmax = NULL;
	const char *why, *stem;
	long long n = DECIDE_DEFAULT_RUNS, nmax = DECIDE_DEFAULT_MAX_RUNS;
	long long nbmax = BISECT_DEFAULT_MAX_RUNS;
	int ret = -1;

	if (check_keys(m, keys, ARRAY_SIZE(keys), file, "jobs", err) ||
	    get_str(m, "job", true, file, &given, err) ||
	    get_str(m, "runs", false, file, &runs, err) ||
	    get_str(m, "max_runs", false, file, &max, err) ||
	    get_str(m, "bisect_max_runs", false, file, &bmax, err) ||
	    get_str(m, "testbox_group", false, file, &j->testbox_group, err))
		goto out;
	if (runs && strnum_ll(runs, 1, 1000, &n, &why) < 0) {
		bad(err, jnode_get(m, "runs"), file, "runs", "%s", why);
		goto out;
	}
	j->runs = (size_t)n;
	/*
	 * The budget of an undecided head, runs a side (decide/decide.h,
	 * where bench/detection's figures say why 30); a budget below runs
	 * could never make the first pairs.
	 */
	if (max && strnum_ll(max, 1, 1000, &nmax, &why) < 0) {
		bad(err, jnode_get(m, "max_runs"), file, "max_runs", "%s", why);
		goto out;
	}
	if (!max && nmax < n)
		nmax = n;
	if (nmax < n) {
		bad(err, jnode_get(m, "max_runs"), file, "max_runs",
		    "%s is below runs", max);
		goto out;
	}
	j->max_runs = (size_t)nmax;
	/*
	 * The bisect's budget of an unclear commit (bisect/bisect.h): a
	 * step needs more runs than a head to be decided "within half the
	 * step" of one side, so it is a budget of its own.
	 */
	if (bmax && strnum_ll(bmax, 1, 1000, &nbmax, &why) < 0) {
		bad(err, jnode_get(m, "bisect_max_runs"), file,
		    "bisect_max_runs", "%s", why);
		goto out;
	}
	if (!bmax && nbmax < n)
		nbmax = n;
	if (nbmax < n) {
		bad(err, jnode_get(m, "bisect_max_runs"), file,
		    "bisect_max_runs", "%s is below runs", bmax);
		goto out;
	}
	j->bisect_max_runs = (size_t)nbmax;
	if (*given == '/')
		strbuf_addstr(&path, given);
	else
		path_join(&path, cfg_dir, given);
	j->job = realpath(path.buf, NULL);
	if (!j->job || !file_exists(j->job)) {
		bad(err, jnode_get(m, "job"), file, "job",
		    "cannot open '%s'", path.buf);
		goto out;
	}
	if (job_facts(j, jobs_err_node(m), file, err))
		goto out;
	/* the file's stem names the job's result root and its state rows */
	stem = path_basename(j->job);
	j->name = xstrdup(stem);
	if (strlen(j->name) > 5 && !strcmp(j->name + strlen(j->name) - 5, ".yaml"))
		j->name[strlen(j->name) - 5] = '\0';
	ret = 0;
out:
	free(given);
	free(runs);
	free(max);
	free(bmax);
	strbuf_release(&path);
	return ret;
}

/* the mail: section */
static int load_mail(const struct jnode *m, const char *file,
		     struct robot_mail *mail, struct strbuf *err)
{
	static const char *const keys[] = {"to", "from", "mbox", "maildir",
					   "sendmail"};
	int ways;

	if (check_keys(m, keys, ARRAY_SIZE(keys), file, "mail", err) ||
	    get_str(m, "to", true, file, &mail->to, err) ||
	    get_str(m, "from", false, file, &mail->from, err) ||
	    get_str(m, "mbox", false, file, &mail->mbox, err) ||
	    get_str(m, "maildir", false, file, &mail->maildir, err) ||
	    get_str(m, "sendmail", false, file, &mail->sendmail, err))
		return -1;
	/* two ways would have to agree on "sent"; one is enough */
	ways = !!mail->mbox + !!mail->maildir + !!mail->sendmail;
	if (ways != 1)
		return bad(err, m, file, "mail", "%s",
			   ways ? "give one of mbox, maildir and sendmail, not several" :
				  "needs one of mbox: FILE, maildir: DIR, sendmail: CMD");
	/* a newline in an address would let the config forge headers */
	if (strpbrk(mail->to, "\r\n") || (mail->from && strpbrk(mail->from, "\r\n")))
		return bad(err, m, file, "mail", "%s", "addresses are one line each");
	return 0;
}

/* the non-empty list under key (its entries are checked by the caller) */
static int load_list(const struct jnode *root, const char *key,
		     const char *file, size_t *n, const struct jnode ***items,
		     struct strbuf *err)
{
	const struct jnode *v = jnode_get(root, key);

	if (!v || v->type != JNODE_SEQ || !v->n)
		return bad(err, v ? v : root, file, key, "%s",
			   "is required: a non-empty list");
	*n = v->n;
	*items = (const struct jnode **)v->kids;
	return 0;
}

/*
 * build_user: a user of this machine, and perfsift root (only root can
 * become another user).  Refused here, before anything runs: a drop
 * that cannot happen is never skipped silently.
 */
static int load_build_user(const struct jnode *root, struct robot_config *cfg,
			   struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	char *name;
	int ret = 0;

	if (get_str(root, "build_user", false, cfg->file, &name, err))
		return -1;
	if (!name)
		return 0;
	if (spawn_user_lookup(name, &cfg->build_user, &why) < 0)
		ret = bad(err, jnode_get(root, "build_user"), cfg->file,
			  "build_user", "%s", why.buf);
	else if (!cfg->build_user.uid)
		ret = bad(err, jnode_get(root, "build_user"), cfg->file,
			  "build_user", "'%s' is root: name the unprivileged "
			  "user the builds run as", name);
	strbuf_release(&why);
	free(name);
	return ret;
}

/* the top level: repos, jobs, mail, build_user */
static int check_config(const struct jnode *root, struct robot_config *cfg,
			const char *cfg_dir, struct strbuf *err)
{
	static const char *const keys[] = {"repos", "jobs", "mail",
					   "build_user"};
	const struct jnode **items, *mail;
	size_t n, i, k;

	if (check_keys(root, keys, ARRAY_SIZE(keys), cfg->file, "the robot config", err) ||
	    load_build_user(root, cfg, err) ||
	    load_list(root, "repos", cfg->file, &n, &items, err))
		return -1;
	cfg->repos = xcalloc(n, sizeof(*cfg->repos));
	for (i = 0; i < n; i++) {
		cfg->nrepos++;
		if (load_repo(items[i], cfg->file, &cfg->repos[i], err))
			return -1;
		cfg->repos[i].user = cfg->build_user.name ? &cfg->build_user : NULL;
		/* the name keys the state: two repos of one name would share it */
		for (k = 0; k < i; k++)
			if (!strcmp(cfg->repos[k].name, cfg->repos[i].name))
				return bad(err, jnode_get(items[i], "name"),
					   cfg->file, "name",
					   "'%s' names two repos", cfg->repos[i].name);
	}
	if (load_list(root, "jobs", cfg->file, &n, &items, err))
		return -1;
	cfg->jobs = xcalloc(n, sizeof(*cfg->jobs));
	for (i = 0; i < n; i++) {
		cfg->njobs++;
		if (load_job(items[i], cfg->file, cfg_dir, &cfg->jobs[i], err))
			return -1;
		for (k = 0; k < i; k++)
			if (!strcmp(cfg->jobs[k].name, cfg->jobs[i].name))
				return bad(err, jnode_get(items[i], "job"),
					   cfg->file, "job",
					   "two jobs are named '%s' (their file names name their results)",
					   cfg->jobs[i].name);
	}
	mail = jnode_get(root, "mail");
	if (!mail || mail->type == JNODE_NULL)
		return bad(err, root, cfg->file, "mail", "%s", "is required");
	cfg->mail.user = cfg->build_user.name ? &cfg->build_user : NULL;
	return load_mail(mail, cfg->file, &cfg->mail, err);
}

/*
 * What the job loader would call a job file's trouble, said of a config:
 * one too big for a robot config (a few dozen lines) and one with nothing
 * in it but blanks and comments.
 */
static int config_text_ok(const char *path, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	const char *p;
	int ret = -1;

	/* a FIFO or a device is refused here, before the loader reads it */
	if (read_regular_file(&text, path, ROBOT_CONFIG_MAX, err) < 0) {
		if (errno == EFBIG)
			strbuf_addf(err, "%s:1: config: larger than %d KiB; a "
				    "robot config is repos:, jobs: and mail: in "
				    "a few lines (is it the right file?)", path,
				    ROBOT_CONFIG_MAX >> 10);
		goto out;
	}
	for (p = text.buf; *p; p++) {
		if (*p == '#')
			p = strchrnul(p, '\n');
		if (!*p)
			break;
		if (!isspace((unsigned char)*p) && strncmp(p, "---", 3))
			break;
		if (!strncmp(p, "---", 3))
			p += 2;
	}
	if (!*p) {
		strbuf_addf(err, "%s:1: config: the robot config is empty; it "
			    "needs repos:, jobs: and mail: (docs/robot.md)", path);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&text);
	return ret;
}

int robot_config_load(const char *path, struct robot_config *cfg,
		      struct strbuf *err)
{
	struct job **docs = NULL;
	struct strbuf dir = STRBUF_INIT;
	size_t ndocs = 0;
	char *abs;
	int ret = -1;

	memset(cfg, 0, sizeof(*cfg));
	cfg->file = xstrdup(path);
	if (!file_exists(path)) {
		strbuf_addf(err, "cannot open config '%s'", path);
		return -1;
	}
	if (config_text_ok(path, err) < 0 ||
	    job_read_file(path, &docs, &ndocs, err) < 0)
		return -1;
	/* a job file's `---` documents merge; a config's would only confuse */
	if (ndocs != 1) {
		strbuf_addf(err, "%s:1: config: one YAML document only (%zu found)",
			    path, ndocs);
		goto out;
	}
	abs = realpath(path, NULL);
	path_dirname(&dir, abs ? abs : path);
	free(abs);
	ret = check_config(docs[0]->root, cfg, dir.buf, err);
out:
	job_free_all(docs, ndocs);
	strbuf_release(&dir);
	return ret;
}

void robot_config_release(struct robot_config *cfg)
{
	size_t i, k;

	for (i = 0; i < cfg->nrepos; i++) {
		struct robot_repo *r = &cfg->repos[i];

		free(r->name);
		free(r->url);
		free(r->base);
		free(r->build);
		free(r->install);
		free(r->kernel);
		for (k = 0; k < r->nbranches; k++)
			free(r->branches[k]);
		free(r->branches);
	}
	free(cfg->repos);
	for (i = 0; i < cfg->njobs; i++) {
		free(cfg->jobs[i].job);
		free(cfg->jobs[i].name);
		free(cfg->jobs[i].testbox_group);
		free(cfg->jobs[i].testcase);
		free(cfg->jobs[i].kpi);
	}
	free(cfg->jobs);
	free(cfg->mail.to);
	free(cfg->mail.from);
	free(cfg->mail.mbox);
	free(cfg->mail.maildir);
	free(cfg->mail.sendmail);
	free(cfg->file);
	spawn_user_release(&cfg->build_user);
	memset(cfg, 0, sizeof(*cfg));
}

bool robot_branch_matches(const struct robot_repo *r, const char *branch)
{
	size_t i;

	/* no FNM_PATHNAME: "feature/STAR" matches feature/a/b too, as 0-day's
	 * branch lists do */
	for (i = 0; i < r->nbranches; i++)
		if (!fnmatch(r->branches[i], branch, 0))
			return true;
	return false;
}
