#!/bin/sh
# t8003: a worker and its task's end: SIGTERM finishes the run in
# progress, stores it and gives the task back (the next worker goes on
# from it); a task whose runs fail ends failed after max_attempts with the
# reason; a task cancelled while it runs is stopped and stays cancelled.
. "$(dirname "$0")/lib.sh"

: "${PERFSIFT_BUILD:=$SRCDIR/build}"
. "$SRCDIR/tests/e2e/lib-pg.sh"
. "$SRCDIR/tests/e2e/lib-lab.sh"

if ! pg_available; then
	test_skip 'the lab signals' 'no PostgreSQL server programs or no libpq'
	test_done
fi

test_expect_success 'a throwaway PostgreSQL server starts' 'pg_start'

mkdir started
cat >gated.yaml <<EOF2
testcase: mytest
mytest:
  cmdline: "echo x >>$TEST_TMP/executions; touch $TEST_TMP/started/\$\$; while [ ! -e $TEST_TMP/go ]; do sleep 0.05; done; echo score: 1"
EOF2
one_started() { test $(ls started | wc -l) -ge 1; }
logged() { grep -q "$1" "$2"; }

test_expect_success 'SIGTERM: the run in progress is stored, the task given back' '
	perfsift --store "$URL" queue add gated.yaml --testbox-group box -n 2 \
		--commit c1 >ids &&
	start_worker 1 &&
	wait_for one_started &&
	kill -TERM $(cat pid.1) &&
	touch go &&
	wait $(cat pid.1) &&
	test_grep "stopped: given back to the queue" w.1.log &&
	test "$(count_state queued "AND runs_done = 1 AND attempts = 0")" = 1 &&
	test "$(store_runs)" = 1 &&
	start_worker 2 --drain &&
	wait $(cat pid.2) &&
	test "$(count_state done "AND runs_done = 2")" = 1 &&
	test "$(store_runs)" = 2 &&
	test "$(q "SELECT string_agg(number::text, \$\$,\$\$ ORDER BY number) FROM runs")" = "0,1" &&
	test $(wc -l <executions) = 2 ||
	{ show_lab; false; }
'

test_expect_success 'failing runs: failed after max_attempts, with the reason' '
	printf "testcase: mytest\nmytest: \"echo no; exit 7\"\n" >fails.yaml &&
	perfsift --store "$URL" queue add fails.yaml --testbox-group box \
		--max-attempts 2 >ids &&
	id=$(cut -f1 ids) &&
	start_worker 3 --drain &&
	wait $(cat pid.3) &&
	test "$(q "SELECT state || \$\$ \$\$ || attempts FROM lab_tasks WHERE id = $id")" = "failed 2" &&
	q "SELECT last_error FROM lab_tasks WHERE id = $id" >why &&
	test_grep "the run failed: .*exit_code.7: 1" why &&
	perfsift --store "$URL" queue list --state failed >out &&
	test_grep "^$id  *failed" out &&
	perfsift --store "$URL" queue retry $id &&
	test "$(q "SELECT state || \$\$ \$\$ || attempts FROM lab_tasks WHERE id = $id")" = "queued 0" &&
	perfsift --store "$URL" queue cancel $id
'

test_expect_success 'a task cancelled while it runs is stopped, nothing stored' '
	rm -f go started/* &&
	perfsift --store "$URL" queue add gated.yaml --testbox-group box \
		--commit c9 >ids &&
	id=$(cut -f1 ids) &&
	start_worker 4 --drain --lease-s 3 &&
	wait_for one_started &&
	perfsift --store "$URL" queue cancel $id &&
	wait_for logged "lease is lost" w.4.log &&
	wait $(cat pid.4) &&
	test "$(q "SELECT state FROM lab_tasks WHERE id = $id")" = cancelled &&
	test "$(q "SELECT count(*) FROM groups WHERE commit_id = \$\$c9\$\$")" = 0 ||
	{ show_lab; false; }
'

test_done
