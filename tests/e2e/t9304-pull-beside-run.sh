#!/bin/sh
# t9304: `pull` beside a running `perfsift run` of the same group (the
# third attack, docs/attack-3.md, C1).  A run reserves its number by
# making <group>/.tmp-<n> and publishes by renaming that to <n>; pull
# wrote a stored run <n> without looking at the reservation, so the
# local run, finished, could not be published ("cannot rename ... File
# exists") and stayed in .tmp-<n> for ever, its .owner gone: a finished
# run lost from every result.  Pull takes the same reservation now: a
# number a run holds is not pulled (said, exit 0), and the run is kept.
# The order is forced, not timed: the plug-in waits for the pull to end.
. "$(dirname "$0")/lib.sh"

: "${PERFSIFT_BUILD:=$SRCDIR/build}"
. "$SRCDIR/tests/e2e/lib-pg.sh"

if ! pg_available; then
	test_skip 'the shared store' 'no PostgreSQL server programs or no libpq'
test_done
fi

test_expect_success 'a throwaway PostgreSQL server starts' 'pg_start'

# slow: a plug-in that says it started, then waits for "go"
mkdir -p progs/slow &&
cat >progs/slow/run <<EOF &&
#!/bin/sh
: >"$TEST_TMP/started"
while ! test -e "$TEST_TMP/go"; do sleep 0.05; done
echo "score 1"
EOF
printf '#!/bin/sh\necho "score: 5"\n' >progs/slow/parse &&
chmod +x progs/slow/run progs/slow/parse
PERFSIFT_PROGRAMS=$TEST_TMP/progs
export PERFSIFT_PROGRAMS
printf 'testcase: slow\nslow:\n' >slow.yaml

test_expect_success 'setup: another box pushes runs 0 and 1 of the group' '
	: >go &&
	perfsift --result-root other run -n 2 slow.yaml --commit c1 >/dev/null &&
	perfsift --store "$URL" --result-root other push >out &&
	test_grep "^2 runs pushed" out &&
	rm -f go started
'

test_expect_success 'pull while a run holds number 1: the run is kept' '
	: >go &&
	perfsift --result-root here run slow.yaml --commit c1 >/dev/null &&
	rm -f go started run.out run.err &&
	{ perfsift --result-root here run slow.yaml --commit c1 \
		>run.out 2>run.err & } &&
	n=0 && while ! test -e started && test $n -lt 600; do
		sleep 0.1; n=$((n + 1)); done &&
	test -e started &&
	g=$(dirname "$(find here -name job.yaml | head -n 1)") &&
	g=${g%/*} &&
	test -d "$g/.tmp-1" &&
	perfsift --store "$URL" --result-root here pull c1 >pull.out 2>pull.err &&
	cat pull.out pull.err &&
	: >go &&
	wait &&
	cat run.out run.err &&
	! grep -q "cannot rename" run.err &&
	test_grep "run 1 of 1 -> .*/1$" run.out &&
	test_grep "is being written here" pull.err &&
	test ! -e "$g/.tmp-1" &&
	test ! -e "$g/1/.perfsift-pulled" &&
	test -s "$g/1/stats.json" &&
	perfsift --result-root here results >res &&
	test_grep "2 runs" res
'

# The fourth attack (docs/attack-4.md): a pull killed with a run's files
# in its .tmp-<n> left that reservation for ever; the next pull saw it
# taken ("being written here"), never pulled that run, and only a local
# run of the very group would have reclaimed it.  The next pull takes
# back a dead pull's reservation (its .owner unlocked), as a run does.
test_expect_when test_have_hooks "$HOOKS_REASON" \
	'a pull killed with a run half-placed: the next pull takes it back' '
	{ PERFSIFT_FAULT=pull-files-written "$PERFSIFT" --store "$URL" \
		--result-root k pull c1 >/dev/null 2>&1; st=$?; } &&
	test "$st" = 137 &&
	test "$(find k -name ".tmp-*" | wc -l)" = 1 &&
	perfsift --store "$URL" --result-root k pull c1 >pull.out 2>pull.err &&
	cat pull.out pull.err &&
	! test -s pull.err &&
	test_grep "^2 runs pulled" pull.out &&
	test -z "$(find k -name ".tmp-*" -o -name ".pull-*")" &&
	test "$(find k -name stats.json | wc -l)" = 2 &&
	perfsift --result-root k results >res &&
	test_grep "2 runs" res
'

# The fifth attack (docs/attack-5.md, P1): a push killed between indexing
# a run in the store and storing its files left it indexed without them;
# the next push found it "there already", and no pull could ever get it.
test_expect_when test_have_hooks "$HOOKS_REASON" \
	'a push killed mid-run: the next push sends the run whole' '
	: >go &&
	perfsift --result-root p5 run slow.yaml --commit c5 >/dev/null &&
	{ PERFSIFT_FAULT=push-files-stored "$PERFSIFT" --store "$URL" \
		--result-root p5 push c5 >/dev/null 2>&1; st=$?; } &&
	test "$st" = 137 &&
	perfsift --store "$URL" --result-root p5 push c5 >push.out &&
	test_grep "^1 run pushed" push.out &&
	perfsift --store "$URL" --result-root p5b pull c5 >pull.out 2>pull.err &&
	! test -s pull.err &&
	test_grep "^1 run pulled" pull.out &&
	test "$(find p5b -name stats.json | wc -l)" = 1
'

test_done
