/*
 * vm_scalability.c: the built-in `vm-scalability` test program -- LKP's
 * programs/vm-scalability/run in C.  prepare() reads LKP's parameters
 * (runtime, nr_task, test, size, unit_size, pre_setup, sync_rw,
 * bind_cpu, repeat, cpu_delay, sync_free; perfsift's mem -- the memory
 * hw_vars sees, a size or a share of MemTotal like "10%" -- and allow_oom),
 * sizes the case as hw_vars does, declines what this machine cannot run,
 * caps a footprint the machine cannot hold, writes the suite's sysctls
 * through knob.h and makes the tmpfs / sparse root; run() is LKP's
 * repeat-until-runtime loop; cleanup() removes every file and mount.
 */
#include "util/compat.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>
#include "bench/bench.h"
#include "bench/vmscal_exec.h"
#include "job.h"
#include "knob.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/usage.h"
#include "util/xalloc.h"

#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif

struct vmscal_state {
	struct vmscal_params p;
	struct vmscal_hw hw;
	struct vmscal_plan plan;
	char *test;
	char *shm_dir, *sparse_dir;
	bool mounted;
	struct strbuf notes; /* lines for the run's output */
};

/* a parameter: the program's option, else the top-level key (LKP flattens both) */
static const struct jnode *param(const struct job *job, const char *key)
{
	const struct jnode *prog = job_program(job, "vm-scalability");
	const struct jnode *v = NULL;

	if (prog && prog->type == JNODE_MAP)
		v = jnode_get(prog, key);
	if (!v)
		v = jnode_get(job->root, key);
	return v && v->type == JNODE_SCALAR && v->text[0] ? v : NULL;
}

static int bad(struct strbuf *err, const struct jnode *v, const char *key,
	       const char *why)
{
	strbuf_addf(err, "%s:%d: vm-scalability.%s: '%s' %s",
		    v->file ? v->file : "<job>", v->line, key, v->text, why);
	return -1;
}

static bool truthy(const char *s)
{
	return !strcmp(s, "1") || !strcasecmp(s, "true") || !strcasecmp(s, "yes") ||
	       !strcasecmp(s, "on");
}

static int get_size(const struct job *job, const char *key, uint64_t *out,
		    struct strbuf *err)
{
	const struct jnode *v = param(job, key);
	const char *why;

	*out = 0;
	if (v && strnum_size(v->text, out, &why) < 0)
		return bad(err, v, key, why);
	return 0;
}

static int get_uint(const struct job *job, const char *key, unsigned *out,
		    struct strbuf *err)
{
	const struct jnode *v = param(job, key);
	const char *why;
	long long n;

	if (!v)
		return 0;
	if (strnum_ll(v->text, 0, 1 << 30, &n, &why) < 0)
		return bad(err, v, key, why);
	*out = (unsigned)n;
	return 1;
}

/* nr_task: a count, or a percentage of the CPUs as LKP jobs write it */
static int get_nr_task(const struct job *job, unsigned nr_cpu, unsigned *out,
		       struct strbuf *err)
{
	const struct jnode *v = param(job, "nr_task");
	struct strbuf num = STRBUF_INIT;
	const char *why;
	long long n;
	bool pct;
	int ret = 0;

	*out = nr_cpu;
	if (!v)
		return 0;
	strbuf_addstr(&num, v->text);
	pct = num.len && num.buf[num.len - 1] == '%';
	if (pct)
		strbuf_setlen(&num, num.len - 1);
	if (strnum_ll(num.buf, 1, 1 << 20, &n, &why) < 0)
		ret = bad(err, v, "nr_task", why);
	else if (pct)
		*out = (unsigned)(nr_cpu * n / 100) ? (unsigned)(nr_cpu * n / 100) : 1;
	else
		*out = (unsigned)n;
	strbuf_release(&num);
	return ret;
}

