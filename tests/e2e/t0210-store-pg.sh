#!/bin/sh
# t0210: the PostgreSQL store backend, against a throwaway server started
# here (initdb + pg_ctl on a unix socket in a private directory): the
# store's unit tests, then `stats` and `results` through --store.
# Skipped when PostgreSQL's server programs or libpq are not available.
. "$(dirname "$0")/lib.sh"

: "${PERFSIFT_BUILD:=$SRCDIR/build}"
PGBIN=
for d in /usr/lib/postgresql/*/bin; do
	[ -x "$d/initdb" ] && PGBIN=$d
done
AS=
if [ "$(id -u)" -eq 0 ]; then
	AS="runuser -u postgres --"
	id postgres >/dev/null 2>&1 || PGBIN=
fi

if [ -z "$PGBIN" ] || ! perfsift --store postgresql:///x?host=/nonexistent \
	results 2>&1 | grep -q "cannot connect"; then
	test_skip 'PostgreSQL backend' 'no PostgreSQL server programs or no libpq'
	test_done
fi

# the server's files must be reachable by its user, not under our 0700 dir
PGDIR=$(mktemp -d /tmp/perfsift-pg.XXXXXX)
chmod 755 "$PGDIR"
[ -n "$AS" ] && chown postgres "$PGDIR"
stop_pg() {
	$AS "$PGBIN/pg_ctl" -D "$PGDIR/data" -m immediate stop >/dev/null 2>&1
	rm -rf "$PGDIR"
}
trap 'stop_pg; cd /; rm -rf "$TEST_TMP"' EXIT

test_expect_success 'a throwaway PostgreSQL server starts' '
	$AS "$PGBIN/initdb" -D "$PGDIR/data" -A trust -U postgres >"$TEST_TMP/initdb.log" 2>&1 &&
	$AS "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/log" -w \
		-o "-k $PGDIR -c listen_addresses= -c fsync=off" start >/dev/null &&
	psql -q -h "$PGDIR" -U postgres -d postgres -c "CREATE DATABASE ps" 
'

URL="postgresql:///ps?host=$PGDIR&user=postgres"
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
