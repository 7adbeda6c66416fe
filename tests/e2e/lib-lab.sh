# lib-lab.sh: helpers for the lab's tests (after lib.sh and lib-pg.sh):
# SQL on the throwaway server, workers in the background, and waiting on
# what the store says rather than on the clock.

# one value (or rows) of SQL on the test's database
q() {
	psql -qAt -h "$PGDIR" -U postgres -d ps -c "$1"
}
count_state() { q "SELECT count(*) FROM lab_tasks WHERE state = '$1' ${2-}"; }
# runs in the store (every group)
store_runs() { q "SELECT count(*) FROM runs"; }

# wait_for CMD...: until CMD succeeds, polling; fails after a generous
# bound (600 s: the point is progress, not speed)
wait_for() {
	_n=0
	while ! "$@"; do
		_n=$((_n + 1))
		[ $_n -gt 3000 ] && { echo "timed out waiting for: $*"; return 1; }
		sleep 0.2
	done
}

# start_worker SLOT [OPTIONS...]: worker box-SLOT (group box) with its
# own cache, in the background; its pid in pid.SLOT, its output appended
# to w.SLOT.log.  (The test body is a subshell: start, kill and wait for
# workers in one body.)
start_worker() {
	_s=$1
	shift
	"$PERFSIFT" --store "$URL" --result-root "$TEST_TMP/cache.$_s" worker \
		--testbox "box-$_s" --testbox-group box "$@" >>"w.$_s.log" 2>&1 &
	echo $! >"pid.$_s"
}

# a worker's process has ended
gone() { ! kill -0 "$(cat "pid.$1")" 2>/dev/null; }

# the queue and the store, for a failing test's output
show_lab() {
	q "SELECT id, state, attempts, runs_done, worker, last_error FROM lab_tasks ORDER BY id"
	q "SELECT task_id, run_index, number, stored, worker FROM lab_task_runs ORDER BY 1, 2"
	echo "runs in the store: $(store_runs)"
	tail -n 20 w.*.log
}
