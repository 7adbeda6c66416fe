#!/bin/sh
# shellcheck disable=SC2016
# t3100: perfsift run of the built-in will-it-scale -- LKP's local-test job
# (runtime shortened with --set) with the default monitors beside it, its
# results under ROOT/will-it-scale/ in LKP's stat names; the raw output is
# runtest.py's table, which `perfsift parse will-it-scale` reads back; the
# quick job; mode both and the 1-task linear column.
. "$(dirname "$0")/lib.sh"

# the value of stat $2 in stats.json of the run 0 under the group matching $1
stat_of() {
	s=$(find "$PERFSIFT_RESULT_ROOT/will-it-scale" -path "*$1*/0/stats.json" | head -n 1) &&
	sed -n "s/^ *\"$2\": \\([0-9.e+-]*\\),*\$/\\1/p" "$s"
}

# stat $2 of group $1 is a number above 0
positive() {
	v=$(stat_of "$1" "$2") &&
	test -n "$v" &&
	awk -v v="$v" "BEGIN { exit !(v > 0) }" || {
		echo "$1: $2 is '${v:-}'" >&2
		return 1
	}
}

NR_CPU=$(getconf _NPROCESSORS_ONLN)
# LKP's nr_task: 50%: half the CPUs, at least one task
HALF=$((NR_CPU / 2))
[ "$HALF" -ge 1 ] || HALF=1

test_expect_success "LKP's local-test job: per_process_ops, per_thread_ops, workload" '
	perfsift run "$SRCDIR/tests/data/lkp/jobs/will-it-scale-local-test.yaml" \
		--set runtime=1 >out 2>err &&
	positive process-50% will-it-scale.per_process_ops &&
	positive process-50% will-it-scale.workload &&
	positive process-50% "will-it-scale.$HALF.processes" &&
	test "$(stat_of process-50% will-it-scale.per_thread_ops)" = 0 &&
	positive thread-50% will-it-scale.per_thread_ops &&
	positive thread-50% "will-it-scale.$HALF.threads" &&
	test "$(stat_of thread-50% will-it-scale.per_process_ops)" = 0
'

test_expect_success 'results are under ROOT/will-it-scale/, with the default monitors' '
	for m in process thread; do
		d=$(find "$PERFSIFT_RESULT_ROOT/will-it-scale" -path "*$m-50%-1-page_fault1/*/0" -type d) &&
		test -n "$d" &&
		for f in will-it-scale vmstat proc-vmstat meminfo time; do
			test -s "$d/$f" || { echo "$d: no $f" >&2; return 1; }
		done
	done
'

test_expect_success "the raw output is runtest.py's table, and LKP's parser reads it" '
	raw=$(find "$PERFSIFT_RESULT_ROOT/will-it-scale" -path "*process-50%*/0/will-it-scale") &&
	sed -n 2,3p "$raw" >head &&
	printf "tasks,processes,processes_idle,threads,threads_idle,linear\n0,0,100,0,100,0\n" >expect &&
	test_cmp expect head &&
	tail -n 1 "$raw" | grep -E "^$HALF,[1-9][0-9]*,[0-9]+\.[0-9]{2},0,0\.00,[0-9]+$" &&
	perfsift parse will-it-scale "$raw" >parsed &&
	p=$(sed -n "s/^$HALF\.processes: //p" parsed) &&
	test "$(sed -n "s/^per_process_ops: //p" parsed)" = $((p / HALF))
'

test_expect_success 'mode both, one task: both columns, linear = the larger, no scalability' '
	cat >both.yaml <<-\EOT &&
	suite: will-it-scale
	testcase: will-it-scale
	runtime: 0.4
	nr_task: 1
	will-it-scale:
	  mode: both
	  test: getppid1
	EOT
	perfsift run both.yaml >out 2>err &&
	raw=$(find "$PERFSIFT_RESULT_ROOT/will-it-scale" -path "*both*getppid1*/0/will-it-scale") &&
	tail -n 1 "$raw" >row &&
	IFS=, read -r n p pi t ti lin <row &&
	test "$n" = 1 && test "$p" -gt 0 && test "$t" -gt 0 &&
	if [ "$p" -gt "$t" ]; then test "$lin" = "$p"; else test "$lin" = "$t"; fi &&
	positive both-1-0.4-getppid1 will-it-scale.per_process_ops &&
	positive both-1-0.4-getppid1 will-it-scale.per_thread_ops &&
	positive both-1-0.4-getppid1 will-it-scale.1.linear &&
	test -z "$(stat_of both-1-0.4-getppid1 will-it-scale.scalability)"
'

test_expect_success 'the quick job runs its four testcases' '
	perfsift run "$SRCDIR/jobs/will-it-scale-quick.yaml" --set runtime=0.4 >out 2>err &&
	for c in page_fault1 context_switch1 getppid1 read1; do
		positive "$c" will-it-scale.per_process_ops || return 1
	done
'

# A task whose operation fails: with 120 MB of address space, page_fault1's
# 128 MiB mapping cannot be made.  (A sanitizer build cannot start at all
# under that limit: the probe skips it.)
if (ulimit -v 120000 && perfsift help keys will-it-scale >/dev/null 2>&1); then
	test_expect_success "a failed operation: the suite's assertion line, its stat, exit status 1" '
		cat >fail.yaml <<-\EOT &&
		suite: will-it-scale
		testcase: will-it-scale
		runtime: 0.2
		nr_task: 1
		will-it-scale:
		  mode: process
		  test: page_fault1
		EOT
		(ulimit -v 120000 && test_must_fail --status=3 perfsift run fail.yaml >out 2>err) &&
		test_grep "a task ended (exit status 1)" err &&
		raw=$(find "$PERFSIFT_RESULT_ROOT/will-it-scale" -path "*process-1-0.2-page_fault1*/0/will-it-scale") &&
		test_grep "^page_fault1_processes: wis_cases.c:[0-9]*: Assertion .c != MAP_FAILED. failed" "$raw" &&
		test_must_fail grep "^1," "$raw" &&
		s=${raw%/will-it-scale}/stats.json &&
		test_grep "\"will-it-scale.Assertion_c_!=_MAP_FAILED_failed\": 1" "$s" &&
		test_grep "^exit_code.1: 1$" "${raw%/will-it-scale}/last_state"
	'
else
	test_skip "a failed operation" "this build cannot start under ulimit -v (a sanitizer build)"
fi

test_done
