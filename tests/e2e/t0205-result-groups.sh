#!/bin/sh
# shellcheck disable=SC2016
# t0205: different jobs never share a result group.  LKP's path_params
# cuts every value to 31 characters, so two commands alike in their first
# 31 would land in one group directory; perfsift appends a hash of the
# full parameters when a value was cut (docs/lkp-compat.md), keeps LKP's
# name byte for byte otherwise, and leaves what does not change what runs
# (kpi:, monitor settings) out of a group's identity.
. "$(dirname "$0")/lib.sh"

R=$PERFSIFT_RESULT_ROOT
# the cut prefix both commands below share (LKP's path_params of them)
CUT=:_01234567890123456789012345678
LONG=': 0123456789012345678901234567890123456789; echo v:'

write_job() { # file command [extra lines]
	printf 'testcase: grp\nmytest:\n  cmdline: "%s"\n%s' "$2" "${3-}" >"$1"
}

test_expect_success 'two commands alike in their first 40 characters make two groups' '
	write_job a.yaml "$LONG 200" &&
	write_job b.yaml "$LONG 100" &&
	perfsift run a.yaml >out &&
	perfsift run b.yaml >out &&
	perfsift results testcase=grp >out &&
	test "$(wc -l <out)" = 2 &&
	test "$(grep -c "  1 run$" out)" = 2 &&
	ls "$R/grp" >dirs &&
	test "$(wc -l <dirs)" = 2 &&
	grep -q "^$CUT-h[0-9a-f]\{8\}$" dirs &&
	test "$(grep -c "^$CUT-h[0-9a-f]\{8\}$" dirs)" = 2
'

test_expect_success 'each group holds its own values, nothing padded' '
	for v in 200 100; do
		m=$(grep -l "\"mytest.v\": \[$v\]" "$R"/grp/*/*/*/*/*/*/matrix.json) &&
		test "$(echo "$m" | wc -l)" = 1 || return 1
	done
'

test_expect_success 'results --params and --json show the full command' '
	perfsift results --params testcase=grp >out &&
	test_grep "^    cmdline=$LONG 200$" out &&
	test_grep "^    cmdline=$LONG 100$" out &&
	perfsift results --json --params testcase=grp >out &&
	test_grep "\"cmdline\": \"$LONG 200\"" out &&
	test_grep "\"cmdline\": \"$LONG 100\"" out
'

test_expect_success 'a selector on the full command picks one group' '
	perfsift results "cmdline=$LONG 100" >out &&
	test "$(wc -l <out)" = 1 &&
	test_grep "  1 run$" out
'

test_expect_success 'the same job again joins its group' '
	perfsift run a.yaml >out &&
	perfsift results testcase=grp >out &&
	test "$(wc -l <out)" = 2 &&
	test "$(grep -c "  2 runs$" out)" = 1
'

test_expect_success 'kpi: and monitor settings do not make another group' '
	write_job c.yaml "$LONG 200" \
		"kpi: {mytest.v: higher}
vmstat:
  interval: 1
" &&
	perfsift run c.yaml >out &&
	perfsift results testcase=grp >out &&
	test "$(wc -l <out)" = 2 &&
	test "$(grep -c "  3 runs$" out)" = 1
'

test_expect_success 'a value not cut (31 characters at most) keeps LKP'\''s name' '
	write_job s.yaml "echo v: 1" &&
	perfsift run s.yaml >out &&
	test -d "$R/grp/echo_v:_1" &&
	write_job s31.yaml ": 01234567890123456789012345678" &&
	perfsift run s31.yaml >out &&
	test -d "$R/grp/$CUT"
'

test_expect_success 'split names the atomic jobs of two long commands apart' '
	cat >two.yaml <<-\EOT &&
	testcase: grp
	mytest:
	  cmdline:
	  - ": 0123456789012345678901234567890123456789; echo v: 1"
	  - ": 0123456789012345678901234567890123456789; echo v: 2"
	EOT
	mkdir sp &&
	perfsift split -o sp two.yaml >out &&
	test "$(ls sp | wc -l)" = 2 &&
	test "$(ls sp | grep -c "^two-$CUT-h[0-9a-f]\{8\}\.yaml$")" = 2
'

