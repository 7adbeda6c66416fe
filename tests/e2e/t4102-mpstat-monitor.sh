#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t4102: mpstat (sysstat) as a monitor beside a real `perfsift run`: in
# LKP's default set, mpstat -P ALL -o JSON runs beside the benchmark, its
# JSON is the raw file (closed at stop by SIGINT, as LKP's post-test
# does, and waited for), parsed into LKP's mpstat.* stats; without
# sysstat the monitor is "not available" and the run goes on.
. "$(dirname "$0")/lib.sh"

if ! command -v mpstat >/dev/null; then
	test_skip 'mpstat monitor' 'mpstat (sysstat) is not installed: scripts/install-deps'
	test_done
fi

# fixed work, not a fixed time: the benchmark waits until the sampler has
# put mpstat's first entry into the run's raw file
cat >job.yaml <<'JOB'
suite: mp
testcase: mp
category: benchmark
mytest:
  cmdline: while ! grep -q '"timestamp"' "$TMP_RESULT_ROOT/mpstat" 2>/dev/null; do sleep 0.1; done
JOB

test_expect_success 'the default set samples mpstat; LKP stats come out' '
	timeout 300 "$PERFSIFT" run job.yaml -n 1 >out 2>err &&
	run=$(dirname "$(find "$PERFSIFT_RESULT_ROOT/mp" -name stats.json)") &&
	test -s "$run/mpstat" && test -s "$run/mpstat.json" &&
	head -c 20 "$run/mpstat" | grep -q "^{\"sysstat\"" &&
	test_grep "\"mpstat.cpu.all.usr%\"" "$run/stats.json" &&
	test_grep "\"mpstat.cpu.0.idle%\"" "$run/stats.json" &&
	test_grep "\"mpstat.max_utilization_pct\"" "$run/stats.json" &&
	echo "$run" >rundir
'

test_expect_success 'the raw file is whole JSON: mpstat closed it and exited at stop' '
	tail -c 4 "$(cat rundir)/mpstat" | grep -q "}}" &&
	perfsift parse mpstat "$(cat rundir)/mpstat" >parsed &&
	test_grep "^time: " parsed
'

test_expect_success 'without mpstat on PATH: not available, the run goes on' '
	cat >short.yaml <<-\EOT &&
	suite: mpno
	testcase: mpno
	monitors: mpstat
	mytest:
	  cmdline: /bin/true
	EOT
	env PATH=/nonexistent "$PERFSIFT" run short.yaml -n 1 >out 2>err &&
	test_grep "mpstat: not available: mpstat is not installed (the Debian package sysstat)" err &&
	test -n "$(find "$PERFSIFT_RESULT_ROOT/mpno" -name stats.json)"
'

test_done
