#!/bin/sh
# t5000: perfsift plot draws the e-mail's chart (ASCII, SVG) from two
# result groups, and one run's time series from its <monitor>.json.
. "$(dirname "$0")/lib.sh"

mkdir -p base head run
cat >base/matrix.json <<JSON
{"vm-scalability.time.system_time": [516.2, 517.0, 518.1, 519.3, 505.4],
 "turbostat.CPU%c6": [0.46, 0.45, 0.46, 0.47, 0.46]}
JSON
cat >head/matrix.json <<JSON
{"vm-scalability.time.system_time": [252.1, 253.4, 248.9, 276.2, 252.2, 251.5],
 "turbostat.CPU%c6": [0.38, 0.39, 0.37, 0.38, 0.38, 0.38]}
JSON
cat >run/meminfo.json <<JSON
{"meminfo.Active(anon)": [100, 2000, 4000, 6000, 8000, null, 8100, 8050],
 "meminfo.MemFree": [9, 8, 7, 6, 5, 4, 3, 2]}
JSON
cat >run/vm-scalability.json <<JSON
{"vm-scalability.throughput": [5, 6, 7]}
JSON

test_expect_success 'plot STAT BASE HEAD draws the seed-style chart' '
	perfsift plot vm-scalability.time.system_time base head >out &&
	test "$(wc -l <out)" -eq 22 &&
	test_grep "^                          vm-scalability.time.system_time\$" out &&
	test_grep "^  550 ++-----*+\$" out &&
	test_grep "^      \*\.\.\.\." out &&
	test_grep "^  250 O+" out &&
	test_grep "^  200 ++-----*+\$" out &&
	test_grep "\[\*\] bisect-good sample" out &&
	test_grep "\[O\] bisect-bad  sample" out
'

test_expect_success 'the title is sanitised as LKP does' '
	perfsift plot "turbostat.CPU%c6" base head >out &&
	test_grep "^ *turbostat.CPU_c6\$" out &&
	test_grep "^  0.47 ++--" out
'

test_expect_success '--width and --height size the chart' '
	perfsift plot vm-scalability.time.system_time base head \
		--width 50 --height 12 >out &&
	test "$(wc -l <out)" -eq 14 &&
	test "$(awk "length > 50" out | wc -l)" -eq 0 &&
	test_grep "^  200 ++-*+\$" out &&
	test_grep "^  500 \*+" out
'

test_expect_success '--svg writes the same chart as SVG' '
	perfsift plot vm-scalability.time.system_time base head --svg c.svg >out &&
	test ! -s out &&
	test_grep "^<svg xmlns=\"http://www.w3.org/2000/svg\"" c.svg &&
	test_grep ">550</text>" c.svg &&
	test_grep ">200</text>" c.svg &&
	test_grep "bisect-bad sample" c.svg &&
	test "$(tail -n 1 c.svg)" = "</svg>" &&
	perfsift plot vm-scalability.time.system_time base head --svg - >out2 &&
	test_cmp c.svg out2
'

test_expect_success 'BASE and HEAD by commit id under the result root' '
	G=$PERFSIFT_RESULT_ROOT/vm-scalability/anon-r-seq/lkp-hsx04/debian/x86_64-rhel/gcc-12 &&
	mkdir -p "$G" &&
	cp -R "$TESTDATA/report/base" "$G/v4.6-rc2" &&
	cp -R "$TESTDATA/report/head" "$G/5f155ea5ab62b5321aa7315de62d21da59aa8c65" &&
	perfsift plot vm-scalability.time.system_time v4.6-rc2 5f155ea5 >out &&
	test_grep "^  250 O+" out &&
	perfsift plot vm-scalability.time.system_time "$G/v4.6-rc2" "$G/5f155ea5ab62b5321aa7315de62d21da59aa8c65" >out2 &&
	test_cmp out out2
'

test_expect_success 'plot STAT --run DIR draws a time series' '
	perfsift plot "meminfo.Active(anon)" --run run >out &&
	test_grep "meminfo.Active_anon_" out &&
	test_grep "^  9000 ++--" out &&
	test_grep "^ *0 O+--" out &&
	! grep -q bisect out
'

test_expect_success '--run finds a benchmark stat in another JSON file' '
	perfsift plot vm-scalability.throughput --run run >out &&
	test_grep "vm-scalability.throughput" out
'

test_expect_success 'a stat on neither side is a clear usage error' '
	test_must_fail --status=2 perfsift plot no.such.stat base head 2>err &&
	test_grep "no.such.stat.*no such stat" err &&
	test_must_fail --status=2 perfsift plot no.such --run run 2>err &&
	test_grep "no per-sample values" err
'

test_expect_success 'bad arguments are usage errors' '
	test_must_fail --status=2 perfsift plot x base 2>err &&
	test_grep "usage:" err &&
	test_must_fail --status=2 perfsift plot x base head --width 5 2>err &&
	test_grep "width" err &&
	test_must_fail --status=2 perfsift plot x base nowhere 2>err &&
	test_grep "nowhere" err &&
	perfsift plot --help >out &&
	test_grep "usage: perfsift plot" out
'

test_done
