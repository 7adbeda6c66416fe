#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3201: perfsift run of stress-ng -- a job from LKP's
# stress-ng-scheduler.yaml (its first part, two of its stressors, fixed
# work: a bogo-op count per instance well inside a long testtime), LKP's
# command line and stat names (stress-ng.fork.ops_per_sec) beside the
# default monitors, results under ROOT/stress-ng/.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-programs.sh"

if ! command -v stress-ng >/dev/null; then
	test_skip 'stress-ng runs' 'stress-ng is not installed: scripts/install-deps'
	test_done
fi

# LKP's job up to its first `---`, with two of its stressors
test_expect_success "a job from LKP's stress-ng-scheduler.yaml runs" '
	sed -e "/^---/,\$d" -e "/^    [-#]/d" \
		-e "s/^  test:\$/  test:\n    - fork\n    - kill/" \
		"$TESTDATA/lkp/jobs/stress-ng-scheduler.yaml" >sched.yaml &&
	test $(grep -c "^    - " sched.yaml) -eq 2 &&
	perfsift run sched.yaml -n 1 --set testtime=600s --set nr_threads=1 \
		--set stress-ng.ops=20 >out 2>err &&
	run_dirs stress-ng >dirs &&
	test $(wc -l <dirs) -eq 2
'

test_expect_success 'each run: LKP stat names, the default monitors' '
	for t in fork kill; do
		d=$(grep -- "-$t-" dirs) &&
		stat_positive "$d" "stress-ng.$t.ops_per_sec" &&
		stat_positive "$d" "stress-ng.$t.ops" &&
		test "$(stat_value "$d" "stress-ng.$t.pass")" = 1 &&
		has_default_monitors "$d" || return 1
	done
'

test_expect_success "the command line is LKP's, with perfsift's --TEST-ops" '
	d=$(grep -- "-fork-" dirs) &&
	grep -Eq "^[0-9-]+ [0-9:]+ stress-ng --timeout 600 --times --verify --metrics --no-rand-seed --fork 1 --fork-ops 20$" "$d/stress-ng"
'

test_expect_success 'the fixed work ended the run, not the 600 s testtime' '
	d=$(grep -- "-fork-" dirs) &&
	test "$(stat_value "$d" stress-ng.fork.ops)" = 20
'

test_expect_success 'the quick job: its stressors run for their testtime' '
	perfsift run "$SRCDIR/jobs/stress-ng-quick.yaml" -n 1 --set testtime=1s \
		--set stress-ng.test=context >out 2>err &&
	d=$(run_dirs stress-ng | grep -- "-context-1s") &&
	stat_positive "$d" stress-ng.context.ops_per_sec
'

test_expect_success 'a job with neither test nor class fails before the run' '
	printf "suite: stress-ng\ntestcase: stress-ng\nstress-ng:\n  testtime: 1s\n" >none.yaml &&
	test_must_fail perfsift run none.yaml -n 1 >out 2>err &&
	test_grep "neither .test. nor .class." err
'

test_done
