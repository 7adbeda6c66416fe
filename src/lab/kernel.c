/*
 * kernel.c: what a worker needs to know of the kernel a task asks for
 * (lab.h, docs/lab.md "Kernels"): the kernel the box runs now.  It is
 * read from /proc/sys/kernel/osrelease (what `uname -r` prints) below
 * PERFSIFT_SYSROOT, the fake /proc and /sys tree `perfsift run` already
 * honours for its knobs -- so a test can "boot" another kernel by
 * writing a file, and a real box reads its real /proc.  And what a
 * release may be, before a task naming one is queued or its kernel
 * installed.
 */
#include "util/compat.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lab/lab.h"
#include "util/fileutil.h"
#include "util/strbuf.h"

int lab_running_kernel(struct strbuf *out, struct strbuf *err)
{
	const char *root = getenv("PERFSIFT_SYSROOT");
	struct strbuf path = STRBUF_INIT;
	int ret = 0;

	path_join(&path, root && *root ? root : "/", "proc/sys/kernel/osrelease");
	if (read_text_file(out, path.buf, 4096) < 0) {
		strbuf_addf(err, "cannot read '%s': %s", path.buf, strerror(errno));
		ret = -1;
	}
	strbuf_trim(out);
	strbuf_release(&path);
	return ret;
}

bool lab_release_ok(const char *r)
{
	size_t n = strlen(r);

	/* struct utsname's release holds 64 bytes and its NUL */
	if (!n || n > 64 || *r == '-')
		return false;
	for (; *r; r++)
		if (!isalnum((unsigned char)*r) && !strchr("._+~-", *r))
			return false;
	return true;
}
