#!/bin/sh
# shellcheck disable=SC1091,SC2016,SC2034
# t0101: SIGINT / SIGTERM during a run -- finished runs intact and indexed,
# the cut run kept as incomplete and out of matrix.json, no partial file
# left, a non-zero exit, numbering carried on; kernel knobs (on a fake
# sysroot) restored after SIGINT, and after SIGKILL of perfsift by the
# next command.
. "$(dirname "$0")/lib.sh"

# hold.sh DIR: the benchmark.  It counts its runs in DIR/runs; a run N
# with a file DIR/hold-N (or DIR/hold-all) writes its pid to DIR/pid and
# N to DIR/held, then waits for its signal (60 s at most): the tests
# signal a benchmark that is running, however slow the machine.
cat >hold.sh <<'SH'
d=$1
n=$(($(cat "$d/runs" 2>/dev/null || echo 0) + 1))
echo $n >"$d/runs"
if [ -e "$d/hold-$n" ] || [ -e "$d/hold-all" ]; then
	echo $$ >"$d/pid"
	echo $n >"$d/held"
	exec sleep 60
fi
SH

group_dir() {
	find "$PERFSIFT_RESULT_ROOT/$1" -name matrix.json | sed 's,/matrix.json$,,'
}

nr_values() {
	grep "\"$2\": \[" "$(group_dir "$1")/matrix.json" |
	sed 's/.*\[//; s/\].*//' | tr ',' '\n' | grep -c .
}

test_expect_success 'SIGINT during run 2 of 3' '
	mkdir slp && touch slp/hold-2 &&
	printf "testcase: slp\nmytest:\n  cmdline: sh $PWD/hold.sh $PWD/slp\n" >slp.yaml &&
	{ "$PERFSIFT" run slp.yaml -n 3 >out 2>err & } &&
	pid=$! &&
	wait_for "^2$" slp/held &&
	kill -INT $pid &&
	{ wait $pid; test $? = 3; } &&
	test_grep "interrupted by SIGINT" err &&
	d=$(group_dir slp) &&
	test -f "$d/0/stats.json" && ! test -e "$d/0/last_state" &&
	test_grep "is_incomplete_run: 1" "$d/1/last_state" &&
	test_grep "interrupted: 2" "$d/1/last_state" &&
	! test -e "$d/2" &&
	test "$(nr_values slp mytest.time.elapsed_time)" = 1 &&
	! ls -A "$d" | grep -i tmp &&
	perfsift results --runs testcase=slp >res &&
	test_grep "1 run, 1 incomplete" res &&
	test_grep "run 0  complete" res &&
	test_grep "run 1  incomplete" res
'

test_expect_success 'a second run carries on numbering after the cut run' '
	perfsift run slp.yaml >out &&
	d=$(group_dir slp) &&
	test -f "$d/2/stats.json" &&
	test "$(nr_values slp mytest.time.elapsed_time)" = 2
'

test_expect_success 'SIGTERM ends the run the same way' '
	mkdir term && touch term/hold-1 &&
	printf "testcase: term\nmytest:\n  cmdline: sh $PWD/hold.sh $PWD/term\n" >term.yaml &&
	{ "$PERFSIFT" run term.yaml -n 2 >out 2>err & } &&
	pid=$! &&
	wait_for "^1$" term/held &&
	kill -TERM $pid &&
	{ wait $pid; test $? = 3; } &&
	d=$(find "$PERFSIFT_RESULT_ROOT/term" -name 0 -type d) &&
	test_grep "interrupted: 15" "$d/last_state" &&
	! test -e "${d%/0}/1"
'

mkdir -p fake/proc/sys/vm
echo 0 >fake/proc/sys/vm/overcommit_memory
mkdir knobd && touch knobd/hold-all
cat >knob.yaml <<EOT
testcase: knob
sysctl:
  sc_overcommit_memory: 1
mytest:
  cmdline: sh $PWD/hold.sh $PWD/knobd
EOT

test_expect_success 'knobs are restored after SIGINT' '
	{ PERFSIFT_SYSROOT=$PWD/fake "$PERFSIFT" run knob.yaml >out 2>err & } &&
	pid=$! &&
	wait_for . knobd/held && rm knobd/held &&
	test "$(cat fake/proc/sys/vm/overcommit_memory)" = 1 &&
	test -e "$PERFSIFT_KNOB_DIR/journal" &&
	kill -INT $pid &&
	{ wait $pid; test $? = 3; } &&
	test "$(cat fake/proc/sys/vm/overcommit_memory)" = 0 &&
	! test -e "$PERFSIFT_KNOB_DIR/journal" &&
	test_grep "sysctl: vm/overcommit_memory 0 -> 1" out
'

test_expect_success 'knobs are restored after a normal run' '
	printf "testcase: knob2\nsysctl:\n  sc_overcommit_memory: 2\nmytest:\n  cmdline: \"true\"\n" >knob2.yaml &&
	PERFSIFT_SYSROOT=$PWD/fake perfsift run knob2.yaml -n 2 >out 2>err &&
	test "$(grep -c "sysctl: vm/overcommit_memory 0 -> 2" out)" = 1 &&
	test_grep "sysctl: vm/overcommit_memory 0 -> 2" "$(find "$PERFSIFT_RESULT_ROOT/knob2" -path "*/1/setup.log")" &&
	test "$(cat fake/proc/sys/vm/overcommit_memory)" = 0 &&
	! test -e "$PERFSIFT_KNOB_DIR/journal"
'

test_expect_success 'after SIGKILL of perfsift the next command restores the knobs' '
	{ PERFSIFT_SYSROOT=$PWD/fake "$PERFSIFT" run knob.yaml >out 2>err & } &&
	pid=$! &&
	wait_for . knobd/held && rm knobd/held &&
	test "$(cat fake/proc/sys/vm/overcommit_memory)" = 1 &&
	kill -KILL $pid &&
	{ wait $pid; test $? = 137; } &&
	kill "$(cat knobd/pid)" &&
	test "$(cat fake/proc/sys/vm/overcommit_memory)" = 1 &&
	perfsift split knob.yaml -o split-out 2>err &&
	test "$(cat fake/proc/sys/vm/overcommit_memory)" = 0 &&
	test_grep "restored .*overcommit_memory. to .0." err &&
	! test -e "$PERFSIFT_KNOB_DIR/journal"
'

test_expect_success 'perfsift restore says what it restored' '
	{ PERFSIFT_SYSROOT=$PWD/fake "$PERFSIFT" run knob.yaml >out 2>err & } &&
	pid=$! &&
	wait_for . knobd/held && rm knobd/held &&
	test "$(cat fake/proc/sys/vm/overcommit_memory)" = 1 &&
	kill -KILL $pid &&
	{ wait $pid; test $? = 137; } &&
	kill "$(cat knobd/pid)" &&
	perfsift restore >out 2>err &&
	test "$(cat fake/proc/sys/vm/overcommit_memory)" = 0 &&
	test_grep "restored 1 knob" out &&
	perfsift restore >out &&
	test_grep "nothing to restore" out
'

test_done