/* cpu_delay: nanoseconds, or with the suite's u / m suffix */
static int get_delay(const struct job *job, uint64_t *out, struct strbuf *err)
{
	const struct jnode *v = param(job, "cpu_delay");
	struct strbuf num = STRBUF_INIT;
	uint64_t mult = 1;
	const char *why;
	long long n;
	int ret = 0;

	*out = 0;
	if (!v)
		return 0;
	strbuf_addstr(&num, v->text);
	if (num.len && (num.buf[num.len - 1] == 'u' || num.buf[num.len - 1] == 'm')) {
		mult = num.buf[num.len - 1] == 'u' ? 1000 : 1000000;
		strbuf_setlen(&num, num.len - 1);
	}
	if (strnum_ll(num.buf, 0, 1ll << 40, &n, &why) < 0)
		ret = bad(err, v, "cpu_delay", why);
	else
		*out = (uint64_t)n * mult;
	strbuf_release(&num);
	return ret;
}

static int read_params(struct bench_ctx *ctx, struct vmscal_state *st,
		       uint64_t *mem, struct strbuf *err)
{
	const struct job *job = ctx->job;
	struct vmscal_params *p = &st->p;
	const struct jnode *v;
	const char *why;
	unsigned u;
	int r;

	memset(p, 0, sizeof(*p));
	v = param(job, "test");
	if (!v) {
		strbuf_addstr(err, "vm-scalability: no test given (vm-scalability: test: NAME)");
		return -1;
	}
	st->test = xstrdup(v->text);
	p->test = st->test;
	p->runtime = ctx->runtime;
	v = param(job, "runtime");
	if (p->runtime <= 0 && v && strnum_seconds(v->text, &p->runtime, &why) < 0)
		return bad(err, v, "runtime", why);
	if (p->runtime <= 0)
		p->runtime = 300; /* LKP's default */
	if (get_nr_task(job, ctx->nr_cpu ? ctx->nr_cpu : 1, &p->nr_task, err) ||
	    get_size(job, "size", &p->size, err) ||
	    get_size(job, "unit_size", &p->unit_size, err) ||
	    get_delay(job, &p->cpu_delay, err))
		return -1;
	v = param(job, "mem");
	if (v && v->text[strlen(v->text) - 1] == '%') {
		/* a share of this machine: "10%" */
		struct strbuf num = STRBUF_INIT;
		long long pct;
		int bad_pct;

		strbuf_add(&num, v->text, strlen(v->text) - 1);
		bad_pct = strnum_ll(num.buf, 1, 100, &pct, &why) < 0;
		strbuf_release(&num);
		if (bad_pct)
			return bad(err, v, "mem", why);
		*mem = (uint64_t)((long double)st->hw.mem * pct / 100);
	} else if (get_size(job, "mem", mem, err) < 0) {
		return -1;
	}
	if ((r = get_uint(job, "bind_cpu", &u, err)) < 0)
		return -1;
	p->bind_set = r > 0;
	p->bind_cpu = r > 0 ? u : 0;
	if (get_uint(job, "repeat", &p->repeat, err) < 0)
		return -1;
	v = param(job, "sync_rw");
	p->sync_rw = v && truthy(v->text);
	v = param(job, "sync_free");
	p->sync_free = v && truthy(v->text);
	v = param(job, "allow_oom");
	p->allow_oom = v && truthy(v->text);
	return 0;
}

static void human(struct strbuf *sb, uint64_t b)
{
	if (b >= 1ull << 30)
		strbuf_addf(sb, "%.1f GiB", (double)b / (1ull << 30));
	else
		strbuf_addf(sb, "%.1f MiB", (double)b / (1ull << 20));
}

/* a note for the user (stderr) and for the run's output (stdout) */
static void add_note(struct vmscal_state *st, const char *msg)
{
	strbuf_addf(&st->notes, "perfsift: %s\n", msg);
	note("%s", msg);
}

/* a footprint the machine cannot hold: scale the case down (LKP would OOM) */
static int cap_footprint(struct vmscal_state *st, uint64_t avail,
			 struct strbuf *err)
{
	uint64_t limit = avail / 10 * 9, want = st->plan.footprint;
	struct strbuf msg = STRBUF_INIT;
	struct vmscal_hw hw;
	int i;

