/*
 * knob.c: kernel knobs with a machine-wide, crash-proof undo journal
 * (see knob.h and docs/design.md "Kernel knobs").
 *
 * The journal <dir>/journal has one line per (perfsift process, knob):
 *   <pid> TAB <start time> TAB <file> TAB <original> TAB <applied> LF
 * (fields escaped: \t \n \\).  <file> is the full path written, sysroot
 * included, so a restore never depends on the restorer's sysroot.  Every
 * line of one file carries the same <original>: the value the first user
 * found; later users inherit it.  The journal is only ever replaced as a
 * whole (write to a temporary file, fsync, rename, fsync the directory),
 * under an flock on <dir>/journal.lock held for the whole read-modify-
 * write including the knob write itself, so the knob and its journal
 * never disagree in a way a restore could not repair: a line is in the
 * journal before its knob changes, and leaves it only after the original
 * is back (or another live user still needs the knob changed).
 * A process is told apart from a later one with a reused pid by its
 * start time (field 22 of /proc/<pid>/stat).
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "setup/knob.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/xalloc.h"

#define JOURNAL "journal"
#define JOURNAL_LOCK "journal.lock"
#define KNOB_MAX (64 * 1024)

struct knob_saved {
	char *file;    /* full path (sysroot included) */
	char *path;    /* as the caller named it (for the run's record) */
	char *orig;    /* the original value (the first user's) */
	char *applied; /* what this process wrote last */
};

struct journal_line {
	long pid;
	unsigned long long start;
	char *file, *orig, *applied;
	bool drop; /* leaves the journal at the next save */
};

struct journal {
	struct journal_line *l;
	size_t n, alloc;
};

/*
 * Process-wide state: knob.h's interface is a set of plain functions, and
 * die() (through the die hook) must be able to restore.
 */
static char *knob_sysroot;
static struct knob_saved *saved;
static size_t nr_saved, alloc_saved;
static pid_t self_pid;             /* the process the knobs belong to */
static unsigned long long self_start;
static int lock_fd = -1;           /* the journal's flock while held */

void knob_journal_dir(struct strbuf *out)
{
	const char *env = getenv("PERFSIFT_KNOB_DIR");

	strbuf_reset(out);
	if (env && *env)
		strbuf_addstr(out, env);
	else if (geteuid() == 0)
		strbuf_addstr(out, "/run/perfsift");
	else if ((env = getenv("XDG_RUNTIME_DIR")) && *env)
		strbuf_addf(out, "%s/perfsift", env);
	else
		strbuf_addf(out, "/tmp/perfsift-knobs-%ld", (long)geteuid());
}

/*
 * A knob's value may hold a tab or a newline (a cpulist, a multi-line
 * sysfs file): escaped, the journal stays one line per entry whatever it
 * holds, and a restore writes back exactly what was read.
 */
static void escape_field(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\t')
			strbuf_addstr(out, "\\t");
		else if (*s == '\n')
			strbuf_addstr(out, "\\n");
		else if (*s == '\\')
			strbuf_addstr(out, "\\\\");
		else
			strbuf_addch(out, *s);
	}
}

static char *unescape_field(const char *s, size_t len)
{
	struct strbuf out = STRBUF_INIT;
	size_t i;

	for (i = 0; i < len; i++) {
		if (s[i] == '\\' && i + 1 < len) {
			i++;
			strbuf_addch(&out, s[i] == 't' ? '\t' : s[i] == 'n' ? '\n' : s[i]);
		} else {
			strbuf_addch(&out, s[i]);
		}
	}
	return strbuf_detach(&out, NULL);
}

/* field 22 of /proc/<pid>/stat: start time in clock ticks since boot */
static int proc_start_time(pid_t pid, unsigned long long *start)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	const char *p;
	int field, ret = -1;

	strbuf_addf(&path, "/proc/%ld/stat", (long)pid);
	if (strbuf_read_file(&sb, path.buf, 8192) < 0)
		goto out;
	p = strrchr(sb.buf, ')'); /* comm may hold spaces and parens */
	if (!p)
		goto out;
	p++;
	/* after ')' comes field 3 (state); skip to field 22 */
	for (field = 2; field < 22 && *p; field++) {
		while (*p == ' ')
			p++;
		if (field < 21)
			while (*p && *p != ' ')
				p++;
	}
	if (sscanf(p, "%llu", start) == 1)
		ret = 0;
out:
	strbuf_release(&sb);
	strbuf_release(&path);
	return ret;
}

/*
 * Who "we" are, asked again after a fork: a benchmark's child that
 * inherits the knob state must not take the parent's journal lines for
 * its own (knob_restore_all checks the pid for the same reason).
 */
