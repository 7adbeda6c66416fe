#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t0102: a full disk during a run.  The result root lives on a 3 MiB tmpfs
# (in a private mount namespace, so nothing leaks to the machine); a run
# whose benchmark output fills it fails with one clear error per file that
# could not be written and exit status 3, the runs finished before are
# untouched (files and index), and once space is freed the next run is
# numbered on and indexed.
if [ -z "${PERFSIFT_T0102_NS-}" ] && [ "$(id -u)" -eq 0 ] &&
   unshare -m --propagation private true 2>/dev/null; then
	PERFSIFT_T0102_NS=1 exec unshare -m --propagation private sh "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"

if [ -z "${PERFSIFT_T0102_NS-}" ]; then
	test_skip 'a full disk keeps finished runs' 'needs root and unshare -m'
	test_done
fi

mkdir disk && mount -t tmpfs -o size=3m perfsift-t0102 disk || exit 1
PERFSIFT_RESULT_ROOT=$TEST_TMP/disk/r
export PERFSIFT_RESULT_ROOT

printf 'suite: fill\ntestcase: fill\nmytest:\n  cmdline: echo hello\n' >small.yaml
printf 'suite: fill\ntestcase: fill\nmytest:\n  cmdline: head -c 4000000 /dev/zero\n' >big.yaml

group() {
	find "$PERFSIFT_RESULT_ROOT/fill/echo_hello" -name matrix.json |
	sed 's,/matrix.json$,,'
}

test_expect_success 'two finished runs on the small disk' '
	perfsift run small.yaml -n 2 >out 2>&1 &&
	G=$(group) && test -d "$G/1" &&
	cp "$G/matrix.json" matrix.before &&
	cp "$G/1/stats.json" stats.before &&
	perfsift results >results.before &&
	test_grep "2 runs" results.before
'

test_expect_success 'a run that fills the disk fails with a clear error, status 3' '
	test_must_fail --status=3 perfsift run big.yaml -n 1 >out 2>err &&
	test_grep "No space left on device" err &&
	test_grep "stopped: a run could not be recorded" err &&
	# one message per file, each on its own line
	! grep "devicecannot" err &&
	test "$(grep -c "^perfsift run: error: cannot write" err)" = \
	     "$(grep "^perfsift run: error: cannot write" err | sort -u | wc -l)"
'

test_expect_success 'the finished runs are untouched' '
	G=$(group) &&
	test_cmp matrix.before "$G/matrix.json" &&
	test_cmp stats.before "$G/1/stats.json" &&
	{ perfsift stats "$G/1" >/dev/null 2>&1 || true; } &&
	test_cmp stats.before "$G/1/stats.json"
'

test_expect_success 'space freed: the next run is numbered on and indexed' '
	rm -rf "$PERFSIFT_RESULT_ROOT/fill/head_"* &&
	perfsift results >results.after &&
	test_cmp results.before results.after &&
	perfsift run small.yaml -n 1 >out 2>&1 &&
	test -d "$(group)/2" &&
	perfsift results >results.more &&
	test_grep "3 runs" results.more
'

cd "$TEST_TMP" && umount disk
test_done
