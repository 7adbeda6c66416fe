#!/bin/sh
# t5200: the report's headline KPI is chosen among the declared KPIs when
# the job declares `kpi:` -- the one that moved the wrong way, else the
# largest improvement, else (nothing decided) the first declared -- and
# never an undeclared stat of the benchmark nor a monitor stat, however
# much they moved (docs/lkp-compat.md "report").  The command's figures
# are fixed: nothing here depends on the machine's speed.
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup: a command whose figures move in the head setting' '
	cat >bench.sh <<-\EOT &&
	#!/bin/sh
	# head: score triples (+200%), ms rises by half (+50%), the
	# undeclared "other" 1000-fold, and the elapsed time by a second
	case "$mytest" in
	head) echo "score: 300"; echo "ms: 15"; echo "other: 1000"; sleep 1;;
	*) echo "score: 100"; echo "ms: 10"; echo "other: 1";;
	esac
	EOT
	chmod +x bench.sh
'

# runs of job (kpi line $1) under root $2: 3 in setting base, 3 in $3
two_settings () {
	printf "testcase: tiny\n%s\nmytest:\n  mytest: base\nmonitors: none\n" "$1" >job.yaml &&
	perfsift --result-root "$2" run job.yaml -n 3 --commit aaaa1111 -- ./bench.sh >out &&
	perfsift --result-root "$2" run job.yaml -n 3 --commit aaaa1111 \
		--set mytest.mytest="$3" -- ./bench.sh >out
}

test_expect_success 'the declared KPI that regressed leads, not the larger improvement' '
	two_settings "kpi: {mytest.score: higher, mytest.ms: lower}" reg head &&
	test_must_fail --status=1 perfsift --result-root reg report -o rep \
		--html rep.html mytest=base mytest=head &&
	test_grep "^Subject: \[perfsift\] aaaa1111 (mytest=head): mytest.ms +50.0% regression\$" rep/report.txt &&
	test_grep "^FYI, we noticed that mytest.ms +50.0% regression on\$" rep/report.txt &&
	test_grep "^The KPI, mytest.ms:\$" rep/report.txt &&
	sed -n "/<table class=\"rows\" id=\"kpi-row\">/,/<\/table>/p" rep.html >row &&
	test_grep "<td class=\"name\">mytest.ms</td>" row &&
	# the KPI chart is the first chart, and it is mytest.ms
	sed -n "/^The KPI, /,/^\[/p" rep/report.txt | grep -q "^ *mytest.ms\$"
'

test_expect_success 'none regressed: the most significant improvement leads' '
	two_settings "kpi: {mytest.ms: higher, mytest.score: higher}" imp head &&
	perfsift --result-root imp report mytest=base mytest=head >out &&
	test_grep "^Subject: \[perfsift\] aaaa1111 (mytest=head): mytest.score +200.0% improvement\$" out
'

test_expect_success 'never an undeclared stat or a monitor stat, however much it moved' '
	! grep -q "^Subject: .*\(mytest.other\|time\.\)" out &&
	perfsift --result-root imp compare --all mytest=base mytest=head >all &&
	test_grep "+99900.0%.*mytest.other\$" all &&
	test_grep "mytest.time.elapsed_time\$" all
'

test_expect_success 'nothing moved: the first declared KPI leads, unchanged' '
	printf "testcase: tiny\nkpi: {mytest.ms: lower, mytest.score: higher}\nmytest:\n  mytest: base\nmonitors: none\n" >job.yaml &&
	perfsift --result-root same run job.yaml -n 3 --commit aaaa1111 -- ./bench.sh >out &&
	perfsift --result-root same run job.yaml -n 3 --commit aaaa1111 \
		--set mytest.mytest=again -- ./bench.sh >out &&
	perfsift --result-root same report mytest=base mytest=again >out &&
	test_grep "^Subject: \[perfsift\] aaaa1111 (mytest=again): mytest.ms +0.0% unchanged\$" out
'

# runs of testcase tc declaring $1 under $2/<run>: tc.a and tc.b values $3, $4
runs_of () {
	i=0 &&
	for v in 1 2 3; do
		mkdir -p "$2/$i" &&
		printf "testcase: tc\ncommit: %s\ntbox_group: box\n%s\n" "$(basename "$2")" "$1" >"$2/$i/job.yaml" &&
		echo "{\"tc.a\": $(echo "$3" | cut -d, -f$v), \"tc.b\": $(echo "$4" | cut -d, -f$v)}" >"$2/$i/stats.json" &&
		i=$((i + 1)) || return 1
	done
}

test_expect_success 'nothing decided: the first declared leads, undecided, not the larger change' '
	g=noisy/tc/p/box/r/k/c &&
	runs_of "kpi: {tc.b: higher, tc.a: higher}" $g/aaaa "10,30,20" "10,14,12" &&
	runs_of "kpi: {tc.b: higher, tc.a: higher}" $g/bbbb "20,100,60" "12,16,14" &&
	perfsift compare $g/aaaa $g/bbbb >out &&
	test_grep "^? undecided: .* tc.a " out &&
	test_grep "^? undecided: .* tc.b " out &&
	perfsift report $g/aaaa $g/bbbb >out &&
	test_grep "^Subject: \[perfsift\] bbbb: tc.b +16.7% undecided\$" out &&
	test_grep "^The KPI, tc.b:\$" out
'

test_done
