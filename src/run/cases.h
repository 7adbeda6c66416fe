/*
 * cases.h: `perfsift run JOB --list-cases` -- the cases of the benchmarks
 * a job names, each with whether this machine can run it and why not.
 * Everything comes from tables the code already has: the program
 * table's case option (OPTF_CASE: vm-scalability's and will-it-scale's
 * test, fio's rw, perf-bench-futex's and -mem's test) and its values, the
 * programs that share one external command (perf's, sysbench's), and the
 * benchmark's own read-only probe (bench.h), which is prepare()'s check
 * of the machine.  Nothing is run, set or written.
 */
#ifndef PERFSIFT_CASES_H
#define PERFSIFT_CASES_H

#include "util/compat.h"

struct job;
struct strbuf;

/*
 * The listing of every benchmark the jobs name (the documents of one job
 * file, --set applied), appended to out.  0, or -1 with err when no job
 * names a benchmark or a probe fails.
 */
int cases_list(struct job *const *jobs, size_t njobs, struct strbuf *out,
	       struct strbuf *err);

#endif
