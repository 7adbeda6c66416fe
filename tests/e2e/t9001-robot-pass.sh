#!/bin/sh
# t9001: one robot pass over an upstream whose feature/slow makes the
# benchmark 50% slower at its 4th of 6 commits mails exactly one report
# naming that commit, confirmed; a second pass mails nothing; a new
# branch with no change mails nothing; --status says so.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-robot.sh"

test_expect_success 'setup: upstream, job, config' '
	make_upstream up &&
	write_robot_job job.yaml &&
	write_config robot.yaml "$PWD/up" &&
	c3=$(git -C up rev-parse feature/slow~3) &&
	c4=$(git -C up rev-parse feature/slow~2) &&
	echo "$c3" >c3 && echo "$c4" >c4
'

test_expect_success 'a pass: exit 0, one mail' '
	robot_once log1 &&
	test "$(mails sent.mbox)" -eq 1
'

test_expect_success 'the bisect found the 4th commit and confirmed it' '
	test_grep "^first bad commit: $(cat c4) slow: step 4\$" log1 &&
	test_grep "^confirmation: confirmed" log1
'

test_expect_success 'the subject names the tree, branch, culprit and KPI' '
	c4s=$(cut -c1-10 c4) &&
	test_grep "^Subject: \[perfsift\] \[demo/feature/slow\] $c4s: mytest.ms +50.0% regression\$" sent.mbox
'

test_expect_success 'the headers are RFC 5322 and the job is attached' '
	test_grep "^From: perfsift <perfsift@example.org>\$" sent.mbox &&
	test_grep "^To: dev@example.org\$" sent.mbox &&
	test_grep "^Date: [A-Z][a-z][a-z], [0-9][0-9] [A-Z][a-z][a-z] 20[0-9][0-9] [0-9:]* +0000\$" sent.mbox &&
	test_grep "^Message-ID: <perfsift-robot\.$(cut -c1-10 c4)\.[0-9a-f]*@example.org>\$" sent.mbox &&
	test_grep "^MIME-Version: 1.0\$" sent.mbox &&
	test_grep "^Content-Type: multipart/mixed; boundary=" sent.mbox &&
	test_grep "^Content-Disposition: attachment; filename=\"job.yaml\"\$" sent.mbox &&
	sed -n "/filename=\"job.yaml\"/,\$p" sent.mbox >attached &&
	test_grep "^testcase: robot-e2e" attached &&
	test_grep "mytest.ms: lower" attached
'

test_expect_success 'the body is the report of parent vs culprit' '
	test_grep "^FYI, we noticed that mytest.ms +50.0% regression on" sent.mbox &&
	test_grep "^commit $(cat c4) (\"slow: step 4\")\$" sent.mbox &&
	test_grep "^against $(cat c3)\$" sent.mbox &&
	test_grep "^To reproduce:" sent.mbox &&
	# the build step the robot used (its config: build: "true"), recorded
	# in the runs, and the runs of both commits
	test_grep "^        git checkout --detach $(cat c3) && true\$" sent.mbox &&
	test_grep "^        perfsift run job.yaml -n [0-9]* --commit $(cat c3)" sent.mbox &&
	test_grep "^        git checkout --detach $(cat c4) && true\$" sent.mbox &&
	test_grep "^        perfsift compare $(cat c3) $(cat c4)\$" sent.mbox
'

test_expect_success 'the mbox is mboxrd, one Subject: line per mail' '
	check_mbox sent.mbox
'

test_expect_success '--status: the branch, its verdict, culprit and mail' '
	perfsift robot --config robot.yaml --status >status &&
	cat status &&
	test_grep "^demo/feature/slow  *$(git -C up rev-parse --short=10 feature/slow) $(git -C up rev-parse --short=10 main) regression  *$(cut -c1-10 c4) sent\$" status &&
	test_grep "^demo/main  *$(git -C up rev-parse --short=10 main) .* measured " status
'

test_expect_success 'a second pass: nothing new, nothing run, nothing mailed' '
	robot_runs >runs1 &&
	robot_once log2 &&
	test_grep "pass done: 0 heads tested, 0 mails sent" log2 &&
	test "$(mails sent.mbox)" -eq 1 &&
	robot_runs >runs2 &&
	test_cmp runs1 runs2
'

test_expect_success 'a new branch with no change mails nothing' '
	git -C up checkout -q -b feature/same main &&
	echo readme >up/README &&
	commit up "same: a readme" &&
	git -C up checkout -q main &&
	robot_once log3 &&
	test_grep "demo/feature/same [0-9a-f]*: same\$" log3 &&
	test "$(mails sent.mbox)" -eq 1 &&
	perfsift robot --config robot.yaml --status >status &&
	test_grep "^demo/feature/same .* same  *- *-\$" status
'

test_expect_success 'a branch the globs do not match is not tested' '
	git -C up branch other/x feature/slow &&
	robot_once log4 &&
	! grep "other/x" log4 &&
	test "$(mails sent.mbox)" -eq 1
'

test_done
