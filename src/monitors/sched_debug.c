/*
 * sched_debug.c: the sched_debug monitor's parser -- the scheduler's debug
 * dump (/sys/kernel/debug/sched/debug, formerly /proc/sched_debug; spec/
 * lkp-monitors.md 2.14).  Section headers (`cpu#0, ...`, `cfs_rq[1]:/`) set
 * a key prefix and a CPU index; `.field : number` lines become
 * `<prefix>.field[.<cpu>]`; after each sample every per-CPU field also gets
 * .max/.min/.avg/.stddev across CPUs, printed as Ruby floats.
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "util/xalloc.h"
#include "monitors/sampling.h"

struct sd_vec {
	double *v;
	size_t n, alloc;
};

struct sd_sample {
	struct mon_kv keys; /* per-CPU base keys, first-seen order */
	struct sd_vec *vals;
	size_t alloc;
};

static void add_stat(struct strbuf *out, const char *key, const char *what,
		     double v)
{
	strbuf_addf(out, "%s.%s: ", key, what);
	mon_ruby_float(out, v);
	strbuf_addch(out, '\n');
}

/*
 * The end of a sample: each per-CPU field's spread over the CPUs, as LKP's
 * parser adds it.  The per-CPU rows themselves are dropped when a group
 * is united (unite.c), so these four are what a comparison of boxes with
 * different CPU counts can use.  Sums are Ruby's (mon_ruby_sum) so the
 * floats print as LKP's do.
 */
static void flush_sample(struct sd_sample *s, struct strbuf *out)
{
	size_t i, j;
	double mx, mn, mean, *dev;
	struct sd_vec *vec;

	for (i = 0; i < s->keys.n; i++) {
		vec = &s->vals[i];
		if (!vec->n)
			continue;
		mx = mn = vec->v[0];
		for (j = 1; j < vec->n; j++) {
			if (vec->v[j] > mx)
				mx = vec->v[j];
			if (vec->v[j] < mn)
				mn = vec->v[j];
		}
		mean = mon_ruby_sum(vec->v, vec->n) / (double)vec->n;
		dev = xcalloc(vec->n, sizeof(*dev));
		for (j = 0; j < vec->n; j++)
			dev[j] = (vec->v[j] - mean) * (vec->v[j] - mean);
		add_stat(out, s->keys.keys[i], "max", mx);
		add_stat(out, s->keys.keys[i], "min", mn);
		add_stat(out, s->keys.keys[i], "avg", mean);
		add_stat(out, s->keys.keys[i], "stddev",
			 sqrt(mon_ruby_sum(dev, vec->n) / (double)vec->n));
		free(dev);
		vec->n = 0;
	}
	mon_kv_clear(&s->keys);
}

/* one CPU's value of a field, kept for the sample's spread */
static void record(struct sd_sample *s, const char *key, double v)
{
	size_t i = mon_kv_slot(&s->keys, key), old = s->alloc;

	if (i >= s->alloc) {
		ALLOC_GROW(s->vals, i + 1, s->alloc);
		memset(s->vals + old, 0, (s->alloc - old) * sizeof(*s->vals));
	}
	ALLOC_GROW(s->vals[i].v, s->vals[i].n + 1, s->vals[i].alloc);
	s->vals[i].v[s->vals[i].n++] = v;
}

/* `cpu#3,` -> "cpu", 3; `cfs_rq[1]:/x` -> "cfs_rq:/x", 1; else idx -1 */
static void set_section(struct strbuf *prefix, long *idx, const char *tok)
{
	const char *p;
	char *end;

	strbuf_reset(prefix);
	*idx = -1;
	for (p = tok; *p; p++) {
		if (*p == ',')
			continue;
		if ((*p == '#' || *p == '[') && isdigit((unsigned char)p[1])) {
			*idx = strtol(p + 1, &end, 10);
			p = *end == ']' ? end : end - 1;
			continue;
		}
		strbuf_addch(prefix, *p);
	}
}

/*
 * The dump is read line by line with the section that is open: a header
 * sets the key prefix and the CPU, a `.field : N` line is a value of it.
 * The runnable task list and the autogroup sections are skipped: their
 * keys are per task and per session, and would differ between any two
 * runs.
 */
