#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t4010: monitors beside a real `perfsift run`: every available default
# monitor leaves its raw file and <monitor>.json, the reduced stats reach
# stats.json; perf-profile yields kernel call chains of a page-fault-heavy
# workload; a SIGKILLed perfsift leaves raw files readable up to the last
# whole sample.
. "$(dirname "$0")/lib.sh"

if ! test_have_root; then
	test_skip 'monitors beside perfsift run' 'needs root (/proc/slabinfo, perf events, debugfs)'
	test_done
fi

cat >job.yaml <<'JOB'
suite: faults
testcase: faults
category: benchmark
mytest:
  cmdline: sh -c 'i=0; while [ $i -lt 12 ]; do head -c 64m /dev/zero | tail -c 1 >/dev/null; i=$((i+1)); done'
JOB

test_expect_success 'a benchmark job runs with the default monitors' '
	perfsift run job.yaml 2>err &&
	run=$(dirname "$(find "$PERFSIFT_RESULT_ROOT" -name stats.json | head -1)") &&
	test -n "$run" &&
	echo "$run" >rundir &&
	numa= &&
	if [ -d /sys/devices/system/node/node1 ]; then
		numa="numa-meminfo numa-vmstat numa-numastat"
	fi &&
	for m in kmsg vmstat proc-vmstat meminfo $numa slabinfo interrupts \
		softirqs proc-stat diskstats perf-stat perf-profile; do
		test -f "$run/$m" || { echo "no raw $m"; return 1; }
	done
'

test_expect_success 'parsed monitors have their json and reduced stats' '
	run=$(cat rundir) &&
	for m in vmstat proc-vmstat meminfo slabinfo interrupts softirqs \
		proc-stat diskstats perf-stat perf-profile; do
		test -f "$run/$m.json" || test -f "$run/$m.json.gz" ||
			{ echo "no $m.json"; return 1; }
	done &&
	test_grep "\"proc-vmstat.pgfault\"" "$run/stats.json" &&
	test_grep "\"interrupts.LOC:Local_timer_interrupts\"" "$run/stats.json" &&
	test_grep "\"proc-stat.ctxt\"" "$run/stats.json" &&
	test_grep "\"perf-stat.ps.page-faults\"" "$run/stats.json"
'

test_expect_success 'a multi-page /proc file is sampled whole (slabinfo)' '
	run=$(cat rundir) &&
	# the first sample: from the first time: line to the second
	awk "/^time: /{n++; next} n==1" "$run/slabinfo" >first &&
	have=$(wc -l <first) &&
	want=$(wc -l </proc/slabinfo) &&
	test "$have" -gt $((want - 20)) &&
	test "$(tail -n 1 first | awk "{print NF}")" -ge 16
'

test_expect_success 'missing sources are reported once and skipped' '
	if [ ! -e /sys/devices/system/cpu/cpu0/cpuidle/state0 ]; then
		test "$(grep -c "cpuidle: not available" err)" -eq 1
	fi
'

test_expect_success 'perf-profile names the sampled event and kernel call chains' '
	run=$(cat rundir) &&
	perfsift parse perf-profile "$run/perf-profile" >pp &&
	if grep -q "of event .cpu-clock" "$run/perf-profile"; then
		test_grep "^children\\.cpu-clock-pp\\." pp
	else
		test_grep "^children\\.cycles-pp\\." pp
	fi &&
	test_grep "^calltrace\\.[a-z-]*\\..*fault" pp
'

test_expect_success 'a killed perfsift leaves whole samples in the raw files' '
	printf "echo \$\$ >%s/bench.pid\nexec sleep 60\n" "$PWD" >bench.sh &&
	cat >slow.yaml <<-JOB &&
	suite: slow
	testcase: slow
	monitors: proc-vmstat, meminfo
	proc-vmstat:
	  interval: 0.05
	meminfo:
	  interval: 0.05
	mytest:
	  cmdline: sh $PWD/bench.sh
	JOB
	PERFSIFT_RESULT_ROOT=$PWD/killed "$PERFSIFT" run slow.yaml >/dev/null 2>&1 &
	pid=$! &&
	# however slow the machine, wait for some samples, then kill -9
	i=0 &&
	while [ $i -lt 600 ]; do
		raw=$(find killed -name proc-vmstat 2>/dev/null | head -1)
		if [ -n "$raw" ] && [ "$(grep -c "^time: " "$raw")" -ge 6 ]; then
			break
		fi
		sleep 0.1
		i=$((i + 1))
	done &&
	kill -9 $pid &&
	{ wait $pid || true; } &&
	{ kill "$(cat bench.pid)" 2>/dev/null || true; } &&
	test -n "$raw" &&
	n=$(grep -c "^time: " "$raw") &&
	test "$n" -ge 6 &&
	perfsift parse proc-vmstat "$raw" >parsed &&
	test "$(grep -c "^pgfault: " parsed)" -ge $((n - 1))
'

test_done
