#!/bin/sh
# shellcheck disable=SC1091,SC2016,SC2034
# t0110: perfsift install checks what a job needs (benchmark, setup and
# monitor files, root, packages) and says what is missing and why.
. "$(dirname "$0")/lib.sh"

mkdir -p fake/sys/kernel/mm/transparent_hugepage fake/proc/sys/vm
echo 'always [madvise] never' >fake/sys/kernel/mm/transparent_hugepage/enabled

test_expect_success 'a mytest job with an installed package can run' '
	cat >ok.yaml <<-\EOT &&
	testcase: t
	packages: [coreutils]
	mytest:
	  cmdline: "true"
	EOT
	perfsift install ok.yaml >out &&
	test_grep "ok       mytest" out &&
	test_grep "ok       package coreutils" out &&
	test_grep "the job can run here" out
'

test_expect_success 'the shipped quick job can run' '
	perfsift install "$SRCDIR/jobs/quick.yaml" >out &&
	test_grep "the job can run here" out
'

test_expect_when 'test_have_root' 'not root' \
	'setup files are checked under the sysroot; a missing one is fatal' '
	cat >thp.yaml <<-\EOT &&
	testcase: t
	transparent_hugepage:
	  thp_enabled: [never, always]
	drop_caches: 3
	mytest:
	  cmdline: "true"
	EOT
	PERFSIFT_SYSROOT=$PWD/fake perfsift install thp.yaml >out 2>err;
	st=$? &&
	test "$st" = 3 &&
	test_grep "ok       transparent_hugepage" out &&
	test_grep "missing  drop_caches: /proc/sys/vm/drop_caches" out &&
	test_grep "cannot run here" err &&
	test $(grep -c transparent_hugepage out) = 1
'

test_expect_when 'test_have_root' 'not root' \
	'a missing cpufreq driver is a warning, not a failure' '
	cat >gov.yaml <<-\EOT &&
	testcase: t
	cpufreq_governor: performance
	mytest:
	  cmdline: "true"
	EOT
	PERFSIFT_SYSROOT=$PWD/fake perfsift install gov.yaml >out &&
	test_grep "warning  cpufreq_governor" out &&
	test_grep "the job can run here" out
'

test_expect_when 'test_have_root && command -v setpriv >/dev/null' 'needs root and setpriv(1) to become another user' \
	'not root: knobs and packages cannot be had, and it says why' '
	printf "testcase: t\npackages: [perfsift-no-such-package]\nsysctl:\n  sc_overcommit_memory: 1\nmytest:\n  cmdline: \"true\"\n" >nr.yaml &&
	chmod a+rx . && chmod a+r nr.yaml &&
	test_must_fail --status=3 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$PERFSIFT" install nr.yaml >out 2>err &&
	test_grep "missing  root: the job sets kernel knobs" out &&
	test_grep "missing  packages: perfsift-no-such-package (not root" out &&
	test_grep "2 needs not met" err
'

test_expect_success 'a mytest command that is nowhere cannot run' '
	printf "testcase: t\nmytest:\n  cmdline: \"X=1 perfsift-no-such-command --arg\"\n" >nocmd.yaml &&
	test_must_fail --status=3 perfsift install nocmd.yaml >out 2>err &&
	test_grep "missing  mytest: command .perfsift-no-such-command. is neither" out
'

test_expect_success 'a job without a benchmark cannot run' '
	printf "testcase: t\nvmstat:\n" >nobench.yaml &&
	test_must_fail --status=3 perfsift install nobench.yaml >out 2>err &&
	test_grep "names no benchmark" out
'

test_expect_success 'a bad job file: one clear error, exit 2' '
	printf "testcase: t\nmytest: [\n" >bad.yaml &&
	test_must_fail --status=2 perfsift install bad.yaml 2>err &&
	test_grep "bad.yaml:" err
'

test_expect_success 'packages: a shell command in a name is refused, never run' '
	printf "testcase: t\npackages:\n- \"\$(touch %s/pwned)\"\nmytest:\n  cmdline: \"true\"\n" "$PWD" >inject.yaml &&
	test_must_fail --status=2 perfsift install inject.yaml >out 2>err &&
	test_grep "inject.yaml:3: packages: .* is not a Debian package name" err &&
	! test -e pwned
'

test_expect_when 'test_have_root && command -v apt-get >/dev/null' 'needs root and apt-get' \
	'as root, a missing package is handed to apt-get (which fails on it)' '
	printf "testcase: t\npackages: [perfsift-no-such-package, coreutils]\nmytest:\n  cmdline: \"true\"\n" >apt.yaml &&
	test_must_fail --status=3 perfsift install apt.yaml >out 2>err &&
	test_grep "install  apt-get install perfsift-no-such-package *$" out &&
	test_grep "missing  packages: perfsift-no-such-package (apt-get failed)" out
'

test_expect_success 'restore with no journal says so and writes nothing' '
	perfsift restore >out &&
	test_grep "nothing to restore" out &&
	! test -e "$PERFSIFT_RESULT_ROOT"
'

test_done
