#!/bin/sh
# t6005: a bisect interrupted with SIGINT after 3 steps, started again
# with the same arguments, finishes without measuring those 3 again.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-bisect.sh"

if ! have_runner; then
	test_skip 'bisect resumes' 'perfsift run is not in this build'
	test_done
fi

args='--good c1 --bad c24 --stat mytest.run_ms -n 2 job.yaml -- ./prog'

# the short shas of the step lines of commits measured now in $1
measured_shas() {
	step_lines "$1" | sed "s/^bisect: \[[0-9]*\/[0-9]*\] \([0-9a-f]*\) .*/\1/"
}

test_expect_success 'setup: 24 commits, twice the work from c19' '
	make_repo repo 24 19 &&
	write_job job.yaml
'

test_expect_success 'SIGINT after 3 steps: stops, exit 130' '
	# a simple command, so that $! is perfsift itself, not a subshell
	"$PERFSIFT" bisect --repo repo --build "sh build.sh" $args >out1 2>err1 &
	pid=$! &&
	i=0 &&
	while [ "$(step_lines err1 | wc -l)" -lt 3 ] && [ $i -lt 1200 ]; do
		sleep 0.05; i=$((i + 1))
	done &&
	{ kill -INT $pid || { cat err1; false; }; } &&
	{ wait $pid; echo $? >status; } &&
	cat err1 &&
	test "$(cat status)" -eq 130 &&
	test_grep "interrupted; run the same command again" err1 &&
	measured_shas err1 >m1 &&
	head -3 m1 >first3 &&
	test "$(wc -l <first3)" -eq 3
'

test_expect_success 'the interrupted run left the worktree for the resume' '
	test "$(git -C repo worktree list | wc -l)" -ge 2
'

test_expect_success 'started again: those 3 come from the index, c19 is found' '
	for s in $(cat first3); do
		runs_of "$(git -C repo rev-parse "$s")" || return 1
	done >runs.before &&
	bisect $args &&
	test_grep "^first bad commit: $(git -C repo rev-parse c19) change 19\$" out &&
	test_grep "^confirmation: confirmed" out &&
	for s in $(cat first3); do
		test_grep "^bisect: \[[0-9]*/23\] $s [a-z]*: .* runs from the index)" err || return 1
	done &&
	measured_shas err >m2 &&
	test -z "$(sort m1 m2 | uniq -d)"
'

test_expect_success 'no commit was measured twice (but the confirmation pair)' '
	c18=$(git -C repo rev-parse --short=10 c18) &&
	c19=$(git -C repo rev-parse --short=10 c19) &&
	for s in $(cat first3); do
		runs_of "$(git -C repo rev-parse "$s")" || return 1
	done >runs.after &&
	if ! grep -q "$c18\|$c19" first3; then
		test_cmp runs.before runs.after
	fi &&
	test "$(git -C repo worktree list | wc -l)" -eq 1
'

test_done
