#!/bin/sh
# t6004: good and bad that do not differ: a clear refusal with the
# numbers, exit status 2, nothing bisected.  The program's 3% noise comes
# from a seeded generator, so the samples (and the refusal) are the same
# at every run of the test.  Each run waits a second, so that the few
# milliseconds of CPU a start-up takes (more on a loaded machine) stay
# under 1% and mytest.time.percent_of_cpu_this_job_got is 0 at every run:
# an integer of 1 to 4 there, varying with the load and with no LKP
# threshold, made good and bad "differ" now and then.
. "$(dirname "$0")/lib.sh"
BISECT_MS=1000
. "$SRCDIR/tests/e2e/lib-bisect.sh"

if ! have_runner; then
	test_skip 'bisect refuses' 'perfsift run is not in this build'
	test_done
fi

test_expect_success 'setup: 10 commits, no change, 3% noise' '
	make_repo repo 10 99 3 &&
	write_job job.yaml
'

test_expect_success 'bisect --stat refuses with the medians, exit 2' '
	{ bisect --good c1 --bad c10 --stat mytest.run_ms -n 2 \
		--max-runs 4 job.yaml -- ./prog; test $? -eq 2; } &&
	cat err &&
	test_grep "do not differ significantly in .mytest.run_ms." err &&
	test_grep "good .*: median .* (4 runs)" err &&
	test_grep "bad .*: median .* (4 runs)" err &&
	! grep -q "^bisect: \[" err &&
	! test -s out
'

test_expect_success 'without --stat: no stat differs, the largest changes shown' '
	{ bisect --good c1 --bad c10 -n 2 --max-runs 4 job.yaml -- ./prog;
	  test $? -eq 2; } &&
	cat err &&
	test_grep "do not differ significantly in any of [0-9]* bisectable stats" err &&
	test_grep "^  mytest\\.[a-z_.]*: good median .*, bad median .*, q " err &&
	! grep -q "^bisect: \[" err &&
	! test -s out
'

test_expect_success 'a stat the job does not have' '
	test_must_fail --status=2 perfsift bisect --repo repo --good c1 \
		--bad c10 --build "sh build.sh" --stat no.such.stat \
		job.yaml -- ./prog 2>err &&
	test_grep "no.such.stat. is not in the results" err
'

test_done
