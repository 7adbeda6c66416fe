/*
 * vmscal_cases.c: every case of vm-scalability as a table row (see
 * vmscal_cases.h): how many tasks, which mapping, which access pattern,
 * which hw_vars size, which files.  The sizes are the suite's formulas
 * (spec/vm-scalability.md 1.5-1.6) evaluated on struct vmscal_hw.
 */
#include "util/compat.h"
#include <stdio.h>
#include <string.h>
#include "benchmarks/vmscal_cases.h"
#include "util/strbuf.h"

/* usemem flags of a case */
enum {
	C_MT = 1 << 0,     /* threads (-t N) instead of processes (-n N) */
	C_RO = 1 << 1,     /* --readonly */
	C_RAND = 1 << 2,   /* --random */
	C_PRE = 1 << 3,    /* --prealloc */
	C_PF = 1 << 4,     /* --prefault */
	C_REMAP = 1 << 5,  /* -E */
	C_HUGE = 1 << 6,   /* -O -U */
	C_MSYNC = 1 << 7,  /* -S */
	C_ORW = 1 << 8,    /* --open-rw */
	C_MLOCK = 1 << 9,  /* --mlock */
	C_U40K = 1 << 10,  /* --unit 40960 */
	C_SWAP = 1 << 11,  /* needs swap */
	C_NUMA = 1 << 12,  /* needs two NUMA nodes */
	C_ONE = 1 << 13,   /* one process whatever nr_task (the 000-* fillers) */
	C_FORK = 1 << 14,  /* -n <forks> 0: fork and exit */
	C_SLEEP = 1 << 15, /* --sleep 10 */
	C_LOCK = 1 << 16,  /* -L */
	C_THP = 1 << 17,   /* VMS_KSM: THP memory (ksm-hugepages) */
	C_MEMCG = 1 << 18, /* readers in a memory cgroup limited to mem/3 */
};

/* hw_vars size formulas (per worker unless said otherwise) */
enum vms_size {
	S_NONE,
	S_PTE_N,     /* min(PTE_LIMIT / N, AS_LIMIT) */
	S_ROT_N,     /* ROTATE_BYTES / N */
	S_ROT,       /* ROTATE_BYTES */
	S_ROT_8,     /* ROTATE_BYTES >> 3 */
	S_MEM2_N,    /* mem / 2 / N */
	S_MEM2_N1,   /* mem / 2 / (N + 1) */
	S_MEM4,      /* mem / 4 */
	S_MEM2,      /* mem / 2 */
	S_MEM_N,     /* mem / N */
	S_MEM_N_2,   /* mem / N / 2 */
	S_SHM,       /* shm_size */
	S_SHM_UNIT,  /* unit_size, else shm_size / 2 */
	S_SHM2,      /* shm_size / 2 */
	S_SHM_N_2,   /* shm_size / N / 2 */
	S_SMALL_N,   /* small-allocs-common's size / N */
	S_RECL_N_3,  /* reclaimable / N / 3 */
	S_SWAP_N,    /* (MemAvailable + SwapTotal) * 3 / 4 / N */
	S_MEM_3,     /* mem / 3 */
	S_SHM_3,     /* shm_size / 3 */
	S_MEM_1000,  /* mem / 1000 */
};

struct vms_case {
	const char *name;
	enum vmscal_kind kind;
	enum vmscal_file file;
	unsigned flags;
	enum vms_size size;      /* usemem size */
	enum vms_size file_size; /* each file */
	bool each;               /* one file (and usemem/reader) per task */
	unsigned readers;        /* VMS_DD: readers per file */
};

