#!/bin/sh
# t6001: bisect a 40-commit repository whose program does twice the work
# from commit 23 on: it names c23 measuring at most ceil(log2 40) + 2
# commits between good and bad, confirms it, prints (and keeps) the
# report with the charts of every bisect-good and bisect-bad sample, and
# leaves the user's checkout and the result root as they should be.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-bisect.sh"

if ! have_runner; then
	test_skip 'bisect finds the commit' 'perfsift run is not in this build'
	test_done
fi

test_expect_success 'setup: 40 commits, twice the work from c23' '
	make_repo repo 40 23 &&
	write_job job.yaml &&
	git -C repo rev-parse HEAD >head.before
'

test_expect_success 'bisect names c23 and confirms it' '
	bisect --good c1 --bad c40 --stat mytest.run_ms -n 2 \
		job.yaml -- ./prog &&
	test_grep "^first bad commit: $(git -C repo rev-parse c23) change 23\$" out &&
	test_grep "^confirmation: confirmed" out &&
	test_grep "^  change: +[0-9.]*% (interleaved ABAB)" out &&
	test_grep "^KPI: mytest.run_ms\$" out &&
	test_grep "^runs spent: " out
'

test_expect_success 'at most ceil(log2 40) + 2 = 8 commits measured in between' '
	n=$(measured_now out) &&
	test -n "$n" && test "$n" -le 8 &&
	test "$(step_lines err | wc -l)" -eq "$n"
'

test_expect_success 'the report: c22 vs c23, the KPI first, charts of */O samples' '
	c22=$(git -C repo rev-parse c22) && c23=$(git -C repo rev-parse c23) &&
	test_grep "^Subject: \[perfsift\] $(echo $c23 | cut -c1-10): mytest.run_ms +[0-9.]*% " out &&
	test_grep "^commit $c23 (\"change 23\")" out &&
	test_grep "^ *$c22\$" out &&
	test_grep "%stddev *%change *%stddev" out &&
	test_grep "mytest.run_ms\$" out &&
	test_grep "^To reproduce:" out &&
	test_grep "perfsift run job.yaml" out &&
	# the first chart is the KPI: every good sample ("*") below every
	# bad one ("O"), as many of each as the bisect-good/-bad commits had
	sed -n "/^ *mytest.run_ms\$/,/^\$/p" out >chart &&
	test_grep "O" chart && test_grep "[*]" chart &&
	test_grep "\[\*\] bisect-good sample" out &&
	test_grep "\[O\] bisect-bad *sample" out
'

test_expect_success 'the report is kept in the state directory' '
	saved=$(sed -n "s/.*the report is in .\(.*\).\$/\1/p" err) &&
	test -f "$saved" &&
	test_cmp out "$saved"
'

test_expect_success 'every sample is in the result root under its commit' '
	test "$(runs_of "$(git -C repo rev-parse c1)")" -ge 2 &&
	test "$(runs_of "$(git -C repo rev-parse c40)")" -ge 2 &&
	test "$(runs_of "$(git -C repo rev-parse c23)")" -ge 4
'

test_expect_success 'the user checkout is untouched, the worktrees are gone' '
	git -C repo rev-parse HEAD >head.after &&
	test_cmp head.before head.after &&
	test -z "$(git -C repo status --porcelain)" &&
	test "$(git -C repo worktree list | wc -l)" -eq 1
'

test_expect_success 'a second bisect reuses the samples of the first' '
	mv out out1 &&
	bisect --good c1 --bad c40 --stat mytest.run_ms -n 2 \
		--no-confirm job.yaml -- ./prog &&
	test_grep "^first bad commit: $(git -C repo rev-parse c23)" out &&
	first=$(sed -n "s/^runs spent: \([0-9]*\) .*/\1/p" out1) &&
	again=$(sed -n "s/^runs spent: \([0-9]*\) .*/\1/p" out) &&
	test "$again" -lt $((first / 2)) &&
	test "$(grep -c "runs from the index)" err)" -ge 3
'

test_done
