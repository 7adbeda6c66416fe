#!/bin/sh
# shellcheck disable=SC1091,SC2016,SC2034
# t1000: `perfsift split` against LKP's split-job fixtures: the same atomic
# jobs, under the same names, with the same values and machine fields.
# The fixtures' `#! include/...` sections come from LKP's ERB include
# templates, which perfsift does not run, so both sides are compared with
# those sections, comments, blank lines and `---` removed.
. "$(dirname "$0")/lib.sh"

FIX=$TESTDATA/lkp/split-job

# normalise FILE: drop `#! include/` sections, comments, blanks, ---
normalise() {
	awk '
		/^#! include\// { skip = 1; next }
		/^#!/ { skip = 0; next }
		skip { next }
		/^[ \t]*#/ || /^[ \t]*$/ || /^---$/ { next }
		{ print }
	' "$1"
}

arch=$(uname -m)

for job in 1 2; do
	test_expect_success "fixture $job.yaml: the atomic jobs and their names" '
		mkdir -p spec/fixtures/split-job out$job &&
		cp "$FIX/$job.yaml" spec/fixtures/split-job/ &&
		perfsift split --testbox lkp-tbox -o out$job \
			spec/fixtures/split-job/$job.yaml >printed &&
		(cd "$FIX" && ls $job-*.yaml) >expect &&
		(cd out$job && ls) >actual &&
		test_cmp expect actual &&
		sed "s|^|out$job/|" expect >expect.printed &&
		sort printed >actual.printed &&
		test_cmp expect.printed actual.printed
	'

	test_expect_success "fixture $job.yaml: the content of each atomic job" '
		for f in $(cd "$FIX" && ls $job-*.yaml); do
			normalise "$FIX/$f" | sed "s/^arch: x86_64$/arch: $arch/" >expect &&
			normalise out$job/$f >actual &&
			test_cmp expect actual || return 1
		done
	'
done

test_expect_success 'an atomic job splits into itself (named as LKP names it: stem-path_params)' '
	mkdir again &&
	(cd again && perfsift split --testbox lkp-tbox ../out2/2-group_1-test_2.yaml >printed) &&
	echo 2-group_1-test_2-group_1-test_2.yaml >expect &&
	test_cmp expect again/printed &&
	test_cmp out2/2-group_1-test_2.yaml again/2-group_1-test_2-group_1-test_2.yaml
'

test_expect_success 'without -o the jobs go into the current directory' '
	mkdir cwd && (cd cwd && perfsift split --testbox lkp-tbox-2 "$FIX/1.yaml" >../printed) &&
	printf "1-test_1.yaml\n1-test_2.yaml\n1-test_3.yaml\n" >expect &&
	test_cmp expect printed &&
	test_grep "^testbox: lkp-tbox-2$" cwd/1-test_1.yaml &&
	test_grep "^tbox_group: lkp-tbox$" cwd/1-test_1.yaml
'

test_expect_success 'the testbox defaults to the host name' '
	mkdir host && (cd host && perfsift split "$FIX/1.yaml" >/dev/null) &&
	test_grep "^testbox: $(uname -n)$" host/1-test_3.yaml
'

test_expect_success 'split --help' '
	perfsift split --help >out &&
	test_grep "usage: perfsift split JOB.yaml" out
'

test_expect_success 'split with no job file is a usage error' '
	test_must_fail --status=2 perfsift split 2>err &&
	test_grep "usage:" err
'

test_done
