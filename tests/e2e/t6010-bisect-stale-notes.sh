#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t6010: the notes a bisect resumes from (the verdict log, the step and
# confirmation counts in its --worktree DIR) are its own.  Notes another
# bisect left in DIR -- a killed run's, one over another result root, or
# an older perfsift's -- are removed and never read: here they call every
# commit the opposite of what it is, and a bisect that read them named
# c2 without a run.  The same bisect started again still resumes (t6005),
# and a finished one leaves no note behind (the step note stayed before).
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-bisect.sh"

if ! have_runner; then
	test_skip 'stale bisect notes' 'perfsift run is not in this build'
	test_done
fi

args='--good c1 --bad c8 --stat mytest.run_ms -n 2 --worktree wt --keep-worktree job.yaml -- ./prog'

# plant_lies: in wt, a verdict for each of c2..c7 opposite to the truth
# (c5 is the first bad), and step and confirmation counts of a run gone
plant_lies() {
	mkdir -p wt &&
	for i in 2 3 4 5 6 7; do
		v=bad && [ $i -ge 5 ] && v=good
		printf '%s mytest.run_ms %s\tstale\n' \
			"$(git -C repo rev-parse c$i)" $v || return 1
	done >wt/log &&
	printf '%s 0 0 0\n' "$(git -C repo rev-parse c4)" >wt/step &&
	printf '%s %s 0 0\n' "$(git -C repo rev-parse c4)" \
		"$(git -C repo rev-parse c5)" >wt/confirm
}

test_expect_success 'setup: 8 commits, twice the work from c5' '
	make_repo repo 8 5 &&
	write_job job.yaml
'

test_expect_success 'notes with no owner (a killed run, an older perfsift): removed, c5 found' '
	plant_lies &&
	bisect $args &&
	test_grep "notes in .*/wt. are another bisect.s (no owner: an older perfsift.s, or cut short): not used, removed" err &&
	test_grep "^first bad commit: $(git -C repo rev-parse c5) change 5\$" out &&
	test_grep "^confirmation: confirmed" out &&
	! grep "stale" err out
'

test_expect_success 'a finished bisect leaves no note in DIR, only its worktree' '
	for f in log step confirm owner; do
		! test -e "wt/$f" || { echo "wt/$f left" >&2; return 1; }
	done &&
	test -d wt/wt0
'

test_expect_success 'notes of another bisect (another result root): removed, c5 found' '
	PERFSIFT_RESULT_ROOT=$PWD/other "$PERFSIFT" bisect --repo repo \
		--build "sh build.sh" $args >out 2>err &
	pid=$! &&
	i=0 &&
	while [ "$(step_lines err | wc -l)" -lt 1 ] && [ $i -lt 2400 ]; do
		sleep 0.05; i=$((i + 1))
	done &&
	kill -INT $pid &&
	{ wait $pid; echo $? >status; } &&
	test "$(cat status)" -eq 130 &&
	test_grep "^result_root $PWD/other\$" wt/owner &&
	test -s wt/log &&
	# the interrupted bisect'"'"'s verdicts stand for the runs of "other":
	# a lie planted beside them must go with them
	plant_lies &&
	bisect $args &&
	test_grep "notes in .*/wt. are another bisect.s (its arguments or runs differ): not used, removed" err &&
	test_grep "^first bad commit: $(git -C repo rev-parse c5) change 5\$" out &&
	! grep "stale" err out
'

test_done
