#!/bin/sh
# t9371: the fifth attack's findings in the result root (docs/attack-5.md).
# B1: a FIFO planted as a run's stats.json hung every command that synced
# the index (a bisect between two calls, `results`, `compare`) for ever;
# it is read only when it is a regular file, and the run is said.
. "$(dirname "$0")/lib.sh"

printf 'testcase: a5r\nmytest:\n  cmdline: "echo score: 1"\n' >job.yaml

test_expect_success 'B1: a FIFO as a run stats.json blocks no command' '
	perfsift run -n 2 job.yaml >out &&
	d=$(dirname "$(find "$PERFSIFT_RESULT_ROOT" -path "*/1/job.yaml")") &&
	rm -rf "${d%/1}/2" && cp -r "$d" "${d%/1}/2" &&
	rm "${d%/1}/2/stats.json" && mkfifo "${d%/1}/2/stats.json" &&
	{ timeout -s KILL 20 "$PERFSIFT" results >out 2>err; st=$?; } &&
	cat err &&
	test "$st" != 137 &&
	test_grep "stats.json. is a FIFO, not a regular file" err
'

test_done