test_expect_success 'commands alike in LKP s character class make two groups' '
	write_job q1.yaml "echo v: 1 '\''x'\''" &&
	write_job q2.yaml "echo v: 1 \\\"x\\\"" &&
	grep -F "echo v: 1 '\''x'\''" q1.yaml &&
	grep -F "echo v: 1 \\\"x\\\"" q2.yaml &&
	sed -i "s/^testcase: grp/testcase: cls/" q1.yaml q2.yaml &&
	perfsift run q1.yaml >out &&
	perfsift run q2.yaml >out &&
	perfsift run q2.yaml >out &&
	perfsift run q1.yaml >out &&
	ls "$R/cls" >dirs &&
	printf "echo_v:_1__x_\n" >expect &&
	grep -v -- "-h" dirs >plain &&
	test_cmp expect plain &&
	test "$(grep -c "^echo_v:_1__x_-h[0-9a-f]\{8\}$" dirs)" = 1 &&
	perfsift results testcase=cls >out 2>err &&
	test "$(grep -c "  2 runs$" out)" = 2 &&
	test_must_fail grep -q "different jobs" err
'

# A group as LKP or an older perfsift wrote it: the runs of two jobs
# whose commands differ after 31 characters, in one directory.
test_expect_success 'setup: a group mixing runs of two jobs' '
	write_job m1.yaml ": 0123456789012345678901234567890123456789; echo w: 1" &&
	write_job m2.yaml ": 0123456789012345678901234567890123456789; echo w: 2" &&
	write_job ok.yaml "echo w: 3" &&
	sed -i "s/^testcase: grp/testcase: mix/" m1.yaml m2.yaml ok.yaml &&
	perfsift run m1.yaml -n 2 >out &&
	perfsift run m2.yaml >out &&
	perfsift run ok.yaml >out &&
	g1=$(dirname "$(dirname "$(grep -l "echo w: 1" "$R"/mix/$CUT-*/*/*/*/*/*/0/job.yaml)")") &&
	g2=$(dirname "$(dirname "$(grep -l "echo w: 2" "$R"/mix/$CUT-*/*/*/*/*/*/0/job.yaml)")") &&
	test -d "$g1/1" && test "$g1" != "$g2" &&
	sub=${g1#"$R"/mix/*/} &&
	g=$R/mix/$CUT/$sub &&
	mkdir -p "$g" &&
	mv "$g1/0" "$g1/1" "$g" && mv "$g2/0" "$g/2" &&
	rm -r "$R/mix/$CUT"-h* &&
	for n in 0 1 2; do
		# as LKP writes them: programs perfsift does not know
		printf "hackbench:\n  mode: process\npp:\n  x: 1\n" >>"$g/$n/job.yaml" || return 1
	done &&
	perfsift stats --all -q >out &&
	echo "$g" >mixed.dir &&
	perfsift results testcase=mix >out 2>err &&
	test "$(wc -l <out)" = 2
'

test_expect_success 'results warns about the mixed group, naming the key' '
	g=$(cat mixed.dir) &&
	perfsift results testcase=mix >out 2>err &&
	test "$(grep -c "runs of different jobs" err)" = 1 &&
	test_grep "warning: mix/$CUT/.*: runs of different jobs in one group: runs 0 and 2 differ in .cmdline. (.*echo w: 1. / .*echo w: 2.)" err &&
	test_grep "^mix/.*  3 runs$" out &&
	perfsift results --json testcase=mix >out 2>err &&
	test_grep "\"mixed\": \"runs 0 and 2 differ in .cmdline." out &&
	test "$(grep -c "\"mixed\"" out)" = 1
'

test_expect_success 'compare and report refuse the mixed group' '
	g=$(cat mixed.dir) &&
	other=$(dirname "$(ls -d "$R"/mix/echo_w:_3/*/*/*/*/*/0)") &&
	test_must_fail --status=2 perfsift compare "$g" "$other" >out 2>err &&
	test_grep "holds runs of different jobs: runs 0 and 2 differ in .cmdline." err &&
	test_must_fail test -s out &&
	test_must_fail --status=2 perfsift compare "$other" "$g/1" >out 2>err &&
	test_grep "holds runs of different jobs" err &&
	test_must_fail --status=2 perfsift report "$g" "$other" -o rep >out 2>err &&
	test_grep "holds runs of different jobs" err &&
	perfsift compare "$other" "$other" >out 2>err
'

test_expect_success 'a new run of a job of the mixed group goes to a group of its own' '
	perfsift run m1.yaml >out &&
	perfsift results testcase=mix >out 2>err &&
	test "$(wc -l <out)" = 3 &&
	test_grep "^mix/$CUT-h[0-9a-f]\{8\}/.*  1 run$" out &&
	test "$(grep -c "runs of different jobs" err)" = 1
'

test_expect_success 'a group of one job (every run alike) draws no warning' '
	perfsift results testcase=grp >out 2>err &&
	test_must_fail grep -q "different jobs" err
'

test_done
