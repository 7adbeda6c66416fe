#!/bin/sh
# t6006: perfsift bisect-step under `git bisect run`: 0 good, 1 bad,
# 125 skip, in the user's own checkout.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-bisect.sh"

if ! have_runner; then
	test_skip 'bisect-step' 'perfsift run is not in this build'
	test_done
fi

step() {
	(cd repo && sh build.sh && perfsift bisect-step --stat mytest.run_ms \
		--good-value "$1" --bad-value "$2" -n 2 ../job.yaml -- ./prog)
}

# the median bisect-step printed
median_of() {
	sed -n "s/.*median \([0-9.e+-]*\) over.*/\1/p" "$1" | tail -1
}

test_expect_success 'setup: 16 commits, twice the work from c9, c5 unbuildable' '
	make_repo repo 16 9 0 5 &&
	write_job job.yaml
'

test_expect_success 'reference values: c1, good (near 0) against bad 1000' '
	git -C repo checkout -q c1 &&
	step 0 1000 2>err &&
	median_of err >good.value &&
	test -s good.value
'

test_expect_success 'reference values: c16, bad (near 0) against good 1000' '
	git -C repo checkout -q c16 &&
	step 1000 0 2>err;
	test $? -eq 1 &&
	median_of err >bad.value &&
	test -s bad.value
'

test_expect_success 'a commit that gives no stat is skipped (125)' '
	git -C repo checkout -q c10 &&
	(cd repo && sh build.sh && perfsift bisect-step --stat no.such.stat \
		--good-value 1 --bad-value 2 ../job.yaml -- ./prog 2>../err;
	 test $? -eq 125) &&
	test_grep "lack .no.such.stat.: skip" err
'

test_expect_success 'git bisect run with bisect-step finds c9' '
	g=$(cat good.value) && b=$(cat bad.value) &&
	git -C repo checkout -q master &&
	git -C repo bisect start c16 c1 >/dev/null &&
	(cd repo && git bisect run sh -c "sh build.sh || exit 125; \
		\"$PERFSIFT\" bisect-step --stat mytest.run_ms \
		--good-value $g --bad-value $b ../job.yaml -- ./prog") >out 2>err &&
	cat out &&
	test_grep "^$(git -C repo rev-parse c9) is the first bad commit" out &&
	git -C repo bisect reset >/dev/null 2>&1
'

test_done
