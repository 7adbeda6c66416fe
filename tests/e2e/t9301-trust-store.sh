#!/bin/sh
# shellcheck disable=SC2016
# t9301: a store shared by boxes is trusted for data only (issue 25), in
# a throwaway PostgreSQL server (lib-pg.sh):
# F2 -- nothing pulled is ever run: a pulled run's NAME.plugin or
#       job_origin naming a parse script inside the run is not used by
#       `stats RUN` or `stats --all`, nor a plug-in below a pulled run;
# F3 -- a worker role with docs/lab.md's GRANTs (and even with the older
#       table-wide UPDATE) cannot change what a task runs;
# F4 -- pull refuses a stored group or run directory that leads out of
#       the root, and a file name with a control character;
# F5 -- a worker refuses a stored job name that is a path (and W1, of
#       the fifth attack, a task of -1 runs);
# F12 -- a password in the store URL is printed by no command.
. "$(dirname "$0")/lib.sh"

: "${PERFSIFT_BUILD:=$SRCDIR/build}"
. "$SRCDIR/tests/e2e/lib-pg.sh"
. "$SRCDIR/tests/e2e/lib-lab.sh"

if ! pg_available; then
	test_skip 'the shared store' 'no PostgreSQL server programs or no libpq'
	test_done
fi

test_expect_success 'a throwaway PostgreSQL server starts' 'pg_start'

cat >job.yaml <<'EOF2'
testcase: mytest
mytest:
  cmdline: "echo score: 5"
EOF2

# the run directory of commit $2 run 0 under root $1, relative to it
run_of() { (cd "$1" && find . -path "*/$2/0" -type d | sed 's|^\./||'); }

V=$TEST_TMP/victim

test_expect_success 'setup: an attacker box pushes a run with a parse script in it' '
	perfsift --result-root atk run job.yaml --commit evil >/dev/null &&
	r=$(run_of atk evil) && echo "$r" >rel &&
	test -n "$r" &&
	printf "evilp:\n  mode: x\njob_origin: %s\n" "$V/$r/job.yaml" >>"atk/$r/job.yaml" &&
	echo "score 1" >"atk/$r/evilp" &&
	echo "$V/$r/sub/evilp" >"atk/$r/evilp.plugin" &&
	mkdir -p "atk/$r/sub/evilp" "atk/$r/programs/evilp" &&
	printf "File.write(\"%s\", \"pwned\")\nputs \"score: 9\"\n" "$TEST_TMP/PWNED" \
		>"atk/$r/sub/evilp/parse" &&
	printf "#!/usr/bin/env ruby\n" | cat - "atk/$r/sub/evilp/parse" >"atk/$r/programs/evilp/parse" &&
	printf "#!/usr/bin/env ruby\n" | cat - "atk/$r/sub/evilp/parse" >x && mv x "atk/$r/sub/evilp/parse" &&
	perfsift --store "$URL" --result-root atk push >out &&
	test_grep "^1 run pushed" out &&
	test ! -e PWNED
'

test_expect_success 'F2: stats on the pulled run runs none of its scripts' '
	command -v ruby >/dev/null || test_skip "no ruby (the attack used a Ruby parse script)"
	perfsift --store "$URL" --result-root "$V" pull evil >out &&
	test_grep "^1 run pulled" out &&
	r=$(cat rel) &&
	test -f "$V/$r/.perfsift-pulled" &&
	test -f "$V/$r/sub/evilp/parse" &&
	perfsift --result-root "$V" stats "$V/$r" >out 2>&1 ; cat out &&
	test ! -e PWNED &&
	perfsift --result-root "$V" stats --all >out 2>&1 ; cat out &&
	test ! -e PWNED
'

test_expect_success 'F2: a job run from inside a pulled run gets no plug-in from it' '
	r=$(cat rel) &&
	test_must_fail --status=2 perfsift --result-root "$TEST_TMP/other" run "$V/$r/job.yaml" 2>err &&
	cat err &&
	test_grep "evilp: unknown program" err &&
	test ! -e PWNED
'

test_expect_success 'F2: a configured plug-in still parses a pulled run' '
	mkdir -p mine/evilp &&
	printf "#!/bin/sh\necho \"score: 7\"\n" >mine/evilp/parse &&
	chmod +x mine/evilp/parse &&
	r=$(cat rel) &&
	PERFSIFT_PROGRAMS=$TEST_TMP/mine perfsift --result-root "$V" stats "$V/$r" &&
	test ! -e PWNED &&
	grep "\"evilp.score\"" "$V/$r/stats.json"
'

# the GRANTs docs/lab.md gives a worker's role (its second sql block)
awk '/^```sql/ { n++; b = 1; next } /^```/ { b = 0 } b && n == 2 { print }' \
	"$SRCDIR/docs/lab.md" | sed 's/^\\c perfsift$//' >grants.sql
WURL="postgresql:///ps?host=$PGDIR&user=perfsift_worker"
wq() { psql -qAt -h "$PGDIR" -U perfsift_worker -d ps -c "$1"; }

