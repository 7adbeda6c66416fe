#!/bin/sh
# t9302: a plug-in's stat names are outside text (issue 25 F10): a name
# with ESC or BEL (a terminal title, a screen clear), an empty one or one
# with an empty part is refused with FILE:LINE: NAME: why, the name
# escaped (\xHH), and never stored in stats.json nor printed raw.
. "$(dirname "$0")/lib.sh"

mkdir -p progs/plug &&
printf '#!/bin/sh\necho "score 1"\n' >progs/plug/run &&
chmod +x progs/plug/run
PERFSIFT_PROGRAMS=$TEST_TMP/progs
export PERFSIFT_PROGRAMS
printf 'testcase: plug\nplug:\n' >plug.yaml

# parse_prints TEXT: the plug-in's parse script prints TEXT (printf's)
parse_prints() {
	printf '#!/bin/sh\nprintf "score: 1\\n%s\\n"\n' "$1" >progs/plug/parse &&
	chmod +x progs/plug/parse
}

# refused PATTERN: the run fails naming the stat, no control byte on
# stderr, and no stats.json holds anything but plain names
refused() {
	test_must_fail perfsift run plug.yaml 2>err &&
	cat err &&
	test_grep "$1" err &&
	! LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" err &&
	find "$PERFSIFT_RESULT_ROOT" -name stats.json >jsons &&
	while read -r f; do
		! LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$f" || return 1
		! grep -q '"plug\.x\.\.y"\|"plug\."' "$f" || return 1
	done <jsons
}

test_expect_success 'a plain plug-in stat is stored' '
	parse_prints "ok.name/s: 2" &&
	perfsift run plug.yaml 2>err &&
	grep "\"plug.ok.name/s\": 2" "$(find "$PERFSIFT_RESULT_ROOT" -name stats.json)" &&
	rm -rf "$PERFSIFT_RESULT_ROOT"
'

test_expect_success 'ESC and BEL in a stat name: refused, escaped' '
	parse_prints "\\\\033]0;owned\\\\007x: 2" &&
	refused "/plug:2: plug\.\\\\x1b\]0;owned\\\\x07x: a control character in a stat name"
'

test_expect_success 'an empty stat name: refused' '
	parse_prints ": 3" &&
	refused "/plug:2: plug\.: an empty part in a stat name"
'

test_expect_success 'a stat name with an empty part: refused' '
	parse_prints "x..y: 4" &&
	refused "/plug:2: plug\.x\.\.y: an empty part in a stat name"
'

test_done
