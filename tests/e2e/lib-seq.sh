# lib-seq.sh: the listed-score command of the until-decided tests (t0120,
# t6102), sourced after lib.sh.  Its score is a fixed list per setting
# (the job's mytest value), taken by the run's number: every verdict is
# the same on any machine, and nothing is timed.

# write_seq_job: seq.sh (the command) and job.yaml (mytest.score, higher
# is better, setting `fast`, no monitors)
write_seq_job() {
	cat >seq.sh <<-\EOT &&
	#!/bin/sh
	# the score of run N (the run directory is named N)
	n=$(basename "$RESULT_ROOT")
	case "$mytest" in
	fast) set -- 100 101 99 100 101 99 100 101 99 100 101 99;;
	same) set -- 100.5 99.5 100 100.5 99.5 100 100.5 99.5 100 100 100 100;;
	slow) set -- 94 99.5 94 94 94.5 94 93.5 94 94 94 94 94;;
	wild) set -- 80 120 80 120 80 120 80 120 80 120 80 120;;
	noisy) set -- 95 105 100;;
	steady) set -- 100 100.1 99.9 100 100.1 99.9;;
	esac
	shift "$n"
	echo "score: $1"
	EOT
	chmod +x seq.sh &&
	printf "testcase: tiny\nkpi: {mytest.score: higher}\nmytest:\n  mytest: fast\nmonitors: none\n" >job.yaml
}
