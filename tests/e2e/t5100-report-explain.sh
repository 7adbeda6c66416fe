#!/bin/sh
# t5100: the report's "what explains it" list: ranked by the size of the
# change on a log scale weighted by its significance (a fall to 1%
# outranks a rise to 6x), one row per alias (`time.*` beside
# `<testcase>.time.*`, numa_hit/numa_local, one symbol's perf-profile
# rows), no `[unknown]` symbols and no stats missing on a side.  The
# fixture is the report test data with fixed stats added to both groups'
# matrix.json: nothing here depends on the machine.
. "$(dirname "$0")/lib.sh"

# add NAME BASE HEAD: five equal-ish runs of NAME to each side ("-" none)
add() {
	if [ "$2" != - ]; then
		sed -i "1s/^{/{ \"$1\": [$2, $2, $2, $2, $2],/" base/matrix.json || return 1
	fi
	if [ "$3" != - ]; then
		sed -i "1s/^{/{ \"$1\": [$3, $3, $3, $3, $3],/" head/matrix.json || return 1
	fi
}

# vary NAME: make NAME's five runs differ a little (a real stddev)
vary() {
	for s in base head; do
		python3 - "$s/matrix.json" "$1" <<'PY' || return 1
import json, sys
p, name = sys.argv[1], sys.argv[2]
m = json.load(open(p))
m[name] = [v * (1 + 0.002 * (i - 2)) for i, v in enumerate(m[name])]
json.dump(m, open(p, "w"), indent=2)
PY
	done
}

test_expect_success 'setup: the report groups plus fixed stats' '
	cp -R "$TESTDATA/report/base" base && cp -R "$TESTDATA/report/head" head &&
	add proc-vmstat.pgmajfault 10000 100 &&
	add proc-vmstat.pgfree 1000000 6000000 &&
	add perf-profile.calltrace.cycles-pp.clear_page_erms.clear_huge_page.do_huge_pmd_anonymous_page 10 40 &&
	add perf-profile.children.cycles-pp.clear_page_erms 11 41 &&
	add perf-profile.self.cycles-pp.clear_page_erms 9 39 &&
	add "perf-profile.self.cycles-pp.[unknown]" 1 30 &&
	add "perf-profile.children.cycles-pp.[unknown]" 1 30 &&
	add proc-vmstat.numa_hit 1000000 3000000 &&
	add proc-vmstat.numa_local 1000000 3000000 &&
	for s in proc-vmstat.pgmajfault proc-vmstat.pgfree \
		perf-profile.calltrace.cycles-pp.clear_page_erms.clear_huge_page.do_huge_pmd_anonymous_page \
		perf-profile.children.cycles-pp.clear_page_erms \
		perf-profile.self.cycles-pp.clear_page_erms \
		"perf-profile.self.cycles-pp.[unknown]" \
		"perf-profile.children.cycles-pp.[unknown]" \
		proc-vmstat.numa_hit proc-vmstat.numa_local; do
		vary "$s" || return 1
	done &&
	perfsift report base head >out &&
	grep "^ *[0-9][0-9]*\.  *[-+][0-9.]*%  " out >ranked &&
	cat ranked
'

# rank NAME: NAME's place in the ranked list (empty when absent)
rank() {
	grep -F "  $1  (" ranked | sed -n "s/^ *\([0-9]*\)\. .*/\1/p"
}

test_expect_success 'a fall to 1% outranks a rise to 6x' '
	fall=$(rank proc-vmstat.pgmajfault) && rise=$(rank proc-vmstat.pgfree) &&
	test -n "$fall" && test -n "$rise" &&
	test "$fall" -lt "$rise" &&
	test "$fall" -eq 1
'

test_expect_success 'one row per perf-profile symbol, none for [unknown]' '
	test "$(grep -c "perf-profile\.[a-z.-]*clear_page_erms" ranked)" -eq 1 &&
	! grep -F "[unknown]" ranked
'

test_expect_success 'numa_hit and numa_local are one row' '
	test "$(grep -c "proc-vmstat\.numa_\(hit\|local\)  (" ranked)" -eq 1
'

# few added stats, so that both time.system_time aliases and a stat one
# side lacks would rank in the top 10 if they were allowed
test_expect_success 'setup: the report groups with a stat on one side only' '
	mkdir few && cd few &&
	cp -R "$TESTDATA/report/base" base && cp -R "$TESTDATA/report/head" head &&
	add proc-vmstat.thp_fault_alloc - 500000 &&
	add proc-vmstat.pgsteal_kswapd 800000 - &&
	cd .. &&
	perfsift report few/base few/head >few.out &&
	grep "^ *[0-9][0-9]*\.  *[-+][0-9.]*%  " few.out >few.ranked &&
	cat few.ranked
'

test_expect_success 'time.* and <testcase>.time.* are one row, neither the KPI' '
	perfsift compare --all --stat time.system_time few/base few/head >t &&
	test_grep "^ .*  time.system_time\$" t &&
	test_grep "^ .*  vm-scalability.time.system_time\$" t &&
	# the time monitor is no KPI: the benchmark figure leads
	test_grep "^The KPI, vm-scalability.throughput:" few.out &&
	test "$(grep -c "  \(vm-scalability\.\)\{0,1\}time\.system_time  (" few.ranked)" -eq 1
'

test_expect_success 'stats missing on a side explain nothing' '
	perfsift compare --all --stat proc-vmstat.pgsteal few/base few/head >m &&
	test_grep "pgsteal_kswapd" m &&
	test -s few.ranked &&
	! grep "thp_fault_alloc\|pgsteal_kswapd" few.ranked
'

test_expect_success 'the HTML list is the same list' '
	perfsift report base head --html page.html >/dev/null &&
	sed -n "/<section id=\"explain\">/,/<\/section>/p" page.html >ex &&
	test "$(grep -c "<li>" ex)" -eq "$(grep -c "^ *[0-9][0-9]*\. " ranked)" &&
	! grep -F "[unknown]" ex
'

test_done