	if (want <= limit || st->p.allow_oom)
		return 0;
	for (i = 0; i < 4 && st->plan.footprint > limit; i++) {
		hw = st->hw;
		vmscal_hw_scale(&hw, (uint64_t)((long double)st->hw.mem * limit /
						 st->plan.footprint * 0.95L));
		st->hw = hw;
		if (vmscal_plan(&st->hw, &st->p, &st->plan, err) < 0)
			return -1;
	}
	strbuf_addf(&msg, "vm-scalability: %s would hold ", st->plan.name);
	human(&msg, want);
	strbuf_addstr(&msg, " at once, more than this machine can hold (");
	human(&msg, avail);
	strbuf_addstr(&msg, " available): capped to ");
	human(&msg, st->plan.footprint);
	strbuf_addstr(&msg, " (allow_oom: true runs it as asked)");
	add_note(st, msg.buf);
	strbuf_release(&msg);
	return 0;
}

/*
 * The anon read cases measure zero-page faults; on a kernel that forbids
 * the zero page (machine.c's probe, env_zero_page in job.yaml) they
 * measure page allocation and clearing instead, and THP turns them into
 * huge-page clearing; their footprint is then the whole mapping
 * (vmscal_cases.c), so cap_footprint has scaled them.  Say so in the run's
 * output: the numbers are real, but they do not mean what the suite's
 * name says.
 */
static void zero_page_note(struct vmscal_state *st)
{
	if (!st->hw.no_zero_page || !st->plan.um.readonly ||
	    st->plan.file != VMF_NONE || st->plan.um.hugetlb)
		return;
	struct strbuf msg = STRBUF_INIT;

	strbuf_addf(&msg, "vm-scalability: %s: this kernel maps no zero page on read faults (env_zero_page: no): every read fault allocates and clears a page",
		    st->plan.name);
	add_note(st, msg.buf);
	strbuf_release(&msg);
}

/* the suite's sysctls (programs/vm-scalability/run), journaled by knob.c */
static void set_sysctls(struct vmscal_state *st)
{
	static const char *const knobs[][2] = {
		{"/proc/sys/vm/overcommit_memory", "1"},
		{"/proc/sys/vm/max_map_count", "1073741824"},
		{"/proc/sys/kernel/threads-max", "1048576"},
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(knobs); i++) {
		struct strbuf why = STRBUF_INIT;

		if (knob_set(knobs[i][0], knobs[i][1], &why) < 0)
			strbuf_addf(&st->notes, "perfsift: vm-scalability: cannot set %s to %s%s%s\n",
				    knobs[i][0], knobs[i][1], why.len ? ": " : "",
				    why.buf);
		strbuf_release(&why);
	}
}

static int make_dirs(struct bench_ctx *ctx, struct vmscal_state *st,
		     bool pre_setup, struct strbuf *err)
{
	const char *scratch = ctx->scratch && *ctx->scratch ? ctx->scratch : "/tmp";
	struct strbuf sb = STRBUF_INIT, opt = STRBUF_INIT;
	struct statfs sfs;
	int ret = -1;

	path_join(&sb, scratch, "vm-scalability-tmp");
	st->shm_dir = xstrdup(sb.buf);
	path_join(&sb, scratch, "vm-scalability");
	st->sparse_dir = xstrdup(sb.buf);
	if (mkdir_p(st->shm_dir, 0700) < 0 || mkdir_p(st->sparse_dir, 0700) < 0) {
		strbuf_addf(err, "vm-scalability: cannot make '%s': %s",
			    st->sparse_dir, strerror(errno));
		goto out;
	}
	/* page-cache cases need a real file system: tmpfs would pin the pages */
	if (st->plan.file == VMF_SPARSE && !statfs(st->sparse_dir, &sfs) &&
	    sfs.f_type == TMPFS_MAGIC) {
		remove_tree(st->sparse_dir);
		free(st->sparse_dir);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "/var/tmp/perfsift-vm-scalability.%d", (int)getpid());
		st->sparse_dir = xstrdup(sb.buf);
		if (mkdir_p(st->sparse_dir, 0700) < 0) {
			strbuf_addf(err, "vm-scalability: cannot make '%s': %s",
				    st->sparse_dir, strerror(errno));
			goto out;
		}
	}
	if (st->plan.file == VMF_SHM && !pre_setup) {
		strbuf_addf(&opt, "size=%" PRIu64 ",mode=0700",
			    (st->hw.shm_size + 4095) & ~(uint64_t)4095);
		if (mount("tmpfs", st->shm_dir, "tmpfs", MS_NOSUID | MS_NODEV,
			  opt.buf) < 0) {
			strbuf_addf(err, "vm-scalability: cannot mount a tmpfs on '%s': %s",
				    st->shm_dir, strerror(errno));
			goto out;
		}
		st->mounted = true;
	}
	ret = 0;
