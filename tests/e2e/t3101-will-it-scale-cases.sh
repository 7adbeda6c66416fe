#!/bin/sh
# shellcheck disable=SC2016
# t3101: every testcase of the built-in will-it-scale runs briefly as
# processes and as threads (two tasks each) and yields LKP's stats, or is
# skipped with what the machine lacks.  The measured window of a run grows
# until it holds an operation, so a loaded machine gives a sample too.
. "$(dirname "$0")/lib.sh"

{
	printf 'suite: will-it-scale\ntestcase: will-it-scale\nruntime: 0.2\nnr_task: 2\n'
	printf 'will-it-scale:\n  mode: both\n  test:\n'
	for c in brk1 context_switch1 dup1 eventfd1 fallocate1 futex1 futex2 getppid1 lock1 lseek1 lseek2 malloc1 malloc2 mmap1 mmap2 open1 open2 page_fault1 page_fault2 page_fault3 pipe1 poll1 poll2 posix_semaphore1 pread1 pread2 pread3 pwrite1 pwrite2 pwrite3 read1 read2 sched_yield signal1 tlb_flush1 tlb_flush2 tlb_flush3 unix1 unlink1 unlink2 write1 brk2 fallocate2 futex3 futex4 lock2 open3 pthread_mutex1 pthread_mutex2 pthread_mutex3 pthread_mutex4 pthread_mutex5 read3 read4 readseek1 readseek2 readseek3 writeseek1 writeseek2 writeseek3; do
		printf '    - %s\n' "$c"
	done
} >all.yaml

test_expect_success 'every testcase gives per_process_ops and per_thread_ops, or says why not' '
	perfsift run all.yaml >out 2>err &&
	n=0 &&
	for raw in $(find "$PERFSIFT_RESULT_ROOT/will-it-scale" -path "*/0/will-it-scale"); do
		c=$(echo "$raw" | sed "s,.*/both-2-0.2-\([^/]*\)/.*,\1,") &&
		s=${raw%/will-it-scale}/stats.json &&
		for k in per_process_ops per_thread_ops workload 2.processes 2.threads; do
			grep -q "\"will-it-scale.$k\": [1-9]" "$s" || {
				echo "$c: no will-it-scale.$k above 0" >&2
				cat "$raw" >&2
				return 1
			}
		done &&
		n=$((n + 1))
	done &&
	skipped=$(grep -c ": skipped: " out) || : &&
	test "$((n + skipped))" = 60 &&
	if [ "$skipped" -gt 0 ]; then grep ": skipped: ..*" out; fi
'

test_done
