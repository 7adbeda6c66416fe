#!/bin/sh
# t8000: the lab's queue in a throwaway PostgreSQL server (lib-pg.sh):
# its tables made and migrated on a store of the index's current schema,
# `queue add` (one task per atomic job; a bad job enqueues nothing),
# `list` (table and --json), `cancel`, `retry`, `workers`, a store that
# cannot connect, and a worker of another group that never takes a task.
. "$(dirname "$0")/lib.sh"

: "${PERFSIFT_BUILD:=$SRCDIR/build}"
. "$SRCDIR/tests/e2e/lib-pg.sh"
. "$SRCDIR/tests/e2e/lib-lab.sh"

if ! pg_available; then
	test_skip 'the lab queue' 'no PostgreSQL server programs or no libpq'
	test_done
fi

# what the store holds (the test bodies are single-quoted: no SQL quotes)
meta() { q "SELECT value FROM perfsift_meta WHERE key = '$1'"; }
has_table() { q "SELECT to_regclass('$1') IS NOT NULL"; }
state_of() { q "SELECT state FROM lab_tasks WHERE id = $1"; }
runs_of() {
	q "SELECT count(*) FROM runs r JOIN groups g ON g.id = r.group_id WHERE g.commit_id = '$1'"
}

test_expect_success 'a throwaway PostgreSQL server starts' 'pg_start'

R=$PERFSIFT_RESULT_ROOT
G=$R/dd/defaults/box/debian/defconfig/gcc-12/abc123

test_expect_success 'a store of the current schema gains the lab tables' '
	mkdir -p "$G/0" &&
	cp "$TESTDATA/lkp-generated/time/1" "$G/0/dd.time" &&
	perfsift --store "$URL" stats -q "$G/0" &&
	test "$(has_table lab_tasks)" = f &&
	perfsift --store "$URL" queue list >out &&
	test "$(meta lab_schema)" = 3 &&
	test "$(meta schema)" = 3 &&
	test "$(q "SELECT count(*) FROM lab_tasks")" = 0 &&
	perfsift --store "$URL" results >out &&
	test_grep "abc123  1 run" out
'

test_expect_success 'lab tables of version 1 gain the tasks'"'"' workdir (version 2, then 3)' '
	q "ALTER TABLE lab_tasks DROP COLUMN workdir" &&
	q "UPDATE perfsift_meta SET value = \$\$1\$\$ WHERE key = \$\$lab_schema\$\$" &&
	perfsift --store "$URL" queue list >out &&
	test "$(meta lab_schema)" = 3 &&
	test "$(q "SELECT count(*) FROM information_schema.columns WHERE table_name = \$\$lab_tasks\$\$ AND column_name = \$\$workdir\$\$")" = 1
'

cat >job.yaml <<'EOF'
testcase: mytest
mytest:
  cmdline:
    - "echo score: 1"
    - "echo score: 2"
    - "echo score: 3"
EOF

test_expect_success 'queue add: one task per atomic job, ids printed' '
	perfsift --store "$URL" queue add job.yaml --testbox-group box \
		--commit c1 -n 2 --priority 5 >ids &&
	test $(wc -l <ids) = 3 &&
	cut -f1 ids >idlist &&
	test "$(q "SELECT id FROM lab_tasks ORDER BY id")" = "$(cat idlist)" &&
	test "$(count_state queued "AND runs = 2 AND priority = 5 AND commit_id = \$\$c1\$\$")" = 3
'

test_expect_success 'queue list: the table and --json' '
	perfsift --store "$URL" queue list >out &&
	test $(grep -c "queued *box *job-echo_score" out) = 3 &&
	test_grep "0/2" out &&
	perfsift --store "$URL" queue list --json >j &&
	python3 -c "
