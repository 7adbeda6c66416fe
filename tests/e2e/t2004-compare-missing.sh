#!/bin/sh
# t2004: a missing value is missing, not zero.  A stat only the base's
# runs have, one only the head's have, one only some runs print: compare
# (every format, both methods, --lkp-exact), report and the sidecar
# matrix-missing.json; and an LKP matrix.json directory without a
# sidecar, whose front padding is taken for what LKP's writer means.
. "$(dirname "$0")/lib.sh"

R=$PERFSIFT_RESULT_ROOT

# the group directory of commit $1
group () {
	dirname "$(find "$R/tiny" -path "*/$1/matrix.json")"
}

test_expect_success 'setup: base and head runs that print different stats' '
	cat >bench.sh <<-\EOT &&
	#!/bin/sh
	# a run counter: "some" is printed by every other run only
	n=$(cat count 2>/dev/null || echo 0)
	echo $((n + 1)) >count
	echo "score: 100"
	if test "$SIDE" = base; then echo "extra: 1000"; else echo "fresh: 7"; fi
	if test $((n % 2)) = 1; then echo "some: 500"; fi
	EOT
	chmod +x bench.sh &&
	# the KPIs are declared, so that the one-sided mytest.extra and
	# mytest.fresh are KPIs with a direction (listed as gone/new)
	printf "testcase: tiny\nkpi: {mytest.score: higher, mytest.extra: higher, mytest.fresh: higher}\nmytest:\n" >tiny.yaml &&
	SIDE=base perfsift run tiny.yaml -n 4 --commit aaaa1111 -- ./bench.sh >out &&
	rm count &&
	SIDE=head perfsift run tiny.yaml -n 4 --commit bbbb2222 -- ./bench.sh >out &&
	test "$(perfsift results | wc -l)" -eq 2
'

test_expect_success 'matrix.json keeps LKP padding; the sidecar says what is missing' '
	G=$(group aaaa1111) &&
	test_grep "\"mytest.some\": \[0, 500, 0, 500\]," "$G/matrix.json" &&
	test_grep "^    \"mytest.some\": \[0, 2\]" "$G/matrix-missing.json" &&
	! grep -q "mytest.score" "$G/matrix-missing.json"
'

test_expect_success 'compare: a stat present only in base is never -100%' '
	perfsift compare aaaa1111 bbbb2222 >out &&
	! grep -E "mytest\.(extra|fresh|some)" out &&
	perfsift compare --lkp-exact aaaa1111 bbbb2222 >out &&
	! grep -E "mytest\.(extra|fresh|some)" out &&
	perfsift compare --method stats aaaa1111 bbbb2222 >out &&
	! grep -E "mytest\.(extra|fresh|some)" out
'

test_expect_success 'compare --all lists one-sided stats as such, means over the runs that have them' '
	for m in "" --lkp-exact "--method stats"; do
		perfsift compare --all $m aaaa1111 bbbb2222 >out || return 1
		! grep -E -e "-100\.0%" -e "e\+[0-9]+%" out || return 1
		test_grep "^      1000 ±  0%       gone          -        mytest.extra\$" out &&
		test_grep "^         -              new       7.00 ±  0%  mytest.fresh\$" out &&
		test_grep "^    500.00 ±  0%      +0.0%     500.00 ±  0%  mytest.some\$" out || return 1
	done
'

test_expect_success 'compare --json and --csv: absent is null, runs count the runs with it' '
	perfsift compare --all --json aaaa1111 bbbb2222 >out.json &&
	grep -A2 "\"stat\": \"mytest.extra\"" out.json >row &&
	test_grep "\"changed\": false,\$" row &&
	test_grep "\"base\": {\"present\": true, \"runs\": 4, \"missing_runs\": 0, \"mean\": 1000," row &&
	test_grep "{\"group\": 1, \"present\": false, \"runs\": 0, \"missing_runs\": 4, \"mean\": null, \"stddev\": null, \"change_pct\": null," row &&
	test_grep "\"lkp\": \"skip-missing\", \"changed\": false" row &&
	grep -A1 "\"stat\": \"mytest.some\"" out.json >row &&
	test_grep "\"base\": {\"present\": true, \"runs\": 2, \"missing_runs\": 2, \"mean\": 500," row &&
	perfsift compare --all --csv aaaa1111 bbbb2222 >out.csv &&
	grep "^mytest.extra," out.csv >row &&
	test_grep ",4,1000,0,0,,,," row
