#!/bin/sh
# t8001: three workers drain 6 tasks of 2 runs each from the lab's queue;
# one is SIGKILLed in the middle of a run (every worker is held inside a
# run by a gate file the test opens) and a fourth starts.  The killed
# worker's task is retaken when its lease runs out and goes on from the
# runs already stored: every task ends done, the store holds exactly 12
# runs, and compare of the two commits works from a fresh result root.
. "$(dirname "$0")/lib.sh"

: "${PERFSIFT_BUILD:=$SRCDIR/build}"
. "$SRCDIR/tests/e2e/lib-pg.sh"
. "$SRCDIR/tests/e2e/lib-lab.sh"

if ! pg_available; then
	test_skip 'the lab workers' 'no PostgreSQL server programs or no libpq'
	test_done
fi

test_expect_success 'a throwaway PostgreSQL server starts' 'pg_start'

# each run marks that it started, then waits for the gate
mkdir started
cat >job.yaml <<EOF2
testcase: mytest
mytest:
  cmdline:
    - "touch $TEST_TMP/started/\$\$; while [ ! -e $TEST_TMP/go ]; do sleep 0.05; done; echo score: 10"
    - "touch $TEST_TMP/started/\$\$; while [ ! -e $TEST_TMP/go ]; do sleep 0.05; done; echo score: 20"
    - "touch $TEST_TMP/started/\$\$; while [ ! -e $TEST_TMP/go ]; do sleep 0.05; done; echo score: 30"
EOF2

test_expect_success 'six tasks of two runs are queued' '
	perfsift --store "$URL" queue add job.yaml --testbox-group box \
		--commit c1 -n 2 --max-attempts 5 >ids &&
	perfsift --store "$URL" queue add job.yaml --testbox-group box \
		--commit c2 -n 2 --max-attempts 5 >>ids &&
	test $(wc -l <ids) = 6
'

three_started() { test $(ls started | wc -l) -ge 3; }
all_done() { test "$(count_state done)" = 6; }

test_expect_success 'a worker killed mid-run: its task is retaken and finished' '
	for s in 1 2 3; do start_worker $s --drain --lease-s 5 || return 1; done &&
	wait_for three_started &&
	kill -9 $(cat pid.1) &&
	start_worker 4 --drain --lease-s 5 &&
	touch go &&
	for s in 2 3 4; do wait $(cat pid.$s) || { cat w.$s.log; return 1; }; done &&
	all_done &&
	test "$(count_state leased)" = 0 &&
	test "$(store_runs)" = 12 &&
	test "$(q "SELECT count(*) FROM lab_task_runs WHERE stored")" = 12 &&
	test "$(q "SELECT sum(runs_done) FROM lab_tasks")" = 12 &&
	test "$(q "SELECT count(*) FROM lab_tasks WHERE attempts >= 2 AND last_error LIKE \$\$the lease of box-1 ran out%\$\$")" = 1 &&
	test "$(q "SELECT count(*) FROM groups")" = 6 &&
	test "$(q "SELECT count(*) FROM (SELECT group_id FROM runs GROUP BY group_id HAVING count(*) = 2 AND min(number) = 0 AND max(number) = 1) g")" = 6 ||
	{ show_lab; false; }
'

test_expect_success 'compare of the two commits from a fresh result root' '
	mkdir fresh &&
	perfsift --store "$URL" --result-root fresh results >out &&
	test $(grep -c "2 runs" out) = 6 &&
	cmd=$(q "SELECT value FROM params WHERE key = \$\$cmdline\$\$ ORDER BY value LIMIT 1") &&
	perfsift --store "$URL" --result-root fresh compare -a \
		"commit=c1,cmdline=$cmd" "commit=c2,cmdline=$cmd" >cmp 2>err ||
	{ cat err; false; } &&
	test_grep "mytest.score" cmp &&
	test_must_fail test -e fresh/mytest
'

test_done
