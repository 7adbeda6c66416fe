#!/bin/sh
# t5020: the HTML report in a real browser: Debian's chromium, headless,
# loads the page offline; its DOM (after the page's script ran) holds the
# table rows and the SVG charts, and the #filter=/#sort= address works.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-browser.sh"

B=$TESTDATA/report/base
H=$TESTDATA/report/head

if ! browser_available; then
	test_skip 'the page in headless chromium' 'chromium is not installed (scripts/install-deps)'
	test_done
fi

# dom URL: the DOM after load
dom() {
	chrome --dump-dom "$1"
}

test_expect_success 'the report page loads: rows, charts, script ran' '
	perfsift report "$B" "$H" --html page.html >/dev/null &&
	rows=$(grep -c "<tr data-index=" page.html) &&
	test "$rows" -gt 0 &&
	dom "file://$TEST_TMP/page.html" >dom.html &&
	test "$(grep -o "<tr data-index=" dom.html | wc -l)" -eq "$rows" &&
	test "$(grep -o "<svg xmlns" dom.html | wc -l)" -ge 2 &&
	test_grep "<polyline" dom.html &&
	test_grep "$rows of $rows rows shown" dom.html
'

test_expect_success 'filtering by name hides the other rows' '
	dom "file://$TEST_TMP/page.html#filter=numa-meminfo" >dom2.html &&
	shown=$(grep -o "<tr data-index=\"[0-9]*\" data-change=\"[^\"]*\" data-name=\"[^\"]*\">" dom2.html | grep -c numa-meminfo) &&
	test "$shown" -ge 1 &&
	test_grep "$shown of [0-9]* rows shown" dom2.html &&
	test "$(grep -o "<tr [^>]*hidden" dom2.html | wc -l)" -gt 0
'

test_expect_success 'sorting by change orders the rows' '
	dom "file://$TEST_TMP/page.html#sort=change" >dom3.html &&
	grep -o "data-change=\"[^\"]*\"" dom3.html | cut -d\" -f2 >changes &&
	test "$(wc -l <changes)" -gt 2 &&
	sort -g -r changes >sorted &&
	test_cmp sorted changes
'

# offset FILE PATTERN: the byte offset of PATTERN's first match in FILE
offset() {
	grep -b -o -m1 -- "$2" "$1" | head -n1 | cut -d: -f1
}

test_expect_success 'settings on one commit: the headings name them, the KPI chart leads' '
	cp -R "$B" never && cp -R "$H" always &&
	for r in never/[0-9]* always/[0-9]*; do
		sed -i "s/^commit: .*/commit: v4.6-rc2/" $r/job.yaml &&
		printf "transparent_hugepage:\n  thp_enabled: %s\n" "${r%%/*}" >>$r/job.yaml ||
		return 1
	done &&
	perfsift report never always --html settings.html >/dev/null &&
	dom "file://$TEST_TMP/settings.html" >sdom.html &&
	sed -n "/<table class=\"rows\" id=\"rows\">/,/<\/thead>/p" sdom.html >heads &&
	test_grep "<th class=\"num\">thp_enabled=never</th>" heads &&
	test_grep "<th class=\"num\">thp_enabled=always</th>" heads &&
	! grep -q ">v4.6-rc2</th>" sdom.html &&
	kpi=$(offset sdom.html "<section id=\"kpi\">") &&
	svg=$(offset sdom.html "<svg xmlns") &&
	explain=$(offset sdom.html "<section id=\"explain\">") &&
	table=$(offset sdom.html "<table class=\"rows\" id=\"rows\">") &&
	test -n "$kpi" && test -n "$svg" && test -n "$explain" && test -n "$table" &&
	test "$kpi" -lt "$svg" && test "$svg" -lt "$explain" &&
	test "$explain" -lt "$table" &&
	test "$(sed -n "1,/<table class=\"rows\" id=\"rows\">/p" sdom.html | grep -o "<svg xmlns" | wc -l)" -ge 2 &&
	test_grep "base sample" sdom.html && test_grep "head sample" sdom.html &&
	! grep -q "bisect-" sdom.html
'

test_expect_success 'a screenshot can be taken the same way' '
	chrome --window-size=1200,2400 --screenshot="$TEST_TMP/shot.png" \
		"file://$TEST_TMP/page.html" >/dev/null &&
	test -s shot.png &&
	if [ -n "${PERFSIFT_SCREENSHOT:-}" ]; then cp shot.png "$PERFSIFT_SCREENSHOT"; fi
'

test_done