#define U VMS_USEMEM
#define E VMS_USEMEM_EACH
static const struct vms_case cases[] = {
	{"000-anon", U, VMF_NONE, C_ONE, S_MEM_3, S_NONE, false, 0},
	{"000-shm", U, VMF_SHM, C_ONE, S_SHM_3, S_SHM, false, 0},
	{"000-shm-clean", U, VMF_SHM, C_ONE | C_RO, S_SHM_3, S_SHM, false, 0},
	{"anon-cow-rand", U, VMF_NONE, C_PRE | C_PF | C_RAND, S_MEM2_N1, S_NONE, false, 0},
	{"anon-cow-rand-hugetlb", U, VMF_NONE, C_PRE | C_PF | C_RAND | C_HUGE, S_MEM2_N1, S_NONE, false, 0},
	{"anon-cow-rand-mt", U, VMF_NONE, C_MT | C_PRE | C_PF | C_RAND, S_MEM4, S_NONE, false, 0},
	{"anon-cow-seq", U, VMF_NONE, C_PRE | C_PF, S_MEM2_N1, S_NONE, false, 0},
	{"anon-cow-seq-hugetlb", U, VMF_NONE, C_PRE | C_PF | C_HUGE, S_MEM2_N1, S_NONE, false, 0},
	{"anon-cow-seq-mt", U, VMF_NONE, C_MT | C_PRE | C_PF, S_MEM4, S_NONE, false, 0},
	{"anon-r-rand", U, VMF_NONE, C_RO | C_RAND, S_ROT_N, S_NONE, false, 0},
	{"anon-r-rand-mt", U, VMF_NONE, C_MT | C_RO | C_RAND, S_ROT_N, S_NONE, false, 0},
	{"anon-r-seq", U, VMF_NONE, C_RO, S_PTE_N, S_NONE, false, 0},
	{"anon-r-seq-mt", U, VMF_NONE, C_MT | C_RO, S_PTE_N, S_NONE, false, 0},
	{"anon-rx-rand-mt", U, VMF_NONE, C_MT | C_PRE | C_RO | C_RAND, S_ROT_N, S_NONE, false, 0},
	{"anon-rx-seq-mt", U, VMF_NONE, C_MT | C_PRE | C_RO, S_ROT, S_NONE, false, 0},
	{"anon-w-rand", U, VMF_NONE, C_RAND, S_MEM2_N, S_NONE, false, 0},
	{"anon-w-rand-hugetlb", U, VMF_NONE, C_RAND | C_HUGE, S_MEM2_N, S_NONE, false, 0},
	{"anon-w-rand-mt", U, VMF_NONE, C_MT | C_RAND, S_MEM2_N, S_NONE, false, 0},
	{"anon-w-seq", U, VMF_NONE, 0, S_MEM2_N, S_NONE, false, 0},
	{"anon-w-seq-hugetlb", U, VMF_NONE, C_HUGE, S_MEM2_N, S_NONE, false, 0},
	{"anon-w-seq-mt", U, VMF_NONE, C_MT, S_MEM2_N, S_NONE, false, 0},
	{"anon-wx-rand-mt", U, VMF_NONE, C_MT | C_PRE | C_RAND, S_MEM2_N, S_NONE, false, 0},
	{"anon-wx-seq-mt", U, VMF_NONE, C_MT | C_PRE, S_MEM2, S_NONE, false, 0},
	{"direct-write", VMS_DIRECT, VMF_SPARSE, 0, S_NONE, S_MEM_N, true, 0},
	{"fork", U, VMF_NONE, C_FORK, S_NONE, S_NONE, false, 0},
	{"fork-sleep", U, VMF_NONE, C_FORK | C_SLEEP, S_NONE, S_NONE, false, 0},
	{"hugetlb", VMS_HUGETLB_POOL, VMF_NONE, 0, S_NONE, S_NONE, false, 0},
	{"ksm", VMS_KSM, VMF_NONE, 0, S_MEM_1000, S_NONE, false, 0},
	{"ksm-hugepages", VMS_KSM, VMF_NONE, C_THP, S_MEM2_N, S_NONE, false, 0},
	{"lru-file-mmap-read", E, VMF_SPARSE, C_RO, S_ROT_N, S_ROT_N, true, 0},
	{"lru-file-mmap-read-rand", E, VMF_SPARSE, C_RO | C_RAND, S_ROT_N, S_ROT_N, true, 0},
	{"lru-file-readonce", VMS_DD, VMF_SPARSE, 0, S_NONE, S_ROT_N, true, 1},
	{"lru-file-readtwice", VMS_DD, VMF_SPARSE, 0, S_NONE, S_ROT_N, true, 2},
	{"lru-memcg", VMS_DD, VMF_SPARSE, C_MEMCG, S_NONE, S_ROT_N, true, 1},
	{"lru-shm", E, VMF_SHM, C_RO, S_SHM_N_2, S_SHM, true, 0},
	{"lru-shm-rand", E, VMF_SHM, C_RO | C_RAND, S_SHM_N_2, S_SHM, true, 0},
	{"mbind", U, VMF_NONE, C_NUMA, S_NONE, S_NONE, false, 0},
	{"migrate", U, VMF_NONE, C_NUMA, S_NONE, S_NONE, false, 0},
	{"migrate-across-nodes", U, VMF_NONE, C_NUMA, S_NONE, S_NONE, false, 0},
	{"mincore", VMS_NOTHING, VMF_NONE, 0, S_NONE, S_NONE, false, 0},
	{"mincore-hugepages", VMS_MINCORE_HUGE, VMF_NONE, 0, S_NONE, S_NONE, false, 0},
	{"mlock", U, VMF_NONE, C_MLOCK, S_RECL_N_3, S_NONE, false, 0},
	{"mmap-pread-rand", U, VMF_SPARSE, C_RO | C_RAND, S_ROT_N, S_ROT_N, false, 0},
	{"mmap-pread-rand-mt", U, VMF_SPARSE, C_MT | C_RO | C_RAND, S_ROT_N, S_ROT_N, false, 0},
	{"mmap-pread-seq", U, VMF_SPARSE, C_RO, S_ROT_N, S_ROT, false, 0},
	{"mmap-pread-seq-mt", U, VMF_SPARSE, C_MT | C_RO, S_ROT_8, S_ROT, false, 0},
	{"mmap-xread-rand-mt", U, VMF_SPARSE, C_MT | C_PRE | C_RO | C_RAND, S_ROT_N, S_ROT, false, 0},
	{"mmap-xread-seq-mt", U, VMF_SPARSE, C_MT | C_PRE | C_RO, S_ROT_8, S_ROT, false, 0},
	{"mremap-xread-rand-mt", U, VMF_SPARSE, C_MT | C_PRE | C_RO | C_RAND | C_REMAP, S_ROT_N, S_ROT, false, 0},
	{"msync", E, VMF_SPARSE, C_MSYNC | C_PF | C_PRE | C_ORW, S_MEM_N_2, S_MEM_N, true, 0},
	{"msync-mt", U, VMF_SPARSE, C_MT | C_MSYNC | C_PF | C_PRE | C_ORW, S_MEM2, S_MEM2, false, 0},
	{"posix-fadvise", VMS_FADVISE, VMF_SPARSE, 0, S_NONE, S_ROT_N, true, 0},
	{"remap", VMS_REMAP, VMF_SPARSE, 0, S_MEM_N_2, S_MEM_N_2, true, 0},
	{"shm-lock-unlock", U, VMF_NONE, C_LOCK | C_RAND, S_SHM_N_2, S_NONE, false, 0},
	{"shm-pread-rand", U, VMF_SHM, C_RO | C_RAND, S_SHM_UNIT, S_SHM, false, 0},
	{"shm-pread-rand-mt", U, VMF_SHM, C_MT | C_RO | C_RAND, S_SHM_UNIT, S_SHM, false, 0},
	{"shm-pread-seq", U, VMF_SHM, C_RO, S_SHM_UNIT, S_SHM, false, 0},
	{"shm-pread-seq-mt", U, VMF_SHM, C_MT | C_RO, S_SHM_UNIT, S_SHM, false, 0},
	{"shm-xread-rand", U, VMF_SHM, C_PRE | C_RO | C_RAND, S_SHM2, S_SHM, false, 0},
	{"shm-xread-rand-mt", U, VMF_SHM, C_MT | C_PRE | C_RO | C_RAND, S_SHM2, S_SHM, false, 0},
	{"shm-xread-seq", U, VMF_SHM, C_PRE | C_RO, S_SHM2, S_SHM, false, 0},
	{"shm-xread-seq-mt", U, VMF_SHM, C_MT | C_PRE | C_RO, S_SHM2, S_SHM, false, 0},
	{"small-allocs", U, VMF_NONE, C_RO | C_U40K, S_SMALL_N, S_NONE, false, 0},
	{"small-allocs-mt", U, VMF_NONE, C_MT | C_RO | C_U40K, S_SMALL_N, S_NONE, false, 0},
	{"swap-w-rand", U, VMF_NONE, C_SWAP | C_RAND, S_SWAP_N, S_NONE, false, 0},
	{"swap-w-rand-mt", U, VMF_NONE, C_SWAP | C_MT | C_RAND, S_SWAP_N, S_NONE, false, 0},
	{"swap-w-seq", U, VMF_NONE, C_SWAP, S_SWAP_N, S_NONE, false, 0},
	{"swap-w-seq-mt", U, VMF_NONE, C_SWAP | C_MT, S_SWAP_N, S_NONE, false, 0},
	{"swapin", U, VMF_NONE, C_SWAP, S_SWAP_N, S_NONE, false, 0},
	{"truncate", VMS_TRUNCATE, VMF_SPARSE, 0, S_NONE, S_MEM_N, true, 0},
	{"truncate-seq", VMS_TRUNCATE, VMF_SPARSE, 0, S_NONE, S_MEM_N, true, 0},
};
#undef U
#undef E

