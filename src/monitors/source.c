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
#include "job/job.h"
#include "monitors/monitor.h"
#include "monitors/sampling.h"
#include "job/params.h"
#include "job/programs.h"
#include "util/fileutil.h"
#include "util/strnum.h"
#include "util/timeutil.h"
#include "util/usage.h"
#include "util/xalloc.h"

const char *mon_param(const struct mon_inst *mi, const char *name)
{
	return mi->job ? job_get_opt(mi->job, mi->ops->name, name) : NULL;
}

/*
 * The values were checked by the program table when the job was read;
 * a failure here is a job built past those checks (a test), and the
 * default stands.
 */
double mon_param_double(const struct mon_inst *mi, const char *name,
			double dflt)
{
	const struct program *p = program_find(mi->ops->name);
	struct strbuf err = STRBUF_INIT;
	struct opt_value v;
	int r = 0;

	if (mi->job && p && program_option(p, name))
		r = param_value(mi->job, p, name, &v, &err);
	strbuf_release(&err);
	return r > 0 ? v.num : dflt;
}

double mon_job_seconds(const struct mon_inst *mi, const char *key)
{
	struct strbuf err = STRBUF_INIT;
	struct opt_value v;
	int r = mi->job ? param_value(mi->job, NULL, key, &v, &err) : 0;

	strbuf_release(&err);
	return r > 0 ? v.num : 0;
}

void mon_params(const struct mon_inst *mi, void *params)
{
	const struct program *p = program_find(mi->ops->name);
	struct strbuf err = STRBUF_INIT;

	if (!p || !p->params_size)
		BUG("mon_params: %s has no parameter struct", mi->ops->name);
	if (param_fill(p, mi->job, params, &err) < 0) {
		/* a job built past the checks: the defaults */
		warning("%s", err.buf);
		param_fill(p, NULL, params, &err);
	}
	strbuf_release(&err);
}

void mon_add_time(struct strbuf *out)
{
	struct timespec ts = time_epoch_ts();

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
	f->slot = NULL;
	/* sysfs device attributes: one show() of at most a page */
	f->one_show = !strncmp(rel, "sys/devices/", 12);
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

static int file_pread(struct mon_file *f, struct strbuf *out)
{
	size_t start = out->len, room;
	off_t off = 0;
	ssize_t n;

	for (;;) {
		strbuf_grow(out, f->hint + 1);
		room = out->alloc - out->len - 1;
		n = pread(f->fd, out->buf + out->len, room, off);
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
		 * A sysfs attribute is made by one show() of at most a page,
		 * so a read shorter than the buffer got all of it.  A /proc
		 * seq_file hands out one buffer (a page, more if one record
		 * needs it) per read whatever the room, so a short read says
		 * nothing: it is read until it says end of file.  Reading on
		 * at the offset where the previous read stopped continues the
		 * text where the kernel left it (no regeneration), and the
		 * final empty read costs about one system call.
		 */
		if (f->one_show && (size_t)n < room)
			break;
	}
	if (out->len - start + 1 > f->hint)
		f->hint = out->len - start + 1;
	if (out->len > start && out->buf[out->len - 1] != '\n')
		strbuf_addch(out, '\n');
	return 0;
}

struct mon_slot {
	char *rel;
	unsigned refs;      /* mon_files reading it */
	uint64_t tick;      /* the tick of text; 0: none */
	const uint64_t *now;
	struct strbuf text;
};

void mon_share_init(struct mon_share *sh)
{
	memset(sh, 0, sizeof(*sh));
	sh->tick = 1;
}

void mon_share_release(struct mon_share *sh)
{
	size_t i;

	for (i = 0; i < sh->n; i++) {
		free(sh->slots[i]->rel);
		strbuf_release(&sh->slots[i]->text);
		free(sh->slots[i]);
	}
	free(sh->slots);
	memset(sh, 0, sizeof(*sh));
}

void mon_file_share(struct mon_inst *mi, struct mon_file *f, const char *rel)
{
	struct mon_share *sh = mi->share;
	struct mon_slot *sl;
	size_t i;

	if (!sh)
		return;
	for (i = 0; i < sh->n; i++)
		if (!strcmp(sh->slots[i]->rel, rel))
			break;
	if (i == sh->n) {
		sl = xcalloc(1, sizeof(*sl));
		sl->rel = xstrdup(rel);
		sl->now = &sh->tick;
		strbuf_init(&sl->text, 0);
		ALLOC_GROW(sh->slots, sh->n + 1, sh->alloc);
		sh->slots[sh->n++] = sl;
	}
	f->slot = sh->slots[i];
	f->slot->refs++;
}

/* the text of f: from a shared read of this tick, or from the kernel */
int mon_file_read(struct mon_file *f, struct strbuf *out)
{
	struct mon_slot *sl = f->slot && f->slot->refs > 1 ? f->slot : NULL;
	size_t start = out->len;

	if (sl && sl->tick == *sl->now) {
		strbuf_addbuf(out, &sl->text);
		return 0;
	}
	if (file_pread(f, out))
		return -1;
	if (sl) {
		strbuf_reset(&sl->text);
		strbuf_add(&sl->text, out->buf + start, out->len - start);
		sl->tick = *sl->now;
	}
	return 0;
}

void mon_file_close(struct mon_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	if (f->slot)
		f->slot->refs--;
	f->slot = NULL;
}

int mon_single_open(struct mon_inst *mi, const char *rel, struct strbuf *why)
{
	struct mon_file *f = xcalloc(1, sizeof(*f));

	if (mon_file_open(f, mi->sysroot, rel, why)) {
		free(f);
		return -1;
	}
	mon_file_share(mi, f, rel);
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
