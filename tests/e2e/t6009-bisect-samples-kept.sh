#!/bin/sh
# t6009: a bisect's samples op keeps each commit's runs between its calls
# and adds only the runs completed since (bisect/exec.c, exec_seen): the
# matrix it gives must be the one a full load of the index gives.  With
# PERFSIFT_TEST_SAMPLES_FULL set, a build with test hooks loads in full
# beside every call and stops on any difference.  The job's stats change
# shape from run to run -- a stat some runs lack, an integer stat that is
# 0 in the first runs (dropped while it is 0 everywhere, LKP's rule) and
# 1 later -- which is where appending a run could differ from uniting
# them all.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-bisect.sh"

if ! have_runner; then
	test_skip 'bisect keeps its samples' 'perfsift run is not in this build'
	test_done
fi
if ! test_have_hooks; then
	test_skip 'bisect keeps its samples' 'this build has no test hooks (make DEVELOPER=1)'
	test_done
fi

test_expect_success 'setup: 20 commits, change at c14; stats that come and go' '
	make_repo repo 20 14 0 &&
	write_job job.yaml &&
	cat >shapes.sh <<-EOF
	n=\$(cat "$PWD/count" 2>/dev/null || echo 0)
	echo \$((n + 1)) >"$PWD/count"
	[ \$((n % 3)) = 0 ] && echo "extra: 7.5"
	if [ "\$n" -ge 8 ]; then echo "late: 1"; else echo "late: 0"; fi
	exec ./prog
	EOF
'

test_expect_success 'the kept samples are the full load at every call; c14 is found' '
	PERFSIFT_TEST_SAMPLES_FULL=1 && export PERFSIFT_TEST_SAMPLES_FULL &&
	bisect --good c1 --bad c20 --stat mytest.run_ms -n 2 \
		job.yaml -- sh "$PWD/shapes.sh" &&
	test_grep "^first bad commit: $(git -C repo rev-parse c14) change 14\$" out &&
	test_grep "^confirmation: confirmed" out &&
	! grep -q "BUG" err &&
	test "$(cat count)" -gt 8
'

test_expect_success 'the stats that came and went are in the result root' '
	grep -rq "mytest.extra" "$PERFSIFT_RESULT_ROOT/bisect-e2e" &&
	grep -rq "mytest.late" "$PERFSIFT_RESULT_ROOT/bisect-e2e"
'

test_done
