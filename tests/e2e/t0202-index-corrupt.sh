#!/bin/sh
# shellcheck disable=SC1091,SC2016,SC2034
# t0202: a damaged index never gives a clean-looking answer: every command
# that reads it stops with the same "index corrupt" message and exit
# status 3, a read that looks wrong (a run's packed stats that do not
# unpack) is treated the same way, `perfsift stats --all` moves the
# damaged file aside and rebuilds the index from the files, and perfsift
# never writes its schema into a SQLite file that is not its own.
. "$(dirname "$0")/lib.sh"

R=$PERFSIFT_RESULT_ROOT
MSG="index corrupt: rebuild it with \`perfsift stats --all\`"

test_expect_success 'two groups of three runs, indexed' '
	for c in aaa111 bbb222; do
		for n in 0 1 2; do
			d=$R/dd/defaults/box/debian/defconfig/gcc-12/$c/$n &&
			mkdir -p "$d" &&
			cp "$TESTDATA/lkp-generated/time/$((n + 1))" "$d/time" &&
			cp "$TESTDATA/lkp-generated/time/$((n + 1))" "$d/dd.time" || return 1
		done
	done &&
	perfsift stats --all -q &&
	perfsift compare aaa111 bbb222 >good.out &&
	cp "$R/perfsift.db" good.db
'

# damage: overwrite the start of the page that holds the first run's packed
# stats (found by its magic, so the same page at every run of the test)
damage() {
	cp good.db "$R/perfsift.db" && rm -f "$R/perfsift.db-wal" "$R/perfsift.db-shm" &&
	off=$(grep -obUa PSS1 "$R/perfsift.db" | head -n 1 | cut -d: -f1) &&
	test -n "$off" &&
	yes "perfsift was here" | head -c 2000 |
		dd of="$R/perfsift.db" bs=1 seek=$((off / 65536 * 65536)) conv=notrunc 2>/dev/null
}

test_expect_success 'a damaged page: the same error and exit 3 from every command' '
	for cmd in "results" "results --runs aaa111" "compare aaa111 bbb222" \
		"plot dd.time.elapsed_time aaa111 bbb222" "report aaa111 bbb222 -o rep"; do
		damage &&
		# shellcheck disable=SC2086
		test_must_fail --status=3 perfsift $cmd >out 2>err &&
		test_grep "$MSG" err &&
		! test -s out || { echo "for: $cmd"; return 1; }
	done
'

test_expect_when 'command -v sqlite3 >/dev/null' 'no sqlite3 program here' \
	'packed stats that do not unpack are not read as "no values"' '
	cp good.db "$R/perfsift.db" && rm -f "$R/perfsift.db-wal" "$R/perfsift.db-shm" &&
	sqlite3 "$R/perfsift.db" "UPDATE runs SET stats = X'\''5053533100'\''; DELETE FROM stat_values;" &&
	test_must_fail --status=3 perfsift compare aaa111 bbb222 >out 2>err &&
	test_grep "$MSG" err &&
	test_grep "packed stats do not unpack" err
'

test_expect_success 'stats --all moves the damaged index aside and rebuilds it' '
	damage &&
	perfsift stats --all >out 2>err &&
	test_grep "^6 runs$" out &&
	test_grep "index corrupt .*moved aside to .*perfsift.db.corrupt" err &&
	test -f "$R/perfsift.db.corrupt" &&
	perfsift compare aaa111 bbb222 >again.out &&
	test_cmp good.out again.out
'

test_expect_when 'command -v sqlite3 >/dev/null' 'no sqlite3 program here' \
	'a SQLite file that is not a perfsift index is refused, not changed' '
	sqlite3 foreign.db "CREATE TABLE notes (a TEXT); INSERT INTO notes VALUES ('\''mine'\'');" &&
	sqlite3 foreign.db .schema >schema.before &&
	test_must_fail --status=3 perfsift --store "sqlite:$PWD/foreign.db" results >out 2>err &&
	test_grep "is not a perfsift index" err &&
	test "$(grep -c "not a perfsift index" err)" = 1 &&
	sqlite3 foreign.db .schema >schema.after &&
	test_cmp schema.before schema.after
'

test_done
