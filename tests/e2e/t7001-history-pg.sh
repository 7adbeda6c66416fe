#!/bin/sh
# t7001: `perfsift history` on the PostgreSQL store: runs made by
# `perfsift run --store postgresql://...` against a throwaway server
# (initdb + pg_ctl on a unix socket, as t0210), the same change point and
# outlier as from SQLite.  Skipped without PostgreSQL's server or libpq.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-pg.sh"

if ! pg_available; then
	test_skip 'history on PostgreSQL' 'no PostgreSQL server programs or no libpq'
	test_done
fi

test_expect_success 'a throwaway PostgreSQL server starts' 'pg_start'

R=$PERFSIFT_RESULT_ROOT

json() {
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>); print eval($ARGV[1]), "\n"; die $@ if $@' "$1" "$2"
}

test_expect_success 'runs of 12 commits into PostgreSQL' '
	cat >bench.sh <<-\EOT &&
	#!/bin/sh
	n=$(cat seq 2>/dev/null || echo 0); n=$((n + 1)); echo $n >seq
	noise=$(( (n * 7919) % 11 - 5 ))
	[ "$n" -eq 8 ] && noise=-2000
	echo "score: $(( $(cat level) + noise ))"
	EOT
	chmod +x bench.sh &&
	printf "testcase: mytest\nmytest:\n  mytest: fast\n" >job.yaml &&
	for i in $(seq 10 21); do
		if [ "$i" -lt 17 ]; then echo 500 >level; else echo 560 >level; fi &&
		perfsift --store "$URL" run job.yaml -n 3 --commit "c$i" -- ./bench.sh >/dev/null || return 1
	done &&
	test_must_fail test -e "$R/perfsift.db"
'

test_expect_success 'history through --store postgresql://' '
	perfsift --store "$URL" history mytest.score --json >j &&
	test "$(json j "scalar @{\$j->{points}}")" = 12 &&
	test "$(json j "scalar @{\$j->{change_points}}")" = 1 &&
	test "$(json j "\$j->{change_points}[0]{commit}")" = c17 &&
	test "$(json j "\$j->{change_points}[0]{index}")" = 7 &&
	test "$(json j "scalar @{\$j->{outliers}}")" = 1 &&
	test "$(json j "\$j->{outliers}[0]{commit}")" = c12 &&
	test "$(json j "\$j->{outliers}[0]{run}")" = 1 &&
	PERFSIFT_STORE=$URL perfsift history --all >all &&
	test_grep "^c17  *mytest.score mytest/" all
'

test_expect_success 'the same from a SQLite index of the same runs' '
	# re-indexed in commit order (c10 ... c21), the order they were run
	find "$R/mytest" -mindepth 7 -maxdepth 7 -type d -name "[0-9]*" | sort >dirs &&
	test "$(wc -l <dirs)" -eq 36 &&
	perfsift stats -q $(cat dirs) &&
	test -e "$R/perfsift.db" &&
	perfsift history mytest.score --json >s &&
	json j "join q(,), map { \$_->{commit} . q(:) . join(q(/), @{\$_->{runs}}) } @{\$j->{points}}" >pg.points &&
	json s "join q(,), map { \$_->{commit} . q(:) . join(q(/), @{\$_->{runs}}) } @{\$j->{points}}" >sqlite.points &&
	test_cmp pg.points sqlite.points &&
	test "$(json s "\$j->{change_points}[0]{commit}")" = c17
'

test_done
