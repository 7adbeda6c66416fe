#!/bin/sh
# t8004: results readable from anywhere: `push` exports a local root's
# runs (index and files, compressed by the server) to the PostgreSQL
# store, results/compare/plot/report work from a fresh root with --store
# alone, `pull` brings the runs' files back byte for byte (and `stats`
# re-parses a pulled run); a worker's runs carry their files too.
. "$(dirname "$0")/lib.sh"

: "${PERFSIFT_BUILD:=$SRCDIR/build}"
. "$SRCDIR/tests/e2e/lib-pg.sh"
. "$SRCDIR/tests/e2e/lib-lab.sh"

if ! pg_available; then
	test_skip 'the lab results' 'no PostgreSQL server programs or no libpq'
	test_done
fi

test_expect_success 'a throwaway PostgreSQL server starts' 'pg_start'

# a benchmark with 200 kB of repetitive output beside its score
cat >job.yaml <<'EOF2'
testcase: mytest
mytest:
  cmdline: "seq 1 30000 | sed s/^/line-/; echo score: 5"
EOF2

test_expect_success 'two commits run locally, pushed to the store' '
	perfsift --result-root local run job.yaml -n 2 --commit c1 >/dev/null &&
	perfsift --result-root local run job.yaml -n 2 --commit c2 >/dev/null &&
	perfsift --store "$URL" --result-root local push >out &&
	test_grep "^4 runs pushed to the store, 0 there already" out &&
	test "$(store_runs)" = 4 &&
	perfsift --store "$URL" --result-root local push >out &&
	test_grep "^0 runs pushed to the store, 4 there already" out &&
	test "$(store_runs)" = 4
'

test_expect_success 'the files are in the store, compressed' '
	test "$(q "SELECT count(DISTINCT (group_dir, number)) FROM lab_run_files")" = 4 &&
	test "$(q "SELECT bool_and(pg_column_size(data) * 3 < octet_length(data)) FROM lab_run_files WHERE name = \$\$mytest\$\$")" = t
'

test_expect_success 'results, compare, plot, report from a fresh root' '
	mkdir fresh &&
	perfsift --store "$URL" --result-root fresh results >out &&
	test $(grep -c "2 runs" out) = 2 &&
	perfsift --store "$URL" --result-root fresh compare -a c1 c2 >cmp &&
	test_grep "mytest.score" cmp &&
	perfsift --store "$URL" --result-root fresh plot mytest.score c1 c2 >plot &&
	test -s plot &&
	perfsift --store "$URL" --result-root fresh report c1 c2 >rep &&
	test_grep "c2" rep &&
	test_must_fail test -e fresh/mytest
'

test_expect_success 'pull: the runs back, byte for byte; stats re-parses one' '
	perfsift --store "$URL" --result-root fresh pull c1 >out &&
	test_grep "^2 runs pulled" out &&
	perfsift --store "$URL" --result-root fresh pull >out &&
	test_grep "^2 runs pulled .*, 2 already there" out &&
	(cd local && find mytest -path "*/[0-9]/*" ! -name ".*" -type f | sort) >want &&
	(cd fresh && find mytest -path "*/[0-9]/*" ! -name ".*" -type f | sort) >got &&
	test_cmp want got &&
	while read f; do cmp "local/$f" "fresh/$f" || return 1; done <want &&
	run=$(dirname $(grep "/c1/0/mytest$" got)) &&
	perfsift --store "$URL" --result-root fresh stats "fresh/$run" &&
	test "$(store_runs)" = 4
'

test_expect_success 'a worker stores its runs with their files' '
	perfsift --store "$URL" queue add job.yaml --testbox-group box --commit c3 >ids &&
	perfsift --store "$URL" --result-root wcache worker --testbox box-1 --once &&
	perfsift --store "$URL" --result-root fresh pull c3 >out &&
	test_grep "^1 run pulled" out &&
	test $(find fresh -path "*/c3/0/mytest" | wc -l) = 1 &&
	test_grep "^score: 5" fresh/mytest/*/*/*/*/*/c3/0/mytest
'

# every file of the root but its index, with its inode and mtime: a file
# rewritten (atomically: a new inode) shows, even with the same bytes
snap_files() {
	(cd local && find mytest -type f ! -name .lock -exec stat -c "%n %i %y" {} + | sort)
}
c4_score() { # the store's mytest.score of the c4 runs: "0=5 1=7 "
	q "SELECT r.number || \$\$=\$\$ || v.value FROM stat_values v
	   JOIN stat_names n ON n.id = v.stat_id JOIN runs r ON r.id = v.run_id
	   JOIN groups g ON g.id = r.group_id
	   WHERE n.name = \$\$mytest.score\$\$ AND g.commit_id = \$\$c4\$\$
	   ORDER BY r.number" | tr "\n" " "
}
c4_local_score() { # the same of the root's own index
	sqlite3 local/perfsift.db "SELECT r.number || '=' || printf('%g', v.value)
	   FROM stat_values v JOIN stat_names n ON n.id = v.stat_id
	   JOIN runs r ON r.id = v.run_id JOIN groups g ON g.id = r.group_id
	   WHERE n.name = 'mytest.score' AND g.commit_id = 'c4'
	   ORDER BY r.number" | tr "\n" " "
}

test_expect_success 'push rewrites no file whose bytes stand; a changed run is restated, root and store' '
	perfsift --result-root local run job.yaml -n 2 --commit c4 >/dev/null &&
	run1=$(find local -path "*/c4/1" -type d) &&
	sed "s/^score: 5\$/score: 7/" "$run1/mytest" >edited &&
	cat edited >"$run1/mytest" &&
	snap_files >before &&
	perfsift --store "$URL" --result-root local push >out &&
	test_grep "^2 runs pushed to the store, 4 there already" out &&
	snap_files >after &&
	diff before after | sed -n "s/^> \([^ ]*\) .*/\1/p" | sed "s|.*/c4/||" >changed &&
	printf "%s\n" 1/mytest.json 1/stats.json avg.json matrix.json stddev.json >want &&
	test_cmp want changed &&
	test "$(c4_score)" = "0=5 1=7 " &&
	test "$(c4_local_score)" = "0=5 1=7 "
'

test_expect_success 'push makes right a matrix.json left behind its runs, runs unchanged' '
	perfsift --result-root local run job.yaml -n 2 --commit c5 >/dev/null &&
	c5=$(find local -path "*/c5" -type d) &&
	cp "$c5/matrix.json" want &&
	echo "{}" >"$c5/matrix.json" &&
	perfsift --store "$URL" --result-root local push >out &&
	test_grep "^2 runs pushed to the store, 6 there already" out &&
	test_cmp want "$c5/matrix.json"
'

test_expect_success 'push and pull need a PostgreSQL store' '
	test_must_fail perfsift pull 2>err &&
	test_grep "PostgreSQL store" err &&
	test_must_fail perfsift --store "$URL" pull nosuchcommit 2>err &&
	test_grep "matches no result group" err
'

test_done
