#!/bin/sh
# aa.sh: a real A/A -- how many stats the default `perfsift compare` flags
# when nothing changed, and whether it still finds a planted 5% change of
# the KPI (issue 13: "A/A under 0.5% on real runs").
#
#     make bench && nice -n -20 sh bench/aa.sh [ROUNDS] [RUNS]   (1 5)
#
# One job: a `mytest` command of fixed work, with the default monitors of a
# `category: benchmark` job: dd copying 5000 MiB (kernel work, as the
# issue's A/A) and then build/bench/aa-work, whose `score` (CPU-clock
# steps per second, best of 3) is the KPI, `kpi: {mytest.score: higher}`.
# It runs as two "commits", RUNS runs each, into a scratch result root:
#
#   seq-aa     AAAAA BBBBB     (one `run -n RUNS` per commit)
#   int-aa     ABABABABAB      (one run at a time, alternating)
#   seq-plant  as seq-aa, B's score scaled by 1.05 (AA_PLANT=1.05)
#   int-plant  as int-aa, likewise
#
# then `perfsift compare --json A B` (the default selection) and prints per
# case the stats compared, the stats flagged (and their names) and, for
# the planted cases, whether mytest.score was found.  PERFSIFT_REF=PATH
# compares the same runs again with another perfsift (e.g. main's build):
# the reference column of docs/performance.md, side by side in one run.
# ROUNDS repeats it all; the last lines are the medians over the rounds.
# AA_KEEP=DIR keeps each round's result roots there (DIR/rN/CASE), to
# compare them again later.  Run it under `nice -n -20` (the machine is
# shared): the load average at start and end is printed.
set -euf # -f: stat names hold [ and *, never globs

rounds=${1:-1}
runs=${2:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
ps=${PERFSIFT:-$here/build/perfsift}
ref=${PERFSIFT_REF:-}
work=$here/build/bench/aa-work
[ -x "$work" ] || { echo "aa.sh: $work missing: run make bench" >&2; exit 2; }
tmp=$(mktemp -d /tmp/perfsift-aa.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/job.yaml" <<EOF
# bench/aa.sh's A/A job (written by the script)
suite: aa
testcase: aa
category: benchmark
kpi: {mytest.score: higher}
mytest:
  cmdline: dd if=/dev/zero of=/dev/null bs=1M count=5000 2>/dev/null && $work
EOF

# one run of commit $2 into root $1, AA_PLANT=$3
run_one () {
	AA_PLANT=$3 "$ps" --result-root "$1" run "$tmp/job.yaml" -n "${4:-1}" \
		--commit "$2" >/dev/null 2>"$tmp/run.err" ||
		{ cat "$tmp/run.err" >&2; exit 3; }
}

# case $1 (seq-* or int-*) into a fresh root, B's plant factor $2
run_case () {
	root=$roots/$1
	case $1 in
	seq-*)
		run_one "$root" aaaa000a 1 "$runs"
		run_one "$root" aaaa000b "$2" "$runs";;
	*)
		i=0
		while [ "$i" -lt "$runs" ]; do
			run_one "$root" aaaa000a 1
			run_one "$root" aaaa000b "$2"
			i=$((i + 1))
		done;;
	esac
}

# compare case $1's two commits with perfsift $2; prints
# "nstats flagged found names..." (found: is mytest.score a changed row)
count () {
	# exit 1 is "a KPI regressed": not a failure of the measurement
	"$2" --result-root "$roots/$1" compare --json aaaa000a aaaa000b \
		>"$tmp/cmp.json" 2>"$tmp/cmp.err" || [ $? -eq 1 ] ||
		{ cat "$tmp/cmp.err" >&2; exit 3; }
	awk '
		/^  "nstats": / { n = $2; sub(",", "", n) }
		/^    \{"stat": .*"changed": true/ {
			s = $0; sub(/^    \{"stat": "/, "", s); sub(/".*/, "", s)
			if (s == "mytest.score") found = 1
			else { flagged++; names = names " " s }
		}
		END { printf "%d %d %s%s\n", n, flagged, found ? "found" : "-", names }
	' "$tmp/cmp.json"
}

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "perfsift: $ps${ref:+, reference: $ref}; $runs runs a side, $rounds round(s)"
: >"$tmp/all"
r=1
while [ "$r" -le "$rounds" ]; do
	for c in seq-aa int-aa seq-plant int-plant; do
		# the roots live in AA_KEEP when asked (the index names their paths)
		roots=${AA_KEEP:+$AA_KEEP/r$r}
		roots=${roots:-$tmp}
		mkdir -p "$roots"
		rm -rf "${roots:?}/$c"
		case $c in *-plant) f=1.05;; *) f=1;; esac
		run_case "$c" "$f"
		for who in new ${ref:+ref}; do
			if [ "$who" = ref ]; then bin=$ref; else bin=$ps; fi
			# split on purpose: nstats flagged found names...
			# shellcheck disable=SC2046
			set -- $(count "$c" "$bin")
			pct=$(awk -v f="$2" -v n="$1" 'BEGIN { printf "%.2f", n ? 100 * f / n : 0 }')
			printf 'round %d %-9s %-3s stats %5d flagged %3d (%s%%) planted %s:' \
				"$r" "$c" "$who" "$1" "$2" "$pct" "$3"
			echo "$r $c $who $1 $2 $pct $3" >>"$tmp/all"
			shift 3
			printf ' %s' "$@"
			echo
		done
	done
	r=$((r + 1))
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "medians over $rounds round(s): stats compared, stats flagged (%), rounds the planted change was found"
for c in seq-aa int-aa seq-plant int-plant; do
	for who in new ${ref:+ref}; do
		awk -v c="$c" -v w="$who" '
			$2 == c && $3 == w { n[++k] = $4; f[k] = $5; p[k] = $6; if ($7 == "found") hit++ }
			function med(a, k,   i, j, t) {
				for (i = 2; i <= k; i++)
					for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
				return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
			}
			END {
				printf "%-9s %-3s stats %6.0f flagged %5.1f (%.2f%%)", c, w, med(n, k), med(f, k), med(p, k)
				if (c ~ /plant/) printf " planted found %d/%d", hit, k
				printf "\n"
			}' "$tmp/all"
	done
done
