#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t9354: a run's processes end with the run (issue 25, F11).  A plug-in
# run script that starts a `setsid` daemon leaves nothing behind: the
# run's cgroup v2 holds the daemon, which is named in the run's stderr
# (its log), in last_state and on the terminal, and killed.  Without a
# cgroup (PERFSIFT_CGROUP=off) the run has a session of its own, and a
# child that took a process group of its own is found and killed the
# same way.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-programs.sh"

mkdir -p progs/leaky &&
cat >progs/leaky/run <<'EOS'
#!/bin/sh
if [ "$LEAK" = setsid ]; then
	setsid sh -c 'echo $$ >"$T/leak.$TAG"; exec sleep 100000' \
		</dev/null >/dev/null 2>&1 &
else
	# job control: the background job gets a process group of its own
	set -m
	sh -c 'echo $$ >"$T/leak.$TAG"; exec sleep 100000' \
		</dev/null >/dev/null 2>&1 &
fi
while [ ! -s "$T/leak.$TAG" ]; do sleep 0.05; done
echo "score 1"
EOS
chmod +x progs/leaky/run
PERFSIFT_PROGRAMS=$TEST_TMP/progs
T=$TEST_TMP
export PERFSIFT_PROGRAMS T
printf 'suite: leaky\ntestcase: leaky\nleaky:\n' >leaky.yaml

cgroup2_writable() {
	m=$(awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo) &&
	own=$(sed -n 's/^0:://p' /proc/self/cgroup) &&
	test -n "$m" && mkdir "$m$own/t9354-probe.$$" 2>/dev/null &&
	rmdir "$m$own/t9354-probe.$$"
}

if cgroup2_writable; then
	test_expect_success 'a setsid daemon in the run: named and killed (cgroup)' '
		LEAK=setsid TAG=c1 perfsift run leaky.yaml -n 1 --commit c1 >out 2>err &&
		cat err &&
		gone leak.c1 &&
		d=$(run_dirs leaky | grep /c1/) &&
		test_grep "^perfsift: left running when the run ended, killed (the run.s cgroup): $(cat leak.c1) (sleep)\$" "$d/stderr" &&
		test_grep "^leftover_processes: 1\$" "$d/last_state" &&
		test_grep "warning: leaky-defaults: run 1: left running when the run ended" err &&
		cg=$(awk "\$0 ~ / - cgroup2 / { print \$5; exit }" /proc/self/mountinfo)$(sed -n "s/^0:://p" /proc/self/cgroup) &&
		# no cgroup of a run is left with a process in it
		for c in "$cg"/perfsift-run.*; do
			test ! -s "$c/cgroup.procs" ||
				{ echo "$c still holds $(cat "$c/cgroup.procs")" >&2; return 1; }
		done
	'
else
	test_skip 'a setsid daemon in the run (cgroup)' 'no writable cgroup2 here'
fi

test_expect_success 'no cgroup: its own session; a job in a group of its own, killed' '
	PERFSIFT_CGROUP=off LEAK=group TAG=c2 perfsift run leaky.yaml -n 1 --commit c2 >out 2>err &&
	cat err &&
	gone leak.c2 &&
	d=$(run_dirs leaky | grep /c2/) &&
	test_grep "^perfsift: left running when the run ended, killed (the run.s session and process group): $(cat leak.c2) (sleep)\$" "$d/stderr"
'

test_expect_success 'a run that leaves nothing says nothing' '
	mkdir -p progs/clean && printf "#!/bin/sh\necho score 2\n" >progs/clean/run &&
	chmod +x progs/clean/run &&
	printf "suite: clean\ntestcase: clean\nclean:\n" >clean.yaml &&
	perfsift run clean.yaml -n 1 --commit c3 >out 2>err &&
	! grep -q "left running" err &&
	d=$(run_dirs clean) &&
	! grep -q leftover "$d/last_state" 2>/dev/null
'

test_done
