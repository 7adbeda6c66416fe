#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3505: LKP's own perf-bench job files, unchanged, through perfsift's
# built-in perf bench: jobs/perf-bench-futex.yaml's `shared: [shared, ""]`
# (LKP's parse_bool: the word is "on", the empty value "off") makes 10
# groups, the shared ones running `--shared`; jobs/perf-bench-mem.yaml's
# LKP keys (op, function) make its 2 groups with LKP's stat names;
# jobs/perf-bench-sched-pipe.yaml's `loops: 10000000ops` is LKP's count
# with its unit (run here with a smaller count written the same way).
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-lkp.sh"
. "$SRCDIR/tests/e2e/lib-programs.sh"

if ! command -v perf >/dev/null; then
	test_skip "LKP's perf-bench jobs" 'perf (linux-perf) is not installed: scripts/install-deps'
	test_done
fi

test_expect_success "jobs/perf-bench-futex.yaml: 10 groups, shared ones run --shared" '
	perfsift run --lkp-src "$LKP" --set runtime=1 "$LKP/jobs/perf-bench-futex.yaml" \
		>out 2>err || { cat err; false; } &&
	lkp_runs perf-bench-futex >runs &&
	test $(wc -l <runs) -eq 10 &&
	sed "s,^$PERFSIFT_RESULT_ROOT/perf-bench-futex/,,; s,/.*,," runs | sort -u >groups &&
	for t in hash lock-pi requeue wake wake-parallel; do
		echo "100%-1-$t" && echo "100%-1-shared-$t" || return 1
	done | sort >expect &&
	test_cmp expect groups &&
	n=$(nproc) &&
	test_grep "perf bench futex wake --threads $n --shared$" \
		"$(grep /100%-1-shared-wake/ runs)/perf-bench-futex" &&
	test_grep "perf bench futex wake --threads $n$" \
		"$(grep /100%-1-wake/ runs)/perf-bench-futex" &&
	test_grep "perf bench futex hash --runtime 1 --threads $n$" \
		"$(grep /100%-1-hash/ runs)/perf-bench-futex" &&
	stat_positive "$(grep /100%-1-shared-hash/ runs)" "perf-bench-futex.ops/s" &&
	stat_positive "$(grep /100%-1-requeue/ runs)" perf-bench-futex.requeued_time_ms
'

test_expect_success "a bool is its own name or a bool word, else FILE:LINE: KEY:, exit 2" '
	printf "suite: f\ntestcase: f\nperf-bench-futex:\n  test: wake\n  shared: sharde\n" >bad.yaml &&
	test_must_fail --status=2 perfsift run bad.yaml 2>err &&
	test_grep "bad.yaml:5: perf-bench-futex.shared: .sharde. is not a bool (1/0, true/false, yes/no, on/off, or .shared.)" err &&
	! test -d "$PERFSIFT_RESULT_ROOT/f"
'

test_expect_success "jobs/perf-bench-mem.yaml: op and function, LKP's stat names" '
	perfsift run --lkp-src "$LKP" "$LKP/jobs/perf-bench-mem.yaml" >out 2>err ||
		{ cat err; false; } &&
	lkp_runs perf-bench-mem >runs &&
	sed "s,^$PERFSIFT_RESULT_ROOT/perf-bench-mem/,,; s,/.*,," runs >groups &&
	printf "%s\n" all-memcpy all-memset >expect &&
	test_cmp expect groups &&
	d=$(grep /all-memset/ runs) &&
	test_grep "perf bench mem memset --function all$" "$d/perf-bench-mem" &&
	grep -q "\"perf-bench-mem\\.memset\\.default\\.[KMG]*B_per_sec\"" "$d/stats.json" &&
	test $(grep -c "\"perf-bench-mem\\.memset\\.[^.]*\\.[KMG]*B_per_sec\"" "$d/stats.json") -ge 2
'

test_expect_success "jobs/perf-bench-sched-pipe.yaml loads; LOOPSops is LOOPS round trips" '
	perfsift split --lkp-src "$LKP" -o split "$LKP/jobs/perf-bench-sched-pipe.yaml" >out &&
	ls split >names &&
	printf "%s\n" perf-bench-sched-pipe-10000000ops-process.yaml \
		perf-bench-sched-pipe-10000000ops-threads.yaml >expect &&
	test_cmp expect names &&
	perfsift run --lkp-src "$LKP" --set perf-bench-sched-pipe.loops=2000ops \
		"$LKP/jobs/perf-bench-sched-pipe.yaml" >out 2>err || { cat err; false; } &&
	lkp_runs perf-bench-sched-pipe >runs &&
	test $(wc -l <runs) -eq 2 &&
	d=$(grep /2000ops-threads/ runs) &&
	test_grep "perf bench sched pipe -l 2000 -T$" "$d/perf-bench-sched-pipe" &&
	stat_positive "$d" perf-bench-sched-pipe.ops_per_sec
'

test_expect_success "a count with another unit is refused: FILE:LINE: KEY:, exit 2" '
	printf "suite: p\ntestcase: p\nperf-bench-sched-pipe:\n  loops: 2000s\n" >bad.yaml &&
	test_must_fail --status=2 perfsift run bad.yaml 2>err &&
	test_grep "bad.yaml:4: perf-bench-sched-pipe.loops: .2000s. is not a whole number" err
'

test_done
