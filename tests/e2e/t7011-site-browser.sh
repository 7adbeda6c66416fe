#!/bin/sh
# t7011: the site in a real browser: Debian's chromium, headless, offline.
# The index's DOM after its script ran (every row, the count, filters
# #only= and #filter=, sorting #sort=-change), a group page's chart (one
# hover column per commit, every run drawn, the change point marked) and
# the report it links to; the list of regressions and the commit labels
# of the x axis; a screenshot of each (PERFSIFT_SCREENSHOT_DIR
# keeps them).
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-browser.sh"

if ! browser_available; then
	test_skip 'the site in headless chromium' 'chromium is not installed (scripts/install-deps)'
	test_done
fi

test_expect_success 'setup: three groups, 20 commits, steps in two' '
	cat >bench.sh <<-\EOT &&
	#!/bin/sh
	n=$(cat seq 2>/dev/null || echo 0); n=$((n + 1)); echo $n >seq
	noise=$(( (n * 7919) % 11 - 5 ))
	lvl=$(cat level)
	case "$mytest" in
	slow) lvl=$((lvl / 2 + 400));;
	flat) lvl=700;;
	esac
	echo "score: $((lvl + noise))"
	echo "latency_ms: $((20000 / lvl))"
	EOT
	chmod +x bench.sh &&
	printf "testcase: mytest\nmytest:\n  mytest: fast\n" >job.yaml &&
	for i in $(seq 10 29); do
		if [ "$i" -lt 22 ]; then echo 1000 >level; else echo 800 >level; fi &&
		for m in fast slow flat; do
			perfsift run job.yaml -n 3 --commit "c$i" --set "mytest.mytest=$m" -- ./bench.sh >/dev/null || return 1
		done
	done &&
	perfsift site -o site >out &&
	rows=$(grep -c "<tr data-index=" site/index.html) &&
	test "$rows" -ge 6 && echo "$rows" >rows
'

test_expect_success 'the index loads: every row, its sparkline, the script ran' '
	chrome --dump-dom "file://$TEST_TMP/site/index.html" >dom.html &&
	rows=$(cat rows) &&
	test "$(grep -o "<tr data-index=" dom.html | wc -l)" -eq "$rows" &&
	test "$(grep -o "<svg class=\"spark\"" dom.html | wc -l)" -eq "$rows" &&
	test_grep "$rows of $rows KPIs shown" dom.html
'

test_expect_success 'the list of regressions: rendered, its links, the axis labels' '
	chrome --dump-dom "file://$TEST_TMP/site/index.html#only=improvement" >domr.html &&
	grep "<tr class=\"reg\">" domr.html >reg &&
	test "$(wc -l <reg)" -ge 1 &&
	test_grep "<code>c22</code></td><td><code>c21</code>" reg &&
	test_grep "latency_ms" reg &&
	for page in $(grep -o "href=\"group-[0-9]*\.html\"" reg | cut -d\" -f2); do
		test -f "site/$page" || return 1
	done &&
	page=$(grep -l "._bench.sh-fast" site/group-*.html) &&
	chrome --dump-dom "file://$TEST_TMP/$page" >ga.html &&
	test_grep "fill=\"#c0392b\">c22</text>" ga.html &&
	test_grep ">c10</text>" ga.html && test_grep ">c29</text>" ga.html
'

test_expect_success 'filters: only regressions, then by name' '
	chrome --dump-dom "file://$TEST_TMP/site/index.html#only=regression" >dom2.html &&
	shown=$(grep -o "<tr data-index=[^>]*>" dom2.html | grep -v hidden | grep -c "data-effect=\"regression\"") &&
	test "$shown" -ge 1 &&
	test "$(grep -o "<tr data-index=[^>]*>" dom2.html | grep -v hidden | grep -vc "data-effect=\"regression\"")" -eq 0 &&
	test_grep "$shown of $(cat rows) KPIs shown" dom2.html &&
	chrome --dump-dom "file://$TEST_TMP/site/index.html#filter=sh-flat" >dom3.html &&
	# a row is one line: its tag, then the group and KPI names
	test "$(grep "<tr data-index=" dom3.html | grep -v hidden | grep -vc "sh-flat")" -eq 0 &&
	test "$(grep "<tr data-index=" dom3.html | grep -v hidden | grep -c "sh-flat")" -ge 1 &&
	test "$(grep "<tr data-index=" dom3.html | grep -c hidden)" -ge 1
'

test_expect_success 'sorting: the largest latest change first' '
	chrome --dump-dom "file://$TEST_TMP/site/index.html#sort=-change" >dom4.html &&
	grep -o "data-change=\"[^\"]*\"" dom4.html | cut -d\" -f2 >changes &&
	sort -g -r changes >sorted &&
	test_cmp sorted changes &&
	test "$(head -1 changes)" != 0
'

test_expect_success 'a group page: the chart, the change point, the report link' '
	page=$(grep -l "._bench.sh-fast" site/group-*.html) &&
	chrome --dump-dom "file://$TEST_TMP/$page" >g.html &&
	test "$(grep -o "<rect x=" g.html | wc -l)" -ge 40 &&
	test "$(grep -o "<g class=\"cp\">" g.html | wc -l)" -ge 1 &&
	test_grep "<path class=\"runs\"" g.html &&
	n=$(grep -c "<section class=\"kpi\"" "$page") &&
	test_grep "$n of $n KPIs shown" g.html &&
	chrome --dump-dom "file://$TEST_TMP/$page#filter=score" >g2.html &&
	test_grep "1 of $n KPIs shown" g2.html &&
	report=$(grep -o "href=\"report-[0-9-]*\.html\"" g.html | head -1 | cut -d\" -f2) &&
	chrome --dump-dom "file://$TEST_TMP/site/$report" >r.html &&
	test_grep "<tr data-index=" r.html
'

test_expect_success 'screenshots of the index and a group page' '
	page=$(grep -l "._bench.sh-fast" site/group-*.html) &&
	chrome --window-size=1280,900 --screenshot="$TEST_TMP/index.png" "file://$TEST_TMP/site/index.html" >/dev/null &&
	chrome --window-size=1280,1400 --screenshot="$TEST_TMP/group.png" "file://$TEST_TMP/$page" >/dev/null &&
	test -s index.png && test -s group.png &&
	if [ -n "${PERFSIFT_SCREENSHOT_DIR:-}" ]; then cp index.png group.png "$PERFSIFT_SCREENSHOT_DIR"; fi
'

test_done
