#!/bin/sh
# t9351: the pass's mail count is what it delivered (issue 25, F14).
# Five branches with one culprit (and main, measured) get one mail (one Message-ID per repo,
# culprit and job); the pass says "1 mails sent" and each other branch
# says its mail was already sent.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-robot.sh"

test_expect_success 'setup: five branches at the same slow head' '
	make_upstream up &&
	for b in a b c d; do
		git -C up branch "feature/slow-$b" feature/slow || return 1
	done &&
	write_robot_job job.yaml &&
	write_config robot.yaml "$PWD/up"
'

test_expect_success 'one pass: one mail, and the count says one' '
	robot_once log &&
	test "$(mails sent.mbox)" -eq 1 &&
	test_grep "pass done: 6 heads tested, 1 mails sent, 0 failures" log &&
	test "$(grep -c ": the mail about $(git -C up rev-parse --short=10 feature/slow~2): already sent\$" log)" -eq 4
'

test_expect_success 'the next pass: nothing sent, nothing counted' '
	robot_once log2 &&
	test_grep "pass done: 0 heads tested, 0 mails sent" log2 &&
	test "$(mails sent.mbox)" -eq 1
'

test_done
