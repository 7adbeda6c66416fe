#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t9306: the fourth attack's items listed, not fixed (docs/attack-4.md):
# L12 -- the command line's own text (a --result-root with an OSC, a
#        group, a job path, a command, an option with ESC) was echoed raw
#        in errors; now every message escapes control bytes (\x1b);
# L13 -- PERFSIFT_STORE=sqlite:FILE (or --store) on a file that is no
#        database was renamed to FILE.corrupt by stats --all; now a file
#        perfsift did not make is refused, untouched, exit 2;
# L14 -- a FIFO where a file is read (history --csv, a robot job:, a job
#        file, the robot config) blocked for ever; now each is refused as
#        no regular file, the file named.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-robot.sh"

esc=$(printf '\033')
bel=$(printf '\007')

# no_ctl FILE: FILE holds no ESC nor BEL (what a terminal would obey)
no_ctl() {
	if LC_ALL=C grep -q "[$esc$bel]" "$1"; then
		echo "a control byte reached $1:" >&2
		od -c "$1" | head -n 20 >&2
		return 1
	fi
}

printf 'testcase: t\nmytest:\n  cmdline: "true"\n' >job.yaml

test_expect_success 'L12: a --result-root with an OSC is shown escaped (an answer, no error)' '
	perfsift --result-root "$TEST_TMP/nowhere/r${esc}]0;pwn${bel}" results 2>err
	test $? -le 2 &&
	no_ctl err && test_grep "r\\\\x1b\]0;pwn\\\\x07" err
'

test_expect_success 'L12: a group selector with ESC is shown escaped' '
	perfsift run job.yaml --commit c1 >out 2>&1 &&
	{ perfsift results "t${esc}[2J" 2>err; test $? -le 2; } &&
	no_ctl err && test_grep "t\\\\x1b\[2J" err
'

test_expect_success 'L12: a job path with ESC is shown escaped' '
	test_must_fail --status=2 perfsift run "job${esc}[2J.yaml" 2>err &&
	no_ctl err && test_grep "job\\\\x1b\[2J.yaml" err
'

test_expect_success 'L12: a command name with ESC is shown escaped' '
	test_must_fail --status=2 perfsift "ru${esc}n" 2>err &&
	no_ctl err && test_grep "ru\\\\x1bn" err
'

test_expect_success 'L12: an unknown option with ESC is shown escaped' '
	test_must_fail --status=2 perfsift run "--x${esc}[2J" job.yaml 2>err &&
	no_ctl err && test_grep "unrecognized option .--x\\\\x1b\[2J" err &&
	test_must_fail --status=2 perfsift "--y${esc}[2J" results 2>err &&
	no_ctl err && test_grep "unrecognized option .--y\\\\x1b\[2J" err
'

test_expect_success 'L12: an option value with ESC is shown escaped' '
	test_must_fail --status=2 perfsift compare --seed "1${esc}[2J" 2>err &&
	no_ctl err && test_grep "\\\\x1b\[2J" err
'

# refused_fast CMD...: CMD fails with exit 2 at once; the timeout (far
# above the milliseconds it takes) only keeps a hang from hanging the test
refused_fast() {
	timeout -k 5 60 "$@" 2>err
	st=$?
	cat err
	test "$st" -eq 2
}

test_expect_success 'L14: history --csv on a FIFO is refused, the file named' '
	mkfifo fifo.csv &&
	refused_fast "$PERFSIFT" history --csv fifo.csv --all &&
	test_grep "^perfsift history: .fifo.csv. is a FIFO, not a regular file\$" err
'

test_expect_success 'L14: history --csv - still reads a pipe' '
	printf "commit,v\nc1,1\nc2,1\nc3,1\n" |
	perfsift history --csv - --stat v >out 2>err &&
	test_grep c3 out
'

test_expect_success 'L14: a job file that is a FIFO is refused' '
	mkfifo fifo.yaml &&
	refused_fast "$PERFSIFT" run fifo.yaml &&
	test_grep "fifo.yaml. is a FIFO, not a regular file" err &&
	refused_fast "$PERFSIFT" split fifo.yaml &&
	test_grep "fifo.yaml. is a FIFO, not a regular file" err
'

test_expect_success 'L14: a robot config or its job: that is a FIFO is refused' '
	make_upstream up &&
	write_robot_job job.yaml &&
	write_config fifojob.yaml "$PWD/up" &&
	sed "s|job: job.yaml|job: fifo.yaml|" fifojob.yaml >fj.yaml &&
	refused_fast "$PERFSIFT" robot --config fj.yaml --dry-run &&
	test_grep "fj.yaml:[0-9]*: job: .*fifo.yaml. is a FIFO, not a regular file" err &&
	mkfifo fifo-config.yaml &&
	refused_fast "$PERFSIFT" robot --config fifo-config.yaml --dry-run &&
	test_grep "fifo-config.yaml. is a FIFO, not a regular file" err
'

test_expect_success 'L13: a named store that is no database is refused, untouched' '
	printf "my notes\n" >notes.txt && cp notes.txt notes.orig &&
	for cmd in results "stats --all"; do
		# shellcheck disable=SC2086
		test_must_fail --status=2 env PERFSIFT_STORE="sqlite:$PWD/notes.txt" \
			"$PERFSIFT" $cmd >out 2>err &&
		test_grep "notes.txt. is a file that is no SQLite database, not an index perfsift made: refusing" err &&
		# shellcheck disable=SC2086
		test_must_fail --status=2 perfsift --store "sqlite:$PWD/notes.txt" $cmd \
			>out 2>err || return 1
	done &&
	test_cmp notes.orig notes.txt &&
	! test -e notes.txt.corrupt && ! test -e notes.txt-wal &&
	# an empty file is no user.s data: it becomes the index
	: >empty.db &&
	perfsift --store "sqlite:$PWD/empty.db" stats --all >out 2>err &&
	test_grep "^SQLite format 3" empty.db
'

test_expect_success 'L13: a named store that is a FIFO is refused at once' '
	mkfifo store.fifo &&
	refused_fast "$PERFSIFT" --store "sqlite:$PWD/store.fifo" results &&
	test_grep "store.fifo. is a FIFO, not an index perfsift made" err &&
	test -p store.fifo
'

test_expect_when 'command -v sqlite3 >/dev/null' 'no sqlite3 program here' \
	'L13: of two damaged named stores only perfsift.s own is moved aside' '
	sqlite3 other.db "CREATE TABLE t (a); WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000) INSERT INTO t SELECT randomblob(100) FROM c;" &&
	truncate -s 8192 other.db && cp other.db other.orig &&
	test_must_fail --status=2 perfsift --store "sqlite:$PWD/other.db" stats --all >out 2>err &&
	test_grep "other.db. is a damaged SQLite file without perfsift.s application id" err &&
	cmp other.orig other.db && ! test -e other.db.corrupt &&
	perfsift --store "sqlite:$PWD/own.db" stats --all >out 2>err &&
	rm -f own.db-wal own.db-shm &&
	off=$(grep -obUa PSS1 own.db | head -n 1 | cut -d: -f1) && test -n "$off" &&
	yes "perfsift was here" | head -c 2000 |
		dd of=own.db bs=1 seek=$((off / 65536 * 65536)) conv=notrunc 2>/dev/null &&
	perfsift --store "sqlite:$PWD/own.db" stats --all >out 2>err &&
	test_grep "moved aside to .*own.db.corrupt" err &&
	test -f own.db.corrupt
'

test_done
