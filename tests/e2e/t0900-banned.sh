#!/bin/sh
# t0900: util/banned.h reaches every source file through util/compat.h, and
# a call to a banned libc function does not compile (docs/design.md,
# "Banned functions", says why each is banned).
. "$(dirname "$0")/lib.sh"

CC=${CC:-cc}

# try_call EXPR: compile a file that includes compat.h and evaluates EXPR
try_call() {
	cat >try.c <<EOT
#include "util/compat.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
void f(char *d, const char *s, const time_t *t, char *b);
void f(char *d, const char *s, const time_t *t, char *b)
{
	(void)d; (void)s; (void)t; (void)b;
	(void)($1);
}
EOT
	"$CC" -std=c11 -I"$SRCDIR/src" -fsyntax-only try.c 2>err
}

test_expect_success 'the allowed forms compile' '
	try_call "snprintf(d, 8, \"%s\", s)" &&
	try_call "strtol(s, NULL, 10)" &&
	try_call "gmtime_r(t, NULL)" &&
	try_call "strtok_r(d, s, &b)"
'

test_expect_success 'each banned function is a compile error naming it' '
	for call in "strcpy(d, s)" "strcat(d, s)" "strncpy(d, s, 1)" \
		"strncat(d, s, 1)" "sprintf(d, \"%s\", s)" "atoi(s)" "atol(s)" \
		"atoll(s)" "atof(s)" "strtok(d, s)" "gmtime(t)" "localtime(t)" \
		"ctime(t)" "asctime(NULL)" "mktemp(d)" "tmpnam(d)"; do
		name=${call%%(*} &&
		if try_call "$call"; then
			echo "$name compiled" >&2 && return 1
		fi &&
		test_grep "sorry_${name}_is_a_banned_function" err || return 1
	done
'

test_done
