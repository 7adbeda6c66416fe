#!/bin/sh
# t2000: `compare --all` renders the seed's table byte for byte from
# matrices with the seed's means and deviations (header, commit block,
# labels, rows and their order), and the default selection, JSON and CSV
# work on the same groups.
. "$(dirname "$0")/lib.sh"

SEED=$TESTDATA/compare/seed
BASE=$SEED/v4.6-rc2
HEAD=$SEED/5f155ea5ab62b5321aa7315de62d21da59aa8c65

test_expect_success 'compare --all prints the seed table exactly' '
	sed -n "/^=====/,\$p" "$SEED/report-layout.txt" >expect &&
	perfsift compare --all "$BASE" "$HEAD" >actual &&
	test_cmp expect actual
'

test_expect_success 'the default (LKP rules) selects a subset, same layout' '
	perfsift compare "$BASE" "$HEAD" >actual &&
	head -12 expect >expect.head &&
	head -12 actual >actual.head &&
	test_cmp expect.head actual.head &&
	test_grep "vm-scalability.time.system_time\$" actual &&
	! grep -q "slabinfo.kmem_cache_node.num_objs" actual
'

test_expect_success 'a commit prefix and a tag resolve under the result root' '
	mkdir -p root/vm-scalability/p/lkp-hsx04/r/k/gcc-4.9 &&
	cp -r "$BASE" "$HEAD" root/vm-scalability/p/lkp-hsx04/r/k/gcc-4.9/ &&
	perfsift --result-root root compare --all v4.6-rc2 5f155e >actual &&
	test_cmp expect actual
'

test_expect_success 'run directories: stats.json united, incomplete runs left out' '
	g=runs/tc/p/box/r/k/c &&
	for commit in aaaa bbbb; do
		for r in 0 1 2 3; do
			mkdir -p $g/$commit/$r &&
			printf "testcase: tc\ncommit: %s\ntbox_group: box\n" $commit \
				>$g/$commit/$r/job.yaml || return 1
		done
	done &&
	for r in 0 1 2; do
		echo "{\"tc.throughput\": 10$r, \"tc.time.elapsed_time\": 30}" >$g/aaaa/$r/stats.json &&
		echo "{\"tc.throughput\": 5$r, \"tc.time.elapsed_time\": 30}" >$g/bbbb/$r/stats.json || return 1
	done &&
	echo "{\"tc.throughput\": 1}" >$g/aaaa/3/stats.json &&
	echo "is_incomplete_run: 1" >$g/aaaa/3/last_state &&
	echo "{\"tc.throughput\": 53}" >$g/bbbb/3/stats.json &&
	test_must_fail --status=1 perfsift compare --json $g/aaaa/0 $g/bbbb >out.json &&
	test_grep "\"runs\": 3, \"axes\"" out.json &&
	test_grep "\"runs\": 4, \"axes\"" out.json &&
	test_grep "\"stat\": \"tc.throughput\".*\"kpi\": true" out.json &&
	test_grep "\"effect\": \"regression\"" out.json
'

test_expect_success 'key=value selectors; an ambiguous one lists candidates' '
	test_must_fail --status=2 perfsift --result-root root compare \
		test=anon-r-seq 5f155e 2>err &&
	test_grep "ambiguous: it matches 2 result groups" err &&
	test_grep "gcc-4.9/v4.6-rc2" err &&
	test_must_fail --status=2 perfsift --result-root root compare \
		test=nosuch 5f155e 2>err &&
	test_grep "matches no result group" err &&
	perfsift --result-root root compare --all \
		commit=v4.6-rc2,test=anon-r-seq 5f155e >actual &&
	test_cmp expect actual
'

test_expect_success '--json: versioned, every row with p, q, interval, verdict' '
	perfsift compare --json --all "$BASE" "$HEAD" >out.json &&
	test_grep "\"schema\": \"perfsift-compare/1\"" out.json &&
	test "$(grep -c "\"stat\": " out.json)" -eq 22 &&
	test "$(grep -c "\"verdict\": " out.json)" -eq 22 &&
	# the time monitor copy of the benchmark is no implicit KPI
	test_grep "\"stat\": \"vm-scalability.time.system_time\", \"kind\": \"perf\", \"kpi\": false, \"direction\": \"lower\"" out.json &&
	if command -v python3 >/dev/null; then python3 -m json.tool out.json >/dev/null; fi
'

test_expect_success '--csv: a header and one line per stat and column' '
	perfsift compare --csv --all "$BASE" "$HEAD" >out.csv &&
	test "$(wc -l <out.csv)" -eq 23 &&
	head -1 out.csv | grep -q "^stat,kind,kpi,direction,"
'

test_expect_success '--stat and --kpi filter rows' '
	perfsift compare --all --stat "^numa-vmstat" "$BASE" "$HEAD" >out &&
	test "$(grep -c "numa-vmstat" out)" -eq 4 &&
	test "$(grep -c "±" out)" -eq 4 &&
	# the seed has no KPI: its only vm-scalability stat is the time
	# monitor copy, vm-scalability.time.system_time
	perfsift compare --all --kpi "$BASE" "$HEAD" >out &&
	test "$(grep -c "±" out)" -eq 0 &&
	perfsift compare --all --kpi "$TESTDATA/report/base" "$TESTDATA/report/head" >out &&
	test "$(grep -c "±" out)" -eq 1 &&
	test_grep "  vm-scalability.throughput\$" out
'

test_expect_success 'usage errors exit 2' '
	test_must_fail --status=2 perfsift compare "$BASE" &&
	test_must_fail --status=2 perfsift compare --method nope "$BASE" "$HEAD" &&
	test_must_fail --status=2 perfsift compare --stat "(" "$BASE" "$HEAD" &&
	test_must_fail --status=2 perfsift compare "$BASE" /nonexistent/dir
'

test_done
