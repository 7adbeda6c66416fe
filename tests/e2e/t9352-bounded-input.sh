#!/bin/sh
# t9352: unbounded input and the messages that said the wrong thing
# (issue 25, F9 and F16): `history --csv` reads at most a bounded line
# and file (/dev/zero is one clear error, not 2 GB of memory), names a
# directory and a duplicate column for what they are; an empty robot
# config and a huge one are said to be a config's trouble, not a job
# file's.  Each: exit 2, one line naming the file.
. "$(dirname "$0")/lib.sh"

# bound_memory: what main did (gigabytes) ends at 1 GB instead of
# filling the box; not under ASan, whose shadow memory is terabytes of
# address space
bound_memory() {
	if ! ldd "$PERFSIFT" 2>/dev/null | grep -q libasan; then
		# shellcheck disable=SC3045 # dash and bash have -v
		ulimit -v 1000000
	fi
}

# fails_with PATTERN CMD...: exit 2, one line of stderr matching PATTERN
fails_with() {
	pat=$1 && shift &&
	test_must_fail --status=2 "$@" 2>err &&
	cat err &&
	test "$(wc -l <err)" -eq 1 &&
	test_grep "$pat" err
}

test_expect_success 'history --csv /dev/zero: no regular file, one error' '
	bound_memory &&
	fails_with "^perfsift history: ./dev/zero. is a character device, not a regular file\$" \
		perfsift history --csv /dev/zero --all
'

test_expect_success 'history --csv - of /dev/zero: a bounded line, one error' '
	bound_memory &&
	fails_with "^perfsift history: stdin:1: a line longer than 1048576 bytes; not a CSV file?\$" \
		perfsift history --csv - --all </dev/zero
'

test_expect_success 'history --csv of endless rows: bounded, one error' '
	# yes(1) never ends: only the bound ends the read (and yes then
	# ends on SIGPIPE)
	bound_memory &&
	{ echo commit,v && yes c1,1; } |
	fails_with "^perfsift history: stdin:5000001: more than 512 MiB or 5000000 lines" \
		perfsift history --csv - --all
'

test_expect_success 'history --csv DIR: it is a directory' '
	mkdir adir &&
	fails_with "^perfsift history: .adir. is a directory, not a CSV file\$" \
		perfsift history --csv adir --all
'

test_expect_success 'history --csv with a duplicate column: named, with both places' '
	printf "commit,a,b,a\nc1,1,2,3\nc2,1,2,3\n" >dupcol.csv &&
	fails_with "^perfsift history: dupcol.csv:1: a: the name of columns 2 and 4; a column.s name must be unique\$" \
		perfsift history --csv dupcol.csv --stat a &&
	fails_with "^perfsift history: dupcol.csv:1: a: the name of columns 2 and 4" \
		perfsift history --csv dupcol.csv --all
'

test_expect_success 'history --csv with ESC in a name or NUL in a value: refused, escaped' '
	printf "commit,v\\n\\033[2Jc1,1\\nc2,2\\nc3,3\\n" >esc.csv &&
	test_must_fail --status=2 perfsift history --csv esc.csv --all >out 2>err &&
	test_grep "esc.csv:2: a control character (byte 0x1b); not a CSV file?" err &&
	! LC_ALL=C grep -q "$(printf "\\033")" out err &&
	printf "commit,v\\nc1,1\\000\\nc2,2\\n" >nul.csv &&
	test_must_fail --status=2 perfsift history --csv nul.csv --all 2>err &&
	test_grep "nul.csv:2: a control character (byte 0x00)" err
'

test_expect_success 'an empty robot config: said to be an empty config' '
	: >empty.yaml &&
	fails_with "^perfsift robot: error: empty.yaml:1: config: the robot config is empty; it needs repos:, jobs: and mail:" \
		perfsift robot --config empty.yaml --dry-run &&
	printf "# only a comment\n---\n" >comment.yaml &&
	fails_with "^perfsift robot: error: comment.yaml:1: config: the robot config is empty" \
		perfsift robot --config comment.yaml --dry-run
'

test_expect_success 'a 50 MB robot config: too big for a config, not "a job file?"' '
	head -c 50000000 /dev/zero | tr "\\0" "a" >big.yaml &&
	fails_with "^perfsift robot: error: big.yaml:1: config: larger than 1024 KiB; a robot config is" \
		perfsift robot --config big.yaml --dry-run &&
	! grep -q "job file" err
'

test_done
