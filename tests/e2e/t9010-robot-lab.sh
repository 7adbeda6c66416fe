#!/bin/sh
# t9010: the robot's lab mode.  With a throwaway PostgreSQL store and two
# workers started here, t9001's scenario (feature/slow is 50% slower from
# its 4th of 6 commits) goes through the lab's queue: every pass queues
# what it needs and never waits; passes are repeated, each after the
# queue has drained (state, not the clock), until the mail is there or a
# generous bound is reached.  Exactly one report, naming the 4th commit;
# a second run of passes mails nothing and queues nothing.
. "$(dirname "$0")/lib.sh"

: "${PERFSIFT_BUILD:=$SRCDIR/build}"
. "$SRCDIR/tests/e2e/lib-pg.sh"
. "$SRCDIR/tests/e2e/lib-lab.sh"
. "$SRCDIR/tests/e2e/lib-robot.sh"

if ! pg_available; then
	test_skip 'the robot in the lab' 'no PostgreSQL server programs or no libpq'
	test_done
fi

test_expect_success 'a throwaway PostgreSQL server starts' 'pg_start'

test_expect_success 'setup: upstream, job, config for the lab group' '
	make_upstream up &&
	write_robot_job job.yaml &&
	write_config robot.yaml "$PWD/up" &&
	sed -i "s/^    runs: 3\$/    runs: 3\n    testbox_group: box/" robot.yaml &&
	test_grep "testbox_group: box" robot.yaml &&
	git -C up rev-parse feature/slow~2 >c4
'

# lab_once LOG: one pass of the robot on the lab's store
lab_once() {
	perfsift --store "$URL" robot --config robot.yaml --once >"$1" 2>&1
	st=$?
	grep -v "^job-\|^bisect: \[" "$1"
	return $st
}
# no task queued or leased: the workers have done what was asked
drained() { test "$(q "SELECT count(*) FROM lab_tasks WHERE state IN ('queued', 'leased')")" = 0; }

# passes until the mail is there (at most $1), each after the queue drained
passes() {
	_i=0
	while [ "$(mails sent.mbox)" -eq 0 ] && [ $_i -lt "$1" ]; do
		_i=$((_i + 1))
		lab_once "pass.$_i" >/dev/null || { cat "pass.$_i"; return 1; }
		cat "pass.$_i" >>all.log
		wait_for drained || { show_lab; return 1; }
	done
	echo "$_i passes"
}

test_expect_success 'the first pass queues and answers pending, no run here' '
	lab_once pass.0 &&
	cat pass.0 >all.log &&
	test_grep "queued lab task" pass.0 &&
	test "$(mails sent.mbox)" -eq 0 &&
	test "$(q "SELECT count(*) FROM lab_tasks")" -ge 1 &&
	test "$(store_runs)" = 0 &&
	test_grep "^demo/feature/slow .* testing " \
		"$(perfsift robot --config robot.yaml --status >st0; echo st0)" ||
		{ cat st0; false; }
'

test_expect_success 'two workers start' '
	start_worker 1 &&
	start_worker 2
'

test_expect_success 'passes through the queue mail exactly one report' '
	passes 80 &&
	test "$(mails sent.mbox)" -eq 1 || { show_lab; tail -50 all.log; false; }
'

test_expect_success 'the report names the 4th commit, confirmed' '
	c4s=$(cut -c1-10 c4) &&
	test_grep "^Subject: \[perfsift\] \[demo/feature/slow\] $c4s: mytest.ms +50.0% regression\$" sent.mbox &&
	test_grep "^first bad commit: $(cat c4) slow: step 4\$" all.log &&
	test_grep "^confirmation: confirmed" all.log &&
	check_mbox sent.mbox
'

test_expect_success 'every run was a worker run, stored in the lab store' '
	test "$(q "SELECT count(*) FROM lab_tasks WHERE state <> '"'done'"'")" = 0 &&
	test "$(store_runs)" -ge 12 &&
	test "$(q "SELECT count(*) FROM lab_tasks WHERE workdir IS NULL")" = 0
'

# Interleaved as the local robot runs them: every task is one run (but
# the mainline's own first runs, measured with nothing beside them), so
# a commit's runs alternate with the other side's -- base and head in
# the head test, good, commit, bad in the bisect's triplets, parent and
# culprit in the confirmation -- and no commit but the two endpoints
# (whose triplets meet end to end: bad, commit, good | good, commit,
# bad) has two tasks in a row.  A commit's first runs as one task of
# `runs` runs would run back to back, beside nothing.
test_expect_success 'the lab got the runs one at a time, interleaved (ABAB)' '
	main=$(git -C up rev-parse main) &&
	slow=$(git -C up rev-parse feature/slow) &&
	q "SELECT commit_id, runs FROM lab_tasks ORDER BY id" >tasks &&
	test "$(wc -l <tasks)" -ge 12 &&
	awk -F"|" -v main="$main" -v head="$slow" "
		\$2 != 1 && \$1 != main { print \"task of \" \$2 \" runs: \" \$1; bad++ }
		\$1 == prev && \$1 != main && \$1 != head { print \"two in a row: \" \$1; bad++ }
		{ prev = \$1 }
		END { exit bad > 0 }" tasks || { cat tasks; false; }
'

test_expect_success 'a second run of passes mails nothing and queues nothing' '
	n=$(q "SELECT count(*) FROM lab_tasks") &&
	lab_once again.1 && lab_once again.2 &&
	test_grep "pass done: 0 heads tested, 0 mails sent" again.2 &&
	test "$(mails sent.mbox)" -eq 1 &&
	test "$(q "SELECT count(*) FROM lab_tasks")" = "$n"
'

test_expect_success 'the workers stop' '
	kill "$(cat pid.1)" "$(cat pid.2)" &&
	wait_for gone 1 && wait_for gone 2
'

test_done
