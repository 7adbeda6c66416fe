#!/bin/sh
# t7020: history and the site judge by the job's declared KPIs.  The job
# is docs/robot.md's pattern -- testcase `demo`, `kpi:` naming mytest.*
# stats -- which made `site` exit 2 ("no KPI values") when only
# `<testcase>.*` counted.  Two KPIs over 18 commits: mytest.ms (lower is
# better) rises at c16, mytest.score (declared higher; LKP's tables give
# it no direction) rises at c20 and falls at c24.  The index lists the
# two regressions newest first and not the improvement; the time
# monitor's mytest.time.* and the undeclared mytest.other are no KPIs;
# the charts' x axis names commits.
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup: the robot.md job, 18 commits, three steps' '
	cat >bench.sh <<-\EOT &&
	#!/bin/sh
	n=$(cat seq 2>/dev/null || echo 0); n=$((n + 1)); echo $n >seq
	noise=$(( (n * 7919) % 11 - 5 ))
	echo "ms: $(( $(cat ms) + noise ))"
	echo "score: $(( $(cat score) - noise ))"
	echo "other: $(( 70 + noise ))"
	EOT
	cat >job.yaml <<-\EOT &&
	testcase: demo
	kpi: {mytest.ms: lower, mytest.score: higher}
	mytest:
	  cmdline: sh bench.sh
	EOT
	for i in $(seq 10 27); do
		if [ "$i" -lt 16 ]; then echo 500 >ms; else echo 650 >ms; fi &&
		if [ "$i" -lt 20 ]; then echo 1000; elif [ "$i" -lt 24 ]; then echo 1300; else echo 900; fi >score &&
		perfsift run job.yaml -n 3 --commit "c$i" >/dev/null || return 1
	done
'

test_expect_success 'history: the declared KPIs, their declared directions' '
	perfsift history --all --json >h.json &&
	test "$(jq .series h.json)" -eq 2 &&
	jq -r ".change_points[] | [.commit, .stat, .direction] | @tsv" h.json | sort >cps &&
	printf "c16\tmytest.ms\tregression\nc20\tmytest.score\timprovement\nc24\tmytest.score\tregression\n" >expect &&
	test_cmp expect cps &&
	perfsift history mytest.score --json >s.json &&
	test "$(jq -r "[.kpi, .better] | @tsv" s.json)" = "$(printf "true\thigher")" &&
	perfsift history mytest.time.elapsed_time --json >t.json &&
	test "$(jq -r .kpi t.json)" = false
'

test_expect_success 'site: exit 0, the two KPIs, not the time monitor' '
	perfsift site -o site >out &&
	test_grep "1 groups, 2 KPIs" out &&
	test "$(grep -c "<tr data-index=" site/index.html)" -eq 2 &&
	test_grep "<code>mytest.ms</code>" site/index.html &&
	test_grep "<code>mytest.score</code>" site/index.html &&
	! grep -q "mytest.time\.\|mytest.other" site/index.html
'

test_expect_success 'the regressions, newest first, the improvement left out' '
	test_grep "Regressions, newest first (2)" site/index.html &&
	grep "<tr class=\"reg\">" site/index.html >rows &&
	test "$(wc -l <rows)" -eq 2 &&
	sed -n 1p rows | grep -q "<td><code>c24</code></td><td><code>c23</code>.*mytest.score" &&
	sed -n 2p rows | grep -q "<td><code>c16</code></td><td><code>c15</code>.*mytest.ms" &&
	! grep -q "<code>c20</code></td><td><code>c19" rows &&
	report=$(sed -n 1p rows | grep -o "href=\"report-[0-9-]*\.html\"" | cut -d\" -f2) &&
	test -f "site/$report"
'

test_expect_success 'the x axis names commits, the change points in red' '
	page=$(ls site/group-*.html) &&
	grep -o "<g class=\"xaxis\">.*</g>" "$page" | head -1 >axis &&
	test_grep "fill=\"#c0392b\">c16</text>" axis &&
	test_grep ">c10</text>" axis &&
	test_grep ">c27</text>" axis
'

test_expect_success 'a job without kpi: its mytest stats, not time.*' '
	printf "testcase: demo\nmytest:\n  cmdline: sh ./bench.sh\n" >plain.yaml &&
	echo 500 >ms && echo 1000 >score &&
	for i in 1 2 3 4 5 6; do
		perfsift run plain.yaml -n 1 --commit "p$i" >/dev/null || return 1
	done &&
	dir=$(ls -d "$PERFSIFT_RESULT_ROOT"/demo/*/ | grep -v "/sh_bench.sh/$") &&
	perfsift history --all "$dir" >p.txt &&
	test_grep "in 3 series" p.txt &&
	perfsift site -o site2 "$dir" >out &&
	test_grep "1 groups, 3 KPIs" out &&
	test_grep "Regressions, newest first (0)" site2/index.html
'

test_done
