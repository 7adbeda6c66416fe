#!/bin/sh
# t9210: `queue add --kernel IMAGE`: a task that boots a kernel image in
# a VM.  A worker started with --vm runs it (`perfsift run --kernel`)
# without installing or rebooting anything, and its runs land in the
# shared store as the guest's kernel's; a worker without --vm fails the
# attempt saying why; an image that is not a kernel is refused at once.
# The kernel is scripts/build-test-kernel's tinyconfig one (cached).
. "$(dirname "$0")/lib.sh"

: "${PERFSIFT_BUILD:=$SRCDIR/build}"
. "$SRCDIR/tests/e2e/lib-pg.sh"
. "$SRCDIR/tests/e2e/lib-lab.sh"
. "$SRCDIR/tests/e2e/lib-kernel.sh"

if ! pg_available; then
	test_skip 'lab tasks in a VM' 'no PostgreSQL server programs or no libpq'
	test_done
fi
need_test_kernel 'lab tasks in a VM'

test_expect_success 'a throwaway PostgreSQL server starts' 'pg_start'

printf "testcase: mytest\nmytest: \"echo score: 1\"\n" >job.yaml

test_expect_success 'an image that is not a kernel: exit 2, nothing queued' '
	echo "not a kernel" >bogus &&
	test_must_fail --status=2 perfsift --store "$URL" queue add job.yaml \
		--testbox-group box --kernel ./bogus 2>err &&
	test_grep "kernel .\./bogus.: .*bogus" err
'

test_expect_success 'a worker without --vm fails the attempt, saying so' '
	perfsift --store "$URL" queue add job.yaml --testbox-group box \
		--kernel "$image" --max-attempts 1 >ids &&
	id=$(cut -f1 ids) &&
	# the first task: the bogus image queued nothing
	test "$id" = 1 &&
	test "$(q "SELECT kernel FROM lab_tasks WHERE id = $id")" = "$image" &&
	start_worker 1 --drain &&
	wait $(cat pid.1) &&
	test "$(q "SELECT state FROM lab_tasks WHERE id = $id")" = failed &&
	q "SELECT last_error FROM lab_tasks WHERE id = $id" >why &&
	test_grep "boots kernel image .$image. in a VM; this worker was not started with --vm" why ||
	{ show_lab; false; }
'

test_expect_success 'worker --vm runs it in the VM: two runs stored, of the guest kernel' '
	perfsift --store "$URL" queue add job.yaml --testbox-group box \
		--kernel "$image" -n 2 >ids &&
	id=$(cut -f1 ids) &&
	start_worker 2 --drain --vm &&
	wait $(cat pid.2) &&
	test "$(q "SELECT state || \$\$ \$\$ || runs_done FROM lab_tasks WHERE id = $id")" = "done 2" &&
	test "$(store_runs)" = 2 &&
	# made in the guest: the runs are of its kernel (linux-source-6.1'"'"'s
	# 6.1.192, uname -r, with the + of a tree built past its release
	# tag), not of the host'"'"'s
	test "$(q "SELECT DISTINCT g.commit_id FROM runs r JOIN groups g ON g.id = r.group_id")" = 6.1.192+ ||
	{ show_lab; false; }
'

test_done
