#!/bin/sh
# shellcheck disable=SC1091,SC2016,SC2034
# t1020: splitting LKP's vm-scalability job (eight documents: doc0, then
# doc0 merged with each later one) and LKP's path_params in file names.
. "$(dirname "$0")/lib.sh"

test_expect_success 'vm-scalability.yaml: one atomic job per test of each document' '
	perfsift split --testbox tbox -o out "$TESTDATA/lkp/jobs/vm-scalability.yaml" >printed &&
	# count the tests of each document: the "- name" lines under test:
	want=$(grep -c "^    - " "$TESTDATA/lkp/jobs/vm-scalability.yaml") &&
	test "$want" -eq 41 &&
	test "$(wc -l <printed)" -eq "$want" &&
	test "$(ls out | wc -l)" -eq "$want"
'

test_expect_success 'vm-scalability: names carry runtime, size, test, unit_size' '
	test -f out/vm-scalability-300s-anon-r-rand.yaml &&
	test -f out/vm-scalability-300s-16G-shm-pread-rand-mt-1G.yaml &&
	test -f out/vm-scalability-300s-128G-truncate-seq.yaml &&
	test -f out/vm-scalability-300s-8T-anon-wx-seq-mt.yaml
'

test_expect_success 'vm-scalability: a later document merges onto doc0' '
	f=out/vm-scalability-300s-16G-shm-xread-rand-mt-1G.yaml &&
	test_grep "^size: 16G$" $f &&
	test_grep "^  unit_size: 1G$" $f &&
	test_grep "^  test: shm-xread-rand-mt$" $f &&
	test_grep "^perf-profile:$" $f &&
	test_grep "^category: benchmark$" $f
'

test_expect_success 'the path_params example of lkp-compare.md 1.1' '
	cat >lru.yaml <<-\EOT &&
	suite: vm-scalability
	testcase: vm-scalability
	category: benchmark
	cpufreq_governor: performance
	runtime: 300s
	size:
	vm-scalability:
	  test: lru-file-mmap-read-rand
	EOT
	perfsift split --testbox t -o o2 lru.yaml >printed &&
	echo o2/lru-performance-300s-lru-file-mmap-read-rand.yaml >expect &&
	test_cmp expect printed
'

test_expect_success 'a job with no parameters is named defaults' '
	printf "suite: x\nmytest:\n" >plain.yaml &&
	perfsift split --testbox t plain.yaml >printed &&
	echo plain-defaults.yaml >expect &&
	test_cmp expect printed
'

test_expect_success 'two atomic jobs that would share a name: error, nothing written' '
	mkdir w && printf "suite: x\nmytest:\nnr: [1, 2]\n" >w/clash.yaml &&
	(cd w && test_must_fail --status=2 perfsift split clash.yaml 2>../err) &&
	test_grep "two atomic jobs would both be '\''clash-defaults.yaml'\''" err &&
	echo clash.yaml >expect && ls w >actual && test_cmp expect actual
'

test_expect_success 'the same list as a program option names both jobs' '
	printf "suite: x\nmytest:\n  nr: [1, 2]\n" >opt.yaml &&
	perfsift split --testbox t opt.yaml >printed &&
	printf "opt-1.yaml\nopt-2.yaml\n" >expect &&
	test_cmp expect printed
'

test_done
