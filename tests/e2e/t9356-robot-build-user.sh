#!/bin/sh
# t9356: the robot's build_user (issue 25: the robot config is code, so
# its fetch, build, install and sendmail run unprivileged; only the runs
# are root's).  A throwaway system user is made and removed again.  The
# build writes `id -u` into its worktree and tries to write where only
# root may, and leaves a daemon behind; the run (root) copies what the
# build left next to its own uid and its worktree's owner.  Checked: the
# build ran as the user and was refused the root-only write, the run ran
# as root from a worktree root owns, nothing of the user's outlived the
# build, the mirror is the user's, the mail was sent; sendmail as the
# user; and a build_user that does not exist is refused before anything
# runs.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-robot.sh"

if [ "$(id -u)" != 0 ]; then
	test_skip 'the robot with build_user' 'needs root (it makes a user and drops to it)'
	test_done
fi
if ! command -v useradd >/dev/null || ! command -v userdel >/dev/null; then
	test_skip 'the robot with build_user' 'needs useradd and userdel (passwd)'
	test_done
fi

user=pst9356-$$
# the user goes with the test, whatever the test's end
trap 'cd /; pkill -KILL -u "$user" 2>/dev/null; userdel "$user" 2>/dev/null; rm -rf "$TEST_TMP"' EXIT
# the user must reach the worktrees below the result root
chmod 755 "$TEST_TMP"

test_expect_success 'setup: a system user, upstream, job, config' '
	useradd -r -M -d /nonexistent -s /usr/sbin/nologin "$user" &&
	uid=$(id -u "$user") && test "$uid" -gt 0 &&
	make_upstream up &&
	# git fetches from a local repository only as its owner (its
	# safe.directory check): an upstream on this box is owned by it
	chown -R "$user" up &&
	mkdir rootonly && chmod 755 rootonly &&
	cat >job.yaml <<-EOF &&
	testcase: robot-e2e
	kpi: {mytest.ms: lower}
	mytest:
	  cmdline: "cat build-uid >>$TEST_TMP/build-uids; cat wrote >>$TEST_TMP/wrote; id -u >>$TEST_TMP/run-uids; stat -c %u . >>$TEST_TMP/wt-owners; sh bench.sh"
	EOF
	build="id -u >build-uid; if (echo x >$TEST_TMP/rootonly/f) 2>/dev/null; then echo wrote; else echo refused; fi >wrote; sleep 600 >/dev/null 2>&1 &" &&
	write_config robot.yaml "$PWD/up" &&
	build_sed=$(printf "%s" "$build" | sed "s/[&]/\\\\&/g") &&
	sed "s|build: \"true\"|build: \"$build_sed\"|" robot.yaml >r.yaml &&
	printf "build_user: %s\n" "$user" >>r.yaml &&
	mv r.yaml robot.yaml &&
	cat robot.yaml
'

# the user's processes are killed before the root runs: none may be alive
# after the pass.  A killed one may still be a zombie for a moment, until
# PID 1 reaps it (seen in CI: sh and sleep <defunct>, gone 2 s later);
# a zombie runs nothing, so only the living are counted
test_expect_success 'robot --once: built as the user, run as root, mail sent' '
	uid=$(id -u "$user") &&
	rm -f sent.mbox build-uids run-uids wrote wt-owners &&
	perfsift robot --config robot.yaml --once >log 2>&1 ||
		{ cat log; false; } &&
	test "$(mails sent.mbox)" -ge 1 &&
	check_mbox sent.mbox &&
	test -s build-uids && test -s run-uids &&
	test "$(sort -u build-uids)" = "$uid" &&
	test "$(sort -u run-uids)" = 0 &&
	test "$(sort -u wt-owners)" = 0 &&
	test "$(sort -u wrote)" = refused &&
	! test -e rootonly/f &&
	test_grep "the build left 1 process.* running, killed" log &&
	{ ps -o stat=,pid= -u "$user" | grep -v "^Z" >alive || :; } &&
	! test -s alive &&
	mirror=$(find result -name mirror.git -type d) &&
	test "$(stat -c %U "$mirror")" = "$user"
'

# The hand-over chowned each entry of the tree to root and the next
# checkout chowned it back: a hard link the build made to a file outside
# the tree (any file it may read and write; any file at all with
# fs.protected_hardlinks off) gave the user that file, owned by root
# before (the fourth attack, docs/attack-4.md).  Links inside the tree
# are the tree's and are handed over as any file.
test_expect_success 'a hard link out of the tree: removed, its file unchanged' '
	PERFSIFT_RESULT_ROOT=$TEST_TMP/hl && export PERFSIFT_RESULT_ROOT &&
	mkdir victim && chmod 755 victim && echo victim >victim/v &&
	chown root:mail victim/v && chmod 666 victim/v &&
	stat -c "%u:%g %a" victim/v >before &&
	hl="ln $TEST_TMP/victim/v out; echo own >in1; ln in1 in2; mkdir sub; ln in1 sub/in3; true" &&
	sed "s|build: \".*\"|build: \"$hl\"|" robot.yaml >hl.yaml &&
	grep -q "ln in1 in2" hl.yaml &&
	perfsift robot --config hl.yaml --once >log 2>&1; cat log &&
	stat -c "%u:%g %a" victim/v >after &&
	test_cmp before after &&
	test_grep "wt0/out. is a hard link of a file outside the tree (2 links, 1 in it): removed" log &&
	wt=$(find hl/robot/demo/work -type d -name wt0) &&
	! test -e "$wt/out" &&
	test "$(stat -c %U "$wt/in2")" = root
