#!/bin/sh
# t5110: perf-profile names user-space samples.  A small C program built
# with its symbol table (tests/data/usersym/bench.c: other work, then a
# hot loop) runs with perf-profile; its hot function must be a perf-profile
# stat by name, in the raw report with the binary as its shared object,
# and it must lead the report's perf-profile rows (`report --interleaved`:
# the runs were made in turn) when the head runs the loop ten times
# longer.  The binary is removed after the runs: the names were resolved
# at the end of each run, while it existed.  Stripped, the
# same program's samples are `[unknown]` (there is no name to find).
# cpu-clock (a software event) samples user mode where there is no PMU.
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup: the program, built with symbols' '
	cc -O2 -o bench "$TESTDATA/usersym/bench.c" &&
	nm bench | grep -q " T hot_compress_loop$" &&
	cat >job.yaml <<-EOT
	testcase: usersym
	kpi: {mytest.ms: lower}
	monitors: perf-profile
	mytest:
	  cmdline: $TEST_TMP/bench \$rounds 100000000
	EOT
'

if ! perfsift run job.yaml -n 1 --commit probe --set rounds=1000 >probe.out 2>probe.err ||
   grep -q "perf-profile: not available" probe.err; then
	test_skip 'user-space symbols' "perf-profile cannot sample here: $(grep perf-profile probe.err | head -1)"
	test_done
fi

test_expect_success 'runs: base 20M hot rounds, head 200M, 6 each in turn' '
	# in turn (ABAB), so that the load of the machine falls on both sides alike
	for i in 1 2 3 4 5 6; do
		perfsift run job.yaml -n 1 --commit base --set rounds=20000000 >/dev/null 2>&1 &&
		perfsift run job.yaml -n 1 --commit head --set rounds=200000000 >/dev/null 2>&1 ||
		return 1
	done &&
	rm bench
'

test_expect_success 'the hot function is a perf-profile stat by name' '
	for raw in $(find "$PERFSIFT_RESULT_ROOT/usersym" -path "*/head/*" -name perf-profile); do
		grep -Eq "^ +[0-9.]+% +[0-9.]+% +bench +\[\.\] hot_compress_loop$" "$raw" || { cat "$raw"; return 1; }
		perfsift parse perf-profile "$raw" >pp &&
		test_grep "^self\.[a-z-]*\.hot_compress_loop: " pp || return 1
	done
'

test_expect_success 'compare shows its share growing, by name' '
	# exit 0 or 1: whether the KPI (mytest.ms) is decided to have regressed
	{ perfsift compare base head --all >cmp.txt; test $? -le 1; } &&
	grep -E "^ +[0-9.]+.* \+[0-9.]+%.*perf-profile\.self\.[a-z-]+\.hot_compress_loop$" cmp.txt
'

test_expect_success 'report --interleaved: it explains the change, by name' '
	{ perfsift report --interleaved base head >report.txt; test $? -le 1; } &&
	grep "^ *[0-9][0-9]*\.  *+[0-9.]*%  perf-profile\.[a-z-]*\.[a-z-]*\.hot_compress_loop  (.*, separation [01]\.[0-9]*)$" report.txt >row ||
	{ cat report.txt; false; } &&
	sep=$(sed -n "s/.*separation \([01]\.[0-9]*\))$/\1/p" row) &&
	awk -v s="$sep" "BEGIN { exit !(s >= 0.8) }"
'

test_expect_success 'stripped, its samples are [unknown]' '
	cc -O2 -s -o bench "$TESTDATA/usersym/bench.c" &&
	! nm bench 2>/dev/null | grep -q hot_compress_loop &&
	perfsift run job.yaml -n 1 --commit stripped --set rounds=200000000 >/dev/null 2>&1 &&
	raw=$(find "$PERFSIFT_RESULT_ROOT/usersym" -path "*/stripped/*" -name perf-profile) &&
	! grep -q hot_compress_loop "$raw" &&
	grep -Eq "^ +[0-9.]+% +[0-9.]+% +\[unknown\] +\[\.\] \[unknown\]$" "$raw"
'

test_done
