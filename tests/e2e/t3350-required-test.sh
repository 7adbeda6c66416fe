#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3350: a vm-scalability or will-it-scale job without its `test:` (or
# with an empty one) is refused by split, install and run alike with
# `FILE:LINE: KEY:`, exit 2 and nothing written -- it used to pass split
# and install and fail only at run time, with neither line nor key.  The
# check comes from the program table's required flag (job/programs.c).
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-programs.sh"

cat >vms.yaml <<\EOT
suite: vm-scalability
testcase: vm-scalability
runtime: 1
vm-scalability:
  mem: 16M
EOT
cat >wis.yaml <<\EOT
suite: will-it-scale
testcase: will-it-scale
will-it-scale:
  mode: process
  test: ""
EOT
# a matrix whose second value is empty: that atomic job's line
cat >matrix.yaml <<\EOT
suite: will-it-scale
testcase: will-it-scale
test:
  - getppid1
  - ""
will-it-scale:
EOT

test_expect_success 'split refuses each with its line and key, writes nothing' '
	test_must_fail --status=2 perfsift split -o out vms.yaml >stdout 2>err &&
	test_grep "^vms.yaml:4: vm-scalability.test: not given: vm-scalability needs a case of vm-scalability" err &&
	test_must_fail --status=2 perfsift split -o out wis.yaml >stdout 2>err &&
	test_grep "^wis.yaml:5: will-it-scale.test: is empty: will-it-scale needs a testcase of will-it-scale" err &&
	test_must_fail --status=2 perfsift split -o out matrix.yaml >stdout 2>err &&
	test_grep "^matrix.yaml:5: test: is empty" err &&
	! test -s stdout &&
	! test -e out
'

test_expect_success 'install refuses them the same way' '
	test_must_fail --status=2 perfsift install vms.yaml >stdout 2>err &&
	test_grep "^perfsift install: vms.yaml:4: vm-scalability.test: not given" err &&
	test_must_fail --status=2 perfsift install wis.yaml >stdout 2>err &&
	test_grep "^perfsift install: wis.yaml:5: will-it-scale.test: is empty" err
'

test_expect_success 'run refuses them before anything is written' '
	test_must_fail --status=2 perfsift run vms.yaml >stdout 2>err &&
	test_grep "^perfsift run: vms.yaml:4: vm-scalability.test: not given" err &&
	test_must_fail --status=2 perfsift run matrix.yaml >stdout 2>err &&
	test_grep "^perfsift run: matrix.yaml:5: test: is empty" err &&
	! test -e "$PERFSIFT_RESULT_ROOT/vm-scalability" &&
	! test -e "$PERFSIFT_RESULT_ROOT/will-it-scale"
'

test_expect_success 'a --set that gives the test still runs the job' '
	perfsift run vms.yaml --set vm-scalability.test=anon-w-seq >stdout 2>err &&
	run_dirs vm-scalability >dirs &&
	test "$(wc -l <dirs)" = 1 &&
	grep -q "anon-w-seq" dirs
'

test_expect_success 'every shipped job still splits' '
	for f in "$SRCDIR"/jobs/*.yaml; do
		perfsift split -o shipped "$f" >/dev/null || return 1
	done
'

test_done
