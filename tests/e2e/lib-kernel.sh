# lib-kernel.sh: the kernels the VM tests boot, got one way.  Two kinds:
# - Debian's cloud kernels for the `run --kernel` tests (t34xx), through
#   scripts/get-kernel: downloaded once per machine into
#   /var/cache/perfsift/kernels (or $PERFSIFT_KERNEL_CACHE) and reused
#   (need_kernel);
# - the test kernel tree of scripts/build-test-kernel (linux-source-6.1,
#   six small commits, a tinyconfig build), for the kernel bisect (t6200),
#   the lab's VM worker (t9210) and bench/kernel-step.sh (need_test_kernel,
#   test_kernel).
# A script that cannot get one skips LOUDLY, naming why; nothing else is
# a reason to skip.  Needs $SRCDIR (lib.sh sets it; a bench/ script sets
# it itself) and, for need_*, lib.sh's test_skip.
#
# The accelerator: here /dev/kvm opens but a KVM guest hangs in early
# boot, so the tests use TCG unless PERFSIFT_VM_ACCEL says otherwise (a
# machine whose KVM works runs them with PERFSIFT_VM_ACCEL=kvm).
: "${PERFSIFT_VM_ACCEL:=tcg}"
export PERFSIFT_VM_ACCEL
KERNEL_CACHE=${PERFSIFT_KERNEL_CACHE:-/var/cache/perfsift/kernels}
# build-test-kernel's cache (its default, named here because t6200 works
# in it too: the lock and the bisect's worktree)
KTREE_CACHE=${PERFSIFT_KTREE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perfsift/kernel}

# kernel_abis: the cloud kernels to use, oldest first -- those already
# cached (no network needed), else those apt knows of
kernel_abis() {
	cached=$(for d in "$KERNEL_CACHE"/6.1.0-*-cloud-amd64; do
			 [ -d "$d" ] && basename "$d"
		 done | sort -t- -k2,2n)
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

# kernel_release IMAGE: the release (uname -r) of a Debian kernel image
kernel_release() {
	basename "$1" | sed 's/^vmlinuz-//'
}

# test_kernel ENVFILE: scripts/build-test-kernel's kernel (built once per
# cache, then reused; its progress on stderr), its facts in ENVFILE and in
# image, repo, worktree, good, bad and culprit; fails as the script does
test_kernel() {
	"$SRCDIR/scripts/build-test-kernel" --cache "$KTREE_CACHE" >"$1" || return
	image=$(sed -n 's/^image=//p' "$1")
	repo=$(sed -n 's/^repo=//p' "$1")
	worktree=$(sed -n 's/^worktree=//p' "$1")
	good=$(sed -n 's/^good=//p' "$1")
	bad=$(sed -n 's/^bad=//p' "$1")
	culprit=$(sed -n 's/^culprit=//p' "$1")
}

# need_test_kernel WHAT: test_kernel into kernel.env, else skip the script
# (qemu missing; Debian's archive unreachable: the test WHAT cannot run)
# or fail it (any other build error, shown)
need_test_kernel() {
	if ! command -v qemu-system-x86_64 >/dev/null 2>&1; then
		test_skip "$1" 'qemu-system-x86_64 is not installed (scripts/install-deps)'
		test_done
	fi
	if ! test_kernel kernel.env 2>kernel.err; then
		if grep -q 'apt-get download' kernel.err; then
			test_skip "$1" "Debian's archive cannot be reached: $(tail -1 kernel.err)"
			test_done
		fi
		cat kernel.err >&2
		echo "not ok - scripts/build-test-kernel failed"
		exit 1
	fi
}

# the one run directory (or file) a run of testcase $1 made: its path
run_dir() {
	find "$PERFSIFT_RESULT_ROOT/$1" -name job.yaml -path "*/$2/job.yaml" | head -n 1 |
		xargs dirname
}
