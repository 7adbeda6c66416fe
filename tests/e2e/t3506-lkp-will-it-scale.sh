#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3506: LKP's own will-it-scale job files, unchanged, through perfsift's
# built-in will-it-scale: jobs/will-it-scale/will-it-scale.yaml names 60
# testcases and every one is perfsift's (split makes its 60 atomic jobs);
# will-it-scale-part1.yaml (brk2, fallocate2, futex3, futex4 among its 11,
# as processes and threads) and part2's two documents run, each atomic
# job in its own group with will-it-scale's stats.  runtime is cut to
# 0.2 s a job, as lkp-run-jobs cuts it to 1 s.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-lkp.sh"
. "$SRCDIR/tests/e2e/lib-programs.sh"

test_expect_success "will-it-scale.yaml: all 60 of LKP's testcases are known" '
	perfsift split --lkp-src "$LKP" -o split "$LKP/jobs/will-it-scale/will-it-scale.yaml" >out &&
	test $(ls split | wc -l) -eq 60 &&
	for c in brk2 fallocate2 futex3 futex4 lock2 open3 pthread_mutex1 pthread_mutex5 \
		read3 read4 readseek1 readseek3 writeseek1 writeseek3; do
		test -f "split/will-it-scale-$c.yaml" || return 1
	done
'

test_expect_success "will-it-scale-part1.yaml: 22 groups, each with its ops" '
	perfsift run --lkp-src "$LKP" --set runtime=0.2 \
		"$LKP/jobs/will-it-scale/will-it-scale-part1.yaml" >out 2>err ||
		{ cat err; false; } &&
	lkp_runs will-it-scale >runs &&
	test $(wc -l <runs) -eq 22 &&
	sed "s,^$PERFSIFT_RESULT_ROOT/will-it-scale/,,; s,/.*,," runs | sort -u >groups &&
	test $(wc -l <groups) -eq 22 &&
	for c in brk1 brk2 context_switch1 dup1 eventfd1 fallocate1 fallocate2 \
		futex1 futex2 futex3 futex4; do
		stat_positive "$(grep "/process-100%-0.2-$c/" runs)" will-it-scale.per_process_ops &&
		stat_positive "$(grep "/thread-100%-0.2-$c/" runs)" will-it-scale.per_thread_ops ||
			return 1
	done
'

test_expect_success "will-it-scale-part2.yaml: both documents run (23 atomic jobs)" '
	rm -rf "$PERFSIFT_RESULT_ROOT" &&
	perfsift run --lkp-src "$LKP" --set runtime=0.2 \
		"$LKP/jobs/will-it-scale/will-it-scale-part2.yaml" >out 2>err ||
		{ cat err; false; } &&
	lkp_runs will-it-scale >runs &&
	test $(wc -l <runs) -eq 23 &&
	for c in lock2 open3; do
		stat_positive "$(grep "/thread-100%-0.2-$c/" runs)" will-it-scale.per_thread_ops ||
			return 1
	done &&
	# the second document: its run is there with its stat (a 128 MiB
	# malloc may take longer than 0.2 s on a loaded or sanitized build)
	test -n "$(stat_value "$(grep "/process-100%-0.2-malloc1/" runs)" will-it-scale.per_process_ops)"
'

test_done
