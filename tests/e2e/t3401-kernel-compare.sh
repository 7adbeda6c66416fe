#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3401: the same job on two real Debian kernels in the VM makes two
# groups, one per kernel (the commit axis is each guest's uname -r), and
# `compare` takes them -- by their directories and by commit selectors.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-kernel.sh"

need_kernel A first
need_kernel B last
RA=$(kernel_release "$A")
RB=$(kernel_release "$B")
if [ "$RA" = "$RB" ]; then
	test_skip 'two kernels compared' "only one Debian cloud kernel ($RA) is known to apt"
	test_done
fi

# work the guest kernel does (100 fork+exec): its time is a real number per kernel
cat >two.yaml <<'EOT'
testcase: ktwo
mytest:
  cmdline: "i=0; while [ $i -lt 100 ]; do /bin/true; i=$((i+1)); done; echo loops: $i"
EOT

test_expect_success 'two kernels, two runs each: two groups named by their kernels' '
	perfsift run two.yaml -n 2 --kernel "$A" --vm-cpus 1 --vm-memory 512M >outa 2>&1 &&
	perfsift run two.yaml -n 2 --kernel "$B" --vm-cpus 1 --vm-memory 512M >outb 2>&1 &&
	ga=$(find "$PERFSIFT_RESULT_ROOT/ktwo" -type d -name "$RA") &&
	gb=$(find "$PERFSIFT_RESULT_ROOT/ktwo" -type d -name "$RB") &&
	test "$(dirname "$ga")" = "$(dirname "$gb")" &&
	for g in "$ga" "$gb"; do
		for r in 0 1; do
			test_grep "\"mytest.loops\": 100" "$g/$r/stats.json" &&
			test_grep "\"mytest.time.elapsed_time\"" "$g/$r/stats.json" || return 1
		done
	done
'

test_expect_success 'compare takes the two kernels (directories and commit=)' '
	ga=$(find "$PERFSIFT_RESULT_ROOT/ktwo" -type d -name "$RA") &&
	gb=$(find "$PERFSIFT_RESULT_ROOT/ktwo" -type d -name "$RB") &&
	{ perfsift compare --all "$ga" "$gb" >cmp; test $? -le 1; } &&
	test_grep "$RA" cmp && test_grep "$RB" cmp &&
	test_grep "mytest.time.elapsed_time" cmp &&
	{ perfsift compare --json --all "commit=$RA" "commit=$RB" >cmp.json; test $? -le 1; } &&
	test_grep "\"stat\": \"mytest.time.elapsed_time\"" cmp.json &&
	test_grep "\"runs\": 2" cmp.json
'

test_done
