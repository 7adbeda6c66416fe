#!/bin/sh
# shellcheck disable=SC1091,SC2016,SC2034
# t0103: a run is renamed into place before it is indexed.  perfsift
# SIGKILLed in between (deterministically, by the after-publish fault
# point of src/util/fault.h) must not lose the run: "done" is never
# printed for it, the next command that reads the root finds and indexes
# it, and its number is never given again.  Run directories copied in by
# hand are found the same way: the index is checked against the disk
# (directory mtimes), not against anything perfsift wrote.
. "$(dirname "$0")/lib.sh"

R=$PERFSIFT_RESULT_ROOT
printf 'testcase: t\nmytest:\n  cmdline: "true"\n' >job.yaml

test_expect_success 'two runs' '
	perfsift run job.yaml -n 2 >out &&
	G=$(dirname "$(find "$R" -name stats.json | head -n 1)") &&
	G=$(dirname "$G") && echo "$G" >group &&
	perfsift results >out && test_grep " 2 runs$" out
'

test_expect_when test_have_hooks "$HOOKS_REASON" \
	'killed between publishing and indexing: no "done", nothing lost' '
	G=$(cat group) &&
	PERFSIFT_FAULT=after-publish "$PERFSIFT" run job.yaml >out 2>err;
	st=$? && test "$st" = 137 &&
	test -d "$G/2" &&
	! grep -q "done" out &&
	perfsift results >out 2>err &&
	test_grep " 3 runs$" out &&
	test_grep "indexed .$G/2., a run directory the index lacked" err &&
	test_grep "\"stats_source\": \[.*/2/stats.json\"\]" "$G/matrix.json" &&
	perfsift results >out 2>err &&
	test_must_fail test -s err
'

test_expect_when test_have_hooks "$HOOKS_REASON" \
	'the next run takes the next number, never the killed one' '
	G=$(cat group) &&
	perfsift run job.yaml >out &&
	test_grep "run 1 of 1 -> .*/3$" out &&
	test_grep "run 1 of 1: done in" out &&
	perfsift results --runs >out &&
	test_grep "run 3  complete" out
'

test_expect_success 'a run directory copied in by hand is found by the next results' '
	G=$(cat group) &&
	n=$(perfsift results --runs | grep -c "complete") &&
	cp -r "$G/0" "$G/9" &&
	perfsift results >out 2>err &&
	test_grep " $((n + 1)) runs$" out &&
	test_grep "indexed .$G/9." err
'

test_expect_success 'so is a whole group copied in by hand' '
	G=$(cat group) &&
	H=$(dirname "$G")/feedbeef &&
	mkdir "$H" && cp -r "$G/0" "$H/0" &&
	perfsift results feedbeef >out 2>err &&
	test_grep "feedbeef  1 run$" out
'

test_expect_success 'a copied run that cannot be read is reported, every time' '
	G=$(cat group) &&
	mkdir "$G/11" && echo garbage >"$G/11/time.xz" &&
	perfsift results >out 2>err &&
	test_grep "$G/11. is not indexed: .*cannot decompress" err &&
	perfsift results >out 2>err &&
	test_grep "$G/11. is not indexed" err &&
	rm -r "$G/11" &&
	perfsift results >out 2>err &&
	test_must_fail test -s err
'

test_expect_success 'a symbolic link in the root is not followed' '
	G=$(cat group) &&
	mkdir -p elsewhere && cp -r "$G/0" elsewhere/0 &&
	ln -s "$PWD/elsewhere/0" "$G/12" &&
	ln -s "$PWD/elsewhere" "$(dirname "$G")/linked" &&
	perfsift results >out 2>err &&
	test_must_fail test -s err &&
	! test -e elsewhere/matrix.json
'

test_done
