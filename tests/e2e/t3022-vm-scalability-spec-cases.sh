#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3022: the suite's cases beyond LKP's vm-scalability.yaml -- the hugetlb
# cases (the pool grown through the knob journal), the 000-* fillers,
# fork(-sleep), hugetlb, ksm(-hugepages), lru-memcg, mincore-hugepages,
# posix-fadvise, remap, direct-write, shm-lock-unlock -- each runs at a
# tiny size or says why it is skipped, and every knob, mount, cgroup and
# SysV segment is as it was after; an unknown case is a job error.  The
# run has an IPC namespace of its own, so the segments it leaves are its
# own, whatever other processes (a PostgreSQL) do with theirs meanwhile.
. "$(dirname "$0")/lib.sh"

test_expect_success 'an unknown case: FILE:LINE: KEY, exit 2, nothing written' '
	printf "suite: vm-scalability\nvm-scalability:\n  test:\n    - anon-r-seq\n    - anon-bogus\n" >bogus.yaml &&
	test_must_fail --status=2 perfsift run bogus.yaml >out 2>err &&
	test_grep "bogus.yaml:5: vm-scalability.test: .anon-bogus. is not a case of vm-scalability" err &&
	! test -e "$PERFSIFT_RESULT_ROOT/vm-scalability"
'

test_exclusive
if ! test_have_root; then
	test_skip 'the spec-only cases' 'needs root (knobs, tmpfs, cgroups)'
	test_done
fi

state() {
	for f in /proc/sys/vm/nr_hugepages /proc/sys/vm/nr_overcommit_hugepages \
		 /sys/kernel/mm/transparent_hugepage/enabled \
		 /sys/kernel/mm/transparent_hugepage/khugepaged/scan_sleep_millisecs \
		 /sys/kernel/mm/ksm/run /sys/kernel/mm/ksm/pages_to_scan \
		 /sys/kernel/mm/ksm/sleep_millisecs; do
		echo "$f: $(cat "$f" 2>/dev/null)"
	done
	n=0
	for d in /sys/fs/cgroup/memory/*perfsift-vmscale*; do
		[ -e "$d" ] && n=$((n + 1))
	done
	echo "$n"
}
state >state.before

# run_private JOB: perfsift run JOB >out 2>err in an IPC namespace of its
# own; the SysV segments left in it when perfsift has ended go to segments
run_private() {
	unshare --ipc sh -c '"$PERFSIFT" run "$1" >out 2>err; st=$?
		awk "NR > 1" /proc/sysvipc/shm >segments; exit $st' sh "$1"
}

cases="000-anon 000-shm 000-shm-clean direct-write fork fork-sleep hugetlb ksm
ksm-hugepages lru-memcg mincore-hugepages posix-fadvise remap shm-lock-unlock
anon-w-seq-hugetlb anon-w-rand-hugetlb anon-cow-seq-hugetlb anon-cow-rand-hugetlb"

test_expect_success 'every case runs or is skipped with its reason' '
	{
		printf "suite: vm-scalability\ntestcase: vm-scalability\nruntime: 0.5\n" &&
		printf "vm-scalability:\n  mem: 16M\n  test:\n" &&
		for c in $cases; do printf "    - %s\n" $c; done
	} >spec.yaml &&
	run_private spec.yaml &&
	for c in $cases; do
		grep -q -E -e "-$c: (run 1 of 1: done in|skipped: .)" out || {
			echo "$c: neither done nor skipped" >&2
			return 1
		}
	done &&
	! grep -e "exit status" -e "failed" out err
'

test_expect_success 'the hugetlb cases ran on their own pool (or say why not)' '
	for c in anon-w-seq-hugetlb anon-cow-rand-hugetlb; do
		grep -q -e "-$c: run 1 of 1: done in" -e "-$c: skipped: the kernel cannot provide" out || return 1
	done &&
	if grep -q -e "-anon-w-seq-hugetlb: run 1 of 1: done" out; then
		k=$(find "$PERFSIFT_RESULT_ROOT" -path "*anon-w-seq-hugetlb*" -name knobs) &&
		test_grep "^/proc/sys/vm/nr_overcommit_hugepages [0-9]* -> [1-9]" "$k" &&
		s=$(find "$PERFSIFT_RESULT_ROOT" -path "*anon-w-seq-hugetlb*" -name stats.json) &&
		test_grep "\"vm-scalability.throughput\": " "$s"
	fi
'

test_expect_success 'remap and the fillers give their numbers' '
	r=$(find "$PERFSIFT_RESULT_ROOT" -path "*-remap*" -name vm-scalability -type f) &&
	test_grep "^[0-9]* bytes remapped, [0-9]* usecs, [0-9]* MB/s$" "$r" &&
	for c in 000-anon 000-shm shm-lock-unlock; do
		s=$(find "$PERFSIFT_RESULT_ROOT" -path "*-$c/*" -name stats.json) &&
		test_grep "\"vm-scalability.throughput\": " "$s" || return 1
	done
'

test_expect_success 'knobs, pool, cgroups and segments as they were; no mount left' '
	state >state.after &&
	test_cmp state.before state.after &&
	test_cmp /dev/null segments &&
	! grep -q vm-scalability /proc/mounts
'

test_done