import json, sys
a = json.load(open(\"j\"))
assert len(a) == 3, a
for t in a:
    assert t[\"state\"] == \"queued\" and t[\"group\"] == \"box\", t
    assert t[\"runs\"] == 2 and t[\"runs_done\"] == 0 and t[\"commit\"] == \"c1\", t
    assert t[\"worker\"] is None and t[\"attempts\"] == 0, t
    assert set(t) >= {\"id\", \"job\", \"last_error\"}, t
" &&
	perfsift --store "$URL" queue list --state done --json >j &&
	test "$(cat j)" = "[]"
'

test_expect_success 'a broken job is one FILE:LINE: KEY: error; nothing enqueued' '
	printf "testcase: mytest\nmytest:\n  cmdline: \"x\"\n  bogus: [\n" >bad.yaml &&
	test_must_fail perfsift --store "$URL" queue add bad.yaml --testbox-group box 2>err &&
	test $(wc -l <err) = 1 &&
	test_grep "bad.yaml:4: bogus: " err &&
	printf "testcase: mytest\nmytest: \"x\"\nruntime: soon\n" >bad2.yaml &&
	test_must_fail perfsift --store "$URL" queue add bad2.yaml --testbox-group box 2>err &&
	test_grep "bad2.yaml:3: runtime: " err &&
	test "$(q "SELECT count(*) FROM lab_tasks")" = 3
'

test_expect_success 'a job with no group is an error; nothing enqueued' '
	printf "testcase: mytest\nmytest: \"echo\"\n" >nogroup.yaml &&
	test_must_fail perfsift --store "$URL" queue add nogroup.yaml 2>err &&
	test_grep "tbox_group: no test-box group" err &&
	test "$(q "SELECT count(*) FROM lab_tasks")" = 3
'

test_expect_success 'Q1 (attack 5): a group with ESC is refused, shown escaped; nothing enqueued' '
	test_must_fail --status=2 perfsift --store "$URL" queue add job.yaml \
		--testbox-group "g$(printf "\033")[2J" >out 2>err &&
	test_grep "a control character" err &&
	! LC_ALL=C grep -q "$(printf "\033")" out err &&
	printf "%s\n" "testcase: mytest" "mytest: echo" "tbox_group: \"b\\x1b]0;x\"" >escgroup.yaml &&
	test_must_fail perfsift --store "$URL" queue add escgroup.yaml 2>err &&
	test_grep "tbox_group: .b.x1b]0;x. is no plain name" err &&
	test "$(q "SELECT count(*) FROM lab_tasks")" = 3
'

test_expect_success 'a kernel release that is an option or words is refused; nothing enqueued' '
	long=$(printf "%065d" 0) &&
	for r in -x "a b" "6.1;id" "" "r\$(id)" "$long"; do
		test_must_fail --status=2 perfsift --store "$URL" queue add job.yaml \
			--testbox-group box --kernel "$r" 2>err &&
		test $(wc -l <err) = 1 &&
		test_grep "is 1 to 64 letters, digits" err || return 1
	done &&
	test "$(q "SELECT count(*) FROM lab_tasks")" = 3
'

test_expect_success 'a store that cannot connect is one clear error' '
	test_must_fail perfsift --store "postgresql:///x?host=$PGDIR/none" \
		queue add job.yaml --testbox-group box 2>err &&
	test $(wc -l <err) = 1 &&
	test_grep "cannot connect" err &&
	test_must_fail perfsift queue list 2>err &&
	test_grep "PostgreSQL store" err
'

test_expect_success 'cancel and retry' '
	id=$(sed -n 1p idlist) &&
	perfsift --store "$URL" queue cancel $id &&
	test "$(state_of $id)" = cancelled &&
	test_must_fail perfsift --store "$URL" queue cancel $id 2>err &&
	test_grep "task $id is cancelled: nothing to cancel" err &&
	perfsift --store "$URL" queue retry $id &&
	test "$(state_of $id)" = queued &&
	test_must_fail perfsift --store "$URL" queue retry $id 2>err &&
	test_grep "is queued: nothing to retry" err &&
	test_must_fail perfsift --store "$URL" queue cancel 999 2>err &&
	test_grep "no task 999" err &&
	test_must_fail perfsift --store "$URL" queue cancel x 2>err
'

test_expect_success 'a worker of another group never takes a task' '
	perfsift --store "$URL" --result-root w1 worker --testbox other-1 --once >out &&
	test_grep "no task of group .other. is queued" out &&
	test "$(count_state queued)" = 3 &&
	perfsift --store "$URL" --result-root w1 worker --testbox other-1 --drain >out &&
	test "$(count_state queued)" = 3 &&
	perfsift --store "$URL" queue workers >out &&
	test_grep "^other-1  *other " out
'

test_expect_success 'a worker of the group takes one task with --once' '
	perfsift --store "$URL" --result-root w2 worker --testbox box-2 --once >out &&
	test "$(count_state done "AND runs_done = 2 AND worker = \$\$box-2\$\$")" = 1 &&
	test "$(runs_of c1)" = 2
'

# the GRANTs docs/lab.md gives a worker's role (its second sql block)
awk '/^```sql/ { n++; b = 1; next } /^```/ { b = 0 } b && n == 2 { print }' \
	"$SRCDIR/docs/lab.md" | sed 's/^\\c perfsift$//' >grants.sql

test_expect_success 'a worker role with docs/lab.md grants runs a task, queues none' '
	test_grep "GRANT SELECT ON lab_tasks TO perfsift_worker" grants.sql &&
	test_grep "^GRANT UPDATE (state, worker, lease_s" grants.sql &&
	psql -q -h "$PGDIR" -U postgres -d ps -c "CREATE ROLE perfsift_worker LOGIN" &&
	sed "s/DATABASE perfsift/DATABASE ps/" grants.sql |
		psql -q -v ON_ERROR_STOP=1 -h "$PGDIR" -U postgres -d ps >out 2>&1 &&
	WURL="postgresql:///ps?host=$PGDIR&user=perfsift_worker" &&
	n=$(count_state done) &&
	perfsift --store "$WURL" --result-root w3 worker --testbox box-3 --once >out &&
	test "$(count_state done)" = $((n + 1)) &&
	test_must_fail perfsift --store "$WURL" queue add job.yaml --testbox-group box 2>err &&
	test_grep "permission denied" err
'

test_done