const char *vmscal_case_name(size_t i)
{
	return i < ARRAY_SIZE(cases) ? cases[i].name : NULL;
}

/* a linear search: 60-odd cases, looked up once per case a job names */
static const struct vms_case *find_case(const char *name)
{
	size_t i;

	for (i = 0; name && i < ARRAY_SIZE(cases); i++)
		if (!strcmp(cases[i].name, name))
			return &cases[i];
	return NULL;
}

bool vmscal_case_known(const char *name)
{
	return find_case(name) != NULL;
}

/*
 * The suite's PTE_LIMIT, mem_avail << 8: the virtual size whose page
 * tables take half of MemAvailable (one 4 KiB page of PTEs maps 2 MiB, a
 * 512th; the shift is the suite's formula, kept as it is).
 */
uint64_t vmscal_pte_limit(const struct vmscal_hw *hw)
{
	return hw->mem_avail << 8;
}

/* ROTATE_BYTES: PTE_LIMIT, capped at 4 TiB as the suite caps it */
uint64_t vmscal_rotate_bytes(const struct vmscal_hw *hw)
{
	uint64_t pte = vmscal_pte_limit(hw);

	return pte < (1ull << 42) ? pte : 1ull << 42;
}

/* v * num / den without the overflow of 64-bit products of byte counts */
static uint64_t scale(uint64_t v, uint64_t num, uint64_t den)
{
	return (uint64_t)((long double)v * (long double)num / (long double)den);
}

