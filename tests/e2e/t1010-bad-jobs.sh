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
	bad unknown "../in/unknown.yaml:2: vm-scalabilty: unknown program (did you mean '\''vm-scalability'\''?)"
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

test_done
