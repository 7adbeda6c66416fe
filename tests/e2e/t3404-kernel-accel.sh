#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3404: KVM where it works, TCG where it does not.  Without
# PERFSIFT_VM_ACCEL, a /dev/kvm that opens is probed once (a bounded KVM
# boot of the kernel) and the verdict kept per host kernel; every run says
# in its machine facts which accelerator it had.  Here the probe fails
# (qemu aborts or the guest hangs) and the runs are TCG's; on a machine
# whose KVM works they are KVM's -- the test checks that the facts follow
# the verdict, not which one it is.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-kernel.sh"

need_kernel K last
unset PERFSIFT_VM_ACCEL
PERFSIFT_VM_CACHE=$TEST_TMP/cache
export PERFSIFT_VM_CACHE

cat >acc.yaml <<'EOT'
testcase: kacc
mytest:
  cmdline: "echo ok: 1"
EOT

test_expect_success 'probed once, the verdict kept, each run names its accelerator' '
	perfsift run acc.yaml -n 2 --kernel "$K" --vm-cpus 1 --vm-memory 512M >out 2>err &&
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		test "$(grep -c "^probing KVM with " out)" -eq 1 &&
		v=$(sed -n "s/^host $(uname -r): kvm \([a-z]*\) .*/\1/p" "$PERFSIFT_VM_CACHE/vm-accel") &&
		case "$v" in works) want=kvm ;; fails) want=tcg ;; *) return 1 ;; esac
	else
		! grep -q "^probing KVM" out && want=tcg
	fi &&
	for r in 0 1; do
		test_grep "^env_vm_accel: $want$" "$(run_dir kacc $r)/job.yaml" || return 1
	done &&
	test "$(grep -c "in qemu ($want, 1 CPUs, 512M)" out)" -eq 2
'

test_expect_success 'PERFSIFT_VM_ACCEL=tcg decides without a probe; a bad value is an error' '
	rm -rf "$PERFSIFT_VM_CACHE" &&
	PERFSIFT_VM_ACCEL=tcg perfsift run acc.yaml --kernel "$K" --vm-cpus 1 --vm-memory 512M >out 2>err &&
	! grep -q "^probing KVM" out && ! test -e "$PERFSIFT_VM_CACHE" &&
	test_grep "^env_vm_accel: tcg$" "$(run_dir kacc 2)/job.yaml" &&
	PERFSIFT_VM_ACCEL=xen test_must_fail --status=2 perfsift run acc.yaml --kernel "$K" >out 2>err &&
	test_grep "PERFSIFT_VM_ACCEL=.xen.: kvm or tcg" err &&
	test "$(find "$PERFSIFT_RESULT_ROOT/kacc" -name job.yaml | wc -l)" -eq 3
'

test_done
