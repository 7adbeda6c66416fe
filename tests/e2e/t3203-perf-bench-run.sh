#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3203: perfsift run of perf bench (linux-perf) as LKP's perf-bench-*
# programs -- sched messaging, sched pipe, futex wake and mem memcpy, each
# with fixed work, LKP's command line and stat names.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-programs.sh"

if ! command -v perf >/dev/null; then
	test_skip 'perf bench runs' 'perf (linux-perf) is not installed: scripts/install-deps'
	test_done
fi

test_expect_success 'sched messaging: the quick job, scaled down' '
	perfsift run "$SRCDIR/jobs/perf-bench-quick.yaml" -n 1 \
		--set perf-bench-sched-messaging.groups=2 \
		--set perf-bench-sched-messaging.loops=20 >out 2>err &&
	d=$(run_dirs perf-bench-sched-messaging) &&
	stat_positive "$d" perf-bench-sched-messaging.total_time_sec &&
	grep -Eq "^[0-9-]+ [0-9:]+ perf bench sched messaging --nr_loops 20 --group 2 --pipe$" \
		"$d/perf-bench-sched-messaging" &&
	has_default_monitors "$d"
'

test_expect_success 'sched pipe: 2000 round trips' '
	printf "suite: perf-bench-sched-pipe\ntestcase: perf-bench-sched-pipe\nperf-bench-sched-pipe:\n  loops: 2000\n" >pipe.yaml &&
	perfsift run pipe.yaml -n 1 >out 2>err &&
	d=$(run_dirs perf-bench-sched-pipe) &&
	stat_positive "$d" perf-bench-sched-pipe.ops_per_sec &&
	stat_positive "$d" perf-bench-sched-pipe.total_time_sec
'

test_expect_success 'futex wake: two threads, LKP wokeup_time_ms' '
	printf "suite: perf-bench-futex\ntestcase: perf-bench-futex\nperf-bench-futex:\n  test: wake\n  nr_task: 2\n" >wake.yaml &&
	perfsift run wake.yaml -n 1 >out 2>err &&
	d=$(run_dirs perf-bench-futex) &&
	stat_positive "$d" perf-bench-futex.wokeup_time_ms &&
	test -n "$(stat_value "$d" "perf-bench-futex.stddev%")" &&
	grep -q "perf bench futex wake --threads 2$" "$d/perf-bench-futex"
'

test_expect_success 'mem memcpy: LKP keys, a rate per function as LKP names it' '
	printf "suite: perf-bench-mem\ntestcase: perf-bench-mem\nperf-bench-mem:\n  op: memcpy\n  size: 1M\n  nr_loops: 2\n" >mem.yaml &&
	perfsift run mem.yaml -n 1 >out 2>err &&
	d=$(run_dirs perf-bench-mem) &&
	grep -q "perf bench mem memcpy --size 1048576 --nr_loops 2$" "$d/perf-bench-mem" &&
	grep -q "\"perf-bench-mem\\.memcpy\\.default\\.[KMG]*B_per_sec\"" "$d/stats.json"
'

test_expect_success 'futex without its required test is a job error' '
	printf "suite: f\ntestcase: f\nperf-bench-futex:\n  nr_task: 2\n" >bad.yaml &&
	test_must_fail --status=2 perfsift run bad.yaml -n 1 >out 2>err &&
	test_grep "test" err
'

test_done
