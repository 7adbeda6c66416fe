#!/bin/sh
# t6002: the same with 3% random noise in the program's work, and the KPI
# chosen automatically from the good-vs-bad comparison.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-bisect.sh"

if ! have_runner; then
	test_skip 'bisect with noise' 'perfsift run is not in this build'
	test_done
fi

test_expect_success 'setup: 40 commits, 3% noise, twice the work from c14' '
	make_repo repo 40 14 3 &&
	write_job job.yaml
'

test_expect_success 'bisect (KPI chosen) names c14' '
	run_bisect --repo repo --good c1 --bad c40 --build "sh build.sh" \
		job.yaml -- ./prog;
	st=$?; cat out; grep "^bisect\|error\|warning" err; test $st -eq 0 &&
	test_grep "^first bad commit: $(git -C repo rev-parse c14) change 14\$" out &&
	test_grep "^KPI: mytest\.time\.[a-z]*_time (chosen automatically)\$" out &&
	test_grep "^confirmation: confirmed" out &&
	n=$(measured_now out) &&
	test "$n" -le 8
'

test_done
