#!/bin/sh
# shellcheck disable=SC1091,SC2016,SC2034
# t1012: every value of a job is checked once, by its type and range in
# the program table (src/job/programs.c), before anything is split, installed
# or run: one message `FILE:LINE: KEY: what is wrong`, exit status 2, and
# nothing written -- the same from split, install and run.  Also `perfsift
# help keys`, which prints that table.
. "$(dirname "$0")/lib.sh"

# a fake machine: the job's sysctls are looked up under it
mkdir -p sysroot/proc/sys/vm &&
echo 0 >sysroot/proc/sys/vm/overcommit_memory
PERFSIFT_SYSROOT=$PWD/sysroot
export PERFSIFT_SYSROOT

# refused NAME 'MESSAGE' < job text: split, install and run all refuse it
refused() {
	mkdir -p in "work-$1" &&
	cat >"in/$1.yaml" &&
	printf '%s\n' "$2" >expect &&
	(cd "work-$1" && test_must_fail --status=2 perfsift split -o out "../in/$1.yaml" >../out 2>../err) &&
	test_cmp expect err &&
	test_cmp /dev/null out &&
	test -z "$(ls -A "work-$1")" &&
	(cd "work-$1" && test_must_fail --status=2 perfsift --result-root root run "../in/$1.yaml" >../out 2>../err) &&
	printf 'perfsift run: %s\n' "$2" >expect &&
	test_cmp expect err &&
	test_cmp /dev/null out &&
	test -z "$(ls -A "work-$1")" &&
	(cd "work-$1" && test_must_fail --status=2 perfsift install "../in/$1.yaml" >../out 2>../err) &&
	printf 'perfsift install: %s\n' "$2" >expect &&
	test_cmp expect err &&
	test -z "$(ls -A "work-$1")"
}

cmd='mytest:
  cmdline: "true"'

test_expect_success 'a monitor interval that is not a duration' '
	printf "suite: x\nvmstat:\n  interval: abc\n%s\n" "$cmd" |
	refused interval-abc "../in/interval-abc.yaml:3: vmstat.interval: '\''abc'\'' is not a duration (e.g. 300 or 300s)"
'

test_expect_success 'a negative monitor interval' '
	printf "suite: x\nproc-vmstat:\n  interval: -1\n%s\n" "$cmd" |
	refused interval-neg "../in/interval-neg.yaml:3: proc-vmstat.interval: '\''-1'\'' is not a duration (e.g. 300 or 300s)"
'

test_expect_success 'a zero monitor interval (a busy loop)' '
	printf "suite: x\nmeminfo:\n  interval: 0\n%s\n" "$cmd" |
	refused interval-zero "../in/interval-zero.yaml:3: meminfo.interval: '\''0'\'' is out of range (0.01 to 86400)"
'

test_expect_success 'an interval too large for the sampler clock (vmstat: {interval: 1e30})' '
	printf "suite: x\nvmstat: {interval: 1e30}\n%s\n" "$cmd" |
	refused interval-huge "../in/interval-huge.yaml:2: vmstat.interval: '\''1e30'\'' is out of range (0.01 to 86400)"
'

test_expect_success 'a perf-profile window too large for its clock' '
	printf "suite: x\nperf-profile:\n  delay: 1e30\n%s\n" "$cmd" |
	refused pp-delay "../in/pp-delay.yaml:3: perf-profile.delay: '\''1e30'\'' is out of range (0 to 10000000)" &&
	printf "suite: x\nperf-profile:\n  period: 1e30\n%s\n" "$cmd" |
	refused pp-period "../in/pp-period.yaml:3: perf-profile.period: '\''1e30'\'' is not a whole number (not an integer)" &&
	printf "suite: x\nruntime: 1e30\nperf-profile:\n%s\n" "$cmd" |
	refused pp-runtime "../in/pp-runtime.yaml:2: runtime: '\''1e30'\'' is out of range (0 to 10000000)"
'

test_expect_success 'a bare unknown name is an unknown program, not an environment variable' '
	printf "suite: x\nnosuchmon:\n%s\n" "$cmd" |
	refused bare-unknown "../in/bare-unknown.yaml:2: nosuchmon: unknown program (not a benchmark, monitor or setup program perfsift knows; a plain job key needs a value); no plug-in nosuchmon/ in ../in/programs (the job'\''s directory)" &&
	printf "suite: x\nvmstatt:\n%s\n" "$cmd" |
	refused bare-typo "../in/bare-typo.yaml:2: vmstatt: unknown program (did you mean '\''vmstat'\''?); no plug-in vmstatt/ in ../in/programs (the job'\''s directory)"
'

test_expect_success 'an unknown plain key with a value is still an environment variable' '
	printf "suite: x\nnosuchkey: 1\n%s\n" "$cmd" >plain.yaml &&
	perfsift split -o plain plain.yaml >printed &&
	test_grep "^nosuchkey: 1$" plain/plain-true.yaml
'

test_expect_success 'a sysctl this machine does not have' '
	printf "suite: x\nsysctl:\n  sc_overcommit_memory: 1\n  sc_no_such_knob: 1\n%s\n" "$cmd" |
	refused no-knob "../in/no-knob.yaml:4: sysctl.sc_no_such_knob: no such sysctl under $PERFSIFT_SYSROOT/proc/sys"
