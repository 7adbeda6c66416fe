/*
 * vm_scalability.c: the built-in `vm-scalability` test program -- LKP's
 * programs/vm-scalability/run in C.  prepare() takes LKP's parameters
 * (runtime, nr_task, test, size, unit_size, pre_setup, sync_rw,
 * bind_cpu, repeat, cpu_delay, sync_free; perfsift's mem -- the memory
 * hw_vars sees, a size or a share of MemTotal like "10%" -- and allow_oom)
 * typed from the program table (struct vmscal_opts, programs.c),
 * sizes the case as hw_vars does, declines what this machine cannot run,
 * caps a footprint the machine cannot hold, writes the suite's sysctls
 * through knob.h and makes the tmpfs / sparse root; run() is LKP's
 * repeat-until-runtime loop; cleanup() removes every file and mount.
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>
#include "benchmarks/bench.h"
#include "benchmarks/vmscal_exec.h"
#include "job/job.h"
#include "setup/knob.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/usage.h"
#include "util/xalloc.h"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif
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
	char *pool_knob, *pool_orig; /* the hugetlb case's nr_hugepages */
	char *memcg_dir;             /* lru-memcg's cgroup, removed at cleanup */
	struct strbuf notes; /* lines for the run's output */
};

/*
 * LKP's parameters from the typed options the program table filled
 * (ctx->params; checked when the job was read): nothing is parsed here.
 * The shares resolve against this machine (nr_task of the CPUs, mem of
 * the MemTotal hw_vars sees).
 */
