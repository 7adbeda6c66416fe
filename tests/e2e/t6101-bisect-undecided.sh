#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t6101: a commit no number of runs can decide -- its figure alternates
# run by run between good's and bad's (planted, nothing timed) -- is run
# up to --max-runs (20 here: the default, bisect.h's 120, would only
# make the test slower) and reported as undecided, skipped as `git bisect
# skip` would, never called good or bad: away from the culprit the bisect
# still names the culprit; as the culprit itself it leaves a range and
# exit status 1.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-bisect.sh"
. "$SRCDIR/tests/e2e/lib-decide.sh"

if ! have_runner; then
	test_skip 'bisect: an undecided commit' 'perfsift run is not in this build'
	test_done
fi

test_expect_success 'setup: 24 commits, +5% from c10, c6 alternating' '
	make_step_repo repo 24 10 5 1 0 0 6 &&
	write_job job.yaml
'

test_expect_success 'c6 is undecided after 20 runs, and c10 is still found' '
	bisect --good c1 --bad c24 --stat mytest.run_ms --max-runs 20 job.yaml -- ./prog &&
	c6=$(git -C repo rev-parse c6 | cut -c1-10) &&
	test_grep "^first bad commit: $(git -C repo rev-parse c10) change 10\$" out &&
	test_grep "^  undecided $c6 median [0-9.]* (20 runs) \[undecided after 20 runs: vs good undecided, vs bad [a-z]*\]  change 6\$" out &&
	! grep "^  \(good\|bad \) $c6" out &&
	test_grep "^bisect: \[5/23\] $c6 undecided: " err &&
	test "$(runs_made c6)" = "" &&
	test "$(runs_of "$(git -C repo rev-parse c6)")" -eq 20
'

test_expect_success 'run again: undecided from its 20 runs in the index, none added' '
	c6=$(git -C repo rev-parse c6 | cut -c1-10) &&
	bisect --good c1 --bad c24 --stat mytest.run_ms --max-runs 20 job.yaml -- ./prog &&
	test_grep "^  undecided $c6 .*(20 runs) \\[undecided after 20 runs" out &&
	test "$(runs_of "$(git -C repo rev-parse c6)")" -eq 20
'

test_expect_success 'setup: the culprit c10 itself alternating' '
	rm -rf repo &&
	make_step_repo repo 24 10 5 1 0 0 10
'

test_expect_success 'an undecided culprit: a range with it, exit 1' '
	PERFSIFT_RESULT_ROOT=$PWD/r2 &&
	export PERFSIFT_RESULT_ROOT &&
	{ bisect --good c1 --bad c24 --stat mytest.run_ms --max-runs 20 job.yaml -- ./prog;
	  test $? -eq 1; } &&
	c10=$(git -C repo rev-parse c10) &&
	test_grep "^the first bad commit could be any of (1 skipped, 1 of them undecided after --max-runs):" out &&
	test_grep "^  $c10 change 10\$" out &&
	test_grep "^  $(git -C repo rev-parse c11) change 11\$" out &&
	test_grep "^  undecided $(echo $c10 | cut -c1-10) " out
'

test_done
