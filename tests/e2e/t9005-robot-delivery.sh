#!/bin/sh
# t9005: the mail delivered into a maildir and through a sendmail-
# compatible command, once each; --dry-run fetches and says what it
# would test without running or recording anything.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-robot.sh"

test_expect_success 'setup: upstream, job' '
	make_upstream up &&
	write_robot_job job.yaml
'

test_expect_success '--dry-run: what would be tested, nothing run' '
	write_config robot.yaml "$PWD/up" &&
	perfsift robot --config robot.yaml --dry-run >out 2>err &&
	cat out &&
	test_grep "^demo/main: would test .* (mainline: first head, measured only)" out &&
	test_grep "^demo/feature/slow: would test $(git -C up rev-parse --short=10 feature/slow) against $(git -C up rev-parse --short=10 main)\$" out &&
	test -z "$(robot_runs)" &&
	perfsift robot --config robot.yaml --status >status &&
	test_grep "no pass has run yet" status
'

test_expect_success 'maildir: one file in new/, once' '
	sed "s|mbox: .*|maildir: $PWD/Maildir|" robot.yaml >md.yaml &&
	perfsift robot --config md.yaml --once >log 2>&1 &&
	test "$(ls Maildir/new | wc -l)" -eq 1 &&
	test_grep "^Subject: \[perfsift\] \[demo/feature/slow\] " Maildir/new/* &&
	test -z "$(ls Maildir/tmp)" &&
	perfsift robot --config md.yaml --once >log 2>&1 &&
	test "$(ls Maildir/new | wc -l)" -eq 1
'

test_expect_success 'sendmail: the message on the command stdin, once' '
	PERFSIFT_RESULT_ROOT=$TEST_TMP/sm && export PERFSIFT_RESULT_ROOT &&
	printf "#!/bin/sh\ncat >>\"%s/outbox\"\necho \"args: \$*\" >>\"%s/outbox\"\n" \
		"$PWD" "$PWD" >fake-sendmail &&
	chmod +x fake-sendmail &&
	sed "s|mbox: .*|sendmail: $PWD/fake-sendmail -t|" robot.yaml >sm.yaml &&
	perfsift robot --config sm.yaml --once >log 2>&1 &&
	test "$(grep -c "^Message-ID: " outbox)" -eq 1 &&
	test_grep "^args: -t\$" outbox &&
	test_grep "^To: dev@example.org\$" outbox &&
	perfsift robot --config sm.yaml --once >log 2>&1 &&
	test "$(grep -c "^Message-ID: " outbox)" -eq 1
'

test_expect_success 'a failing sendmail: a runtime error, the mail sent at the next pass' '
	PERFSIFT_RESULT_ROOT=$TEST_TMP/smfail && export PERFSIFT_RESULT_ROOT &&
	sed "s|mbox: .*|sendmail: false|" robot.yaml >fail.yaml &&
	test_must_fail --status=3 perfsift robot --config fail.yaml --once 2>err &&
	test_grep "sendmail command .false. exited 1" err &&
	sed "s|sendmail: false|sendmail: $PWD/fake-sendmail|" fail.yaml >fixed.yaml &&
	: >outbox &&
	perfsift robot --config fixed.yaml --once >log 2>&1 &&
	test "$(grep -c "^Message-ID: " outbox)" -eq 1
'

test_done
