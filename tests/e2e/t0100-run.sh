#!/bin/sh
# shellcheck disable=SC1091,SC2016,SC2034
# t0100: perfsift run -- repeated runs of an external command (LKP's
# mytest) into the result root, matrix.json of the complete runs, run
# numbering, --set, `-- CMD`, split jobs, failed runs and bad job files.
. "$(dirname "$0")/lib.sh"

# the one group directory of testcase $1
group_dir() {
	find "$PERFSIFT_RESULT_ROOT/$1" -name matrix.json | sed 's,/matrix.json$,,'
}

# the number of values of stat $2 in matrix.json of testcase $1
nr_values() {
	grep "\"$2\": \[" "$(group_dir "$1")/matrix.json" |
	sed 's/.*\[//; s/\].*//' | tr ',' '\n' | grep -c .
}

test_expect_success 'dd -n 3: three runs, three values in matrix.json' '
	cat >dd.yaml <<-\EOT &&
	testcase: dd
	mytest:
	  cmdline: dd if=/dev/zero of=/dev/null bs=1M count=2000
	EOT
	perfsift run dd.yaml -n 3 >out 2>err &&
	d=$(group_dir dd) &&
	test -d "$d/0" && test -d "$d/1" && test -d "$d/2" && ! test -e "$d/3" &&
	test "$(nr_values dd mytest.time.elapsed_time)" = 3 &&
	test "$(nr_values dd time.elapsed_time)" = 3 &&
	test_grep "run 3 of 3: done" out &&
	test_grep "^	Elapsed (wall clock) time (h:mm:ss or m:ss): [0-9]*:[0-5][0-9]\.[0-9]\{6\}$" "$d/0/mytest.time" &&
	test_grep "^	User time (seconds): [0-9]*\.[0-9]\{6\}$" "$d/1/time" &&
	! test -e "$d/0/last_state"
'

test_expect_success 'the run job.yaml holds the machine facts and fingerprint' '
	d=$(group_dir dd) &&
	for k in testbox tbox_group arch kconfig commit rootfs compiler nr_cpu memory \
		 model env_kernel_cmdline env_thp_enabled env_cpufreq_governor env_kconfig_hash; do
		test_grep "^$k: " "$d/0/job.yaml" || return 1
	done &&
	test_grep "^kconfig: defconfig$" "$d/0/job.yaml" &&
	test_grep "^commit: $(uname -r)$" "$d/0/job.yaml"
'

test_expect_success 'perfsift results lists the group with 3 runs' '
	perfsift results testcase=dd >out &&
	test_grep "^dd/.*  3 runs$" out &&
	test "$(wc -l <out)" = 1
'

test_expect_success 'a second run carries on numbering' '
	perfsift run dd.yaml >out &&
	d=$(group_dir dd) &&
	test -d "$d/3" &&
	test "$(nr_values dd mytest.time.elapsed_time)" = 4
'

test_expect_success '--commit names the commit directory' '
	perfsift run dd.yaml --commit 0123abc >out &&
	ls "$PERFSIFT_RESULT_ROOT"/dd/*/*/*/*/*/0123abc/0/job.yaml
'

test_expect_success '-- CMD: the command runs, its key: value lines are stats' '
	printf "testcase: ext\nmytest:\n" >ext.yaml &&
	perfsift run ext.yaml -- sh -c "echo score: 5; echo \"lat: 1.5\"; echo noise" >out &&
	d=$(group_dir ext) &&
	test "$(nr_values ext mytest.score)" = 1 &&
	test_grep "\"mytest.lat\": \[1.5\]" "$d/matrix.json" &&
	test_grep "cmdline: .*sh -c" "$d/0/job.yaml"
'

test_expect_success 'the job keys and RESULT_ROOT reach the command as LKP exports them' '
	cat >envt.yaml <<-\EOT &&
	testcase: envt
	nr_threads: 4
	mytest:
	  cmdline: printf "n%s %s\\n" ":" "$nr_threads"; test -d "$TMP_RESULT_ROOT" && printf "has_tmp%s 1\\n" ":"; echo "$RESULT_ROOT" >&2
	EOT
	perfsift run envt.yaml >out &&
	d=$(group_dir envt) &&
	test_grep "\"mytest.n\": \[4\]" "$d/matrix.json" &&
	test_grep "\"mytest.has_tmp\": \[1\]" "$d/matrix.json" &&
	test "$(cat "$d/0/stderr")" = "$d/0"
'

