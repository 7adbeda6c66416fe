# lib-kernel.sh: real kernels for the `run --kernel` tests (t34xx), from
# Debian's archive through scripts/get-kernel: downloaded once per machine
# into /var/cache/perfsift/kernels (or $PERFSIFT_KERNEL_CACHE) and reused.
# A script that cannot get one skips LOUDLY, naming why; nothing else is
# a reason to skip.
#
# The accelerator: here /dev/kvm opens but a KVM guest hangs in early
# boot, so the tests use TCG unless PERFSIFT_VM_ACCEL says otherwise (a
# machine whose KVM works runs them with PERFSIFT_VM_ACCEL=kvm).
: "${PERFSIFT_VM_ACCEL:=tcg}"
export PERFSIFT_VM_ACCEL
KERNEL_CACHE=${PERFSIFT_KERNEL_CACHE:-/var/cache/perfsift/kernels}

# kernel_abis: the cloud kernels to use, oldest first -- those already
# cached (no network needed), else those apt knows of
kernel_abis() {
	cached=$(ls "$KERNEL_CACHE" 2>/dev/null | grep -E '^6\.1\.0-[0-9]+-cloud-amd64$' |
		 sort -t- -k2,2n)
	if [ "$(echo "$cached" | grep -c .)" -ge 2 ]; then
		echo "$cached"
	else
		"$SRCDIR/scripts/get-kernel" --list | sed 's/^linux-image-//'
	fi
}

# need_kernel VAR first|last: VAR=the vmlinuz path, or skip the script
need_kernel() {
	case "$2" in
	first) abi=$(kernel_abis | head -n 1) ;;
	*) abi=$(kernel_abis | tail -n 1) ;;
	esac
	if ! command -v qemu-system-x86_64 >/dev/null || ! [ -x /bin/busybox ]; then
		echo "# SKIP: qemu-system-x86 or busybox-static missing: run scripts/install-deps" >&2
		test_skip 'kernels in a VM' 'qemu-system-x86 or busybox-static is not installed (scripts/install-deps)'
		test_done
	fi
	if [ -z "$abi" ] ||
	   ! img=$("$SRCDIR/scripts/get-kernel" "$abi" "$KERNEL_CACHE" 2>"$TEST_TMP/get-kernel.err"); then
		echo "# SKIP: no Debian kernel: $(cat "$TEST_TMP/get-kernel.err" 2>/dev/null)" >&2
		test_skip 'kernels in a VM' "Debian's archive cannot be reached for a linux-image-*-cloud-amd64 ($abi)"
		test_done
	fi
	eval "$1=\$img"
}

# the one run directory (or file) a run of testcase $1 made: its path
run_dir() {
	find "$PERFSIFT_RESULT_ROOT/$1" -name job.yaml -path "*/$2/job.yaml" | head -n 1 |
		xargs dirname
}
