#!/bin/sh
# t2002: LKP mode's noise guard (below 10 runs a stat LKP's rules select
# must also pass a moderated t at p < 0.001) and --lkp-exact, which turns
# it off and gives LKP's own selection.
. "$(dirname "$0")/lib.sh"

SEED=$TESTDATA/compare/seed
BASE=$SEED/v4.6-rc2
HEAD=$SEED/5f155ea5ab62b5321aa7315de62d21da59aa8c65

rows () {
	sed -n "/^             \\\\/,\$p" "$1" | sed 1d | sed "/^\$/d" | awk "{print \$NF}" | sort
}

test_expect_success '--lkp-exact selects what LKP selects on the seed (4 runs)' '
	perfsift compare --lkp-exact "$BASE" "$HEAD" >exact &&
	rows exact >exact.rows &&
	cat >expect <<-\EOT &&
	cpuidle.C1-HSW.usage
	cpuidle.C1E-HSW.time
	numa-meminfo.node0.Active
	numa-meminfo.node0.Active(anon)
	numa-vmstat.node0.nr_active_anon
	perf-profile.cycles-pp.get_page_from_freelist.__alloc_pages_nodemask.alloc_pages_current.pte_alloc_one.do_huge_pmd_anonymous_page
	perf-profile.cycles-pp.update_curr.task_tick_fair.scheduler_tick.update_process_times.tick_sched_handle
	time.system_time
	turbostat.CPU%c6
	vm-scalability.time.system_time
	EOT
	test_cmp expect exact.rows
'

test_expect_success 'the default drops the rows whose change is within the noise' '
	perfsift compare "$BASE" "$HEAD" >guarded &&
	rows guarded >guarded.rows &&
	cat >expect <<-\EOT &&
	cpuidle.C1E-HSW.time
	perf-profile.cycles-pp.get_page_from_freelist.__alloc_pages_nodemask.alloc_pages_current.pte_alloc_one.do_huge_pmd_anonymous_page
	time.system_time
	turbostat.CPU%c6
	vm-scalability.time.system_time
	EOT
	test_cmp expect guarded.rows &&
	head -12 exact >expect.head &&
	head -12 guarded >actual.head &&
	test_cmp expect.head actual.head
'

test_expect_success '--json reports the guard and its p for the rows LKP selected' '
	perfsift compare --json "$BASE" "$HEAD" >out.json &&
	test_grep "\"noise_guard\": {\"test\": \"min(moderated-t, welch)\", \"level\": 0.001, \"below_runs\": 10}" out.json &&
	test "$(grep -c "\"p_guard\": [0-9]" out.json)" -eq 5 &&
	perfsift compare --json --lkp-exact "$BASE" "$HEAD" >exact.json &&
	test_grep "\"noise_guard\": null" exact.json &&
	test "$(grep -c "\"stat\": " exact.json)" -eq 10 &&
	! grep -q "\"p_guard\": [0-9]" exact.json
'

test_expect_success '--help documents the guard and --lkp-exact' '
	perfsift compare --help >help &&
	test_grep "^      --lkp-exact" help &&
	test_grep "moderated t-test" help
'

test_done
