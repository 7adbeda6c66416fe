#!/bin/sh
# t0000: the binary starts, lists its commands and keeps its exit codes.
. "$(dirname "$0")/lib.sh"

test_expect_success '--help lists every command' '
	perfsift --help >out &&
	for c in split install run restore parse stats results compare plot report bisect bisect-step; do
		test_grep "^  $c " out || return 1
	done
'

test_expect_success '--version prints a version' '
	perfsift --version >out &&
	test_grep "^perfsift [0-9]" out
'

test_expect_success 'an unknown command is a usage error (2)' '
	test_must_fail --status=2 perfsift no-such-command 2>err &&
	test_grep "not a command" err
'

test_expect_success 'no command at all is a usage error (2)' '
	test_must_fail --status=2 perfsift
'

test_expect_when '[ -w /dev/full ]' 'no writable /dev/full here' \
	'a write error on stdout is not success' '
	test_must_fail perfsift --help >/dev/full
'

test_done
