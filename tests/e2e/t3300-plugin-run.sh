#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3300: a plug-in in LKP's program layout (PROGRAM/run, PROGRAM/parse) in
# a temporary directory: found through PERFSIFT_PROGRAMS and programs/
# beside the job, run with the job's parameters as environment variables,
# its `key: value` lines stats of its name that reach compare; a program
# neither built in nor on the path is exit 2 naming the directories
# searched, with nothing written; a plug-in never shadows a built-in.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-programs.sh"

mkdir -p progs/plug &&
cat >progs/plug/run <<'EOS'
#!/bin/sh
# the job's parameters, as LKP hands them to programs/<p>/run
echo "env runtime=$runtime nr_threads=$nr_threads testtime=$testtime mode=$mode flavour=$flavour"
echo "score ${PLUG_SCORE:-100}"
echo "score $(( ${PLUG_SCORE:-100} + 2 ))"
EOS
cat >progs/plug/parse <<'EOS'
#!/bin/sh
# LKP's interface: the raw file on stdin and its path in $1
test -f "$1" || { echo "no path in argv[1]" >&2; exit 1; }
awk '/^score / { print "score: " $2 } END { print "lines: " NR }'
EOS
chmod +x progs/plug/run progs/plug/parse
PERFSIFT_PROGRAMS=$TEST_TMP/nowhere:$TEST_TMP/progs
export PERFSIFT_PROGRAMS

# stat $2 of run $1 is the number $3 (101 and 101.0 alike)
stat_is() {
	v=$(stat_value "$1" "$2")
	awk -v v="$v" -v w="$3" 'BEGIN { exit !(v != "" && v + 0 == w + 0) }' || {
		echo "$1: $2 is '$v', not $3" >&2
		return 1
	}
}

cat >plug.yaml <<'EOF2'
suite: plug
testcase: plug
runtime: 5m
nr_threads: 100%
testtime: 7
flavour: sweet
plug:
  mode: fast
EOF2

test_expect_success 'a plug-in on PERFSIFT_PROGRAMS runs under perfsift run' '
	PLUG_SCORE=100 perfsift run plug.yaml -n 3 --commit c1 >out 2>err &&
	run_dirs plug >dirs &&
	test $(wc -l <dirs) -eq 3 &&
	d=$(head -n 1 dirs) &&
	test_grep "^score 100$" "$d/plug" &&
	test_grep "$TEST_TMP/progs/plug" "$d/plug.plugin"
'

test_expect_success 'the job parameters arrive as environment variables, typed as LKP scripts use them' '
	d=$(head -n 1 dirs) &&
	test_grep "^env runtime=300 nr_threads=$(nproc) testtime=7 mode=fast flavour=sweet$" "$d/plug"
'

# one rule with the built-ins (param_cpus_of): a share truncated as
# LKP's, at least 1 -- 75% of 2 CPUs is 1, where rounding would say 2
test_expect_success 'a share of the CPUs is truncated as LKP'"'"'s, at least 1' '
	perfsift --result-root r75 run plug.yaml -n 1 --commit c0 \
		--set nr_threads=75% >out 2>err &&
	n=$(( $(nproc) * 75 / 100 )) &&
	if [ "$n" -lt 1 ]; then n=1; fi &&
	d=$(find r75 -name plug -type f | head -n 1) &&
	test_grep "^env runtime=300 nr_threads=$n " "$d"
'

test_expect_success "its key: value lines are stats of its name, reduced as LKP's" '
	d=$(head -n 1 dirs) &&
	stat_is "$d" plug.score 101 &&
	stat_is "$d" plug.lines 3 &&
	stat_positive "$d" plug.time.elapsed_time
'

test_expect_success 'the stats reach compare between two commits' '
	PLUG_SCORE=300 perfsift run plug.yaml -n 3 --commit c2 >out 2>err &&
	perfsift compare -s "^plug\.score$" c1 c2 >cmp &&
	test_grep "+198.0%" cmp &&
	test_grep "plug.score" cmp &&
	perfsift compare --json c1 c2 >cmp.json &&
	test_grep "\"plug.score\"" cmp.json
'

test_expect_success 'perfsift parse PROGRAM FILE runs the plug-in parse script' '
	d=$(head -n 1 dirs) &&
	perfsift parse plug "$d/plug" >parsed &&
	printf "score: 100\nscore: 102\nlines: 3\n" >expect &&
	test_cmp expect parsed &&
	perfsift parse plug <"$d/plug" >parsed2 &&
	test_cmp expect parsed2 &&
	perfsift parse --list >parsers &&
	grep -qx plug parsers && grep -qx vmstat parsers
'

test_expect_success 'perfsift stats rebuilds the plug-in stats from its raw file' '
	d=$(head -n 1 dirs) &&
	rm "$d/plug.json" &&
	sed -i "/plug.score/d" "$d/stats.json" &&
	PERFSIFT_PROGRAMS= perfsift stats "$d" >out 2>err &&
	stat_is "$d" plug.score 101
'

test_expect_success 'programs/ beside the job is searched too' '
	mkdir -p jobdir/programs &&
	cp -r progs/plug jobdir/programs/plug2 &&
	sed "s/^plug:/plug2:/; s/^suite: plug/suite: plug2/; s/^testcase: plug/testcase: plug2/" plug.yaml >jobdir/p2.yaml &&
	PERFSIFT_PROGRAMS= perfsift run jobdir/p2.yaml --commit c1 >out 2>err &&
	d=$(run_dirs plug2) &&
	stat_is "$d" plug2.score 101
'

test_expect_success 'a program neither built in nor on the path: exit 2, FILE:LINE: KEY:, the directories, nothing written' '
	printf "suite: x\ntestcase: x\nnosuchprog:\n  a: 1\n" >bad.yaml &&
	(
		PERFSIFT_RESULT_ROOT=$TEST_TMP/r2 && export PERFSIFT_RESULT_ROOT &&
		test_must_fail --status=2 perfsift run bad.yaml >out 2>err
	) &&
	test_grep "bad.yaml:3: nosuchprog: unknown program" err &&
	test_grep "$TEST_TMP/nowhere (PERFSIFT_PROGRAMS)" err &&
	test_grep "$TEST_TMP/progs (PERFSIFT_PROGRAMS)" err &&
	test_grep "programs (the job.s directory)" err &&
	! test -e r2 &&
	test_must_fail --status=2 perfsift split -o split.out bad.yaml 2>err &&
	test_grep "bad.yaml:3: nosuchprog:" err &&
	! test -e split.out
'

test_expect_success 'a plug-in named as a built-in is not used, and the job says so' '
	mkdir -p progs/vmstat &&
	cp progs/plug/run progs/vmstat/run &&
	printf "suite: plug\ntestcase: plug\nvmstat:\nplug:\n" >shadow.yaml &&
	perfsift run shadow.yaml --commit c3 >out 2>err &&
	test_grep "shadow.yaml:3: vmstat: perfsift.s built-in vmstat is used, not the plug-in $TEST_TMP/progs/vmstat" err &&
	d=$(run_dirs plug | grep /c3/) &&
	! test -e "$d/vmstat.plugin"
'

test_expect_success 'an atomic job split elsewhere still finds programs/ beside its origin' '
	PERFSIFT_PROGRAMS= perfsift split -o atoms jobdir/p2.yaml >written &&
	PERFSIFT_PROGRAMS= perfsift run "$(head -n 1 written)" --commit c4 >out 2>err &&
	run_dirs plug2 | grep -q /c4/
'

test_done
