/*
 * drop_caches.c: the drop_caches setup program: sync, then write 3 (or
 * the job's value) to /proc/sys/vm/drop_caches so that every run starts
 * from a cold page cache.  This is an action, not a setting -- the file
 * cannot be read back and has nothing to restore -- so it is written
 * directly, not through knob_set().
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "job/job.h"
#include "setup/setup.h"
#include "util/fileutil.h"
#include "util/strbuf.h"

int setup_drop_caches(const struct jnode *value, const char *sysroot,
		      struct strbuf *log, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	const char *what = "3";
	ssize_t w;
	int fd, ret = -1;

	if (value && value->type == JNODE_SCALAR && value->text[0])
		what = value->text;
	if (strcmp(what, "1") && strcmp(what, "2") && strcmp(what, "3")) {
		strbuf_addf(err, "%s:%d: drop_caches: '%s' is not 1, 2 or 3",
			    value->file ? value->file : "<job>", value->line,
			    what);
		return -1;
	}
	sync();
	path_join(&path, sysroot, "/proc/sys/vm/drop_caches");
	fd = open(path.buf, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		strbuf_addf(err, "drop_caches: cannot open '%s': %s", path.buf,
			    strerror(errno));
		goto out;
	}
	w = write(fd, what, strlen(what));
	if (w < 0)
		strbuf_addf(err, "drop_caches: cannot write '%s': %s", path.buf,
			    strerror(errno));
	close(fd);
	if (w < 0)
		goto out;
	strbuf_addf(log, "drop_caches: %s\n", what);
	ret = 0;
out:
	strbuf_release(&path);
	return ret;
}
