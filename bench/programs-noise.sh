#!/bin/sh
# programs-noise.sh: the run-to-run noise of each external benchmark's
# quick job (jobs/*-quick.yaml) at N runs (default 5): every job run -n N
# into a scratch result root, then per result group and KPI the median,
# the min-max range and the coefficient of variation (stddev / mean) of
# the N values in its matrix.json.  Usage:
#     make && sh bench/programs-noise.sh [RUNS] [JOB...]
set -eu

runs=${1:-5}
[ $# -gt 0 ] && shift
jobs=${*:-"hackbench-quick stress-ng-quick fio-quick perf-bench-quick perf-bench-futex-quick sysbench-quick"}
here=$(cd "$(dirname "$0")/.." && pwd)
ps=${PERFSIFT:-$here/build/perfsift}
root=$(mktemp -d /tmp/perfsift-noise.XXXXXX)
trap 'rm -rf "$root"' EXIT

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for j in $jobs; do
	"$ps" --result-root "$root" run "$here/jobs/$j.yaml" -n "$runs" >/dev/null 2>&1 ||
		echo "$j: some runs failed" >&2
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-60s %-45s %14s %26s %7s\n' group kpi median "[min-max]" cv
# the KPIs of LKP's index for these programs, as the run recorded them
kpis='hackbench\.throughput|stress-ng\.[a-z-]+\.ops_per_sec|fio\.read_iops|fio\.read_bw_MBps|perf-bench-sched-messaging\.total_time_sec|perf-bench-futex\.ops/s|sysbench-cpu\.throughput_events/s'
find "$root" -name matrix.json | sort | while read -r m; do
	g=$(dirname "$m" | sed "s,^$root/,,; s,/vm/.*,,")
	grep -E "^ *\"($kpis)\": \[" "$m" | while read -r line; do
		k=$(printf '%s' "$line" | sed 's/^ *"\([^"]*\)".*/\1/')
		printf '%s' "$line" | sed 's/.*\[//; s/\].*//' | tr ',' '\n' | sort -g |
		awk -v g="$g" -v k="$k" '
			{ v[NR] = $1; s += $1; ss += $1 * $1 }
			END {
				n = NR; mean = s / n; sd = sqrt((ss - n * mean * mean) / (n > 1 ? n - 1 : 1))
				med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
				printf "%-60s %-45s %14.6g %12.6g-%-13.6g %6.1f%%\n", g, k, med, v[1], v[n], 100 * sd / mean
			}'
	done
done
