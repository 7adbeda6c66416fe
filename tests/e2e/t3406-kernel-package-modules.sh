#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3406: without --modules, a run on a package's image takes the modules
# from beside it (issue 24: "from --modules DIR or from beside the
# image").  get-kernel unpacks Debian's package as dpkg-deb -x does:
# D/boot/vmlinuz-R and D/lib/modules/R, some 1100 modules and no
# modules.dep.  The guest gets only the virtio drivers and 9p a qemu
# guest may use and what they depend on (src/run/vm_modules.c), with a
# modules.dep written for them: modprobe virtio_net loads it and its four
# dependencies, and the guest holds a few dozen modules, not the tree.
# One boot (CI time); t3405 has the image away from its package.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-kernel.sh"

need_kernel K last
REL=$(kernel_release "$K")

cat >mod.yaml <<'EOT'
testcase: kmodules
mytest:
  cmdline: "modprobe virtio_net && echo loaded: $(grep -cE \"^(virtio_net|net_failover|failover|virtio|virtio_ring) \" /proc/modules) && echo kos: $(find /lib/modules -name \"*.ko\" | wc -l) && echo deps: $(grep -c ko: /lib/modules/*/modules.dep)"
EOT

test_expect_success 'the package layout, no --modules: virtio_net and its dependencies load from beside the image' '
	test -d "$(dirname "$K")/../lib/modules/$REL/kernel" &&
	! test -e "$(dirname "$K")/../lib/modules/$REL/modules.dep" &&
	perfsift run mod.yaml --kernel "$K" --vm-cpus 1 --vm-memory 512M >out 2>err &&
	test_grep "done in" out &&
	d=$(run_dir kmodules 0) &&
	test_grep "\"mytest.loaded\": 5" "$d/stats.json"
'

test_expect_success 'the guest got the few modules a VM may use, each line of modules.dep one of them' '
	d=$(run_dir kmodules 0) &&
	kos=$(sed -n "s/.*\"mytest.kos\": \([0-9]*\).*/\1/p" "$d/stats.json") &&
	deps=$(sed -n "s/.*\"mytest.deps\": \([0-9]*\).*/\1/p" "$d/stats.json") &&
	echo "# $kos modules, $deps lines in modules.dep" &&
	test "$kos" -ge 5 && test "$kos" -le 40 && test "$deps" -eq "$kos"
'

test_done
