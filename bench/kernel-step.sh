#!/bin/sh
# kernel-step.sh: the wall time of one `bisect --kernel` step on the test
# kernel tree (scripts/build-test-kernel): the incremental build after a
# one-file change (git checkout of the next commit, then make bzImage, as
# bisect does in its one worktree), and one run of the job in the VM
# (boot included), each ROUNDS times, alternating the two commits that
# differ in kernel/sys.c; prints each figure and the median and range.
#
#     sh bench/kernel-step.sh [ROUNDS]        (3)
#
# It builds in the cached worktree (as the bisect test does) and leaves it
# at the culprit.  PERFSIFT_VM_ACCEL as for `perfsift run --kernel`
# (tcg here).  The job is t6200's: will-it-scale getppid1, 1 s, 1 task.
set -eu

rounds=${1:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
ps=${PERFSIFT:-$here/build/perfsift}
# the tests' kernels (the accelerator's default, the cache, the build)
SRCDIR=$here
# shellcheck source=tests/e2e/lib-kernel.sh
. "$here/tests/e2e/lib-kernel.sh"
tmp=$(mktemp -d /tmp/perfsift-kstep.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
test_kernel "$tmp/kernel.env"
cat >"$tmp/job.yaml" <<'EOF'
suite: will-it-scale
testcase: will-it-scale
runtime: 1s
nr_task: 1
will-it-scale:
  mode: process
  test: getppid1
EOF
now() { date +%s.%N; }
# median and range of the numbers on stdin
stats() { sort -n | awk '{v[NR]=$1} END {m = NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2;
	printf "median %.1f s  [%.1f - %.1f]  (%d)\n", m, v[1], v[NR], NR}'; }

echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
parent=$(git -C "$repo" rev-parse "$culprit^")
git -C "$worktree" checkout -q --force --detach "$parent"
make -C "$worktree" -s -j2 bzImage >/dev/null
i=0
while [ "$i" -lt "$rounds" ]; do
	for c in "$culprit" "$parent"; do
		t0=$(now)
		git -C "$worktree" checkout -q --force --detach "$c"
		make -C "$worktree" -s -j2 bzImage >/dev/null
		t1=$(now)
		cp "$worktree/arch/x86/boot/bzImage" "$tmp/bzImage"
		"$ps" --result-root "$tmp/r" run --commit "$c" --kernel "$tmp/bzImage" \
			"$tmp/job.yaml" >/dev/null 2>&1
		t2=$(now)
		echo "$t1 - $t0" | bc >>"$tmp/build"
		echo "$t2 - $t1" | bc >>"$tmp/run"
		printf '%.12s build %.1f s, boot+run %.1f s\n' "$c" \
			"$(tail -1 "$tmp/build")" "$(tail -1 "$tmp/run")"
	done
	i=$((i + 1))
done
echo "incremental build (kernel/sys.c changed): $(stats <"$tmp/build")"
echo "one run in the VM (boot included):         $(stats <"$tmp/run")"
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
