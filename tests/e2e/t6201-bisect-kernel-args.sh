#!/bin/sh
# t6201: bisect --kernel without a VM: its usage errors, and a commit
# whose build leaves no kernel at PATH is skipped with a warning naming
# the path (here the good endpoint, so the bisect cannot start and says
# so).  t6200 is the bisect of a real kernel in a VM.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-bisect.sh"

if ! have_runner; then
	test_skip 'bisect --kernel' 'perfsift run is not in this build'
	test_done
fi

test_expect_success 'setup: 4 commits' '
	make_repo repo 4 3 &&
	write_job job.yaml
'

test_expect_success '--kernel with an empty path: usage error, exit 2' '
	test_must_fail --status=2 perfsift bisect --repo repo --good c1 --bad c4 \
		--kernel "" job.yaml 2>err &&
	test_grep "kernel needs the image.s path in the worktree" err
'

test_expect_success 'bisect-step refuses --kernel and --keep-worktree (255)' '
	test_must_fail --status=255 perfsift bisect-step --stat s --good-value 1 \
		--bad-value 2 --kernel x job.yaml 2>err &&
	test_grep "kernel" err &&
	test_must_fail --status=255 perfsift bisect-step --stat s --good-value 1 \
		--bad-value 2 --keep-worktree job.yaml 2>err &&
	test_grep "keep-worktree" err
'

test_expect_success 'a build that leaves no kernel: the commit is skipped, saying where' '
	test_must_fail bisect --good c1 --bad c4 --kernel arch/x86/boot/bzImage \
		--stat mytest.run_ms -n 1 job.yaml -- ./prog &&
	test_grep "warning: [0-9a-f]*: the build made no kernel .*/wt0/arch/x86/boot/bzImage.; skipping the commit" err &&
	test "$(runs_of "$(git -C repo rev-parse c1)")" -eq 0
'

test_done
