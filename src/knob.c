/*
 * knob.c: kernel knobs with a crash-proof undo log (see knob.h).
 *
 * The journal <result_root>/.knobs-journal has one line per saved knob:
 *   <pid> TAB <process start time> TAB <file> TAB <saved value> LF
 * (fields escaped: \t \n \\).  <file> is the full path written, sysroot
 * included, so a restore never depends on the sysroot of the command that
 * restores.  A line is appended and fsync'd BEFORE the knob changes; the
 * owner removes its lines once it has restored them.  Lines whose owner
 * (pid + start time, so a reused pid is told apart) is gone are what a
 * killed perfsift left: knob_restore_journal() puts those values back.
 * Every journal access holds an flock on <root>/.knobs-journal.lock.
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
#include "knob.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/xalloc.h"

#define JOURNAL ".knobs-journal"
#define JOURNAL_LOCK ".knobs-journal.lock"
#define KNOB_MAX (64 * 1024)

struct knob_saved {
	char *file;  /* full path (sysroot included) */
	char *value; /* value found before the first change */
};

/*
 * Process-wide state: knob.h's interface is a set of plain functions, and
 * die() (through the die hook) must be able to restore.
 */
static char *knob_root;
static char *knob_sysroot;
static struct knob_saved *saved;
static size_t nr_saved, alloc_saved;

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

static int lock_journal(const char *root)
{
	struct strbuf path = STRBUF_INIT;
	int fd;

	path_join(&path, root, JOURNAL_LOCK);
	fd = open(path.buf, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0 && flock(fd, LOCK_EX) < 0) {
		close(fd);
		fd = -1;
	}
	strbuf_release(&path);
	return fd;
}

static void unlock_journal(int fd)
{
	if (fd >= 0)
		close(fd); /* drops the flock */
}

static void real_path(struct strbuf *sb, const char *path)
{
	path_join(sb, knob_sysroot ? knob_sysroot : "/", path);
}

static void die_hook(void)
{
	knob_restore_all();
}

void knob_init(const char *result_root, const char *sysroot)
{
	if (nr_saved)
		knob_restore_all();
	free(knob_root);
	free(knob_sysroot);
	knob_root = xstrdup(result_root);
	knob_sysroot = xstrdup(sysroot && *sysroot ? sysroot : "/");
	usage_set_die_hook(die_hook);
}

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
	struct strbuf file = STRBUF_INIT;
	int ret;

	real_path(&file, path);
	ret = read_knob_file(file.buf, value);
	strbuf_release(&file);
	return ret;
}

static int write_knob_file(const char *file, const char *value)
{
	struct strbuf sb = STRBUF_INIT;
	int fd, ret = -1, saved_errno;

	fd = open(file, O_WRONLY | O_TRUNC | O_CLOEXEC);
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

struct journal_line {
	long pid;
	unsigned long long start;
	char *file;
	char *value;
	char *text; /* the line as read, for rewriting */
};

static void journal_lines_free(struct journal_line *l, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(l[i].file);
		free(l[i].value);
		free(l[i].text);
	}
	free(l);
}

/* parse the journal text; malformed lines are dropped with a warning */
static void journal_parse(const char *text, struct journal_line **out,
			  size_t *n)
{
	size_t alloc = 0;
	const char *p = text;

	*out = NULL;
	*n = 0;
	while (*p) {
		const char *nl = strchrnul(p, '\n');
		const char *t1 = memchr(p, '\t', (size_t)(nl - p));
		const char *t2 = t1 ? memchr(t1 + 1, '\t', (size_t)(nl - t1 - 1)) : NULL;
		const char *t3 = t2 ? memchr(t2 + 1, '\t', (size_t)(nl - t2 - 1)) : NULL;
		struct journal_line l;

		if (t3 && sscanf(p, "%ld\t%llu\t", &l.pid, &l.start) == 2) {
			l.file = unescape_field(t2 + 1, (size_t)(t3 - t2 - 1));
			l.value = unescape_field(t3 + 1, (size_t)(nl - t3 - 1));
			l.text = xstrndup(p, (size_t)(nl - p));
			ALLOC_GROW(*out, *n + 1, alloc);
			(*out)[(*n)++] = l;
		} else if (nl > p) {
			warning("knob journal: ignoring a malformed line");
		}
		p = *nl ? nl + 1 : nl;
	}
}

