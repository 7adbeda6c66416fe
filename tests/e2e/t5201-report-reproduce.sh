#!/bin/sh
# t5201: the report's "To reproduce" gives the exact commands, and they
# work: the commands are taken out of the report (text and HTML say the
# same) and run in a scratch result root against a fresh clone of the
# project, and the reproduced runs have the same stats as the reported
# ones.  The job file it names is really beside the report and is the job
# that ran (its `-- CMD`, its settings, no machine facts).  The benchmark
# is fixed work printing fixed figures: nothing depends on timing.
. "$(dirname "$0")/lib.sh"

# a project of two commits; its build makes the benchmark from bench.in
test_expect_success 'setup: a project whose build makes the benchmark' '
	git init -q proj &&
	cat >proj/build.sh <<-\EOT &&
	#!/bin/sh
	# the build: the benchmark is made from bench.in
	cp bench.in bench.sh && chmod +x bench.sh
	EOT
	chmod +x proj/build.sh &&
	printf "#!/bin/sh\necho \"score: \${SCORE:-100}\"\necho \"ms: 10\"\n" >proj/bench.in &&
	echo bench.sh >proj/.gitignore &&
	git -C proj add . &&
	git -C proj -c user.name=t -c user.email=t@t commit -q -m one &&
	c1=$(git -C proj rev-parse HEAD) &&
	sed -i "s/ms: 10/ms: 15/" proj/bench.in &&
	git -C proj -c user.name=t -c user.email=t@t commit -q -am two &&
	c2=$(git -C proj rev-parse HEAD) &&
	echo $c1 >c1 && echo $c2 >c2 &&
	printf "testcase: repro\nkpi: {mytest.ms: lower}\nmytest:\n  mytest: base\nmonitors: none\n" >job.yaml
'

# run the job at commit $1 in proj, as bisect and the robot do: checked
# out, built, then run with the build recorded; more perfsift run options after
run_at () {
	c=$1 && shift &&
	(cd proj && git checkout -q --detach "$c" && ./build.sh &&
	 perfsift run ../job.yaml -n 3 --commit "$c" --build-cmd ./build.sh \
		--install-cmd "touch installed" "$@" -- ./bench.sh >../out)
}

# the "To reproduce" commands of report text $1, one a line, into $2
commands_of () {
	sed -n "/^To reproduce:/,/^Disclaimer:/p" "$1" |
	sed -n "s/^        \([^#].*\)/\1/p" >"$2"
}

# run the commands of $1 in a fresh clone, a scratch root; report files in $2
reproduce () {
	rm -rf scratch && git clone -q proj scratch/proj &&
	cp "$2"/*job.yaml scratch/proj/ &&
	# the commands say `perfsift`: the one under test, on the PATH
	mkdir -p scratch/bin && ln -s "$PERFSIFT" scratch/bin/perfsift || return 1
	if ! (cd scratch/proj && PERFSIFT_RESULT_ROOT=$TEST_TMP/scratch/result &&
	      PATH=$TEST_TMP/scratch/bin:$PATH && export PERFSIFT_RESULT_ROOT PATH &&
	      git config advice.detachedHead false &&
	      sed "\$d" "$1" >../steps && tail -n 1 "$1" >../last &&
	      sh -ex ../steps >../out 2>../err &&
	      # compare, last, exits 1 on a regression: its status is kept
	      { sh -x ../last >../out 2>>../err; echo $? >../status; }); then
		cat scratch/err
		return 1
	fi
}

# the sorted stat names of the runs of group directory $1
stat_names () {
	for f in "$1"/*/stats.json; do
		sed -n "s/^ *\"\([^\"]*\)\": .*/\1/p" "$f"
	done | sort -u
}

test_expect_success 'two commits: the report says how each was built and run' '
	run_at $(cat c1) && run_at $(cat c2) &&
	test_must_fail --status=1 perfsift report -o rep --html rep.html \
		$(cat c1) $(cat c2) &&
	commands_of rep/report.txt cmds &&
	cat cmds &&
	cat >expect <<-EOF &&
	git checkout --detach $(cat c1) && ./build.sh && touch installed
	perfsift install job.yaml
	perfsift run job.yaml -n 3 --commit $(cat c1) -- ./bench.sh
	git checkout --detach $(cat c2) && ./build.sh && touch installed
	perfsift run job.yaml -n 3 --commit $(cat c2) -- ./bench.sh
	perfsift compare $(cat c1) $(cat c2)
	EOF
	test_cmp expect cmds &&
	test_grep "^        # job.yaml is the job the head runs ran, attached beside this report\$" rep/report.txt
'

test_expect_success 'the job file it names is beside it: the job that ran, no machine facts' '
	test -f rep/job.yaml && test ! -e rep/base-job.yaml &&
	test_grep "^  mytest: base\$" rep/job.yaml &&
	test_grep "^  cmdline: ./bench.sh\$" rep/job.yaml &&
	test_grep "^  mytest.ms: lower\$" rep/job.yaml &&
	test_grep "^monitors: none\$" rep/job.yaml &&
	! grep -E "^(commit|testbox|nr_cpu|memory|model|env_[a-z_]*):" rep/job.yaml &&
	tar -xzf rep/repro.tar.gz repro/job.yaml &&
	test_cmp rep/job.yaml repro/job.yaml
