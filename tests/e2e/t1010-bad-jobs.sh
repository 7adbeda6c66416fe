#!/bin/sh
# shellcheck disable=SC1091,SC2016,SC2034
# t1010: each kind of bad job file gives ONE message `FILE:LINE: KEY: what
# is wrong`, exit status 2, and nothing written (neither in -o DIR nor in
# the current directory).
. "$(dirname "$0")/lib.sh"

# bad NAME 'MESSAGE' < job text: split it, check message, status, no files
bad() {
	mkdir -p "in" "work-$1" &&
	cat >"in/$1.yaml" &&
	(cd "work-$1" && test_must_fail --status=2 perfsift split -o out "../in/$1.yaml" >../out 2>../err) &&
	printf '%s\n' "$2" >expect &&
	test_cmp expect err &&
	test_cmp /dev/null out &&
	test -z "$(ls -A "work-$1")"
}

test_expect_success 'truncated: a list cut short' '
	printf "suite: x\nvm-scalability:\n  test: [anon-r-seq, anon-w" |
	bad trunc-list "../in/trunc-list.yaml:3: test: a '\''['\'' list is not closed with '\'']'\'' (or an item lacks a '\'','\'')"
'

test_expect_success 'truncated: a quoted string cut short' '
	printf "suite: x\nmytest:\n  cmdline: \"dd if=/dev/zero of=/d" |
	bad trunc-quote "../in/trunc-quote.yaml:3: cmdline: a quoted string is never closed (is the file cut short?)"
'

test_expect_success 'truncated: a key cut short' '
	printf "suite: x\nruntime: 300s\nvm-scal" |
	bad trunc-key "../in/trunc-key.yaml:3: vm-scal: a key without '\'':'\'' (or a line cut short)"
'

test_expect_success 'a tab in the indentation' '
	printf "suite: x\nvm-scalability:\n  test: a\n\tsize: 1G\n" |
	bad tab "../in/tab.yaml:4: size: tab characters are not allowed in YAML indentation"
'

test_expect_success 'wrong type: a mapping where a value belongs' '
	printf "suite: x\nruntime: {a: 1}\n" |
	bad type-runtime "../in/type-runtime.yaml:2: runtime: expected a value (or a list of values), not a mapping"
'

test_expect_success 'wrong type: a program option given a mapping' '
	printf "suite: x\nvm-scalability:\n  test:\n    anon: 1\n" |
	bad type-option "../in/type-option.yaml:3: vm-scalability: option '\''test'\'' must be a value or a list of values, not a mapping"
'

test_expect_success 'wrong type: a program given a list of values' '
	printf "suite: x\nvm-scalability:\n- anon-r-seq\n- anon-w-seq\n" |
	bad type-program "../in/type-program.yaml:3: vm-scalability: expected a mapping of options, not a list of values"
'

test_expect_success 'wrong type: a duration that is not one' '
	printf "suite: x\ntimeout: [60s, forever]\n" |
	bad type-timeout "../in/type-timeout.yaml:2: timeout: '\''forever'\'' is not a duration (e.g. 300 or 300s)"
'

test_expect_success 'an unknown program (a misspelt one gets a suggestion)' '
	printf "suite: x\nvm-scalabilty:\n  test: anon-r-seq\n" |
	bad unknown "../in/unknown.yaml:2: vm-scalabilty: unknown program (did you mean '\''vm-scalability'\''?); no plug-in vm-scalabilty/ in ../in/programs (the job'\''s directory)"
'

test_expect_success 'a duplicate key' '
	printf "suite: x\nruntime: 300s\nsize: 1G\nruntime: 600s\n" |
	bad dup "../in/dup.yaml:4: runtime: duplicate key (first given at line 2)"
'

test_expect_success 'a duplicate option in a later document' '
	printf "suite: x\nvm-scalability:\n  test: a\n---\nvm-scalability:\n  test: b\n  test: c\n" |
	bad dup-doc "../in/dup-doc.yaml:7: test: duplicate key (first given at line 6)"
'

test_expect_success 'an error in one document writes none of the others' '
	printf "suite: x\nvm-scalability:\n  test: [a, b]\n---\nsize: 1G\n---\nsize: {a: 1}\n" |
	bad late-doc "../in/late-doc.yaml:7: size: expected a value (or a list of values), not a mapping"
