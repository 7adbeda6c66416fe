#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3302: perfsift help programs -- every program of the table and every
# plug-in on the search path, one line each in name order, with its kind
# and whether it can run here, the reason when it cannot; asked of the
# thing itself (PATH without ruby or hackbench changes the answer).
. "$(dirname "$0")/lib.sh"

mkdir -p progs/myplug progs/rplug progs/noexec progs/vmstat lkp/programs/lkpplug &&
printf '#!/bin/sh\necho x 1\n' >progs/myplug/run &&
printf '#!/bin/sh\nawk "{ print \\"x: \\" \\$2 }"\n' >progs/myplug/parse &&
printf '#!/bin/sh\necho x 1\n' >progs/rplug/run &&
printf '#!/usr/bin/env ruby\nputs "x: 1"\n' >progs/rplug/parse &&
printf '#!/bin/sh\n' >progs/noexec/run &&
printf '#!/bin/sh\n' >progs/vmstat/run &&
printf '#!/bin/sh\n' >lkp/programs/lkpplug/run &&
chmod +x progs/myplug/* progs/rplug/* progs/vmstat/run lkp/programs/lkpplug/run
PERFSIFT_PROGRAMS=$TEST_TMP/progs
export PERFSIFT_PROGRAMS

test_expect_success 'help programs: a plug-in found through PERFSIFT_PROGRAMS, kind plug-in, runs here' '
	perfsift help programs >list &&
	grep -Eq "^myplug +plug-in +yes$" list &&
	grep -Eq "^noexec +plug-in +no: $TEST_TMP/progs/noexec/run: not executable" list
'

test_expect_success 'every program of the table is listed, once, in name order' '
	perfsift help keys | sed -n "s/^\([a-z][^ ]*\) (.*): .*/\1/p" >table &&
	test $(wc -l <table) -gt 40 &&
	awk "NR > 1 { print \$1 }" list >names &&
	while read -r p; do
		test $(grep -cx "$p" names) -eq 1 || { echo "$p: not listed once" >&2; return 1; }
	done <table &&
	LC_ALL=C sort -c names &&
	test $(grep -cx vmstat names) -eq 1 &&
	grep -Eq "^vmstat +monitor " list &&
	grep -Eq "^vm-scalability +benchmark +yes$" list &&
	grep -Eq "^time +output parser +yes$" list &&
	grep -Eq "^aim9 +parse-only +no: not in Debian" list
'

test_expect_success 'the LKP checkout of --lkp-src is searched too' '
	test_must_fail grep -q "^lkpplug " list &&
	perfsift help programs --lkp-src "$TEST_TMP/lkp" >list2 &&
	grep -Eq "^lkpplug +plug-in +yes$" list2
'

# a PATH without ruby and without hackbench: the shell tools only
mkdir bin &&
for t in sh awk cat env; do ln -s "$(command -v $t)" bin/$t; done

test_expect_success 'what is missing here is said, with what to install' '
	PATH=$TEST_TMP/bin "$PERFSIFT" help programs >list3 &&
	grep -Eq "^rplug +plug-in +no: its parse script $TEST_TMP/progs/rplug/parse needs Ruby: apt-get install ruby$" list3 &&
	grep -Eq "^hackbench +external +no: .hackbench. is not installed: apt-get install rt-tests" list3 &&
	grep -Eq "^myplug +plug-in +yes$" list3
'

if command -v ruby >/dev/null; then
	test_expect_success 'with Ruby installed the Ruby plug-in can run' '
		grep -Eq "^rplug +plug-in +yes$" list
	'
fi

test_expect_success 'help programs takes no other argument' '
	test_must_fail --status=2 perfsift help programs --bogus 2>err &&
	test_grep "usage: perfsift help programs" err
'

test_done
