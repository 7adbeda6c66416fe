/*
 * usersym.h: user-space sample addresses to function names, for the
 * perf-profile sampler.  The sampler sees a process's address space only
 * as the kernel reports it -- PERF_RECORD_MMAP2 (a file mapped at an
 * address), FORK and an exec's COMM -- or, for a process that was
 * running before sampling began, as /proc/PID/maps says.  An address is
 * resolved against the ELF symbol table (.symtab, else .dynsym) of the
 * file mapped there, read with libelf at the end of the run while the
 * binary still exists (a bisect's worktree is removed after the run).  A
 * file whose inode is no longer the one mapped (rebuilt since) is not
 * read: its names could belong to another build.
 */
#ifndef PERFSIFT_USERSYM_H
#define PERFSIFT_USERSYM_H

#include "util/compat.h"

struct usersym_map {
	uint32_t pid;
	uint64_t start, end, pgoff;
	uint64_t ino;         /* 0: unknown (not checked) */
	uint64_t t0, t1;      /* valid for samples in [t0, t1) */
	size_t file;          /* index into files */
};

struct usersym_fork {
	uint32_t pid, ppid;
	uint64_t t;
};

struct usersym_file; /* one ELF file's functions (usersym.c) */

struct usersym {
	struct usersym_map *maps;
	size_t nmaps, alloc_maps;
	struct usersym_fork *forks;
	size_t nforks, alloc_forks;
	struct usersym_file *files;
	size_t nfiles, alloc_files;
	uint32_t *proc_read;  /* pids whose /proc/PID/maps was read */
	size_t nproc_read, alloc_proc_read;
};

void usersym_init(struct usersym *u);
void usersym_release(struct usersym *u);

/* file [start, start + len) at offset pgoff in pid, from time t on */
void usersym_mmap(struct usersym *u, uint32_t pid, uint64_t start,
		  uint64_t len, uint64_t pgoff, uint64_t ino, uint64_t t,
		  const char *file);
/* pid was forked from ppid at t (a new process, not a thread) */
void usersym_fork(struct usersym *u, uint32_t pid, uint32_t ppid,
		  uint64_t t);
/* pid exec'd at t: its earlier mappings end there */
void usersym_exec(struct usersym *u, uint32_t pid, uint64_t t);
/*
 * The mappings of a process running before sampling began, from
 * SYSROOT/proc/PID/maps, once per pid and only when nothing is known of
 * pid (no mapping, no fork).  true when pid has mappings afterwards.
 */
bool usersym_need_proc(struct usersym *u, const char *sysroot, uint32_t pid);
/*
 * The function at ip in pid at time t (0: time unknown): its name
 * (borrowed from u), or NULL when the file has no symbol there (stripped)
 * or cannot be read; *dso gets the mapped file's path, NULL when no
 * mapping covers ip.
 */
const char *usersym_resolve(struct usersym *u, uint32_t pid, uint64_t ip,
			    uint64_t t, const char **dso);

#endif
