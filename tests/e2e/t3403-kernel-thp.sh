#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3403: the seed's mechanism inside the guest.  vm-scalability anon-r-seq
# with the guest's THP `never` against `always` (the job's setup, set by
# the guest's perfsift on the guest's /sys): the system time falls
# sharply with huge pages, as in the seed; the host's THP is untouched.
# Both settings run in one command, interleaved, so drift of the shared
# machine falls on both alike; the test asks for a fall of more than half
# (here it is about -90%).
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-kernel.sh"

need_kernel K last
THP=/sys/kernel/mm/transparent_hugepage/enabled

cat >thp.yaml <<'EOT'
suite: vm-scalability
testcase: vm-scalability
transparent_hugepage:
  thp_enabled: [never, always]
vm-scalability:
  test: anon-r-seq
  runtime: 3
  mem: 256M
EOT

stat_of() {
	grep "\"$2\":" "$1/stats.json" | sed 's/.*: //; s/,$//'
}

test_expect_success 'guest THP never vs always: system time falls sharply, host THP untouched' '
	cat "$THP" >thp.before 2>/dev/null || echo none >thp.before &&
	perfsift run thp.yaml --kernel "$K" --vm-cpus 2 --vm-memory 1G >out 2>err &&
	{ cat "$THP" 2>/dev/null || echo none; } >thp.after &&
	test_cmp thp.before thp.after &&
	never=$(find "$PERFSIFT_RESULT_ROOT" -path "*-never/*/0/job.yaml" | xargs dirname) &&
	always=$(find "$PERFSIFT_RESULT_ROOT" -path "*-always/*/0/job.yaml" | xargs dirname) &&
	test_grep "transparent_hugepage/enabled .* -> never$" "$never/knobs" &&
	test_grep "transparent_hugepage/enabled .* -> always$" "$always/knobs" &&
	sn=$(stat_of "$never" vm-scalability.time.system_time) &&
	sa=$(stat_of "$always" vm-scalability.time.system_time) &&
	say "system time: never $sn s, always $sa s" &&
	awk -v n="$sn" -v a="$sa" "BEGIN { exit !(n > 0 && a < n / 2) }"
'

test_done
