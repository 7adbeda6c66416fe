# lib.sh: a small test library for perfsift's end-to-end tests, in the
# manner of git's t/test-lib.sh.  Each script sources it, runs
# test_expect_success blocks and ends with test_done; output is TAP, so
# `prove` runs unit and end-to-end tests together.
#
# Every script runs in its own temporary directory with its own result
# root (PERFSIFT_RESULT_ROOT), so scripts can run in parallel.
#
# A test never depends on the machine's speed or load, nor on what other
# processes do: it drives the work it needs (a benchmark that runs until
# the samples exist, or holds until the test signals it), bounds a count
# by what was measured, and looks only at what its own run made.

set -u
: "${PERFSIFT:=$(cd "$(dirname "$0")/../.." && pwd)/build/perfsift}"
: "${PERFSIFT_TESTDATA:=$(cd "$(dirname "$0")/../data" && pwd)}"
SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
export PERFSIFT PERFSIFT_TESTDATA SRCDIR
TESTDATA=$PERFSIFT_TESTDATA

TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/perfsift-test.XXXXXX")
trap 'cd /; rm -rf "$TEST_TMP"' EXIT
PERFSIFT_RESULT_ROOT=$TEST_TMP/result
export PERFSIFT_RESULT_ROOT
# The knob journal is machine-wide (/run/perfsift); a script's fake
# /proc and /sys trees get a journal of their own (test_exclusive, for
# the real knobs, goes back to the machine's).
PERFSIFT_KNOB_DIR=$TEST_TMP/knobs
export PERFSIFT_KNOB_DIR
unset PERFSIFT_STORE
# plug-ins come only from where a script puts them (docs/programs.md)
unset PERFSIFT_PROGRAMS LKP_SRC
cd "$TEST_TMP" || exit 1

test_count=0
test_failed=0
test_skipped=0

perfsift() {
	"$PERFSIFT" "$@"
}

say() {
	printf '# %s\n' "$*"
}

# test_expect_success 'title' 'commands'
test_expect_success() {
	test_count=$((test_count + 1))
	if (eval "$2") >"$TEST_TMP/.out" 2>&1; then
		echo "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$TEST_TMP/.out"
		# and on stderr, which prove shows without -v: a CI log then
		# says why, not only which
		{ echo "# $(basename "$0") $test_count failed: $1"
		  tail -n 40 "$TEST_TMP/.out" | sed 's/^/#   /'; } >&2
	fi
}

# test_expect_failure 'title' 'commands': a known breakage, as git's: the
# test runs and is reported "not ok ... # TODO known breakage" (TAP's TODO:
# prove does not fail on it, and reports it when it starts passing), so a
# gap the project knows of stays visible and checked, never skipped
test_expect_failure() {
	test_count=$((test_count + 1))
	if (eval "$2") >"$TEST_TMP/.out" 2>&1; then
		echo "ok $test_count - $1 # TODO known breakage vanished"
	else
		echo "not ok $test_count - $1 # TODO known breakage"
		sed 's/^/#   /' "$TEST_TMP/.out"
	fi
}

# test_skip 'title' 'reason'
test_skip() {
	test_count=$((test_count + 1))
	test_skipped=$((test_skipped + 1))
	echo "ok $test_count - $1 # SKIP $2"
}

# test_expect_when 'CONDITION' 'REASON' 'title' 'commands': the test when
# CONDITION holds here, else a skip that says REASON.  A test that needs
# something this machine may lack (root, a program, a hook) says so in the
# TAP output, never passes having checked nothing inside an `if`.
test_expect_when() {
	if (eval "$1") >/dev/null 2>&1; then
		test_expect_success "$3" "$4"
	else
		test_skip "$3" "$2"
	fi
}

# test_have_hooks: the binary was built with the test hooks
# (src/util/fault.h: `make DEVELOPER=1` and sanitizer builds), as its
# --version says
test_have_hooks() {
	"$PERFSIFT" --version | grep -q "^built with:.* test-hooks"
}
HOOKS_REASON="built without test hooks (make DEVELOPER=1 or SANITIZE=...)"

# test_must_fail [--status=N] cmd...: a controlled failure (exit 1..125 or
# the given status); a crash by signal or "command not found" is a failure.
test_must_fail() {
	want=
	case "${1-}" in
	--status=*) want=${1#--status=}; shift ;;
	esac
	"$@"
	st=$?
	if [ "$st" -eq 0 ]; then
		echo "test_must_fail: command succeeded: $*" >&2
		return 1
	elif [ "$st" -gt 128 ] && [ "$st" -le 192 ]; then
		echo "test_must_fail: died by signal $((st - 128)): $*" >&2
		return 1
	elif [ "$st" -eq 126 ] || [ "$st" -eq 127 ]; then
		echo "test_must_fail: could not run: $*" >&2
		return 1
	elif [ -n "$want" ] && [ "$st" -ne "$want" ]; then
		echo "test_must_fail: exit $st, wanted $want: $*" >&2
		return 1
	fi
	return 0
}

# test_cmp expected actual
test_cmp() {
	diff -u "$1" "$2"
}

# test_grep pattern file: grep that shows the file when it fails
test_grep() {
	if ! grep -q -- "$1" "$2"; then
		echo "test_grep: '$1' not found in $2:" >&2
		sed 's/^/| /' "$2" >&2
		return 1
	fi
}

# wait_for PATTERN FILE: until a line of FILE matches (20 s at most): a
# test waits for what a benchmark it holds has written, however slow the
# machine, and fails rather than hangs when it never comes
wait_for() {
	i=0
	while ! grep -q -- "$1" "$2" 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt 200 ]; then
			echo "timed out waiting for '$1' in $2" >&2
			return 1
		fi
		sleep 0.1
	done
}

# test_exclusive: hold the machine-wide test lock until the script ends.
# Scripts that change real kernel knobs, mounts or sysctls call it first,
# so that two of them never run at once under `prove -j` (each would see
# the other's changes as left behind).  Their knobs go through the
# machine's journal, shared with every perfsift on the machine.
test_exclusive() {
	exec 9>"${TMPDIR:-/tmp}/perfsift-tests.machine.lock"
	flock 9
	unset PERFSIFT_KNOB_DIR
}

# test_have_root: true when running as root (kernel knobs, /proc files)
test_have_root() {
	[ "$(id -u)" -eq 0 ]
}

test_done() {
	echo "1..$test_count"
	if [ "$test_failed" -ne 0 ]; then
		echo "# failed $test_failed among $test_count test(s)"
		exit 1
	fi
	exit 0
}
