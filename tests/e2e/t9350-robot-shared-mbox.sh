#!/bin/sh
# t9350: the robot's recovery never cuts a shared mbox (issue 25, F6).
# Killed after delivering its mail (not yet recorded as sent), or halfway
# through appending it, the robot finds its own copy at its next start by
# the Message-ID; a mail that another program appended in between under
# the same flock stays, byte for byte.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-robot.sh"

# other MBOX: another program appends a mail, under the mbox's flock as
# MTAs and mail readers take it
other() {
	cat >other.mail <<-\MAIL &&
	From someone@example.org Mon Jan  1 00:00:00 2024
	From: someone@example.org
	To: dev@example.org
	Message-ID: <other@example.org>
	Subject: not the robot's

	another program's mail, which must survive

	MAIL
	flock "$1" sh -c 'cat other.mail >>"$1"' sh "$1"
}

# contains FILE PART: PART's bytes are in FILE, whole
contains() {
	awk -v RS='\001' 'NR == FNR { want = $0; next } END { exit !index(have, want) } { have = $0 }' "$2" "$1"
}

# ours MBOX: how many copies of the robot's mail MBOX holds
ours() {
	grep -c "^Message-ID: <perfsift-robot\." "$1"
}

test_expect_success 'setup: upstream, job, config' '
	make_upstream up &&
	write_robot_job job.yaml &&
	write_config robot.yaml "$PWD/up"
'

test_expect_success 'killed after delivering; another mail appended; restarted' '
	fresh sent &&
	crash sent robot-mail-delivered &&
	test "$(ours sent/sent.mbox)" -eq 1 &&
	other sent/sent.mbox &&
	cp sent/sent.mbox sent/before &&
	again sent &&
	test_grep "delivered before; recorded as sent" sent/log2 &&
	test_grep "pass done: .*, 0 mails sent" sent/log2 &&
	test_cmp sent/before sent/sent.mbox &&
	perfsift robot --config sent/robot.yaml --status >sent/status &&
	test_grep " sent\$" sent/status
'

test_expect_success 'killed halfway through the append; another mail after the torn copy' '
	fresh torn &&
	crash torn robot-torn-mail &&
	other torn/sent.mbox &&
	again torn &&
	test_grep "pass done: .*, 1 mails sent" torn/log2 &&
	test_grep "a torn copy of <perfsift-robot" torn/log2 &&
	# the other mail is there whole (after the torn line, as its writer
	# appended it), once
	contains torn/sent.mbox other.mail &&
	test "$(grep -c "^Message-ID: <other@example.org>" torn/sent.mbox)" -eq 1 &&
	# and one whole copy of the robot mail after it
	test "$(ours torn/sent.mbox)" -eq 2 &&
	sed -n "/^Message-ID: <other@example.org>/,\$p" torn/sent.mbox >rest &&
	test_grep "^To reproduce:" rest
'

test_expect_success 'killed halfway, nothing after the torn copy: it is replaced' '
	fresh tail &&
	crash tail robot-torn-mail &&
	again tail &&
	test "$(ours tail/sent.mbox)" -eq 1 &&
	test_grep "^To reproduce:" tail/sent.mbox &&
	check_mbox tail/sent.mbox
'

test_expect_success 'a third start: nothing more, the other mail still there' '
	use sent &&
	again sent &&
	test_grep "pass done: 0 heads tested, 0 mails sent" sent/log2 &&
	test_cmp sent/before sent/sent.mbox
'

test_done
