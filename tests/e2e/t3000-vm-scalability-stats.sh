#!/bin/sh
# t3000: vm-scalability output in a run directory becomes LKP's stats:
# LKP's parser fixture (truncate lines), and usemem's own lines with the
# repeat dots, free times and `./case-` sample boundaries.
. "$(dirname "$0")/lib.sh"

G=$PERFSIFT_RESULT_ROOT/vm-scalability/defaults/box/debian/defconfig/gcc-12/abc123

test_expect_success 'the LKP fixture gives LKP keys and values' '
	mkdir -p "$G/0" &&
	cp "$TESTDATA/lkp/stats/vm-scalability/1" "$G/0/vm-scalability" &&
	perfsift stats "$G/0" >out &&
	test_grep "\"vm-scalability.throughput\": 10759237388," "$G/0/stats.json" &&
	test_grep "\"vm-scalability.stddev%\": 4.33912," "$G/0/stats.json" &&
	test_grep "\"vm-scalability.median_stddev%\": 4.33912," "$G/0/stats.json" &&
	test_grep "\"vm-scalability.workload\": 526757760" "$G/0/stats.json"
'

test_expect_success 'usemem lines: samples, median, free time, workload' '
	mkdir -p "$G/1" &&
	cat >"$G/1/vm-scalability" <<-\EOT &&
	2026-11-30 07:00:00  ./case-anon-r-seq
	2026-11-30 07:00:00  usemem --runtime 300 -n 2 --readonly 4096
	1000 bytes / 10 usecs = 300 KB/s
	.1200 bytes / 10 usecs = 100 KB/s
	5000 usecs to free memory
	7000 usecs to free memory
	2026-11-30 07:00:01  ./case-anon-r-seq
	3000 bytes / 10 usecs = 200 KB/s
	1000 bytes / 10 usecs = 200 KB/s
	EOT
	perfsift stats "$G/1" >out &&
	test_grep "\"vm-scalability.throughput\": 400," "$G/1/stats.json" &&
	test_grep "\"vm-scalability.median\": 250," "$G/1/stats.json" &&
	test_grep "\"vm-scalability.median_stddev%\": 20," "$G/1/stats.json" &&
	test_grep "\"vm-scalability.free_time\": 0.006," "$G/1/stats.json" &&
	test_grep "\"vm-scalability.workload\": 6.05" "$G/1/stats.json"
'

test_done
