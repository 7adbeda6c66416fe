#!/bin/sh
# shellcheck disable=SC1091,SC2016,SC2034
# t6007: bisect builds and runs commits in $TMPDIR/perfsift-bisect-<uid>
# (as root, on a test box).  A shared /tmp must not let another user pick
# that place: the directory is made with mode 0700, and one that is
# writable by others, owned by someone else or a symbolic link is refused
# before anything is checked out or built there.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-bisect.sh"

if ! have_runner; then
	test_skip 'bisect working directory' 'perfsift run is not in this build'
	test_done
fi

ME=$(id -u)

# run_bisect TMPDIR: a bisect of c1..c3 whose working directory is below TMPDIR
run_bisect() {
	TMPDIR=$1 "$PERFSIFT" bisect --repo repo --build "sh build.sh" \
		--good c1 --bad c3 -n 2 --max-runs 2 job.yaml -- ./prog >out 2>err
}

test_expect_success 'setup: 3 commits, no change' '
	make_repo repo 3 99 &&
	write_job job.yaml
'

test_expect_success 'a working directory others can write to is refused' '
	mkdir -p t1/perfsift-bisect-$ME && chmod 777 t1/perfsift-bisect-$ME &&
	test_must_fail --status=3 run_bisect "$PWD/t1" &&
	test_grep "perfsift-bisect-$ME. is writable by other users (mode 777): refused" err &&
	test -z "$(ls -A t1/perfsift-bisect-$ME)"
'

test_expect_when 'test_have_root' 'not root' \
	'one owned by another user is refused' '
	mkdir -p t2/perfsift-bisect-$ME && chmod 700 t2/perfsift-bisect-$ME &&
	chown 65534 t2/perfsift-bisect-$ME &&
	test_must_fail --status=3 run_bisect "$PWD/t2" &&
	test_grep "perfsift-bisect-$ME. belongs to uid 65534, not to this user: refused" err &&
	test -z "$(ls -A t2/perfsift-bisect-$ME)"
'

test_expect_success 'a symbolic link there is not followed' '
	mkdir -p t3 victim && chmod 700 victim &&
	ln -s "$PWD/victim" t3/perfsift-bisect-$ME &&
	test_must_fail --status=3 run_bisect "$PWD/t3" &&
	test_grep "perfsift-bisect-$ME. is not a directory (a symbolic link?): refused" err &&
	test -z "$(ls -A victim)"
'

test_expect_success 'a fresh one is made with mode 0700' '
	mkdir t4 &&
	# (its outcome does not matter here: under load noise may decide it)
	{ run_bisect "$PWD/t4"; st=$?; test "$st" -le 3; } &&
	! grep -q "perfsift-bisect-$ME.*refused" err &&
	test "$(stat -c %a t4/perfsift-bisect-$ME)" = 700
'

test_done
