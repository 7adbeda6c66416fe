#!/bin/sh
# t8002: the lab under load: 3 workers drain 60 short tasks of 2 runs; 5
# times a worker is SIGKILLed at a random point (when the store has
# reached a random count of runs) and started again.  Nothing is lost,
# nothing stored twice (counted from the store: the group's run numbers
# are exactly 0..119), the benchmark ran at most once more per kill, and
# no task is left leased.
. "$(dirname "$0")/lib.sh"

: "${PERFSIFT_BUILD:=$SRCDIR/build}"
. "$SRCDIR/tests/e2e/lib-pg.sh"
. "$SRCDIR/tests/e2e/lib-lab.sh"

if ! pg_available; then
	test_skip 'the lab under load' 'no PostgreSQL server programs or no libpq'
	test_done
fi

test_expect_success 'a throwaway PostgreSQL server starts' 'pg_start'

# every execution of the benchmark leaves a line
cat >job.yaml <<EOF2
testcase: mytest
mytest:
  cmdline: "echo x >>$TEST_TMP/executions; echo score: 1"
EOF2

test_expect_success '60 tasks of 2 runs are queued' '
	i=0 &&
	while [ $i -lt 60 ]; do
		perfsift --store "$URL" queue add job.yaml --testbox-group box \
			--commit c1 -n 2 --max-attempts 20 >>ids || return 1
		i=$((i + 1))
	done &&
	test $(wc -l <ids) = 60
'

# true once the store holds $1 runs or every worker has ended
reached() {
	test "$(store_runs)" -ge "$1" || { gone 1 && gone 2 && gone 3; }
}
# a pseudo-random number in 0..$1-1 (the kill points and victims)
rnd() { awk -v n="$1" -v s="$2" "BEGIN { srand(s); print int(rand() * n) }"; }

test_expect_success 'five SIGKILLs at random points, each worker restarted' '
	for s in 1 2 3; do start_worker $s --drain --lease-s 3 || return 1; done &&
	seed=$$ && echo "seed $seed" &&
	k=1 &&
	while [ $k -le 5 ]; do
		at=$(( (k - 1) * 22 + $(rnd 20 $((seed + k))) )) &&
		victim=$(( $(rnd 3 $((seed * 7 + k))) + 1 )) &&
		wait_for reached $at &&
		echo "kill $k: worker $victim at $(store_runs) runs" &&
		kill -9 $(cat pid.$victim) 2>/dev/null
		wait $(cat pid.$victim) 2>/dev/null
		start_worker $victim --drain --lease-s 3 || return 1
		k=$((k + 1))
	done &&
	for s in 1 2 3; do wait $(cat pid.$s) || { tail w.$s.log; return 1; }; done
'

test_expect_success 'nothing lost, nothing stored twice, none left leased' '
	test "$(count_state done)" = 60 &&
	test "$(q "SELECT count(*) FROM lab_tasks WHERE state <> \$\$done\$\$ OR runs_done <> 2")" = 0 &&
	test "$(q "SELECT count(*) || \$\$ \$\$ || count(DISTINCT number) || \$\$ \$\$ || min(number) || \$\$ \$\$ || max(number) FROM runs")" = "120 120 0 119" &&
	test "$(q "SELECT count(*) FROM lab_task_runs WHERE stored")" = 120 &&
	test "$(q "SELECT count(*) FROM groups")" = 1 &&
	n=$(wc -l <executions) &&
	echo "$n executions for 120 runs" &&
	test $n -ge 120 && test $n -le 125 ||
	{ show_lab; false; }
'

test_done
