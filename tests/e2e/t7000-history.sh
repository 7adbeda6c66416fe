#!/bin/sh
# t7000: `perfsift history` on a result root made by `perfsift run`: 20
# commits of a real git repository, run out of order, 3 runs each, the
# score 10% lower from the 13th commit on and one glitch run; --repo puts
# them in first-parent order and the step is found at its commit, the
# glitch is an outlier; --json, --format csv, --all, the selectors; a CSV
# file in Otava's layout, and its bad input (FILE:LINE: COLUMN: ..., exit 2).
. "$(dirname "$0")/lib.sh"

R=$PERFSIFT_RESULT_ROOT

# json FILE PERL-EXPR: evaluate EXPR with $j the decoded document
json() {
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>); print eval($ARGV[1]), "\n"; die $@ if $@' "$1" "$2"
}

test_expect_success 'setup: a repository of 20 commits, run out of order' '
	git init -q repo &&
	for i in $(seq 1 20); do
		git -C repo -c user.name=t -c user.email=t@t commit -q --allow-empty -m "c$i" || return 1
	done &&
	git -C repo rev-list --reverse --first-parent HEAD >shas &&
	test "$(wc -l <shas)" -eq 20 &&
	cat >bench.sh <<-\EOT &&
	#!/bin/sh
	n=$(cat seq 2>/dev/null || echo 0); n=$((n + 1)); echo $n >seq
	# a fixed noise of +-5, and one glitch run
	noise=$(( (n * 7919) % 11 - 5 ))
	[ "$n" -eq 25 ] && noise=3000
	echo "score: $(( $(cat level) + noise ))"
	EOT
	chmod +x bench.sh &&
	printf "testcase: mytest\nmytest:\n  mytest: fast\n" >job.yaml &&
	for pos in 7 1 15 3 20 9 12 5 18 2 13 10 4 16 8 19 6 14 11 17; do
		sha=$(sed -n "${pos}p" shas) &&
		if [ "$pos" -le 12 ]; then echo 1000 >level; else echo 900 >level; fi &&
		perfsift run job.yaml -n 3 --commit "$sha" -- ./bench.sh >/dev/null || return 1
	done &&
	test "$(perfsift results | wc -l)" -eq 20
'

test_expect_success 'in first-parent order: the step at the 13th commit' '
	perfsift history mytest.score --repo repo >out &&
	test_grep "^commits: 20, runs: 60, change points: 1, outliers: 1" out &&
	test_grep "^stat:    mytest.score (direction unknown, a KPI)" out &&
	sed -n "/·····/{n;p;}" out >after &&
	test_grep "^    12  $(sed -n 13p shas | cut -c1-16) " after &&
	test_grep "·····.* -10\.[01]% .* (1000.* -> 899\.[0-9]*)" out
'

test_expect_success '--json: change_points and outliers' '
	perfsift history mytest.score --repo repo --json >j &&
	test "$(json j "scalar @{\$j->{change_points}}")" = 1 &&
	test "$(json j "\$j->{change_points}[0]{index}")" = 12 &&
	test "$(json j "\$j->{change_points}[0]{commit}")" = "$(sed -n 13p shas)" &&
	test "$(json j "\$j->{change_points}[0]{previous_commit}")" = "$(sed -n 12p shas)" &&
	test "$(json j "int(\$j->{change_points}[0]{change_pct})")" = -10 &&
	test "$(json j "\$j->{change_points}[0]{p} < 1e-10 ? 1 : 0")" = 1 &&
	test "$(json j "\$j->{change_points}[0]{direction}")" = undefined &&
	test "$(json j "\$j->{change_points}[0]{before} > \$j->{change_points}[0]{after} ? 1 : 0")" = 1 &&
	test "$(json j "scalar @{\$j->{outliers}}")" = 1 &&
	test "$(json j "\$j->{outliers}[0]{value} > 3000 ? 1 : 0")" = 1 &&
	test "$(json j "scalar @{\$j->{points}}")" = 20 &&
	test "$(json j "join q(,), map { scalar @{\$_->{runs}} } @{\$j->{points}}")" = "3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3"
'

test_expect_success 'the glitch run is the outlier, at its commit and run' '
	# run 25 is the first run of the 9th invocation: position 18
	test "$(json j "\$j->{outliers}[0]{commit}")" = "$(sed -n 18p shas)" &&
	test "$(json j "\$j->{outliers}[0]{index}")" = 17 &&
	test "$(json j "\$j->{outliers}[0]{run}")" = 0
'

