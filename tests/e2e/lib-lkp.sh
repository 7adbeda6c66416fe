# shellcheck shell=sh
# lib-lkp.sh: helpers of the LKP-checkout tests (t35xx): a scratch copy of
# tests/data/lkp-programs (minimal copies of LKP's own files, origin in its
# README.md) as the checkout --lkp-src names, and a $BENCHMARK_ROOT of the
# test's own, so that nothing outside the test's directory is touched.

LKP=$TEST_TMP/lkp-tests
cp -R "$TESTDATA/lkp-programs" "$LKP"
BENCHMARK_ROOT=$TEST_TMP/benchmarks
export BENCHMARK_ROOT

# the run directories of suite $1, one a line
lkp_runs() {
	find "$PERFSIFT_RESULT_ROOT/$1" -name stats.json | sed 's,/stats.json$,,' | sort
}