/*
 * The machine as if it had mem bytes (a job's `mem:`, a memory limit):
 * the other memory facts shrink in proportion, so the cases keep the
 * shape they would have on a smaller machine.
 */
void vmscal_hw_scale(struct vmscal_hw *hw, uint64_t mem)
{
	uint64_t old = hw->mem ? hw->mem : 1;

	hw->mem_avail = scale(hw->mem_avail, mem, old);
	hw->mem_free = scale(hw->mem_free, mem, old);
	hw->reclaimable = scale(hw->reclaimable, mem, old);
	hw->shm_size = scale(hw->shm_size, mem, old);
	hw->mem = mem;
}

static uint64_t small_allocs_size(const struct vmscal_hw *hw)
{
	uint64_t size = vmscal_rotate_bytes(hw);

	while (size && size / 40960 > 21 * (hw->mem / 3) / 4096)
		size /= 2;
	return size;
}

/*
 * A case's size formula (spec/vm-scalability.md 1.6) on this machine for
 * n tasks.  Per-task sizes divide by n, so the case's total stays the
 * formula's whatever nr_task is.
 */
static uint64_t eval_size(enum vms_size s, const struct vmscal_hw *hw,
			  const struct vmscal_params *p, unsigned n)
{
	uint64_t v;

	switch (s) {
	case S_NONE:
		return 0;
	case S_PTE_N:
		v = vmscal_pte_limit(hw) / n;
		return v < VMSCAL_AS_LIMIT ? v : VMSCAL_AS_LIMIT;
	case S_ROT_N:
		return vmscal_rotate_bytes(hw) / n;
	case S_ROT:
		return vmscal_rotate_bytes(hw);
	case S_ROT_8:
		return vmscal_rotate_bytes(hw) >> 3;
	case S_MEM2_N:
		return hw->mem / 2 / n;
	case S_MEM2_N1:
		return hw->mem / 2 / (n + 1);
	case S_MEM4:
		return hw->mem / 4;
	case S_MEM2:
		return hw->mem / 2;
	case S_MEM_N:
		return hw->mem / n;
	case S_MEM_N_2:
		return hw->mem / n / 2;
	case S_SHM:
		return hw->shm_size;
	case S_SHM_UNIT:
		return p->unit_size ? p->unit_size : hw->shm_size / 2;
	case S_SHM2:
		return hw->shm_size / 2;
	case S_SHM_N_2:
		return hw->shm_size / n / 2;
	case S_SMALL_N:
		return small_allocs_size(hw) / n;
	case S_RECL_N_3:
		return hw->reclaimable / n / 3;
	case S_SWAP_N:
		return (hw->mem_avail + hw->swap_total) * 3 / 4 / n;
	case S_MEM_3:
		return hw->mem / 3;
	case S_SHM_3:
		return hw->shm_size / 3;
	case S_MEM_1000:
		return hw->mem / 1000;
	}
	return 0;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* what the case holds in memory at once (page cache does not count: it is reclaimable) */
static uint64_t footprint(const struct vmscal_hw *hw, const struct vms_case *c,
			  const struct vmscal_plan *pl, unsigned n)
{
	uint64_t size = pl->um.size;
	uint64_t copies = (c->flags & C_MT) ? 1 : (c->flags & C_ONE) ? 1 : n;

	if (c->kind == VMS_USEMEM_EACH)
		copies = n;
	if (c->flags & C_FORK) /* a small forked process: ~160 KiB of kernel memory */
		return (uint64_t)pl->um.nproc * (160u << 10);
	if (c->kind == VMS_HUGETLB_POOL || c->kind == VMS_MINCORE_HUGE)
		return pl->pool_pages << 21;
	if (c->kind == VMS_KSM)
		return (uint64_t)pl->workers * size;
	if (c->kind == VMS_REMAP) /* populated, mapped: not reclaimable while held */
		return (uint64_t)n * size;
	if (c->kind == VMS_DIRECT || c->kind == VMS_FADVISE)
		return 0;
	if (c->flags & C_LOCK) /* the segment, then the workers' anon memory */
		return size + size * copies;
	if (c->file == VMF_SHM) /* tmpfs pages stay: what is read of the file */
		return (c->kind == VMS_USEMEM_EACH ? n : 1) * min_u64(size, pl->file_size);
	if (c->file == VMF_SPARSE || c->kind == VMS_DD || c->kind == VMS_TRUNCATE)
		return 0;
	if (c->flags & C_HUGE) /* 2 MiB pages taken from free memory into the pool */
		return (uint64_t)pl->hugepages * (2u << 20);
	if (c->flags & C_RO) {
		/* the zero page: only page tables, 8 bytes per 4 KiB, plus VMAs */
		uint64_t va = (c->flags & C_PRE) && (c->flags & C_MT) ? size : size * n;
		uint64_t ft = va / 512;

		/* no zero page: every page read is a page allocated and kept */
		if (hw->no_zero_page)
			ft += va;
		if (c->flags & C_U40K)
			ft += va / 40960 * 256;
		return ft;
	}
	if (c->flags & C_PRE)
		/* processes: the parent's populated copy + one COW copy each */
		return (c->flags & C_MT) ? size : size * (n + 1);
	return size * copies;
}

int vmscal_plan(const struct vmscal_hw *hw, const struct vmscal_params *p,
		struct vmscal_plan *pl, struct strbuf *err)
{
	const struct vms_case *c = find_case(p->test);
	unsigned n = p->nr_task ? p->nr_task : (hw->nr_cpu ? hw->nr_cpu : 1);
	struct usemem_opts *o = &pl->um;

	memset(pl, 0, sizeof(*pl));
	if (!c) {
		strbuf_addf(err, "vm-scalability: unknown test '%s'",
			    p->test ? p->test : "");
		return -1;
	}
	pl->name = c->name;
	pl->kind = c->kind;
	pl->file = c->file;
	pl->readers = c->readers;
	pl->truncate_seq = !strcmp(c->name, "truncate-seq");

	usemem_opts_init(o);
	o->runtime = p->runtime;
	o->sync_rw = p->sync_rw;
	o->sync_free = p->sync_free;
	o->repeat = p->repeat;
	o->delay_ns = p->cpu_delay;
	if (p->bind_set)
		o->bind = p->bind_cpu ? p->bind_cpu : hw->nr_cpu / 2 / n;
	o->size = eval_size(c->size, hw, p, n);
	if (c->kind == VMS_USEMEM) {
		if (c->flags & C_MT)
			o->nthread = n;
		else
			o->nproc = (c->flags & C_ONE) ? 1 : n;
	}
	if (c->flags & C_FORK) {
		/* the suite forks 20000; a small (or scaled) machine 1 per MiB */
		uint64_t forks = hw->mem >> 20;

		o->nproc = (unsigned)(forks > 20000 ? 20000 : forks ? forks : 1);
		if (c->flags & C_SLEEP) /* the suite's 10 s, within the runtime */
			o->sleep_s = p->runtime > 0 && p->runtime < 10 ? p->runtime : 10;
	}
	o->lock_shm = c->flags & C_LOCK;
	if (c->kind == VMS_HUGETLB_POOL)
		pl->pool_pages = hw->mem / (2u << 20) / 3; /* the suite's mem/2M/3 */
	if (c->kind == VMS_MINCORE_HUGE) {
		/* the suite's pool mem/2M/20 + overcommit mem/2M/10; the segment fills the pool */
		pl->pool_pages = hw->mem / (2u << 20) / 20;
		pl->hugepages_overcommit = (unsigned)(hw->mem / (2u << 20) / 10);
		o->size = pl->pool_pages << 21;
	}
	if (c->kind == VMS_KSM) {
		pl->workers = (c->flags & C_THP) ? n : hw->nr_node; /* one per node */
		pl->ksm_thp = c->flags & C_THP;
		/* the suite offers it for 60 s (ksm) or 20 s; never past the runtime */
		pl->hold_s = (c->flags & C_THP) ? 20 : 60;
		if (p->runtime > 0 && p->runtime < pl->hold_s)
			pl->hold_s = p->runtime;
	}
	if (c->flags & C_MEMCG) {
		pl->memcg = true;
		pl->memcg_limit = hw->mem / 3;
	}
	o->readonly = c->flags & C_RO;
	o->random = c->flags & C_RAND;
	o->prealloc = c->flags & C_PRE;
	o->prefault = c->flags & C_PF;
	o->remap = c->flags & C_REMAP;
	o->anonymous = o->hugetlb = c->flags & C_HUGE;
	o->msync = c->flags & C_MSYNC;
	o->open_rw = c->flags & C_ORW;
	o->mlock = c->flags & C_MLOCK;
	if (c->flags & C_U40K)
		o->unit = 40960;
	pl->file_size = eval_size(c->file_size, hw, p, n);
	pl->nfiles = c->file == VMF_NONE ? 0 : c->each ? n : 1;
	/* a shared mapping read past the end of its file is SIGBUS: never map more */
	if (pl->nfiles && o->size > pl->file_size)
		o->size = pl->file_size;
	if (c->flags & C_HUGE) {
		/* each worker's pages; COW: the parent's populated copy + one per child */
		uint64_t per = (o->size + (2u << 20) - 1) / (2u << 20);

		pl->hugepages = (unsigned)(per * ((c->flags & C_PRE) ? n + 1 : n));
		/* the suite's setup_hugetlb: size/2M + N + 1 */
		pl->hugepages_overcommit = pl->hugepages + n + 1;
	}
	pl->footprint = footprint(hw, c, pl, n);
	if ((c->flags & C_SWAP) && !hw->swap_total)
		pl->skip = "needs swap, this machine has none";
	if ((c->flags & C_NUMA) && hw->nr_node < 2) {
		snprintf(pl->skip_buf, sizeof(pl->skip_buf),
			 "needs 2 NUMA nodes, this machine has %u", hw->nr_node);
		pl->skip = pl->skip_buf;
	}
	if (!pl->skip && (c->kind == VMS_USEMEM || c->kind == VMS_USEMEM_EACH ||
			  c->kind == VMS_KSM || c->kind == VMS_REMAP ||
			  c->kind == VMS_MINCORE_HUGE) &&
	    !(c->flags & C_FORK) && !o->size) {
		pl->skip = "the case's size is 0 on this machine";
	}
	return 0;
}

uint64_t vmscal_repeat_count(const struct vmscal_hw *hw,
			     const struct vmscal_params *p)
{
	uint64_t size, unit;
	const char *t = p->test ? p->test : "";

	if (!p->size)
		return 1;
	size = p->size * (hw->nr_node ? hw->nr_node : 1);
	unit = p->unit_size;
	if (!unit) {
		if (strstr(t, "shm"))
			unit = strstr(t, "lru") ? hw->shm_size / 2
						: hw->shm_size * hw->nr_cpu / 2;
		else
			unit = hw->mem / 2;
	}
	if (!unit || unit > size)
		unit = size;
	return size / unit;
}
