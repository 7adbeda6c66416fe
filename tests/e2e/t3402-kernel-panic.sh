#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3402: what the guest prints is data.  A real panic of a real kernel
# (the job crashes it through sysrq) is a failed run: last_state says it
# was running and panicked, the console is its dmesg with the panic as a
# stat (spelt as LKP spells it: "Kernel_panic-not_syncing:..."), with
# LKP's dmesg.boot_failures (a clean boot has none), and the exit status
# is 3.  A boot that never reaches the job (no
# init: the kernel panics mounting a root) is a failed run too, in the
# same group, marked booting.  A hang is cut at the limit (runtime plus
# PERFSIFT_VM_MARGIN) and marked vm_timeout.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-kernel.sh"

need_kernel K last
REL=$(kernel_release "$K")

cat >crash.yaml <<'EOT'
testcase: kcrash
mytest:
  cmdline: "echo c >/proc/sysrq-trigger; sleep 60; echo survived: 1"
EOT

test_expect_success 'a panic while the job runs: a failed run with its console' '
	test_must_fail --status=3 perfsift run crash.yaml --kernel "$K" \
		--vm-cpus 1 --vm-memory 512M >out 2>err &&
	test_grep "failed in the VM (running: 1, kernel_panic: 1)" out &&
	d=$(run_dir kcrash 0) &&
	test_grep "^running: 1$" "$d/last_state" &&
	test_grep "^kernel_panic: 1$" "$d/last_state" &&
	test_grep "^is_incomplete_run: 1$" "$d/last_state" &&
	test_grep "Kernel panic - not syncing: sysrq triggered crash" "$d/dmesg" &&
	test_grep "\"dmesg.Kernel_panic-not_syncing:sysrq_triggered_crash\": 1" "$d/stats.json" &&
	test_grep "\"dmesg.boot_failures\": 1" "$d/stats.json" &&
	case "$d" in */gcc-12/$REL/0) ;; *) echo "group: $d" >&2; return 1 ;; esac
'

test_expect_success 'a boot that never reaches the job: failed, booting, same group' '
	test_must_fail --status=3 perfsift run crash.yaml --kernel "$K" \
		--vm-cpus 1 --vm-memory 512M --append "rdinit=/no-such-init" >out 2>err &&
	test_grep "failed in the VM (booting: 1, kernel_panic: 1)" out &&
	d=$(run_dir kcrash 1) &&
	test_grep "^booting: 1$" "$d/last_state" &&
	test_grep "VFS: Unable to mount root fs" "$d/dmesg" &&
	test_grep "\"dmesg.Kernel_panic-not_syncing:VFS:Unable_to_mount_root_fs_on_unknown-block(#,#)\": 1" "$d/stats.json" &&
	test_grep "\"dmesg.boot_failures\": 1" "$d/stats.json" &&
	case "$d" in */gcc-12/$REL/1) ;; *) echo "group: $d" >&2; return 1 ;; esac &&
	test_grep "^commit: $REL$" "$d/job.yaml" &&
	test_grep "^compiler: gcc-12$" "$d/job.yaml"
'

# LKP's boot_failures is there only when the console has an error id:
# a clean boot has none, not a 0
test_expect_success 'a clean boot: no boot_failures' '
	cat >clean.yaml <<-\EOT &&
	testcase: kclean
	mytest:
	  cmdline: "echo score: 1"
	EOT
	perfsift run clean.yaml --kernel "$K" --vm-cpus 1 --vm-memory 512M >out 2>err &&
	d=$(run_dir kclean 0) &&
	test_grep "\"dmesg.timestamp:last\": " "$d/stats.json" &&
	! grep "boot_failures" "$d/stats.json"
'

test_expect_success 'a hang is cut at runtime plus the margin: vm_timeout' '
	cat >hang.yaml <<-\EOT &&
	testcase: khang
	runtime: 1
	mytest:
	  cmdline: "sleep 600"
	EOT
	PERFSIFT_VM_MARGIN=40 test_must_fail --status=3 perfsift run hang.yaml \
		--kernel "$K" --vm-cpus 1 --vm-memory 512M >out 2>err &&
	d=$(run_dir khang 0) &&
	test_grep "^running: 1$" "$d/last_state" &&
	test_grep "^vm_timeout: 41$" "$d/last_state" &&
	test_grep "perfsift-guest: job starts" "$d/dmesg"
'

# The payload zeroed past its first 64 bytes: the guest's decompressor
# stops, and the host cannot read the image's banner either.  The run's
# compiler axis comes from config-R beside the image (its
# CONFIG_CC_VERSION_TEXT), as a good run's guest names it from
# /proc/version: it was "unknown", a group apart.
test_expect_success 'an image whose payload cannot be read: its compiler from its config' '
	mkdir -p broken/boot &&
	cp "$K" "$(dirname "$K")/config-$REL" broken/boot/ &&
	img=broken/boot/vmlinuz-$REL &&
	sects=$(od -An -tu1 -j $((0x1f1)) -N1 "$img") &&
	off=$(od -An -tu4 -j $((0x248)) -N4 "$img") &&
	dd if=/dev/zero of="$img" bs=1 seek=$(( (sects + 1) * 512 + off + 64 )) \
		count=4096 conv=notrunc 2>/dev/null &&
	printf "testcase: kbroken\nruntime: 1\nmytest:\n  cmdline: \"echo score: 1\"\n" >broken.yaml &&
	PERFSIFT_VM_MARGIN=15 test_must_fail --status=3 perfsift run broken.yaml \
		--kernel "$TEST_TMP/$img" --vm-cpus 1 --vm-memory 512M >out 2>err &&
	test_grep "failed in the VM (booting: 1, vm_timeout: 16)" out &&
	d=$(run_dir kbroken 0) &&
	test_grep "^compiler: gcc-12$" "$d/job.yaml" &&
	case "$d" in */gcc-12/$REL/0) ;; *) echo "group: $d" >&2; return 1 ;; esac
'

test_done
