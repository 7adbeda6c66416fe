#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t9353: a plug-in's parse script is bounded (issue 25, F7).  One that
# never ends is killed with what it started after PERFSIFT_PARSE_TIMEOUT
# and the run is kept, marked incomplete; the script is started once,
# never again for the cut run's lenient parse.  A stop request (SIGTERM)
# during the parse stops the script at once; after a run cut by SIGTERM
# no parse script is started, and `perfsift stats` parses the kept raw
# file later.  The waits here are on files the scripts write (the work
# driven), never on wall-clock luck; timeout(1) (which passes SIGTERM
# on) is only the guard that ends a perfsift that would hang.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-programs.sh"

mkdir -p progs/slowp &&
cat >progs/slowp/run <<'EOS'
#!/bin/sh
echo "score 7"
# the benchmark: waits for its release when the test says so
if [ -e "$T/hold-run" ]; then
	: >"$T/running"
	while [ ! -e "$T/release" ]; do sleep 0.05; done
fi
EOS
cat >progs/slowp/parse <<'EOS'
#!/bin/sh
echo "$$" >>"$T/parse-starts.$TAG"
if [ -e "$T/hang" ]; then
	# a child of its own that never ends, and the script waits for it
	sleep 100000 &
	echo "$!" >"$T/parse-child.$TAG"
	wait
fi
awk '/^score / { print "score: " $2 }'
EOS
chmod +x progs/slowp/run progs/slowp/parse
PERFSIFT_PROGRAMS=$TEST_TMP/progs
T=$TEST_TMP
export PERFSIFT_PROGRAMS T
printf 'suite: slowp\ntestcase: slowp\nslowp:\n' >slowp.yaml

# await FILE: wait (bounded, 2 minutes) for a script to write FILE
await() {
	i=0
	while [ ! -e "$1" ] && [ $i -lt 2400 ]; do
		sleep 0.05; i=$((i + 1))
	done
	test -e "$1"
}

test_expect_success 'a parse that never ends: killed at the timeout, with its child; started once' '
	: >hang &&
	TAG=c1 PERFSIFT_PARSE_TIMEOUT=1 test_must_fail timeout -s KILL 120 "$PERFSIFT" run slowp.yaml -n 1 --commit c1 >out 2>err &&
	cat err &&
	test_grep "its parse script .*/slowp/parse did not finish in 1 s and was killed" err &&
	test_grep "the run is kept, marked incomplete" err &&
	test_grep "failed on this file already; not started again" err &&
	test "$(wc -l <parse-starts.c1)" -eq 1 &&
	gone parse-child.c1 &&
	d=$(run_dirs slowp | head -n 1) &&
	test_grep "is_incomplete_run: 1" "$d/last_state" &&
	test -s "$d/slowp"
'

test_expect_success 'SIGTERM during the parse: the script stopped at once, not started again' '
	: >hang &&
	TAG=c2 timeout -s KILL 120 "$PERFSIFT" run slowp.yaml -n 1 --commit c2 >out 2>err &
	pid=$! &&
	await parse-child.c2 &&
	kill -TERM $pid &&
	{ wait $pid; echo $? >status; } &&
	cat err &&
	test "$(cat status)" -ne 0 &&
	test_grep "its parse script .*/slowp/parse was stopped: perfsift is stopping (SIGTERM)" err &&
	test "$(wc -l <parse-starts.c2)" -eq 1 &&
	gone parse-child.c2
'

test_expect_success 'a run cut by SIGTERM: no parse script started; stats parses the kept file' '
	rm -f hang && : >hold-run &&
	TAG=c3 timeout -s KILL 120 "$PERFSIFT" run slowp.yaml -n 1 --commit c3 >out 2>err &
	pid=$! &&
	await running &&
	kill -TERM $pid &&
	{ wait $pid; echo $? >status; } &&
	cat err &&
	test_grep "interrupted by SIGTERM" err &&
	test_grep "not started: perfsift is stopping (SIGTERM)" err &&
	test ! -e parse-starts.c3 &&
	d=$(run_dirs slowp | grep "/c3/") &&
	test -n "$d" &&
	test -s "$d/slowp" &&
	rm -f hold-run &&
	TAG=c3 perfsift stats "$d" >sout 2>serr ||
		{ cat sout serr; return 1; }
	test "$(wc -l <parse-starts.c3)" -eq 1 &&
	test "$(stat_value "$d" slowp.score)" = 7
'

test_done
