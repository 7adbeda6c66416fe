#!/bin/sh
# shellcheck disable=SC2016
# t9101: failures are loud.  A run whose declared KPI is missing from its
# stats (the command was not found, its output parsed to nothing) is a
# failed run, not "done"; in the robot a head that does not build, or
# whose runs fail so, is `error` in --status with the reason, and
# `--once` exits 1.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-robot.sh"

test_expect_success 'perfsift run: nothing parsed for the declared KPI is a failed run' '
	printf "testcase: quiet\nkpi: {mytest.ms: lower}\nmytest:\n  cmdline: echo nothing to see\n" >quiet.yaml &&
	test_must_fail perfsift run quiet.yaml >out 2>&1 &&
	cat out &&
	test_grep "run 1 of 1: failed: no stat matches its declared KPIs (mytest.ms)" out &&
	! grep "run 1 of 1: done" out &&
	st=$(find "$PERFSIFT_RESULT_ROOT" -name last_state | head -1) &&
	test_grep "^kpi_missing: 1\$" "$st" &&
	test_grep "^is_incomplete_run: 1\$" "$st"
'

test_expect_success 'perfsift run: the KPI measured is a run done' '
	printf "testcase: fine\nkpi: {mytest.ms: lower}\nmytest:\n  cmdline: \"echo ms: 3\"\n" >fine.yaml &&
	perfsift run fine.yaml >out 2>&1 &&
	test_grep "run 1 of 1: done" out
'

test_expect_success 'setup: a branch that does not build, one whose bench is gone, one that prints nothing' '
	make_upstream up &&
	git -C up branch -q -D feature/slow &&
	printf "exit 0\n" >up/build.sh &&
	commit up "build: a build script" &&
	git -C up checkout -q -b feature/nobuild main &&
	printf "echo broken >&2; exit 1\n" >up/build.sh &&
	commit up "nobuild: the build breaks" &&
	git -C up checkout -q -b feature/nobench main &&
	git -C up rm -q bench.sh &&
	commit up "nobench: the benchmark is gone" &&
	git -C up checkout -q -b feature/mute main &&
	echo "echo all is well" >up/bench.sh &&
	commit up "mute: the benchmark prints no figure" &&
	git -C up checkout -q main &&
	write_robot_job job.yaml &&
	write_config robot.yaml "$PWD/up" &&
	sed -i "s/build: \"true\"/build: sh build.sh/" robot.yaml
'

test_expect_success 'a pass: exit 1, three failures, no mail' '
	test_must_fail --status=1 perfsift robot --config robot.yaml --once >log 2>&1 &&
	cat log &&
	test_grep "pass done: 4 heads tested, 0 mails sent, 3 failures" log &&
	test "$(mails sent.mbox)" -eq 0
'

test_expect_success '--status: each error with its reason' '
	perfsift robot --config robot.yaml --status >status &&
	cat status &&
	test_grep "^demo/feature/nobuild .* error " status &&
	test_grep "^demo/feature/nobench .* error " status &&
	test_grep "^demo/feature/mute .* error " status &&
	sed -n "/^demo\/feature\/nobuild /{n;p}" status | grep "^  .*build" &&
	sed -n "/^demo\/feature\/mute /{n;p}" status | grep "^  .*no complete run" &&
	sed -n "/^demo\/feature\/nobench /{n;p}" status | grep "^  .*no complete run"
'

test_expect_success 'setup: a job with a monitor that has no source here' '
	git -C up branch -q -D feature/nobuild feature/nobench feature/mute &&
	git -C up checkout -q -b feature/calm main &&
	echo "# calm" >>up/bench.sh &&
	commit up "calm: a comment" &&
	git -C up checkout -q main &&
	printf "testcase: robot-e2e\nkpi: {mytest.ms: lower}\nproc-vmstat:\nmytest:\n  cmdline: sh bench.sh\n" >job.yaml &&
	mkdir empty-sysroot
'

test_expect_success 'a monitor "not available" is said once a pass, not once a run' '
	PERFSIFT_SYSROOT=$PWD/empty-sysroot perfsift robot --config robot.yaml --once >log3 2>&1 &&
	test "$(grep -c "^job-.*run 1 of 1: done" log3)" -ge 6 &&
	test "$(grep -c "proc-vmstat: not available" log3)" -eq 1
'

test_done
