#!/bin/sh
# t2150: `perfsift calibrate JOB` runs an A/A of a job (2 x N runs, halves
# interleaved) into ROOT/.calibration and stores each stat's noise floor
# in the root's index; compare then leaves unflagged a change within
# 2 x the floor (--no-calibration and --lkp-exact do not), and says once
# in its header which calibration it used.  The noise is planted: the
# benchmark prints, for run N of the A/A, the Nth value of a fixed list
# (CAL picks the list), and for the commits' runs the value in $JITTER /
# $SCORE -- nothing depends on the machine's speed.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-calibrate.sh"

# the floor of mytest.jitter that `calibrate --show` prints for commit c1
jitter_floor() {
	perfsift calibrate --show c1 | sed -n "s/^ *\([0-9.]*\)%  mytest.jitter\$/\1/p"
}

test_expect_success 'bad input: exit 2, nothing written' '
	test_must_fail --status=2 perfsift calibrate nosuch.yaml -- ./plant.sh 2>err &&
	test_grep "nosuch.yaml" err &&
	test_must_fail --status=2 perfsift calibrate job.yaml -n 2 -- ./plant.sh 2>err &&
	test_grep "3..49 runs a half" err &&
	test_must_fail --status=2 perfsift calibrate job.yaml -n x -- ./plant.sh 2>err &&
	test_must_fail --status=2 perfsift calibrate job.yaml -n 50 -- ./plant.sh 2>err &&
	test_must_fail --status=2 perfsift calibrate job.yaml --commit a/b -- ./plant.sh 2>err &&
	test_must_fail --status=2 perfsift calibrate 2>err &&
	printf "testcase: bad\nruntime: {a: 1}\nmytest:\n  mytest: x\n" >bad.yaml &&
	test_must_fail --status=2 perfsift calibrate bad.yaml -- ./plant.sh 2>err &&
	test_grep "bad.yaml:2: runtime: " err &&
	! test -e "$PERFSIFT_RESULT_ROOT"
'

test_expect_success 'calibrate: 2 x 3 interleaved runs, a floor stored' '
	perfsift calibrate job.yaml -n 3 --commit k1 -- ./plant.sh >out &&
	test_grep "^calibrate: an A/A of 1 job, 2 x 3 runs each" out &&
	test "$(grep -c ": run [1-6] of 6 -> .*/.calibration/tiny/" out)" -eq 6 &&
	test_grep "^noise floor of [0-9]* stats from 2 x 3 runs stored for tiny/" out &&
	test "$(find "$PERFSIFT_RESULT_ROOT/.calibration" -name stats.json | wc -l)" -eq 6 &&
	test_grep "^calibration: A/A" "$(find "$PERFSIFT_RESULT_ROOT/.calibration" -path "*/0/job.yaml")"
'

test_expect_success 'the runs of commits to compare, and the calibration kept apart' '
	JITTER=100 SCORE=100 perfsift run job.yaml -n 3 --commit c1 -- ./plant.sh >/dev/null &&
	JITTER=103 SCORE=100 perfsift run job.yaml -n 3 --commit c2 -- ./plant.sh >/dev/null &&
	JITTER=120 SCORE=100 perfsift run job.yaml -n 3 --commit c3 -- ./plant.sh >/dev/null &&
	JITTER=100 SCORE=97 perfsift run job.yaml -n 3 --commit c4 -- ./plant.sh >/dev/null &&
	perfsift results >res &&
	test "$(grep -c "^tiny/" res)" -eq 4 &&
	! test_grep "calibration\|k1" res
'

test_expect_success 'calibrate --show: 1.4826 x MAD of 0 2 2 2 0 2 = 2.965%' '
	perfsift calibrate --show c1 >show &&
	test_grep "^noise floor of tiny/" show &&
	test_grep "machine .*, kernel k1, calibrated 20[0-9-]* [0-9:]* UTC, 2 x 3 runs" show &&
	test "$(jitter_floor)" = 2.965 &&
	test_grep "^ *2.965%  mytest.score\$" show &&
	test_must_fail --status=2 perfsift calibrate --show nosuch 2>err &&
	test_grep "matches no result group" err
'

test_expect_success 'a 3% move within 2 x the floor is not flagged; it is without the floor' '
	perfsift compare c1 c2 >out &&
	test_grep "^noise floor: calibrated 20[0-9-]* [0-9:]* UTC, 2 x 3 runs" out &&
	test "$(grep -c "^noise floor:" out)" -eq 1 &&
	! test_grep "mytest.jitter" out &&
	perfsift compare --no-calibration c1 c2 >out &&
	! test_grep "^noise floor:" out &&
	test_grep "+3.0%  *103.00 .*mytest.jitter" out &&
	perfsift compare --lkp-exact c1 c2 >out &&
	! test_grep "^noise floor:" out &&
	test_grep "mytest.jitter" out
'

