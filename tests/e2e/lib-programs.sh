# shellcheck shell=sh
# lib-programs.sh: helpers of the external-program tests (t32xx): where a
# run landed and what its stats say.

# the run directories under ROOT/<suite>/ (LKP's result layout), one a line
run_dirs() {
	find "$PERFSIFT_RESULT_ROOT/$1" -name stats.json | sed 's,/stats.json$,,' | sort
}

# the value of stat $2 in run directory $1's stats.json (empty: none)
stat_value() {
	sed -n "s/^ *\"$(printf %s "$2" | sed 's,[/.%],\\&,g')\": \\([^,]*\\),*\$/\\1/p" "$1/stats.json"
}

# stat $2 of run $1 is a number above 0 (the || block is the failure
# message of the whole && chain, on purpose)
# shellcheck disable=SC2015
stat_positive() {
	v=$(stat_value "$1" "$2") &&
	test -n "$v" &&
	awk -v v="$v" 'BEGIN { exit !(v + 0 > 0) }' || {
		echo "$1: $2 is '$v', not a positive number" >&2
		return 1
	}
}

# the run saw the default monitors (LKP's category: benchmark set)
has_default_monitors() {
	for m in vmstat proc-vmstat meminfo interrupts; do
		test -s "$1/$m.json" || {
			echo "$1: no $m.json" >&2
			return 1
		}
	done
}

# gone PIDFILE: the process it names has ended (a zombie that init has
# not reaped yet counts: it runs nothing); t9353, t9354
gone() {
	pid=$(cat "$1") &&
	st=$(ps -o stat= -p "$pid" 2>/dev/null) || return 0
	case "$st" in Z*) return 0 ;; esac
	echo "process $pid ($1) still there: $st" >&2
	return 1
}
