#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3204: perfsift run of sysbench as LKP's sysbench-cpu, -memory,
# -threads and -mutex -- fixed work (perfsift's `events`, a total size,
# lock counts), LKP's command line and the names LKP's index ranks
# (sysbench-*.throughput_events/s, throughput_MB/s).
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-programs.sh"

if ! command -v sysbench >/dev/null; then
	test_skip 'sysbench runs' 'sysbench is not installed: scripts/install-deps'
	test_done
fi


test_expect_success 'cpu: 100 events' '
	printf "suite: sysbench-cpu\ntestcase: sysbench-cpu\ncategory: benchmark\nnr_threads: 2\nsysbench-cpu:\n  events: 100\n  cpu_max_prime: 2000\n" >cpu.yaml &&
	perfsift run cpu.yaml -n 1 >out 2>err &&
	d=$(run_dirs sysbench-cpu) &&
	stat_positive "$d" "sysbench-cpu.throughput_events/s" &&
	test "$(stat_value "$d" sysbench-cpu.events)" = 100 &&
	stat_positive "$d" sysbench-cpu.latency_avg_ms &&
	grep -q "sysbench --threads=2 --events=100 --time=0 cpu --cpu-max-prime=2000 run$" "$d/sysbench-cpu" &&
	has_default_monitors "$d"
'

test_expect_success 'memory: 16 MiB written' '
	printf "suite: sysbench-memory\ntestcase: sysbench-memory\nsysbench-memory:\n  memory_total_size: 16M\n" >mem.yaml &&
	perfsift run mem.yaml -n 1 >out 2>err &&
	d=$(run_dirs sysbench-memory) &&
	stat_positive "$d" "sysbench-memory.throughput_MB/s" &&
	stat_positive "$d" "sysbench-memory.throughput_ops/s"
'

test_expect_success 'threads: 50 events; the rate is events over the time' '
	printf "suite: sysbench-threads\ntestcase: sysbench-threads\nsysbench-threads:\n  events: 50\n  thread_yields: 10\n" >thr.yaml &&
	perfsift run thr.yaml -n 1 >out 2>err &&
	d=$(run_dirs sysbench-threads) &&
	stat_positive "$d" "sysbench-threads.throughput_events/s"
'

test_expect_success 'mutex: a few locks per thread' '
	printf "suite: sysbench-mutex\ntestcase: sysbench-mutex\nsysbench-mutex:\n  mutex_locks: 1000\n  mutex_loops: 100\n" >mtx.yaml &&
	perfsift run mtx.yaml -n 1 >out 2>err &&
	d=$(run_dirs sysbench-mutex) &&
	stat_positive "$d" "sysbench-mutex.throughput_events/s" &&
	stat_positive "$d" sysbench-mutex.total_time_s
'

test_done
