#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3020: every case of jobs/vm-scalability.yaml (LKP's matrix), run at a
# tiny size (the suite sizing a 4 MiB machine, half-second runtime):
# each either runs and yields vm-scalability.throughput or is skipped for
# something this machine lacks (swap, a second NUMA node, hugetlb pages,
# a memory cgroup), never for another reason; none fails, and nothing is
# left mounted or changed.
. "$(dirname "$0")/lib.sh"
test_exclusive

if ! test_have_root; then
	test_skip 'every vm-scalability case' 'needs root (tmpfs, sysctls)'
	test_done
fi

test_expect_success 'all 41 cases run or are skipped with a reason' '
	perfsift run "$SRCDIR/jobs/vm-scalability.yaml" --set vm-scalability.mem=4M \
		--set runtime=0.5 --set size=4M >out 2>err &&
	cases=$(sed -n "s/^    - //p" "$SRCDIR/jobs/vm-scalability.yaml") &&
	test "$(echo "$cases" | wc -l)" = 41 &&
	for c in $cases; do
		grep -q -E -e "-$c(-[0-9]+[KMGT])?: (run 1 of 1: done in|skipped: .)" out || {
			echo "$c: neither done nor skipped" >&2
			return 1
		}
	done &&
	! grep -e "exit status" -e "failed" out err
'

test_expect_success 'each case that ran has LKP'"'"'s throughput' '
	for s in $(find "$PERFSIFT_RESULT_ROOT" -name stats.json); do
		test_grep "\"vm-scalability.throughput\": " "$s" || return 1
	done &&
	test "$(find "$PERFSIFT_RESULT_ROOT" -name stats.json | wc -l)" = \
		"$(grep -c ": run 1 of 1: done in" out)"
'

test_expect_success 'a case is skipped only for what this machine lacks' '
	sed -n "s/^[^ ]*: skipped: //p" out >why &&
	while read -r r; do
		case $r in
		"needs swap, this machine has none")
			test "$(awk "NR > 1" /proc/swaps | wc -l)" = 0 ;;
		"needs 2 NUMA nodes, this machine has "*)
			! test -d /sys/devices/system/node/node1 ;;
		"the kernel cannot provide "*" hugetlb pages"*|"cannot let the hugetlb pool grow: "*|"no hugetlb pool in this kernel"*)
			;;
		"needs a memory cgroup"*)
			! test -d /sys/fs/cgroup/memory &&
			! grep -qw memory /sys/fs/cgroup/cgroup.subtree_control ;;
		"the case'"'"'s size is 0 on this machine")
			;;
		*)
			echo "skipped for no lack of the machine: $r"
			false ;;
		esac || return 1
	done <why
'

test_expect_success 'no mount and no scratch file left behind' '
	! grep -q vm-scalability /proc/mounts &&
	! ls /var/tmp | grep -q perfsift-vm-scalability
'

test_done
