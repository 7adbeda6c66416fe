#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t9360: the third attack's items listed, not fixed (docs/attack-3.md):
# K1 -- a run killed while it wrote a group file left the temporary of
#       write_file_atomic() (stddev.json.tmp.XXXXXX) there for ever; now
#       the next write of that file removes the old, unlocked ones of
#       our user, never a live writer's (locked) nor a link;
# L9 -- on a full disk every reading command said only "index: disk I/O
#       error" (compare and report without "error:", exit 2): now each
#       says the file system is full and what to do, exit 3;
# L10 -- bidirectional controls (U+202E...) passed in group names, and a
#       commit could start with "-" or a blank;
# and two smaller ones: PERFSIFT_MONITOR_NOTES was opened through a link,
# mode 0666; a finished run whose number <n> something else had taken (a
# hand copy) stayed in .tmp-<n> for ever, its .owner gone.
. "$(dirname "$0")/lib.sh"

printf 'testcase: t\nmytest:\n  cmdline: "true"\n' >job.yaml

# group COMMIT: the group directory of COMMIT's runs
group() { find "$PERFSIFT_RESULT_ROOT" -type d -name "$1" | head -n 1; }
# old FILE...: FILE last changed two minutes ago (links: the link itself)
old() { touch -h -d "@$(($(date +%s) - 120))" "$@"; }
# temps DIR: the temporaries of stddev.json left in DIR, one a line
temps() {
	find "$1" -maxdepth 1 -name "stddev.json.tmp.*" | sed "s|.*/||" | LC_ALL=C sort
}

test_expect_when test_have_hooks "$HOOKS_REASON" \
	'K1: a run killed while it writes stddev.json leaves its temporary' '
	{ PERFSIFT_FAULT=atomic-write:stddev.json "$PERFSIFT" run job.yaml \
		--commit k1 >out 2>err; test $? = 137; } &&
	g=$(group k1) && test -n "$g" &&
	test "$(temps "$g" | wc -l)" = 1 &&
	temps "$g" >killed
'

test_expect_when test_have_hooks "$HOOKS_REASON" \
	'K1: the next write keeps a temporary younger than a minute' '
	g=$(group k1) &&
	perfsift run job.yaml --commit k1 >out 2>err &&
	temps "$g" >now &&
	test_cmp killed now
'

test_expect_when test_have_hooks "$HOOKS_REASON" \
	'K1: once older, the next write removes the killed one' '
	g=$(group k1) && test -s killed &&
	old "$g/$(cat killed)" &&
	perfsift run job.yaml --commit k1 >out 2>err &&
	! temps "$g" | grep -q . &&
	test -s "$g/stddev.json"
'

test_expect_when test_have_root 'needs root to give a file to another user' \
	'K1: old leftovers of stddev.json and avg.json go; a locked one, a link, another user.s stay' '
	perfsift run job.yaml --commit k2 >out 2>err &&
	g=$(group k2) &&
	echo "{}" >"$g/stddev.json.tmp.Dead01" &&
	echo "{}" >"$g/stddev.json.tmp.Live01" &&
	echo keep >target &&
	ln -s "$TEST_TMP/target" "$g/stddev.json.tmp.Link01" &&
	echo "{}" >"$g/stddev.json.tmp.User01" &&
	chown 65534 "$g/stddev.json.tmp.User01" &&
	echo "{}" >"$g/avg.json.tmp.Dead02" &&
	echo "{}" >"$g/stddev.json.tmp.Long001" &&
	old "$g"/stddev.json.tmp.* "$g/avg.json.tmp.Dead02" || return 1
	# a live writer: its flock held (by flock(1), not by its child)
	flock -o "$g/stddev.json.tmp.Live01" sleep 60 &
	fpid=$!

	i=0 &&
	while flock -n "$g/stddev.json.tmp.Live01" true; do
		i=$((i + 1)) && test $i -lt 200 && sleep 0.1 || return 1
	done &&
	perfsift run job.yaml --commit k2 >out 2>err;
	st=$?; kids=$(ps -o pid= --ppid $fpid); kill $fpid $kids; test $st = 0 &&
	temps "$g" >left &&
	printf "%s\n" stddev.json.tmp.Link01 stddev.json.tmp.Live01 \
		stddev.json.tmp.Long001 stddev.json.tmp.User01 >want &&
	test_cmp want left &&
	test "$(cat target)" = keep &&
	! test -e "$g/avg.json.tmp.Dead02"
'

# a small file system of our own for the full disk (root only)
full=$TEST_TMP/full
# onfull ARGS...: perfsift with its result root there
onfull() { PERFSIFT_RESULT_ROOT=$full/r "$PERFSIFT" "$@"; }
if test_have_root && mkdir "$full" &&
	mount -t tmpfs -o size=20m perfsift-t9360 "$full" 2>/dev/null; then
	trap 'cd /; umount "$full"; rm -rf "$TEST_TMP"' EXIT
fi

