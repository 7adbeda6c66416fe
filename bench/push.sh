#!/bin/sh
# push.sh: what `perfsift push` costs per run -- a result root of RUNS
# runs of a small job exported into a fresh PostgreSQL database, round
# after round, by PERFSIFT and (when given) by a REFERENCE build beside
# it, interleaved (this, reference, this, ...) so that the machine's
# drift falls on both alike.  The server is a throwaway one (initdb +
# pg_ctl on a unix socket, fsync on, as the postgres user when root).
#
#   sh bench/push.sh [ROUNDS [RUNS [PERFSIFT [REFERENCE]]]]
#       default 5 rounds, 20 runs (at most 99), build/perfsift, no
#       reference
#
# Prints each binary's median and [min-max] wall time of a whole push,
# and per run.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-5}
runs=${2:-20}
bin=${3:-$here/build/perfsift}
ref=${4:-}
# one group's runs: at most 99 (run -n's limit, LKP's)
if [ "$runs" -lt 1 ] || [ "$runs" -gt 99 ]; then
	echo "push.sh: RUNS is 1..99" >&2
	exit 2
fi

pgbin=
for d in /usr/lib/postgresql/*/bin; do
	[ -x "$d/initdb" ] && pgbin=$d
done
[ -n "$pgbin" ] || { echo "push.sh: no PostgreSQL server programs (scripts/install-deps)" >&2; exit 2; }
as=
[ "$(id -u)" -eq 0 ] && as="runuser -u postgres --"
tmp=$(mktemp -d /tmp/perfsift-pushbench.XXXXXX)
pg=$(mktemp -d /tmp/perfsift-pushbench-pg.XXXXXX)
chmod 755 "$pg"
[ -n "$as" ] && chown postgres "$pg"
trap '$as "$pgbin/pg_ctl" -D "$pg/data" -m immediate stop >/dev/null 2>&1; rm -rf "$tmp" "$pg"' EXIT
$as "$pgbin/initdb" -D "$pg/data" -A trust -U postgres >"$tmp/initdb.log" 2>&1
$as "$pgbin/pg_ctl" -D "$pg/data" -l "$pg/log" -w \
	-o "-k $pg -c listen_addresses=" start >/dev/null

printf 'testcase: pushbench\nmytest:\n  cmdline: "echo score: $$"\n' >"$tmp/job.yaml"
"$bin" --result-root "$tmp/root" run "$tmp/job.yaml" -n "$runs" >/dev/null 2>&1

# one push into a fresh database: its wall time in seconds on stdout
push_once() { # BINARY DBNAME
	psql -q -h "$pg" -U postgres -d postgres -c "CREATE DATABASE $2"
	t0=$(date +%s.%N)
	"$1" --result-root "$tmp/root" --store "postgresql:///$2?host=$pg&user=postgres" \
		push >"$tmp/out" 2>&1 || { cat "$tmp/out" >&2; exit 1; }
	t1=$(date +%s.%N)
	grep -q "^$runs runs pushed" "$tmp/out" || { cat "$tmp/out" >&2; exit 1; }
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", b - a }'
}

: >"$tmp/this"
: >"$tmp/ref"
i=0
while [ "$i" -lt "$rounds" ]; do
	push_once "$bin" "this$i" >>"$tmp/this"
	[ -n "$ref" ] && push_once "$ref" "ref$i" >>"$tmp/ref"
	i=$((i + 1))
done

# median [min-max] of a file of numbers, and the median per run in ms
summary() { # FILE LABEL
	sort -n "$1" | awk -v label="$2" -v runs="$runs" '
		{ v[NR] = $1 }
		END {
			m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "%-10s push of %d runs: median %.2f s [%.2f-%.2f], %.0f ms a run (%d rounds)\n",
			       label, runs, m, v[1], v[NR], m * 1000 / runs, NR
		}'
}
summary "$tmp/this" "$(basename "$bin")"
[ -n "$ref" ] && summary "$tmp/ref" "reference"
exit 0
