#!/bin/sh
# shellcheck disable=SC1091,SC2016,SC2034
# t1011: typos are named.  An unknown top-level key stays allowed (LKP
# exports it as an environment variable), but one a typo away from a
# known key, program or program option gets ONE warning
# `FILE:LINE: KEY: unknown key; did you mean 'X'?` from split, install
# and run; the same for --set; a mistyped command or `help` topic is exit
# 2 with a suggestion; an unknown vm-scalability test is refused by split
# and install as by run, before anything is written.
. "$(dirname "$0")/lib.sh"

W="warning: typo.yaml:2: runtme: unknown key; did you mean 'runtime'?"

test_expect_success 'split: one warning per typo, the key kept' '
	cat >typo.yaml <<-\EOT &&
	testcase: typo
	runtme: 300
	thp_enable: always
	mode: read
	iterations: 3
	mytest:
	  cmdline: "true"
	EOT
	perfsift split -o atoms typo.yaml >stdout 2>err &&
	test "$(grep -c "$W" err)" = 1 &&
	test_grep "warning: typo.yaml:3: thp_enable: unknown key; did you mean .transparent_hugepage.thp_enabled.?" err &&
	test "$(wc -l <err)" = 2 &&
	test_grep "^runtme: 300$" atoms/typo-true.yaml
'

# The suggestion list grows past its first allocation; a program name in
# the grown part had no "PROGRAM." prefix slot set (garbage: a crash under
# ASan, found by fuzz_job once will-it-scale joined the table).
test_expect_success 'a typo of a program late in the table: its name, no prefix' '
	for kw in vmstatt:vmstat will-it-scal:will-it-scale split-jobb:split-job turbostatt:turbostat; do
		k=${kw%:*} && w=${kw#*:} &&
		printf "suite: x\n%s: 1\nmytest:\n  cmdline: \"true\"\n" "$k" >late.yaml &&
		rm -rf late &&
		perfsift split -o late late.yaml >stdout 2>err &&
		test "$(wc -l <err)" = 1 &&
		test_grep "late.yaml:2: $k: unknown key; did you mean .$w.?$" err || return 1
	done
'

test_expect_success 'install and run: the same one warning' '
	perfsift install typo.yaml >stdout 2>err;
	test "$(grep -c "$W" err)" = 1 &&
	perfsift run typo.yaml >stdout 2>err &&
	test "$(grep -c "$W" err)" = 1 &&
	test "$(grep -c "unknown key" err)" = 2
'

test_expect_success 'stats and results do not warn about a stored job.yaml' '
	perfsift stats --all >out 2>err &&
	test_must_fail test_grep "unknown key" err &&
	perfsift results >out 2>err &&
	test_must_fail test_grep "unknown key" err
'

test_expect_success '--set of a mistyped key: one warning, still set' '
	cat >plain.yaml <<-\EOT &&
	testcase: plain
	mytest:
	  cmdline: "true"
	EOT
	perfsift run plain.yaml --set runtme=3 --set foo=1 >out 2>err &&
	echo "perfsift run: warning: --set '\''runtme=3'\'': runtme: unknown key; did you mean '\''runtime'\''?" >expect &&
	test_cmp expect err &&
	test_grep "^runtme: 3$" "$(find "$PERFSIFT_RESULT_ROOT/plain" -name job.yaml)"
'

test_expect_success 'a mistyped command: exit 2 and the closest command' '
	test_must_fail --status=2 perfsift stast 2>err &&
	test_grep "'\''stast'\'' is not a command; did you mean '\''stats'\''?" err &&
	test_must_fail --status=2 perfsift hlep 2>err &&
	test_grep "did you mean '\''help'\''?" err &&
	test_must_fail --status=2 perfsift zzzzzz 2>err &&
	test_must_fail test_grep "did you mean" err
'

test_expect_success 'help on what is not a command: exit 2' '
	test_must_fail --status=2 perfsift help nosuch >out 2>err &&
	test_grep "'\''nosuch'\'' is not a command" err &&
	test_cmp /dev/null out &&
	test_must_fail --status=2 perfsift help compate 2>err &&
	test_grep "did you mean '\''compare'\''?" err &&
	perfsift help compare >out && test_grep "usage: perfsift compare" out
'

test_expect_success 'an unknown vm-scalability test: split, install and run refuse it' '
	cat >vm.yaml <<-\EOT &&
	testcase: vm-scalability
	vm-scalability:
	  test: anon-r-sqe
	EOT
	msg="vm.yaml:3: vm-scalability.test: '\''anon-r-sqe'\'' is not a case of vm-scalability" &&
	mkdir split && (cd split && test_must_fail --status=2 perfsift split ../vm.yaml 2>../err) &&
	test_grep "$msg" err && test -z "$(ls -A split)" &&
	test_must_fail --status=2 perfsift install vm.yaml >out 2>err &&
	test_grep "$msg" err &&
	test_must_fail --status=2 perfsift run vm.yaml >out 2>err &&
	test_grep "$msg" err &&
	test_must_fail test -e "$PERFSIFT_RESULT_ROOT/vm-scalability"
'

test_done
