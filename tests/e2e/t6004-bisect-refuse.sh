#!/bin/sh
# t6004: good and bad that do not differ: a clear refusal with the
# numbers, exit status 2.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-bisect.sh"

if ! have_runner; then
	test_skip 'bisect refuses' 'perfsift run is not in this build'
	test_done
fi

test_expect_success 'setup: 10 commits, no change' '
	make_repo repo 10 99 &&
	write_job job.yaml
'

test_expect_success 'bisect --stat refuses with the medians, exit 2' '
	refuse_bisect --repo repo --good c1 \
		--bad c10 --build "sh build.sh" --stat mytest.time.elapsed_time \
		--max-runs 4 job.yaml -- ./prog &&
	cat err &&
	test_grep "do not differ significantly in .mytest.time.elapsed_time." err &&
	test_grep "good .*: median .* (4 runs)" err &&
	test_grep "bad .*: median .* (4 runs)" err &&
	! test -s out
'

test_expect_success 'without --stat: no stat differs, the largest changes shown' '
	refuse_bisect --repo repo --good c1 \
		--bad c10 --build "sh build.sh" --max-runs 4 job.yaml -- ./prog &&
	cat err &&
	test_grep "do not differ significantly in any of [0-9]* stats" err &&
	test_grep "mytest.time.*good median" err &&
	! grep -q "^bisect: \[" err
'

test_expect_success 'a stat the job does not have' '
	test_must_fail --status=2 perfsift bisect --repo repo --good c1 \
		--bad c10 --build "sh build.sh" --stat no.such.stat \
		job.yaml -- ./prog 2>err &&
	test_grep "no.such.stat. is not in the results" err
'

test_done
