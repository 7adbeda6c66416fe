/*
 * sysctl.c: the sysctl setup program.  Each option sc_NAME writes
 * /proc/sys/<dir>/NAME, as LKP's setup/sysctl does; LKP keeps a fixed
 * name -> file list, perfsift looks the name up in the usual directories
 * (also with '_' read as '-': sc_exception_trace is debug/exception-trace),
 * so that new kernel sysctls need no table change.
 */
#include "util/compat.h"
#include <string.h>
#include "job/job.h"
#include "setup/setup.h"
#include "util/fileutil.h"
#include "util/strbuf.h"

/*
 * The directories a sysctl name is looked up in, in this order: a name
 * found in two takes the first, and a job that means the other names
 * more of the path (sc_conf/all/forwarding is found under net/ipv4).
 */
static const char *const sysctl_dirs[] = {
	"vm", "kernel", "fs", "net/core", "net/ipv4", "net/ipv6", "net/unix",
	"abi", "debug", "user", "sunrpc",
};

/*
 * Why name cannot be a sysctl, or NULL: the name becomes a path under
 * /proc/sys, so an absolute path, a ".." or an empty part -- anything
 * that could leave /proc/sys -- is refused before any file is looked at.
 */
const char *sysctl_name_problem(const char *name)
{
	const char *p;
	size_t len;

	if (!*name)
		return "options are named sc_<sysctl>";
	if (*name == '/')
		return "a sysctl name is relative to /proc/sys/<dir>, not an absolute path";
	if (strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789_-./") != strlen(name))
		return "a sysctl name holds only letters, digits, '_', '-', '.' and '/'";
	for (p = name; *p; p += len + (p[len] == '/')) {
		len = strcspn(p, "/");
		if (!len || (len == 1 && p[0] == '.') ||
		    (len == 2 && p[0] == '.' && p[1] == '.'))
			return "a sysctl name has no empty, '.' or '..' part "
			       "(it must stay under /proc/sys)";
	}
	return NULL;
}

/* the kernel path (/proc/sys/...) of sysctl name, in path; 0 or -1 */
static int sysctl_find(const char *sysroot, const char *name,
		       struct strbuf *path)
{
	struct strbuf full = STRBUF_INIT;
	struct strbuf dashed = STRBUF_INIT;
	size_t i, k;
	int ret = -1;

	strbuf_addstr(&dashed, name);
	for (k = 0; k < dashed.len; k++)
		if (dashed.buf[k] == '_')
			dashed.buf[k] = '-';
	for (i = 0; i < ARRAY_SIZE(sysctl_dirs) && ret; i++) {
		const char *cand[2] = {name, dashed.buf};

		for (k = 0; k < 2 && ret; k++) {
			strbuf_reset(path);
			strbuf_addf(path, "/proc/sys/%s/%s", sysctl_dirs[i],
				    cand[k]);
			path_join(&full, sysroot, path->buf);
			if (file_exists(full.buf))
				ret = 0;
		}
	}
	strbuf_release(&full);
	strbuf_release(&dashed);
	return ret;
}

/*
 * Each sc_* value written through the knob journal (setup_knob), so the
 * original is restored after the run and after a crash like every other
 * knob.  The first problem stops the program with its file and line.
 */
int setup_sysctl(const struct jnode *value, const char *sysroot,
		 struct strbuf *log, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	size_t i;
	int ret = 0;

	if (!value || value->type == JNODE_NULL)
		return 0;
	if (value->type != JNODE_MAP) {
		strbuf_addf(err, "%s:%d: sysctl: expected a mapping of sc_* options",
			    value->file ? value->file : "<job>", value->line);
		return -1;
	}
	for (i = 0; i < value->n && !ret; i++) {
		const struct jnode *v = value->kids[i];
		const char *key = value->keys[i];
		const char *where = v->file ? v->file : "<job>";

		if (strncmp(key, "sc_", 3) || sysctl_name_problem(key + 3)) {
			strbuf_addf(err, "%s:%d: sysctl: %s: %s", where, v->line, key,
				    strncmp(key, "sc_", 3) ? "options are named sc_<sysctl>" :
				    sysctl_name_problem(key + 3));
			ret = -1;
			break;
		}
		if (v->type == JNODE_NULL)
			continue;
		if (v->type != JNODE_SCALAR) {
			strbuf_addf(err, "%s:%d: sysctl: %s: expected one value (split the job first)",
				    where, v->line, key);
			ret = -1;
			break;
		}
		if (sysctl_find(sysroot, key + 3, &path) < 0) {
			strbuf_addf(err, "%s:%d: sysctl: %s: no such sysctl under /proc/sys",
				    where, v->line, key);
			ret = -1;
			break;
		}
		ret = setup_knob("sysctl", path.buf + strlen("/proc/sys/"),
				 path.buf, v->text, log, err);
	}
	strbuf_release(&path);
	return ret;
}

/*
 * `perfsift install`'s check: every sysctl the job names exists here,
 * said before the job runs rather than in the middle of a run.
 */
int setup_sysctl_check(const struct jnode *value, const char *sysroot,
		       struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	size_t i;
	int ret = 0;

	/* the shape (a mapping of sc_* values) is the job reader's check */
	for (i = 0; value && value->type == JNODE_MAP && i < value->n && !ret; i++) {
		const struct jnode *v = value->kids[i];

		if (v->type == JNODE_NULL || strncmp(value->keys[i], "sc_", 3))
			continue;
		if (sysctl_find(sysroot, value->keys[i] + 3, &path) < 0) {
			strbuf_addf(err, "%s:%d: sysctl.%s: no such sysctl under %s/proc/sys",
				    v->file ? v->file : "<job>", v->line,
				    value->keys[i],
				    strcmp(sysroot, "/") ? sysroot : "");
			ret = -1;
		}
	}
	strbuf_release(&path);
	return ret;
}