out:
	strbuf_release(&sb);
	strbuf_release(&opt);
	return ret;
}

static int vmscal_prepare(struct bench_ctx *ctx, struct strbuf *err)
{
	struct vmscal_state *st = xcalloc(1, sizeof(*st));
	const struct jnode *pre;
	const char *zp;
	uint64_t mem = 0, avail;

	strbuf_init(&st->notes, 0);
	ctx->priv = st;
	if (vmscal_hw_probe(&st->hw, ctx->sysroot ? ctx->sysroot : "/",
			    ctx->nr_cpu, err) < 0 ||
	    read_params(ctx, st, &mem, err) < 0)
		return BENCH_ERROR;
	zp = job_get(ctx->job, "env_zero_page");
	st->hw.no_zero_page = zp && !strcmp(zp, "no");
	avail = st->hw.mem_avail;
	if (mem)
		vmscal_hw_scale(&st->hw, mem);
	if (vmscal_plan(&st->hw, &st->p, &st->plan, err) < 0)
		return BENCH_ERROR;
	if (st->plan.skip) {
		strbuf_addstr(ctx->skip_reason, st->plan.skip);
		return BENCH_SKIP;
	}
	if (cap_footprint(st, avail, err) < 0)
		return BENCH_ERROR;
	zero_page_note(st);
	set_sysctls(st);
	pre = param(ctx->job, "pre_setup");
	if (make_dirs(ctx, st, pre && truthy(pre->text), err) < 0)
		return BENCH_ERROR;
	return BENCH_OK;
}

static int vmscal_run(struct bench_ctx *ctx)
{
	struct vmscal_state *st = ctx->priv;
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	uint64_t n = 1, i;
	time_t t0 = time(NULL);
	int status = 0;

	if (st->notes.len && write(1, st->notes.buf, st->notes.len) < 0)
		return 1;
	strbuf_addf(&sb, "./case-%s", st->plan.name);
	if (st->p.size) {
		char line[64];
		int len;

		n = vmscal_repeat_count(&st->hw, &st->p);
		len = snprintf(line, sizeof(line), "repeat count: %" PRIu64 "\n", n);
		if (write(1, line, (size_t)len) < 0)
			return 1;
	}
	for (i = 0; i < n; i++) {
		vmscal_log_test(1, sb.buf);
		if (vmscal_exec(&st->plan, st->shm_dir, st->sparse_dir, 1, &err) < 0) {
			fprintf(stderr, "perfsift: %s\n", err.buf);
			status = 1;
			break;
		}
		if (st->p.size && (double)(time(NULL) - t0) > st->p.runtime) {
			static const char msg[] =
				"runtime exceeded, consider adjust size configuration\n";

			if (write(1, msg, sizeof(msg) - 1) < 0)
				status = 1;
			break;
		}
	}
	strbuf_release(&err);
	strbuf_release(&sb);
	return status;
}

static void vmscal_cleanup(struct bench_ctx *ctx)
{
	struct vmscal_state *st = ctx->priv;

	if (!st)
		return;
	if (st->mounted && umount2(st->shm_dir, MNT_DETACH) < 0)
		warning("vm-scalability: cannot unmount '%s': %s", st->shm_dir,
			strerror(errno));
	if (st->shm_dir)
		remove_tree(st->shm_dir);
	if (st->sparse_dir)
		remove_tree(st->sparse_dir);
	free(st->shm_dir);
	free(st->sparse_dir);
	free(st->test);
	strbuf_release(&st->notes);
	free(st);
	ctx->priv = NULL;
}

const struct bench_ops bench_vm_scalability = {
	.name = "vm-scalability",
	.prepare = vmscal_prepare,
	.run = vmscal_run,
	.cleanup = vmscal_cleanup,
};