DECLARE_PARSER(parse_sched_debug)
{
	struct mon_lines it;
	struct mon_fields f;
	struct strbuf prefix = STRBUF_INIT, key = STRBUF_INIT;
	struct sd_sample s;
	long idx = -1;
	bool skip = false;
	double v;
	size_t i, numlen;

	(void)path;
	(void)err;
	memset(&s, 0, sizeof(s));
	mon_lines_init(&it, raw, len);
	mon_fields_init(&f);
	while (mon_lines_next(&it)) {
		mon_fields_split(&f, it.line.buf, NULL);
		if (!f.n)
			continue;
		if (!strcmp(f.v[0], "time:")) {
			flush_sample(&s, out);
			strbuf_addf(out, "%s\n", it.line.buf);
			strbuf_reset(&prefix);
			idx = -1;
			skip = false;
			continue;
		}
		if (mon_has_prefix(it.line.buf, "Sched Debug Version"))
			continue;
		if (f.n >= 3 && !strcmp(f.v[1], ":") &&
		    mon_leading_double(f.v[2], &v) &&
		    (isdigit((unsigned char)f.v[2][0]) || f.v[2][0] == '-')) {
			if (skip)
				continue;
			numlen = strspn(f.v[2], "-+.0123456789eE");
			strbuf_reset(&key);
			strbuf_addf(&key, "%s%s", prefix.buf, f.v[0]);
			if (idx >= 0) {
				record(&s, key.buf, v);
				strbuf_addf(&key, ".%ld", idx);
			}
			strbuf_addf(out, "%s: %.*s\n", key.buf, (int)numlen, f.v[2]);
			continue;
		}
		if (mon_has_prefix(f.v[0], "runnable")) {
			strbuf_reset(&prefix);
			idx = -1;
			skip = true;
			continue;
		}
		set_section(&prefix, &idx, f.v[0]);
		skip = strstr(prefix.buf, ":/autogroup-") != NULL;
	}
	flush_sample(&s, out);
	for (i = 0; i < s.alloc; i++)
		free(s.vals[i].v);
	free(s.vals);
	mon_kv_release(&s.keys);
	strbuf_release(&key);
	strbuf_release(&prefix);
	mon_fields_release(&f);
	mon_lines_release(&it);
	return 0;
}

/* ------------------------------------------------------------- sampling */

/*
 * The dump is in debugfs (/sys/kernel/debug/sched/debug) since 5.13,
 * /proc/sched_debug before.  When debugfs is not mounted, a small child
 * process unshares its mount namespace, mounts debugfs there, opens the
 * file and hands the descriptor back over a socket (SCM_RIGHTS): the
 * host's mount table never changes, and the open file keeps the private
 * mount alive after the child exits.  (A child, because a multi-threaded
 * process cannot unshare its mount namespace.)
 */
static int fd_from_private_debugfs(struct strbuf *why)
{
	int sv[2], fd = -1, status;
	pid_t pid;
	char cbuf[CMSG_SPACE(sizeof(int))], byte = 0;
	struct iovec iov = {&byte, 1};
	struct msghdr msg;
	struct cmsghdr *cm;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		strbuf_addf(why, "socketpair: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		strbuf_addf(why, "fork: %s", strerror(errno));
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	if (pid == 0) {
		int f;

		close(sv[0]);
		if (unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL))
			_exit(2);
		f = open("/sys/kernel/debug/sched/debug", O_RDONLY | O_CLOEXEC);
		if (f < 0)
			_exit(3);
		memset(&msg, 0, sizeof(msg));
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		msg.msg_control = cbuf;
		msg.msg_controllen = sizeof(cbuf);
		cm = CMSG_FIRSTHDR(&msg);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &f, sizeof(int));
		_exit(sendmsg(sv[1], &msg, 0) == 1 ? 0 : 4);
	}
	close(sv[1]);
	memset(&msg, 0, sizeof(msg));
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cbuf;
	msg.msg_controllen = sizeof(cbuf);
	if (recvmsg(sv[0], &msg, MSG_CMSG_CLOEXEC) == 1 &&
	    (cm = CMSG_FIRSTHDR(&msg)) && cm->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	close(sv[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (fd < 0)
		strbuf_addf(why, "no scheduler debug file (debugfs could not be mounted privately: step %d)",
			    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return fd;
}

static int sd_open(struct mon_inst *mi, struct strbuf *why)
{
	struct strbuf ignore = STRBUF_INIT;
	struct mon_file *f = xcalloc(1, sizeof(*f));
	bool real_root = !strcmp(mi->sysroot, "/");

	if (!mon_file_open(f, mi->sysroot, "sys/kernel/debug/sched/debug", &ignore) ||
	    !mon_file_open(f, mi->sysroot, "proc/sched_debug", &ignore)) {
		strbuf_release(&ignore);
		mi->priv = f;
		return 0;
	}
	strbuf_release(&ignore);
	f->hint = 128 * 1024;
	f->fd = -1;
	if (real_root && geteuid() == 0)
		f->fd = fd_from_private_debugfs(why);
	else
		strbuf_addstr(why, "no scheduler debug file (and debugfs can only be mounted privately as root on the real system)");
	if (f->fd < 0) {
		free(f);
		return -1;
	}
	mi->priv = f;
	return 0;
}

const struct monitor_sampling sampling_sched_debug = {
	60, true, sd_open, mon_single_sample, mon_single_close,
};