test_expect_success 'without --repo the runs are in the order they were made' '
	perfsift history mytest.score --json >t &&
	test "$(json j "join q( ), map { \$_->{commit} } @{\$j->{points}}")" = "$(tr "\n" " " <shas | sed "s/ \$//")" &&
	for pos in 7 1 15 3 20; do sed -n "${pos}p" shas; done >first5 &&
	json t "join qq(\n), map { \$_->{commit} } @{\$j->{points}}[0..4]" >got5 &&
	test_cmp first5 got5
'

test_expect_success '--format csv: one row per run' '
	perfsift history mytest.score --repo repo --format csv >c &&
	test "$(head -1 c)" = "index,commit,time,run,value,outlier,change_point,change_pct,p,direction" &&
	test "$(wc -l <c)" -eq 61 &&
	test "$(grep -c ",1,1,-1" c)" -eq 0 &&
	test "$(awk -F, "\$7 == 1" c | wc -l)" -eq 3 &&
	test "$(awk -F, "\$6 == 1" c | wc -l)" -eq 1
'

test_expect_success '--all: every KPI of every group, newest first' '
	perfsift history --all --repo repo >all &&
	test_grep "^1 change points in [0-9]* series, newest first" all &&
	test_grep "mytest.score mytest/" all &&
	perfsift history --all --repo repo --json >aj &&
	test "$(json aj "\$j->{change_points}[0]{stat}")" = mytest.score &&
	test "$(json aj "\$j->{change_points}[0]{series}")" = "mytest/__bench.sh-fast/vm/debian/defconfig/gcc-12"
'

test_expect_success 'selectors narrow the groups; two series need one named' '
	perfsift run job.yaml -n 3 --commit "$(sed -n 1p shas)" --set mytest.mytest=slow -- ./bench.sh >/dev/null &&
	perfsift run job.yaml -n 3 --commit "$(sed -n 2p shas)" --set mytest.mytest=slow -- ./bench.sh >/dev/null &&
	test_must_fail --status=2 perfsift history mytest.score 2>err &&
	test_grep "is in 2 groups; name one with a selector" err &&
	test_grep "^  mytest/__bench.sh-slow/" err &&
	perfsift history mytest.score mytest=slow >s &&
	test_grep "^commits: 2, runs: 6" s &&
	perfsift history mytest.score mytest=fast tbox_group=vm --repo repo >f &&
	test_grep "^commits: 20, runs: 60, change points: 1" f &&
	test_must_fail --status=2 perfsift history no.such.stat 2>err &&
	test_grep "no values of .no.such.stat. in the groups selected" err
'

test_expect_success 'a CSV file in Otava layout: runs of a commit in a row' '
	{
		echo "commit,throughput,latency_ms" &&
		for i in $(seq 1 30); do
			t=500; l=20
			[ "$i" -gt 18 ] && t=450 && l=22
			for r in 1 2; do
				echo "c$i,$((t + (i * 3 + r) % 5)),$l.$(( (i + r) % 3 ))"
			done
		done
	} >series.csv &&
	perfsift history --csv series.csv --stat throughput --json >cj &&
	test "$(json cj "scalar @{\$j->{points}}")" = 30 &&
	test "$(json cj "\$j->{change_points}[0]{commit}")" = c19 &&
	test "$(json cj "\$j->{series}")" = series.csv &&
	perfsift history --csv series.csv --all >ca &&
	test_grep "^2 change points in 2 series" ca &&
	test_grep "latency_ms series.csv" ca &&
	test_grep "regression" ca
'

test_expect_success 'bad CSV input: FILE:LINE: COLUMN: ..., exit 2' '
	printf "commit,x\nc1,1\nc2,abc\n" >bad.csv &&
	test_must_fail --status=2 perfsift history --csv bad.csv --stat x 2>err &&
	test_grep "bad.csv:3: x: .abc. is not a number" err &&
	test_must_fail --status=2 perfsift history --csv bad.csv --stat y 2>err &&
	test_grep "bad.csv:1: y: no such column (the columns are: x)" err &&
	printf "commit,x\nc1,1,2\n" >bad2.csv &&
	test_must_fail --status=2 perfsift history --csv bad2.csv --stat x 2>err &&
	test_grep "bad2.csv:2: 3 fields, the header has 2" err &&
	test_must_fail --status=2 perfsift history --csv nonexistent.csv --stat x 2>err &&
	test_grep "cannot open .nonexistent.csv." err &&
	test_must_fail --status=2 perfsift history --csv bad.csv 2>err &&
	test_must_fail --status=2 perfsift history mytest.score --window 2 --min-segment 3 2>err &&
	test_grep "window 2 is shorter than --min-segment 3" err
'

test_expect_success '--test permutation finds the same step' '
	perfsift history mytest.score mytest=fast --repo repo --test permutation --json >pj &&
	test "$(json pj "\$j->{change_points}[0]{index}")" = 12 &&
	test "$(json pj "\$j->{method}{test}")" = permutation
'

test_done
