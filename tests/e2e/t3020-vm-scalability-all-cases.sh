#!/bin/sh
# t3020: every case of jobs/vm-scalability.yaml (LKP's matrix), run at a
# tiny size (the suite sizing a 4 MiB machine, half-second runtime):
# each either runs and yields vm-scalability.throughput or says why it
# is skipped; none fails, and nothing is left mounted or changed.
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
	test "$(find "$PERFSIFT_RESULT_ROOT" -name stats.json | wc -l)" -ge 30
'

test_expect_success 'no mount and no scratch file left behind' '
	! grep -q vm-scalability /proc/mounts &&
	! ls /var/tmp | grep -q perfsift-vm-scalability
'

test_done