static void self_identify(void)
{
	if (self_pid == getpid())
		return;
	self_pid = getpid();
	self_start = 0;
	proc_start_time(self_pid, &self_start);
}

static bool is_self(const struct journal_line *l)
{
	return l->pid == (long)self_pid && l->start == self_start;
}

/*
 * A line's owner is alive when its pid exists with the same start time:
 * a pid reused by an unrelated process after a crash must not keep a
 * knob changed for ever.  When the start time cannot be read the process
 * is taken for the owner, since restoring under a live run would change
 * its measurement.
 */
static bool owner_alive(const struct journal_line *l)
{
	unsigned long long now;

	if (kill((pid_t)l->pid, 0) < 0 && errno == ESRCH)
		return false;
	if (proc_start_time((pid_t)l->pid, &now) < 0)
		return true; /* exists but unreadable: assume it is the owner */
	return now == l->start;
}

/*
 * Take the journal's flock (creating the directory when create).  1 when
 * taken, 0 when this process already holds it (die() inside a locked
 * section), -1 with errno.
 */
static int journal_lock(bool create)
{
	struct strbuf path = STRBUF_INIT;
	int fd;

	if (lock_fd >= 0)
		return 0;
	knob_journal_dir(&path);
	if (create && mkdir_p(path.buf, 0700) < 0) {
		strbuf_release(&path);
		return -1;
	}
	strbuf_addstr(&path, "/" JOURNAL_LOCK);
	fd = open(path.buf, O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0), 0600);
	strbuf_release(&path);
	if (fd < 0)
		return -1;
	while (flock(fd, LOCK_EX) < 0) {
		if (errno != EINTR) {
			close(fd);
			return -1;
		}
	}
	lock_fd = fd;
	return 1;
}

static void journal_unlock(int taken)
{
	if (taken > 0 && lock_fd >= 0) {
		close(lock_fd); /* drops the flock */
		lock_fd = -1;
	}
}

static void journal_path(struct strbuf *out)
{
	knob_journal_dir(out);
	strbuf_addstr(out, "/" JOURNAL);
}

static void journal_release(struct journal *j)
{
	size_t i;

	for (i = 0; i < j->n; i++) {
		free(j->l[i].file);
		free(j->l[i].orig);
		free(j->l[i].applied);
	}
	free(j->l);
	memset(j, 0, sizeof(*j));
}

static struct journal_line *journal_add(struct journal *j, long pid,
					unsigned long long start,
					const char *file, const char *orig,
					const char *applied)
{
	struct journal_line *l;

	ALLOC_GROW(j->l, j->n + 1, j->alloc);
	l = &j->l[j->n++];
	l->pid = pid;
	l->start = start;
	l->file = xstrdup(file);
	l->orig = xstrdup(orig);
	l->applied = xstrdup(applied);
	l->drop = false;
	return l;
}

/* parse the journal text; malformed lines are dropped with a warning */
static void journal_parse(const char *text, struct journal *j)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchrnul(p, '\n');
		const char *t[4] = {NULL, NULL, NULL, NULL};
		const char *q = p;
		long pid;
		unsigned long long start;
		int k;

		for (k = 0; k < 4 && q; k++) {
			q = memchr(q, '\t', (size_t)(nl - q));
			t[k] = q;
			if (q)
				q++;
		}
		if (t[3] && sscanf(p, "%ld\t%llu\t", &pid, &start) == 2) {
			char *file = unescape_field(t[1] + 1, (size_t)(t[2] - t[1] - 1));
			char *orig = unescape_field(t[2] + 1, (size_t)(t[3] - t[2] - 1));
			char *applied = unescape_field(t[3] + 1, (size_t)(nl - t[3] - 1));

			journal_add(j, pid, start, file, orig, applied);
			free(file);
			free(orig);
			free(applied);
		} else if (nl > p) {
			warning("knob journal: ignoring a malformed line");
		}
		p = *nl ? nl + 1 : nl;
	}
}

