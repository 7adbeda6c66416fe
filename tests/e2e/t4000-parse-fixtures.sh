#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t4000: `perfsift parse` reproduces LKP's parsers byte for byte on the
# shipped vectors (LKP's spec fixtures and the golden files made by LKP's
# own parsers), except diskstats on 20-field kernels, which perfsift fixes
# on purpose (LKP quirk Q3, docs/lkp-compat.md).
. "$(dirname "$0")/lib.sh"

for m in buddyinfo diskstats interrupts meminfo numa-meminfo numa-numastat \
	numa-vmstat pagetypeinfo proc-vmstat sched_debug slabinfo softirqs vmstat; do
	for want in "$TESTDATA/lkp-generated/$m"/*.yaml; do
		raw=${want%.yaml}
		n=$(basename "$raw")
		[ "$m/$n" = diskstats/1 ] && continue
		test_expect_success "$m/$n (lkp-generated) matches LKP" "
			perfsift parse $m '$raw' >out &&
			test_cmp '$want' out
		"
	done
done

for m in vmstat turbostat perf-stat perf-profile; do
	for want in "$TESTDATA/lkp/stats/$m"/*.yaml; do
		raw=${want%.yaml}
		n=$(basename "$raw")
		test_expect_success "$m/$n (LKP spec fixture) matches LKP" "
			perfsift parse $m '$raw' >out &&
			test_cmp '$want' out
		"
	done
done

# will-it-scale: the built-in benchmark's parser (src/benchmarks/wis_parse.c)
for want in "$TESTDATA/lkp/stats/will-it-scale"/*.yaml; do
	raw=${want%.yaml}
	n=$(basename "$raw")
	test_expect_success "will-it-scale/$n (LKP spec fixture) matches LKP" "
		perfsift parse will-it-scale '$raw' >out &&
		test_cmp '$want' out
	"
done

test_expect_success 'stdin is read when no FILE is given' '
	perfsift parse proc-vmstat <"$TESTDATA/lkp-generated/proc-vmstat/1" >out &&
	test_cmp "$TESTDATA/lkp-generated/proc-vmstat/1.yaml" out
'

test_expect_success 'a gzipped raw file (as LKP stores it) is read' '
	gzip -c "$TESTDATA/lkp-generated/meminfo/1" >meminfo.gz &&
	perfsift parse meminfo meminfo.gz >out &&
	test_cmp "$TESTDATA/lkp-generated/meminfo/1.yaml" out
'

test_expect_success 'diskstats: 20-field lines are parsed (fix of LKP Q3)' '
	perfsift parse diskstats "$TESTDATA/lkp-generated/diskstats/1" >out &&
	test_cmp "$TESTDATA/monitors/diskstats-1.fixed.yaml" out &&
	grep -v "^discard_\|^flush_" out >first11 &&
	test_cmp "$TESTDATA/lkp-generated/diskstats/2.yaml" first11
'

test_expect_success 'turbostat: a header without a summary row gives nothing' '
	printf "Core\tCPU\tAvg_MHz\tBusy%%\n" >ts &&
	perfsift parse turbostat ts >out &&
	test_must_fail test -s out
'

test_expect_success 'an unknown monitor is a usage error' '
	test_must_fail --status=2 perfsift parse no-such-monitor /dev/null 2>err &&
	test_grep "no-such-monitor" err
'

test_expect_success 'a missing file is a runtime error' '
	test_must_fail --status=3 perfsift parse meminfo nonexistent 2>err &&
	test_grep "nonexistent" err
'

test_expect_success '--list names the monitors' '
	perfsift parse --list >out &&
	test_grep "^perf-profile$" out &&
	test_grep "^proc-stat$" out
'

test_done
