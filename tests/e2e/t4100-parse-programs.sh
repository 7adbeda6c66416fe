#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t4100: `perfsift parse PROGRAM` reproduces LKP's benchmark parsers byte
# for byte on LKP's fixtures (hackbench, stress-ng, fio, perf-bench-*,
# unixbench, netperf, aim9, mpstat: tests/data/lkp/stats/), takes LKP's
# program names, and handles what the fixtures lack: several instances,
# an LKP result root's fio.output, cut mpstat JSON.
. "$(dirname "$0")/lib.sh"

for m in hackbench stress-ng fio perf-bench-sched-messaging perf-bench-futex perf-bench-mem \
	unixbench netperf aim9 mpstat; do
	for want in "$TESTDATA/lkp/stats/$m"/*.yaml; do
		raw=${want%.yaml}
		n=$(basename "$raw")
		# a result-root fixture: a directory listing, built below
		[ "$m/$n" = fio/fio-result-root-precedence ] && continue
		test_expect_success "$m/$n (LKP fixture) matches LKP" "
			perfsift parse $m '$raw' >out &&
			test_cmp '$want' out
		"
	done
done

# LKP's fixture is a result root holding `fio` (the command it ran) and
# fio.output (the JSON); the listing names them.  RESULT_ROOT's
# fio.output wins over the raw file given.
test_expect_success 'fio: an LKP result root'"'"'s fio.output is read first' '
	mkdir rr &&
	for f in $(sed -n "3,\$p" "$TESTDATA/lkp/stats/fio/fio-result-root-precedence"); do
		case $f in
		fio) echo "echo task | fio --output-format=json -" >rr/fio ;;
		fio.output) cp "$TESTDATA/lkp/stats/fio/01" rr/fio.output ;;
		esac
	done &&
	test -f rr/fio && test -f rr/fio.output &&
	perfsift parse fio rr/fio >out &&
	test_cmp "$TESTDATA/lkp/stats/fio/fio-result-root-precedence.yaml" out
'

test_expect_success 'fio: fio.output.N (instances) are summed or averaged, then listed' '
	mkdir inst &&
	echo "echo task | fio --output-format=json -" >inst/fio &&
	cp "$TESTDATA/lkp/stats/fio/01" inst/fio.output.1 &&
	cp "$TESTDATA/lkp/stats/fio/01" inst/fio.output.2 &&
	perfsift parse fio inst/fio >out &&
	test_grep "^read_bw_MBps: 229141.13671875$" out &&
	test_grep "^read_iops: 58660131.258032$" out &&
	test_grep "^workload: 11732202232$" out &&
	test_grep "^read_clat_mean_ns: 1321.865086$" out &&
	test_grep "^read_clat_90%_ns: 2064.0$" out &&
	test_grep "^read_bw_MBps.instance1: 114570.568359375$" out &&
	test_grep "^workload.instance2: 5866101116$" out &&
	test $(wc -l <out) -eq $((38 * 3))
'

test_expect_success 'hackbench: several instances get a per-instance breakdown' '
	cat >hb <<-\EOT &&
	Instance: 1
	Running in process mode with 1 groups using 40 file descriptors each (== 40 tasks)
	Each sender will pass 100 messages of 100 bytes
	Time: 0.5
	Running in process mode with 1 groups using 40 file descriptors each (== 40 tasks)
	Each sender will pass 100 messages of 100 bytes
	Time: 0.25
	Instance: 2
	Running in process mode with 2 groups using 40 file descriptors each (== 80 tasks)
	Each sender will pass 100 messages of 100 bytes
	Time: 1.0
	EOT
	cat >want <<-\EOT &&
	throughput: 3124.0
	throughput_best: 3124.0
	throughput_avg: 1338.86
	throughput_worst: 781.0
	throughput.instance1: 1560.0
	throughput_avg.instance1: 1040.0
	throughput_worst.instance1: 780.0
	throughput.instance2: 781.0
	throughput_avg.instance2: 781.0
	throughput_worst.instance2: 781.0
	EOT
	perfsift parse hackbench hb >out &&
	test_cmp want out
'

test_expect_success 'hackbench: no Time: line (a pass cut short) gives no stats' '
	printf "Instance: 1\nRunning in process mode with 1 groups using 40 file descriptors each (== 40 tasks)\n" >hb0 &&
	perfsift parse hackbench hb0 >out &&
	test_must_fail test -s out
'

test_expect_success 'mpstat: a file cut after a comma is closed as LKP does' '
	head -n 21 "$TESTDATA/lkp/stats/mpstat/2" >cut &&
	tail -n 1 cut | grep -q "},$" &&
	perfsift parse mpstat cut >out &&
	test_grep "^time: " out &&
	test_grep "^max_utilization_pct: " out
'

test_expect_success 'mpstat: a file cut mid-entry keeps the entries before' '
	head -c 1500 "$TESTDATA/lkp/stats/mpstat/1" >mid &&
	perfsift parse mpstat mid >out &&
	test $(grep -c "^time: " out) -eq 1 &&
	test_grep "^cpu.-1.usr%: 6.33$" out
'

test_expect_success 'mpstat: the old text format gives nothing' '
	printf "Linux 5.0.0-rc4 (ivb44) \t2019-02-23 \t_x86_64_\t(48 CPU)\n\n" >old &&
	perfsift parse mpstat old >out &&
	test_must_fail test -s out
'

test_expect_success 'stress-ng: a stressor with no bogo ops is a fail' '
	cat >sng <<-\EOT &&
	stress-ng: metrc: [5961] stressor       bogo ops real time  usr time  sys time   bogo ops/s     bogo ops/s CPU used per       RSS Max
	stress-ng: metrc: [5961]                           (secs)    (secs)    (secs)   (real time) (usr+sys time) instance (%)          (KB)
	stress-ng: metrc: [5961] uprobe                0     60.00      0.21      0.87         0.00           0.00         0.01          1792
	stress-ng: metrc: [5961] flock         171659332     60.00     44.80    771.49   2860967.69      210292.23       226.75          2564
	stress-ng: metrc: [4382] flock               1883.42 nanosecs per flock unlock call (harmonic mean of 6 instances)
	stress-ng: metrc: [6413] x86syscall           120.82 nanosecs per call (excluding test overhead (harmonic mean of 224 instances)
	stress-ng: info:  [2694] for a 494.74s run time:
	stress-ng: metrc: [9999] late              99     60.00      0.21      0.87         9.00           0.00         0.01          1792
	EOT
	cat >want <<-\EOT &&
	uprobe.fail: 1
	flock.pass: 1
	flock.ops: 171659332
	flock.ops_per_sec: 2860967.69
	flock.nanosecs_per_flock_unlock_call.pass: 1
	flock.nanosecs_per_flock_unlock_call: 1883.42
	x86syscall.nanosecs_per_call_excluding_test_overhead.pass: 1
	x86syscall.nanosecs_per_call_excluding_test_overhead: 120.82
	EOT
	perfsift parse stress-ng sng >out &&
	test_cmp want out
'

test_expect_success 'netperf: a TCP_RR (tps) block' '
	cat >tcprr <<-\EOT &&
	MIGRATED TCP REQUEST/RESPONSE TEST from 0.0.0.0 () port 0 AF_INET to 127.0.0.1 () port 0 AF_INET : first burst 0
	Local /Remote
	Socket Size   Request  Resp.   Elapsed  Trans.
	Send   Recv   Size     Size    Time     Rate
	bytes  Bytes  bytes    bytes   secs.    per sec

	16384  131072 1        1       10.00    30000.50
	16384  131072
	EOT
	cat >want <<-\EOT &&
	Throughput_tps: 30000.5
	ThroughputRecv_tps: 0
	ThroughputBoth_tps: 30000.5
	Throughput_total_tps: 30000.5
	ThroughputRecv_total_tps: 0
	ThroughputBoth_total_tps: 30000.5
	workload: 300005.0
	EOT
	perfsift parse netperf tcprr >out &&
	test_cmp want out
'

test_expect_success 'perf-bench-futex: requeue and wake-parallel summaries' '
	printf "Requeued 8 of 8 threads in 0.0106 ms (+-4.40%%)\n" >rq &&
	perfsift parse perf-bench-futex rq >out &&
	printf "requeued_time_ms: 0.0106\nstddev%%: 4.40\n" >want &&
	test_cmp want out &&
	printf "Avg per-thread latency (waking 1/8 threads) in 0.0130 ms (+-8.62%%)\n" >wp &&
	perfsift parse perf-bench-futex wp >out &&
	printf "avg_per_thread_latency_ms: 0.0130\nstddev%%: 8.62\n" >want &&
	test_cmp want out
'

test_expect_success 'unixbench: no Benchmark Run line is test.fail' '
	printf "File Write 1024 bufsize 2000 maxblocks      3121976.0 KBps  (30.0 s, 7 samples)\n" >ub &&
	perfsift parse unixbench ub >out &&
	echo "test.fail: 1" >want &&
	test_cmp want out
'

test_expect_success '--list names the LKP programs' '
	perfsift parse --list >out &&
	for p in hackbench stress-ng fio perf-bench-sched-messaging perf-bench-futex \
		unixbench netperf aim9 mpstat sysbench-cpu; do
		test_grep "^$p\$" out || return 1
	done
'

test_done
