/*
 * usemem.h: perfsift's own implementation of the vm-scalability suite's
 * usemem engine (spec/vm-scalability.md 1.1-1.4): map memory (private
 * /dev/zero, anonymous, hugetlb, or a shared file mapping), touch it 8
 * bytes at a time (read or write, sequential or random, with a step), in
 * N processes and/or M threads, and print the suite's own lines:
 *
 *   "<B> bytes / <U> usecs = <K> KB/s"   per worker, B = size/8 credit per
 *                                        mapping + 8 per access, U since
 *                                        start, K = ((B*1000000)>>10)/U
 *   "<U> usecs to free memory"           per worker, time of the munmaps
 *
 * so that LKP's parser rules apply unchanged.
 */
#ifndef PERFSIFT_USEMEM_H
#define PERFSIFT_USEMEM_H

#include "util/compat.h"

struct strbuf;

struct usemem_opts {
	uint64_t size;     /* bytes per worker (the positional SIZE) */
	unsigned nproc;    /* -n: worker processes (at least one is forked) */
	unsigned nthread;  /* -t: threads per process, 0 = the process works */
	unsigned bind;     /* -b K: pin worker i to CPU (i*K) % ncpu; 0 = off */
	uint64_t unit;     /* -u: mmap and touch in chunks of this; 0 = size */
	uint64_t step;     /* -j: bytes between accesses (default 8) */
	unsigned repeat;   /* -r: passes (0 and 1 = one pass) */
	double runtime;    /* -T: stop after this many whole seconds; 0 = no */
	uint64_t delay_ns; /* -e: spin this long on every new 4 KiB page */
	bool readonly;     /* -o */
	bool open_rw;      /* -w: open/map the file read-write even if -o */
	bool random;       /* -R */
	bool prealloc;     /* -P: one mapping made before fork, shared */
	bool prefault;     /* -F: MAP_POPULATE */
	bool remap;        /* -E: mremap the prealloc mapping to 10x */
	bool anonymous;    /* -O: MAP_ANONYMOUS instead of /dev/zero */
	bool hugetlb;      /* -U (with -O): MAP_HUGETLB */
	bool msync;        /* -S: msync(MS_SYNC) after every pass */
	bool mlock;        /* -M: mlock every chunk after the pass */
	bool sync_rw;      /* -y: all workers start the pass together */
	bool sync_free;    /* -x: all workers free together */
	bool madv_thp;     /* --madv-thp: MADV_HUGEPAGE */
	bool lock_shm;     /* -L: a SysV segment of SIZE locked and unlocked once */
	double sleep_s;    /* -s: sleep before freeing */
	bool seed_set;     /* --random-seed given */
	long seed;
	const char *file;  /* -f: map this file MAP_SHARED */
	int out_fd;        /* where the lines go (1) */
};

void usemem_opts_init(struct usemem_opts *o);

/*
 * Run usemem with these options in the calling process (which forks the
 * workers and waits for them).  Returns 0 when every worker succeeded,
 * 1 otherwise (a worker's own error went to stderr, and err says which
 * worker failed how, e.g. "worker 3 killed by signal 9").
 */
int usemem_run(const struct usemem_opts *o, struct strbuf *err);

/* the options as the suite's command line: "usemem -n 2 --readonly 4096" */
void usemem_cmdline(const struct usemem_opts *o, struct strbuf *out);

/* K of a stats line: ((bytes * 1000000) >> 10) / usecs, in 64-bit like the suite */
uint64_t usemem_kbps(uint64_t bytes, uint64_t usecs);
/* append a stats line: dots (one per extra repeat), then "B bytes / U usecs = K KB/s\n" */
void usemem_format_stats(struct strbuf *out, unsigned dots, uint64_t bytes,
			 uint64_t usecs);
/* append "U usecs to free memory\n" */
void usemem_format_free(struct strbuf *out, uint64_t usecs);

/*
 * The byte count a worker reports for one pass over len bytes at this
 * step without a runtime limit: the allocation credit (len/8) plus 8 per
 * access (sequential: ceil(len/8 / (step/8)) accesses; random: the same
 * number).  Used by tests and by the bench to check the accounting.
 */
uint64_t usemem_pass_bytes(uint64_t len, uint64_t step);

#endif
