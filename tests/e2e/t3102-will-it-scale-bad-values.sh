#!/bin/sh
# shellcheck disable=SC2016
# t3102: will-it-scale's options are checked by the program table when the
# job is read: an unknown testcase or mode, a missing test, a bad nr_task
# or runtime is one `FILE:LINE: KEY: what` line, exit status 2, and nothing
# written -- from run, split and install alike.
. "$(dirname "$0")/lib.sh"

# refused NAME 'MESSAGE' < job text (MESSAGE names the job NAME.yaml; run from a directory below)
refused() {
	cat >"$1.yaml" &&
	for cmd in run split install; do
		mkdir -p "work-$cmd" &&
		(cd "work-$cmd" && test_must_fail --status=2 perfsift "$cmd" "../$1.yaml" >../out 2>../err) &&
		printf "perfsift %s: ../%s\n" "$cmd" "$2" >expect &&
		if [ "$cmd" = split ]; then printf "../%s\n" "$2" >expect; fi &&
		test_cmp expect err &&
		test_cmp /dev/null out &&
		test -z "$(ls -A "work-$cmd")" || return 1
	done &&
	test_must_fail test -e "$PERFSIFT_RESULT_ROOT/will-it-scale"
}

test_expect_success 'a testcase will-it-scale does not have (in a list)' '
	printf "suite: will-it-scale\nwill-it-scale:\n  mode: process\n  test:\n    - page_fault1\n    - page_faul1\n" |
	refused bad-test "bad-test.yaml:6: will-it-scale.test: '\''page_faul1'\'' is not a testcase of will-it-scale (the testcases: docs/lkp-compat.md)"
'

test_expect_success 'a mode that is not process, thread or both' '
	printf "suite: will-it-scale\nwill-it-scale:\n  mode: proc\n  test: getppid1\n" |
	refused bad-mode "bad-mode.yaml:3: will-it-scale.mode: '\''proc'\'' is not one of process, thread, both"
'

test_expect_success 'no test: run says will-it-scale needs one' '
	printf "suite: will-it-scale\nwill-it-scale:\n  mode: thread\n" >no-test.yaml &&
	test_must_fail --status=2 perfsift run no-test.yaml >out 2>err &&
	echo "perfsift run: no-test.yaml:2: will-it-scale.test: not given: will-it-scale needs a testcase of will-it-scale (the testcases: docs/lkp-compat.md)" >expect &&
	test_cmp expect err &&
	test_must_fail test -e "$PERFSIFT_RESULT_ROOT/will-it-scale"
'

test_expect_success 'nr_task 0, and a runtime that is not a duration' '
	printf "suite: will-it-scale\nnr_task: 0\nwill-it-scale:\n  test: getppid1\n" |
	refused zero-tasks "zero-tasks.yaml:2: nr_task: '\''0'\'' is out of range (1 to 1048576)" &&
	printf "suite: will-it-scale\nwill-it-scale:\n  test: getppid1\n  runtime: soon\n" |
	refused bad-runtime "bad-runtime.yaml:4: will-it-scale.runtime: '\''soon'\'' is not a duration (e.g. 300 or 300s)"
'

test_expect_success 'help keys prints the table of will-it-scale' '
	perfsift help keys will-it-scale >out &&
	test_grep "^  mode  *enum .* both .*(process, thread, both)" out &&
	test_grep "^  test  *enum .*required" out &&
	test_grep "^  nr_task  *cpus .*100%" out
'

test_done
