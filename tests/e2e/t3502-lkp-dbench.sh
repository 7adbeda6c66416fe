#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3502: LKP's dbench from LKP's own files: `perfsift install --lkp-src`
# installs its pkg/depends (named for Debian) and puts Debian's dbench where
# LKP's run script looks ($BENCHMARK_ROOT/dbench, loadfiles/client.load);
# the run finds it through lib/run.sh's prepare_exec_path and runs for the
# job's runtime; its parse script's stats reach the run.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-lkp.sh"
. "$SRCDIR/tests/e2e/lib-programs.sh"

if ! test_have_root || ! command -v dbench >/dev/null || ! command -v ruby >/dev/null; then
	test_skip "dbench from LKP's files" "needs root, dbench and ruby (scripts/install-deps)"
	test_done
fi

# jobs/dbench.yaml's first document: the rest mounts btrfs/ext4/xfs on a
# disk and cifs/nfs servers, which this machine has not
sed '/^---/,$d' "$LKP/jobs/dbench.yaml" >dbench.yaml

test_expect_success 'before install: run and help programs say what is missing' '
	perfsift help programs --lkp-src "$LKP" >progs &&
	test_grep "^dbench .*no: .*" progs &&
	test_must_fail --status=2 perfsift run --lkp-src "$LKP" dbench.yaml >out 2>err &&
	test_grep "dbench: $BENCHMARK_ROOT/dbench does not exist.*perfsift install JOB. puts Debian.s dbench there" err
'

test_expect_success "install puts Debian's dbench where LKP's run script looks" '
	perfsift install --lkp-src "$LKP" dbench.yaml >inst 2>err ||
		{ cat inst err; false; } &&
	test_grep "^ok       dbench: package dbench$" inst &&
	test_grep "^install  dbench: Debian.s dbench in $BENCHMARK_ROOT/dbench" inst &&
	test_grep "^the job can run here$" inst &&
	test -x "$BENCHMARK_ROOT/dbench/dbench" &&
	test -s "$BENCHMARK_ROOT/dbench/loadfiles/client.load"
'

test_expect_success "the run finds it and runs for the job's runtime, with dbench's stats" '
	perfsift run --lkp-src "$LKP" --set runtime=2 dbench.yaml >out 2>err ||
		{ cat err; false; } &&
	d=$(lkp_runs dbench) &&
	test_grep "^PATH=$BENCHMARK_ROOT/dbench:" "$d/dbench" &&
	test_grep "Running for 2 seconds" "$d/dbench" &&
	test_grep "^dbench $(nproc) -c loadfiles/client.load$" "$d/reproduce.sh" &&
	stat_positive "$d" "dbench.throughput_MB/s"
'

test_done
