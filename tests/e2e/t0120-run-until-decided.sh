#!/bin/sh
# t0120: `run --until-decided BASE` adds runs while a KPI is undecided and
# stops once every KPI is changed or the same, at --max-runs, or when more
# runs here cannot decide (the base's runs limit it), exiting by the
# verdict (0 same, 1 regressed, 4 still undecided); a matrix's atomic
# jobs run round-robin by default (--interleave), --sequential one after
# the other.  The command's figures come from a list by run number, so
# every verdict is the same on any machine.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-seq.sh"

test_expect_success 'setup: a command whose score is a fixed list per setting' '
	write_seq_job &&
	perfsift run job.yaml -n 12 -- ./seq.sh >out
'

# the runs made of setting $1
runs_of () {
	find "$PERFSIFT_RESULT_ROOT/tiny" -path "*-$1/*" -name stats.json | wc -l
}

# The base has its whole list (12 runs): the verdict's 99.9% interval
# keeps a base's few degrees of freedom (with 5 base runs an A/A is
# base-limited: test 5), and one more run than the minimum decides it.
test_expect_success 'an A/A is decided "same" after one more than the minimum (3 runs)' '
	perfsift run job.yaml --set mytest.mytest=same --until-decided mytest=fast \
		-- ./seq.sh >out &&
	test_grep "^[^ ]*-same: after 3 runs, undecided: 1 more run a side would likely decide mytest.score (+0.0%, interval \[-2.4%, +2.5%\] from 3 + 12 unpaired runs, minimum effect 2%)\$" out &&
	test_grep "^[^ ]*-same: decided after 4 runs: 0 KPIs changed, 1 the same (mytest.score same)\$" out &&
	test "$(runs_of same)" -eq 4
'

test_expect_success 'a 6% fall in a noisy start takes more runs, then is changed' '
	test_must_fail --status=1 perfsift run job.yaml --set mytest.mytest=slow \
		--until-decided mytest=fast --max-runs 12 -- ./seq.sh >out &&
	test_grep "^[^ ]*-slow: after 3 runs, undecided: [0-9]* more runs a side would likely decide mytest.score" out &&
	test_grep "^[^ ]*-slow: decided after [4-9] runs: 1 KPI changed, 0 the same (mytest.score changed)\$" out &&
	n=$(runs_of slow) && test "$n" -gt 3 && test "$n" -lt 10 &&
	test_must_fail --status=1 perfsift compare mytest=fast mytest=slow >cmp
'

test_expect_success 'a head as noisy as 20% runs to --max-runs and stays undecided' '
	test_must_fail --status=4 perfsift run job.yaml --set mytest.mytest=wild \
		--until-decided mytest=fast --max-runs 8 -- ./seq.sh >out &&
	test_grep "^[^ ]*-wild: still undecided after the maximum of 8 runs: undecided: " out &&
	test "$(runs_of wild)" -eq 8
'

test_expect_success 'against a BASE of 3 runs 5% apart, more runs here cannot decide: stop' '
	perfsift run job.yaml -n 3 --set mytest.mytest=noisy -- ./seq.sh >out &&
	test_must_fail --status=4 perfsift run job.yaml --set mytest.mytest=steady \
		--until-decided mytest=noisy --max-runs 12 -- ./seq.sh >out &&
	test_grep "^[^ ]*-steady: still undecided after 3 runs, and more runs here would not decide it: BASE.s runs are too few or too noisy (give .mytest=noisy. more runs): " out &&
	test "$(runs_of steady)" -eq 3
'

test_expect_success 'a BASE naming no group is an error before anything runs' '
	test_must_fail --status=2 perfsift run job.yaml --set mytest.mytest=other \
		--until-decided mytest=nosuch -- ./seq.sh 2>err &&
	test_grep "until-decided: .mytest=nosuch. matches no result group" err &&
	test "$(runs_of other)" -eq 0 &&
	test_must_fail --status=2 perfsift run job.yaml --until-decided mytest=fast \
		-n 5 --max-runs 4 -- ./seq.sh 2>err &&
	test_grep "max-runs 4 is below -n 5" err
'

test_expect_success 'a matrix runs round-robin by default, --sequential in a row' '
	printf "testcase: rr\nmytest:\n  mytest: [a, b]\n  cmdline: \"echo score: 1\"\nmonitors: none\n" >rr.yaml &&
	perfsift --result-root rr run rr.yaml -n 2 >out &&
	sed -n "s/^\([^ ]*\): run \([0-9]\) of 2 -> .*/\1 \2/p" out >order &&
	sed "s/^[^ ]*-\([ab]\) /\1 /" order >actual &&
	printf "a 1\nb 1\na 2\nb 2\n" >expect &&
	test_cmp expect actual &&
	perfsift --result-root seq run rr.yaml -n 2 --sequential >out &&
	sed -n "s/^\([^ ]*\): run \([0-9]\) of 2 -> .*/\1 \2/p" out >order &&
	sed "s/^[^ ]*-\([ab]\) /\1 /" order >actual &&
	printf "a 1\na 2\nb 1\nb 2\n" >expect &&
	test_cmp expect actual
'

# the "to decide" line names --commit C: a work tree that knows C but is
# at another commit would measure the wrong code under C's name
test_expect_success '--until-decided --commit C in a work tree at another commit: refused' '
	git init -q tree &&
	git -C tree -c user.name=t -c user.email=t@t commit -q --allow-empty -m one &&
	git -C tree -c user.name=t -c user.email=t@t commit -q --allow-empty -m two &&
	one=$(git -C tree rev-parse HEAD~1) && two=$(git -C tree rev-parse HEAD) &&
	cp job.yaml seq.sh tree/ &&
	(cd tree && test_must_fail --status=2 perfsift run job.yaml \
		--set mytest.mytest=other --commit "$one" \
		--until-decided mytest=fast -- ./seq.sh 2>../err) &&
	test_grep "commit $one: the work tree .*/tree is at $(echo $two | cut -c1-10), not at $(echo $one | cut -c1-10): check out" err &&
	test "$(runs_of other)" -eq 0 &&
	# at C itself, or C unknown to the tree (a kernel release): it runs
	(cd tree && perfsift run job.yaml --set mytest.mytest=other \
		--commit "$two" -n 1 --max-runs 1 --until-decided mytest=fast \
		-- ./seq.sh >../out 2>../err; test $? != 2) &&
	(cd tree && perfsift run job.yaml --set mytest.mytest=other \
		--commit 6.1.0-test -n 1 --max-runs 1 --until-decided mytest=fast \
		-- ./seq.sh >../out 2>../err; test $? != 2)
'

test_done
