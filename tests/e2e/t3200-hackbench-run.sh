#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3200: perfsift run of hackbench (rt-tests) -- LKP's own
# hackbench-local-test.yaml (scaled down to fixed work: loops, iterations),
# LKP's command line repeated per iteration, LKP's stats beside the
# default monitors, results under ROOT/hackbench/.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-programs.sh"

if ! command -v hackbench >/dev/null; then
	test_skip 'hackbench runs' 'hackbench (rt-tests) is not installed: scripts/install-deps'
	test_done
fi

test_expect_success "LKP's hackbench-local-test.yaml runs, process and threads" '
	perfsift run "$TESTDATA/lkp/jobs/hackbench-local-test.yaml" -n 1 \
		--set hackbench.loops=50 --set hackbench.iterations=2 >out 2>err &&
	run_dirs hackbench >dirs &&
	test $(wc -l <dirs) -eq 2 &&
	grep -q "process" dirs && grep -q "threads" dirs
'

test_expect_success 'each run: LKP stats, the default monitors, and two iterations' '
	while read -r d; do
		for s in hackbench.throughput hackbench.throughput_best \
			hackbench.throughput_avg hackbench.throughput_worst; do
			stat_positive "$d" "$s" || return 1
		done &&
		has_default_monitors "$d" &&
		test $(grep -c "^Iterations: " "$d/hackbench") -eq 2 &&
		test $(grep -c "^Time: " "$d/hackbench") -eq 2 || return 1
	done <dirs
'

test_expect_success "the command line is LKP's: 50% of the CPUs as groups, -f 20, --pipe" '
	d=$(grep process dirs) &&
	groups=$(( $(nproc) / 2 )) &&
	if [ "$groups" -lt 1 ]; then groups=1; fi &&
	grep -q "^Instance: 1$" "$d/hackbench" &&
	grep -Eq "^[0-9-]+ [0-9:]+ hackbench -g $groups -f 20 --process --pipe -l 50 -s 100$" "$d/hackbench" &&
	grep -Eq -- "--threads --pipe -l 50" "$(grep threads dirs)/hackbench"
'

test_expect_success 'the best throughput is the best pass, as LKP computes it' '
	d=$(head -n 1 dirs) &&
	perfsift parse hackbench "$d/hackbench" >parsed &&
	best=$(sed -n "s/^throughput: //p" parsed) &&
	test "$(stat_value "$d" hackbench.throughput)" = "$best"
'

test_expect_success 'without iterations, passes go on until runtime (at least one)' '
	perfsift run "$SRCDIR/jobs/hackbench-quick.yaml" -n 1 --set runtime=0 \
		--set hackbench.mode=process --set hackbench.loops=20 \
		--set hackbench.iterations= >out 2>err &&
	d=$(run_dirs hackbench | grep -- "-20-" | head -n 1) &&
	test -n "$d" &&
	test $(grep -c "^Time: " "$d/hackbench") -ge 1 &&
	test_must_fail grep -q "^Iterations:" "$d/hackbench"
'

test_expect_success 'a missing hackbench says which package to install, and runs nothing' '
	test_must_fail --status=2 env PATH=/nonexistent "$PERFSIFT" run \
		"$SRCDIR/jobs/hackbench-quick.yaml" -n 1 >out 2>err &&
	test_grep "rt-tests" err &&
	test_grep "perfsift install" err &&
	test_must_fail grep -q "run 1 of" out
'

test_expect_success 'perfsift install names the package of an external benchmark' '
	perfsift install "$SRCDIR/jobs/hackbench-quick.yaml" >out &&
	test_grep "ok       hackbench: package rt-tests" out
'

test_expect_success 'a parse-only program (unixbench) is refused by run, with the reason' '
	cat >ub.yaml <<-\EOT &&
	suite: unixbench
	testcase: unixbench
	unixbench:
	  test: fstime
	EOT
	test_must_fail --status=2 perfsift run ub.yaml -n 1 >out 2>err &&
	test_grep "not in Debian" err &&
	test_grep "perfsift parse unixbench" err
'

test_done
