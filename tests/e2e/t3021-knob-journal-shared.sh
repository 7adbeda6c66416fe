#!/bin/sh
# t3021: the knob journal is the machine's, not the result root's: two
# perfsift processes with different result roots changing the same knob
# at once (on a fake /proc tree) leave it at its original value whichever
# finishes first, also when one of them is SIGKILLed; a run asking for
# another value of a knob a running perfsift holds is refused; each run
# records the knobs it ran under.
. "$(dirname "$0")/lib.sh"

# users N: until the journal has N lines (users of the knob)
users() {
	i=0
	# cat, not wc <FILE: a journal not there yet counts as 0 lines
	# shellcheck disable=SC2002
	while [ "$(cat "$PERFSIFT_KNOB_DIR/journal" 2>/dev/null | wc -l)" != "$1" ]; do
		i=$((i + 1))
		if [ $i -gt 200 ]; then
			echo "timed out waiting for $1 journal lines" >&2
			cat "$PERFSIFT_KNOB_DIR/journal" >&2
			return 1
		fi
		sleep 0.1
	done
}

mkdir -p fake/proc/sys/vm
echo 0 >fake/proc/sys/vm/overcommit_memory
knob() {
	cat fake/proc/sys/vm/overcommit_memory
}

# job NAME VALUE: sets overcommit_memory, then waits for the file go-NAME
job() {
	cat >"$1.yaml" <<EOT
testcase: $1
sysctl:
  sc_overcommit_memory: $2
mytest:
  cmdline: "sh -c 'for i in \$(seq 600); do test -e $PWD/go-$1 && exit 0; sleep 0.1; done'"
EOT
}
job a 1
job b 1
job c 2

# start NAME: perfsift run NAME.yaml in the background, result root root-NAME
start() {
	rm -f "go-$1"
	{ PERFSIFT_SYSROOT=$PWD/fake "$PERFSIFT" --result-root "$PWD/root-$1" \
		run "$1.yaml" >"out-$1" 2>"err-$1" & } &&
	eval "pid_$1=\$!"
}

test_expect_success 'A then B start, A ends first: the knob stays until B ends' '
	start a && users 1 && test "$(knob)" = 1 &&
	start b && users 2 &&
	touch go-a && wait $pid_a &&
	test "$(knob)" = 1 && users 1 &&
	touch go-b && wait $pid_b &&
	test "$(knob)" = 0 &&
	! test -e "$PERFSIFT_KNOB_DIR/journal"
'

test_expect_success 'B ends first: the knob stays until A ends' '
	start a && users 1 &&
	start b && users 2 &&
	touch go-b && wait $pid_b &&
	test "$(knob)" = 1 &&
	touch go-a && wait $pid_a &&
	test "$(knob)" = 0 &&
	! test -e "$PERFSIFT_KNOB_DIR/journal"
'

test_expect_success 'each run records the knobs it ran under' '
	for r in root-a root-b; do
		k=$(find "$r" -name knobs | head -n 1) &&
		test_grep "^/proc/sys/vm/overcommit_memory 0 -> 1$" "$k" || return 1
	done
'

test_expect_success 'A is SIGKILLed while B runs: B, the last user, restores' '
	start a && users 1 &&
	start b && users 2 &&
	kill -KILL $pid_a && { wait $pid_a; test $? = 137; } &&
	perfsift restore >out 2>err &&
	test_grep "nothing to restore" out &&
	test "$(knob)" = 1 &&
	touch go-b && wait $pid_b &&
	test "$(knob)" = 0 &&
	! test -e "$PERFSIFT_KNOB_DIR/journal"
'

test_expect_success 'both SIGKILLed: the next command restores the original' '
	start a && users 1 &&
	start b && users 2 &&
	kill -KILL $pid_a $pid_b && { wait $pid_a; wait $pid_b; true; } &&
	test "$(knob)" = 1 &&
	perfsift restore >out 2>err &&
	test_grep "restored 1 knob" out &&
	test "$(knob)" = 0
'

test_expect_success 'another value while A holds the knob: refused, A unharmed' '
	start a && users 1 &&
	{ PERFSIFT_SYSROOT=$PWD/fake "$PERFSIFT" --result-root "$PWD/root-c" \
		run c.yaml >out 2>err; test $? != 0; } &&
	cat out err >all &&
	test_grep "held at .1. by another perfsift" all &&
	test "$(knob)" = 1 &&
	touch go-a && wait $pid_a &&
	test "$(knob)" = 0 &&
	! test -e "$PERFSIFT_KNOB_DIR/journal"
'

# a failed test must not leave a run waiting for its go file
touch go-a go-b
wait
test_done
