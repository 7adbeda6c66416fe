#!/bin/sh
# t5010: perfsift report writes the 0-day e-mail from two result groups
# (tests/data/report: seed-shaped vm-scalability anon-r-seq), with -o the
# job and the reproduction bundle beside it, and the exit status of compare.
. "$(dirname "$0")/lib.sh"

B=$TESTDATA/report/base
H=$TESTDATA/report/head

# one line per section, in the order the report must have them
cat >sections <<'EOS'
^Subject: \[perfsift\] 5f155ea5ab: vm-scalability\.[a-z_.]* [-+][0-9.]*% improvement$
^FYI, we noticed that vm-scalability\.[a-z_.]* [-+][0-9.]*% improvement on$
^commit 5f155ea5ab62b5321aa7315de62d21da59aa8c65$
^The KPI, vm-scalability\.[a-z_.]*:$
^ *v4\.6-rc2  *%change  *5f155ea5ab$
^ *[0-9.]* ± *[0-9]*%  *[-+][0-9.]*%  *[0-9.]* ± *[0-9]*%  vm-scalability\.
^  *vm-scalability\.[a-z_.]*$
^ *[0-9.e+]* ++--*+$
[[]\*[]] base sample$
[[]O[]] head sample$
^The stats that best explain it
^  *1\.  *[-+][0-9.]*%  [a-z]
^ *[0-9.e+]* ++--*+$
^=========================================================================================$
^  *%stddev  *%change  *%stddev$
^lkp-hsx04: Brickland Haswell-EX$
^CPUs: 144$
^Memory: 512G$
^To reproduce:$
perfsift install job.yaml
perfsift run job.yaml
^Disclaimer:$
EOS

# check_order FILE: every pattern of ./sections matches a line, in order
check_order() {
	line=0
	while IFS= read -r pat; do
		n=$(tail -n +$((line + 1)) "$1" | grep -n -m1 -- "$pat" | cut -d: -f1)
		if [ -z "$n" ]; then
			echo "section '$pat' missing after line $line" >&2
			return 1
		fi
		line=$((line + n))
	done <sections
}

test_expect_success 'report BASE HEAD prints every section in order' '
	perfsift report "$B" "$H" >out &&
	check_order out
'

test_expect_success 'the table is compare'"'"'s own rendering (every KPI), verbatim' '
	perfsift compare --with-kpis "$B" "$H" >cmp &&
	test -s cmp &&
	tr "\n" "\001" <cmp >cmp1 &&
	tr "\n" "\001" <out >out1 &&
	grep -qF -f cmp1 out1
'

test_expect_success 'the ranked list holds at most 10 monitor stats, no KPI' '
	sed -n "/^The stats that best explain it/,/^====/p" out >ranked &&
	n=$(grep -c "^  *[0-9][0-9]*\. " ranked) &&
	test "$n" -ge 3 && test "$n" -le 10 &&
	! grep -q "^  *[0-9]*\.  *[-+][0-9.]*%  vm-scalability\." ranked &&
	test_grep "numa-meminfo.node0.Active(anon)" ranked
'

test_expect_success 'charts: the KPI first, then top changed stats' '
	n=$(grep -c "^ *[0-9.e+-]* ++--*+\$" out) &&
	test "$n" -ge 4 &&
	test "$(grep -c "base sample" out)" -eq 1 &&
	! grep -q "bisect-" out
'

test_expect_success '--repo adds the subject and full id from git' '
	git init -q repo &&
	git -C repo -c user.name=t -c user.email=t@e commit -q --allow-empty \
		-m "thp: keep huge zero page pinned until tlb flush" &&
	sha=$(git -C repo rev-parse HEAD) &&
	cp -R "$H" head2 &&
	for j in head2/*/job.yaml; do
		sed "s/^commit: .*/commit: ${sha}/" "$j" >j.tmp && mv j.tmp "$j" || return 1
	done &&
	perfsift report --repo repo "$B" head2 >out2 &&
	test_grep "^commit $sha (\"thp: keep huge zero page pinned until tlb flush\")\$" out2 &&
	short=$(echo "$sha" | cut -c1-10) &&
	test_grep "^Subject: \[perfsift\] $short: " out2
'

test_expect_success '--repo with a commit git does not know: a warning, no subject' '
	git init -q empty &&
	perfsift report --repo empty "$B" "$H" >out3 2>err &&
	test_grep "warning" err &&
	test_grep "^commit 5f155ea5ab62b5321aa7315de62d21da59aa8c65\$" out3
'