'

# alive_of UID: the living processes whose real, effective or saved uid
# is UID, one status file a line (ps -u looks at the effective uid only)
alive_of() {
	for f in /proc/[0-9]*/status; do
		awk -v u="$1" "/^State:/ { z = (\$2 == \"Z\") }
			/^Uid:/ { if (!z && (\$2 == u || \$3 == u || \$4 == u)) print FILENAME }" \
			"$f" 2>/dev/null
	done
}

# spawn_kill_user() walked /proc killing each process whose real or
# effective uid was the user's, 100 rounds at most, and handed the tree
# over whatever was left (the fourth attack): a process that is another
# user but keeps the user's uid as its saved one (a set-uid program of
# the user's, run by someone else) was never found, and could take the
# uid back at will.  Now kill(-1) from a child that is the user takes
# every process it may signal at once, a fork storm too.
test_expect_success 'a fork storm and a saved-uid process of the user: none alive after the build' '
	uid=$(id -u "$user") && gid=$(id -g "$user") &&
	PERFSIFT_RESULT_ROOT=$TEST_TMP/storm && export PERFSIFT_RESULT_ROOT &&
	for i in 1 2; do
		(setpriv --reuid="$uid" --regid="$gid" --clear-groups nice -n 19 \
			sh -c "ulimit -u 200; while :; do (sleep 30 &); done" \
			>/dev/null 2>&1 &)
	done &&
	(python3 -c "import os, time
open(\"saved.pid\", \"w\").write(str(os.getpid()))
os.setgroups([]); os.setresgid(65534, 65534, 65534); os.setresuid(65534, 65534, $uid)
time.sleep(600)" >/dev/null 2>&1 &) &&
	wait_for "[0-9]" saved.pid &&
	pid=$(cat saved.pid) &&
	wait_for "^Uid:.65534.65534.$uid" "/proc/$pid/status" &&
	alive_of "$uid" >before && test -s before &&
	perfsift robot --config robot.yaml --once >log 2>&1 ||
		{ cat log; false; } &&
	alive_of "$uid" >after &&
	{ ! test -s after || { cat after; false; }; } &&
	test_grep "of user $user running, killed: .*(python" log &&
	test_grep "of user $user running, killed: .*(sleep)" log
'

test_expect_success 'sendmail runs as the user too' '
	uid=$(id -u "$user") &&
	PERFSIFT_RESULT_ROOT=$TEST_TMP/sm && export PERFSIFT_RESULT_ROOT &&
	mkdir outbox && chown "$user" outbox &&
	printf "#!/bin/sh\nid -u >>\"%s/outbox/uid\"\ncat >>\"%s/outbox/mail\"\n" \
		"$PWD" "$PWD" >fake-sendmail &&
	chmod 755 fake-sendmail &&
	sed "s|mbox: .*|sendmail: $PWD/fake-sendmail -t|" robot.yaml >sm.yaml &&
	perfsift robot --config sm.yaml --once >log 2>&1 ||
		{ cat log; false; } &&
	test "$(grep -c "^Message-ID: " outbox/mail)" -ge 1 &&
	test "$(sort -u outbox/uid)" = "$uid"
'

test_expect_success 'an unknown build_user: refused with its line, nothing run' '
	PERFSIFT_RESULT_ROOT=$TEST_TMP/bad && export PERFSIFT_RESULT_ROOT &&
	sed "s|^build_user: .*|build_user: pst-no-such-user|" robot.yaml >bad.yaml &&
	line=$(grep -n "^build_user:" bad.yaml | cut -d: -f1) &&
	test_must_fail --status=2 perfsift robot --config bad.yaml --once 2>err &&
	test_grep "bad.yaml:$line: build_user: no user .pst-no-such-user." err &&
	! test -d "$TEST_TMP/bad/robot" &&
	# a name with ESC is shown escaped (the fourth attack)
	sed "s|^build_user: .*|build_user: \"pst\\\\e[2J\"|" robot.yaml >esc.yaml &&
	test_must_fail --status=2 perfsift robot --config esc.yaml --once 2>err &&
	cat err &&
	test_grep "build_user: no user .pst.x1b\[2J." err &&
	! LC_ALL=C grep -q "$(printf "\033")" err
'

test_done
