#!/bin/sh
# t6003: a commit whose build exits 125 is skipped (as in git bisect run);
# the culprit is still found.  --install runs, in the worktree, before the
# runs of every commit measured (and never for the skipped one).
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-bisect.sh"

if ! have_runner; then
	test_skip 'bisect skips an unbuildable commit' 'perfsift run is not in this build'
	test_done
fi

test_expect_success 'setup: 20 commits, c10 (the first midpoint) does not build, change at c14' '
	make_repo repo 20 14 0 10 &&
	write_job job.yaml
'

test_expect_success 'bisect skips c10 and names c14' '
	bisect --good c1 --bad c20 --stat mytest.run_ms -n 2 \
		--install "echo \$PERFSIFT_BISECT_COMMIT \$(cat version) >>$PWD/installs" \
		job.yaml -- ./prog &&
	test_grep "^first bad commit: $(git -C repo rev-parse c14) change 14\$" out &&
	c10=$(git -C repo rev-parse --short=10 c10) &&
	test_grep "^bisect: \[9/19\] $c10 skip (the build exited 125)" err &&
	test_grep "^  skip $c10 .*\[the build exited 125\]" out &&
	test "$(runs_of "$(git -C repo rev-parse c10)")" -eq 0 &&
	test "$(measured_now out)" -le 7
'

test_expect_success '--install ran in the worktree of each measured commit' '
	for c in c1 c20 c13 c14; do
		test_grep "^$(git -C repo rev-parse $c) ${c#c}\$" installs || return 1
	done &&
	! grep -q "^$(git -C repo rev-parse c10) " installs
'

test_done
