# vm-bench.sh: what bench/vm-boot.sh and bench/vm-modules.sh share,
# sourced once they have set $here (the source tree).
# shellcheck shell=sh

# shellcheck disable=SC2034 # used by the scripts that source this
P=${PERFSIFT:-$here/build/perfsift}
: "${PERFSIFT_VM_ACCEL:=tcg}"
export PERFSIFT_VM_ACCEL

# vm_bench_image [IMAGE]: IMAGE, else the newest cached Debian cloud
# kernel (fetched when none is), into $img
vm_bench_image() {
	img=${1:-}
	[ -z "$img" ] || return 0
	abi=$(for d in /var/cache/perfsift/kernels/6.1.0-*-cloud-amd64; do
		[ -d "$d" ] && basename "$d"
	done | sort -t- -k2,2n | tail -n 1)
	[ -n "$abi" ] || abi=$("$here/scripts/get-kernel" --list | tail -n 1 | sed 's/^linux-image-//')
	img=$("$here/scripts/get-kernel" "$abi")
}

# stat_line WHAT FILE [UNIT]: the median and [min-max] of FILE's numbers
stat_line() {
	sort -n "$2" | awk -v what="$1" -v unit="${3:-s}" '{ v[NR] = $1 }
		END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%-44s %8.2f %s  [%.2f-%.2f]  (%d runs)\n", what, m, unit, v[1], v[NR], NR }'
}
