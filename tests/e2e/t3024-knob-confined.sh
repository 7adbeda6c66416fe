#!/bin/sh
# shellcheck disable=SC1091,SC2016,SC2034
# t3024: a job names kernel knobs (sysctl's sc_NAME), and perfsift runs as
# root: no name may write outside the knob trees.  A '..' or absolute name
# is a job-file error (exit 2, nothing written); a knob that is a symbolic
# link out of its tree (here in a fake sysroot) is refused at run time and
# the file it points to is never written.
. "$(dirname "$0")/lib.sh"

mkdir -p fake/proc/sys/vm fake/proc/sys/kernel outside
echo 0 >fake/proc/sys/vm/overcommit_memory
echo 0 >outside/file
ln -s ../../../../outside/file fake/proc/sys/vm/evil
ln -s ../kernel fake/proc/sys/vm/kdir
echo 7 >fake/proc/sys/kernel/inner

# job NAME SC_KEY: a job setting sysctl SC_KEY to HACKED whose benchmark
# copies outside/file (what it holds while the knobs are set)
job() {
	cat >"$1.yaml" <<EOT
testcase: t
sysctl:
  $2: HACKED
mytest:
  cmdline: "cat $PWD/outside/file >$PWD/seen-$1"
EOT
}

test_expect_success 'split: a sysctl name with .. is a job-file error' '
	job dots "sc_../../../../$PWD/outside/file" &&
	mkdir w1 && (cd w1 && test_must_fail --status=2 perfsift split -o out ../dots.yaml 2>../err) &&
	test_grep "^../dots.yaml:3: sysctl: sc_\.\./\.\./.*: a sysctl name has no empty, .\.. or .\.\.. part (it must stay under /proc/sys)$" err &&
	test -z "$(ls -A w1)"
'

test_expect_success 'split: an absolute sysctl name is a job-file error' '
	job abs "sc_$PWD/outside/file" &&
	test_must_fail --status=2 perfsift split -o out abs.yaml 2>err &&
	test_grep "^abs.yaml:3: sysctl: sc_/.*: a sysctl name is relative to /proc/sys/<dir>, not an absolute path$" err &&
	! test -e out
'

test_expect_success 'run: a knob that is a symbolic link out of /proc/sys is never written' '
	job evil sc_evil &&
	test_must_fail --status=3 env PERFSIFT_SYSROOT="$PWD/fake" "$PERFSIFT" run evil.yaml 2>err &&
	test_grep "sysctl: ./proc/sys/vm/evil. is a symbolic link out of /proc/sys/" err &&
	! test -e seen-evil &&
	test "$(cat outside/file)" = 0 &&
	! test -s "$PERFSIFT_KNOB_DIR/journal"
'

test_expect_success 'run: a link inside the tree (like sysfs cpufreq) is followed' '
	job inner sc_kdir/inner &&
	PERFSIFT_SYSROOT="$PWD/fake" perfsift run inner.yaml >run.out 2>err &&
	test_grep "sysctl: vm/kdir/inner 7 -> HACKED" run.out &&
	test "$(cat fake/proc/sys/kernel/inner)" = 7
'

test_done
