#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3501: LKP's jobs/pigz.yaml, unchanged: its 4 atomic jobs (nr_threads 25%
# and 100%, blocksize 128K and 512K) make 4 groups, since the parameters of
# LKP's pigz (its run script's `# - name` lines and meta.yaml) are part of
# each group's identity and path; `help keys` lists them, typed where
# perfsift's key of the same name says what they are.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-lkp.sh"
. "$SRCDIR/tests/e2e/lib-programs.sh"

if ! command -v pigz >/dev/null || ! command -v ruby >/dev/null; then
	test_skip "pigz's 4 groups" "pigz or ruby is not installed (scripts/install-deps)"
	test_done
fi

test_expect_success "help keys lists pigz's parameters from its run header and meta.yaml" '
	perfsift help keys --lkp-src "$LKP" pigz >keys &&
	test_grep "^  nr_threads  *cpus" keys &&
	test_grep "^  runtime  *seconds" keys &&
	test_grep "^  blocksize  *string" keys &&
	test_grep "^  iterations  *string" keys
'

test_expect_success "jobs/pigz.yaml makes 4 groups, each with pigz's stats" '
	perfsift run --lkp-src "$LKP" --set runtime=1 "$LKP/jobs/pigz.yaml" >out 2>err ||
		{ cat err; false; } &&
	lkp_runs pigz >runs &&
	test $(wc -l <runs) -eq 4 &&
	sed "s,^$PERFSIFT_RESULT_ROOT/pigz/,,; s,/.*,," runs | sort -u >groups &&
	printf "%s\n" "128K-100%-1" "128K-25%-1" "512K-100%-1" "512K-25%-1" >expect &&
	test_cmp expect groups &&
	for d in $(cat runs); do stat_positive "$d" pigz.throughput || return 1; done
'

test_expect_success "the 25% and 100% runs are told apart: pigz ran with their thread counts" '
	q=$(( $(nproc) / 4 )) && [ "$q" -ge 1 ] || q=1 &&
	test_grep "^# run_cmd: pigz -c -b 128 -p $q$" "$(grep /128K-25%-1/ runs)/pigz" &&
	test_grep "^# run_cmd: pigz -c -b 512 -p $(nproc)$" "$(grep /512K-100%-1/ runs)/pigz"
'

test_expect_success "a typed parameter of the plug-in is checked: FILE:LINE: KEY:, exit 2" '
	printf "suite: pigz\ntestcase: pigz\npigz:\n  runtime: soon\n" >bad.yaml &&
	test_must_fail --status=2 perfsift run --lkp-src "$LKP" bad.yaml 2>err &&
	test_grep "bad.yaml:4: pigz.runtime: .soon. is not" err
'

test_done
