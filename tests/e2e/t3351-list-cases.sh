#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3351: perfsift run JOB --list-cases lists the cases of the job's
# benchmarks from the program table, each with whether it can run here
# and why not -- the run's own checks (swap, NUMA nodes, the hugetlb
# pool, KSM, a memory cgroup; the program installed), asked of a fake
# sysroot so that the answer does not depend on this machine -- and runs,
# sets and writes nothing.
. "$(dirname "$0")/lib.sh"

# a machine with all a case may ask for, and one with none of it
mkdir -p rich/proc/sys/vm rich/proc/sys/kernel rich/sys/kernel/mm/ksm \
	rich/sys/kernel/mm/transparent_hugepage/khugepaged \
	rich/sys/devices/system/node/node0 rich/sys/devices/system/node/node1 \
	rich/sys/fs/cgroup/memory poor/proc/sys/vm
printf 'MemTotal: 4194304 kB\nMemFree: 3000000 kB\nMemAvailable: 3500000 kB\nSwapTotal: 1048576 kB\n' >rich/proc/meminfo
printf 'MemTotal: 4194304 kB\nMemFree: 3000000 kB\nMemAvailable: 3500000 kB\nSwapTotal: 0 kB\n' >poor/proc/meminfo
echo 0 >rich/proc/sys/vm/nr_hugepages
echo 0 >rich/proc/sys/vm/nr_overcommit_hugepages
echo 18446744073692774399 >rich/proc/sys/kernel/shmmax
for k in run pages_to_scan sleep_millisecs; do echo 0 >"rich/sys/kernel/mm/ksm/$k"; done
echo 'always [madvise] never' >rich/sys/kernel/mm/transparent_hugepage/enabled
echo 10000 >rich/sys/kernel/mm/transparent_hugepage/khugepaged/scan_sleep_millisecs
echo 9223372036854771712 >rich/sys/fs/cgroup/memory/memory.limit_in_bytes

cat >vms.yaml <<\EOT
suite: vm-scalability
testcase: vm-scalability
runtime: 1
vm-scalability:
  test:
    - anon-w-seq
    - fork
EOT

# the sysroot's files and their contents: a probe sets no knob
snapshot() {
	find "$1" -type f | sort | while read -r f; do printf '%s: %s\n' "$f" "$(cat "$f")"; done
}

test_expect_success 'every case of the table, the job'\''s marked, all runnable on a rich machine' '
	snapshot rich >before &&
	PERFSIFT_SYSROOT="$PWD/rich" perfsift run vms.yaml --list-cases >out 2>err &&
	head -1 out | grep -q "^vm-scalability: its cases (test:)" &&
	test "$(grep -c "^[* ] [a-z0-9-]* *runs here$" out)" -gt 60 &&
	test_grep "^\* anon-w-seq  *runs here$" out &&
	test_grep "^\* fork  *runs here$" out &&
	test_grep "^  swap-w-rand  *runs here$" out &&
	test_grep "^  hugetlb  *runs here$" out &&
	test_grep "^  ksm-hugepages  *runs here$" out &&
	test_grep "^  lru-memcg  *runs here$" out &&
	# LKP sizes its NUMA cases by none of hw_vars: perfsift plans them at
	# size 0 (a limit of the suite here, not of the machine)
	grep "not here" out >skipped &&
	test "$(grep -c "not here: the case.s size is 0 on this machine$" skipped)" = 3 &&
	test "$(grep -c "^  \(mbind\|migrate\|migrate-across-nodes\) " skipped)" = 3 &&
	snapshot rich >after &&
	test_cmp before after
'

test_expect_success 'a poor machine: each case says why it cannot run here' '
	PERFSIFT_SYSROOT="$PWD/poor" perfsift run vms.yaml --list-cases >out 2>err &&
	test_grep "^\* anon-w-seq  *runs here$" out &&
	test_grep "^  swap-w-rand  *not here: needs swap, this machine has none$" out &&
	test_grep "^  mbind  *not here: needs 2 NUMA nodes, this machine has 1$" out &&
	test_grep "^  hugetlb  *not here: no hugetlb pool in this kernel" out &&
	test_grep "^  anon-w-seq-hugetlb  *not here: no hugetlb pool in this kernel" out &&
	test_grep "^  ksm  *not here: cannot set /sys/kernel/mm/ksm/run" out &&
	test_grep "^  lru-memcg  *not here: needs a memory cgroup" out
