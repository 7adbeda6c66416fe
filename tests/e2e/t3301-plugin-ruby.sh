#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3301: an LKP checkout's programs/<p>/{run,parse} as plug-ins, with a
# Ruby parse script as LKP's are -- a small LKP-layout directory the test
# builds (there is no LKP checkout here), given by --lkp-src and by
# LKP_SRC; without Ruby (a PATH without it) the run is still stored, the
# message says which program, which script and what to install, and
# `perfsift stats` parses the raw file once Ruby is back.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-programs.sh"

if ! command -v ruby >/dev/null; then
	test_skip 'Ruby parse scripts' 'ruby is not installed: scripts/install-deps'
	test_done
fi

mkdir -p lkp/programs/rfoo lkp/lib &&
cat >lkp/programs/rfoo/run <<'EOS'
#!/bin/sh
echo "ops ${RFOO_OPS:-1000} test=$test"
EOS
# a Ruby parse script as LKP writes them: LKP_SRC in its environment,
# the raw file on stdin and its path in ARGV[0]
cat >lkp/programs/rfoo/parse <<'EOS'
#!/usr/bin/env ruby
require "#{ENV['LKP_SRC']}/lib/rfoo_lib"
raise 'no raw file in ARGV[0]' unless File.file?(ARGV[0])
$stdin.each_line do |line|
  puts "ops: #{rfoo_double($1.to_i)}" if line =~ /^ops (\d+)/
end
EOS
cat >lkp/lib/rfoo_lib.rb <<'EOS'
def rfoo_double(x)
  x * 2
end
EOS
chmod +x lkp/programs/rfoo/run lkp/programs/rfoo/parse
printf 'suite: rfoo\ntestcase: rfoo\nrfoo:\n  test: t1\n' >rfoo.yaml

# stat $2 of run $1 is the number $3
stat_is() {
	v=$(stat_value "$1" "$2")
	awk -v v="$v" -v w="$3" 'BEGIN { exit !(v != "" && v + 0 == w + 0) }' || {
		echo "$1: $2 is '$v', not $3" >&2
		return 1
	}
}

test_expect_success 'without --lkp-src or LKP_SRC the program is not found' '
	test_must_fail --status=2 perfsift run rfoo.yaml --commit c0 2>err &&
	test_grep "rfoo.yaml:3: rfoo: unknown program" err &&
	! test -d "$PERFSIFT_RESULT_ROOT/rfoo"
'

test_expect_success 'run --lkp-src DIR: the Ruby parse script gives the stats' '
	RFOO_OPS=1000 perfsift run --lkp-src "$TEST_TMP/lkp" rfoo.yaml --commit c1 >out 2>err &&
	d=$(run_dirs rfoo | grep /c1/) &&
	test_grep "^ops 1000 test=t1$" "$d/rfoo" &&
	stat_is "$d" rfoo.ops 2000
'

test_expect_success 'LKP_SRC does the same' '
	LKP_SRC=$TEST_TMP/lkp RFOO_OPS=7 perfsift run rfoo.yaml --commit c2 >out 2>err &&
	d=$(run_dirs rfoo | grep /c2/) &&
	stat_is "$d" rfoo.ops 14
'

test_expect_success 'perfsift parse --lkp-src DIR PROGRAM FILE runs the Ruby script' '
	d=$(run_dirs rfoo | grep /c2/) &&
	perfsift parse --lkp-src "$TEST_TMP/lkp" rfoo "$d/rfoo" >parsed &&
	echo "ops: 14" >expect &&
	test_cmp expect parsed
'

test_expect_success 'install: a Ruby parse script needs the package ruby, nothing else' '
	perfsift install --lkp-src "$TEST_TMP/lkp" rfoo.yaml >out 2>err &&
	test_grep "rfoo: a plug-in ($TEST_TMP/lkp/programs/rfoo); its parse script is a Ruby one: it needs the package ruby" out &&
	test_grep "ok       rfoo: package ruby" out
'

# a PATH without ruby: the shell tools the scripts use, and nothing else
mkdir noruby &&
for t in sh awk cat env sed; do ln -s "$(command -v $t)" noruby/$t; done

test_expect_success 'without Ruby: the run is stored, the message says what to install' '
	PATH=$TEST_TMP/noruby RFOO_OPS=50 "$PERFSIFT" run --lkp-src "$TEST_TMP/lkp" rfoo.yaml \
		--commit c3 >out 2>err &&
	test_grep "rfoo: its parse script $TEST_TMP/lkp/programs/rfoo/parse is a Ruby script and Ruby is not installed" err &&
	test_grep "apt-get install ruby" err &&
	d=$(run_dirs rfoo | grep /c3/) &&
	test_grep "^ops 50 test=t1$" "$d/rfoo" &&
	test -z "$(stat_value "$d" rfoo.ops)" &&
	stat_positive "$d" rfoo.time.elapsed_time &&
	! test -e "$d/last_state"
'

test_expect_success 'without Ruby, parse says so and exits non-zero' '
	d=$(run_dirs rfoo | grep /c3/) &&
	test_must_fail env PATH=$TEST_TMP/noruby "$PERFSIFT" parse --lkp-src "$TEST_TMP/lkp" rfoo "$d/rfoo" 2>err &&
	test_grep "Ruby is not installed: apt-get install ruby" err
'

test_expect_success 'perfsift stats parses the kept raw file once Ruby is there' '
	d=$(run_dirs rfoo | grep /c3/) &&
	perfsift stats "$d" >out 2>err &&
	stat_is "$d" rfoo.ops 100
'

test_done
