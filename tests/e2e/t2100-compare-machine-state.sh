#!/bin/sh
# t2100: the default selection's rules for stats of the machine's state
# (issue 13, rules.h): a level of the machine that steps between two
# batches of runs, or moves within its sides' spread, is not flagged,
# while a workload stat with the same numbers is; a perf-profile share
# under 1% and a PID are not stats to flag; --lkp-exact keeps LKP's
# selection; --json names the rule.  The groups are matrix.json
# directories written here: no run, so nothing depends on the machine.
. "$(dirname "$0")/lib.sh"

# a matrix.json directory $1 whose stats are scaled by $2 (1: the base)
matrix () {
	mkdir -p "$1" &&
	awk -v f="$2" '
		BEGIN {
			# name, value scale, runs (1% apart, or +-10%), factor
			n = split("meminfo.PageTables 1e5 s 1.06 " \
				  "proc-vmstat.nr_file_pages 4e5 s 1.06 " \
				  "proc-vmstat.pgfault 4e5 s 1.06 " \
				  "vmstat.cpu.id 50 w 1.4 " \
				  "perf-stat.ps.context-switches 1e4 w 1.4 " \
				  "meminfo.AnonHugePages 1e6 s 3 " \
				  "perf-profile.children.cycles-pp.set_ptes 0.1 s 2 " \
				  "sched_debug.cpu.curr->pid.max 5e3 s 2", t, " ")
			split("0.99 0.995 1.0 1.005 1.01", steady, " ")
			split("0.9 0.95 1.0 1.05 1.1", wide, " ")
			printf "{\n"
			for (i = 1; i <= n; i += 4) {
				printf "%s  \"%s\": [", (i > 1 ? ",\n" : ""), t[i]
				for (r = 1; r <= 5; r++)
					printf "%s%.6g", (r > 1 ? ", " : ""),
						t[i + 1] * (t[i + 2] == "s" ? steady[r] : wide[r]) * (f == 1 ? 1 : t[i + 3])
				printf "]"
			}
			printf "\n}\n"
		}' >"$1/matrix.json"
}

# the stat names of a text table's rows
rows () {
	sed -n "/^             \\\\/,\$p" "$1" | sed 1d | sed "/^\$/d" | awk "{print \$NF}" | sort
}

test_expect_success 'setup: a base and a head matrix.json' '
	matrix base 1 &&
	matrix head 2 &&
	test_grep "\"meminfo.PageTables\": \[99000, 99500, 100000, 100500, 101000\]" base/matrix.json &&
	test_grep "\"meminfo.PageTables\": \[104940, 105470, 106000, 106530, 107060\]" head/matrix.json
'

test_expect_success 'the default flags the workload stats and the real change, not the drift' '
	perfsift compare base head >out &&
	rows out >actual &&
	cat >expect <<-\EOT &&
	meminfo.AnonHugePages
	perf-stat.ps.context-switches
	proc-vmstat.pgfault
	EOT
	test_cmp expect actual
'

test_expect_success '--lkp-exact keeps LKP selection of every one' '
	perfsift compare --lkp-exact base head >out &&
	rows out >actual &&
	cat >expect <<-\EOT &&
	meminfo.AnonHugePages
	meminfo.PageTables
	perf-profile.children.cycles-pp.set_ptes
	perf-stat.ps.context-switches
	proc-vmstat.nr_file_pages
	proc-vmstat.pgfault
	sched_debug.cpu.curr->pid.max
	vmstat.cpu.id
	EOT
	test_cmp expect actual
'

test_expect_success '--json --all names the rule that took each one out' '
	perfsift compare --json --all base head >out.json &&
	for s in "meminfo.PageTables:machine-state-floor" \
		 "proc-vmstat.nr_file_pages:machine-state-floor" \
		 "vmstat.cpu.id:machine-state-spread" \
		 "perf-profile.children.cycles-pp.set_ptes:small-share" \
		 "sched_debug.cpu.curr->pid.max:identifier"
	do
		grep -A2 "\"stat\": \"${s%%:*}\"" out.json >cell &&
		test_grep "\"lkp\": \"changed\", \"changed\": false" cell &&
		test_grep "\"noise_rule\": \"${s#*:}\"" cell || return 1
	done &&
	test "$(grep -c "\"noise_rule\"" out.json)" -eq 5 &&
	perfsift compare --json --all --lkp-exact base head >exact.json &&
	! grep -q "\"noise_rule\"" exact.json
'

test_done
