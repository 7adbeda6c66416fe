#!/bin/sh
# shellcheck disable=SC1091,SC2016,SC2034
# t0104: `perfsift run ... | head` -- a reader that goes away (or a
# terminal that hangs up) does not kill the job: every run finishes and is stored, the exit status is the
# job's, and no .tmp-<n> directory is left behind (nor by a finished run
# whose raw file is corrupt: it is kept, marked incomplete).  The benchmark waits
# until the reader is gone (it says so with a file once its end of the
# pipe is closed), so perfsift's next line surely meets a closed pipe.
. "$(dirname "$0")/lib.sh"

group_dir() {
	find "$PERFSIFT_RESULT_ROOT/$1" -name matrix.json | sed 's,/matrix.json$,,'
}

# reader: the first line, then its end of the pipe closed, then "gone"
reader() {
	head -n 1 >first
	exec <&-
	: >"$TEST_TMP/gone"
}

test_expect_success 'run -n 3 | head -n 1: every run stored, exit 0' '
	cat >wait.yaml <<-EOT &&
	testcase: waitgone
	mytest:
	  cmdline: i=0; while ! test -e $TEST_TMP/gone && test \$i -lt 1200; do sleep 0.05; i=\$((i + 1)); done
	EOT
	{ "$PERFSIFT" run wait.yaml -n 3 2>err; echo $? >status; } | reader &&
	test_grep "run 1 of 3 ->" first &&
	test "$(cat status)" = 0 &&
	d=$(group_dir waitgone) &&
	test -f "$d/0/stats.json" && test -f "$d/1/stats.json" &&
	test -f "$d/2/stats.json" &&
	! ls -A "$d" | grep tmp &&
	perfsift results --runs testcase=waitgone >res &&
	test_grep "  3 runs$" res
'

test_expect_success 'stderr closed too: the job still finishes' '
	rm -f "$TEST_TMP/gone" &&
	{ "$PERFSIFT" run wait.yaml 2>&1; echo $? >status; } | reader &&
	test "$(cat status)" = 0 &&
	d=$(group_dir waitgone) &&
	test -f "$d/3/stats.json" &&
	! ls -A "$d" | grep tmp
'

test_expect_success 'the benchmark does not inherit an ignored SIGPIPE' '
	cat >sigign.yaml <<-\EOT &&
	testcase: sigign
	mytest:
	  cmdline: test $(( 0x$(sed -n "s/^SigIgn:[[:space:]]*//p" /proc/self/status) & 0x1000 )) -eq 0
	EOT
	rm -f "$TEST_TMP/gone" &&
	{ "$PERFSIFT" run sigign.yaml 2>err; echo $? >status; } | reader &&
	test "$(cat status)" = 0 &&
	d=$(group_dir sigign) &&
	test -f "$d/0/stats.json" && ! test -e "$d/0/last_state"
'

test_expect_success 'a hangup (SIGHUP) does not stop the job either' '
	cat >hup.yaml <<-\EOT &&
	testcase: hup
	mytest:
	  cmdline: kill -HUP $PPID
	EOT
	perfsift run hup.yaml -n 2 >out 2>err &&
	d=$(group_dir hup) &&
	test -f "$d/0/stats.json" && test -f "$d/1/stats.json" &&
	! test -e "$d/0/last_state" &&
	! ls -A "$d" | grep tmp
'

test_expect_success 'a finished run with a corrupt raw file is kept, not left as .tmp' '
	cat >nul.yaml <<-\EOT &&
	testcase: nul
	mytest:
	  cmdline: printf "x\\000y"
	EOT
	test_must_fail --status=3 perfsift run nul.yaml -n 2 >out 2>err &&
	test_grep "/mytest. holds NUL bytes: a corrupt raw file (the run is kept, marked incomplete)" err &&
	d=$(find "$PERFSIFT_RESULT_ROOT/nul" -name .lock | sed "s,/.lock$,,") &&
	test_grep "is_incomplete_run: 1" "$d/0/last_state" &&
	test_grep "is_incomplete_run: 1" "$d/1/last_state" &&
	! ls -A "$d" | grep tmp &&
	perfsift results --runs testcase=nul >res &&
	test_grep "0 runs, 2 incomplete" res
'

test_done
