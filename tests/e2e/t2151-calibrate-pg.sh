#!/bin/sh
# t2151: noise floors in the PostgreSQL store: `calibrate --store URL`
# stores the floor there (the A/A's own runs stay in ROOT/.calibration's
# SQLite index), compare through the same store uses it, a re-calibration
# replaces it, and a store of schema 2 (before noise floors) is migrated.
# The noise is planted as in t2150: run N of the A/A prints the Nth value
# of a fixed list.  Skipped without PostgreSQL's server programs or libpq.
. "$(dirname "$0")/lib.sh"

: "${PERFSIFT_BUILD:=$SRCDIR/build}"
. "$SRCDIR/tests/e2e/lib-pg.sh"

if ! pg_available; then
	test_skip 'noise floors in PostgreSQL' 'no PostgreSQL server programs or no libpq'
	test_done
fi

# the KPI is a constant: the exit status never depends on the timing stats
SCORE=1
export SCORE
. "$SRCDIR/tests/e2e/lib-calibrate.sh"

q() { psql -qtA -h "$PGDIR" -U postgres -d ps -c "$1"; }

test_expect_success 'a throwaway PostgreSQL server starts' 'pg_start'

test_expect_success 'calibrate stores the floor in PostgreSQL' '
	perfsift --store "$URL" calibrate job.yaml -n 3 --commit k1 -- ./plant.sh >out &&
	test_grep "^noise floor of [0-9]* stats from 2 x 3 runs stored for tiny/" out &&
	test "$(q "SELECT value FROM perfsift_meta WHERE key = '\''schema'\''")" = 3 &&
	test "$(q "SELECT commit_id || '\'' '\'' || runs FROM noise_floors")" = "k1 3" &&
	test "$(q "SELECT round(pct::numeric, 3) FROM noise_floor_stats WHERE name = '\''mytest.jitter'\''")" = 2.965 &&
	! test -e "$PERFSIFT_RESULT_ROOT/perfsift.db" &&
	test -e "$PERFSIFT_RESULT_ROOT/.calibration/perfsift.db" &&
	test "$(q "SELECT count(*) FROM runs")" = 0
'

test_expect_success 'compare through the store uses it: 3% unflagged, 20% flagged' '
	JITTER=100 perfsift --store "$URL" run job.yaml -n 3 --commit c1 -- ./plant.sh >/dev/null &&
	JITTER=103 perfsift --store "$URL" run job.yaml -n 3 --commit c2 -- ./plant.sh >/dev/null &&
	JITTER=120 perfsift --store "$URL" run job.yaml -n 3 --commit c3 -- ./plant.sh >/dev/null &&
	perfsift --store "$URL" compare c1 c2 >out &&
	test_grep "^noise floor: calibrated .* 2 x 3 runs" out &&
	! test_grep "mytest.jitter" out &&
	perfsift --store "$URL" compare --no-calibration c1 c2 >out &&
	test_grep "+3.0% .*mytest.jitter" out &&
	perfsift --store "$URL" compare c1 c3 >out &&
	test_grep "+20.0% .*mytest.jitter" out &&
	perfsift --store "$URL" calibrate --show c1 >show &&
	test_grep "^ *2.965%  mytest.jitter\$" show
'

test_expect_success 're-calibrating replaces the floor whole' '
	CAL=wide perfsift --store "$URL" calibrate job.yaml -n 3 --commit k2 -- ./plant.sh >out &&
	test "$(q "SELECT count(*) FROM noise_floors")" = 1 &&
	test "$(q "SELECT commit_id FROM noise_floors")" = k2 &&
	perfsift --store "$URL" calibrate --show c1 >show &&
	test_grep "^ *14.826%  mytest.jitter\$" show &&
	perfsift --store "$URL" compare c1 c3 >out &&
	! test_grep "mytest.jitter" out
'

test_expect_success 'a store of schema 2 is migrated on open' '
	q "DROP TABLE noise_floors; DROP TABLE noise_floor_stats; UPDATE perfsift_meta SET value = '\''2'\'' WHERE key = '\''schema'\''" &&
	perfsift --store "$URL" compare c1 c3 >out &&
	test_grep "+20.0% .*mytest.jitter" out &&
	test "$(q "SELECT value FROM perfsift_meta WHERE key = '\''schema'\''")" = 3 &&
	test "$(q "SELECT count(*) FROM noise_floors")" = 0 &&
	test "$(q "SELECT count(*) FROM runs")" = 9
'

test_done
