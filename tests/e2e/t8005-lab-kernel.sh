#!/bin/sh
# t8005: a task naming a kernel, a reboot simulated: the box "runs" the
# kernel its fake /proc (PERFSIFT_SYSROOT) says; the worker's install
# hook installs the task's kernel and asks for a reboot (exit 100); the
# worker exits keeping its lease; the test "boots" the new kernel and
# starts the worker again, which resumes the task: it finishes once, the
# hook ran once.  A box that boots the wrong kernel fails the attempt
# saying which kernel it runs.
. "$(dirname "$0")/lib.sh"

: "${PERFSIFT_BUILD:=$SRCDIR/build}"
. "$SRCDIR/tests/e2e/lib-pg.sh"
. "$SRCDIR/tests/e2e/lib-lab.sh"

if ! pg_available; then
	test_skip 'the lab kernels' 'no PostgreSQL server programs or no libpq'
	test_done
fi

test_expect_success 'a throwaway PostgreSQL server starts' 'pg_start'

mkdir -p sys/proc/sys/kernel
echo old-kernel >sys/proc/sys/kernel/osrelease
PERFSIFT_SYSROOT=$TEST_TMP/sys
export PERFSIFT_SYSROOT
# the hook "installs" the kernel (a note of what a reboot would boot)
cat >install.sh <<EOF2
echo "\$PERFSIFT_TASK \$PERFSIFT_KERNEL" >>$TEST_TMP/installs
echo "\$PERFSIFT_KERNEL" >$TEST_TMP/next-boot
exit 100
EOF2
printf "testcase: mytest\nmytest: \"echo score: 1\"\n" >job.yaml
boot() { cp next-boot sys/proc/sys/kernel/osrelease; }

test_expect_success 'the hook asks for a reboot; after it the task finishes once' '
	perfsift --store "$URL" queue add job.yaml --testbox-group box \
		--kernel new-kernel -n 2 >ids &&
	id=$(cut -f1 ids) &&
	start_worker 1 --drain --lease-s 60 --install "sh $TEST_TMP/install.sh" &&
	wait $(cat pid.1) &&
	test_grep "rebooting into kernel new-kernel" w.1.log &&
	test "$(q "SELECT state || \$\$ \$\$ || attempts FROM lab_tasks WHERE id = $id")" = "leased 1" &&
	test "$(store_runs)" = 0 &&
	boot &&
	start_worker 1 --drain --lease-s 60 --install "sh $TEST_TMP/install.sh" &&
	wait $(cat pid.1) &&
	test "$(q "SELECT state || \$\$ \$\$ || attempts || \$\$ \$\$ || runs_done FROM lab_tasks WHERE id = $id")" = "done 1 2" &&
	test "$(q "SELECT count(*) FROM runs r JOIN groups g ON g.id = r.group_id WHERE g.commit_id = \$\$new-kernel\$\$")" = 2 &&
	test $(wc -l <installs) = 1 &&
	test "$(cat installs)" = "$id new-kernel" ||
	{ show_lab; false; }
'

test_expect_success 'the wrong kernel after boot fails the attempt with the reason' '
	perfsift --store "$URL" queue add job.yaml --testbox-group box \
		--kernel other-kernel --max-attempts 1 >ids &&
	id=$(cut -f1 ids) &&
	start_worker 1 --drain --lease-s 60 --install "sh $TEST_TMP/install.sh" &&
	wait $(cat pid.1) &&
	start_worker 1 --drain --lease-s 60 --install "sh $TEST_TMP/install.sh" &&
	wait $(cat pid.1) &&
	test "$(q "SELECT state FROM lab_tasks WHERE id = $id")" = failed &&
	q "SELECT last_error FROM lab_tasks WHERE id = $id" >why &&
	test_grep "booted kernel .new-kernel., the task asks for .other-kernel." why ||
	{ show_lab; false; }
'

test_expect_success 'a kernel task on a worker without a hook fails, saying so' '
	perfsift --store "$URL" queue add job.yaml --testbox-group box \
		--kernel third-kernel --max-attempts 1 >ids &&
	id=$(cut -f1 ids) &&
	start_worker 2 --drain &&
	wait $(cat pid.2) &&
	q "SELECT last_error FROM lab_tasks WHERE id = $id" >why &&
	test_grep "asks for kernel .third-kernel., this box runs .new-kernel. and its worker has no --install hook" why
'

test_expect_success 'a release another hand wrote into the queue never reaches the hook' '
	n=$(wc -l <installs) &&
	id=$(q "INSERT INTO lab_tasks (tbox_group, job_name, job_yaml, kernel, runs, max_attempts)
		SELECT tbox_group, job_name, job_yaml, \$\$-x; touch ran\$\$, 1, 1
		FROM lab_tasks ORDER BY id LIMIT 1 RETURNING id") &&
	start_worker 1 --drain --lease-s 60 --install "sh $TEST_TMP/install.sh" &&
	wait $(cat pid.1) &&
	test "$(q "SELECT state FROM lab_tasks WHERE id = $id")" = failed &&
	q "SELECT last_error FROM lab_tasks WHERE id = $id" >why &&
	test_grep "is no release (uname -r): its install hook is not run" why &&
	test $(wc -l <installs) = $n &&
	! test -e ran
'

test_done