'

test_expect_success 'a job file that does not exist' '
	test_must_fail --status=2 perfsift split no-such.yaml 2>err &&
	test_grep "cannot read '\''no-such.yaml'\''" err
'

# a sanitizer build reserves terabytes of address space: no ulimit -v there
# (dash and bash both have ulimit -v)
# shellcheck disable=SC3045
memcap() {
	case "${PERFSIFT_BUILD-}" in
	*/san) "$@" ;;
	*) (ulimit -v 2000000 && "$@") ;;
	esac
}

test_expect_success 'a YAML alias bomb is refused before it is built (2 GB cap)' '
	cat >in-bomb.yaml <<-\EOT &&
	testcase: t
	a: &a [x,x,x,x,x,x,x,x,x,x]
	b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]
	c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]
	d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]
	e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]
	f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]
	g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]
	h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g,*g]
	mytest:
	  cmdline: "true"
	EOT
	mkdir work-bomb && (cd work-bomb &&
		test_must_fail --status=2 memcap "$PERFSIFT" split -o out ../in-bomb.yaml 2>../err) &&
	echo "../in-bomb.yaml:6: e: the file holds more than 100000 values once its aliases are expanded (a YAML alias bomb?)" >expect &&
	test_cmp expect err &&
	test -z "$(ls -A work-bomb)"
'

test_expect_success 'an alias cannot nest a value deeper than a file may' '
	open= close= &&
	for i in $(seq 60); do open="$open[" close="$close]"; done &&
	printf "testcase: t\na: &a %sx%s\nb: [[[[[*a]]]]]\n" "$open" "$close" |
	bad alias-deep "../in/alias-deep.yaml:3: b: nested too deeply (through the alias '\''*a'\'')"
'

test_expect_success 'many documents each merged with a large first one' '
	{ printf "testcase: t\na: [%s x]\n" "$(printf "x, %.0s" $(seq 99))" &&
	  for i in $(seq 1100); do printf -- "---\nb: %d\n" "$i"; done; } |
	bad many-docs "../in/many-docs.yaml:2202: job: the file holds more than 100000 values once its 1101 documents are merged with the first"
'

test_expect_success 'a job file larger than 1 MiB is refused' '
	head -c 1100000 /dev/zero | tr "\0" "#" |
	bad huge "../in/huge.yaml:1: job: the file is larger than 1024 KiB (not a job file?)"
'

test_expect_success 'packages: a shell word is not a Debian package name' '
	printf "testcase: t\npackages:\n- coreutils\n- \"\$(touch pwned)\"\nmytest:\n  cmdline: \"true\"\n" |
	bad pkg-shell "../in/pkg-shell.yaml:4: packages: '\''\$(touch pwned)'\'' is not a Debian package name (lower-case letters, digits, '\''+'\'', '\''-'\'', '\''.'\''; an optional '\'':ARCH'\'')" &&
	! test -e pwned
'

test_expect_success 'packages: an apt-get option, blanks and upper case are refused' '
	for p in "-oAPT::Get::Show=1" "a b" "Foo" "x" "coreutils;id" "libc6:" "libc6:amd64:x"; do
		printf "testcase: t\npackages: [\"%s\"]\nmytest:\n" "$p" >"pkg.yaml" &&
		test_must_fail --status=2 perfsift split -o pkg-out pkg.yaml 2>err &&
		test_grep "pkg.yaml:2: packages: .* is not a Debian package name" err &&
		! test -e pkg-out || return 1
	done &&
	printf "testcase: t\npackages: [libc6:amd64, g++-12, libstdc++6, lib2geom1.2.0t64]\nmytest:\n" >good.yaml &&
	perfsift split -o good-out good.yaml
'

test_expect_success 'a matrix bomb (100,000 atomic jobs of 20,000 values) is refused' '
	{ printf "testcase: t\n" &&
	  for k in a b c d e; do printf "%s: [%s]\n" "$k" "$(seq -s, 0 9)"; done &&
	  printf "packages: [%s]\nmytest:\n" "$(seq -s, -f "p%g" 20000)"; } |
	bad mbomb "../in/mbomb.yaml:6: e: the job expands to more than 5000000 values in all (249 atomic jobs of 20009 values)"
'

test_done
