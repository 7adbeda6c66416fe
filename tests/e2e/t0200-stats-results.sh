#!/bin/sh
# t0200: `perfsift stats` rebuilds runs' <monitor>.json, stats.json, the
# group's matrix.json and the index from raw files; `perfsift results`
# lists and selects groups.  Runs are synthetic: raw files from LKP's
# vectors placed in LKP's layout by hand.
. "$(dirname "$0")/lib.sh"

R=$PERFSIFT_RESULT_ROOT
G=$R/dd/defaults/box/debian/defconfig/gcc-12/abc123
H=$R/dd/defaults/box/debian/defconfig/gcc-12/abd999

make_run() { # dir timefile [incomplete]
	mkdir -p "$1" &&
	cp "$TESTDATA/lkp-generated/time/$2" "$1/dd.time" &&
	cp "$TESTDATA/lkp-generated/time/$2" "$1/time" &&
	if [ -n "${3-}" ]; then echo "is_incomplete_run: 1" >"$1/last_state"; fi
}

test_expect_success 'a fresh root lists nothing and creates no index' '
	perfsift results >out 2>err &&
	test_must_fail test -s out &&
	test_grep "no results" err &&
	test_must_fail test -e "$R/perfsift.db"
'

test_expect_success 'stats builds every file of three runs' '
	make_run "$G/0" 1 &&
	make_run "$G/1" 2 &&
	make_run "$G/2" 1 incomplete &&
	perfsift stats "$G/0" "$G/1" "$G/2" >out &&
	test_grep "abc123/2" out &&
	for n in 0 1 2; do
		test -f "$G/$n/dd.time.json" && test -f "$G/$n/time.json" &&
		test -f "$G/$n/stats.json" || return 1
	done &&
	test_grep "\"dd.time.elapsed_time\": 1.16," "$G/0/stats.json" &&
	test_grep "\"dd.time.elapsed_time.max\": 1.16," "$G/0/stats.json" &&
	test_grep "\"dd.time.exit_status\": 3" "$G/1/stats.json" &&
	test -f "$R/perfsift.db"
'

test_expect_success 'matrix.json holds the complete runs only, in order' '
	test_grep "\"dd.time.elapsed_time\": \[1.16, 1.0\]," "$G/matrix.json" &&
	test_grep "\"stats_source\": \[\"$G/0/stats.json\", \"$G/1/stats.json\"\]" \
		"$G/matrix.json" &&
	test -f "$G/avg.json" && test -f "$G/stddev.json"
'

test_expect_success 'stats is idempotent' '
	cp "$G/matrix.json" matrix.before &&
	cp "$G/0/stats.json" stats.before &&
	perfsift stats -q "$G/0" "$G/1" >out &&
	test_must_fail test -s out &&
	test_cmp matrix.before "$G/matrix.json" &&
	test_cmp stats.before "$G/0/stats.json"
'

test_expect_success 'results lists the group with its run counts' '
	perfsift results >out &&
	echo "dd/defaults/box/debian/defconfig/gcc-12/abc123  2 runs, 1 incomplete" >expect &&
	test_cmp expect out
'

test_expect_success 'results selects by commit, prefix, key=value and directory' '
	make_run "$H/0" 1 &&
	perfsift stats -q "$H/0" &&
	perfsift results >out && test "$(wc -l <out)" -eq 2 &&
	perfsift results abc123 >out && test "$(wc -l <out)" -eq 1 &&
	perfsift results abd >out && test_grep "abd999  1 run$" out &&
	perfsift results ab >out && test "$(wc -l <out)" -eq 2 &&
	perfsift results commit=abd999,testcase=dd >out &&
	test "$(wc -l <out)" -eq 1 &&
	perfsift results "$G" >out && test_grep abc123 out &&
	test "$(wc -l <out)" -eq 1 &&
	perfsift results "$G/1" >out && test_grep abc123 out &&
	perfsift results "$R/dd" >out && test "$(wc -l <out)" -eq 2 &&
	perfsift results nosuch >out 2>err &&
	test_grep "no result group matches .nosuch." err &&
	test_must_fail --status=2 perfsift results "a=b,junk" 2>err &&
	test_grep "expected key=value" err
'

test_expect_success 'results --runs, --params and --json' '
	perfsift results --runs abc123 >out &&
	test_grep "    run 2  incomplete  $G/2" out &&
	perfsift results --params abc123 >out &&
	test_grep "^    tbox_group=box$" out &&
	perfsift results --json --runs abd >out &&
	test_grep "\"commit\": \"abd999\", \"runs\": 1, \"incomplete\": 0" out &&
	test_grep "\"run_list\": \[{\"number\": 0, \"complete\": true" out
'

test_expect_success 'a corrupt raw file: one error naming it, exit 2, nothing changed' '
	cp "$G/1/stats.json" stats.before &&
	cp "$G/matrix.json" matrix.before &&
	printf "User time (seconds): 1\000\n" >"$G/1/dd.time" &&
	test_must_fail --status=2 perfsift stats "$G/1" 2>err &&
	test_grep "$G/1/dd.time. holds NUL bytes" err &&
	test "$(wc -l <err)" -eq 1 &&
	test_cmp stats.before "$G/1/stats.json" &&
	test_cmp matrix.before "$G/matrix.json"
'

test_expect_success 'stats refuses what is not a run directory' '
	test_must_fail --status=2 perfsift stats "$G" 2>err &&
	test_grep "is not a run directory" err &&
	test_must_fail --status=2 perfsift stats "$G/9" 2>err &&
	test_grep "is not a directory" err &&
	test_must_fail --status=2 perfsift stats
'

test_expect_success 'a deleted run is forgotten when its group is re-indexed' '
	cp "$TESTDATA/lkp-generated/time/2" "$G/1/dd.time" &&
	rm -rf "$G/2" &&
	perfsift stats -q "$G/0" &&
	perfsift results abc123 >out &&
	test_grep "abc123  2 runs$" out
'

test_expect_success 'a run outside the result root is rebuilt, not indexed' '
	make_run elsewhere/g/0 1 &&
	perfsift stats elsewhere/g/0 >out 2>err &&
	test_grep "not indexed" err &&
	test -f elsewhere/g/matrix.json &&
	perfsift results >out && test "$(wc -l <out)" -eq 2
'

test_expect_success 'the global --result-root chooses the index' '
	perfsift --result-root other results >out 2>err &&
	test_must_fail test -s out &&
	perfsift --result-root "$R" results abd999 >out &&
	test_grep abd999 out
'

test_done
