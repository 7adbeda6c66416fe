#!/bin/sh
# shellcheck disable=SC2016
# t4011: a monitor perfsift cannot sample here is said once per command,
# however many runs and atomic jobs it has, and recorded in every run
# (monitors.log); the monitors that can be sampled still are.  A fake
# sysroot (PERFSIFT_SYSROOT) without cpuidle states, MSRs or a second NUMA
# node, so no root is needed.
. "$(dirname "$0")/lib.sh"

mkdir -p fake/proc fake/dev fake/sys/devices/system/node/node0 &&
printf 'nr_free_pages 100\npgfault 1\n' >fake/proc/vmstat &&
printf 'MemTotal: 1000 kB\nMemFree: 400 kB\n' >fake/proc/meminfo &&
printf 'nr_free_pages 7\n' >fake/sys/devices/system/node/node0/vmstat

cat >job.yaml <<'JOB'
suite: notes
testcase: notes
monitors: proc-vmstat, meminfo, cpuidle, turbostat, numa-meminfo
nr: [1, 2]
mytest:
  cmdline: sh -c 'echo $nr'
JOB

test_expect_success 'three runs of two atomic jobs: each missing monitor said once' '
	PERFSIFT_SYSROOT=$PWD/fake perfsift run job.yaml -n 3 >out 2>err &&
	test "$(grep -c "cpuidle: not available: no cpuidle driver" err)" -eq 1 &&
	test "$(grep -c "turbostat: not available" err)" -eq 1 &&
	test "$(grep -c "numa-meminfo: not available" err)" -eq 1 &&
	test "$(grep -c "not available" err)" -eq 3
'

test_expect_success 'every run records what was not available' '
	find "$PERFSIFT_RESULT_ROOT" -name job.yaml | sed "s,/job.yaml$,," >runs &&
	test "$(wc -l <runs)" -eq 6 &&
	while read -r run; do
		test_grep "^cpuidle: not available: no cpuidle driver$" "$run/monitors.log" &&
		test_grep "^turbostat: not available: " "$run/monitors.log" &&
		test_grep "^numa-meminfo: not available: " "$run/monitors.log" &&
		test -s "$run/proc-vmstat" &&
		test -s "$run/meminfo" &&
		test_grep "\"proc-vmstat.pgfault\"" "$run/stats.json" || return 1
	done <runs
'

test_expect_success 'numa-* of a one-node machine: skipped by default, sampled when named' '
	mkdir -p fake/sys/devices/system/node/node0 &&
	printf "Node 0 MemTotal: 1000 kB\nNode 0 MemFree: 400 kB\n" \
		>fake/sys/devices/system/node/node0/meminfo &&
	cat >default.yaml <<-\JOB &&
	suite: default
	testcase: default
	category: benchmark
	mytest:
	  cmdline: "true"
	JOB
	PERFSIFT_SYSROOT=$PWD/fake perfsift run default.yaml >out 2>err &&
	test_grep "numa-meminfo: not available: one NUMA node" err &&
	raw=$(find "$PERFSIFT_RESULT_ROOT/default" -name proc-vmstat) &&
	test -s "$raw" &&
	! test -e "$(dirname "$raw")/numa-meminfo" &&
	cat >named.yaml <<-\JOB &&
	suite: named
	testcase: named
	monitors: numa-meminfo
	numa-meminfo:
	  interval: 1
	mytest:
	  cmdline: "true"
	JOB
	PERFSIFT_SYSROOT=$PWD/fake perfsift run named.yaml >out 2>err &&
	! grep "not available" err &&
	raw=$(find "$PERFSIFT_RESULT_ROOT/named" -name numa-meminfo) &&
	test_grep "^Node 0 MemFree: 400 kB$" "$raw"
'

test_done
