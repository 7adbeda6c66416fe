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

test_expect_success 'a screenshot can be taken the same way' '
	chrome --window-size=1200,2400 --screenshot="$TEST_TMP/shot.png" \
		"file://$TEST_TMP/page.html" >/dev/null &&
	test -s shot.png &&
	if [ -n "${PERFSIFT_SCREENSHOT:-}" ]; then cp shot.png "$PERFSIFT_SCREENSHOT"; fi
'

test_done
