#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t4010: monitors beside a real `perfsift run`: every available default
# monitor leaves its raw file and <monitor>.json, the reduced stats reach
# stats.json, matrix.json and the index; perf-profile yields kernel call
# chains of a page-fault-heavy workload (dd's 64 MiB buffer faulted in by
# each read of /dev/zero, until the workload has used a second of CPU
# however fast the machine); a run shorter than one interval has a start
# and an end sample of every monitor and its perf-stat figures; a
# SIGKILLed perfsift leaves raw files readable up to the last whole sample.
. "$(dirname "$0")/lib.sh"

if ! test_have_root; then
	test_skip 'monitors beside perfsift run' 'needs root (/proc/slabinfo, perf events, debugfs)'
	test_done
fi

# fixed work, not a fixed number of passes: passes until the workload's
# CPU time (its children's, from /proc/PID/stat) reaches one second, so
# perf-profile has ~100 samples of it (cpu-clock's default 100 Hz) on a
# fast machine or a loaded one
cat >faults.sh <<'SH'
hz=$(getconf CLK_TCK)
while :; do
	dd if=/dev/zero of=/dev/null bs=64M count=2 2>/dev/null
	set -- $(cat /proc/$$/stat)
	[ $((${16} + ${17})) -lt "$hz" ] || break
done
SH
cat >job.yaml <<JOB
suite: faults
testcase: faults
category: benchmark
mytest:
  cmdline: sh $PWD/faults.sh
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

cat >indexed.sql <<'SQL'
SELECT count(*) FROM stat_values v JOIN stat_names n ON n.id = v.stat_id
 WHERE n.name IN ('proc-vmstat.pgfault', 'perf-stat.ps.context-switches');
SQL

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
	test_grep "\"perf-stat.ps.context-switches\"" "$run/stats.json" &&
	# the fault events are counted only when named (each costs the
	# kernel an update on every fault); proc-vmstat.pgfault has them
	! grep -q "\"perf-stat.ps.page-faults\"" "$run/stats.json" &&
	test_grep "\"proc-vmstat.pgfault\"" "$run/../matrix.json" &&
	test_grep "\"slabinfo\.[^\"]*\.active_objs\"" "$run/../matrix.json" &&
	if command -v sqlite3 >/dev/null; then
		test "$(sqlite3 "$PERFSIFT_RESULT_ROOT/perfsift.db" <indexed.sql)" = 2
	fi
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

test_expect_when '[ ! -e /sys/devices/system/cpu/cpu0/cpuidle/state0 ]' 'this machine has cpuidle: nothing is missing' \
	'missing sources are reported once and skipped' '
	test "$(grep -c "cpuidle: not available" err)" -eq 1
'

test_expect_success 'perf-profile names the sampled event and kernel call chains' '
	run=$(cat rundir) &&
	perfsift parse perf-profile "$run/perf-profile" >pp &&
	if grep -q "of event .cpu-clock" "$run/perf-profile"; then
		test_grep "^children\\.cpu-clock-pp\\." pp
	else
		test_grep "^children\\.cycles-pp\\." pp
	fi &&
	test_grep "^calltrace\\.[a-z-]*\\..*fault" pp &&
	grep -Eq "^(calltrace|children)\\.[a-z-]*\\..*(do_anonymous_page|clear_page)" pp
'

test_expect_success 'perf-profile samples only its window (delay, duration)' '
	cat >window.yaml <<-\JOB &&
	suite: window
	testcase: window
	monitors: perf-profile
	perf-profile:
	  delay: 0.5
	  duration: 0.5
	mytest:
	  cmdline: sleep 4
	JOB
	perfsift run window.yaml >/dev/null 2>&1 &&
	raw=$(find "$PERFSIFT_RESULT_ROOT/window" -name perf-profile) &&
	test_grep "kernel call chains, from 0.5 s for 0.5 s$" "$raw" &&
	n=$(sed -n "s/^# Samples: \([0-9]*\) of event.*/\1/p" "$raw") &&
	test "$n" -gt 0 &&
	# the samples are cut by their stamps, not by the (late, on a loaded
	# machine) ticks: cpu-clock samples at 100 Hz by default (1000 cost
	# a fault-bound workload ~7%), so 50 a CPU at most in the window; the
	# whole run would be 400 a CPU
	if grep -q "of event .cpu-clock" "$raw"; then
		test_grep "^# perfsift sampling: 100 Hz per CPU$" "$raw" &&
		test "$n" -le $(($(getconf _NPROCESSORS_ONLN) * 55))
	fi
