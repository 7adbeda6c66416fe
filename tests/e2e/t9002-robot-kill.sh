#!/bin/sh
# t9002: a robot SIGKILLed anywhere carries on at its next start, runs
# nothing twice and mails nothing twice: killed in the middle of the
# bisect, right after it (verdict not recorded), halfway through
# appending the mail, and after delivering it (not marked sent).
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-robot.sh"

# the single mail of mbox $1 names the 4th commit, and is well formed
one_mail() {
	test "$(mails "$1")" -eq 1 &&
	test_grep "^Subject: \[perfsift\] \[demo/feature/slow\] $(cut -c1-10 c4): mytest.ms +50.0% regression\$" "$1" &&
	check_mbox "$1"
}

test_expect_success 'setup: upstream, job, config' '
	make_upstream up &&
	write_robot_job job.yaml &&
	write_config robot.yaml "$PWD/up" &&
	git -C up rev-parse feature/slow~2 >c4
'

test_expect_success 'SIGKILL in the middle of the bisect (after its first step)' '
	fresh mid &&
	# a simple command, so that $! is perfsift itself
	"$PERFSIFT" robot --config mid/robot.yaml --once >mid/log1 2>&1 &
	pid=$! &&
	i=0 &&
	while ! grep -q "^bisect: \[[0-9]*/[0-9]*\] " mid/log1 && [ $i -lt 1200 ]; do
		sleep 0.05; i=$((i + 1))
	done &&
	kids=$(ps -o pid= --ppid $pid || :) &&
	kill -KILL $pid &&
	{ wait $pid; echo $? >status; } &&
	test "$(cat status)" -eq 137 &&
	# the run a child was doing finishes on its own: wait for it
	for k in $kids; do
		while kill -0 "$k" 2>/dev/null; do sleep 0.05; done
	done &&
	test "$(mails mid/sent.mbox)" -eq 0 &&
	grep "^bisect: \[[0-9]*/[0-9]*\] " mid/log1 |
		sed "s/^bisect: \[[0-9]*\/[0-9]*\] \([0-9a-f]*\) .*/\1/" >mid/step1 &&
	test -s mid/step1
'

test_expect_success 'started again: the same single mail, the step not re-run' '
	use mid &&
	again mid &&
	one_mail mid/sent.mbox &&
	test_grep "^bisect: \[[0-9]*/[0-9]*\] $(cat mid/step1) [a-z]*: .* runs from the index)" mid/log2 &&
	test_grep "^confirmation: confirmed" mid/log2
'

test_expect_success 'a third start: nothing more' '
	use mid &&
	again mid &&
	test_grep "pass done: 0 heads tested, 0 mails sent" mid/log2 &&
	one_mail mid/sent.mbox
'

test_expect_when test_have_hooks "$HOOKS_REASON" \
	'SIGKILL when the bisect is done, its verdict not recorded' '
	fresh done &&
	crash done robot-bisect-done &&
	test "$(mails done/sent.mbox)" -eq 0 &&
	robot_runs >done/runs1 &&
	again done &&
	one_mail done/sent.mbox &&
	robot_runs >done/runs2 &&
	test_cmp done/runs1 done/runs2
'

test_expect_when test_have_hooks "$HOOKS_REASON" \
	'SIGKILL halfway through appending the mail' '
	fresh torn &&
	crash torn robot-torn-mail &&
	test -s torn/sent.mbox &&
	! grep -q "^To reproduce:" torn/sent.mbox &&
	robot_runs >torn/runs1 &&
	again torn &&
	one_mail torn/sent.mbox &&
	test_grep "^To reproduce:" torn/sent.mbox &&
	robot_runs >torn/runs2 &&
	test_cmp torn/runs1 torn/runs2
'

test_expect_when test_have_hooks "$HOOKS_REASON" \
	'SIGKILL after delivering, before marking it sent' '
	fresh sent &&
	crash sent robot-mail-delivered &&
	one_mail sent/sent.mbox &&
	again sent &&
	one_mail sent/sent.mbox &&
	perfsift robot --config sent/robot.yaml --status >sent/status &&
	test_grep "^demo/feature/slow .* regression  *$(cut -c1-10 c4) sent\$" sent/status
'

test_done
