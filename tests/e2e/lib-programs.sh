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

# stat $2 of run $1 is a number above 0
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
