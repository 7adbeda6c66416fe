#!/bin/sh
# t0201: an LKP result root copied in (raw files gzip'd or xz'd as LKP
# writes them, no index): `perfsift stats --all` parses and indexes every
# run, and a file that does not decompress is an error naming it; the
# first `results` already finds the runs the index lacks and indexes them.
. "$(dirname "$0")/lib.sh"

R=$PERFSIFT_RESULT_ROOT
G=$R/dd/defaults/lkp-tbox/debian-x86_64.cgz/x86_64-rhel/gcc-7/0123456789abcdef0123456789abcdef01234567

test_expect_success 'an LKP root with gzip and xz raw files' '
	for n in 0 1 10; do
		mkdir -p "$G/$n" &&
		gzip -c "$TESTDATA/lkp-generated/time/1" >"$G/$n/dd.time.gz" &&
		xz -c "$TESTDATA/lkp-generated/time/3" >"$G/$n/time.xz" || return 1
	done &&
	perfsift results >out 2>err &&
	test_grep "0123456789abcdef0123456789abcdef01234567  3 runs$" out &&
	test_grep "indexed .$G/10., a run directory the index lacked" err
'

test_expect_success 'stats --all parses and indexes every run' '
	perfsift stats --all >out &&
	test_grep "^3 runs$" out &&
	test_grep "0123456789abcdef0123456789abcdef01234567  3 runs$" out &&
	test_grep "\"dd.time.elapsed_time\": 1.16," "$G/10/stats.json" &&
	test_grep "\"time.elapsed_time\": 1.08," "$G/0/stats.json" &&
	test_grep "\"time.elapsed_time.max\": 1.16," "$G/0/stats.json" &&
	test_grep "\"dd.time.elapsed_time\": \[1.16, 1.16, 1.16\]," "$G/matrix.json" &&
	perfsift results 0123456 >out &&
	test_grep "0123456789abcdef0123456789abcdef01234567  3 runs$" out
'

test_expect_success 'a plain raw file wins over its compressed twin' '
	cp "$TESTDATA/lkp-generated/time/2" "$G/1/dd.time" &&
	perfsift stats -q "$G/1" &&
	test_grep "\"dd.time.exit_status\": 3" "$G/1/stats.json"
'

test_expect_success 'a raw file that does not decompress: exit 2, the others go on' '
	echo garbage >"$G/1/time.xz" &&
	cp "$G/1/stats.json" stats.before &&
	test_must_fail --status=2 perfsift stats --all -q 2>err &&
	test_grep "cannot decompress .$G/1/time.xz." err &&
	test_cmp stats.before "$G/1/stats.json" &&
	perfsift results --runs >out &&
	test_grep "run 10  complete" out
'

test_expect_success 'stats --all forgets groups deleted from disk' '
	H=$R/dd/defaults/lkp-tbox/debian-x86_64.cgz/x86_64-rhel/gcc-7/feedfeed &&
	mkdir -p "$H/0" &&
	cp "$TESTDATA/lkp-generated/time/1" "$H/0/dd.time" &&
	perfsift stats -q "$H/0" &&
	perfsift results feedfeed >out && test_grep "feedfeed  1 run$" out &&
	rm -rf "$H" &&
	rm "$G/1/time.xz" &&
	perfsift stats --all >out &&
	test_grep "^forgot 1 group no longer on disk$" out &&
	perfsift results >out &&
	test "$(wc -l <out)" -eq 1 &&
	test_must_fail test -e "$H"
'

test_expect_success 'stats --all on a directory that is not there' '
	test_must_fail --status=2 perfsift stats --all nowhere 2>err &&
	test_grep "is not a directory" err
'

test_done