'

test_expect_success 'perf-profile: {freq: N} sets the cpu-clock rate' '
	cat >freq.yaml <<-\JOB &&
	suite: freq
	testcase: freq
	monitors: perf-profile
	perf-profile:
	  freq: 400
	mytest:
	  cmdline: sleep 0.5
	JOB
	perfsift run freq.yaml >/dev/null 2>&1 &&
	raw=$(find "$PERFSIFT_RESULT_ROOT/freq" -name perf-profile) &&
	if grep -q "of event .cpu-clock" "$raw"; then
		test_grep "^# perfsift sampling: 400 Hz per CPU$" "$raw"
	else
		test_grep "^# perfsift sampling: every 1000003 events$" "$raw"
	fi
'

test_expect_success 'a 0.3 s run has perf-stat rates over its real duration, a named fault event too' '
	cat >short.yaml <<-\JOB &&
	suite: short
	testcase: short
	monitors: perf-stat
	perf-stat:
	  events: cpu-clock,page-faults
	mytest:
	  cmdline: sleep 0.3
	JOB
	perfsift run short.yaml >/dev/null 2>&1 &&
	run=$(dirname "$(find "$PERFSIFT_RESULT_ROOT/short" -name stats.json)") &&
	test_grep "\"perf-stat.ps.page-faults\"" "$run/stats.json" &&
	test_grep "\"perf-stat.i.page-faults\"" "$run/stats.json" &&
	# system wide, cpu-clock counts every CPU all the time: 1000 ms a
	# second each, when the rate divides by the whole run
	ps=$(sed -n "s/^ *\"perf-stat.ps.cpu-clock\": \([^,]*\),*$/\1/p" "$run/stats.json") &&
	awk -v v="$ps" -v n="$(getconf _NPROCESSORS_ONLN)" \
		"BEGIN { exit !(v > 800 * n && v < 1250 * n) }"
'

test_expect_success 'a run shorter than every interval has start and end samples' '
	mons="proc-vmstat meminfo proc-stat diskstats slabinfo buddyinfo pagetypeinfo interrupts softirqs sched_debug numa-meminfo numa-vmstat numa-numastat" &&
	{
		echo "suite: hour" &&
		echo "testcase: hour" &&
		echo "monitors: $mons vmstat perf-stat" | sed "s/ /, /2g" &&
		for m in $mons vmstat perf-stat; do
			printf "%s:\n  interval: 3600\n" "$m"
		done &&
		printf "mytest:\n  cmdline: sleep 0.3\n"
	} >hour.yaml &&
	perfsift run hour.yaml >/dev/null 2>&1 &&
	run=$(dirname "$(find "$PERFSIFT_RESULT_ROOT/hour" -name stats.json)") &&
	for m in $mons; do
		test -f "$run/$m" || grep -q "^$m: not available" "$run/monitors.log" ||
			{ echo "no raw $m"; return 1; }
		test ! -f "$run/$m" || test "$(grep -c "^time: " "$run/$m")" = 2 ||
			{ echo "$m: not a start and an end sample"; return 1; }
	done &&
	# counters have their delta, rates their one interval
	test_grep "\"proc-vmstat.pgfault\"" "$run/stats.json" &&
	test_grep "\"interrupts.LOC:Local_timer_interrupts\"" "$run/stats.json" &&
	test_grep "\"vmstat.memory.free\"" "$run/stats.json" &&
	test_grep "\"perf-stat.ps.cpu-clock\"" "$run/stats.json"
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
