#!/bin/sh
# t2001: the LKP tables compiled into perfsift (src/compare/lkp_tables.c) are
# exactly what scripts/gen-lkp-tables makes of tests/data/lkp/etc.
. "$(dirname "$0")/lib.sh"

test_expect_success 'src/compare/lkp_tables.c is generated from the LKP tables' '
	"$SRCDIR/scripts/gen-lkp-tables" "$TESTDATA/lkp/etc" >expect &&
	test_cmp expect "$SRCDIR/src/compare/lkp_tables.c"
'

test_done
