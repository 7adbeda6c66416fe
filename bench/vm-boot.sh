#!/bin/sh
# vm-boot.sh: what a run on a kernel under test costs -- boot to the job's
# first sample, and the whole `perfsift run --kernel` beside a native run
# of the same job, interleaved (native, VM, native, VM, ...) so that the
# shared machine's drift falls on both alike.
#
#   sh bench/vm-boot.sh [RUNS [IMAGE]]        (default 5 runs, the newest
#                                              cached Debian cloud kernel)
#   PERFSIFT_VM_ACCEL=kvm sh bench/vm-boot.sh 5 IMAGE    on a machine whose KVM works
#
# Per run it records: the guest's /proc/uptime when the job starts (the
# kernel's boot, from its first instruction to the benchmark's fork, at
# which the monitors take their first sample), and the wall time of the
# whole `perfsift run` (initramfs, qemu, boot, job, the run sent back,
# power-off, publish) against the native run's.  Prints median and
# [min-max] of each.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-5}
img=${2:-}
# shellcheck source=bench/lib/vm-bench.sh
. "$here/bench/lib/vm-bench.sh"
vm_bench_image "$img"
tmp=$(mktemp -d /tmp/perfsift-vmboot.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/job.yaml" <<'EOT'
testcase: vmboot
mytest:
  cmdline: "echo uptime: $(cut -d' ' -f1 /proc/uptime)"
EOT

now() { date +%s.%N; }
i=0
while [ "$i" -lt "$runs" ]; do
	t0=$(now)
	"$P" --result-root "$tmp/native" run "$tmp/job.yaml" >/dev/null
	t1=$(now)
	"$P" --result-root "$tmp/vm" run "$tmp/job.yaml" --kernel "$img" \
		--vm-cpus 2 --vm-memory 1G >/dev/null
	t2=$(now)
	echo "$t1 $t0" | awk '{ printf "%.3f\n", $1 - $2 }' >>"$tmp/native.s"
	echo "$t2 $t1" | awk '{ printf "%.3f\n", $1 - $2 }' >>"$tmp/vm.s"
	i=$((i + 1))
done
find "$tmp/vm" -path '*/vmboot/*' -name mytest -exec sed -n 's/^uptime: //p' {} + >"$tmp/uptime.s"

echo "kernel: $img ($PERFSIFT_VM_ACCEL), load: $(cut -d' ' -f1-3 /proc/loadavg)"
stat_line "guest boot to the job's first sample" "$tmp/uptime.s"
stat_line "perfsift run --kernel, wall" "$tmp/vm.s"
stat_line "perfsift run (native, the reference), wall" "$tmp/native.s"
