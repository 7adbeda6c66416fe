#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3504: scripts/lkp-programs-table makes docs/programs.md's table from a
# checkout: one row a program of programs/, "yes" only where perfsift says
# the program's job runs here, else the reason perfsift gives.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-lkp.sh"

test_expect_success 'one row a program, with what LKP has and its job files' '
	"$SRCDIR/scripts/lkp-programs-table" --perfsift "$PERFSIFT" "$LKP" >table &&
	test $(grep -c "^| [a-z]" table) -eq $(( $(ls "$LKP/programs" | wc -l) + 1 )) &&
	test_grep "^| ebizzy | run, parse, PKGBUILD | jobs/ebizzy.yaml | no | $BENCHMARK_ROOT/ebizzy does not exist" table &&
	test_grep "^| iperf-server | daemon | none | daemon | a server role.s daemon" table
'

test_expect_success 'yes where perfsift can run the job, after its packages are there' '
	if command -v pigz >/dev/null && command -v ruby >/dev/null; then
		test_grep "^| pigz | run, parse | jobs/pigz.yaml | yes |" table
	else
		test_grep "^| pigz | run, parse | jobs/pigz.yaml | no | .*perfsift install JOB" table
	fi
'

test_expect_success 'a job file perfsift refuses gives its error' '
	mkdir -p "$LKP/programs/broken" &&
	printf "#!/bin/sh\necho x\n" >"$LKP/programs/broken/run" && chmod +x "$LKP/programs/broken/run" &&
	printf "suite: broken\ntestcase: broken\nbroken:\nnosuch-setup:\n" >"$LKP/jobs/broken.yaml" &&
	"$SRCDIR/scripts/lkp-programs-table" --perfsift "$PERFSIFT" "$LKP" >table &&
	test_grep "^| broken | run | jobs/broken.yaml | no | the job: \$LKP_SRC/jobs/broken.yaml:4: nosuch-setup: unknown program" table
'

test_done
