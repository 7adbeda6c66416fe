#!/bin/sh
# t6001: bisect a 40-commit repository whose program does twice the work
# from commit 23 on: it names c23 measuring at most ceil(log2 40) + 2
# commits between good and bad, confirms it, and leaves the user's
# checkout and the result root as they should be.
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
	run_bisect --repo repo --good c1 --bad c40 --build "sh build.sh" \
		--stat mytest.time.elapsed_time -n 3 job.yaml -- ./prog;
	st=$?; cat out; grep "^bisect\|error\|warning" err; test $st -eq 0 &&
	test_grep "^first bad commit: $(git -C repo rev-parse c23) change 23\$" out &&
	test_grep "^confirmation: confirmed" out &&
	test_grep "^KPI: mytest.time.elapsed_time\$" out &&
	test_grep "^runs spent: " out
'

test_expect_success 'at most ceil(log2 40) + 2 = 8 commits measured in between' '
	n=$(measured_now out) &&
	test -n "$n" && test "$n" -le 8 &&
	test "$(step_lines err | wc -l)" -eq "$n"
'

test_expect_success 'every sample is in the result root under its commit' '
	test "$(runs_of "$(git -C repo rev-parse c1)")" -ge 3 &&
	test "$(runs_of "$(git -C repo rev-parse c40)")" -ge 3 &&
	test "$(runs_of "$(git -C repo rev-parse c23)")" -ge 6
'

test_expect_success 'the user checkout is untouched, the worktrees are gone' '
	git -C repo rev-parse HEAD >head.after &&
	test_cmp head.before head.after &&
	test -z "$(git -C repo status --porcelain)" &&
	test "$(git -C repo worktree list | wc -l)" -eq 1
'

test_expect_success 'a second bisect reuses the samples of the first' '
	PERFSIFT_RESULT_ROOT=$(cat root.used) &&
	export PERFSIFT_RESULT_ROOT &&
	perfsift bisect --repo repo --good c1 --bad c40 --build "sh build.sh" \
		--stat mytest.time.elapsed_time --no-confirm job.yaml -- ./prog \
		>out2 2>err2 &&
	test_grep "^first bad commit: $(git -C repo rev-parse c23)" out2 &&
	first=$(sed -n "s/^runs spent: \([0-9]*\) .*/\1/p" out) &&
	again=$(sed -n "s/^runs spent: \([0-9]*\) .*/\1/p" out2) &&
	test "$again" -lt $((first / 2)) &&
	test "$(grep -c "runs from the index)" err2)" -ge 3
'

test_done
