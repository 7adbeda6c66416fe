/*
 * vmscal_exec.h: running one iteration of a planned vm-scalability case
 * (vmscal_cases.h) -- create its files, run usemem / the readers / the
 * truncation, print the suite's lines (with LKP's log_test lines before
 * each command), remove the files -- and probing the machine the way
 * hw_vars does.  No job file involved: tests and bench/ call it directly.
 */
#ifndef PERFSIFT_VMSCAL_EXEC_H
#define PERFSIFT_VMSCAL_EXEC_H

#include "util/compat.h"
#include "benchmarks/vmscal_cases.h"

struct strbuf;

/* hw_vars' facts, read under sysroot; 0 or -1 with err */
int vmscal_hw_probe(struct vmscal_hw *hw, const char *sysroot,
		    unsigned nr_cpu, struct strbuf *err);

/* one write() of text to an existing kernel file (cgroup, /proc/sys); 0 or -1, errno */
int vmscal_write_kernel_file(const char *path, const char *text, size_t len);

/* "2026-11-30 07:00:00  <what>\n" as LKP's log_test prints it, to fd */
void vmscal_log_test(int fd, const char *what);

/*
 * One iteration of plan: files go in shm_dir (VMF_SHM) or sparse_dir
 * (VMF_SPARSE); output to out_fd.  0, or -1 with err (a worker failed
 * or was killed).
 */
int vmscal_exec(const struct vmscal_plan *plan, const char *shm_dir,
		const char *sparse_dir, int out_fd, struct strbuf *err);

#endif
