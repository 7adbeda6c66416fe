#!/bin/sh
# shellcheck disable=SC1091,SC2016,SC2034
# t0203: `perfsift stats` never destroys data.  A run whose raw files are
# gone (archived LKP results keep only <monitor>.json) keeps the numbers
# of its stats.json, or is reduced from its JSON when it has none; stats
# of monitors perfsift cannot read are carried over; a rebuild that would
# lose a stat changes nothing; `stats --all` does not follow
# symbolic links out of (or round and round inside) the tree it walks.
. "$(dirname "$0")/lib.sh"

R=$PERFSIFT_RESULT_ROOT
G=$R/dd/defaults/lkp-tbox/debian-x86_64.cgz/x86_64-rhel/gcc-7/c0ffee
L=$R/dd/defaults/lkp-tbox/debian-x86_64.cgz/x86_64-rhel/gcc-7/decade

make_raw_run() { # dir
	mkdir -p "$1" &&
	cp "$TESTDATA/lkp-generated/time/1" "$1/dd.time" &&
	cp "$TESTDATA/lkp-generated/meminfo/1" "$1/meminfo" &&
	cp "$TESTDATA/lkp-generated/proc-vmstat/1" "$1/proc-vmstat"
}

test_expect_success 'runs rebuilt from raw files, then the raw files deleted' '
	make_raw_run "$G/0" && make_raw_run "$G/1" &&
	perfsift stats --all -q &&
	test_grep "\"meminfo.MemFree\": " "$G/0/stats.json" &&
	cp "$G/0/stats.json" stats0.before &&
	cp "$G/1/stats.json" stats1.before &&
	cp "$G/matrix.json" matrix.before &&
	cp "$G/0/meminfo.json" meminfo.before &&
	rm "$G/0/dd.time" "$G/0/meminfo" "$G/0/proc-vmstat" \
	   "$G/1/dd.time" "$G/1/meminfo" "$G/1/proc-vmstat"
'

test_expect_success 'stats on a JSON-only run leaves its numbers intact' '
	perfsift stats -q "$G/0" &&
	test_cmp stats0.before "$G/0/stats.json" &&
	test_cmp meminfo.before "$G/0/meminfo.json" &&
	test_cmp matrix.before "$G/matrix.json"
'

test_expect_success 'stats --all over JSON-only runs: the same, and indexed' '
	perfsift stats --all >out &&
	test_grep "^2 runs$" out &&
	test_cmp stats0.before "$G/0/stats.json" &&
	test_cmp stats1.before "$G/1/stats.json" &&
	test_cmp matrix.before "$G/matrix.json" &&
	perfsift results c0ffee >out &&
	test_grep "c0ffee  2 runs$" out
'

test_expect_success "LKP's own JSON: reduced, the JSON untouched" '
	mkdir -p "$L/0" &&
	cp "$TESTDATA/lkp-generated/meminfo/1.json" "$L/0/meminfo.json" &&
	gzip -c "$TESTDATA/lkp-generated/proc-vmstat/1.json" \
		>"$L/0/proc-vmstat.json.gz" &&
	perfsift stats -q "$L/0" &&
	test_cmp "$TESTDATA/lkp-generated/meminfo/1.json" "$L/0/meminfo.json" &&
	test_must_fail test -e "$L/0/proc-vmstat.json" &&
	# dump-stat of LKP leaves out keys that are 0 throughout, so its JSON
	# cannot give the zeros perfsift keeps from a raw file (matrix.h)
	grep "\"meminfo\.\|\"proc-vmstat\." "$G/0/stats.json" |
		grep -v ": 0,\{0,1\}\$" | sed "s/,\$//" >want &&
	grep "\"meminfo\.\|\"proc-vmstat\." "$L/0/stats.json" |
		grep -v ": 0,\{0,1\}\$" | sed "s/,\$//" >got &&
	test_cmp want got
'

test_expect_success 'stats of a monitor with no file in the run are kept' '
	sed "s/^{/{\n  \"fio.write_bw_MBps\": 512,/" "$L/0/stats.json" >s &&
	mv s "$L/0/stats.json" &&
	perfsift stats -q "$L/0" &&
	test_grep "\"fio.write_bw_MBps\": 512," "$L/0/stats.json" &&
	test_grep "\"fio.write_bw_MBps\": \[512\]," "$L/matrix.json" &&
	test_grep "\"meminfo.MemFree\": " "$L/0/stats.json"
'

test_expect_success "an LKP run's stats.json is left as LKP wrote it" '
	K=$R/dd/defaults/lkp-tbox/debian-x86_64.cgz/x86_64-rhel/gcc-7/bead &&
	mkdir -p "$K/0" &&
	cp "$TESTDATA/lkp-generated/meminfo/1.json" "$K/0/meminfo.json" &&
	cat >"$K/0/stats.json" <<-\EOF &&
	{
	  "meminfo.MemFree": 123456,
	  "fio.write_bw_MBps": 512.5,
	  "meminfo.Active": 4242
	}
	EOF
	cp "$K/0/stats.json" stats.before &&
	perfsift stats -q "$K/0" &&
	test_cmp stats.before "$K/0/stats.json" &&
	test_cmp "$TESTDATA/lkp-generated/meminfo/1.json" "$K/0/meminfo.json" &&
	test_grep "\"meminfo.MemFree\": \[123456\]," "$K/matrix.json" &&
	test_grep "\"fio.write_bw_MBps\": \[512.5\]," "$K/matrix.json" &&
	perfsift stats --all -q &&
	test_cmp stats.before "$K/0/stats.json" &&
	rm -r "$K"
