#!/bin/sh
# t9300: the robot config is code only where it says so (build, install,
# sendmail): a url, base or branch is never an option of git's (issue 25
# F1), a repo name with CR/LF is refused before it reaches a mail header
# or a directory (F10), and `job: /etc/shadow` does not quote the file in
# the error (F13).
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-robot.sh"

# refused CONFIG PATTERN: exit 2, one FILE:LINE: KEY: line, nothing run
refused() {
	test_must_fail --status=2 perfsift robot --config "$1" --dry-run 2>err &&
	cat err &&
	test "$(wc -l <err)" -eq 1 &&
	test_grep "$2" err &&
	test ! -e pwn &&
	test_must_fail --status=2 perfsift robot --config "$1" --once 2>err &&
	test_grep "$2" err &&
	test ! -e pwn && test ! -e "$PERFSIFT_RESULT_ROOT/robot"
}

test_expect_success 'setup: upstream and job' '
	make_upstream up &&
	write_robot_job job.yaml
'

test_expect_success 'F1: a url "--upload-pack=CMD" is refused, CMD never runs' '
	write_config url.yaml "\"--upload-pack=touch pwn;\"" &&
	refused url.yaml "^perfsift robot: error: url.yaml:3: url: .--upload-pack=touch pwn;.: it starts with .-."
'

test_expect_success 'F1: a base or branch starting with - is refused' '
	write_config base.yaml "$PWD/up" &&
	sed "s|base: main|base: \"--output=pwn\"|" base.yaml >b2.yaml &&
	refused b2.yaml "^perfsift robot: error: b2.yaml:4: base: .--output=pwn.: it starts with" &&
	sed "s|branches: \[feature/\*\]|branches: [feature/*, \"--exec=touch pwn\"]|" base.yaml >b3.yaml &&
	refused b3.yaml "^perfsift robot: error: b3.yaml:5: branches: .--exec=touch pwn.: it starts with"
'

test_expect_success 'a url naming a git remote helper (fd::, ext::) is refused' '
	write_config fd.yaml "\"fd::3\"" &&
	refused fd.yaml "^perfsift robot: error: fd.yaml:3: url: .fd::3.: .fd::. names a git remote helper" &&
	write_config ext.yaml "\"ext::sh -c touch% pwn\"" &&
	refused ext.yaml "^perfsift robot: error: ext.yaml:3: url: .ext::sh -c touch% pwn.: .ext::. names"
'

test_expect_success 'an unknown key with ESC is not shown' '
	write_config esc.yaml "$PWD/up" &&
	printf "\"\\\\e]0;owned\\\\a\": 1\n" >>esc.yaml &&
	tail -n 1 esc.yaml &&
	refused esc.yaml "^perfsift robot: error: esc.yaml:[0-9]*: (a key that is no name: not a robot config?)" &&
	! LC_ALL=C grep -q "$(printf "\033")" err &&
	write_config typo.yaml "$PWD/up" &&
	printf "mial: 1\n" >>typo.yaml &&
	refused typo.yaml "typo.yaml:[0-9]*: mial: unknown key in the robot config"
'

# the fourth attack (docs/attack-4.md): `robot --config /etc/shadow` as
# root quoted its first line, the password hash, as an unknown key
test_expect_success 'a config that is some other file: no line of it shown' '
	printf "root:\$y\$j9T\$SECRETHASH:20228:0:99999:7:::\ndaemon:*:20228:0:99999:7:::\n" >shadow &&
	refused shadow "^perfsift robot: error: shadow:1: (a key that is no name: not a robot config?)" &&
	! grep -q SECRETHASH err
'

test_expect_success 'F10: a repo name with CR/LF is a FILE:LINE: name: error' '
	write_config crlf.yaml "$PWD/up" &&
	sed "s|name: demo|name: \"demo\\\\r\\\\nBcc:evil@example\"|" crlf.yaml >c2.yaml &&
	grep -n "name:" c2.yaml &&
	refused c2.yaml "^perfsift robot: error: c2.yaml:2: name: " &&
	grep -F "name: '"'"'demo\x0d\x0aBcc:evil@example'"'"': a name without" err &&
	test ! -e sent.mbox
'

test_expect_success 'F13: job: /etc/shadow does not quote the file' '
	test -r /etc/shadow || test_skip "no readable /etc/shadow"
	head -1 /etc/shadow | cut -d: -f1-2 >secret &&
	write_config shadow.yaml "$PWD/up" &&
	sed -i "s|job: job.yaml|job: /etc/shadow|" shadow.yaml &&
	test_must_fail --status=2 perfsift robot --config shadow.yaml --dry-run 2>err &&
	cat err &&
	test_grep "^perfsift robot: error: shadow.yaml:[0-9]*: job: /etc/shadow:1: (a key that is no name: not a job file?)" err &&
	! grep -F -f secret err
'

test_expect_success 'F13: perfsift run on a file that is no job quotes none of it' '
	printf "root:\$y\$j9T\$SECRETHASH:20000:0:99999:7:::\nbin:*:20000:0:99999:7:::\n" >shadowlike &&
	test_must_fail --status=2 perfsift run shadowlike 2>err &&
	cat err &&
	test_grep "^perfsift run: shadowlike:1: (a key that is no name: not a job file?)" err &&
	! grep SECRETHASH err && ! grep "root:" err
'

test_expect_success 'F1: a fine url still fetches (the git calls take --end-of-options)' '
	write_config good.yaml "$PWD/up" &&
	perfsift robot --config good.yaml --dry-run >out 2>&1 &&
	cat out &&
	test_grep "demo/feature/slow" out
'

test_done