test_expect_success '--set changes a program option' '
	perfsift run dd.yaml --set "mytest.cmdline=echo v: 7" >out &&
	grep -l "cmdline: \"echo v: 7\"" "$PERFSIFT_RESULT_ROOT"/dd/*/*/*/*/*/*/*/job.yaml
'

test_expect_success 'a job with a list is split and each atomic job run' '
	cat >two.yaml <<-\EOT &&
	testcase: two
	mytest:
	  cmdline: ["echo a: 1", "echo a: 2"]
	EOT
	perfsift run two.yaml >out &&
	test "$(find "$PERFSIFT_RESULT_ROOT/two" -name matrix.json | wc -l)" = 2
'

test_expect_success 'a failing benchmark is a failed run: recorded, not a number' '
	printf "testcase: fail\nmytest:\n  cmdline: echo oops >&2; exit 3\n" >fail.yaml &&
	test_must_fail --status=3 perfsift run fail.yaml -n 2 >out 2>err &&
	d=$(find "$PERFSIFT_RESULT_ROOT/fail" -name 0 -type d) &&
	test_grep "exit_code.3: 1" "$d/last_state" &&
	test_grep "is_incomplete_run: 1" "$d/last_state" &&
	test_grep "oops" err &&
	test -d "${d%/0}/1" &&
	! grep -q "mytest.time.elapsed_time\": \[[0-9]" "${d%/0}/matrix.json"
'

test_expect_success 'a SIGKILL perfsift did not send is a failed run' '
	printf "testcase: oom\nmytest:\n  cmdline: kill -9 \$\$\n" >oom.yaml &&
	test_must_fail --status=3 perfsift run oom.yaml >out 2>err &&
	d=$(find "$PERFSIFT_RESULT_ROOT/oom" -name 0 -type d) &&
	test_grep "killed_by_sigkill: 1" "$d/last_state" &&
	test_grep "is_incomplete_run: 1" "$d/last_state"
'

test_expect_success 'the job timeout ends the benchmark' '
	# it would print its figure after 20 s: the timeout ends it first
	printf "testcase: slow\ntimeout: 1\nmytest:\n  cmdline: \"sleep 20; echo finished: 1\"\n" >slow.yaml &&
	test_must_fail --status=3 perfsift run slow.yaml >out 2>err &&
	d=$(find "$PERFSIFT_RESULT_ROOT/slow" -name 0 -type d) &&
	! grep -qs finished "$d/mytest" &&
	test_grep "timeout: 1" "$d/last_state" &&
	test_grep "is_incomplete_run: 1" "$d/last_state" &&
	test_grep "timeout" out
'

test_expect_when 'command -v script >/dev/null' 'no script(1) here (util-linux)' \
	'on a terminal: one live progress line, no log lines' '
	# the benchmark lasts until the line has ticked once (however
	# late the tick on a loaded machine; 60 s at most)
	cat >tty.yaml <<-EOT &&
	testcase: tty
	runtime: 3s
	mytest:
	  cmdline: '\''i=0; until grep -q "run 1 of 1: [1-9][0-9]* s of 3 s" $PWD/out || [ \$i -ge 600 ]; do sleep 0.1; i=\$((i + 1)); done'\''
	EOT
	script -qec "\"$PERFSIFT\" run tty.yaml" /dev/null >out &&
	test_grep "tty-.*: run 1 of 1: 0 s of 3 s" out &&
	test_grep "tty-.*: run 1 of 1: [1-9][0-9]* s of 3 s" out &&
	test_grep "run 1 of 1: done in" out &&
	! grep -q "run 1 of 1 ->" out
'

test_expect_success 'bad job files: one clear error, exit 2, nothing written' '
	rm -rf bad-root &&
	printf "testcase: t\nmytest: [\n" >bad1.yaml &&
	test_must_fail --status=2 perfsift --result-root bad-root run bad1.yaml 2>err &&
	test_grep "bad1.yaml:" err &&
	printf "testcase: t\nmytest:\n" >bad2.yaml &&
	test_must_fail --status=2 perfsift --result-root bad-root run bad2.yaml 2>err &&
	test_grep "bad2.yaml:2: mytest: no command" err &&
	printf "testcase: t\nvmstat:\n" >bad3.yaml &&
	test_must_fail --status=2 perfsift --result-root bad-root run bad3.yaml 2>err &&
	test_grep "no benchmark" err &&
	test_must_fail --status=2 perfsift --result-root bad-root run dd.yaml -n 0 2>err &&
	test_must_fail --status=2 perfsift --result-root bad-root run dd.yaml --set "nokey" 2>err &&
	test_must_fail --status=2 perfsift --result-root bad-root run 2>err &&
	! test -e bad-root
'

test_done
