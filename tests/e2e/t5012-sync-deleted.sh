#!/bin/sh
# t5012: the disk is the truth both ways.  A run directory or a whole
# group deleted by hand is gone from what the reading commands show:
# the index's sync (src/result/sync.c) forgets the group whose directory
# is gone, and a group of which a run was deleted is forgotten and its
# remaining runs indexed again.  Before, `results` still listed the
# deleted runs and `compare` counted them.
. "$(dirname "$0")/lib.sh"

cat >job.yaml <<'EOT'
testcase: deleted
mytest:
  cmdline: "echo score: 1"
EOT

group_of() { dirname "$(find "$PERFSIFT_RESULT_ROOT" -path "*/$1/0/job.yaml")" | xargs dirname; }

test_expect_success 'setup: two commits of three runs each' '
	perfsift run job.yaml -n 3 --commit c1 >out 2>&1 &&
	perfsift run job.yaml -n 3 --commit c2 >out 2>&1 &&
	perfsift results >res &&
	grep -q "/c1  3 runs" res &&
	grep -q "/c2  3 runs" res
'

test_expect_success 'a run deleted before any read: one run left' '
	perfsift run job.yaml -n 2 --commit c3 >out 2>&1 &&
	rm -r "$(group_of c3)/0" &&
	perfsift results c3 >res 2>err &&
	grep -q "/c3  1 run$" res &&
	grep -q "forgot the runs of .*c3" err
'

test_expect_success 'a run deleted from a group already read' '
	rm -r "$(group_of c1)/1" &&
	perfsift results c1 >res 2>err &&
	grep -q "/c1  2 runs" res &&
	perfsift results --runs c1 >runs &&
	! grep -q "/c1/1$" runs &&
	perfsift compare c1 c2 >cmp 2>&1 &&
	perfsift results >res2 2>err2 &&
	! test -s err2
'

test_expect_success 'a whole group deleted: gone from results and compare' '
	g=$(group_of c2) &&
	rm -r "$g" &&
	perfsift results >res 2>err &&
	! grep -q "/c2 " res &&
	grep -q "forgot group .*c2" err &&
	grep -q "/c1  2 runs" res &&
	test_must_fail perfsift compare c1 c2 >cmp 2>err &&
	grep -q "c2" err
'

test_expect_success 'a whole testcase deleted: no results, exit 0' '
	rm -r "$PERFSIFT_RESULT_ROOT/deleted" &&
	perfsift results >res 2>err &&
	! test -s res &&
	grep -q "no results" err
'

test_done
