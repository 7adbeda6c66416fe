#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t0111: perfsift run -- a job file whose later document fails after an
# earlier one was split: one clear error, exit 2, nothing written (it
# used to crash, releasing plans that were never made).
. "$(dirname "$0")/lib.sh"

test_expect_success '--set that only the second document refuses: exit 2, no crash' '
	cat >two.yaml <<-\EOT &&
	testcase: a
	mytest:
	  cmdline: "true"
	---
	testcase: b
	vm-scalability:
	  test: anon-r-seq
	EOT
	test_must_fail --status=2 perfsift run two.yaml --set test=nosuch >out 2>err &&
	test_grep "^perfsift run: --set: vm-scalability.test: .nosuch. is not a case of vm-scalability" err &&
	! test -e "$PERFSIFT_RESULT_ROOT/a"
'

test_done
