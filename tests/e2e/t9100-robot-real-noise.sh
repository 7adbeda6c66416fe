#!/bin/sh
# shellcheck disable=SC2016
# t9100: the robot on real work under real noise, at its DEFAULT
# settings (no runs:, no max_runs: in the config).  A small C program
# of the test's own (a checksum over a buffer, a fixed amount of work,
# printing its throughput: the time it took, not a figure it was told)
# is built by the robot at each commit; a CPU hog runs on each core
# beside it for the whole test, started here.  feature/slow's 4th of 6
# commits does 10 mixing steps a byte where the others do 7 (throughput
# x 0.7: 30% slower); feature/same's two commits change comments only.
# Expected: the slowdown is mailed once, naming the 4th commit; the
# harmless branch mails nothing.  Nothing in it depends on the
# machine's speed: the figures are whatever the runs measure, and only
# the verdicts are checked.  The head test pairs base and head runs by
# their start times (docs/detection.md) and bisect's steps are paired
# triplets; the robot's judgement gave compare each run's own start time
# only since session 8 (robot/verdict.c keep_columns: before, a shared base's
# runs for the second head took the start times of its first ones and
# the slow head was judged on "24 + 30 unpaired runs").
# Measured on the 2-core box with only the test's two hogs beside it
# (session 9, idle otherwise): one pass bisects and mails the 4th commit
# (-30.5%; good 210 pooled runs, bad 115), about 60 s in all, twice;
# with two more hogs beside it (four busy loops on two cores), 84 s,
# passing too.  On a box loaded by other work as well (load 20-24 in session 9) the slow head's
# runs spread by about 40% and it can stay undecided at max_runs 30:
# then nothing is mailed, which is the rule (undecided is never an
# answer), and these checks fail.  The Subject names the culprit by 10
# hex digits (report_short_commit), as every robot mail does.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-robot.sh"

if ! command -v cc >/dev/null 2>&1; then
	test_skip 'the robot under real noise' 'no C compiler (cc) to build the benchmark'
	test_done
fi

# In the ASan build the robot's own work (perfsift instrumented, several
# times slower) shares the two cores with the benchmark and the hogs, and
# in CI on 2 December the slow head stayed undecided there (no mail):
# the three bisect checks are known breakages in that build only; the
# plain build must pass them
expect_bisect=test_expect_success
if ldd "$PERFSIFT" 2>/dev/null | grep -q libasan; then
	expect_bisect=test_expect_failure
fi

# the hogs: one busy loop a core, bounded in time, stopped at the end
HOGS=
start_hogs() {
	for _ in 1 2; do
		timeout 900 sh -c 'while :; do :; done' &
		HOGS="$HOGS $!"
	done
}
stop_hogs() {
	for p in $HOGS; do kill "$p" 2>/dev/null; done
	HOGS=
}
trap 'stop_hogs; cd /; rm -rf "$TEST_TMP"' EXIT

# write_prog FILE ROUNDS: the benchmark's source with ROUNDS steps a byte
write_prog() {
	cat >"$1" <<PROG
/* prog.c: t9100's benchmark -- a checksum over a buffer, ROUNDS mixing
 * steps a byte, a fixed amount of work; prints its throughput */
#include <stdio.h>
#include <time.h>

#define ROUNDS $2
#define BUF (64 * 1024)
#define PASSES 48

int main(void)
{
	static unsigned char buf[BUF];
	struct timespec a, b;
	unsigned h = 2166136261u;
	double s;
	int p, i, r;

	for (i = 0; i < BUF; i++)
		buf[i] = (unsigned char)(i * 131 + 7);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (p = 0; p < PASSES; p++)
		for (i = 0; i < BUF; i++)
			for (r = 0; r < ROUNDS; r++)
				h = (h ^ buf[i]) * 16777619u + (unsigned)r;
	clock_gettime(CLOCK_MONOTONIC, &b);
	s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	printf("MBps: %.2f\\n", (double)BUF * PASSES / 1e6 / s);
	/* the result, so that the work cannot be left out */
	fprintf(stderr, "checksum %08x\\n", h);
	return 0;
}
PROG
}

test_expect_success 'setup: main, feature/slow (4th of 6 commits 30% slower), feature/same' '
	git init -q -b main up &&
	write_prog up/prog.c 7 &&
	echo prog >up/.gitignore &&
	commit up "prog: a checksum benchmark" &&
	git -C up checkout -q -b feature/slow &&
	for i in 1 2 3 4 5 6; do
		if [ "$i" -ge 4 ]; then write_prog up/prog.c 10; fi &&
		echo "/* step $i */" >>up/prog.c &&
		commit up "slow: step $i" || return 1
	done &&
	git -C up checkout -q -b feature/same main &&
	for i in 1 2; do
		echo "/* a harmless comment $i */" >>up/prog.c &&
		commit up "same: comment $i" || return 1
	done &&
	git -C up checkout -q main &&
	printf "testcase: robot-noise\nkpi: {mytest.MBps: higher}\nmytest:\n  cmdline: ./prog\n" >job.yaml &&
	cat >robot.yaml <<CFG
repos:
  - name: demo
    url: $PWD/up
    base: main
    branches: [feature/*]
    build: cc -O2 -o prog prog.c
jobs:
  - job: job.yaml
mail:
  to: dev@example.org
  from: perfsift <perfsift@example.org>
  mbox: $PWD/sent.mbox
CFG
'

$expect_bisect 'beside a hog on each core: one pass mails the 4th commit, once' '
	start_hogs &&
	robot_once log1 >/dev/null &&
	c4=$(git -C up rev-parse feature/slow~2) &&
	test_grep "^first bad commit: $c4 slow: step 4\$" log1 &&
	test "$(mails sent.mbox)" -eq 1 &&
	test_grep "^Subject: \[perfsift\] \[demo/feature/slow\] $(echo $c4 | cut -c1-10): mytest.MBps -[0-9.]*% regression" sent.mbox &&
	test_grep "demo/feature/slow [0-9a-f]*: changed, judged on [0-9]* base and [0-9]* head runs made interleaved (ABAB)" log1
'

test_expect_success 'the harmless branch mails nothing and is not a regression' '
	perfsift robot --config robot.yaml --status >status &&
	cat status &&
	! grep "^demo/feature/same .* \(regression\|improvement\|error\) " status &&
	! grep -s "feature/same" sent.mbox
'

$expect_bisect 'the slow branch stands as a regression in --status' '
	test_grep "^demo/feature/slow .* regression " status
'

$expect_bisect 'the next pass mails nothing more' '
	robot_once log2 >/dev/null &&
	test "$(mails sent.mbox)" -eq 1 &&
	stop_hogs
'

test_done
