#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3500: what an LKP program gets from perfsift as from LKP's bin/run-local
# and bin/run-test -- RESULT_ROOT an existing directory that becomes the
# run's, TMP, BENCHMARK_ROOT, LKP_SRC, testcase, nr_cpu, the job's
# parameters -- with LKP's own lib/*.sh sourced by the run script; a
# program whose tool LKP builds from source and that is absent (ebizzy) is
# never said to be able to run; `parse PROGRAM DIR` reads a result root as
# LKP's harness does (fio's multi-instance fixture).
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-lkp.sh"

# a program of the checkout that reports what it was given, through LKP's lib
mkdir -p "$LKP/programs/lkpenv"
cat >"$LKP/programs/lkpenv/run" <<'EOS'
#!/bin/sh
# - mode
. $LKP_SRC/lib/env.sh
. $LKP_SRC/lib/reproduce-log.sh
log_cmd true lkpenv-was-here
test -d "$RESULT_ROOT" && echo "result_root: exists"
test -d "$TMP" && echo "tmp: exists" && echo "$TMP" >"$RESULT_ROOT/tmp-was"
echo "benchmark_root: $BENCHMARK_ROOT"
echo "lkp_src: $LKP_SRC"
echo "testcase: $testcase"
echo "nr_cpu: $nr_cpu"
echo "nr_threads: $nr_threads"
echo "mode: $mode"
echo "instance: $nr_instances $instance_id"
EOS
chmod +x "$LKP/programs/lkpenv/run"
cat >job.yaml <<'EOF2'
suite: lkpenv
testcase: lkpenv
nr_threads: 100%
lkpenv:
  mode: fast
EOF2

test_expect_success "the run script gets LKP's environment, and LKP's lib/ works in it" '
	perfsift run --lkp-src "$LKP" job.yaml >out 2>err || { cat err; false; } &&
	d=$(lkp_runs lkpenv) &&
	test -n "$d" &&
	test_grep "^result_root: exists$" "$d/lkpenv" &&
	test_grep "^tmp: exists$" "$d/lkpenv" &&
	test_grep "^benchmark_root: $BENCHMARK_ROOT$" "$d/lkpenv" &&
	test_grep "^lkp_src: $LKP$" "$d/lkpenv" &&
	test_grep "^testcase: lkpenv$" "$d/lkpenv" &&
	test_grep "^nr_cpu: $(nproc)$" "$d/lkpenv" &&
	test_grep "^nr_threads: $(nproc)$" "$d/lkpenv" &&
	test_grep "^mode: fast$" "$d/lkpenv" &&
	test_grep "^instance: 1 1$" "$d/lkpenv"
'

test_expect_success "what LKP's log_cmd writes to RESULT_ROOT is in the run directory; TMP is gone after" '
	d=$(lkp_runs lkpenv) &&
	test_grep "^true lkpenv-was-here$" "$d/reproduce.sh" &&
	test -s "$d/tmp-was" &&
	! test -e "$(cat "$d/tmp-was")"
'

test_expect_success "ebizzy without its binary: help programs, install and run never say it can run" '
	perfsift help programs --lkp-src "$LKP" >progs &&
	test_grep "^ebizzy .*no: $BENCHMARK_ROOT/ebizzy does not exist: LKP builds ebizzy from source" progs &&
	test_must_fail --status=3 perfsift install --lkp-src "$LKP" "$LKP/jobs/ebizzy.yaml" >inst 2>err &&
	test_grep "^missing  ebizzy: $BENCHMARK_ROOT/ebizzy does not exist" inst &&
	! test_grep "the job can run here" inst &&
	(
		PERFSIFT_RESULT_ROOT=$TEST_TMP/r-ebizzy && export PERFSIFT_RESULT_ROOT &&
		test_must_fail --status=2 perfsift run --lkp-src "$LKP" "$LKP/jobs/ebizzy.yaml" >out 2>err
	) &&
	test_grep "ebizzy.yaml:[0-9]*: ebizzy: $BENCHMARK_ROOT/ebizzy does not exist" err &&
	! test -e r-ebizzy
'

if command -v pxz >/dev/null; then
	test_skip "pxz without its command is never said to run" "pxz is installed here"
else
	test_expect_success "pxz, whose pkg/depends brings no pxz: help programs and install say the command is missing" '
		perfsift help programs --lkp-src "$LKP" >progs &&
		test_grep "^pxz .*no: its run script runs .pxz., which is not on PATH" progs &&
		test_must_fail --status=3 perfsift install --lkp-src "$LKP" "$LKP/jobs/pxz.yaml" >inst 2>err &&
		test_grep "^missing  pxz: its run script runs .pxz., which is not on PATH" inst
	'
fi

test_expect_success "with the tool where LKP puts it, ebizzy can run" '
	mkdir -p "$BENCHMARK_ROOT/ebizzy" &&
	perfsift help programs --lkp-src "$LKP" >progs &&
	test_grep "^ebizzy  *plug-in  *yes" progs
'

test_expect_success "parse PROGRAM DIR reads a result root as LKP does (fio.output.1, fio.output.2)" '
	fx=$LKP/spec/fixtures/stats/fio &&
	perfsift parse fio "$fx/fio-multi-instance" >parsed &&
	test_cmp "$fx/fio-multi-instance.yaml" parsed
'

test_expect_success "parse PLUGIN DIR gives the parse script the raw file and RESULT_ROOT=DIR" '
	mkdir -p "$LKP/programs/rr" rroot &&
	printf "#!/bin/sh\necho \"lines: \$(wc -l <\"\$1\")\"\necho \"beside: \$(cat \"\$RESULT_ROOT/beside\")\"\n" >"$LKP/programs/rr/parse" &&
	chmod +x "$LKP/programs/rr/parse" &&
	printf "a\nb\n" >rroot/rr && echo 7 >rroot/beside &&
	perfsift parse --lkp-src "$LKP" rr rroot >parsed &&
	printf "lines: 2\nbeside: 7\n" >expect &&
	test_cmp expect parsed
'

test_done
