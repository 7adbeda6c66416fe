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
		"kpi: mytest.v
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

test_done
