#!/bin/sh
# t9000: perfsift robot's command line and config: --help, a broken
# config is one clear FILE:LINE: KEY: error with exit 2 and nothing
# written, --status on a fresh root.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-robot.sh"

# robot_fails CONFIG PATTERN: exit 2, one line of stderr matching PATTERN,
# and no result root made
robot_fails() {
	test_must_fail --status=2 perfsift robot --config "$1" --once 2>err &&
	cat err &&
	test "$(wc -l <err)" -eq 1 &&
	test_grep "$2" err &&
	test ! -e "$PERFSIFT_RESULT_ROOT"
}

test_expect_success 'setup: a job and a good config' '
	write_robot_job job.yaml &&
	write_config good.yaml "$PWD/nowhere"
'

test_expect_success '--help prints the usage, exit 0' '
	perfsift robot --help >out &&
	test_grep "^usage: perfsift robot --config ROBOT.yaml" out &&
	test_grep "exit status" out
'

test_expect_success 'no --config: usage error, exit 2' '
	test_must_fail --status=2 perfsift robot --once 2>err &&
	test_grep "config ROBOT.yaml is required" err
'

test_expect_success '--once with --interval: exit 2' '
	test_must_fail --status=2 perfsift robot --config good.yaml --once \
		--interval 5 2>err &&
	test_grep "exclude each other" err
'

test_expect_success 'a missing config file' '
	robot_fails none.yaml "cannot open config .none.yaml."
'

test_expect_success 'a typo in a key: its line, and the key meant' '
	sed "s/branches:/branchs:/" good.yaml >typo.yaml &&
	robot_fails typo.yaml "^perfsift robot: error: typo.yaml:5: branchs: unknown key in repos (did you mean .branches.?)"
'

test_expect_success 'a YAML syntax error: file and line' '
	printf "repos:\n  - name: [x\n" >syntax.yaml &&
	test_must_fail --status=2 perfsift robot --config syntax.yaml --once 2>err &&
	cat err &&
	test_grep "syntax.yaml:[0-9]*:" err &&
	test ! -e "$PERFSIFT_RESULT_ROOT"
'

test_expect_success 'runs: 0 is refused at its line' '
	sed "s/runs: 3/runs: 0/" good.yaml >runs.yaml &&
	robot_fails runs.yaml "runs.yaml:10: runs: "
'

test_expect_success 'max_runs: not a number, or below runs, is refused at its line' '
	sed "s/runs: 3/runs: 3\n    max_runs: lots/" good.yaml >max1.yaml &&
	robot_fails max1.yaml "max1.yaml:11: max_runs: " &&
	sed "s/runs: 3/runs: 3\n    max_runs: 2/" good.yaml >max2.yaml &&
	robot_fails max2.yaml "max2.yaml:11: max_runs: 2 is below runs"
'

test_expect_success 'bisect_max_runs: not a number, or below runs, is refused at its line' '
	sed "s/runs: 3/runs: 3\n    bisect_max_runs: 1e9/" good.yaml >bmax1.yaml &&
	robot_fails bmax1.yaml "bmax1.yaml:11: bisect_max_runs: " &&
	sed "s/runs: 3/runs: 3\n    bisect_max_runs: 2/" good.yaml >bmax2.yaml &&
	robot_fails bmax2.yaml "bmax2.yaml:11: bisect_max_runs: 2 is below runs"
'

test_expect_success 'a job file that does not exist' '
	sed "s/job: job.yaml/job: nojob.yaml/" good.yaml >missing-job.yaml &&
	robot_fails missing-job.yaml "missing-job.yaml:9: job: cannot open .*nojob.yaml"
'

test_expect_success 'a job that declares no kpi' '
	printf "testcase: robot-e2e\nmytest:\n  cmdline: sh bench.sh\n" >nokpi-job.yaml &&
	sed "s/job: job.yaml/job: nokpi-job.yaml/" good.yaml >nokpi.yaml &&
	robot_fails nokpi.yaml "nokpi.yaml:9: job: .* declares no kpi"
'

test_expect_success 'no way to mail, or two' '
	grep -v "mbox:" good.yaml >nomail.yaml &&
	robot_fails nomail.yaml "nomail.yaml:[0-9]*: mail: needs one of mbox" &&
	printf "  maildir: %s/md\n" "$PWD" >>good2.yaml &&
	cat good.yaml good2.yaml >twomail.yaml &&
	robot_fails twomail.yaml "twomail.yaml:[0-9]*: mail: give one of"
'

test_expect_success 'two repos of one name' '
	write_config dup.yaml "$PWD/nowhere" "  - name: demo
    url: /elsewhere
    base: main
    branches: [x]" &&
	robot_fails dup.yaml "dup.yaml:7: name: .demo. names two repos"
'

test_expect_success 'kernel: without a build: is refused at its line' '
	write_config knobuild.yaml "$PWD/nowhere" "    kernel: arch/x86/boot/bzImage" &&
	sed -i "/build: /d" knobuild.yaml &&
	robot_fails knobuild.yaml "knobuild.yaml:6: kernel: needs a build: command that makes it"
'

test_expect_success '--status on a fresh root: nothing yet, exit 0' '
	perfsift robot --config good.yaml --status >out &&
	test_grep "no pass has run yet" out
'

test_done
