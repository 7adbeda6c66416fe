#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t6002: the same with 3% random noise in the program's run time (from a
# seeded generator: the same noise at every run of the test), and the KPI
# chosen automatically from the good-vs-bad comparison.  The program's own
# figure and its elapsed time both double at c14 and rank alike, so the
# larger change wins: a start-up wait as long as the work, outside the
# figure, makes the figure change 100% and the elapsed time 50%, so no
# late wake-up on a loaded machine can make the elapsed time win.
. "$(dirname "$0")/lib.sh"
BISECT_SETUP_MS=80
. "$SRCDIR/tests/e2e/lib-bisect.sh"

if ! have_runner; then
	test_skip 'bisect with noise' 'perfsift run is not in this build'
	test_done
fi

test_expect_success 'setup: 40 commits, 3% noise, twice the work from c14' '
	make_repo repo 40 14 3 &&
	write_job job.yaml
'

test_expect_success 'bisect (KPI chosen) names c14 and confirms it' '
	bisect --good c1 --bad c40 job.yaml -- ./prog &&
	test_grep "^first bad commit: $(git -C repo rev-parse c14) change 14\$" out &&
	test_grep "^KPI: mytest\.run_ms (chosen automatically)\$" out &&
	test_grep "^confirmation: confirmed" out &&
	n=$(measured_now out) &&
	test "$n" -le 8
'

test_expect_success 'the noise is there: the good samples are not all equal' '
	sed -n "s/^  good  [0-9a-f]*: median [0-9.]* \[\([0-9.]*\) - \([0-9.]*\)\].*/\1 \2/p" out >range &&
	read lo hi <range &&
	test "$lo" != "$hi"
'

test_done
