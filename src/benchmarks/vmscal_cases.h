/*
 * vmscal_cases.h: the cases of vm-scalability as data and arithmetic --
 * hw_vars' machine-derived sizes (spec/vm-scalability.md 1.5), LKP's job
 * parameters with their defaults, each case's usemem options and files
 * (1.6), its footprint (what it holds in memory at once) and LKP's
 * repeat count.  Pure: no I/O, so every number is unit-tested.
 */
#ifndef PERFSIFT_VMSCAL_CASES_H
#define PERFSIFT_VMSCAL_CASES_H

#include "util/compat.h"
#include "benchmarks/usemem.h"
#include "job/params.h"

struct strbuf;

/* what hw_vars reads from the machine (bytes unless said otherwise) */
struct vmscal_hw {
	unsigned nr_cpu;
	unsigned nr_node;
	uint64_t mem;          /* MemTotal */
	uint64_t mem_avail;    /* MemAvailable */
	uint64_t mem_free;     /* MemFree */
	uint64_t reclaimable;  /* (nr_free_pages + nr_file_pages) * 4096 */
	uint64_t swap_total;
	uint64_t shm_size;     /* size of the tmpfs (size=100% = MemTotal) */
	uint64_t hugepages_free;  /* free 2 MiB hugetlb pages in the pool */
	bool no_zero_page;     /* read faults allocate (env_zero_page: no) */
};

/* hw_vars' derived limits */
uint64_t vmscal_pte_limit(const struct vmscal_hw *hw);   /* mem_avail << 8 */
uint64_t vmscal_rotate_bytes(const struct vmscal_hw *hw); /* min(1<<42, PTE_LIMIT) */
#define VMSCAL_AS_LIMIT (1ull << 46)

/*
 * Scale the machine as if it had `mem` bytes (perfsift's `mem` option):
 * every memory figure is scaled by mem / MemTotal, so every case size
 * follows.  Used by small jobs and tests.
 */
void vmscal_hw_scale(struct vmscal_hw *hw, uint64_t mem);

/*
 * LKP's job parameters of the vm-scalability program
 *
 * The job's vm-scalability options as the program table fills them
 * (programs.c, params.h): typed, checked, defaults applied.
 */
struct vmscal_opts {
	const char *test;           /* borrowed from the job */
	double runtime;             /* seconds; none or 0 in the job: LKP_RUNTIME */
	struct param_share nr_task; /* of the CPUs */
	uint64_t size, unit_size;
	bool pre_setup, sync_rw, sync_free, allow_oom;
	uint64_t bind_cpu;
	bool bind_set; /* bind_cpu given (0 then means nr_cpu/2/nr_task) */
	uint64_t repeat, cpu_delay;
	struct param_share mem; /* of MemTotal */
};

struct vmscal_params {
	const char *test;
	double runtime;      /* seconds each case repeats its work for */
	unsigned nr_task;    /* default nr_cpu */
	uint64_t size;       /* total work; 0 = not given (one run) */
	uint64_t unit_size;  /* 0 = LKP's default per case */
	bool sync_rw, sync_free;
	bool bind_set;       /* bind_cpu given */
	unsigned bind_cpu;   /* 0 -> nr_cpu/2/nr_task */
	unsigned repeat;     /* usemem -r */
	uint64_t cpu_delay;  /* usemem -e, ns */
	bool allow_oom;
};

enum vmscal_kind {
	VMS_USEMEM,      /* one usemem, N processes or threads */
	VMS_USEMEM_EACH, /* N usemem side by side, each with its own file */
	VMS_DD,          /* N (or 2N) readers of N files, dd's line */
	VMS_TRUNCATE,    /* fill the page cache, then truncate */
	VMS_NOTHING,     /* LKP's case runs nothing (mincore: a script bug) */
	VMS_HUGETLB_POOL, /* grow the hugetlb pool, then shrink it back */
	VMS_FADVISE,     /* per file: fadvise WILLNEED, then DONTNEED */
	VMS_REMAP,       /* per file: a populated mapping remapped page by page */
	VMS_DIRECT,      /* per file: O_DIRECT 16 KiB writes */
	VMS_KSM,         /* populated anon memory offered to KSM, then taken back */
	VMS_MINCORE_HUGE, /* a SysV SHM_HUGETLB segment: mincore, mprotect, touch */
};

enum vmscal_file {
	VMF_NONE,
	VMF_SHM,    /* a file on the tmpfs */
	VMF_SPARSE, /* a sparse file in the sparse root (page cache) */
};

struct vmscal_plan {
	const char *name;
	enum vmscal_kind kind;
	enum vmscal_file file;
	unsigned nfiles;        /* files to create */
	uint64_t file_size;     /* each */
	unsigned readers;       /* VMS_DD: readers per file */
	bool truncate_seq;      /* VMS_TRUNCATE: serial, with "faulted in" */
	struct usemem_opts um;  /* per usemem instance (file set at run) */
	uint64_t footprint;     /* bytes held in memory at once */
	unsigned hugepages;     /* 2 MiB hugetlb pages the case maps */
	unsigned hugepages_overcommit; /* nr_overcommit_hugepages to set */
	uint64_t pool_pages;    /* VMS_HUGETLB_POOL, VMS_MINCORE_HUGE: nr_hugepages */
	unsigned workers;       /* VMS_KSM: processes, each um.size bytes */
	bool ksm_thp;           /* VMS_KSM: MADV_HUGEPAGE first (ksm-hugepages) */
	bool memcg;             /* run the readers in a memory cgroup */
	uint64_t memcg_limit;   /* its limit */
	double hold_s;          /* VMS_KSM: how long the memory is offered */
	/* set by the caller after planning (prepare), for the run */
	const char *pool_knob;  /* VMS_HUGETLB_POOL: the nr_hugepages file */
	const char *pool_orig;  /* ... and the value to put back */
	const char *memcg_dir;  /* the memory cgroup's directory */
	const char *skip;       /* set when this machine cannot run it */
	char skip_buf[160];
};

/*
 * Plan test p->test on machine hw.  -1 with err for an unknown case.
 * A case the machine cannot run gets plan->skip set (0 returned).
 */
int vmscal_plan(const struct vmscal_hw *hw, const struct vmscal_params *p,
		struct vmscal_plan *plan, struct strbuf *err);

/*
 * LKP's repeat count when `size` is given: size * nr_node / unit, unit
 * being unit_size or the case's default (mem/2; shm cases shm*nr_cpu/2;
 * lru-shm shm/2) and never more than size.  1 when size is not given.
 */
uint64_t vmscal_repeat_count(const struct vmscal_hw *hw,
			     const struct vmscal_params *p);

/* true when name is a case of the suite */
bool vmscal_case_known(const char *name);

/* the name of case i (sorted), NULL past the last one */
const char *vmscal_case_name(size_t i);

#endif