'

test_expect_success 'vm-scalability.mem: a negative share of memory' '
	printf "suite: x\nvm-scalability:\n  test: anon-r-seq\n  mem: -10%%\n" |
	refused mem-neg "../in/mem-neg.yaml:4: vm-scalability.mem: '\''-10%'\'' is out of range (1% to 100%)"
'

test_expect_success 'an empty testcase' '
	printf "suite: x\ntestcase: \"\"\n%s\n" "$cmd" |
	refused testcase-empty "../in/testcase-empty.yaml:2: testcase: '\'''\'' must not be empty"
'

test_expect_success 'split and run agree: testcase is one value, not a list' '
	printf "suite: x\ntestcase: [1, 2]\n%s\n" "$cmd" |
	refused testcase-list "../in/testcase-list.yaml:2: testcase: expected one value, not a list (testcase is not a matrix dimension)"
'

test_expect_success 'a top-level key read as the option of the job'\''s program' '
	printf "suite: x\ntest: anon-bogus\nvm-scalability:\n" |
	refused flat-test "../in/flat-test.yaml:2: test: '\''anon-bogus'\'' is not a case of vm-scalability (the cases: docs/lkp-compat.md)"
'

test_expect_success 'types of the other programs: count range, enum, bool' '
	printf "suite: x\ndrop_caches: 4\n%s\n" "$cmd" |
	refused drop4 "../in/drop4.yaml:2: drop_caches: '\''4'\'' is out of range (1 to 3)" &&
	printf "suite: x\ntransparent_hugepage:\n  thp_enabled: alwayz\n%s\n" "$cmd" |
	refused thp "../in/thp.yaml:3: transparent_hugepage.thp_enabled: '\''alwayz'\'' is not one of always, madvise, never" &&
	printf "suite: x\nvm-scalability:\n  test: anon-r-seq\n  sync_rw: maybe\n" |
	refused bool "../in/bool.yaml:4: vm-scalability.sync_rw: '\''maybe'\'' is not a bool (1/0, true/false, yes/no, on/off, or '\''sync_rw'\'')" &&
	printf "suite: x\nvm-scalability:\n  test: anon-r-seq\n  nr_task: [2, 0]\n" |
	refused cpus "../in/cpus.yaml:4: vm-scalability.nr_task: '\''0'\'' is out of range (1 to 1048576)"
'

test_expect_success 'a bad value in a later document: the merged job names its line' '
	printf "suite: x\nvm-scalability:\n  test: anon-r-seq\n---\nvm-scalability:\n  size: 1Q\n" |
	refused late "../in/late.yaml:6: vm-scalability.size: '\''1Q'\'' is not a size (not a size (use a number with K, M, G or T); e.g. 4096, 512M, 16G)"
'

test_expect_success '--set values are checked by the same table' '
	printf "suite: x\n%s\n" "$cmd" >ok.yaml &&
	test_must_fail --status=2 perfsift --result-root set-root run ok.yaml --set vmstat.interval=0 >out 2>err &&
	echo "perfsift run: --set: vmstat.interval: '\''0'\'' is out of range (0.01 to 86400)" >expect &&
	test_cmp expect err &&
	! test -e set-root
'

test_expect_success 'good values of every type pass' '
	cat >good.yaml <<-EOF &&
	suite: x
	testcase: good
	runtime: 5m
	timeout: 0
	nr_threads: 50%
	vmstat:
	  interval: 0.5
	perf-stat:
	  interval_ms: 500
	sysctl:
	  sc_overcommit_memory: 1
	transparent_hugepage:
	  thp_enabled: [always, never]
	drop_caches: 3
	vm-scalability:
	  test: anon-r-seq
	  nr_task: [1, 100%]
	  mem: 10%
	  size: 16G
	  cpu_delay: 10u
	  sync_rw: true
	EOF
	perfsift split -o good good.yaml >printed &&
	test_line_count() { test "$(wc -l <"$2")" -eq "$1"; } &&
	test_line_count 4 printed
'

test_expect_success 'help keys PROGRAM: every option with its type and default' '
	perfsift help keys vm-scalability >out &&
	test_grep "^vm-scalability (benchmark): " out &&
	for o in runtime nr_task test size unit_size fs pre_setup sync_rw \
		 bind_cpu repeat cpu_delay sync_free timed_wp mem allow_oom; do
		test_grep "^  $o  *[a-z|%]" out || return 1
	done &&
	test_grep "^  runtime  *seconds  *0\.\.10000000  *300 " out &&
	test_grep "^  nr_task  *cpus  *100% " out &&
	test_grep "^  mem  *size|%mem " out
'

test_expect_success 'help keys: the top-level keys and every program'\''s' '
	perfsift help keys >out &&
	for k in runtime nr_task nr_threads testcase timeout thp_enabled cmdline interval "sc_<name>:"; do
		test_grep "^  $k " out || return 1
	done &&
	test_grep "^mytest (benchmark): " out &&
	test_grep "^vmstat (monitor): " out &&
	test_grep "^sysctl (setup): " out &&
	! test_grep "^time " out
'

test_expect_success 'help keys NOSUCH: exit 2' '
	test_must_fail --status=2 perfsift help keys nosuch 2>err &&
	test_grep "'\''nosuch'\'' is not a program" err
'

test_done
