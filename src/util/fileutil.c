/*
 * fileutil.c: crash-safe files, directories and paths (see fileutil.h).
 */
#include "util/compat.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/fault.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * Each prefix of path in turn, as mkdir -p: EEXIST on the way is fine
 * (another process may make the same directory at the same moment: two
 * runs into one result root), but the whole path must end up a directory,
 * not a file of that name.
 */
int mkdir_p(const char *path, mode_t mode)
{
	char *p = xstrdup(path), *s;
	int ret = 0;

	for (s = p + 1; ; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;

			*s = '\0';
			if (mkdir(p, mode) < 0 && errno != EEXIST) {
				ret = -1;
				break;
			}
			*s = c;
			if (!c)
				break;
		}
	}
	if (!ret && !dir_exists(path)) {
		errno = ENOTDIR;
		ret = -1;
	}
	free(p);
	return ret;
}

/*
 * The checks are what makes a directory under a shared /tmp safe to use:
 * another user could have made it first (owner), made it a link to
 * somewhere else (O_NOFOLLOW), or left it writable to plant files in
 * (mode).  They are made on the opened directory, not on the name, so the
 * name cannot be swapped between check and use.
 */
int mkdir_private(const char *path, struct strbuf *why)
{
	struct stat st;
	int fd;

	if (mkdir(path, 0700) < 0 && errno != EEXIST) {
		strbuf_addf(why, "cannot create '%s': %s", path, strerror(errno));
		return -1;
	}
	/* O_NOFOLLOW: the checks are of the directory itself, not a link's target */
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		strbuf_addf(why, "'%s' %s", path, errno == ELOOP || errno == ENOTDIR ?
			    "is not a directory (a symbolic link?): refused" :
			    strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	if (st.st_uid != geteuid()) {
		strbuf_addf(why, "'%s' belongs to uid %ld, not to this user: refused",
			    path, (long)st.st_uid);
		return -1;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		strbuf_addf(why, "'%s' is writable by other users (mode %03o): refused",
			    path, (unsigned)(st.st_mode & 0777));
		return -1;
	}
	return 0;
}

/*
 * rm -rf without following links (lstat: a link is removed, never its
 * target) and without crossing into another file system, so a bind mount
 * or a mounted disk under a temporary tree is never emptied.  It goes on
 * after an error, to remove as much as it can, and says -1 at the end.
 */
int remove_tree(const char *path)
{
	struct stat st, top;
	DIR *d;
	struct dirent *de;
	struct strbuf sub = STRBUF_INIT;
	int ret = 0;

	if (lstat(path, &top) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(top.st_mode))
		return unlink(path);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		path_join(&sub, path, de->d_name);
		if (lstat(sub.buf, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode) && st.st_dev != top.st_dev)
			continue; /* a mount point: never descend */
		if (remove_tree(sub.buf) < 0)
			ret = -1;
	}
	closedir(d);
	strbuf_release(&sub);
	if (rmdir(path) < 0)
		ret = -1;
	return ret;
}

/*
 * A rename or a new file is durable only once its directory is: without
 * this, a crash just after write_file_atomic can lose the new name.
 */
int fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -1;
	ret = fsync(fd);
	close(fd);
	return ret;
}

int file_put(const char *path, int flags, mode_t mode, const void *buf,
	     size_t len, const uint64_t *size)
{
	int fd = open(path, flags | O_CLOEXEC, mode), ret = 0, saved;

	if (fd < 0)
		return -1;
	if ((len && write_all(fd, buf, len) < 0) ||
	    (size && ftruncate(fd, (off_t)*size) < 0))
		ret = -1;
	saved = errno; /* the error is the write's, never close()'s */
	close(fd);
	errno = saved;
	return ret;
}

int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* 0 for len > 0 is no progress: an error, not a loop */
			if (!n)
				errno = EIO;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * The temporaries of write_file_atomic() that a killed writer left
 * beside path (the third attack, K1: a run killed while it wrote a
 * group's stddev.json left stddev.json.tmp.XXXXXX there for ever).  Only
 * path's own ("<name>.tmp." and mkostemp's 6 characters), only regular
 * files of our user, only those older than WRITE_TMP_STALE_S, and only
 * when no one holds their flock: a live writer holds it from mkostemp
 * to after its rename, and the age covers the two calls between
 * mkostemp and flock.  Done after each write of path, so a group's next
 * index rebuild sweeps what the killed one left.
 */
#define WRITE_TMP_STALE_S 60
static void remove_stale_temps(const char *path, const char *ours)
{
	struct strbuf dir = STRBUF_INIT, prefix = STRBUF_INIT;
	struct dirent *de;
	struct stat st, fst;
	time_t now = time(NULL);
	DIR *d;
	int dfd, fd;

	path_dirname(&dir, path);
	strbuf_addf(&prefix, "%s.tmp.", path_basename(path));
	d = opendir(dir.buf);
	if (!d)
		goto out;
	dfd = dirfd(d);
	while ((de = readdir(d))) {
		const char *n = de->d_name;

		if (strncmp(n, prefix.buf, prefix.len) ||
		    strlen(n + prefix.len) != 6 ||
		    !strcmp(n, path_basename(ours)))
			continue;
		if (fstatat(dfd, n, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
		    now - st.st_mtime < WRITE_TMP_STALE_S)
			continue;
		fd = openat(dfd, n, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		/* the same file as looked at, and its writer gone */
		if (!fstat(fd, &fst) && fst.st_ino == st.st_ino &&
		    fst.st_dev == st.st_dev && !flock(fd, LOCK_EX | LOCK_NB))
			unlinkat(dfd, n, 0);
		close(fd);
	}
	closedir(d);
out:
	strbuf_release(&dir);
	strbuf_release(&prefix);
}

bool file_holds(const char *path, const void *data, size_t len)
{
	/* O_NONBLOCK: a FIFO put there must not block; it is no match */
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	bool same = false;
	char buf[8192];
	size_t at = 0;

	if (fd < 0)
		return false;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
	    (uint64_t)st.st_size != (uint64_t)len)
		goto out;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || (size_t)n > len - at ||
		    memcmp(buf, (const char *)data + at, (size_t)n))
			goto out;
		if (!n)
			break;
		at += (size_t)n;
	}
	same = at == len;
