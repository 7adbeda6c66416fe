#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t4101: the external programs are in the did-you-mean list of job keys,
# and a typo of a program name is suggested as the bare name (the
# suggestion list once read unset entries past its first growth: a
# crash or garbage `X.sysctl` once the table grew, found by fuzz_job).
. "$(dirname "$0")/lib.sh"

test_expect_success 'a typo of a program of the main table: the bare name' '
	printf "suite: t\ntestcase: t\nsysct: 1\n" >typo.yaml &&
	perfsift split typo.yaml -o out >log 2>err &&
	test_grep "typo.yaml:3: sysct: unknown key; did you mean .sysctl.?" err
'

test_expect_success 'a typo of an external program and of its option' '
	printf "suite: t\ntestcase: t\nhackbnch: 1\nnr_thread: 2\niteratons: 3\n" >typo2.yaml &&
	perfsift split typo2.yaml -o out2 >log 2>err &&
	test_grep "hackbnch: unknown key; did you mean .hackbench.?" err &&
	test_grep "iteratons: unknown key; did you mean .hackbench.iterations.?" err
'

test_done
