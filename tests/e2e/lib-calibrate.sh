# lib-calibrate.sh: the planted benchmark of the noise-floor tests (after
# lib.sh; t2150, t2151): plant.sh and job.yaml (testcase tiny, KPI
# mytest.score) in the test's directory.  Run N of an A/A (its directory
# is named N) prints the Nth value of a fixed list -- CAL picks it:
# narrow (100 98 102 ...: floor 1.4826 x 2 = 2.965%) or wide (100 90 110
# ...: 14.826%) -- as mytest.jitter and mytest.score; a commit's runs
# print $JITTER and $SCORE instead.  With HOLD=PATH, run 2 on writes its
# pid to PATH.pid and its number to PATH.held, then waits (60 s at most)
# for the test's signal.  Nothing depends on the machine's speed.

cat >plant.sh <<'SH'
#!/bin/sh
n=$(basename "$RESULT_ROOT")
case "${CAL:-narrow}" in
narrow) set -- 100 98 102 100 98 102 100 98 102 100 98 102;;
wide) set -- 100 90 110 100 90 110 100 90 110 100 90 110;;
esac
shift "$n"
if [ -n "${HOLD:-}" ] && [ "$n" -ge 2 ]; then
	echo $$ >"$HOLD.pid"
	echo "$n" >"$HOLD.held"
	exec sleep 60
fi
echo "score: ${SCORE:-$1}"
echo "jitter: ${JITTER:-$1}"
SH
chmod +x plant.sh
printf "testcase: tiny\nkpi: {mytest.score: higher}\nmytest:\n  mytest: plant\nmonitors: none\n" >job.yaml
