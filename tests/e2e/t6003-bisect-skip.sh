#!/bin/sh
# t6003: a commit whose build exits 125 is skipped (as in git bisect run);
# the culprit is still found.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-bisect.sh"

if ! have_runner; then
	test_skip 'bisect skips an unbuildable commit' 'perfsift run is not in this build'
	test_done
fi

test_expect_success 'setup: c20 (the first midpoint) does not build; change at c27' '
	make_repo repo 40 27 0 20 &&
	write_job job.yaml
'

test_expect_success 'bisect skips c20 and names c27' '
	perfsift bisect --repo repo --good c1 --bad c40 --build "sh build.sh" \
		--stat mytest.time.user_time job.yaml -- ./prog >out 2>err &&
	cat out &&
	test_grep "^first bad commit: $(git -C repo rev-parse c27) change 27\$" out &&
	c20=$(git -C repo rev-parse --short=12 c20) &&
	test_grep "^bisect: \[19/39\] $c20 skip (the build exited 125)" err &&
	test_grep "^  skip $c20 .*\[the build exited 125\]" out &&
	test "$(runs_of "$(git -C repo rev-parse c20)")" -eq 0 &&
	test "$(measured_now out)" -le 8
'

test_done
