#!/bin/sh
# t6200: bisect a real kernel branch.  scripts/build-test-kernel makes a
# git repository of Debian's linux-source-6.1 (the tree, then six small
# commits; the fourth puts a busy loop into getppid()) and builds its
# tinyconfig kernel once in the worktree bisect builds in.  `perfsift
# bisect --kernel arch/x86/boot/bzImage` then builds each commit there
# (incrementally) and runs will-it-scale's getppid1 on it in a VM: the
# culprit is found and confirmed, and a commit whose build makes no
# kernel is skipped.  The test runs wherever qemu and the kernel's build
# tools are; the kernels are cached (PERFSIFT_KTREE_CACHE, else
# ~/.cache/perfsift/kernel) with the worktree and every commit's image
# kept, so the second build of a CI run (the sanitizer's) builds nothing.
. "$(dirname "$0")/lib.sh"

# Opt-in (PERFSIFT_TEST_KERNEL_BISECT=1), because it does not fit in CI:
# CI (.ci/run) is both builds' `make check` on a clean clone in under 30
# minutes, and the two take some 8 + 13 now.  This test alone is the
# kernel tree on a clean machine (linux-source fetched, unpacked and
# committed, then a full tinyconfig build: 12 min here on 2 December,
# 614 s of it the build, at load 2-10) and the bisect itself under TCG
# (14.6 min on 1 December; some 40 boots and 3-4 incremental builds):
# more than the 9 minutes left, in either build (docs/kernel.md).
#
# What is known of its failures (session 9, 2 December): a run that fails
# on a commit with complete runs is retried (BISECT_RUN_RETRIES, t6008);
# the guest's "IO-APIC + timer doesn't work!" panic under load is
# avoided: no_timer_check on the guest's command line skips that boot
# check (t3400 checks it is there); notes a killed bisect left in the cached --worktree are no
# longer read (t6010), so this test's own `rm` below is a belt only.
# Under load a good commit stayed "undecided" for all its 20 runs (mended
# in session 11, below).  Run by hand from 16:08 UTC at load 12-25, the cached tree
# and images reused (nothing rebuilt): the culprit 98b1e8a1e605 was
# "bad" on 3 runs, but its parent e4d7f7807c47 and 768bb1e3a800 were
# each "vs good undecided, vs bad changed" after 20 runs (good's own
# runs spread 0.26-1.9 M ops), "the same as good" never shown; the run
# was stopped at 16:5x, 44.6 min in, on the third such commit -- no
# culprit can be named while its parent is not judged good.  On a quiet
# machine a step decides on its first 3 pairs (docs/kernel.md).
# Again by hand in session 10 (2 December, load 6.9-13.8): not ok 1 the
# same way.  Why: good's runs spread 0.53-2.63 M ops (sd 36% of the
# mean), so after 20 pairs the 99% interval of e4d7 vs good was
# [-20.9%, +53.8%], and "the same as good" needed it within a LINEAR
# half step, +-48.7% (the step is -97.5%): the upper end failed, though
# in logs the interval lies at -0.12..+0.06 of the way to bad.
# Mended in session 11 (issue 24): a commit is decided by the side of
# the midpoint in logs of the ratio, whatever compare's verdicts
# (bisect_decide_sides, src/bisect/step_verdict.c; docs/kernel-bisect.md
# has the rule's error rates re-measured).  Run by hand twice on
# 3 December, load 5-7, the cached tree: ok 1-3 both times, in 6.3 and
# 4.5 min; e4d7f7807c47 was good on its 4th triplet while "vs good
# undecided, vs bad changed" (the old rule's dead end), the culprit bad
# on its 3rd, confirmed -97.5%.  The old rule's binary, run right after
# (load 7-9), passed too but needed 10 triplets for e4d7: this test's
# failure needs a loaded host; test_decide_sides (test_bisect.c) pins
# the rule itself.  Session 12, the rule's final form (both comparisons
# agree), the cached tree: ok 1-3 in 2.0 min idle and in 3.5 min beside
# a busy loop on each core.
if [ "${PERFSIFT_TEST_KERNEL_BISECT:-}" != 1 ]; then
	test_skip 'bisect a kernel branch' 'opt-in (PERFSIFT_TEST_KERNEL_BISECT=1): a clean machine'"'"'s kernel tree and the bisect under TCG take some 25 min, more than CI has left'
	test_done
fi

. "$SRCDIR/tests/e2e/lib-kernel.sh"

if ! perfsift run --help 2>&1 | grep -q -- '--kernel'; then
	test_skip 'bisect a kernel branch' 'perfsift run has no --kernel in this build'
	test_done
fi
# the kernel, its repository and the built worktree; only a download
# that fails (no archive reachable) is a reason to skip, loudly
need_test_kernel 'bisect a kernel branch'
kcache=$KTREE_CACHE
# one user of the cached worktree at a time
exec 8>"$kcache/bisect.lock"
flock 8

cat >job.yaml <<'EOF'
suite: will-it-scale
testcase: will-it-scale
runtime: 1s
nr_task: 1
will-it-scale:
  mode: process
  test: getppid1
EOF

# the bisect's own notes from an earlier, interrupted run are not ours
rm -f "$kcache/bisect/log" "$kcache/bisect/confirm"

# The budget is the test's own, not bisect's default (which may grow to
# the ~120 runs a noisy job needs): 20 runs a commit, at most 60 boots a
# step (3 a triplet).  The planted busy loop makes getppid() some 50
# times slower, decided on a step's first 3 pairs on a quiet machine;
# under load (13 here) one TCG run in a few is itself 10-20 times slower,
# and a good commit then took more than 8 runs to be "the same as good":
# at --max-runs 8 it was undecided, and the culprit a range of two.
kbisect() {
	perfsift bisect --repo "$repo" --good "$good" --bad "$bad" \
		--build "$1" --kernel arch/x86/boot/bzImage \
		--worktree "$kcache/bisect" --keep-worktree \
		--stat will-it-scale.per_process_ops -n 2 --max-runs 20 \
		job.yaml >out 2>err
}

test_expect_success 'bisect --kernel names the getppid() commit and confirms it' '
	kbisect "make -s -j2 bzImage" &&
	test_grep "^first bad commit: $culprit kernel/sys.c: getppid" out &&
	test_grep "^confirmation: confirmed" out &&
	test_grep "^  change: -[0-9.]*% (interleaved ABAB)" out
'

test_expect_success 'every run booted its own commit: the samples are in the result root' '
	for c in "$good" "$bad" "$culprit"; do
		n=$(perfsift results "commit=$c" | grep -c "will-it-scale") &&
		test "$n" -ge 1 || return 1
	done
'

test_expect_success 'the worktree and each commit'"'"'s kernel are kept (--keep-worktree)' '
	test -f "$worktree/arch/x86/boot/bzImage" &&
	# a kept kernel is <sha>-<hash of --kernel and --build> (K2,
	# docs/attack-5.md): one for the one --kernel and --build used here
	ls "$kcache/bisect/kernels/$culprit"-* >kept &&
	ls "$kcache/bisect/kernels/$good"-* >>kept &&
	test "$(wc -l <kept)" = 2 &&
	while read -r k; do test -f "$k" || return 1; done <kept &&
	test "$(git -C "$repo" rev-parse HEAD)" = "$(git -C "$repo" rev-parse bad)"
'

test_done
