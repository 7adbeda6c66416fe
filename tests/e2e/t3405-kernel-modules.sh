#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3405: `run --kernel IMAGE --modules DIR` puts a lib/modules/RELEASE
# tree into the guest (issue 24: a distribution kernel needs its
# modules).  Debian's cloud kernel has virtio as modules (CONFIG_VIRTIO=m,
# CONFIG_VIRTIO_NET=m): with its image copied away from the package's
# lib/modules, a job that loads virtio_net fails in the guest, with
# modprobe's own words kept in the run's stderr; with --modules (a tree
# of five modules and the modules.dep depmod made for it) modprobe
# resolves virtio_net's four dependencies and the run is stored, in the
# same group.  A tree without modules.dep (an unpacked package: Debian's
# postinst runs depmod) is one clear error, nothing written.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-kernel.sh"

need_kernel K last
REL=$(kernel_release "$K")
# get-kernel's layout, the package's: DIR/boot/vmlinuz-R, DIR/lib/modules/R
PKGMODS=$(dirname "$K")/../lib/modules/$REL

if ! command -v depmod >/dev/null 2>&1 && ! [ -x /usr/sbin/depmod ]; then
	test_skip 'modules in the guest' 'depmod (kmod) is not installed (scripts/install-deps)'
	test_done
fi
DEPMOD=$(command -v depmod || echo /usr/sbin/depmod)

cat >mod.yaml <<'EOT'
testcase: kmodules
mytest:
  cmdline: "modprobe virtio_net && echo loaded: $(grep -cE \"^(virtio_net|net_failover|failover|virtio|virtio_ring) \" /proc/modules)"
EOT

test_expect_success 'setup: the image alone, and a small modules tree with its modules.dep' '
	mkdir img && cp "$K" img/ &&
	mkdir -p root/lib/modules/$REL &&
	(cd "$PKGMODS" && cp --parents modules.order modules.builtin \
		kernel/drivers/net/virtio_net.ko kernel/drivers/net/net_failover.ko \
		kernel/net/core/failover.ko kernel/drivers/virtio/virtio.ko \
		kernel/drivers/virtio/virtio_ring.ko "$TEST_TMP/root/lib/modules/$REL/") &&
	"$DEPMOD" -b root "$REL" &&
	test_grep "^kernel/drivers/net/virtio_net.ko: .*kernel/net/core/failover.ko" \
		root/lib/modules/$REL/modules.dep
'

test_expect_success 'without --modules: the job fails in the guest, modprobe says why' '
	test_must_fail --status=3 perfsift run mod.yaml --kernel "img/vmlinuz-$REL" \
		--vm-cpus 1 --vm-memory 512M >out 2>err &&
	test_grep "failed in the VM (the job failed)" out &&
	d=$(run_dir kmodules 0) &&
	test_grep "^exit_code.1: 1$" "$d/last_state" &&
	test_grep "modprobe: can.t change directory to ./lib/modules.: No such file" "$d/stderr" &&
	! grep -q "mytest.loaded" "$d/stats.json"
'

test_expect_success 'with --modules DIR: virtio_net and its dependencies load, the run is stored' '
	perfsift run mod.yaml --kernel "img/vmlinuz-$REL" --modules root/lib/modules/$REL \
		--vm-cpus 1 --vm-memory 512M >out 2>err &&
	test_grep "done in" out &&
	d=$(run_dir kmodules 1) &&
	test_grep "\"mytest.loaded\": 5" "$d/stats.json" &&
	case "$d" in */gcc-12/$REL/1) ;; *) echo "group: $d" >&2; return 1 ;; esac
'

test_expect_success 'a tree without modules.dep, a file: exit 2, nothing written' '
	rm -rf "$PERFSIFT_RESULT_ROOT" &&
	mkdir -p nodep && cp root/lib/modules/$REL/modules.order nodep/ &&
	test_must_fail --status=2 perfsift run mod.yaml --kernel "img/vmlinuz-$REL" \
		--modules nodep 2>err &&
	test_grep "modules .nodep.: no modules.dep in it" err &&
	test_must_fail --status=2 perfsift run mod.yaml --kernel "img/vmlinuz-$REL" \
		--modules mod.yaml 2>err &&
	test_grep "modules .mod.yaml.: not a directory" err &&
	! test -e "$PERFSIFT_RESULT_ROOT"
'

test_done
