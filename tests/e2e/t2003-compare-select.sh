#!/bin/sh
# t2003: BASE / HEAD resolved through the index of runs made by
# `perfsift run`: commit ids, unique and ambiguous prefixes, key=value
# selectors over job parameters, a plain directory holding only an LKP
# matrix.json; the header shows job parameters, never the machine
# fingerprint that run writes into job.yaml.
. "$(dirname "$0")/lib.sh"

R=$PERFSIFT_RESULT_ROOT

# the group directory of setting $1 (fast, slow) and commit $2
group () {
	find "$R/tiny" -type d -path "*-$1/*/$2" | head -1
}

# the header: from the ===== rule to the column labels' dashes
header () {
	sed -n "1,/^----/p" "$1"
}

test_expect_success 'setup: two settings of one commit, one more commit' '
	cat >bench.sh <<-\EOT &&
	#!/bin/sh
	case "$mytest" in slow) echo "score: 50";; *) echo "score: 100";; esac
	EOT
	chmod +x bench.sh &&
	printf "testcase: tiny\nmytest:\n  mytest: fast\n" >tiny.yaml &&
	perfsift run tiny.yaml -n 3 --commit aaaa1111 -- ./bench.sh >out &&
	perfsift run tiny.yaml -n 3 --commit aaaa1111 --set mytest.mytest=slow -- ./bench.sh >out &&
	perfsift run tiny.yaml -n 3 --commit aaab2222 -- ./bench.sh >out &&
	test -f "$R/perfsift.db" &&
	test "$(perfsift results | wc -l)" -eq 3
'

test_expect_success 'key=value selectors compare two settings of one commit' '
	perfsift compare mytest=fast,commit=aaaa1111 mytest=slow >actual &&
	cat >expect <<-\EOT &&
	=========================================================================================
	cmdline/compiler/kconfig/rootfs/tbox_group/testcase:
	EOT
	head -2 actual | sed 2s/:.*/:/ >actual.head &&
	test_cmp expect actual.head &&
	test_grep "^mytest: \$" actual &&
	test_grep "^            fast                       slow \$" actual &&
	test_grep "^    100.00 ±  0%     -50.0%      50.00 ±  0%  mytest.score\$" actual
'

test_expect_success 'the header leaves the machine fingerprint out' '
	perfsift compare mytest=fast,commit=aaaa1111 mytest=slow >actual &&
	grep -q "^env_thp_enabled: " "$(group fast aaab2222)/0/job.yaml" &&
	header actual >hdr &&
	! grep -E "env_|model|nr_cpu|memory|testbox|arch" hdr
'

test_expect_success 'from the directories: the same table as from the index' '
	perfsift compare mytest=fast,commit=aaaa1111 mytest=slow >index.out &&
	perfsift compare "$(group fast aaaa1111)" "$(group slow aaaa1111)/1" >dirs.out &&
	test_cmp index.out dirs.out
'

test_expect_success 'a full commit id and a unique prefix' '
	perfsift compare aaab2222 mytest=slow >a &&
	perfsift compare aaab mytest=slow >b &&
	test_cmp a b &&
	test_grep "^commit: \$" a &&
	test_grep "^        aaab2222                   aaaa1111 \$" a &&
	test_grep "mytest.score\$" a
'

test_expect_success 'an ambiguous prefix: exit 2, the candidates listed' '
	test_must_fail --status=2 perfsift compare aaa aaab 2>err &&
	test_grep "'"'"'aaa'"'"' is ambiguous: it matches 3 result groups" err &&
	test "$(grep -c "^  .*/aaaa1111\$" err)" -eq 2 &&
	test "$(grep -c "^  .*/aaab2222\$" err)" -eq 1 &&
	test_must_fail --status=2 perfsift compare aaaa1111 aaab 2>err &&
	test_grep "is ambiguous: it matches 2 result groups" err
'

test_expect_success 'an empty selection: exit 2, a selector lists the groups' '
	test_must_fail --status=2 perfsift compare mytest=medium aaab 2>err &&
	test_grep "matches no result group under .*; the groups are:" err &&
	test "$(grep -c "^  tiny/" err)" -eq 3 &&
	test_must_fail --status=2 perfsift compare ffff aaab 2>err &&
	test_grep "matches no result group" err
'

test_expect_success 'a directory holding only an LKP matrix.json' '
	mkdir -p lkp/v4.6 &&
	cp "$(group fast aaab2222)/matrix.json" lkp/v4.6/ &&
	perfsift compare lkp/v4.6 mytest=slow >actual &&
	test_grep "^commit: \$" actual &&
	test_grep "^            v4.6                   aaaa1111 \$" actual &&
	test_grep "^    100.00 ±  0%     -50.0%      50.00 ±  0%  mytest.score\$" actual
'

test_done