test_expect_when 'mountpoint -q "$full"' 'needs root to mount a small tmpfs' \
	'L9: a full disk: every reading command says so and what to do' '
	R=$full/r &&
	onfull run -n 2 job.yaml --commit fa >out 2>err &&
	onfull run -n 2 job.yaml --commit fb >out 2>err &&
	onfull compare fa fb >before &&
	{ dd if=/dev/zero of="$full/fill" bs=64k 2>/dev/null; :; } &&
	test "$(df -P "$full" | awk "NR == 2 { print \$4 }")" = 0 &&
	for cmd in results "compare fa fb" "report fa fb" "stats --all" \
		"history --all" "site -o $TEST_TMP/site"; do
		{ onfull $cmd >out 2>err; test $? = 3; } &&
		test_grep "index: disk I/O error (the file system of .$R. is full: 0 KiB free; .*free some space there, or move the result root" err &&
		test_grep "^perfsift ${cmd%% *}: error: index: " err || return 1
	done &&
	rm "$full/fill" &&
	onfull compare fa fb >after &&
	test_cmp before after
'

test_expect_success 'L10: a group name with a bidirectional control is refused' '
	for c in "e2" "e281a6" "e280ae" "e2808f" "d89c"; do
		case $c in
		e2) b=$(printf "ab\\342\\200\\256cd") ;;
		e281a6) b=$(printf "ab\\342\\201\\246cd") ;;
		e280ae) b=$(printf "\\342\\200\\256") ;;
		e2808f) b=$(printf "x\\342\\200\\217") ;;
		d89c) b=$(printf "x\\330\\234y") ;;
		esac &&
		{ perfsift run job.yaml --commit "$b" >out 2>err; test $? = 3; } &&
		test_grep "commit: a directory name is UTF-8 without control characters: .*holds a bidirectional control" err &&
		{ perfsift run job.yaml --set "testcase=t$b" >out 2>err; test $? = 3; } &&
		test_grep "testcase: a directory name is UTF-8" err || return 1
	done &&
	! find "$PERFSIFT_RESULT_ROOT" -name "*$(printf "\\342\\200")*" | grep -q . &&
	! find "$PERFSIFT_RESULT_ROOT" -name "*$(printf "\\330\\234")*" | grep -q .
'

test_expect_success 'L10: a commit with a leading - or a blank at either end is refused' '
	for c in -dash " lead" "trail " ; do
		test_must_fail --status=2 perfsift run job.yaml --commit "$c" >out 2>err &&
		test_grep "is no commit id (a leading .-. or a blank at either end)" err &&
		test_must_fail perfsift run job.yaml --set "commit=$c" >out 2>err &&
		test_grep "commit: .$c. is no commit id" err || return 1
	done &&
	! find "$PERFSIFT_RESULT_ROOT" -name "-dash" -o -name " lead" -o -name "trail " | grep -q .
'

test_expect_success 'L10: a commit with a blank or - inside, or U+00E9, is still a group' '
	perfsift run job.yaml --commit "v1-rc 2" >out 2>err &&
	test -d "$(group "v1-rc 2")" &&
	perfsift run job.yaml --commit "caf$(printf "\\303\\251")" >out 2>err
'

# a sysroot without cpuidle: "cpuidle: not available" goes to the notes
mkdir -p fake/proc fake/sys/devices/system/node/node0 &&
printf 'nr_free_pages 100\npgfault 1\n' >fake/proc/vmstat &&
printf 'MemTotal: 1000 kB\nMemFree: 400 kB\n' >fake/proc/meminfo
printf 'testcase: notes\nmonitors: proc-vmstat, cpuidle\nmytest:\n  cmdline: "true"\n' >notes.yaml

test_expect_success 'PERFSIFT_MONITOR_NOTES: a link there is not followed' '
	echo "the victim" >victim &&
	ln -s "$TEST_TMP/victim" notes-link &&
	PERFSIFT_MONITOR_NOTES=$TEST_TMP/notes-link PERFSIFT_SYSROOT=$TEST_TMP/fake \
		"$PERFSIFT" run notes.yaml --commit n1 >out 2>err &&
	test_grep "cpuidle: not available" err &&
	test "$(cat victim)" = "the victim" &&
	test -L notes-link
'

test_expect_success 'PERFSIFT_MONITOR_NOTES: made 0644 whatever the umask' '
	(umask 0 &&
	 PERFSIFT_MONITOR_NOTES=$TEST_TMP/notes PERFSIFT_SYSROOT=$TEST_TMP/fake \
		"$PERFSIFT" run notes.yaml --commit n2 >out 2>err) &&
	test_grep "^cpuidle: not available" notes &&
	test "$(stat -c %a notes)" = 644
'

test_expect_success 'a run whose number a hand copy took: published as the next free one' '
	printf "mkdir \"\$RESULT_ROOT\" && echo hand >\"\$RESULT_ROOT/x\"\n" >mk.sh &&
	printf "testcase: hand\nmytest:\n  cmdline: sh $TEST_TMP/mk.sh\n" >hand.yaml &&
	perfsift run hand.yaml --commit h1 >out 2>err &&
	g=$(group h1) &&
	test_grep "warning: .$g/0. was taken by something not a perfsift run: this run is 1" err &&
	test "$(cat "$g/0/x")" = hand &&
	test -s "$g/1/stats.json" &&
	! find "$g" -name ".tmp-*" | grep -q .
'

test_done
