# lib-pg.sh: a throwaway PostgreSQL server for an end-to-end test (after
# lib.sh): initdb + pg_ctl on a unix socket in a private directory, as the
# postgres user when run as root, stopped and removed when the script
# ends.  pg_available || skip; then test_expect_success ... pg_start.
# Sets PGBIN, PGDIR and URL (a --store for a database "ps").

PGBIN=
for d in /usr/lib/postgresql/*/bin; do
	[ -x "$d/initdb" ] && PGBIN=$d
done
AS=
if [ "$(id -u)" -eq 0 ]; then
	AS="runuser -u postgres --"
	id postgres >/dev/null 2>&1 || PGBIN=
fi

# true when the server programs and perfsift's libpq are there
pg_available() {
	[ -n "$PGBIN" ] && perfsift --store postgresql:///x?host=/nonexistent \
		results 2>&1 | grep -q "cannot connect"
}

# the server's files must be reachable by its user, not under our 0700 dir
PGDIR=$(mktemp -d /tmp/perfsift-pg.XXXXXX)
chmod 755 "$PGDIR"
[ -n "$AS" ] && chown postgres "$PGDIR"
stop_pg() {
	$AS "$PGBIN/pg_ctl" -D "$PGDIR/data" -m immediate stop >/dev/null 2>&1
	rm -rf "$PGDIR"
}
trap 'stop_pg; cd /; rm -rf "$TEST_TMP"' EXIT
URL="postgresql:///ps?host=$PGDIR&user=postgres"
export URL

# start the server and create the database "ps"
pg_start() {
	$AS "$PGBIN/initdb" -D "$PGDIR/data" -A trust -U postgres >"$TEST_TMP/initdb.log" 2>&1 &&
	$AS "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/log" -w \
		-o "-k $PGDIR -c listen_addresses= -c fsync=off" start >/dev/null &&
	psql -q -h "$PGDIR" -U postgres -d postgres -c "CREATE DATABASE ps"
}
