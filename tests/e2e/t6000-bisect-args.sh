#!/bin/sh
# t6000: bisect's and bisect-step's arguments, and the git plumbing
# (first-parent path, refusals) -- nothing here runs a job.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-bisect.sh"

test_expect_success 'setup: a repository of 12 commits and a merge' '
	make_repo repo 12 6 &&
	git -C repo checkout -q -b side c4 &&
	echo side >repo/side &&
	git -C repo add side &&
	git -C repo -c user.name=t -c user.email=t@t commit -q -m "side work" &&
	git -C repo checkout -q master &&
	git -C repo -c user.name=t -c user.email=t@t merge -q --no-ff \
		-m "merge side" side &&
	write_job job.yaml &&
	git -C repo rev-parse HEAD >head.before
'

test_expect_success 'bisect --help' '
	perfsift bisect --help >out &&
	test_grep "^usage: perfsift bisect --repo DIR" out &&
	test_grep "exit status" out
'

test_expect_success 'bisect without --repo/--good/--bad is a usage error' '
	test_must_fail --status=2 perfsift bisect --good c1 --bad c12 job.yaml 2>err &&
	test_grep "are required" err
'

test_expect_success 'bisect without a job file is a usage error' '
	test_must_fail --status=2 perfsift bisect --repo repo --good c1 --bad c12 2>err &&
	test_grep "no job file" err
'

test_expect_success 'bisect with a missing job file' '
	test_must_fail --status=2 perfsift bisect --repo repo --good c1 \
		--bad c12 nosuch.yaml 2>err &&
	test_grep "cannot open .nosuch.yaml." err
'

test_expect_success 'bisect: bad -n' '
	test_must_fail --status=2 perfsift bisect --repo repo --good c1 \
		--bad c12 -n 0 job.yaml 2>err &&
	test_grep "\-n .0." err
'

test_expect_success 'bisect: not a git repository' '
	mkdir plain &&
	test_must_fail --status=2 perfsift bisect --repo plain --good c1 \
		--bad c12 job.yaml 2>err &&
	test_grep "not a git work tree" err
'

test_expect_success 'bisect: an unknown revision' '
	test_must_fail --status=2 perfsift bisect --repo repo --good nosuch \
		--bad c12 job.yaml 2>err &&
	test_grep "nosuch. is not a commit" err
'

test_expect_success 'bisect: good after bad is refused' '
	test_must_fail --status=2 perfsift bisect --repo repo --good c9 \
		--bad c3 job.yaml 2>err &&
	test_grep "not on the first-parent history" err
'

test_expect_success 'bisect: good equal to bad is refused' '
	test_must_fail --status=2 perfsift bisect --repo repo --good c3 \
		--bad c3 job.yaml 2>err &&
	test_grep "same commit" err
'

test_expect_success 'bisect: good on a merged side branch is refused' '
	test_must_fail --status=2 perfsift bisect --repo repo --good side \
		--bad master job.yaml 2>err &&
	test_grep "not on the first-parent history" err
'

test_expect_success 'bisect --dry-run: the first-parent path, subjects' '
	perfsift bisect --repo repo --good c2 --bad master --dry-run job.yaml >out &&
	test_grep "^10 commits between good and bad" out &&
	test_grep "(good) change 2\$" out &&
	test_grep "(bad) merge side\$" out &&
	test_grep " change 12\$" out &&
	! grep -q "side work" out &&
	test $(grep -c "^[0-9a-f]\{40\} " out) -eq 12 &&
	git -C repo rev-parse c3 >want &&
	sed -n 3p out | cut -c1-40 >got &&
	test_cmp want got
'

test_expect_success 'bisect --dry-run works from a subdirectory and with -- CMD' '
	mkdir repo/sub &&
	perfsift bisect --repo repo/sub --good c10 --bad c12 --dry-run \
		job.yaml -- ./prog arg >out &&
	test_grep "^1 commits between" out
'

test_expect_success 'the user checkout is never touched' '
	git -C repo rev-parse HEAD >head.after &&
	test_cmp head.before head.after &&
	test -z "$(git -C repo status --porcelain --untracked-files=no)" &&
	test $(git -C repo worktree list | wc -l) -eq 1
'

test_expect_success 'bisect-step --help' '
	perfsift bisect-step --help >out &&
	test_grep "0 good, 1 bad, 125 skip" out
'

test_expect_success 'bisect-step: usage errors abort a git bisect (255)' '
	test_must_fail --status=255 perfsift bisect-step --stat x job.yaml 2>err &&
	test_grep "are required" err
'

test_expect_success 'bisect-step: equal good and bad values' '
	perfsift bisect-step --stat x --good-value 1 --bad-value 1 job.yaml 2>err;
	test $? -eq 255 &&
	test_grep "nothing to tell" err
'

test_expect_success 'bisect-step: a bad value' '
	perfsift bisect-step --stat x --good-value 1 --bad-value abc job.yaml 2>err;
	test $? -eq 255 &&
	test_grep "bad-value .abc." err
'

test_expect_success 'one parser: each command refuses the options of the other' '
	test_must_fail --status=2 perfsift bisect --repo repo --good c1 \
		--bad c12 --good-value 1 job.yaml 2>err &&
	test_grep "good-value is not an option of this command" err &&
	perfsift bisect-step --stat x --good-value 1 --bad-value 2 \
		--repo repo job.yaml 2>err;
	test $? -eq 255 &&
	test_grep "repo is not an option of this command" err
'

test_expect_success 'bisect-step outside a git work tree' '
	(cd plain && perfsift bisect-step --stat x --good-value 1 \
		--bad-value 2 ../job.yaml 2>../err; test $? -eq 255) &&
	test_grep "not in a git work tree" err
'

test_done
