#!/bin/sh
# t5111: "what explains it" over a bisect's runs.  The report test data's
# base (good) and head (bad), and two more groups a side as a bisect's
# other good and bad commits (--good, --bad).  proc-vmstat.pgactivate is a
# counter that stepped between the base's and the head's batches (x3) but
# not with good and bad: the other good commits have the head's level,
# the other bad ones the base's.  proc-vmstat.pgmajfault moved with
# every bad commit (x5).  On the two groups alone both explain; over all
# the runs the noise counter does not separate and is left out, the real
# one stays, and the list is ranked by separation (the fixture's other
# stats moved with every bad commit too: they separate as well).  Fixed values: nothing depends on the machine.
. "$(dirname "$0")/lib.sh"

# set DIR NAME V: NAME's five runs in DIR/matrix.json about V (+-0.4%)
set_stat() {
	python3 - "$1/matrix.json" "$2" "$3" <<'PY'
import json, sys
p, name, v = sys.argv[1], sys.argv[2], float(sys.argv[3])
m = json.load(open(p))
m[name] = [v * (1 + 0.002 * (i - 2)) for i in range(len(next(iter(m.values()))))]
json.dump(m, open(p, "w"), indent=2)
PY
}

test_expect_success 'setup: base, head, two more good and bad groups' '
	cp -R "$TESTDATA/report/base" base && cp -R "$TESTDATA/report/head" head &&
	cp -R base good1 && cp -R base good2 && cp -R head bad1 && cp -R head bad2 &&
	set_stat base proc-vmstat.pgactivate 1000 &&
	set_stat head proc-vmstat.pgactivate 3000 &&
	set_stat good1 proc-vmstat.pgactivate 3010 &&
	set_stat good2 proc-vmstat.pgactivate 2990 &&
	set_stat bad1 proc-vmstat.pgactivate 1010 &&
	set_stat bad2 proc-vmstat.pgactivate 990 &&
	for g in base good1 good2; do set_stat $g proc-vmstat.pgmajfault 10000 || return 1; done &&
	for g in head bad1 bad2; do set_stat $g proc-vmstat.pgmajfault 50000 || return 1; done
'

# the ranked list of FILE
ranked() {
	grep "^ *[0-9][0-9]*\.  *[-+][0-9.]*%  " "$1"
}

test_expect_success 'on the two groups alone both explain it' '
	{ perfsift report base head >two.txt; test $? -le 1; } &&
	ranked two.txt >two &&
	test_grep "  proc-vmstat.pgactivate  (" two &&
	test_grep "  proc-vmstat.pgmajfault  (" two
'

test_expect_success 'over the good and bad runs: the noise left out, ranked by separation' '
	{ perfsift report base head --good good1 --good good2 --bad bad1 --bad bad2 >all.txt; test $? -le 1; } &&
	ranked all.txt >all &&
	! grep -q "pgactivate" all &&
	grep -q "^ *[0-9]*\.  *+[0-9.]*%  proc-vmstat.pgmajfault  (10000 -> 50000, separation 1\.00)$" all &&
	# ranked by separation first: the list never rises
	sed -n "s/.*separation \([01]\.[0-9]*\))$/\1/p" all >seps &&
	test "$(wc -l <seps)" -eq "$(wc -l <all)" &&
	sort -r -n seps >sorted && test_cmp sorted seps ||
	{ cat all.txt; false; }
'

test_expect_success 'a --good group that does not exist: exit 2, nothing written' '
	test_must_fail --status=2 perfsift report base head --good nosuch >out 2>err &&
	test_grep "good" err &&
	test ! -s out
'

test_done
