/*
 * source.c: what every sampled monitor shares (see sampling.h): sources
 * opened once under the sysroot and re-read with pread from offset 0 (a
 * /proc seq_file regenerates its text on each read from 0, so one open
 * file serves the whole run), job parameters and `time:` stamps.
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include "job.h"
#include "monitor.h"
#include "monitors/sampling.h"
#include "util/fileutil.h"
#include "util/strnum.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

const char *mon_param(const struct mon_inst *mi, const char *name)
{
	return mi->job ? job_get_opt(mi->job, mi->ops->name, name) : NULL;
}

double mon_param_double(const struct mon_inst *mi, const char *name,
			double dflt)
{
	const char *s = mon_param(mi, name);
	const char *why;
	double v;

	if (!s || strnum_seconds(s, &v, &why) || v < 0)
		return dflt;
	return v;
}

void mon_add_time(struct strbuf *out)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	strbuf_addf(out, "time: %lld.%09ld\n", (long long)ts.tv_sec, ts.tv_nsec);
}

void mon_path(struct strbuf *sb, const char *sysroot, const char *rel)
{
	path_join(sb, sysroot ? sysroot : "/", rel);
}

int mon_file_open(struct mon_file *f, const char *sysroot, const char *rel,
		  struct strbuf *why)
{
	struct strbuf path = STRBUF_INIT;

	mon_path(&path, sysroot, rel);
	f->hint = 4096;
	f->fd = open(path.buf, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0) {
		strbuf_addf(why, "cannot open '%s': %s", path.buf,
			    strerror(errno));
		strbuf_release(&path);
		return -1;
	}
	strbuf_release(&path);
	return 0;
}

int mon_file_read(struct mon_file *f, struct strbuf *out)
{
	size_t start = out->len;
	off_t off = 0;
	ssize_t n;

	for (;;) {
		strbuf_grow(out, f->hint + 1);
		n = pread(f->fd, out->buf + out->len,
			  out->alloc - out->len - 1, off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			strbuf_setlen(out, start);
			return -1;
		}
		if (n == 0)
			break;
		strbuf_setlen(out, out->len + (size_t)n);
		off += n;
		/*
		 * A short read is the end: seq_file and sysfs fill the buffer
		 * when they can, and a read past the end would make a seq_file
		 * generate the whole text again just to say so.  (Old
		 * page-at-a-time files return whole pages: read on.)
		 */
		if (out->len + 1 < out->alloc && n % 4096)
			break;
	}
	if (out->len - start + 1 > f->hint)
		f->hint = out->len - start + 1;
	if (out->len > start && out->buf[out->len - 1] != '\n')
		strbuf_addch(out, '\n');
	return 0;
}

void mon_file_close(struct mon_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

int mon_single_open(struct mon_inst *mi, const char *rel, struct strbuf *why)
{
	struct mon_file *f = xcalloc(1, sizeof(*f));

	if (mon_file_open(f, mi->sysroot, rel, why)) {
		free(f);
		return -1;
	}
	mi->priv = f;
	return 0;
}

int mon_single_sample(struct mon_inst *mi, struct strbuf *out, bool final)
{
	size_t start = out->len;

	(void)final;
	mon_add_time(out);
	if (mon_file_read(mi->priv, out)) {
		strbuf_setlen(out, start);
		return -1;
	}
	return 0;
}

void mon_single_close(struct mon_inst *mi)
{
	if (mi->priv)
		mon_file_close(mi->priv);
	FREE_AND_NULL(mi->priv);
}

int mon_nr_cpus(const char *sysroot)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	(void)sysroot;
	return n > 0 ? (int)n : 1;
}

int mon_perf_open(struct perf_event_attr *attr, int pid, int cpu)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, -1,
			    PERF_FLAG_FD_CLOEXEC);
}
