#!/bin/sh
# shellcheck disable=SC1091,SC2016,SC2034
# t0104: names that become directories of the result root hold no control
# character (a commit id with a newline made a directory name with a
# newline in it), and compare says what is wrong with a matrix.json that
# is not a file.
. "$(dirname "$0")/lib.sh"

R=$PERFSIFT_RESULT_ROOT
printf 'testcase: t\nmytest:\n  cmdline: "true"\n' >job.yaml

test_expect_success '--commit with a newline: exit 2, nothing written' '
	test_must_fail --status=2 perfsift run job.yaml --commit "$(printf "abc\ndef")" >out 2>err &&
	test_grep "commit id has no ./., newline or other control character" err &&
	! test -e "$R"
'

test_expect_success '--commit with an escape character or a slash: the same' '
	test_must_fail --status=2 perfsift run job.yaml --commit "$(printf "abc\033[2J")" 2>err &&
	test_grep "control character" err &&
	test_must_fail --status=2 perfsift run job.yaml --commit "../../etc" 2>err &&
	! test -e "$R"
'

test_expect_success '--set commit= with a tab never makes such a directory' '
	test_must_fail perfsift run job.yaml --set "commit=$(printf "a\tb")" >out 2>err &&
	test_grep "directory name holds no control character" err &&
	test -z "$(find "$R" -name "*	*" 2>/dev/null)"
'

test_expect_success 'compare: a matrix.json that is a directory is named as such' '
	mkdir -p g/matrix.json &&
	test_must_fail perfsift compare g g 2>err &&
	test_grep "matrix.json. is not a regular file (a directory)" err
'

test_expect_success 'a cmdline ./prog or a value .. never makes a hidden or parent group' '
	cat >dot.yaml <<-\EOT &&
	testcase: dot
	mytest:
	  cmdline: ./prog
	EOT
	printf "#!/bin/sh\necho score: 1\n" >prog && chmod +x prog &&
	perfsift run dot.yaml >out 2>err &&
	test -d "$R/dot/__prog" &&
	test -z "$(find "$R/dot" -maxdepth 1 -name ".?*")" &&
	cat >up.yaml <<-\EOT &&
	testcase: up
	mytest:
	  cmdline: ..
	EOT
	perfsift run up.yaml >out 2>err;
	test -d "$R/up/_." &&
	test "$(ls "$R")" = "$(printf "dot\nperfsift.db\nup")" || { ls -la "$R" "$R/up"; false; }
'

test_done
