#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t9355: a user who cannot write the index (issue 25, F15).  perfsift
# writes its SQLite index even to read it (the write-ahead log, the
# index's repair), so a reading command run by another user says what to
# do -- run as the owner, give write access, or read a copy -- instead of
# SQLite's "attempt to write a readonly database"; and with write access
# given (a shared group) the same commands work.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-programs.sh"

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	test_skip 'a read-only index' 'needs root and setpriv to act as another user'
	test_done
	exit 0
fi

mkdir -p progs/ro &&
printf '#!/bin/sh\necho "score ${SCORE:-1}"\n' >progs/ro/run &&
chmod +x progs/ro/run
PERFSIFT_PROGRAMS=$TEST_TMP/progs
export PERFSIFT_PROGRAMS
printf 'suite: ro\ntestcase: ro\nro:\n' >ro.yaml

# as_nobody CMD...: CMD as uid/gid 65534, without root's groups
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		env HOME="$TEST_TMP" PERFSIFT_RESULT_ROOT="$PERFSIFT_RESULT_ROOT" "$@"
}

test_expect_success 'setup: two commits measured, the root readable by all' '
	SCORE=1 perfsift run ro.yaml -n 1 --commit c1 >out 2>&1 &&
	SCORE=2 perfsift run ro.yaml -n 1 --commit c2 >out 2>&1 &&
	chmod 755 "$TEST_TMP" &&
	chmod -R a+rX "$PERFSIFT_RESULT_ROOT"
'

for cmd in "results" "compare c1 c2" "report c1 c2"; do
	test_expect_success "$cmd by another user: what to do, not SQLite's words" "
		test_must_fail as_nobody \"\$PERFSIFT\" $cmd >out 2>err &&
		cat err &&
		test \"\$(wc -l <err)\" -eq 1 &&
		test_grep \"perfsift.db. is not writable by this user (uid 65534)\" err &&
		test_grep \"run the command as its owner (uid 0), give this user write access\" err &&
		! grep -q \"attempt to write a readonly database\" err
	"
done

test_expect_success 'with write access given to its group: the reading commands work' '
	chgrp -R 65534 "$PERFSIFT_RESULT_ROOT" &&
	chmod -R g+w "$PERFSIFT_RESULT_ROOT" &&
	as_nobody "$PERFSIFT" results >out 2>err &&
	test_grep "c1" out &&
	as_nobody "$PERFSIFT" compare c1 c2 >out 2>err &&
	test_grep "^ *c2\$" out &&
	! grep -q "not writable" err
'

test_done