'

test_expect_success 'from the directories (matrix.json + sidecar): the same table as the index' '
	perfsift compare --all aaaa1111 bbbb2222 >index.out &&
	perfsift compare --all "$(group aaaa1111)" "$(group bbbb2222)" >dirs.out &&
	test_cmp index.out dirs.out
'

test_expect_success 'from runs without matrix.json: the same table' '
	mkdir nomatrix &&
	cp -r "$(group aaaa1111)" nomatrix/aaaa1111 &&
	cp -r "$(group bbbb2222)" nomatrix/bbbb2222 &&
	rm nomatrix/*/matrix*.json &&
	perfsift compare --all nomatrix/aaaa1111 nomatrix/bbbb2222 >runs.out &&
	test_cmp index.out runs.out
'

test_expect_success 'report: no one-sided stat ranked or shown as a change' '
	perfsift report aaaa1111 bbbb2222 >report.txt &&
	! grep -E -e "-100\.0%" report.txt &&
	# declared KPIs are always listed: as gone / new, never as a change
	grep -E "mytest\.(extra|fresh)" report.txt >one-sided &&
	! grep -v -E " (gone|new) " one-sided
'

# mytest.some is 500 in every run that printed it: no point at 0
test_expect_success 'plot draws only the runs that have the stat' '
	perfsift plot mytest.some aaaa1111 bbbb2222 >chart &&
	test_grep "^  500 " chart &&
	! grep -E "^ +0 " chart
'

test_expect_success 'stats rewrites a lost sidecar' '
	G=$(group aaaa1111) &&
	cp "$G/matrix-missing.json" side.before &&
	rm "$G/matrix-missing.json" &&
	perfsift stats -q "$G/0" &&
	test_cmp side.before "$G/matrix-missing.json"
'

# LKP's own writer: a stat first seen in run 2 is padded with 0 in front,
# a stat gone after run 1 is a short array; no sidecar.
test_expect_success 'an LKP matrix.json directory without sidecar: front padding and short arrays are missing' '
	mkdir -p lkp/base lkp/head &&
	cat >lkp/base/matrix.json <<-\EOT &&
	{"will-it-scale.per_process_ops": [100, 101, 99, 100],
	 "will-it-scale.late": [0, 0, 50, 50],
	 "will-it-scale.vanished": [9, 9],
	 "will-it-scale.only_base": [5, 5, 5, 5],
	 "stats_source": ["/lkp/result/a/0/stats.json", "/lkp/result/a/1/stats.json",
	                  "/lkp/result/a/2/stats.json", "/lkp/result/a/3/stats.json"]}
	EOT
	cat >lkp/head/matrix.json <<-\EOT &&
	{"will-it-scale.per_process_ops": [100, 100, 100, 101],
	 "will-it-scale.late": [50, 50, 50, 50],
	 "will-it-scale.vanished": [9, 9, 9, 9],
	 "stats_source": ["/lkp/result/b/0/stats.json", "/lkp/result/b/1/stats.json",
	                  "/lkp/result/b/2/stats.json", "/lkp/result/b/3/stats.json"]}
	EOT
	perfsift compare --all lkp/base lkp/head >out &&
	test_grep "^     50.00 ±  0%      +0.0%      50.00 ±  0%  will-it-scale.late\$" out &&
	test_grep "^      9.00 ±  0%      +0.0%       9.00 ±  0%  will-it-scale.vanished\$" out &&
	test_grep "^      5.00 ±  0%       gone          -        will-it-scale.only_base\$" out &&
	perfsift compare lkp/base lkp/head >out &&
	! grep -q "will-it-scale" out
'

test_done