test_expect_success '-o DIR writes report.txt, job.yaml and repro.tar.gz' '
	perfsift report "$B" "$H" -o rep >stdout &&
	test ! -s stdout &&
	check_order rep/report.txt &&
	test_grep "^  test: anon-r-seq" rep/job.yaml &&
	! grep -q "^testbox:" rep/job.yaml &&
	! grep -q "^env_" rep/job.yaml &&
	tar tzf rep/repro.tar.gz >list &&
	test_grep "^repro/job.yaml\$" list &&
	test_grep "^repro/env.yaml\$" list &&
	test_grep "^repro/base/matrix.json\$" list &&
	test_grep "^repro/head/4/meminfo\$" list &&
	test_grep "^repro/base/0/stats.json\$" list &&
	tar xzf rep/repro.tar.gz repro/env.yaml &&
	test_grep "env_thp_enabled: \"always\"" repro/env.yaml &&
	test_grep "model: \"Brickland Haswell-EX\"" repro/env.yaml
'

test_expect_success 'the job written beside the report is a valid atomic job' '
	perfsift split rep/job.yaml -o split >/dev/null &&
	test "$(ls split | wc -l)" -eq 1
'

test_expect_success '--html writes a self-contained page, text escaped' '
	perfsift report "$B" "$H" --html page.html >/dev/null &&
	test_grep "^<!DOCTYPE html>" page.html &&
	test_grep "<svg xmlns" page.html &&
	test_grep "latency_stats.sum.&lt;wait&gt;&amp;&quot;io&quot;" page.html &&
	! grep -q "latency_stats.sum.<wait>" page.html &&
	! grep -qi "src=\|href=\|@import\|url(" page.html
'

test_expect_success 'a regressed KPI gives exit status 1 and says regression' '
	test_must_fail --status=1 perfsift report "$H" "$B" >rev &&
	test_grep "^Subject: \[perfsift\] v4.6-rc2: vm-scalability\..* regression\$" rev
'

test_expect_success 'BASE and HEAD by commit id or key=value under the result root' '
	G=$PERFSIFT_RESULT_ROOT/vm-scalability/anon-r-seq/lkp-hsx04/debian/x86_64-rhel/gcc-12 &&
	mkdir -p "$G" &&
	cp -R "$B" "$G/v4.6-rc2" &&
	cp -R "$H" "$G/5f155ea5ab62b5321aa7315de62d21da59aa8c65" &&
	perfsift report v4.6-rc2 5f155ea5 >byid &&
	check_order byid &&
	perfsift report commit=v4.6-rc2 commit=5f155ea5ab62b5321aa7315de62d21da59aa8c65 >bykv &&
	test_cmp byid bykv
'

test_expect_success 'two settings on one commit: the report says which settings' '
	cp -R "$B" never && cp -R "$H" always &&
	for r in never/[0-9]*; do
		sed -i "s/^commit: .*/commit: v4.6-rc2/" $r/job.yaml &&
		printf "transparent_hugepage:\n  thp_enabled: never\n" >>$r/job.yaml || return 1
	done &&
	for r in always/[0-9]*; do
		sed -i "s/^commit: .*/commit: v4.6-rc2/" $r/job.yaml &&
		printf "transparent_hugepage:\n  thp_enabled: always\n" >>$r/job.yaml || return 1
	done &&
	perfsift report never always >settings &&
	test_grep "^Subject: \[perfsift\] v4.6-rc2 (thp_enabled=always): " settings &&
	test_grep "^commit v4.6-rc2 with thp_enabled=always\$" settings &&
	test_grep "^against v4.6-rc2 with thp_enabled=never\$" settings &&
	test_grep "^ *thp_enabled=never  *%change  *thp_enabled=always\$" settings &&
	test_grep "^THP: always (defrag: madvise)\$" settings &&
	test_grep "^Set by the job: cpufreq_governor=performance, thp_enabled=always\$" settings &&
	sed -i "s/^  thp_enabled: always/  thp_enabled: madvise/" always/[0-9]*/job.yaml &&
	perfsift report never always >madvise &&
	test_grep "^THP: madvise (defrag: madvise)\$" madvise &&
	perfsift report "$B" "$H" >plain &&
	! grep " with " plain
'

test_expect_success 'a tiny count doubling does not explain anything (LKP floors)' '
	cp -R "$B" fb && cp -R "$H" fh &&
	sed -i "1s/^{/{ \"interrupts.CPU0.IWI:IRQ_work_interrupts\": [1, 1, 1, 1, 1],/" fb/matrix.json &&
	sed -i "1s/^{/{ \"interrupts.CPU0.IWI:IRQ_work_interrupts\": [2, 2, 2, 2, 2],/" fh/matrix.json &&
	perfsift compare --all --stat IRQ_work fb fh >irq &&
	test_grep "+100.0%.*IRQ_work_interrupts" irq &&
	perfsift report fb fh >floors &&
	! grep "^ *[0-9]*\.  .*IRQ_work_interrupts" floors
'

test_expect_success 'a bad BASE is a usage error and writes nothing' '
	test_must_fail --status=2 perfsift report nowhere "$H" -o bad --html bad.html 2>err &&
	test_grep "nowhere" err &&
	test ! -e bad && test ! -e bad.html &&
	test_must_fail --status=2 perfsift report "$B" 2>err &&
	test_grep "usage:" err
'

test_done