out:
	close(fd);
	return same;
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	struct strbuf tmp = STRBUF_INIT, dir = STRBUF_INIT;
	int fd, saved, ret = -1;

	/* the temporary name is in path's directory: rename() is atomic only
	 * within one file system, and a reader may be looking at path now */
	strbuf_addf(&tmp, "%s.tmp.XXXXXX", path);
	fd = mkostemp(tmp.buf, O_CLOEXEC);
	if (fd < 0)
		goto out;
	/*
	 * Held until the temporary has its final name: a sweep of stale
	 * temporaries (remove_stale_temps()) leaves a locked one alone.  A
	 * file system without flock keeps it too (an error here is no
	 * error of the write).
	 */
	(void)flock(fd, LOCK_EX | LOCK_NB);
	if (write_all(fd, data, len))
		goto fail;
	/* mkostemp makes it 0600; fsync before rename, so the new name never
	 * points at data still only in the page cache */
	if (fchmod(fd, 0644) < 0 || fsync(fd) < 0)
		goto fail;
#if FAULT_HOOKS_BUILT
	{
		/* PERFSIFT_FAULT=atomic-write:NAME: killed with NAME's temporary */
		struct strbuf point = STRBUF_INIT;

		strbuf_addf(&point, "atomic-write:%s", path_basename(path));
		fault_point(point.buf);
		strbuf_release(&point);
	}
#endif
	if (rename(tmp.buf, path) < 0)
		goto fail;
	/* after fsync, close() has no data left to lose: its error is moot */
	close(fd);
	fd = -1;
	path_dirname(&dir, path);
	fsync_dir(dir.buf);
	remove_stale_temps(path, tmp.buf);
	ret = 0;
	goto out;
fail:
	/* the old file is untouched; only the temporary goes */
	saved = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp.buf);
	errno = saved;
out:
	strbuf_release(&tmp);
	strbuf_release(&dir);
	return ret;
}

/* stat, not lstat: a link to a file counts as the file */
int file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

int dir_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * A /proc or /sys value: trimmed, because the kernel ends each with a
 * newline and some pad with spaces; the caller compares the text.
 */
int read_text_file(struct strbuf *sb, const char *path, size_t max)
{
	strbuf_reset(sb);
	if (strbuf_read_file(sb, path, max) < 0)
		return -1;
	strbuf_trim(sb);
	return 0;
}

const char *file_kind(mode_t mode)
{
	if (S_ISREG(mode))
		return "a regular file";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "no regular file";
}

/* open_regular(), its failure to open said "cannot VERB 'PATH': ..." */
static int open_regular_to(const char *path, const char *verb,
			   struct strbuf *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0) {
		int saved = errno;

		strbuf_addf(err, "cannot %s '%s': %s", verb, path,
			    strerror(saved));
		if (fd >= 0)
			close(fd);
		errno = saved;
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		strbuf_addf(err, "'%s' is %s, not a regular file", path,
			    file_kind(st.st_mode));
		close(fd);
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		return -1;
	}
	/* a regular file's reads never block: the flag only mattered for open */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int open_regular(const char *path, struct strbuf *err)
{
	return open_regular_to(path, "open", err);
}

FILE *fopen_regular(const char *path, struct strbuf *err)
{
	int fd = open_regular(path, err);
	FILE *fp;

	if (fd < 0)
		return NULL;
	fp = fdopen(fd, "r");
	if (!fp) {
		strbuf_addf(err, "cannot open '%s': %s", path, strerror(errno));
		close(fd);
	}
	return fp;
}

int read_regular_file(struct strbuf *sb, const char *path, size_t max,
		      struct strbuf *err)
{
	int fd = open_regular_to(path, "read", err), ret, saved;

	if (fd < 0)
		return -1;
	ret = strbuf_read_fd(sb, fd, max);
	saved = errno;
	close(fd);
	if (ret < 0 && saved != EFBIG)
		strbuf_addf(err, "cannot read '%s': %s", path, strerror(saved));
	errno = saved;
	return ret;
}

/*
 * dir + "/" + name with no doubled slash, whatever the user's paths end or
 * start with ("root/" and "/x"), so paths compare equal as strings in the
 * index; "/" itself keeps its slash.
 */
void path_join(struct strbuf *sb, const char *dir, const char *name)
{
	strbuf_reset(sb);
	strbuf_addstr(sb, dir);
	while (sb->len > 1 && sb->buf[sb->len - 1] == '/')
		strbuf_setlen(sb, sb->len - 1);
	while (*name == '/')
		name++;
	if (sb->len && sb->buf[sb->len - 1] != '/')
		strbuf_addch(sb, '/');
	strbuf_addstr(sb, name);
}

/* dirname(3) without its static buffer or its license to modify path */
void path_dirname(struct strbuf *sb, const char *path)
{
	const char *slash = strrchr(path, '/');

	strbuf_reset(sb);
	if (!slash)
		strbuf_addch(sb, '.');
	else if (slash == path)
		strbuf_addch(sb, '/');
	else
		strbuf_add(sb, path, (size_t)(slash - path));
}

const char *path_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}
