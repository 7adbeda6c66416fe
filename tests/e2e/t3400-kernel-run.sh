#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3400: `perfsift run JOB --kernel IMAGE` boots a real Debian kernel in
# qemu, runs the job inside with perfsift's own engine, and stores the run
# in the host's result root as a native run: stats and index, the group
# named by the guest's kernel (uname -r, /proc/version's compiler), the
# console kept as dmesg with its stats, the accelerator in the machine
# facts, the guest's command line the default one (no_timer_check among
# it: docs/kernel.md); `kernel:` in the job does the same, and a host program the job
# runs is put into the guest; a tree build's .config is in its facts
# (never through a link); a file that is not a kernel
# is one clear error with nothing written.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-kernel.sh"

need_kernel K last
REL=$(kernel_release "$K")

cat >quick.yaml <<'EOT'
testcase: kquick
mytest:
  cmdline: "echo score: 42; echo release: $(uname -r | tr -dc 0-9); grep -c processor /proc/cpuinfo"
EOT

test_expect_success 'a quick job in the VM: stats stored, group named by its kernel' '
	perfsift run quick.yaml --kernel "$K" --vm-cpus 1 --vm-memory 512M >out 2>err &&
	test_grep "booting $K in qemu (tcg, 1 CPUs, 512M)" out &&
	test_grep "done in" out &&
	d=$(run_dir kquick 0) &&
	case "$d" in
	*/vm-$(hostname)/debian/defconfig/gcc-12/$REL/0) ;;
	*) echo "group not named by the guest kernel: $d" >&2; return 1 ;;
	esac &&
	test_grep "\"mytest.score\": 42" "$d/stats.json" &&
	test_grep "^1$" "$d/mytest" &&
	test_grep "^commit: $REL$" "$d/job.yaml" &&
	test_grep "^env_vm_accel: tcg$" "$d/job.yaml" &&
	test_grep "^env_kernel_cmdline: console=ttyS0,115200 panic=-1 no_timer_check rdinit=/init$" "$d/job.yaml" &&
	test_grep "^nr_cpu: 1$" "$d/job.yaml" &&
	test_grep "^kernel: $K$" "$d/job.yaml" &&
	test_grep "Linux version $REL" "$d/dmesg" &&
	test_grep "\"dmesg.timestamp:last\": " "$d/stats.json" &&
	perfsift results >res &&
	test_grep "$REL" res
'

# the run's start_time is the host's clock when qemu started (bisect and
# compare pair runs by it), not the guest's when its job began: that one
# comes after the boot, late in the run's wall time, and under TCG on a
# loaded host it lags by tens of seconds, differently each boot
test_expect_success 'start_time: the host'"'"'s, at the start of the boot' '
	before=$(date +%s.%N) &&
	perfsift run quick.yaml --kernel "$K" --vm-cpus 1 --vm-memory 512M >out 2>err &&
	after=$(date +%s.%N) &&
	d=$(run_dir kquick 1) &&
	start=$(cat "$d/start_time") &&
	echo "before $before start $start after $after" &&
	awk -v b="$before" -v s="$start" -v a="$after" \
		"BEGIN { exit !(s >= b && s <= b + (a - b) / 2) }"
'

# a host program the command names (not a busybox applet) goes into the
# guest with its libraries: stress-ng, from scripts/install-deps
test_expect_success 'the job key kernel: (relative to the job file); a host program in the guest' '
	mkdir -p sub && cp "$K" sub/bzImage &&
	cat >sub/keyed.yaml <<-\EOT &&
	testcase: kkeyed
	kernel: bzImage
	mytest:
	  cmdline: "stress-ng --version; echo score: 7"
	EOT
	perfsift run sub/keyed.yaml --vm-cpus 1 --vm-memory 512M >out 2>err &&
	test_grep "booting $TEST_TMP/sub/bzImage" out &&
	d=$(run_dir kkeyed 0) &&
	test_grep "^stress-ng, version " "$d/mytest" &&
	test_grep "\"mytest.score\": 7" "$d/stats.json" &&
	test_grep "^kernel: $TEST_TMP/sub/bzImage$" "$d/job.yaml"
'

# an image built in a tree (TREE/arch/x86/boot/bzImage, as bisect and the
# robot boot it): the tree's .config goes into the guest as
# /boot/config-R, so its fingerprint is in the run's facts -- but never
# through a symbolic or a hard link (a robot build_user's .config -> a
# root-only file would reach a guest that can send it back)
test_expect_success 'a tree build: its .config in the facts, a linked or hard-linked one never' '
	mkdir -p tree/arch/x86/boot &&
	cp "$K" tree/arch/x86/boot/bzImage &&
	printf "CONFIG_PERFSIFT_TEST=y\n" >tree/.config &&
	perfsift run quick.yaml --kernel tree/arch/x86/boot/bzImage --vm-cpus 1 --vm-memory 512M --commit tree1 >out 2>err &&
	d=$(dirname "$(find "$PERFSIFT_RESULT_ROOT/kquick" -path "*/tree1/0/job.yaml")") &&
	test_grep "^env_kconfig_hash: .*(/boot/config-$REL)" "$d/job.yaml" &&
	echo "secret-for-t3400" >secret &&
	rm tree/.config && ln -s "$TEST_TMP/secret" tree/.config &&
	perfsift run quick.yaml --kernel tree/arch/x86/boot/bzImage --vm-cpus 1 --vm-memory 512M --commit tree2 >out 2>err &&
	d=$(dirname "$(find "$PERFSIFT_RESULT_ROOT/kquick" -path "*/tree2/0/job.yaml")") &&
	test_grep "^env_kconfig_hash: unavailable" "$d/job.yaml" &&
	test_grep "tree/.config. is not put in the guest: a symbolic link" err &&
	rm tree/.config && ln secret tree/.config &&
	perfsift run quick.yaml --kernel tree/arch/x86/boot/bzImage --vm-cpus 1 --vm-memory 512M --commit tree3 >out 2>err &&
	d=$(dirname "$(find "$PERFSIFT_RESULT_ROOT/kquick" -path "*/tree3/0/job.yaml")") &&
	test_grep "^env_kconfig_hash: unavailable" "$d/job.yaml" &&
	test_grep "it has 2 names (a hard link)" err &&
	! grep -rq "secret-for-t3400" "$PERFSIFT_RESULT_ROOT"
'

test_expect_success 'not a kernel, a missing image, a VM option alone: exit 2, nothing written' '
	rm -rf "$PERFSIFT_RESULT_ROOT" &&
	test_must_fail --status=2 perfsift run quick.yaml --kernel quick.yaml 2>err &&
	test_grep "quick.yaml: not a Linux kernel image" err &&
	test_must_fail --status=2 perfsift run quick.yaml --kernel nosuch 2>err &&
	test_grep "nosuch: cannot open the kernel image: No such file" err &&
	{ cat quick.yaml; echo "kernel: quick.yaml"; } >bad.yaml &&
	test_must_fail --status=2 perfsift run bad.yaml 2>err &&
	test_grep "bad.yaml:4: kernel: ./quick.yaml: not a Linux kernel image" err &&
	test_must_fail --status=2 perfsift run quick.yaml --vm-memory 1G 2>err &&
	test_grep "give --kernel IMAGE" err &&
	! test -e "$PERFSIFT_RESULT_ROOT"
'

test_done
