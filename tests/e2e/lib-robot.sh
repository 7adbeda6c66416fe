# lib-robot.sh: helpers for the robot's end-to-end tests (t90xx), sourced
# after lib.sh.  make_upstream builds a git repository with a branch
# main and a branch feature/slow of 6 commits whose 4th makes the
# benchmark 50% slower; the benchmark is a shell script that waits the
# milliseconds its worktree's `delay` file says and reports that figure
# (the work it asked for, not the time it got: a loaded machine wakes a
# sleeper late by a varying amount, and the test must not depend on it).

# the benchmark: bench.sh in the repository, run from the worktree
write_bench() {
	cat >"$1" <<'BENCH'
d=$(cat delay)
sleep "$(awk -v d="$d" 'BEGIN { printf "%.3f", d / 1000 }')"
echo "ms: $d"
BENCH
}

# commit DIR MSG: commit everything in DIR with a fixed identity and date
# (counted, so that shas are the same at every run of the test)
robot_commit_n=0
commit() {
	robot_commit_n=$((robot_commit_n + 1))
	git -C "$1" add -A &&
	GIT_AUTHOR_DATE="@$((1700000000 + robot_commit_n)) +0000" \
	GIT_COMMITTER_DATE="@$((1700000000 + robot_commit_n)) +0000" \
	git -C "$1" -c user.name=perfsift -c user.email=robot@example.com \
		commit -q -m "$2"
}

# make_upstream DIR: main (1 commit, delay 20) and feature/slow (6
# commits on it; from the 4th the delay is 30: +50%)
make_upstream() {
	git init -q -b main "$1" &&
	write_bench "$1/bench.sh" &&
	echo 20 >"$1/delay" &&
	echo 0 >"$1/version" &&
	commit "$1" "bench: a benchmark that waits" &&
	git -C "$1" checkout -q -b feature/slow &&
	for i in 1 2 3 4 5 6; do
		echo "$i" >"$1/version" &&
		if [ "$i" -eq 4 ]; then echo 30 >"$1/delay"; fi &&
		commit "$1" "slow: step $i" || return 1
	done &&
	git -C "$1" checkout -q main
}

# the job: mytest runs bench.sh in the commit's worktree
write_robot_job() {
	printf 'testcase: robot-e2e\nkpi: {mytest.ms: lower}\nmytest:\n  cmdline: sh bench.sh\n' >"$1"
}

# write_config FILE URL [MORE_REPO_YAML]: a config watching URL's
# feature/* against main, 3 runs a commit, mail into ./sent.mbox
write_config() {
	cat >"$1" <<CFG
repos:
  - name: demo
    url: $2
    base: main
    branches: [feature/*]
    build: "true"
${3:-}
jobs:
  - job: job.yaml
    runs: 3
mail:
  to: dev@example.org
  from: perfsift <perfsift@example.org>
  mbox: $PWD/sent.mbox
CFG
}

# the number of mails in mbox $1
mails() {
	if [ -f "$1" ]; then grep -c '^From ' "$1"; else echo 0; fi
}

# robot_once LOG: one pass into LOG (stderr and stdout), exit status kept
robot_once() {
	perfsift robot --config robot.yaml --once >"$1" 2>&1
	st=$?
	grep -v "^job-\|^bisect: \[" "$1"
	return $st
}

# the run directories of the job's results in the robot's root
robot_runs() {
	find "$PERFSIFT_RESULT_ROOT/robot" -path "*/results/*" -type d \
		-name '[0-9]*' | sort
}

# check_mbox MBOX: every "From " line is an envelope line (first line, or
# after a blank line, and followed by the From: header), and each
# message has exactly one line beginning "Subject:"
check_mbox() {
	awk '
		/^From / {
			if (NR > 1 && prev != "") { print "unescaped From line " NR; bad = 1 }
			env = NR; n++
		}
		NR == env + 1 && !/^From: / { print "no From: header after line " env; bad = 1 }
		/^[Ss][Uu][Bb][Jj][Ee][Cc][Tt]:/ { subj[n]++ }
		{ prev = $0 }
		END {
			for (i = 1; i <= n; i++)
				if (subj[i] != 1) { print "mail " i ": " subj[i] + 0 " Subject: lines"; bad = 1 }
			exit bad
		}' "$1"
}

# The crash scenarios (t9002, t9350): each in a directory of its own.
# use NAME: the scenario's result root (each test is a subshell: every
# test of a scenario says which it is)
use() {
	PERFSIFT_RESULT_ROOT=$TEST_TMP/$1/result &&
	export PERFSIFT_RESULT_ROOT
}

# fresh NAME: a result root and mbox of their own for one scenario
fresh() {
	use "$1" &&
	mkdir -p "$1" &&
	sed -e "s|$PWD/sent.mbox|$PWD/$1/sent.mbox|" \
	    -e "s|job: job.yaml|job: $PWD/job.yaml|" robot.yaml >"$1/robot.yaml"
}

# crash NAME FAULT: a pass that SIGKILLs itself at FAULT (exit 137)
crash() {
	PERFSIFT_FAULT=$2 perfsift robot --config "$1/robot.yaml" --once \
		>"$1/log1" 2>&1
	st=$?
	echo "exit $st"
	test "$st" -eq 137
}

# again NAME: the next start, to the end of its pass
again() {
	perfsift robot --config "$1/robot.yaml" --once >"$1/log2" 2>&1 ||
		{ cat "$1/log2"; return 1; }
	grep -v "^job-\|^bisect: \[" "$1/log2"
}