static bool owner_alive(long pid, unsigned long long start)
{
	unsigned long long now;

	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		return false;
	if (proc_start_time((pid_t)pid, &now) < 0)
		return true; /* exists but unreadable: assume it is the owner */
	return now == start;
}

/* rewrite the journal keeping lines where keep[i]; unlink it when empty */
static int journal_rewrite(const char *root, struct journal_line *l, size_t n,
			   const bool *keep)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	size_t i;
	int ret;

	for (i = 0; i < n; i++)
		if (keep[i]) {
			strbuf_addstr(&text, l[i].text);
			strbuf_addch(&text, '\n');
		}
	path_join(&path, root, JOURNAL);
	if (text.len)
		ret = write_file_atomic(path.buf, text.buf, text.len);
	else
		ret = unlink(path.buf) < 0 && errno != ENOENT ? -1 : 0;
	if (ret < 0)
		error_errno("cannot rewrite the knob journal '%s'", path.buf);
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

static int journal_load(const char *root, struct journal_line **l, size_t *n)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int ret = 0;

	*l = NULL;
	*n = 0;
	path_join(&path, root, JOURNAL);
	if (strbuf_read_file(&text, path.buf, 0) < 0) {
		if (errno != ENOENT)
			ret = error_errno("cannot read the knob journal '%s'",
					  path.buf);
	} else {
		journal_parse(text.buf, l, n);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

static int journal_append(const char *file, const char *value,
			  struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, line = STRBUF_INIT;
	unsigned long long start = 0;
	struct journal_line *l = NULL;
	size_t n = 0, i;
	int lock = -1, fd = -1, ret = -1;

	if (mkdir_p(knob_root, 0755) < 0) {
		strbuf_addf(err, "cannot create '%s': %s", knob_root,
			    strerror(errno));
		goto out;
	}
	lock = lock_journal(knob_root);
	path_join(&path, knob_root, JOURNAL);
	if (lock < 0) {
		strbuf_addf(err, "cannot lock the knob journal in '%s': %s",
			    knob_root, strerror(errno));
		goto out;
	}
	proc_start_time(getpid(), &start);
	/*
	 * Two perfsift runs changing one knob would restore each other's
	 * values, and the last to finish would leave it changed: refuse.
	 */
	if (journal_load(knob_root, &l, &n) < 0) {
		strbuf_addf(err, "cannot read the knob journal in '%s'", knob_root);
		goto out;
	}
	for (i = 0; i < n; i++)
		if (!strcmp(l[i].file, file) &&
		    !(l[i].pid == (long)getpid() && l[i].start == start) &&
		    owner_alive(l[i].pid, l[i].start)) {
			strbuf_addf(err, "'%s' is being changed by another perfsift (pid %ld, still running)",
				    file, l[i].pid);
			goto out;
		}
	strbuf_addf(&line, "%ld\t%llu\t", (long)getpid(), start);
	escape_field(&line, file);
	strbuf_addch(&line, '\t');
	escape_field(&line, value);
	strbuf_addch(&line, '\n');
	fd = open(path.buf, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, line.buf, line.len) != (ssize_t)line.len ||
	    fsync(fd) < 0) {
		strbuf_addf(err, "cannot write the knob journal '%s': %s",
			    path.buf, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	unlock_journal(lock);
	journal_lines_free(l, n);
	strbuf_release(&path);
	strbuf_release(&line);
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

int knob_set(const char *path, const char *value, struct strbuf *err)
{
	struct strbuf file = STRBUF_INIT, old = STRBUF_INIT;
	int ret = -1;

	if (!knob_root)
		BUG("knob_set() before knob_init()");
	real_path(&file, path);
	if (!find_saved(file.buf)) {
		if (read_knob_file(file.buf, &old) < 0) {
			strbuf_addf(err, "cannot read '%s': %s", path,
				    strerror(errno));
			goto out;
		}
		if (journal_append(file.buf, old.buf, err) < 0)
			goto out;
		ALLOC_GROW(saved, nr_saved + 1, alloc_saved);
		saved[nr_saved].file = strbuf_detach(&file, NULL);
		saved[nr_saved].value = strbuf_detach(&old, NULL);
		nr_saved++;
		real_path(&file, path);
	}
	if (write_knob_file(file.buf, value) < 0) {
		strbuf_addf(err, "cannot write '%s' to '%s': %s", value, path,
			    strerror(errno));
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&file);
	strbuf_release(&old);
	return ret;
}

int knob_restore_all(void)
{
	struct journal_line *l = NULL;
	bool *keep = NULL;
	size_t n = 0, i;
	int lock, ret = 0;
	unsigned long long start = 0;

	/* newest first, so a knob set twice ends at its first saved value */
	for (i = nr_saved; i-- > 0;) {
		if (write_knob_file(saved[i].file, saved[i].value) < 0)
			ret = error_errno("cannot restore '%s' to '%s'",
					  saved[i].file, saved[i].value);
		free(saved[i].file);
		free(saved[i].value);
	}
	if (!nr_saved)
		return 0;
	nr_saved = 0;

	/* our values are back: drop our lines from the journal */
	lock = lock_journal(knob_root);
	if (lock < 0)
		return error_errno("cannot lock the knob journal in '%s'", knob_root);
	if (journal_load(knob_root, &l, &n) < 0) {
		ret = -1;
		goto out;
	}
	proc_start_time(getpid(), &start);
	keep = xcalloc(n ? n : 1, sizeof(*keep));
	for (i = 0; i < n; i++)
		keep[i] = !(l[i].pid == (long)getpid() && l[i].start == start);
	if (journal_rewrite(knob_root, l, n, keep) < 0)
		ret = -1;
out:
	unlock_journal(lock);
	journal_lines_free(l, n);
	free(keep);
	return ret;
}

int knob_restore_journal(const char *result_root, bool verbose)
{
	struct strbuf path = STRBUF_INIT;
	struct journal_line *l = NULL;
	bool *keep = NULL;
	size_t n = 0, i;
	int lock = -1, restored = 0, ret = -1;

	/* the common case: no journal, nothing to lock or create */
	path_join(&path, result_root, JOURNAL);
	if (access(path.buf, F_OK) < 0) {
		ret = 0;
		goto out;
	}
	lock = lock_journal(result_root);
	if (lock < 0) {
		error_errno("cannot lock the knob journal in '%s'", result_root);
		goto out;
	}
	if (journal_load(result_root, &l, &n) < 0)
		goto out;
	keep = xcalloc(n ? n : 1, sizeof(*keep));
	for (i = 0; i < n; i++)
		keep[i] = owner_alive(l[i].pid, l[i].start);
	/* newest first: a knob saved twice ends at its oldest value */
	for (i = n; i-- > 0;) {
		if (keep[i]) {
			if (verbose)
				note("'%s' belongs to perfsift pid %ld, still running: left alone",
				     l[i].file, l[i].pid);
			continue;
		}
		if (write_knob_file(l[i].file, l[i].value) < 0) {
			error_errno("cannot restore '%s' to '%s'", l[i].file,
				    l[i].value);
			continue;
		}
		restored++;
		note("restored '%s' to '%s' (left changed by perfsift pid %ld)",
		     l[i].file, l[i].value, l[i].pid);
	}
	if (journal_rewrite(result_root, l, n, keep) < 0)
		goto out;
	ret = restored;
out:
	unlock_journal(lock);
	journal_lines_free(l, n);
	free(keep);
	strbuf_release(&path);
	return ret;
}