test_expect_success 'F3: the worker role (docs/lab.md GRANTs) cannot change a task'"'"'s job' '
	perfsift --store "$URL" queue add job.yaml --testbox-group box --commit c1 >ids &&
	psql -q -h "$PGDIR" -U postgres -d ps -c "CREATE ROLE perfsift_worker LOGIN" &&
	sed "s/DATABASE perfsift/DATABASE ps/" grants.sql |
		psql -q -v ON_ERROR_STOP=1 -h "$PGDIR" -U postgres -d ps >out 2>&1 &&
	id=$(cut -f1 ids) &&
	test_must_fail wq "UPDATE lab_tasks SET job_yaml = \$\$mytest: {cmdline: touch $TEST_TMP/PWNED}\$\$ WHERE id = $id" 2>err &&
	cat err && test_grep "permission denied" err &&
	test_must_fail wq "UPDATE lab_tasks SET job_name = \$\$x\$\$, commit_id = \$\$c2\$\$ WHERE id = $id" 2>err &&
	test_grep "permission denied" err &&
	wq "UPDATE lab_tasks SET last_error = \$\$fine\$\$ WHERE id = $id"
'

test_expect_success 'F3: the lab tables refuse it even with a table-wide UPDATE grant' '
	id=$(cut -f1 ids) &&
	q "GRANT UPDATE ON lab_tasks TO perfsift_worker" &&
	test_must_fail wq "UPDATE lab_tasks SET job_yaml = \$\$mytest: {cmdline: touch $TEST_TMP/PWNED}\$\$ WHERE id = $id" 2>err &&
	cat err && test_grep "what a task runs is fixed when it is queued" err &&
	test_must_fail wq "DROP TRIGGER lab_tasks_fixed ON lab_tasks" 2>err &&
	test_grep "must be owner" err &&
	test_must_fail wq "ALTER TABLE lab_tasks DISABLE TRIGGER lab_tasks_fixed" 2>err &&
	q "REVOKE UPDATE ON lab_tasks FROM perfsift_worker" &&
	sed "s/DATABASE perfsift/DATABASE ps/" grants.sql | psql -q -v ON_ERROR_STOP=1 -h "$PGDIR" -U postgres -d ps &&
	perfsift --store "$WURL" --result-root w1 worker --testbox box-1 --once >out &&
	test "$(count_state done)" = 1 &&
	test ! -e PWNED
'

test_expect_success 'F5: a stored job name that is a path is not written' '
	mkdir -p w2/cron.d &&
	q "INSERT INTO lab_tasks (tbox_group, job_name, job_yaml, runs) SELECT tbox_group, \$\$../../cron.d/x.yaml\$\$, job_yaml, 1 FROM lab_tasks LIMIT 1" &&
	perfsift --store "$WURL" --result-root w2 worker --testbox box-2 --once >out 2>&1 ; cat out &&
	test -z "$(find "$TEST_TMP" -name x.yaml)" &&
	q "SELECT last_error FROM lab_tasks WHERE job_name LIKE \$\$../%\$\$" >le &&
	cat le && grep -F "is no plain file name" le
'

test_expect_success 'W1 (attack 5): a stored task of -1 runs fails, the worker lives' '
	q "UPDATE lab_tasks SET state = \$\$cancelled\$\$ WHERE state = \$\$queued\$\$" &&
	q "INSERT INTO lab_tasks (tbox_group, job_name, job_yaml, runs, max_attempts) SELECT tbox_group, \$\$neg.yaml\$\$, job_yaml, -1, 1 FROM lab_tasks LIMIT 1" &&
	perfsift --store "$WURL" --result-root w2 worker --testbox box-2 --once >out 2>&1 ; st=$? ; cat out &&
	test "$st" = 0 &&
	q "SELECT state, last_error FROM lab_tasks WHERE job_name = \$\$neg.yaml\$\$" >le &&
	cat le && grep -F "failed|the task asks for -1 runs (1 to 99)" le
'

test_expect_success 'F4: a stored run directory out of the root is refused' '
	r=$(cat rel) &&
	id=$(q "SELECT r.id FROM runs r JOIN groups g ON g.id = r.group_id WHERE g.commit_id = \$\$evil\$\$") &&
	q "UPDATE runs SET dir = \$\$$(dirname "$r")/../../../../../../../../outside\$\$ WHERE id = $id" &&
	test_must_fail perfsift --store "$URL" --result-root v2 pull evil 2>err &&
	cat err &&
	test_grep "the store holds run directory .*(a .\.. or .\.\.. part): not pulled" err &&
	test ! -e outside && test ! -e v2/outside && test -z "$(find "$TEST_TMP" -name outside)" &&
	q "UPDATE runs SET dir = \$\$/tmp/outside-$$\$\$ WHERE id = $id" &&
	test_must_fail perfsift --store "$URL" --result-root v2 pull evil 2>err &&
	test_grep "the store holds run directory .*tmp/outside-.* (not a directory of its group): not pulled" err &&
	test ! -e /tmp/outside-$$ &&
	q "UPDATE runs SET dir = \$\$$r\$\$ WHERE id = $id"
'