test_expect_success 'the JSON row says the floor and that it kept the row unflagged' '
	perfsift compare --all --json c1 c2 >json &&
	jq -e ".noise_floor.runs_a_half == 3 and .noise_floor.k == 2 and .noise_floor.commit == \"k1\"" json &&
	jq -e ".rows[] | select(.stat == \"mytest.jitter\") | .columns[0] |
		.floor_used and .within_floor and (.changed | not) and
		(.noise_floor_pct > 2.96 and .noise_floor_pct < 2.97)" json &&
	perfsift compare --all --json --no-calibration c1 c2 >json &&
	jq -e ".noise_floor == null" json &&
	jq -e ".rows[] | select(.stat == \"mytest.jitter\") | .columns[0] |
		(.floor_used | not) and .changed" json
'

test_expect_success 'a 20% move well beyond the floor is flagged' '
	perfsift compare c1 c3 >out &&
	test_grep "^noise floor:" out &&
	test_grep "+20.0%  *120.00 .*mytest.jitter" out
'

# The floor is the KPI's minimum effect (2 x 2.97%): an exact -3% (100
# vs 97 on every run) is inside it, so the same -- not flagged, shown
# with --kpi; without the calibration the 2% default makes it a change.
test_expect_success 'a KPI within its floor is the same, not flagged; --kpi shows it' '
	test_must_fail --status=1 perfsift compare --no-calibration c1 c4 >out &&
	test_grep "mytest.score" out &&
	perfsift compare c1 c4 >out &&
	! grep -q "mytest.score" out &&
	perfsift compare --kpi c1 c4 >out &&
	test_grep "^ *100.00 .* -3.0%  *97.00 .*mytest.score" out &&
	perfsift compare --json --kpi c1 c4 >json &&
	jq -e ".kpi_regressed == false" json &&
	jq -e ".rows[] | select(.stat == \"mytest.score\") | .columns[0] |
		.within_floor and (.changed | not) and .kpi_verdict == \"same\" and
		.kpi_min_effect > 5.9 and .kpi_min_effect < 6" json
'

test_expect_success 'SIGKILL during calibrate leaves the floor and the index as before' '
	perfsift calibrate --show c1 >before &&
	perfsift results --runs >res-before &&
	{ CAL=wide HOLD=$PWD/hold "$PERFSIFT" calibrate job.yaml -n 3 --commit k2 \
		-- ./plant.sh >out 2>err & } &&
	pid=$! &&
	wait_for "^2\$" hold.held &&
	kill -KILL $pid &&
	{ wait $pid; test $? = 137; } &&
	kill "$(cat hold.pid)" &&
	perfsift calibrate --show c1 >after &&
	test_cmp before after &&
	perfsift results --runs >res-after &&
	test_cmp res-before res-after
'

test_expect_success 'SIGINT during calibrate: exit 3, no floor changed' '
	rm -f hold.held hold.pid &&
	{ CAL=wide HOLD=$PWD/hold "$PERFSIFT" calibrate job.yaml -n 3 --commit k2 \
		-- ./plant.sh >out 2>err & } &&
	pid=$! &&
	wait_for "^2\$" hold.held &&
	kill -INT $pid &&
	{ wait $pid; test $? = 3; } &&
	test_grep "no noise floor was changed" err &&
	perfsift calibrate --show c1 >after &&
	test_cmp before after
'

test_expect_success 're-calibrating replaces the floor: then 20% is within it' '
	CAL=wide perfsift calibrate job.yaml -n 3 --commit k3 -- ./plant.sh >out &&
	perfsift calibrate --show c1 >show &&
	test_grep "kernel k3" show &&
	test "$(jitter_floor)" = 14.826 &&
	perfsift compare c1 c3 >out &&
	! test_grep "mytest.jitter" out
'

test_expect_success 'an index of schema 3 (before noise floors) is migrated' '
	mkdir old && cp job.yaml plant.sh old/ && cd old &&
	PERFSIFT_RESULT_ROOT=$PWD/r &&
	JITTER=100 perfsift run job.yaml -n 3 --commit c1 -- ./plant.sh >/dev/null &&
	JITTER=103 perfsift run job.yaml -n 3 --commit c2 -- ./plant.sh >/dev/null &&
	sqlite3 r/perfsift.db "DROP TABLE noise_floors; DROP TABLE noise_floor_stats; PRAGMA user_version=3;" &&
	test "$(sqlite3 r/perfsift.db "PRAGMA user_version")" = 3 &&
	perfsift compare c1 c2 >out &&
	test_grep "mytest.jitter" out &&
	test "$(sqlite3 r/perfsift.db "PRAGMA user_version")" = 4 &&
	test "$(sqlite3 r/perfsift.db "SELECT count(*) FROM runs")" = 6 &&
	perfsift calibrate job.yaml -n 3 -- ./plant.sh >/dev/null &&
	perfsift compare c1 c2 >out &&
	! test_grep "mytest.jitter" out &&
	test "$(sqlite3 r/perfsift.db "SELECT count(*) FROM runs")" = 6
'

test_done
