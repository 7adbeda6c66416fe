/*
 * fileutil.h: files and directories the crash-safe way.  A file that other
 * commands read is always written to a temporary name in the same
 * directory, fsync'd and renamed into place, so a reader sees the old file
 * or the new one, never half of one.
 */
#ifndef PERFSIFT_FILEUTIL_H
#define PERFSIFT_FILEUTIL_H

#include "util/compat.h"
#include <stdio.h>
#include <sys/types.h>

struct strbuf;

/* mkdir -p; 0 or -1 with errno */
int mkdir_p(const char *path, mode_t mode);
/*
 * A directory only this user can touch (a private working directory under
 * a shared /tmp): made with mode 0700, or, when it exists, accepted only
 * as a real directory (not a symbolic link) owned by the effective user
 * and writable by nobody else.  0, or -1 with why.
 */
int mkdir_private(const char *path, struct strbuf *why);
/* rm -rf (does not cross into other file systems' mount points); 0 / -1 */
int remove_tree(const char *path);
/*
 * All of buf to fd: write() again after a short write or EINTR (a pipe
 * takes at most its free space, a signal can cut a write short).  0, or
 * -1 with errno (EIO when write() returned 0).  The one loop of its kind.
 */
int write_all(int fd, const void *buf, size_t len);
/*
 * Open path (flags, O_CLOEXEC added; mode when it is created), write_all()
 * the len bytes of buf (none when len is 0), then, when size is not NULL,
 * set the file's size to *size; closed either way.  0, or -1 with errno
 * (what was done before the failure stays done).  For the one-step files
 * (a line appended to last_state, a sparse file of a size) that are not
 * worth write_file_atomic().
 */
int file_put(const char *path, int flags, mode_t mode, const void *buf,
	     size_t len, const uint64_t *size);
/*
 * write data to path atomically (tmp file + fsync + rename); 0 / -1.
 * A write also removes the temporaries of path that a killed writer
 * left (older than a minute, their flock free: never a live writer's).
 */
int write_file_atomic(const char *path, const void *data, size_t len);
/*
 * Whether path is a regular file (not a link: its own name) of exactly
 * the len bytes of data.  A rewrite of such a file changes nothing but
 * costs an fsync and a rename, and a run's files are rewritten whole by
 * every restat (push: once a run); anything that cannot be read is "no".
 */
bool file_holds(const char *path, const void *data, size_t len);
/* fsync a directory, so that a rename in it is durable */
int fsync_dir(const char *dir);
int file_exists(const char *path);
int dir_exists(const char *path);
/* read a small text file (a /proc or /sys value) into sb, trimmed; 0 / -1 */
int read_text_file(struct strbuf *sb, const char *path, size_t max);
/*
 * Open path to read it, and only when it is a regular file: opened with
 * O_NONBLOCK (taken off once open), so a FIFO never blocks, then fstat()
 * -- a FIFO, a device, a socket or a directory where perfsift reads a
 * file (a job, a robot config or its job:, a CSV, a plug-in's files)
 * blocked for ever or read without end (the fourth attack, L14).  The
 * descriptor (O_CLOEXEC), or -1 with errno set and err appended
 * ("cannot open 'PATH': ..." or "'PATH' is a FIFO, not a regular file").
 */
int open_regular(const char *path, struct strbuf *err);
/* what a file of st_mode mode is, for a message: "a FIFO", "a directory"... */
const char *file_kind(mode_t mode);
/*
 * strbuf_read_file() of a regular file only (open_regular()): 0, or -1
 * with errno set (EFBIG: larger than max, err left empty for the caller's
 * own message) and else err appended ("cannot read 'PATH': ...", or what
 * open_regular() says of a file that is no regular one).
 */
int read_regular_file(struct strbuf *sb, const char *path, size_t max,
		      struct strbuf *err);
/* open_regular() as a stream to read: NULL with err appended */
FILE *fopen_regular(const char *path, struct strbuf *err);
/* join dir and name with exactly one slash into sb (sb is reset first) */
void path_join(struct strbuf *sb, const char *dir, const char *name);
/* the directory part of path into sb ("." if none) */
void path_dirname(struct strbuf *sb, const char *path);
/* pointer to the last component of path */
const char *path_basename(const char *path);

#endif
