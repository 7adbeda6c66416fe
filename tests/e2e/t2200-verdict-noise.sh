#!/bin/sh
# t2200: a KPI's verdict comes from the data's own noise (docs/detection.md).
# The lz4 trial of issue 23: 10 runs a side, about -25%, each side spread
# so that LKP's min/max ranges overlap -- LKP's test says "not changed",
# Welch's p is tiny, and the KPI is changed (exit 1); --lkp-exact keeps
# LKP's answer.  A job with no `kpi:`: its own mytest.score is a KPI,
# shown undecided, never withheld.  The runs are written as stats.json
# (planted numbers: nothing is timed).
. "$(dirname "$0")/lib.sh"

# runs of testcase tc with kpi line $1 under $2/<run>, values $3 of stat $4
runs_of () {
	i=0 &&
	for v in $3; do
		mkdir -p "$2/$i" &&
		printf "testcase: tc\ncommit: %s\ntbox_group: box\n%s\n" "$(basename "$2")" "$1" >"$2/$i/job.yaml" &&
		echo "{\"$4\": $v, \"tc.steady\": 5}" >"$2/$i/stats.json" &&
		i=$((i + 1)) || return 1
	done
}

test_expect_success 'setup: the lz4 case, 10 runs a side, ranges overlapping' '
	g=lz4/tc/p/box/r/k/c &&
	runs_of "kpi: {tc.compress_MBps: higher}" $g/base \
		"356 240 402 340 371 290 365 330 380 350" tc.compress_MBps &&
	runs_of "kpi: {tc.compress_MBps: higher}" $g/head \
		"241 345 220 250 236 260 230 245 228 330" tc.compress_MBps
'

test_expect_success 'LKP says not changed, the interval says changed: exit 1' '
	g=lz4/tc/p/box/r/k/c &&
	test_must_fail --status=1 perfsift compare --json $g/base $g/head >out.json &&
	jq -e ".rows[] | select(.stat == \"tc.compress_MBps\") | .columns[0] |
		.lkp != \"changed\" and .kpi_verdict == \"changed\" and
		.kpi_interval[1] < 0 and .kpi_pairs == 0 and .p_welch < 0.001" out.json &&
	test_must_fail --status=1 perfsift compare $g/base $g/head >out &&
	test_grep "tc.compress_MBps\$" out
'

test_expect_success '--lkp-exact: LKP alone, not changed, exit 0' '
	g=lz4/tc/p/box/r/k/c &&
	perfsift compare --lkp-exact $g/base $g/head >out &&
	! grep -q "tc.compress_MBps" out
'

test_expect_success 'a min_effect of 50%: the interval inside +-50% is the same, exit 0' '
	g=lz4b/tc/p/box/r/k/c &&
	runs_of "kpi: {tc.compress_MBps: {better: higher, min_effect: 50%}}" $g/base \
		"356 240 402 340 371 290 365 330 380 350" tc.compress_MBps &&
	runs_of "kpi: {tc.compress_MBps: {better: higher, min_effect: 50%}}" $g/head \
		"241 345 220 250 236 260 230 245 228 330" tc.compress_MBps &&
	perfsift compare --json --kpi $g/base $g/head >out.json &&
	jq -e ".rows[] | select(.stat == \"tc.compress_MBps\") | .columns[0] |
		.kpi_verdict == \"same\" and .kpi_min_effect == 50" out.json
'

test_expect_success 'no kpi: declared: the program s own score is shown, not withheld' '
	g=nokpi/mytest/p/box/r/k/c &&
	runs_of "" $g/base "100 102 98" mytest.score &&
	runs_of "" $g/head "300 1200 700" mytest.score &&
	sed -i "s/^testcase: tc/testcase: mytest/" $g/*/*/job.yaml &&
	perfsift compare $g/base $g/head >out &&
	test_grep "mytest.score\$" out &&
	test_grep "^? undecided: .* mytest.score (+" out
'

test_done
