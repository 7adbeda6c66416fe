#!/bin/sh
# t5011: a command that selects several groups (report, compare) looks at
# the disk once for all of them: the index is synced once, so of 66 run
# directories it lacks, one such command indexes the sync's 64 and says
# that 2 are left -- not 64 for BASE and 2 more for HEAD (issue 27).
. "$(dirname "$0")/lib.sh"

cat >job.yaml <<'EOT'
testcase: onesync
mytest:
  cmdline: "echo score: 1"
EOT

test_expect_success 'setup: two commits, an index, 66 run directories it lacks' '
	perfsift run job.yaml -n 2 --commit c1 >out 2>&1 &&
	perfsift run job.yaml -n 2 --commit c2 >out 2>&1 &&
	perfsift run job.yaml -n 1 --commit c3 >out 2>&1 &&
	test -f "$PERFSIFT_RESULT_ROOT/perfsift.db" &&
	g=$(dirname "$(find "$PERFSIFT_RESULT_ROOT" -path "*/c3/0/job.yaml")") &&
	g=$(dirname "$g") &&
	i=1 &&
	while [ $i -le 66 ]; do
		cp -r "$g/0" "$g/$i" || return 1
		i=$((i + 1))
	done
'

# the notes a command wrote about the runs the index lacked
indexed() { grep -c "^perfsift[^:]*: indexed .*, a run directory the index lacked" "$1"; }

test_expect_success 'report BASE HEAD: one sync (64 indexed, 2 left)' '
	perfsift report c1 c2 >rep 2>err &&
	test "$(indexed err)" = 64 &&
	test "$(grep -c "2 more run directories are not indexed" err)" = 1
'

test_expect_success 'compare of three groups: one sync (the 2 left)' '
	perfsift compare c1 c2 c3 >cmp 2>err &&
	test "$(indexed err)" = 2 &&
	! grep -q "not indexed" err
'

test_done
