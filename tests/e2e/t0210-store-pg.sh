#!/bin/sh
# t0210: the PostgreSQL store backend, against a throwaway server started
# here (initdb + pg_ctl on a unix socket in a private directory): the
# store's unit tests, then `stats` and `results` through --store.
# Skipped when PostgreSQL's server programs or libpq are not available.
. "$(dirname "$0")/lib.sh"

: "${PERFSIFT_BUILD:=$SRCDIR/build}"
. "$SRCDIR/tests/e2e/lib-pg.sh"

if ! pg_available; then
	test_skip 'PostgreSQL backend' 'no PostgreSQL server programs or no libpq'
	test_done
fi

test_expect_success 'a throwaway PostgreSQL server starts' 'pg_start'

R=$PERFSIFT_RESULT_ROOT
G=$R/dd/defaults/box/debian/defconfig/gcc-12/abc123

test_expect_success 'the store unit tests pass against PostgreSQL' '
	PERFSIFT_TEST_PG_HOST=$PGDIR "$PERFSIFT_BUILD/tests/test_store" >out 2>&1 ||
	{ cat out; false; }
'

test_expect_success 'stats and results through --store postgresql://' '
	for n in 0 1 2; do
		mkdir -p "$G/$n" &&
		cp "$TESTDATA/lkp-generated/time/1" "$G/$n/dd.time" || return 1
	done &&
	echo "is_incomplete_run: 1" >"$G/2/last_state" &&
	perfsift --store "$URL" stats -q "$G/0" "$G/1" "$G/2" &&
	perfsift --store "$URL" results >out &&
	echo "dd/defaults/box/debian/defconfig/gcc-12/abc123  2 runs, 1 incomplete" >expect &&
	test_cmp expect out &&
	PERFSIFT_STORE=$URL perfsift results commit=abc123 >out &&
	test_cmp expect out &&
	test_must_fail test -e "$R/perfsift.db"
'

test_done
