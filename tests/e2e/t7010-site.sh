#!/bin/sh
# t7010: `perfsift site -o DIR` on a root made by `perfsift run`: two
# groups (two settings), 16 commits each, a step in one; index.html lists
# both groups' KPIs with sparklines, each group has its page with a chart
# per KPI and the change point's report of its two sides; markup in a
# parameter is escaped; every page carries the CSP and names no address;
# bad usage and an empty selection write nothing.
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup: two settings, 16 commits, a step in one' '
	cat >bench.sh <<-\EOT &&
	#!/bin/sh
	n=$(cat seq 2>/dev/null || echo 0); n=$((n + 1)); echo $n >seq
	noise=$(( (n * 7919) % 11 - 5 ))
	lvl=$(cat level)
	[ "$mytest" = slow ] && lvl=300
	echo "score: $((lvl + noise))"
	EOT
	chmod +x bench.sh &&
	printf "testcase: mytest\nmytest:\n  mytest: fast\n" >job.yaml &&
	for i in $(seq 10 25); do
		if [ "$i" -lt 19 ]; then echo 1000 >level; else echo 1200 >level; fi &&
		perfsift run job.yaml -n 3 --commit "c$i" -- ./bench.sh >/dev/null &&
		perfsift run job.yaml -n 3 --commit "c$i" --set "mytest.mytest=slow" -- ./bench.sh >/dev/null ||
		return 1
	done
'

test_expect_success 'the site: index, a page per group, the reports' '
	perfsift site -o site >out &&
	test_grep "site/index.html: 2 groups, [0-9]* KPIs, 1 reports" out &&
	test -f site/index.html && test -f site/group-0001.html &&
	test -f site/group-0002.html && test ! -e site/group-0003.html &&
	test "$(ls site/report-*.html | wc -l)" -eq 1 &&
	grep -o "<tr data-index=" site/index.html | wc -l >rows &&
	test "$(cat rows)" -ge 2 &&
	test "$(grep -o "<svg class=\"spark\"" site/index.html | wc -l)" -eq "$(cat rows)" &&
	test_grep "mytest/._bench.sh-fast/vm/debian/defconfig/gcc-12" site/index.html &&
	test_grep "mytest/._bench.sh-slow/vm/debian/defconfig/gcc-12" site/index.html
'

test_expect_success 'the group page: a chart per KPI, the change point, its report' '
	page=$(grep -l "._bench.sh-fast" site/group-*.html) &&
	test_grep "<section class=\"kpi\" data-name=\"mytest.score\">" "$page" &&
	test "$(grep -c "<tr class=\"cp\" data-index=\"9\">" "$page")" -eq 1 &&
	test_grep "<title>9: c19 " "$page" &&
	report=$(grep -o "href=\"report-[0-9-]*\.html\"" "$page" | head -1 | cut -d\" -f2) &&
	test -f "site/$report" &&
	test_grep "c19" "site/$report" &&
	test_grep "mytest.score" "site/$report" &&
	slow=$(grep -l "._bench.sh-slow" site/group-*.html) &&
	test_grep "No change point" "$slow"
'

test_expect_success 'every page: the CSP, no address but the SVG namespace' '
	for f in site/*.html; do
		grep -q "Content-Security-Policy\" content=\"default-src '"'"'none'"'"';" "$f" || { echo "$f: no CSP"; return 1; }
		! sed "s|xmlns=\"http://www.w3.org/2000/svg\"||g" "$f" | grep -q "https\?:" || { echo "$f: an address"; return 1; }
	done
'

test_expect_success 'markup in a stat name and a commit id is escaped' '
	printf "#!/bin/sh\necho \"sc<o>re: 5\"\n" >evil.sh && chmod +x evil.sh &&
	for c in "c<i>\"&1" c2 c3 c4 c5 c6 c7; do
		perfsift run job.yaml -n 1 --commit "$c" -- ./evil.sh >/dev/null || return 1
	done &&
	perfsift site -o site2 >out &&
	! grep -q "sc<o>re\|c<i>" site2/*.html &&
	test_grep "mytest.sc&lt;o&gt;re" site2/index.html &&
	page=$(grep -l "evil.sh" site2/group-*.html) &&
	test_grep "c&lt;i&gt;&quot;&amp;1" "$page"
'

test_expect_success 'selectors: only the groups matching every one' '
	perfsift site -o site3 mytest=slow >out &&
	test_grep "1 groups" out &&
	! grep -q "._bench.sh-fast" site3/index.html
'

test_expect_success 'bad usage and an empty selection write nothing' '
	test_must_fail --status=2 perfsift site 2>err &&
	test_grep "o DIR is required" err &&
	test_must_fail --status=2 perfsift site -o empty mytest=nothing 2>err &&
	test_grep "no KPI values in the groups selected" err &&
	test ! -e empty &&
	test_must_fail --status=2 perfsift site -o empty "a=" 2>err &&
	test ! -e empty
'

test_done
