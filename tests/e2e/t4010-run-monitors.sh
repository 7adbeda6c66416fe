#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t4010: monitors beside a real `perfsift run`: every available default
# monitor leaves its raw file and <monitor>.json, the reduced stats reach
# stats.json, matrix.json and the index; perf-profile yields kernel call
# chains of a page-fault-heavy workload (dd's 64 MiB buffer faulted in by
# each read of /dev/zero); a SIGKILLed perfsift leaves raw files readable
# up to the last whole sample.
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
  cmdline: sh -c 'i=0; while [ $i -lt 6 ]; do dd if=/dev/zero of=/dev/null bs=64M count=2 2>/dev/null; i=$((i+1)); done'
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
 WHERE n.name IN ('proc-vmstat.pgfault', 'perf-stat.ps.page-faults');
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
	test_grep "\"perf-stat.ps.page-faults\"" "$run/stats.json" &&
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
	# 2 CPUs x 1000 Hz x 0.5 s, more when a loaded machine delays the
	# 0.5 s drain that switches it off; the whole run would be 8000
	test "$n" -gt 0 && test "$n" -le 4000
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
