#!/bin/sh
# t9305: the third attack's lesser findings (docs/attack-3.md):
# B1 -- the facts of a run's job.yaml (a pulled run's: another box wrote
#       them) reached the terminal raw in `report`'s text: an ESC in the
#       cpufreq governor or the build command could retitle or clear it;
# B3 -- PERFSIFT_PARSE_TIMEOUT=1e30 overflowed the parse deadline, and
#       every parse script was killed at once.
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

test_done
