#!/bin/sh
# vm-modules.sh: what a package's modules cost a run on its kernel -- the
# initramfs's size, the boot to the job's first sample and the wall time
# of `perfsift run --kernel`, with the whole modules tree (--modules, a
# copy of the package's lib/modules/R with the modules.dep depmod makes)
# against the few taken from beside the image (no --modules), runs
# interleaved (whole, few, whole, few, ...).
#
#   sh bench/vm-modules.sh [RUNS [IMAGE]]   (default 3 runs, the newest
#                                            cached Debian cloud kernel)
#
# The initramfs's size is read by a qemu-system-x86_64 wrapper put first
# on PATH, which notes its -initrd file's size and runs the real qemu.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-3}
img=${2:-}
# shellcheck source=bench/lib/vm-bench.sh
. "$here/bench/lib/vm-bench.sh"
vm_bench_image "$img"
rel=$(basename "$img" | sed 's/^vmlinuz-//')
tmp=$(mktemp -d /tmp/perfsift-vmmods.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/full/lib/modules" "$tmp/bin"
cp -a "$(dirname "$img")/../lib/modules/$rel" "$tmp/full/lib/modules/"
depmod -b "$tmp/full" "$rel"
qemu=$(command -v qemu-system-x86_64)
cat >"$tmp/bin/qemu-system-x86_64" <<EOT
#!/bin/sh
prev=
for a; do
	[ "\$prev" = -initrd ] && stat -c %s "\$a" >>"\$SIZES"
	prev=\$a
done
exec "$qemu" "\$@"
EOT
chmod +x "$tmp/bin/qemu-system-x86_64"
cat >"$tmp/job.yaml" <<'EOT'
testcase: vmmods
mytest:
  cmdline: "echo uptime: $(cut -d' ' -f1 /proc/uptime)"
EOT

now() { date +%s.%N; }
# one run: the wall time into $1.s, the initramfs size into $1.size
one() {
	what=$1
	shift
	t0=$(now)
	SIZES=$tmp/$what.size PATH=$tmp/bin:$PATH "$P" --result-root "$tmp/$what" \
		run "$tmp/job.yaml" --kernel "$img" --vm-cpus 2 --vm-memory 1G "$@" >/dev/null
	echo "$(now) $t0" | awk '{ printf "%.3f\n", $1 - $2 }' >>"$tmp/$what.s"
}
i=0
while [ "$i" -lt "$runs" ]; do
	one whole --modules "$tmp/full/lib/modules/$rel"
	one few
	i=$((i + 1))
done

echo "kernel: $img ($PERFSIFT_VM_ACCEL), load: $(cut -d' ' -f1-3 /proc/loadavg)"
for what in whole few; do
	find "$tmp/$what" -path '*/vmmods/*' -name mytest -exec sed -n 's/^uptime: //p' {} + >"$tmp/$what.up"
	awk '{ printf "%.2f\n", $1 / 1048576 }' "$tmp/$what.size" >"$tmp/$what.mb"
	stat_line "$what: initramfs" "$tmp/$what.mb" MiB
	stat_line "$what: boot to the job's first sample" "$tmp/$what.up" s
	stat_line "$what: perfsift run --kernel, wall" "$tmp/$what.s" s
done
