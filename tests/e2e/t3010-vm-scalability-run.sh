#!/bin/sh
# t3010: perfsift run of the built-in vm-scalability -- the quick job
# (scaled down further) -n 3 into matrix.json, a skipped case, a THP
# setting split into two groups, and nothing changed on the machine after.
. "$(dirname "$0")/lib.sh"
test_exclusive

# number of values of stat $2 in the matrix.json of the group matching $1
nr_values() {
	m=$(find "$PERFSIFT_RESULT_ROOT" -path "*$1*" -name matrix.json | head -n 1) &&
	grep "\"$2\": \[" "$m" | sed 's/.*\[//; s/\].*//' | tr ',' '\n' | grep -c .
}

# The THP knobs: only this script changes them.  (The suite's sysctls are
# written by every vm-scalability run on the machine, also by other
# checkouts' test runs at the same time, so they are not compared here;
# test_vmscal checks their journaled restore on a fake tree.)
knobs() {
	cat /sys/kernel/mm/transparent_hugepage/enabled \
	    /sys/kernel/mm/transparent_hugepage/use_zero_page 2>/dev/null
}

if ! test_have_root; then
	test_skip 'vm-scalability runs' 'needs root (tmpfs, sysctls)'
	test_done
fi
knobs >knobs.before

test_expect_success 'the quick job -n 3: throughput, system time, time.* x3' '
	perfsift run "$SRCDIR/jobs/vm-scalability-quick.yaml" -n 3 \
		--set runtime=1 --set vm-scalability.mem=32M >out 2>err &&
	for c in anon-r-seq anon-w-seq anon-cow-seq mmap-pread-seq; do
		for s in vm-scalability.throughput vm-scalability.time.system_time \
			 time.system_time time.elapsed_time vm-scalability.free_time; do
			test "$(nr_values "$c" "$s")" = 3 || {
				echo "$c: $s: $(nr_values "$c" "$s") values" >&2
				return 1
			}
		done
	done &&
	raw=$(find "$PERFSIFT_RESULT_ROOT" -path "*anon-r-seq*/0/vm-scalability") &&
	test_grep "  ./case-anon-r-seq$" "$raw" &&
	test_grep "  usemem --runtime 1 -n 2 --readonly [0-9]*$" "$raw" &&
	test_grep "^[0-9]* bytes / [0-9]* usecs = [0-9]* KB/s$" "$raw" &&
	test_grep "^[0-9]* usecs to free memory$" "$raw"
'

test_expect_when 'grep -q "^SwapTotal: *0 kB" /proc/meminfo' 'this machine has swap: the case runs' \
	'a case this machine cannot run is skipped with its reason' '
	cat >swap.yaml <<-\EOT &&
	suite: vm-scalability
	testcase: vm-scalability
	runtime: 1
	vm-scalability:
	  test: swap-w-seq
	EOT
	perfsift run swap.yaml >out 2>err;
	cat out err >all &&
	test_grep "skipped: needs swap, this machine has none" all
'

test_expect_success 'thp_enabled [never, always] gives two groups' '
	cat >thp.yaml <<-\EOT &&
	suite: vm-scalability
	testcase: vm-scalability
	runtime: 1
	transparent_hugepage:
	  thp_enabled: [never, always]
	vm-scalability:
	  test: anon-r-seq
	  mem: 16M
	EOT
	perfsift run thp.yaml >out 2>err &&
	test "$(nr_values never vm-scalability.throughput)" = 1 &&
	test "$(nr_values always vm-scalability.throughput)" = 1 &&
	test "$(find "$PERFSIFT_RESULT_ROOT" -name matrix.json | grep -c -e never -e always)" = 2
'

test_expect_success 'THP is as it was, no mount left' '
	knobs >knobs.after &&
	test_cmp knobs.before knobs.after &&
	! grep -q vm-scalability /proc/mounts
'

test_done