static void read_params(struct bench_ctx *ctx, struct vmscal_state *st,
			uint64_t *mem)
{
	const struct vmscal_opts *o = ctx->params;
	struct vmscal_params *p = &st->p;
	unsigned nr_cpu = ctx->nr_cpu ? ctx->nr_cpu : 1;

	memset(p, 0, sizeof(*p));
	st->test = xstrdup(o->test);
	p->test = st->test;
	p->runtime = o->runtime; /* the default and "0" are param_fill()'s */
	p->nr_task = param_cpus_of(&o->nr_task, nr_cpu);
	p->size = o->size;
	p->unit_size = o->unit_size;
	p->cpu_delay = o->cpu_delay;
	*mem = param_share_of(&o->mem, st->hw.mem);
	p->bind_set = o->bind_set;
	p->bind_cpu = (unsigned)o->bind_cpu;
	p->repeat = (unsigned)o->repeat;
	p->sync_rw = o->sync_rw;
	p->sync_free = o->sync_free;
	p->allow_oom = o->allow_oom;
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

/*
 * The hugetlb cases: as the suite's setup_hugetlb, let the pool grow by
 * the case's pages on demand (nr_overcommit_hugepages, journaled and put
 * back like every knob), then prove the kernel can provide them now: a
 * private hugetlb mapping of that many pages reserves them (allocating
 * surplus pages) at mmap time, and unmapping gives them back.  Without
 * that proof a worker could die of SIGBUS or OOM halfway through.
 * BENCH_OK, or BENCH_SKIP with the reason.
 */
static int hugetlb_pool(struct bench_ctx *ctx, struct vmscal_state *st)
{
	struct strbuf why = STRBUF_INIT, val = STRBUF_INIT;
	uint64_t len = (uint64_t)st->plan.hugepages << 21;
	void *p;
	int ret = BENCH_SKIP;

	strbuf_addf(&val, "%u", st->plan.hugepages_overcommit);
	if (knob_set("/proc/sys/vm/nr_overcommit_hugepages", val.buf, &why) < 0) {
		strbuf_addf(ctx->skip_reason, "cannot let the hugetlb pool grow: %s",
			    why.buf);
		goto out;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | (21 << MAP_HUGE_SHIFT),
		 -1, 0);
	if (p == MAP_FAILED) {
		strbuf_addf(ctx->skip_reason,
			    "the kernel cannot provide %u 2 MiB hugetlb pages (",
			    st->plan.hugepages);
		human(ctx->skip_reason, len);
		strbuf_addf(ctx->skip_reason, "): %s", strerror(errno));
		goto out;
	}
	munmap(p, len);
	ret = BENCH_OK;
out:
	strbuf_release(&why);
	strbuf_release(&val);
	return ret;
}

/* set knobs (journaled); BENCH_SKIP with the reason when one cannot be set here */
static int case_knobs(struct bench_ctx *ctx, const char *const knobs[][2],
		      size_t n)
{
	struct strbuf why = STRBUF_INIT;
	size_t i;
	int ret = BENCH_OK;

	for (i = 0; i < n && ret == BENCH_OK; i++)
		if (knob_set(knobs[i][0], knobs[i][1], &why) < 0) {
			strbuf_addf(ctx->skip_reason, "cannot set %s to %s: %s",
				    knobs[i][0], knobs[i][1], why.buf);
			ret = BENCH_SKIP;
		}
	strbuf_release(&why);
	return ret;
}

/* the hugetlb pool's size into v; BENCH_SKIP when the kernel has none */
static int read_pool(struct bench_ctx *ctx, struct strbuf *v)
{
	if (knob_get("/proc/sys/vm/nr_hugepages", v) == 0)
		return BENCH_OK;
	strbuf_addstr(ctx->skip_reason, "no hugetlb pool in this kernel (no /proc/sys/vm/nr_hugepages)");
	return BENCH_SKIP;
}

/*
 * The hugetlb case resizes the pool itself (in run()); nr_hugepages is
 * journaled here, at its current value, so that whatever happens to the
 * run the pool goes back to what it was (the suite writes 0).
 */
static int hold_pool(struct bench_ctx *ctx, struct vmscal_state *st)
{
	struct strbuf v = STRBUF_INIT;
	const char *knob = "/proc/sys/vm/nr_hugepages";
	int ret;

	if (read_pool(ctx, &v) != BENCH_OK) {
		strbuf_release(&v);
		return BENCH_SKIP;
	}
	{
		const char *const hold[][2] = {{knob, v.buf}};

		ret = case_knobs(ctx, hold, 1);
	}
	if (ret == BENCH_OK) {
		struct strbuf path = STRBUF_INIT;

		path_join(&path, ctx->sysroot ? ctx->sysroot : "/", knob);
		st->pool_knob = strbuf_detach(&path, NULL);
		st->pool_orig = xstrdup(v.buf);
		st->plan.pool_knob = st->pool_knob;
		st->plan.pool_orig = st->pool_orig;
	}
	strbuf_release(&v);
	return ret;
}

/*
 * mincore-hugepages: THP off, the pool at mem/2M/20 pages (the segment's
 * size) and overcommit at mem/2M/10, all journaled; the suite also sets
 * shmmax, which is already unlimited on today's kernels, and leaves THP
 * at always afterwards, which perfsift does not.  Skipped when the kernel
 * cannot fill the pool.
 */
static int mincore_pool(struct bench_ctx *ctx, struct vmscal_state *st)
{
	struct strbuf pool = STRBUF_INIT, over = STRBUF_INIT, got = STRBUF_INIT;
	uint64_t have = 0;
	const char *why;
	int ret;

	strbuf_addf(&pool, "%" PRIu64, st->plan.pool_pages);
	strbuf_addf(&over, "%u", st->plan.hugepages_overcommit);
	{
		const char *const knobs[][2] = {
			{"/sys/kernel/mm/transparent_hugepage/enabled", "never"},
			{"/proc/sys/vm/nr_hugepages", pool.buf},
			{"/proc/sys/vm/nr_overcommit_hugepages", over.buf},
		};

		ret = case_knobs(ctx, knobs, ARRAY_SIZE(knobs));
	}
	if (ret == BENCH_OK && (knob_get("/proc/sys/vm/nr_hugepages", &got) < 0 ||
				strnum_size(got.buf, &have, &why) < 0 ||
				have < st->plan.pool_pages)) {
		strbuf_addf(ctx->skip_reason,
			    "the kernel cannot provide %" PRIu64 " 2 MiB hugetlb pages (it gave %" PRIu64 ")",
			    st->plan.pool_pages, have);
		ret = BENCH_SKIP;
	}
	if (ret == BENCH_OK) {
		struct strbuf path = STRBUF_INIT;

		path_join(&path, ctx->sysroot ? ctx->sysroot : "/", "/proc/sys/vm/nr_hugepages");
		st->pool_knob = strbuf_detach(&path, NULL);
		st->plan.pool_knob = st->pool_knob;
	}
	strbuf_release(&pool);
	strbuf_release(&over);
	strbuf_release(&got);
	return ret;
}

/*
 * Where lru-memcg's cgroup goes (into dir) and its limit file: cgroup v1
 * memory, else v2 with the memory controller enabled for the root's
 * children.  BENCH_SKIP with the reason when there is neither.
 */
static int memcg_parent(struct bench_ctx *ctx, struct strbuf *dir,
			const char **limit_file)
{
	const char *root = ctx->sysroot ? ctx->sysroot : "/";
	struct strbuf f = STRBUF_INIT, v = STRBUF_INIT;
	int ret = BENCH_OK;

	*limit_file = "memory.limit_in_bytes";
	path_join(dir, root, "/sys/fs/cgroup/memory");
	path_join(&f, dir->buf, *limit_file);
	if (!file_exists(f.buf)) {
		/* v2: the root's children get the memory controller */
		path_join(dir, root, "/sys/fs/cgroup");
		path_join(&f, dir->buf, "cgroup.subtree_control");
		*limit_file = "memory.max";
		if (strbuf_read_file(&v, f.buf, 0) < 0 || !strstr(v.buf, "memory")) {
			strbuf_addstr(ctx->skip_reason,
				      "needs a memory cgroup (cgroup v1 memory, or v2 with the memory controller enabled)");
			ret = BENCH_SKIP;
		}
	}
	strbuf_release(&f);
	strbuf_release(&v);
	return ret;
}

/*
 * lru-memcg: the suite's memory cgroup "vmscale" limited to mem/3, here
 * one of perfsift's own (cgroup v1 memory, else v2 with the memory
 * controller enabled for children); removed at cleanup.
 */
static int make_memcg(struct bench_ctx *ctx, struct vmscal_state *st)
{
	struct strbuf dir = STRBUF_INIT, f = STRBUF_INIT, v = STRBUF_INIT;
	const char *limit_file;
	int ret = BENCH_SKIP;

	if (memcg_parent(ctx, &dir, &limit_file) != BENCH_OK)
		goto out;
	strbuf_addf(&dir, "/perfsift-vmscale.%ld", (long)getpid());
	if (mkdir(dir.buf, 0755) < 0) {
		strbuf_addf(ctx->skip_reason, "cannot make the memory cgroup '%s': %s",
			    dir.buf, strerror(errno));
		goto out;
	}
	st->memcg_dir = xstrdup(dir.buf);
	st->plan.memcg_dir = st->memcg_dir;
	path_join(&f, dir.buf, limit_file);
	strbuf_reset(&v);
	strbuf_addf(&v, "%" PRIu64 "\n", st->plan.memcg_limit);
	if (vmscal_write_kernel_file(f.buf, v.buf, v.len) < 0) {
		strbuf_addf(ctx->skip_reason, "cannot limit the memory cgroup '%s': %s",
			    dir.buf, strerror(errno));
		goto out;
	}
	ret = BENCH_OK;
out:
	strbuf_release(&dir);
	strbuf_release(&f);
	strbuf_release(&v);
	return ret;
}

/* the KSM cases' knobs: KSM on (and for ksm-hugepages, THP and a quick scan) */
static const char *const ksm_knobs[][2] = {
	{"/sys/kernel/mm/ksm/run", "1"},
};
static const char *const ksm_thp_knobs[][2] = {
	{"/sys/kernel/mm/transparent_hugepage/enabled", "always"},
	{"/sys/kernel/mm/ksm/run", "1"},
	{"/sys/kernel/mm/ksm/pages_to_scan", "1000"},
	{"/sys/kernel/mm/ksm/sleep_millisecs", "20"},
	{"/sys/kernel/mm/transparent_hugepage/khugepaged/scan_sleep_millisecs", "0"},
};

/* shm-lock-unlock's SysV segment must fit kernel.shmmax; BENCH_SKIP if not */
static int shm_fits(struct bench_ctx *ctx, const struct vmscal_plan *pl)
{
	struct strbuf v = STRBUF_INIT;
	uint64_t shmmax = 0;
	const char *why;
	int ret = BENCH_OK;

	if (pl->um.lock_shm && knob_get("/proc/sys/kernel/shmmax", &v) == 0 &&
	    strnum_size(v.buf, &shmmax, &why) == 0 && shmmax < pl->um.size) {
		strbuf_addf(ctx->skip_reason,
			    "needs a SysV segment of %" PRIu64 " bytes, kernel.shmmax is %" PRIu64,
			    pl->um.size, shmmax);
		ret = BENCH_SKIP;
	}
	strbuf_release(&v);
	return ret;
}

/*
 * What case_setup() will need, asked without setting anything: the
 * hugetlb pool, the knobs it writes (each there and perfsift's to
 * touch: knob_check()), the memory cgroup, shmmax.  Whether the kernel
 * can then provide the pages is only known by asking it (prepare()).
 */
static int case_resources(struct bench_ctx *ctx, struct vmscal_state *st)
{
	const struct vmscal_plan *pl = &st->plan;
	struct strbuf v = STRBUF_INIT, why = STRBUF_INIT;
	const char *const (*knobs)[2] = NULL;
	const char *limit_file;
	size_t i, n = 0;
	int ret = BENCH_OK;

	if (pl->hugepages || pl->kind == VMS_HUGETLB_POOL || pl->kind == VMS_MINCORE_HUGE)
		ret = read_pool(ctx, &v);
	if (pl->kind == VMS_KSM) {
		knobs = pl->ksm_thp ? ksm_thp_knobs : ksm_knobs;
		n = pl->ksm_thp ? ARRAY_SIZE(ksm_thp_knobs) : ARRAY_SIZE(ksm_knobs);
	}
	for (i = 0; i < n && ret == BENCH_OK; i++)
		if (knob_check(knobs[i][0], &why) < 0) {
			strbuf_addf(ctx->skip_reason, "cannot set %s: %s", knobs[i][0], why.buf);
			ret = BENCH_SKIP;
		}
	if (ret == BENCH_OK && pl->memcg) {
		strbuf_reset(&v);
		ret = memcg_parent(ctx, &v, &limit_file);
	}
	if (ret == BENCH_OK)
		ret = shm_fits(ctx, pl);
	strbuf_release(&v);
	strbuf_release(&why);
	return ret;
}

/* the knobs and resources a case needs beyond the suite's sysctls */
static int case_setup(struct bench_ctx *ctx, struct vmscal_state *st)
{
	struct vmscal_plan *pl = &st->plan;

	if (pl->hugepages)
		return hugetlb_pool(ctx, st);
	if (pl->kind == VMS_HUGETLB_POOL)
		return hold_pool(ctx, st);
	if (pl->kind == VMS_MINCORE_HUGE)
		return mincore_pool(ctx, st);
	if (pl->kind == VMS_KSM)
		return pl->ksm_thp ? case_knobs(ctx, ksm_thp_knobs, ARRAY_SIZE(ksm_thp_knobs))
				   : case_knobs(ctx, ksm_knobs, ARRAY_SIZE(ksm_knobs));
	if (pl->memcg)
		return make_memcg(ctx, st);
	return shm_fits(ctx, pl);
}

/* direct-write fills files on disk: never more than half the free space */
static void cap_disk(struct vmscal_state *st)
{
	struct statvfs sv;
	uint64_t room, want = st->plan.file_size * st->plan.nfiles;

	if (st->plan.kind != VMS_DIRECT || statvfs(st->sparse_dir, &sv) < 0)
		return;
	room = (uint64_t)sv.f_bavail * sv.f_frsize / 2;
	if (want <= room || !st->plan.nfiles)
		return;
	st->plan.file_size = room / st->plan.nfiles & ~(uint64_t)16383;
	strbuf_addf(&st->notes, "perfsift: vm-scalability: direct-write would write ");
	human(&st->notes, want);
	strbuf_addstr(&st->notes, ", more than half the free space of its file system: capped to ");
	human(&st->notes, st->plan.file_size * st->plan.nfiles);
	strbuf_addch(&st->notes, '\n');
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

/*
 * Every return leaves st in ctx->priv, half-made or not: cleanup() runs
 * after any prepare() (bench.h) and frees it, undoing what was made so
 * far -- a mount, the scratch trees, a memory cgroup (knobs go back
 * through the journal).
 */
/*
 * The case planned for this machine (hw_vars, the job's parameters) into
 * st, the machine's MemAvailable into *avail: what prepare() and probe()
 * both start with.  BENCH_SKIP with the plan's reason (no swap, one
 * NUMA node, a size of 0 here).
 */
static int plan_case(struct bench_ctx *ctx, struct vmscal_state *st,
		     uint64_t *avail, struct strbuf *err)
{
	uint64_t mem = 0;

	if (vmscal_hw_probe(&st->hw, ctx->sysroot ? ctx->sysroot : "/",
			    ctx->nr_cpu, err) < 0)
		return BENCH_ERROR;
	read_params(ctx, st, &mem);
	st->hw.no_zero_page = ctx->no_zero_page;
	*avail = st->hw.mem_avail;
	if (mem)
		vmscal_hw_scale(&st->hw, mem);
	if (vmscal_plan(&st->hw, &st->p, &st->plan, err) < 0)
		return BENCH_ERROR;
	if (st->plan.skip) {
		strbuf_addstr(ctx->skip_reason, st->plan.skip);
		return BENCH_SKIP;
	}
	return BENCH_OK;
}

static int vmscal_prepare(struct bench_ctx *ctx, struct strbuf *err)
{
	struct vmscal_state *st = xcalloc(1, sizeof(*st));
	uint64_t avail;
	int ret;

	strbuf_init(&st->notes, 0);
	ctx->priv = st; /* first: from here on cleanup() owns it */
	ret = plan_case(ctx, st, &avail, err);
	if (ret != BENCH_OK)
		return ret;
	if (cap_footprint(st, avail, err) < 0)
		return BENCH_ERROR;
	zero_page_note(st);
	set_sysctls(st);
	if (case_setup(ctx, st) != BENCH_OK)
		return BENCH_SKIP;
	if (make_dirs(ctx, st, ((const struct vmscal_opts *)ctx->params)->pre_setup,
		      err) < 0)
		return BENCH_ERROR;
	cap_disk(st);
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

static void vmscal_cleanup(struct bench_ctx *ctx);

/* prepare()'s plan and checks of the machine, nothing set or made (bench.h) */
static int vmscal_probe(struct bench_ctx *ctx, struct strbuf *err)
{
	struct vmscal_state *st = xcalloc(1, sizeof(*st));
	void *priv = ctx->priv;
	uint64_t avail;
	int ret;

	strbuf_init(&st->notes, 0);
	ctx->priv = st;
	ret = plan_case(ctx, st, &avail, err);
	if (ret == BENCH_OK)
		ret = case_resources(ctx, st);
	vmscal_cleanup(ctx); /* nothing was made: it only frees */
	ctx->priv = priv;
	return ret;
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
	/* the readers are gone: the cgroup is empty (its page cache moves to the parent) */
	if (st->memcg_dir && rmdir(st->memcg_dir) < 0)
		warning("vm-scalability: cannot remove the memory cgroup '%s': %s",
			st->memcg_dir, strerror(errno));
	free(st->memcg_dir);
	free(st->pool_knob);
	free(st->pool_orig);
	free(st->shm_dir);
	free(st->sparse_dir);
	free(st->test);
	strbuf_release(&st->notes);
	free(st);
	ctx->priv = NULL;
}

const struct bench_ops bench_vm_scalability = {
	.name = "vm-scalability",
	/* LKP's index: `.+\.throughput: 1`, `vm-scalability\.median: 1`
	 * (index-perf-all.yaml), `vm-scalability\.stddev: -0.1`
	 * (index-latency-all.yaml); test_stats checks they agree */
	.kpi = "vm-scalability.throughput: higher; "
	       "vm-scalability.median: higher; vm-scalability.stddev: lower",
	.prepare = vmscal_prepare,
	.run = vmscal_run,
	.cleanup = vmscal_cleanup,
	.probe = vmscal_probe,
};
