#!/bin/sh
# t6000: bisect's and bisect-step's arguments, and the git plumbing
# (first-parent path, refusals) -- nothing here runs a job.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-bisect.sh"

# refused STATUS PATTERN ARGS...: perfsift ARGS exits STATUS and says
# PATTERN on stderr (bisect-step's usage errors are 255: git's "abort")
refused() {
	want=$1 pattern=$2
	shift 2
	perfsift "$@" 2>err
	got=$?
	[ "$got" -eq "$want" ] || { echo "exit $got, not $want"; cat err; return 1; }
	test_grep "$pattern" err
}

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
	mkdir plain &&
	git -C repo rev-parse HEAD >head.before
'

test_expect_success 'bisect --help and bisect-step --help' '
	perfsift bisect --help >out &&
	test_grep "^usage: perfsift bisect --repo DIR" out &&
	test_grep "exit status" out &&
	perfsift bisect-step --help >out &&
	test_grep "0 good, 1 bad, 125 skip" out
'

# the refusals, one per line: title | exit status | message | arguments
while IFS='|' read -r title status pattern args; do
	test_expect_success "$title" "refused $status '$pattern' $args"
done <<'EOF_TABLE'
bisect without --repo/--good/--bad|2|are required|bisect --good c1 --bad c12 job.yaml
bisect without a job file|2|no job file|bisect --repo repo --good c1 --bad c12
bisect with a missing job file|2|cannot open .nosuch.yaml.|bisect --repo repo --good c1 --bad c12 nosuch.yaml
bisect: bad -n|2|-n .0.|bisect --repo repo --good c1 --bad c12 -n 0 job.yaml
bisect: --max-runs below -n|2|below -n|bisect --repo repo --good c1 --bad c12 -n 4 --max-runs 3 job.yaml
bisect: -- without a command|2|must be followed by a command|bisect --repo repo --good c1 --bad c12 job.yaml --
bisect: not a git repository|2|not a git work tree|bisect --repo plain --good c1 --bad c12 job.yaml
bisect: an unknown revision|2|nosuch. is not a commit|bisect --repo repo --good nosuch --bad c12 job.yaml
bisect: good after bad is refused|2|not on the first-parent history|bisect --repo repo --good c9 --bad c3 job.yaml
bisect: good equal to bad is refused|2|same commit|bisect --repo repo --good c3 --bad c3 job.yaml
bisect: good on a merged side branch is refused|2|not on the first-parent history|bisect --repo repo --good side --bad master job.yaml
bisect refuses bisect-step's options|2|good-value is not an option of this command|bisect --repo repo --good c1 --bad c12 --good-value 1 job.yaml
bisect-step: usage errors abort a git bisect (255)|255|are required|bisect-step --stat x job.yaml
bisect-step: equal good and bad values|255|nothing to tell|bisect-step --stat x --good-value 1 --bad-value 1 job.yaml
bisect-step: a bad value|255|bad-value .abc.|bisect-step --stat x --good-value 1 --bad-value abc job.yaml
bisect-step refuses bisect's options|255|repo is not an option of this command|bisect-step --stat x --good-value 1 --bad-value 2 --repo repo job.yaml
bisect-step outside a git work tree|255|not in a git work tree|bisect-step --stat x --good-value 1 --bad-value 2 job.yaml
EOF_TABLE

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

test_done
