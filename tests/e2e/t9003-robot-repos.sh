#!/bin/sh
# t9003: a repo that cannot be fetched is reported (stderr, --status) and
# does not stop the other repos; fetched again once it is back.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-robot.sh"

test_expect_success 'setup: a config with an unreachable repo first' '
	make_upstream up &&
	write_robot_job job.yaml &&
	write_config robot.yaml "$PWD/gone" &&
	sed -i "s/name: demo/name: gone/" robot.yaml &&
	cat >>robot.yaml.repo <<-CFG &&
	  - name: demo
	    url: $PWD/up
	    base: main
	    branches: [feature/*]
	CFG
	sed -i "/^jobs:/e cat robot.yaml.repo" robot.yaml &&
	cat robot.yaml
'

test_expect_success 'a pass: exit 1 (a failure), the error said, the other repo mailed' '
	test_must_fail --status=1 perfsift robot --config robot.yaml --once >log 2>&1 &&
	test_grep "error: gone: cannot fetch .*/gone" log &&
	test_grep "pass done: 2 heads tested, 1 mails sent, 1 failures" log &&
	test "$(mails sent.mbox)" -eq 1 &&
	test_grep "^Subject: \[perfsift\] \[demo/feature/slow\] " sent.mbox
'

test_expect_success '--status names the unreachable repo and the other branches' '
	perfsift robot --config robot.yaml --status >status &&
	cat status &&
	test_grep "^gone: unreachable: .*gone" status &&
	test_grep "^demo/feature/slow .* regression .* sent\$" status
'

test_expect_success 'back again: fetched, its error gone from --status' '
	git clone -q --bare up gone &&
	perfsift robot --config robot.yaml --once >log2 2>&1 &&
	! grep "cannot fetch" log2 &&
	perfsift robot --config robot.yaml --status >status &&
	! grep "unreachable" status &&
	test_grep "^gone/feature/slow .* regression .* sent\$" status
'

test_done