'

test_expect_success 'a raw file that does not give what its JSON holds: exit 2, nothing changed' '
	cp "$TESTDATA/lkp-generated/meminfo/1" "$L/0/meminfo" &&
	sed "s/^{/{\n  \"meminfo.FromLKPsParser\": [1, 2, 3, 4],/" \
		"$TESTDATA/lkp-generated/meminfo/1.json" >"$L/0/meminfo.json" &&
	cp "$L/0/meminfo.json" meminfo.before &&
	cp "$L/0/stats.json" stats.before &&
	cp "$L/matrix.json" matrix.before &&
	test_must_fail --status=2 perfsift stats "$L/0" 2>err &&
	test_grep "$L/0/meminfo.json.: rebuilding it would lose 1 stat it holds (.meminfo.FromLKPsParser.)" err &&
	test_cmp meminfo.before "$L/0/meminfo.json" &&
	test_cmp stats.before "$L/0/stats.json" &&
	test_cmp matrix.before "$L/matrix.json" &&
	test_must_fail --status=2 perfsift stats --all -q 2>err &&
	test_grep "meminfo.FromLKPsParser" err &&
	test_cmp meminfo.before "$L/0/meminfo.json" &&
	rm "$L/0/meminfo" &&
	cp "$TESTDATA/lkp-generated/meminfo/1.json" "$L/0/meminfo.json"
'

test_expect_success 'a raw file changed since: its stats are what it says now' '
	cp "$L/0/stats.json" stats.before &&
	cp "$TESTDATA/lkp-generated/time/2" "$L/0/time" &&
	perfsift stats -q "$L/0" &&
	test_grep "\"time.exit_status\": 3" "$L/0/stats.json" &&
	cp "$TESTDATA/lkp-generated/time/1" "$L/0/time" &&
	perfsift stats -q "$L/0" &&
	test_grep "\"time.exit_status\": 0" "$L/0/stats.json" &&
	rm "$L/0/time" "$L/0/time.json" &&
	perfsift stats -q "$L/0" &&
	test_grep "\"time.elapsed_time\": 1.16" "$L/0/stats.json"
'

test_expect_success 'a corrupt <monitor>.json without its raw file: exit 2, nothing changed' '
	cp "$L/0/stats.json" stats.before &&
	echo "{\"meminfo.MemFree\": 3}" >"$L/0/meminfo.json" &&
	test_must_fail --status=2 perfsift stats "$L/0" 2>err &&
	test_grep "$L/0/meminfo.json: meminfo.MemFree: expected an array" err &&
	test_cmp stats.before "$L/0/stats.json" &&
	cp "$TESTDATA/lkp-generated/meminfo/1.json" "$L/0/meminfo.json"
'

test_expect_success 'an archived matrix.json whose runs lost their stats.json is kept' '
	A=$R/dd/defaults/lkp-tbox/debian-x86_64.cgz/x86_64-rhel/gcc-7/archive &&
	mkdir -p "$A/0" "$A/1" &&
	cat >"$A/matrix.json" <<-EOF &&
	{
	  "dd.time.elapsed_time": [1.5, 1.25],
	  "stats_source": ["/result/x/0/stats.json", "/result/x/1/stats.json"]
	}
	EOF
	cp "$A/matrix.json" matrix.before &&
	test_must_fail --status=2 perfsift stats --all -q 2>err &&
	test_grep "$A/matrix.json.: rebuilding it would lose 1 stat" err &&
	test_cmp matrix.before "$A/matrix.json" &&
	rm -r "$A"
'

test_expect_success 'a commit directory spelt in digits is a group, not a run' '
	D=$R/dd/defaults/lkp-tbox/debian-x86_64.cgz/x86_64-rhel/gcc-7/0123 &&
	mkdir -p "$D/0" &&
	cp "$TESTDATA/lkp-generated/time/1" "$D/0/dd.time" &&
	perfsift stats --all >out 2>err &&
	test_grep "gcc-7/0123  1 run$" out &&
	test_must_fail test -s err &&
	rm -r "$D"
'

test_expect_success 'stats --all follows no symbolic link out of the root' '
	mkdir -p outside/grp && make_raw_run outside/grp/0 &&
	perfsift stats -q outside/grp/0 2>/dev/null &&
	cp outside/grp/0/stats.json out.stats && cp outside/grp/matrix.json out.matrix &&
	echo "{}" >outside/grp/0/meminfo.json &&
	rm outside/grp/0/meminfo &&
	ln -s "$TEST_TMP/outside/grp" "$R/dd/defaults/lkp-tbox/debian-x86_64.cgz/x86_64-rhel/gcc-7/linked" &&
	ln -s "$TEST_TMP/outside/grp/0" "$G/7" &&
	perfsift stats --all >out 2>err &&
	test_grep "^3 runs$" out &&
	test_cmp out.stats outside/grp/0/stats.json &&
	test_cmp out.matrix outside/grp/matrix.json &&
	perfsift results >out &&
	test_must_fail test_grep linked out &&
	perfsift results --runs c0ffee >out &&
	test_must_fail test_grep "run 7" out
'

test_expect_success 'links to . do not make the walk go round' '
	ln -s . "$R/loop1" && ln -s . "$R/loop2" &&
	ln -s .. "$G/up1" && ln -s .. "$G/up2" &&
	timeout 60 "$PERFSIFT" stats --all >out &&
	test_grep "^3 runs$" out
'

test_done
