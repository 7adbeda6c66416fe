#!/bin/sh
# t9305: the third attack's lesser findings (docs/attack-3.md):
# B1 -- the facts of a run's job.yaml (a pulled run's: another box wrote
#       them) reached the terminal raw in `report`'s text: an ESC in the
#       cpufreq governor or the build command could retitle or clear it;
# B3 -- PERFSIFT_PARSE_TIMEOUT=1e30 overflowed the parse deadline, and
#       every parse script was killed at once;
# B4 -- a group name (a commit) that is not UTF-8 or holds a C1 control
#       (a raw 0x9b is a terminal's CSI) made a directory, was printed
#       raw, and the run's own job.yaml could not be read back;
# B5 -- a stats.json that is a link to another file (a result root a
#       group may write) had that file's first word quoted in the error.
. "$(dirname "$0")/lib.sh"

mkdir -p progs/plug &&
printf '#!/bin/sh\necho "score 1"\n' >progs/plug/run &&
printf '#!/bin/sh\necho "score: 5"\n' >progs/plug/parse &&
chmod +x progs/plug/run progs/plug/parse
PERFSIFT_PROGRAMS=$TEST_TMP/progs
export PERFSIFT_PROGRAMS
printf 'testcase: plug\nplug:\n' >plug.yaml

ctl() { LC_ALL=C grep -c "$(printf '[\001-\010\013-\037\177]')" "$1"; }

test_expect_success 'B1: a pulled run whose facts hold ESC: report escapes them' '
	perfsift run -n 2 plug.yaml --commit aaaa >/dev/null &&
	perfsift run -n 2 plug.yaml --commit bbbb --build-cmd "make -j2" >/dev/null &&
	for j in $(find "$PERFSIFT_RESULT_ROOT" -path "*/bbbb/*/job.yaml"); do
		sed -i -e "s/^env_cpufreq_governor: .*/env_cpufreq_governor: \"perf\\\\e]0;owned\\\\aormance\"/" \
			-e "s/^env_build: .*/env_build: \"make\\\\e[2J\\\\r\\\\nrm -rf x\"/" "$j" &&
		: >"${j%/job.yaml}/.perfsift-pulled" || return 1
	done &&
	grep "env_cpufreq_governor: \"perf.e\]0;owned" "$j" &&
	perfsift stats --all >/dev/null &&
	perfsift report aaaa bbbb >out 2>err &&
	test "$(ctl out)" = 0 && test "$(ctl err)" = 0 &&
	test_grep "^cpufreq governor: perf\\\\x1b\]0;owned\\\\x07ormance$" out &&
	test_grep "&& make\\\\x1b\[2J\\\\x0d\\\\x0arm -rf x$" out
'

test_expect_success 'B1: a plain build command is shown as it is' '
	perfsift run plug.yaml --commit cccc --build-cmd "make CC=\"gcc -O2\" -j2" >/dev/null &&
	perfsift report aaaa cccc >out &&
	test_grep "&& make CC=\"gcc -O2\" -j2$" out
'

test_expect_success 'B3: PERFSIFT_PARSE_TIMEOUT=1e30 is the longest timeout, not none' '
	PERFSIFT_PARSE_TIMEOUT=1e30 perfsift run plug.yaml --commit dddd >out 2>err &&
	test_grep "PERFSIFT_PARSE_TIMEOUT .1e30. is longer than 1e+07 s" err &&
	! grep -q "was killed" err &&
	grep "\"plug.score\": 5" "$(find "$PERFSIFT_RESULT_ROOT" -path "*/dddd/0/stats.json")"
'

test_expect_success 'B4: a commit with a raw 0x9b or U+009B is refused, escaped' '
	for c in "$(printf "c\\2332J")" "$(printf "c\\377")" "$(printf "c\\302\\2332J")"; do
		{ perfsift run plug.yaml --commit "$c" >out 2>err; test $? = 3; } &&
		test "$(LC_ALL=C grep -c "$(printf "[\\200-\\377]")" err)" = 0 &&
		test_grep "commit: a directory name is UTF-8 without control characters: .c\\\\x" err &&
		! find "$PERFSIFT_RESULT_ROOT" -path "*/c$(printf "\\302")*" | grep -q . &&
		! find "$PERFSIFT_RESULT_ROOT" -name "c$(printf "\\233")*" | grep -q . || return 1
	done &&
	test_grep "c.xc2.x9b2J. holds a C1 control character" err
'

test_expect_success 'B4: a UTF-8 commit name (caf\303\251) is a group as before' '
	perfsift run plug.yaml --commit "caf$(printf "\\303\\251")" >out &&
	test_grep "run 1 of 1 -> .*/caf$(printf "\\303\\251")/0$" out
'

test_expect_success 'B5: a stats.json linked to a secret: its text is not quoted' '
	echo "SECRETWORD and more" >secret &&
	s=$(find "$PERFSIFT_RESULT_ROOT" -path "*/aaaa/0/stats.json") &&
	rm "$s" && ln -s "$TEST_TMP/secret" "$s" &&
	perfsift stats --all >out 2>err &&
	test_grep "aaaa/0/stats.json:1: .\\[. or .{. expected" err &&
	! grep -q SECRETWORD out err &&
	test "$(cat secret)" = "SECRETWORD and more"
'

test_done
