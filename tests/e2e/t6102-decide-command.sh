#!/bin/sh
# shellcheck disable=SC2016
# t6102: when compare or report shows a KPI undecided, the line under the
# table gives the command that would decide it -- `perfsift --result-root
# ROOT run JOB --commit C --until-decided BASE --max-runs N`, JOB the
# head's own run job.yaml (a file that is there), C its commit, N the
# runs it has plus those asked for -- and running that very line decides
# it, exiting by the verdict.  Where the base's runs are what is missing,
# no such line.  The
# scores come from lib-seq.sh's list by run number: the same verdicts on
# any machine.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-seq.sh"

# the base has its whole list: a base of 3 runs would limit the verdict
# (its 2 degrees of freedom), and no head runs could decide it
test_expect_success 'setup: a fast base of 12 runs, a slow head of 3' '
	write_seq_job &&
	perfsift run job.yaml -n 12 -- ./seq.sh >out &&
	perfsift run job.yaml -n 3 --set mytest.mytest=slow -- ./seq.sh >out
'

test_expect_success 'compare: the undecided KPI, then the command that decides it' '
	perfsift compare mytest=fast mytest=slow >cmp &&
	test_grep "^? undecided: [0-9]* more runs a side would likely decide mytest.score" cmp &&
	sed -n "s/^? to decide: //p" cmp >cmd &&
	test "$(wc -l <cmd)" -eq 1 &&
	root=$(cd "$PERFSIFT_RESULT_ROOT" && pwd) &&
	test_grep "^perfsift --result-root $root run $root/tiny/[^ ]*-slow/[^ ]*/[0-9]*/job.yaml --commit [^ ]* --until-decided $root/tiny/[^ ]*-fast/[^ ]* --max-runs [0-9]*\$" cmd &&
	commit=$(sed "s/.* --commit \([^ ]*\) .*/\1/" cmd) &&
	n=$(sed "s/.* --max-runs //" cmd) &&
	more=$(sed -n "s/^? undecided: \([0-9]*\) more.*/\1/p" cmp) &&
	test "$n" -eq $((3 + more)) -o "$n" -eq 3 -o "$n" -eq 99 &&
	job=$(sed "s/.* run \([^ ]*\) --commit .*/\1/" cmd) &&
	test -f "$job" &&
	case "$job" in */"$commit"/*) ;; *) false ;; esac &&
	base=$(sed "s/.* --until-decided \([^ ]*\) .*/\1/" cmd) &&
	test -d "$base"
'

test_expect_success 'report: the same line, in the text and in the HTML' '
	perfsift report mytest=fast mytest=slow --html r.html >r.txt &&
	test_grep "^to decide: $(sed "s/[.[]/\\\\&/g" cmd)\$" r.txt &&
	test_grep "to decide: perfsift --result-root" r.html
'

test_expect_success 'that very command decides it' '
	test_must_fail --status=1 eval "$(cat cmd)" >out &&
	test_grep "decided after [0-9]* runs: 1 KPI changed" out &&
	test_must_fail --status=1 perfsift compare mytest=fast mytest=slow >cmp2 &&
	! grep "undecided\|to decide" cmp2
'

test_expect_success 'the base s runs are what is missing: no command' '
	perfsift run job.yaml -n 3 --set mytest.mytest=noisy -- ./seq.sh >out &&
	perfsift run job.yaml -n 3 --set mytest.mytest=steady -- ./seq.sh >out &&
	perfsift compare mytest=noisy mytest=steady >cmp3 &&
	test_grep "^? undecided: " cmp3 &&
	! grep "to decide" cmp3
'

test_done