'

test_expect_success 'the job'\''s own parameters size the cases (--set too)' '
	PERFSIFT_SYSROOT="$PWD/rich" perfsift run vms.yaml --set vm-scalability.mem=16M \
		--list-cases >out 2>err &&
	test_grep "^  mincore-hugepages  *not here: the case.s size is 0 on this machine$" out &&
	test_grep "^\* anon-w-seq  *runs here$" out
'

test_expect_success 'nothing run or written; a job without its test: still lists' '
	! test -e "$PERFSIFT_RESULT_ROOT" &&
	printf "suite: x\nwill-it-scale:\n" >wis.yaml &&
	perfsift run wis.yaml --list-cases >out 2>err &&
	for t in page_fault1 page_fault2 page_fault3 malloc1 malloc2 mmap1 mmap2 brk1 \
		context_switch1 pipe1 poll1 poll2 futex1 futex2 lock1 open1 open2 read1 \
		read2 write1 signal1 sched_yield getppid1 unlink1 unlink2 dup1 eventfd1 \
		fallocate1 lseek1 lseek2 pread1 pread2 pread3 pwrite1 pwrite2 pwrite3 \
		posix_semaphore1 tlb_flush1 tlb_flush2 tlb_flush3 unix1; do
		grep -q "^  $t  *runs here$" out || { echo "no $t" >&2; return 1; }
	done &&
	! grep -q "^\*" out &&
	perfsift run wis.yaml --set will-it-scale.test=brk1 --list-cases >out &&
	test_grep "^\* brk1  *runs here$" out &&
	! test -e "$PERFSIFT_RESULT_ROOT"
'

test_expect_success 'external programs: the table'\''s values, the family, the package to install' '
	perfsift run "$SRCDIR/jobs/fio-quick.yaml" --list-cases >out &&
	test_grep "^fio: its cases (rw:)" out &&
	test_grep "^\* randread " out &&
	test_grep "^  randwrite " out &&
	PATH=/nonexistent "$PERFSIFT" run "$SRCDIR/jobs/sysbench-quick.yaml" --list-cases >out &&
	test_grep "^sysbench-cpu: the programs of .sysbench." out &&
	test_grep "^\* sysbench-cpu  *not here: .sysbench. is not installed (apt-get install sysbench" out &&
	test_grep "^  sysbench-mutex " out &&
	perfsift run "$SRCDIR/jobs/perf-bench-futex-quick.yaml" --list-cases >out &&
	test_grep "^\* hash " out &&
	test_grep "^  lock-pi " out &&
	printf "suite: aim9\naim9:\n  test: add_double\n" >aim9.yaml &&
	perfsift run aim9.yaml --list-cases >out &&
	test_grep "^\* aim9  *not here: perfsift only parses its output" out
'

test_expect_success 'help keys points from a case option to --list-cases' '
	perfsift help keys will-it-scale >out &&
	test_grep "^  test  *enum .*--list-cases. lists them$" out &&
	perfsift help keys fio >out &&
	test_grep "^  rw  *enum .*--list-cases. lists them$" out &&
	! grep "^  bs .*list-cases" out
'

test_expect_success 'a job without a benchmark, or a bad job: exit 2' '
	printf "suite: x\nvmstat:\n" >nob.yaml &&
	test_must_fail --status=2 perfsift run nob.yaml --list-cases >out 2>err &&
	test_grep "^perfsift run: nob.yaml: the job names no benchmark" err &&
	! test -s out &&
	printf "suite: x\nvm-scalability:\n  test: nosuch\n" >bad.yaml &&
	test_must_fail --status=2 perfsift run bad.yaml --list-cases >out 2>err &&
	test_grep "^perfsift run: bad.yaml:3: vm-scalability.test: .nosuch. is not a case" err
'

test_done
