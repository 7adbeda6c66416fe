#!/bin/sh
# t6008: a run that fails in a bisect (the job gives no complete run) is
# retried when its commit has given complete runs, and not when it has
# none (BISECT_RUN_RETRIES, src/bisect/bisect.h): a commit that fails once
# among good runs is still judged, one that fails every time is skipped
# at once, and an endpoint that fails for good ends the bisect after its
# retries, naming the endpoint and the run's last_state.  The failed runs
# stay in the result root, failed.  The job's command is a wrapper that
# makes chosen runs of chosen commits exit 1 (a failed run, exit_code.1).
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-bisect.sh"

if ! have_runner; then
	test_skip 'bisect retries a failed run' 'perfsift run is not in this build'
	test_done
fi

# flaky VERSION FROM COUNT: a wrapper of ./prog whose runs of commit
# cVERSION fail after its first FROM runs, COUNT of them (0: every one);
# the runs of each commit are counted in $PWD/count-<version>
flaky() {
	rm -f count-* &&
	cat >flaky.sh <<EOF
c=\$(cat version)
n=\$(cat "$PWD/count-\$c" 2>/dev/null || echo 0)
echo \$((n + 1)) >"$PWD/count-\$c"
if [ "\$c" = $1 ] && [ "\$n" -ge $2 ] && { [ $3 = 0 ] || [ "\$n" -lt \$(($2 + $3)) ]; }; then
	exit 1
fi
exec ./prog
EOF
}

# flaky_bisect ROOT VERSION FROM COUNT: bisect c1..c20 into the result
# root $TEST_TMP/ROOT with the runs of cVERSION failing as flaky says;
# sets $sha (cVERSION) and $short (its first 10 hex digits, as perfsift
# prints a commit).  Its exit status is the bisect's.
flaky_bisect() {
	PERFSIFT_RESULT_ROOT=$TEST_TMP/$1 && export PERFSIFT_RESULT_ROOT &&
	sha=$(cat "c$2.sha") && short=$(echo "$sha" | cut -c1-10) &&
	flaky "$2" "$3" "$4" &&
	bisect --good c1 --bad c20 --stat mytest.run_ms -n 2 \
		job.yaml -- sh "$PWD/flaky.sh"
}

# failed_runs SHA: the failed run directories of SHA in the result root
failed_runs() {
	find "$PERFSIFT_RESULT_ROOT/bisect-e2e" -path "*/$1/[0-9]*/last_state" \
		-exec grep -l 'is_incomplete_run: 1' {} + 2>/dev/null | wc -l
}

test_expect_success 'setup: 20 commits, change at c14 (c10 is the first midpoint)' '
	make_repo repo 20 14 0 &&
	write_job job.yaml &&
	c10=$(git -C repo rev-parse c10) &&
	c20=$(git -C repo rev-parse c20) &&
	echo "$c10" >c10.sha && echo "$c20" >c20.sha
'

test_expect_success 'c10 fails once after a complete run: retried, judged good' '
	flaky_bisect r1 10 1 1 &&
	test_grep "^first bad commit: $(git -C repo rev-parse c14) change 14\$" out &&
	test_grep "^bisect: commit $short: the run failed: exit_code.1: 1, is_incomplete_run: 1; it gave 1 complete runs before: retry 1 of 2\$" err &&
	test_grep "^bisect: \[9/19\] $short good" err &&
	test "$(failed_runs "$sha")" -eq 1 &&
	test "$(runs_of "$sha")" -eq "$(cat count-10)"
'

test_expect_success 'c10 fails every time: skipped at its first run, not retried' '
	flaky_bisect r2 10 0 0 &&
	test_grep "^first bad commit: $(git -C repo rev-parse c14) change 14\$" out &&
	test_grep "^bisect: \[9/19\] $short skip (the job gave no complete run: exit_code.1: 1, is_incomplete_run: 1)" err &&
	! grep -q "retry" err &&
	test "$(cat count-10)" -eq 1 &&
	test "$(failed_runs "$sha")" -eq 1
'

test_expect_success 'bad fails for good after its first 2 runs: 2 retries, then the bisect ends' '
	{ flaky_bisect r3 20 2 0; test $? -eq 3; } &&
	test_grep "retry 2 of 2\$" err &&
	test_grep "bad $short: the job gave no complete run in 3 runs in a row (after 2 complete ones): exit_code.1: 1, is_incomplete_run: 1" err &&
	test "$(cat count-20)" -eq 5 &&
	test "$(failed_runs "$sha")" -eq 3
'

test_done
