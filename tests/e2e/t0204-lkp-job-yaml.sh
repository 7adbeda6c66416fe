#!/bin/sh
# t0202: a run's job.yaml as LKP's robot writes it -- programs and keys
# perfsift does not know (_id, LKP_SERVER, a program of LKP's only) -- is read
# leniently: its stats_part window still applies and its parameters
# (top-level keys and the unknown programs' options) still select the
# run.  A job.yaml that is not YAML is named once.
. "$(dirname "$0")/lib.sh"

R=$PERFSIFT_RESULT_ROOT
G="$R/stress-ng/100%-60s-forkheavy/lkp-tbox/debian-12-x86_64-20240206.cgz/x86_64-rhel-9.4/gcc-12/0123456789abcdef0123456789abcdef01234567"

test_expect_success 'an LKP run: its job.yaml names programs perfsift does not know' '
	mkdir -p "$G/0" &&
	cp "$TESTDATA/lkp-run/job.yaml" "$G/0/job.yaml" &&
	printf "lkp-only-program:\n  knob: 7\n" >>"$G/0/job.yaml" &&
	cp "$TESTDATA/lkp-generated/meminfo/1" "$G/0/meminfo" &&
	test_must_fail perfsift split -o split "$G/0/job.yaml" 2>err &&
	test_grep "lkp-only-program: unknown program" err &&
	test_must_fail grep -q "stress-ng: unknown\|oom-killer: unknown" err
'

# meminfo/1 has 4 samples, 1 s apart: stats_part_begin: 2 keeps the last two
test_expect_success 'stats uses its stats_part window' '
	perfsift stats --all 2>err &&
	test_must_fail test -s err &&
	test_grep "\"meminfo.MemFree\": 23538866.0," "$G/0/stats.json"
'

test_expect_success 'its parameters select the run' '
	perfsift results nr_threads=100% >out &&
	test_grep "0123456789abcdef0123456789abcdef01234567  1 run$" out &&
	perfsift results testtime=60s,stats_part_begin=2 >out &&
	test_grep "0123456789abcdef0123456789abcdef01234567  1 run$" out &&
	perfsift results test=forkheavy,knob=7 >out &&
	test_grep "0123456789abcdef0123456789abcdef01234567  1 run$" out &&
	perfsift results --params >out &&
	test_grep "^    nr_threads=100%$" out
'

test_expect_success 'a job.yaml that is not YAML: named once, the run still counts' '
	printf "suite: [unclosed\n" >"$G/0/job.yaml" &&
	perfsift stats --all >out 2>err &&
	test_grep "job.yaml.*not used: no stats_part window" err &&
	test "$(grep -c "job.yaml" err)" -eq 1 &&
	test_grep "\"meminfo.MemFree\": 23621459.0," "$G/0/stats.json"
'

test_done
