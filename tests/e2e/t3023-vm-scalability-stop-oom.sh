#!/bin/sh
# t3023: a vm-scalability run cut by SIGINT or SIGTERM leaves no mount,
# no scratch file and no knob behind; a worker killed by the OOM killer
# (inside a small memory cgroup, so the machine never runs short) makes a
# failed run recorded in last_state, not a number; a footprint the machine
# cannot hold is capped with a note unless allow_oom: true.
. "$(dirname "$0")/lib.sh"
test_exclusive

if ! test_have_root; then
	test_skip 'vm-scalability stop and OOM' 'needs root (tmpfs, knobs, cgroups)'
	test_done
fi

# wait_for PATTERN FILE: until a line of FILE matches (a generous 120 s
# bound: a sanitizer build on a loaded machine sets up slowly)
wait_for() {
	i=0
	while ! grep -q -- "$1" "$2" 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt 1200 ]; then
			echo "timed out waiting for '$1' in $2" >&2
			return 1
		fi
		sleep 0.1
	done
}

# ours RAW: the scratch directories of this run, from the paths its raw
# vm-scalability output RAW names ("truncate PATH -s SIZE"): other
# perfsift runs on the machine make and remove their own meanwhile
ours() {
	sed -n "s,^.*  truncate \(/[^ ]*\) -s [0-9]*$,\1,p" "$1" |
	sed -n -e "s,^\(/tmp/perfsift-scratch\.[^/]*\)/.*,\1,p" \
		-e "s,^\(/var/tmp/perfsift-vm-scalability\.[^/]*\)/.*,\1,p" |
	sort -u
}
# leftovers PID DIRS: mounts below DIRS, DIRS still there, PID's knobs
leftovers() {
	grep -c -F -f "$2" /proc/mounts
	while read -r d; do test ! -e "$d" || echo "$d"; done <"$2" | wc -l
	{ grep -c "^$1	" /run/perfsift/journal 2>/dev/null || :; } | grep . || echo 0
}
# the raw vm-scalability output of the run in progress in .tmp-N
raw_of() {
	t=$(find "$PERFSIFT_RESULT_ROOT" -path "*$1*" -name ".tmp*" -type d | head -n 1)
	test -n "$t" || { echo "no run of $1 in progress" >&2; return 1; }
	echo "$t/vm-scalability"
}

job() {
	printf "suite: vm-scalability\ntestcase: vm-scalability\nruntime: %s\nvm-scalability:\n  test: %s\n  mem: %s\n" "$2" "$3" "$4" >"$1"
}

for sig in INT TERM; do
	test_expect_success "SIG$sig during a tmpfs case: no mount, file or knob left" '
		job stop.yaml 60 shm-pread-seq 64M &&
		printf "  size: 1T\n" >>stop.yaml &&
		# no earlier test'"'"'s out: the shell may open it after wait_for
		# first reads it (a stale "run 1 of 1 ->" raced CI under load)
		rm -f out err &&
		{ "$PERFSIFT" run stop.yaml >out 2>err & } &&
		pid=$! &&
		wait_for "run 1 of 1 ->" out &&
		raw=$(raw_of shm-pread-seq) &&
		# signalled in the workload, after its set-up
		wait_for "  usemem " "$raw" &&
		ours "$raw" >dirs && test -s dirs &&
		{ grep -q -F -f dirs /proc/mounts ||
		  { echo "no mount of $(cat dirs)"; false; }; } &&
		{ grep -q "^$pid	" /run/perfsift/journal ||
		  { echo "no journal line of $pid:"; cat /run/perfsift/journal; false; }; } &&
		kill -$sig $pid &&
		{ wait $pid; st=$?; test $st = 3 ||
		  { echo "exit status $st, not 3:"; cat err; false; }; } &&
		d=$(find "$PERFSIFT_RESULT_ROOT" -name last_state -newer stop.yaml | head -n 1) &&
		test_grep "interrupted: " "$d" &&
		leftovers $pid dirs >left &&
		printf "0\n0\n0\n" >expect &&
		test_cmp expect left
	'
done

test_expect_success 'SIGINT during a page-cache case: the sparse files go too' '
	job stop2.yaml 60 lru-file-mmap-read 64M &&
	printf "  size: 1T\n" >>stop2.yaml &&
	rm -f out err &&
	{ "$PERFSIFT" run stop2.yaml >out 2>err & } &&
	pid=$! &&
	wait_for "run 1 of 1 ->" out &&
	raw=$(raw_of lru-file) &&
	wait_for "sparse-lru-file-mmap-read" "$raw" &&
	ours "$raw" >dirs && test -s dirs &&
	while read -r dir; do test -d "$dir" || return 1; done <dirs &&
	kill -INT $pid &&
	{ wait $pid; st=$?; test $st = 3 ||
	  { echo "exit status $st, not 3:"; cat err; false; }; } &&
	leftovers $pid dirs >left &&
	printf "0\n0\n0\n" >expect &&
	test_cmp expect left
'

CG=/sys/fs/cgroup/memory/perfsift-t3023.$$
if test -w /sys/fs/cgroup/memory && mkdir "$CG" 2>/dev/null &&
   echo $((256 << 20)) >"$CG/memory.limit_in_bytes"; then
	test_set_prereq=1
else
	test_set_prereq=
fi

# in_memcg CMD...: run perfsift inside the 256 MiB memory cgroup
in_memcg() {
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$CG" "$@"
}

if test -n "$test_set_prereq"; then
	test_expect_success 'an OOM-killed worker: a failed run in last_state, no number' '
		job oom.yaml 5 anon-w-seq 64G &&
		printf "  allow_oom: true\n" >>oom.yaml &&
		{ in_memcg "$PERFSIFT" run oom.yaml >out 2>err; test $? != 0; } &&
		cat out err >all &&
		! grep -q "capped to" all &&
		d=$(find "$PERFSIFT_RESULT_ROOT" -path "*anon-w-seq*" -name last_state | head -n 1) &&
		test_grep "oom_killed: 1" "$d" &&
		test_grep "exit_code" "$d" &&
		test_grep "killed by signal 9 (out of memory?)" all &&
		m=$(find "$PERFSIFT_RESULT_ROOT" -path "*anon-w-seq*" -name matrix.json) &&
		! grep -q "vm-scalability.throughput" $m
	'
	test_expect_success 'without allow_oom a footprint too big for the machine is capped, with a note' '
		# four times the memory of this machine, whatever it has
		job cap.yaml 1 anon-w-seq "$(($(sed -n "s/^MemTotal: *\([0-9]*\) kB$/\1/p" /proc/meminfo) * 4))K" &&
		{ in_memcg "$PERFSIFT" run cap.yaml >out 2>err; true; } &&
		cat out err >all &&
		test_grep "anon-w-seq would hold [0-9.]* [KMGT]iB at once, more than this machine can hold" all &&
		test_grep "capped to" all
	'
else
	test_skip 'OOM-killed worker' 'no cgroup v1 memory controller to contain it'
fi
rmdir "$CG" 2>/dev/null
test_done