static int journal_load(struct journal *j)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int ret = 0;

	memset(j, 0, sizeof(*j));
	journal_path(&path);
	if (strbuf_read_file(&text, path.buf, 0) < 0) {
		if (errno != ENOENT)
			ret = error_errno("cannot read the knob journal '%s'",
					  path.buf);
	} else {
		journal_parse(text.buf, j);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

/* replace the journal atomically by its lines not marked drop; unlink it when none */
static int journal_save(const struct journal *j)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	size_t i;
	int ret;

	for (i = 0; i < j->n; i++) {
		const struct journal_line *l = &j->l[i];

		if (l->drop)
			continue;
		strbuf_addf(&text, "%ld\t%llu\t", l->pid, l->start);
		escape_field(&text, l->file);
		strbuf_addch(&text, '\t');
		escape_field(&text, l->orig);
		strbuf_addch(&text, '\t');
		escape_field(&text, l->applied);
		strbuf_addch(&text, '\n');
	}
	journal_path(&path);
	if (text.len)
		ret = write_file_atomic(path.buf, text.buf, text.len);
	else
		ret = unlink(path.buf) < 0 && errno != ENOENT ? -1 : 0;
	if (ret < 0)
		error_errno("cannot write the knob journal '%s'", path.buf);
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

static void real_path(struct strbuf *sb, const char *path)
{
	path_join(sb, knob_sysroot ? knob_sysroot : "/", path);
}

/*
 * The trees a knob may live in.  A job names knobs (sysctl's sc_NAME), so
 * as root a name that led elsewhere -- "../../../etc/passwd", or a
 * symbolic link out of a test sysroot -- would write any file.
 */
static const char *const knob_trees[] = {
	"/proc/sys/", "/sys/kernel/mm/", "/sys/devices/system/cpu/",
};

int knob_check(const char *path, struct strbuf *err)
{
	struct strbuf file = STRBUF_INIT, tree = STRBUF_INIT;
	const char *t = NULL, *p;
	char *rfile = NULL, *rtree = NULL;
	struct stat st;
	size_t i, len;
	int ret = -1;

	for (i = 0; i < ARRAY_SIZE(knob_trees) && !t; i++)
		if (!strncmp(path, knob_trees[i], strlen(knob_trees[i])))
			t = knob_trees[i];
	if (!t) {
		strbuf_addf(err, "'%s' is not a kernel knob (not under /proc/sys, "
			    "/sys/kernel/mm or /sys/devices/system/cpu)", path);
		goto out;
	}
	for (p = path + 1; *p; p += len + (p[len] == '/')) {
		len = strcspn(p, "/");
		if (!len || (len == 1 && p[0] == '.') ||
		    (len == 2 && p[0] == '.' && p[1] == '.')) {
			strbuf_addf(err, "'%s': a knob's path has no empty, '.' or '..' part",
				    path);
			goto out;
		}
	}
	real_path(&file, path);
	real_path(&tree, t);
	if (lstat(file.buf, &st) < 0 || !(rfile = realpath(file.buf, NULL)) ||
	    !(rtree = realpath(tree.buf, NULL))) {
		strbuf_addf(err, "cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	len = strlen(rtree);
	if (S_ISLNK(st.st_mode) || strncmp(rfile, rtree, len) || rfile[len] != '/') {
		strbuf_addf(err, "'%s' is a symbolic link out of %s (to '%s'): refused",
			    path, t, rfile);
		goto out;
	}
	ret = 0;
out:
	free(rfile);
	free(rtree);
	strbuf_release(&file);
	strbuf_release(&tree);
	return ret;
}

static void die_hook(void)
{
	knob_restore_all();
}

void knob_init(const char *sysroot)
{
	if (nr_saved)
		knob_restore_all();
	free(knob_sysroot);
	knob_sysroot = xstrdup(sysroot && *sysroot ? sysroot : "/");
	usage_set_die_hook(die_hook);
}

/*
 * (The bracketed word is what a THP-style knob is set to; the whole line
 * would not be a value it accepts back.)
 */
static int read_knob_file(const char *file, struct strbuf *value)
{
	const char *open_br, *close_br;

	if (read_text_file(value, file, KNOB_MAX) < 0)
		return -1;
	/* THP style "always [madvise] never": the selected word */
	open_br = strchr(value->buf, '[');
	close_br = open_br ? strchr(open_br, ']') : NULL;
	if (open_br && close_br) {
		size_t n = (size_t)(close_br - open_br - 1);

		memmove(value->buf, open_br + 1, n);
		strbuf_setlen(value, n);
	}
	return 0;
}

int knob_get(const char *path, struct strbuf *value)
{
	struct strbuf file = STRBUF_INIT, why = STRBUF_INIT;
	int ret;

	if (knob_check(path, &why) < 0) {
		strbuf_release(&why);
		errno = EPERM;
		return -1;
	}
	strbuf_release(&why);
	real_path(&file, path);
	ret = read_knob_file(file.buf, value);
	strbuf_release(&file);
	return ret;
}

static int write_knob_file(const char *file, const char *value)
{
	struct strbuf sb = STRBUF_INIT;
	int fd, ret = -1, saved_errno;

	/* knob_check() refused a link as the knob itself; no race makes one */
	fd = open(file, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	strbuf_addstr(&sb, value);
	strbuf_addch(&sb, '\n');
	/* one write: sysfs and procfs take a value in a single write() */
	if (write(fd, sb.buf, sb.len) == (ssize_t)sb.len)
		ret = 0;
	saved_errno = errno;
	if (close(fd) < 0 && !ret) {
		saved_errno = errno;
		ret = -1;
	}
	strbuf_release(&sb);
	errno = saved_errno;
	return ret;
}

static struct knob_saved *find_saved(const char *file)
{
	size_t i;

	for (i = 0; i < nr_saved; i++)
		if (!strcmp(saved[i].file, file))
			return &saved[i];
	return NULL;
}

/*
 * This process's own list, beside the journal: what it changed, to
 * restore at exit or die() without reading the journal's every line, and
 * to record in the run (knob_applied) the knobs it ran under.
 */
static void remember(const char *file, const char *path, const char *orig,
		     const char *applied)
{
	struct knob_saved *s = find_saved(file);

	if (!s) {
		ALLOC_GROW(saved, nr_saved + 1, alloc_saved);
		s = &saved[nr_saved++];
		s->file = xstrdup(file);
		s->path = xstrdup(path);
		s->orig = xstrdup(orig);
		s->applied = NULL;
	}
	free(s->applied);
	s->applied = xstrdup(applied);
}

/*
 * The order is the crash-safety: check the knob, lock, read the journal,
 * add our line (with the first user's original), save the journal, and
 * only then write the knob.  A crash at any point leaves a journal that
 * a later perfsift can restore from.  Two live runs asking one knob for
 * different values is an error, not a last-writer-wins: one of them
 * would measure under a setting it did not ask for.
 */
int knob_set(const char *path, const char *value, struct strbuf *err)
{
	struct strbuf file = STRBUF_INIT, cur = STRBUF_INIT, dir = STRBUF_INIT;
	struct journal j = {0};
	struct journal_line *own = NULL;
	const char *orig = NULL;
	size_t i;
	int taken, ret = -1;

	if (!knob_sysroot)
		BUG("knob_set() before knob_init()");
	self_identify();
	if (knob_check(path, err) < 0)
		return -1;
	real_path(&file, path);
	if (read_knob_file(file.buf, &cur) < 0) {
		strbuf_addf(err, "cannot read '%s': %s", path, strerror(errno));
		goto out_nolock;
	}
	knob_journal_dir(&dir);
	taken = journal_lock(true);
	if (taken < 0) {
		strbuf_addf(err, "cannot lock the knob journal in '%s': %s",
			    dir.buf, strerror(errno));
		goto out_nolock;
	}
	if (journal_load(&j) < 0) {
		strbuf_addf(err, "cannot read the knob journal in '%s'", dir.buf);
		goto out;
	}
	for (i = 0; i < j.n; i++) {
		struct journal_line *l = &j.l[i];

		if (strcmp(l->file, file.buf))
			continue;
		orig = l->orig; /* every line of a file has the first user's */
		if (is_self(l)) {
			own = l;
		} else if (!owner_alive(l)) {
			l->drop = true; /* a killed user: we take its place */
		} else if (strcmp(l->applied, value)) {
			/* two runs measuring under different settings: refuse */
			strbuf_addf(err, "'%s' is held at '%s' by another perfsift (pid %ld, still running)",
				    path, l->applied, l->pid);
			goto out;
		}
	}
	if (!orig)
		orig = cur.buf; /* the first user: what the machine had */
	if (own) {
		free(own->applied);
		own->applied = xstrdup(value);
	} else {
		own = journal_add(&j, (long)self_pid, self_start, file.buf, orig, value);
	}
	orig = own->orig;
	if (journal_save(&j) < 0) {
		strbuf_addf(err, "cannot write the knob journal in '%s'", dir.buf);
		goto out;
	}
	remember(file.buf, path, orig, value);
	if (write_knob_file(file.buf, value) < 0) {
		/* the journal line stays: the restore writes the original, harmless */
		strbuf_addf(err, "cannot write '%s' to '%s': %s", value, path,
			    strerror(errno));
		goto out;
	}
	ret = 0;
out:
	journal_unlock(taken);
	journal_release(&j);
out_nolock:
	strbuf_release(&file);
	strbuf_release(&cur);
	strbuf_release(&dir);
	return ret;
}

void knob_applied(struct strbuf *out)
{
	size_t i;

	for (i = 0; i < nr_saved; i++)
		strbuf_addf(out, "%s %s -> %s\n", saved[i].path, saved[i].orig,
			    saved[i].applied);
}

static void forget_saved(void)
{
	size_t i;

	for (i = 0; i < nr_saved; i++) {
		free(saved[i].file);
		free(saved[i].path);
		free(saved[i].orig);
		free(saved[i].applied);
	}
	nr_saved = 0;
}

/*
 * file's users are going: mark the lines of dead users (and ours when
 * mine) dropped.  True when a running perfsift other than us still uses
 * the knob; *orig is then the journal's original (NULL when no line).
 */
static bool release_file(struct journal *j, const char *file, bool mine,
			 const char **orig, long *holder)
{
	bool live = false;
	size_t i;

	*orig = NULL;
	for (i = 0; i < j->n; i++) {
		struct journal_line *l = &j->l[i];

		if (l->drop || strcmp(l->file, file))
			continue;
		*orig = l->orig;
		if (is_self(l) ? mine : !owner_alive(l)) {
			l->drop = true;
		} else {
			live = true;
			*holder = l->pid;
		}
	}
	return live;
}

/*
 * At exit, die() or the end of a run: each knob this process changed goes
 * back to its original, newest change first, unless another live
 * perfsift still holds it (then the last user restores it).
 */
int knob_restore_all(void)
{
	struct journal j = {0};
	size_t i;
	int taken, ret = 0;

	if (!nr_saved)
		return 0;
	if (self_pid != getpid()) {
		/* a forked child (a benchmark's die()): the knobs are its parent's */
		forget_saved();
		return 0;
	}
	taken = journal_lock(true);
	if (taken < 0 || journal_load(&j) < 0) {
		/* no journal to consult: putting the values back is the safer error */
		ret = error_errno("cannot use the knob journal: restoring regardless");
		for (i = nr_saved; i-- > 0;)
			write_knob_file(saved[i].file, saved[i].orig);
		goto out;
	}
	for (i = nr_saved; i-- > 0;) {
		const char *orig;
		long holder = 0;

		if (release_file(&j, saved[i].file, true, &orig, &holder))
			continue; /* the last user restores it */
		if (write_knob_file(saved[i].file, orig ? orig : saved[i].orig) < 0)
			ret = error_errno("cannot restore '%s' to '%s'",
					  saved[i].file, orig ? orig : saved[i].orig);
	}
	if (journal_save(&j) < 0)
		ret = -1;
out:
	journal_unlock(taken);
	journal_release(&j);
	forget_saved();
	return ret;
}

/* an earlier line names the same file (one decision per knob) */
static bool seen_before(const struct journal *j, size_t i)
{
	size_t k;

	for (k = 0; k < i; k++)
		if (!strcmp(j->l[k].file, j->l[i].file))
			return true;
	return false;
}

/*
 * Repair after a crash, before any command runs (main.c) and by
 * `perfsift restore`: the knobs of users that are gone are put back to
 * their originals, each knob once, and those of live users are left
 * alone.  Returns how many were restored.
 */
int knob_restore_journal(bool verbose)
{
	struct strbuf path = STRBUF_INIT;
	struct journal j = {0};
	size_t i;
	int taken = -1, restored = 0, ret = -1;

	/* the common case: no journal, nothing to lock or create */
	journal_path(&path);
	if (access(path.buf, F_OK) < 0) {
		ret = 0;
		goto out;
	}
	self_identify();
	taken = journal_lock(false);
	if (taken < 0) {
		error_errno("cannot lock the knob journal '%s'", path.buf);
		goto out;
	}
	if (journal_load(&j) < 0)
		goto out;
	for (i = 0; i < j.n; i++) {
		struct journal_line *l = &j.l[i];
		char *file, *orig;
		long pid = l->pid, holder = 0;
		const char *o;

		if (l->drop || seen_before(&j, i))
			continue;
		file = xstrdup(l->file);
		if (release_file(&j, file, false, &o, &holder)) {
			if (verbose)
				note("'%s' is used by perfsift pid %ld, still running: left alone",
				     file, holder);
			free(file);
			continue;
		}
		orig = xstrdup(o);
		if (write_knob_file(file, orig) < 0) {
			error_errno("cannot restore '%s' to '%s'", file, orig);
		} else {
			restored++;
			note("restored '%s' to '%s' (left changed by perfsift pid %ld)",
			     file, orig, pid);
		}
		free(file);
		free(orig);
	}
	if (journal_save(&j) < 0)
		goto out;
	ret = restored;
out:
	journal_unlock(taken);
	journal_release(&j);
	strbuf_release(&path);
	return ret;
}
