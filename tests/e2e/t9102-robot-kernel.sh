#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t9102: the robot on a kernel tree (issue 24, docs/kernel.md's robot
# section).  The repository is scripts/build-test-kernel's (Debian's
# linux-source-6.1, then six small commits; the fourth puts a busy loop
# into getppid()); the robot watches a bare clone of it: main at the
# tree, feature/slow at the six commits, feature/same at the tree plus a
# README line.  Its repo entry has `kernel: arch/x86/boot/bzImage` and a
# build command that makes tinyconfig plus the test config once, then
# bzImage; the job is will-it-scale's getppid1 in the VM, as t6200's.
# One `robot --once`: the slow head is judged changed, bisected (the
# steps build incrementally in the robot's worktree) and mailed, the
# Subject naming the culprit by 10 hex digits; the harmless head mails
# nothing.
# Status (session 10, 2 December): written and run once by hand from
# 19:38 UTC beside t6200 and other sessions' suites (load 8-16): setup
# ok; the robot's fetch and checkout took 4 min, its first, full kernel
# build (nice 10) 19:42-20:16, some 33 min at load 10-16; then the
# harmless head (feature/same, a README line) ran to its 20 pairs
# without a verdict by 20:22 -- its runs 0.55-2.4 M ops, one of them
# 14.8 k (a 1 s run stalled under TCG, as low as the slowdown's kernel)
# -- and feature/slow was not reached when this was committed.  Not yet
# seen passing; t6200's failure (a good commit undecided under TCG
# noise: docs/kernel.md) applies to the robot's bisect too.
. "$(dirname "$0")/lib.sh"

# Opt-in, as t6200 and for the same reason (the same variable): the
# robot's own worktree starts empty, so its first build is the whole
# tinyconfig kernel (614 s here at load 2-10, 2 December), then the
# bisect under TCG: far more than CI has left.
if [ "${PERFSIFT_TEST_KERNEL_BISECT:-}" != 1 ]; then
	test_skip 'the robot on a kernel tree' 'opt-in (PERFSIFT_TEST_KERNEL_BISECT=1): a full kernel build in the robot'"'"'s worktree and a bisect under TCG take some 30 min, more than CI has left'
	test_done
fi

. "$SRCDIR/tests/e2e/lib-kernel.sh"
. "$SRCDIR/tests/e2e/lib-robot.sh"

# the cached repository (made once, under build-test-kernel's own lock);
# the robot only reads it (a bare clone sharing its objects), and its
# worktree is its own, below this test's result root: t6200's lock on the
# cached worktree is not needed, and both may run at once
need_test_kernel 'the robot on a kernel tree'

test_expect_success 'setup: a bare clone with main, feature/slow and feature/same' '
	git clone -q --bare --shared "$repo" up.git &&
	git -C up.git update-ref refs/heads/main "$good" &&
	git -C up.git update-ref refs/heads/feature/slow "$bad" &&
	# a README line on the tree: nothing the kernel is built from
	GIT_INDEX_FILE=$PWD/same.index git -C up.git read-tree "$good" &&
	{ git -C up.git show "$good:README"; echo "A harmless line."; } >README.same &&
	blob=$(git -C up.git hash-object -w "$PWD/README.same") &&
	GIT_INDEX_FILE=$PWD/same.index git -C up.git update-index --cacheinfo "100644,$blob,README" &&
	tree=$(GIT_INDEX_FILE=$PWD/same.index git -C up.git write-tree) &&
	same=$(echo "README: a harmless line" | GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org \
		GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org \
		git -C up.git commit-tree "$tree" -p "$good") &&
	git -C up.git update-ref refs/heads/feature/same "$same" &&
	cat >job.yaml <<-\EOT &&
	suite: will-it-scale
	testcase: will-it-scale
	runtime: 1s
	nr_task: 1
	kpi: {will-it-scale.per_process_ops: higher}
	will-it-scale:
	  mode: process
	  test: getppid1
	EOT
	cat >robot.yaml <<-CFG
	repos:
	  - name: linux
	    url: $PWD/up.git
	    base: main
	    branches: [feature/*]
	    build: "test -e .config || make -s tinyconfig perfsift.config; nice make -s -j2 bzImage"
	    kernel: arch/x86/boot/bzImage
	jobs:
	  - job: $PWD/job.yaml
	    runs: 3
	    max_runs: 20
	    bisect_max_runs: 20
	mail:
	  to: dev@example.org
	  from: perfsift <perfsift@example.org>
	  mbox: $PWD/sent.mbox
	CFG
'

test_expect_success 'robot --once: the slow head is bisected and mailed, naming the culprit' '
	start=$(date +%s) &&
	robot_once log1 &&
	echo "# the pass took $(($(date +%s) - start)) s, load $(cut -d" " -f1-3 /proc/loadavg)" &&
	test_grep "^first bad commit: $culprit kernel/sys.c: getppid" log1 &&
	test "$(mails sent.mbox)" -eq 1 &&
	check_mbox sent.mbox &&
	test_grep "^Subject: \[perfsift\] \[linux/feature/slow\] $(echo "$culprit" | cut -c1-10): will-it-scale.per_process_ops -[0-9.]*% regression" sent.mbox
'

test_expect_success 'the harmless head mails nothing and is no regression' '
	perfsift robot --config robot.yaml --status >status &&
	cat status &&
	test_grep "^linux/feature/slow .* regression " status &&
	! grep "^linux/feature/same .* \(regression\|improvement\|error\) " status &&
	! grep -s "feature/same" sent.mbox
'

test_done
