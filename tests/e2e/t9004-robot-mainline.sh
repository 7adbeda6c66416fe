#!/bin/sh
# t9004: mainline mode -- the base branch's first head is measured only
# (no back-fill); a regression pushed straight to it is caught against
# the head tested before, bisected and mailed.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-robot.sh"

test_expect_success 'setup: upstream, job, config' '
	make_upstream up &&
	write_robot_job job.yaml &&
	write_config robot.yaml "$PWD/up"
'

test_expect_success 'first pass: main measured, not judged' '
	perfsift robot --config robot.yaml --once >log1 2>&1 &&
	test_grep "demo/main [0-9a-f]*: measured" log1 &&
	test "$(mails sent.mbox)" -eq 1
'

test_expect_success 'three commits on main, the second 50% slower' '
	echo a >up/a && commit up "main: a" &&
	echo 30 >up/delay && commit up "main: slower" &&
	git -C up rev-parse HEAD >slow &&
	echo b >up/b && commit up "main: b"
'

test_expect_success 'next pass: main judged against its last head, culprit mailed' '
	perfsift robot --config robot.yaml --once >log2 2>&1 &&
	grep -v "^job-\|^bisect: \[" log2 &&
	test_grep "^first bad commit: $(cat slow) main: slower\$" log2 &&
	test_grep "^confirmation: confirmed" log2 &&
	test "$(mails sent.mbox)" -eq 2 &&
	test_grep "^Subject: \[perfsift\] \[demo/main\] $(cut -c1-10 slow): mytest.ms +50.0% regression\$" sent.mbox &&
	perfsift robot --config robot.yaml --status >status &&
	test_grep "^demo/main  *$(git -C up rev-parse --short=10 main) .* regression  *$(cut -c1-10 slow) sent\$" status
'

test_expect_success 'a pass with nothing new mails nothing' '
	perfsift robot --config robot.yaml --once >log3 2>&1 &&
	test "$(mails sent.mbox)" -eq 2 &&
	check_mbox sent.mbox
'

test_done
