#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3202: perfsift run of fio as LKP's fio-basic -- the task file from the
# job's keys (fixed work: a file size to read, no time_based), fio's
# JSON in the raw file after LKP's log line, LKP's stat names.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-programs.sh"

if ! command -v fio >/dev/null; then
	test_skip 'fio runs' 'fio is not installed: scripts/install-deps'
	test_done
fi

test_expect_success 'the quick job, reading an 8 MiB file once' '
	perfsift run "$SRCDIR/jobs/fio-quick.yaml" -n 1 --set runtime=600 \
		--set fio.time_based=0 --set fio.test_size=8M >out 2>err &&
	d=$(run_dirs fio-basic) && test -n "$d" &&
	echo "$d" >dir
'

test_expect_success 'LKP stats: bandwidth, iops, latency, workload' '
	d=$(cat dir) &&
	stat_positive "$d" fio.read_bw_MBps &&
	stat_positive "$d" fio.read_iops &&
	stat_positive "$d" fio.read_clat_mean_ns &&
	test "$(stat_value "$d" fio.write_iops)" = 0 &&
	test "$(stat_value "$d" fio.workload)" = 2048 &&
	has_default_monitors "$d"
'

test_expect_success "the raw file: LKP's log of the task, then fio's JSON" '
	d=$(cat dir) &&
	head -n 1 "$d/fio" | grep -q "^echo .\\[global\\]" &&
	grep -q "^rw=randread$" "$d/fio" &&
	grep -q "^numjobs=1$" "$d/fio" &&
	grep -q "^size=8388608$" "$d/fio" &&
	grep -q "\"jobs\"" "$d/fio"
'

test_done