'

test_expect_success 'the HTML page gives the very same commands' '
	sed -n "/<section id=\"reproduce\">/,/<\/pre>/p" rep.html |
	sed -e "s/<[^>]*>//g" -e "s/&amp;/\&/g" -e "s/&lt;/</g" -e "s/&gt;/>/g" \
		-e "s/&#39;/'\''/g" -e "s/&quot;/\"/g" |
	grep -v "^#" | grep -v "^To reproduce\$" | grep . >html.cmds &&
	test_cmp cmds html.cmds
'

test_expect_success 'the commands, run in a scratch root, reproduce the same stats' '
	reproduce "$PWD/cmds" rep &&
	test "$(cat scratch/status)" = 1 &&
	test_grep "mytest.ms\$" scratch/out &&
	for c in c1 c2; do
		orig=$(dirname "$(find "$PERFSIFT_RESULT_ROOT" -path "*/$(cat $c)/0/stats.json")") &&
		new=$(dirname "$(find scratch/result -path "*/$(cat $c)/0/stats.json")") &&
		test -n "$orig" && test -n "$new" &&
		stat_names "${orig%/0}" >names.orig &&
		stat_names "${new%/0}" >names.new &&
		test_cmp names.orig names.new &&
		grep -q "^mytest.ms\$" names.new || return 1
	done &&
	# the same group name, the same figures
	test "$(cd scratch/result && find . -name matrix.json | sort)" = \
		"$(cd "$PERFSIFT_RESULT_ROOT" && find . -name matrix.json | sort)" &&
	test_grep "+50.0%.*mytest.ms\$" scratch/out
'

test_expect_success 'two settings on one commit: both jobs attached, compared by setting' '
	PERFSIFT_RESULT_ROOT=$TEST_TMP/settings && export PERFSIFT_RESULT_ROOT &&
	run_at $(cat c1) &&
	run_at $(cat c1) --set mytest.mytest=head &&
	perfsift report -o rep2 mytest=base mytest=head &&
	commands_of rep2/report.txt cmds2 &&
	cat >expect <<-EOF &&
	git checkout --detach $(cat c1) && ./build.sh && touch installed
	perfsift install job.yaml
	perfsift run base-job.yaml -n 3 --commit $(cat c1) -- ./bench.sh
	perfsift run job.yaml -n 3 --commit $(cat c1) -- ./bench.sh
	perfsift compare mytest=base mytest=head
	EOF
	test_cmp expect cmds2 &&
	test_grep "^  mytest: head\$" rep2/job.yaml &&
	test_grep "^  mytest: base\$" rep2/base-job.yaml &&
	tar -xzf rep2/repro.tar.gz repro/base-job.yaml &&
	test_cmp rep2/base-job.yaml repro/base-job.yaml &&
	reproduce "$PWD/cmds2" rep2 &&
	test "$(cat scratch/status)" = 0 &&
	test "$(cd scratch/result && find . -name matrix.json | sort)" = \
		"$(cd "$PERFSIFT_RESULT_ROOT" && find . -name matrix.json | sort)"
'

test_expect_success 'a command that is not plain words stays in the job file' '
	PERFSIFT_RESULT_ROOT=$TEST_TMP/quoted && export PERFSIFT_RESULT_ROOT &&
	printf "testcase: repro\nmytest:\n  cmdline: \"echo score: 1 | cat\"\nmonitors: none\n" >q.yaml &&
	perfsift run q.yaml --commit aaaa -n 2 >out && perfsift run q.yaml --commit bbbb -n 2 >out &&
	perfsift report -o rep3 aaaa bbbb &&
	test_grep "^        # the command is the job file.s mytest.cmdline: echo score: 1 | cat\$" rep3/report.txt &&
	test_grep "^        perfsift run job.yaml -n 2 --commit aaaa\$" rep3/report.txt &&
	test_grep "^        # build and install (boot) aaaa\$" rep3/report.txt &&
	test_grep "^        # how the commits were built and installed is not recorded in the runs\$" rep3/report.txt
'

test_expect_success 'runs from an LKP result root: what is not known is said, no job made up' '
	seed=$TESTDATA/compare/seed &&
	perfsift report -o rep4 "$seed/v4.6-rc2" "$seed/5f155ea5ab62b5321aa7315de62d21da59aa8c65" 2>err &&
	test ! -e rep4/job.yaml &&
	test_grep "^        # the head runs have no job.yaml (an LKP result root): the job,\$" rep4/report.txt &&
	commands_of rep4/report.txt cmds4 &&
	echo "perfsift compare v4.6-rc2 5f155ea5ab62b5321aa7315de62d21da59aa8c65" >expect &&
	test_cmp expect cmds4
'

test_done
