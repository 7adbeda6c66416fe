#!/bin/sh
# t8006: a worker SIGKILLed between storing a run's files and counting it
# (docs/attack-5.md, "Not tried" in round 5).  The fault point
# lab-run-files-stored (util/fault.h) kills the worker with its first run
# indexed and its files in the store, the ledger (lab_task_runs) not yet
# saying it is stored.  Another worker retakes the task when the lease
# runs out, adopts that run (lab_runs_done) instead of running it again,
# and runs the other two: the store holds each run once under the number
# reserved for it (0, 1, 2, none twice, none lost), the task counts 3,
# and a pull into a fresh root gives each run back whole (the very files
# the workers stored, byte for byte).  The kill is the fault point's, not
# timed; the retake waits for the lease the store says ran out.
. "$(dirname "$0")/lib.sh"

: "${PERFSIFT_BUILD:=$SRCDIR/build}"
. "$SRCDIR/tests/e2e/lib-pg.sh"
. "$SRCDIR/tests/e2e/lib-lab.sh"

if ! pg_available; then
	test_skip 'a worker killed before counting a run' 'no PostgreSQL server programs or no libpq'
	test_done
fi
if ! test_have_hooks; then
	test_skip 'a worker killed before counting a run' "$HOOKS_REASON"
	test_done
fi

test_expect_success 'a throwaway PostgreSQL server starts' 'pg_start'

# each run counts itself: a run done twice shows in the file
cat >job.yaml <<EOF2
testcase: mytest
mytest:
  cmdline: "echo x >>$TEST_TMP/executions; echo score: 10"
EOF2

test_expect_success 'a task of three runs is queued' '
	perfsift --store "$URL" queue add job.yaml --testbox-group box \
		--commit c1 -n 3 --max-attempts 5 >ids &&
	test $(wc -l <ids) = 1
'

test_expect_success 'a worker killed with run 0 stored, not counted' '
	{ PERFSIFT_FAULT=lab-run-files-stored "$PERFSIFT" --store "$URL" \
		--result-root cache.1 worker --testbox box-1 --testbox-group box \
		--once --lease-s 2 >w.1.log 2>&1; st=$?; } &&
	cat w.1.log &&
	test "$st" = 137 &&
	test "$(wc -l <executions)" = 1 &&
	test "$(count_state leased "AND runs_done = 0")" = 1 &&
	test "$(q "SELECT run_index, number, stored FROM lab_task_runs")" = "0|0|f" &&
	test "$(store_runs)" = 1 &&
	test "$(q "SELECT count(DISTINCT number) FROM lab_run_files")" = 1 ||
	{ show_lab; false; }
'

test_expect_success 'another worker retakes the task, adopts run 0, runs 1 and 2' '
	start_worker 2 --drain --lease-s 2 &&
	wait $(cat pid.2) &&
	cat w.2.log &&
	# run 0 was not run again: three runs in all
	test "$(wc -l <executions)" = 3 &&
	! grep -q "run 1 of 3:" w.2.log &&
	test_grep "run 2 of 3: stored as .*/1$" w.2.log &&
	test_grep "run 3 of 3: stored as .*/2$" w.2.log &&
	test "$(count_state "done" "AND runs_done = 3 AND attempts = 2")" = 1 &&
	test "$(q "SELECT count(*) FROM lab_tasks WHERE last_error LIKE \$\$the lease of box-1 ran out%\$\$")" = 1 &&
	# the ledger: each index once, each number once, all stored
	test "$(q "SELECT string_agg(run_index || \$\$:\$\$ || number || stored, \$\$ \$\$ ORDER BY run_index) FROM lab_task_runs")" = "0:0true 1:1true 2:2true" &&
	# the store: one group, runs 0, 1 and 2, none twice, each with its files
	test "$(q "SELECT count(*) FROM groups")" = 1 &&
	test "$(q "SELECT string_agg(number::text, \$\$ \$\$ ORDER BY number) FROM runs")" = "0 1 2" &&
	test "$(q "SELECT string_agg(DISTINCT number::text, \$\$ \$\$) FROM lab_run_files")" = "0 1 2" ||
	{ show_lab; false; }
'

test_expect_success 'a pull gives every run back whole' '
	perfsift --store "$URL" --result-root fresh pull c1 >pull.out 2>pull.err &&
	cat pull.out pull.err &&
	! test -s pull.err &&
	test_grep "^3 runs pulled" pull.out &&
	g=$(dirname "$(find fresh -name job.yaml -path "*/0/*" | head -n 1)") &&
	g=${g%/*} && rel=${g#fresh/} &&
	# the files the workers stored, each run from the cache it was made in
	for n in 0 1 2; do
		c=cache.2 && test $n = 0 && c=cache.1
		test -d "$c/$rel/$n" &&
		(cd "$c/$rel/$n" && find . -type f | LC_ALL=C sort) >want.$n &&
		(cd "$g/$n" && find . -type f ! -name ".perfsift-*" | LC_ALL=C sort) >got.$n &&
		test_cmp want.$n got.$n &&
		test -s want.$n &&
		while read -r f; do cmp "$c/$rel/$n/$f" "$g/$n/$f" || exit 1; done <want.$n ||
		return 1
	done &&
	perfsift --result-root fresh results >res &&
	test_grep "3 runs" res
'

test_done