test_expect_success 'F4: a stored group directory out of the root is refused' '
	r=$(cat rel) && g=$(dirname "$r") &&
	q "UPDATE groups SET dir = \$\$../../grp\$\$ WHERE dir = \$\$$g\$\$" &&
	q "UPDATE runs SET dir = \$\$../../grp/0\$\$ WHERE dir = \$\$$r\$\$" &&
	q "UPDATE lab_run_files SET group_dir = \$\$../../grp\$\$ WHERE group_dir = \$\$$g\$\$" &&
	test_must_fail perfsift --store "$URL" --result-root v3/a/b pull 2>err &&
	cat err &&
	test_grep "the store holds run directory .* of group .\.\./\.\./grp. (a .\.. or .\.\.. part): not pulled" err &&
	test ! -e v3/grp && test ! -e grp
'

test_expect_success 'F4: a stored file name with a control character is refused' '
	r=$(cat rel) && g=$(dirname "$r") &&
	q "UPDATE groups SET dir = \$\$$g\$\$ WHERE dir = \$\$../../grp\$\$" &&
	q "UPDATE runs SET dir = \$\$$r\$\$ WHERE dir = \$\$../../grp/0\$\$" &&
	q "UPDATE lab_run_files SET group_dir = \$\$$g\$\$ WHERE group_dir = \$\$../../grp\$\$" &&
	q "UPDATE lab_run_files SET name = \$\$evil\$\$ || chr(27) || \$\$]0;x\$\$ || chr(7) WHERE name = \$\$evilp\$\$" &&
	test_must_fail perfsift --store "$URL" --result-root v4 pull 2>err &&
	cat err &&
	test_grep "the store holds a file .evil\\\\x1b\]0;x\\\\x07. outside its run (a control character): not written" err &&
	test -z "$(find v4 -name "evil*" 2>/dev/null)"
'

# has_ctl FILE...: a control byte but newline and tab (ESC, BEL) in a file
has_ctl() { LC_ALL=C grep -q "$(printf "[\001-\010\013-\037\177]")" "$@"; }

test_expect_success 'a worker'"'"'s text reaches no terminal raw (queue list, workers, results)' '
	id=$(q "SELECT min(id) FROM lab_tasks") &&
	wq "UPDATE lab_tasks SET last_error = \$\$boom\$\$ || chr(27) || \$\$]0;owned\$\$ || chr(7), worker = \$\$w\$\$ || chr(27) || \$\$[2J\$\$ WHERE id = $id" &&
	q "INSERT INTO lab_workers (name, tbox_group, facts) VALUES (\$\$v\$\$ || chr(27) || \$\$[2J\$\$, \$\$g\$\$ || chr(7), chr(27))" &&
	perfsift --store "$URL" queue list >out 2>&1 &&
	perfsift --store "$URL" queue workers >>out 2>&1 &&
	q "UPDATE groups SET dir = dir || chr(27) || \$\$]0;x\$\$ || chr(7) WHERE id = (SELECT min(id) FROM groups)" &&
	perfsift --store "$URL" results >>out 2>&1 &&
	q "UPDATE groups SET dir = replace(replace(dir, chr(27) || \$\$]0;x\$\$, \$\$\$\$), chr(7), \$\$\$\$)" &&
	cat out &&
	! has_ctl out &&
	grep -F "boom\x1b]0;owned\x07" out &&
	grep -F "w\x1b[2J " out &&
	grep -F "v\x1b[2J " out &&
	grep -F "\x1b]0;x\x07  1 run" out
'

SURL="postgresql://postgres:S3CRET@/ps?host=$PGDIR"
BAD="postgresql://bob:S3CRET@127.0.0.1:1/lab"

test_expect_success 'F12: no command prints the store password' '
	: >all &&
	perfsift --store "$SURL" queue list >>all 2>&1 &&
	perfsift --store "$SURL" results >>all 2>&1 &&
	perfsift --store "$SURL" --result-root atk push >>all 2>&1 &&
	perfsift --store "$SURL" --result-root v5 pull c1 >>all 2>&1 ;
	perfsift --store "$SURL" --result-root w3 worker --testbox box-3 --once >>all 2>&1 ;
	for c in "queue list" results push pull "compare a b" \
		"worker --testbox x --testbox-group g --once"; do
		test_must_fail perfsift --store "$BAD" $c >>all 2>&1 || return 1
	done &&
	PERFSIFT_STORE=$BAD test_must_fail perfsift results >>all 2>&1 &&
	# a URI libpq cannot parse: its message quoted it, password and all
	# (the fourth attack); a token it cannot decode is the password
	test_must_fail perfsift --store "postgresql://bob:S3CRET@[::1:1/lab" \
		queue list >>all 2>&1 &&
	test_must_fail perfsift --store "postgresql://bob:S3CRET%ZZ@127.0.0.1:1/lab" \
		queue list >>all 2>&1 &&
	test_grep "in URI: .postgresql://bob:\*\*\*@\[::1:1/lab" all &&
	cat all &&
	test_grep "cannot connect to .postgresql://bob:\*\*\*@127.0.0.1:1/lab." all &&
	! grep S3CRET all
'

test_done
