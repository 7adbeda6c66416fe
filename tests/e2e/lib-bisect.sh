# lib-bisect.sh: helpers for the bisect end-to-end tests (t60xx), sourced
# after lib.sh.  make_repo builds a git repository whose program, a small
# C busy loop, does twice the work from one commit on.

# make_repo DIR N K [NOISE_PCT] [NOBUILD_AT]: commits 1..N; from commit K
# on the program does twice the work; NOISE_PCT makes each run's work vary
# uniformly by +-NOISE_PCT percent; at commit NOBUILD_AT build.sh exits
# 125 (and is fixed again at the next commit).  Commit i is tagged c<i>.
make_repo() {
	dir=$1 n=$2 k=$3 noise=${4:-0} nobuild=${5:-0}
	git init -q "$dir" &&
	# one git fast-import instead of 4 git commands per commit
	i=1 &&
	while [ "$i" -le "$n" ]; do
		work=1
		[ "$i" -ge "$k" ] && work=2
		write_prog "$dir/.prog.c" "$work" "$noise" &&
		if [ "$i" -eq "$nobuild" ]; then
			printf 'exit 125\n' >"$dir/.build.sh"
		else
			printf 'exec cc -O1 -o prog prog.c\n' >"$dir/.build.sh"
		fi &&
		printf 'commit refs/heads/master\nmark :%d\n' "$i" &&
		printf 'committer perfsift <bisect@example.com> %d +0000\n' \
			$((1700000000 + i)) &&
		printf 'data <<EOM\nchange %d\nEOM\n' "$i" &&
		if [ "$i" -gt 1 ]; then printf 'from :%d\n' $((i - 1)); fi &&
		printf 'M 100644 inline prog.c\ndata %d\n' \
			"$(wc -c <"$dir/.prog.c")" && cat "$dir/.prog.c" &&
		printf 'M 100644 inline build.sh\ndata %d\n' \
			"$(wc -c <"$dir/.build.sh")" && cat "$dir/.build.sh" &&
		printf 'M 100644 inline version\ndata <<EOV\n%d\nEOV\n\n' "$i" &&
		printf 'reset refs/tags/c%d\nfrom :%d\n\n' "$i" "$i" || return 1
		i=$((i + 1))
	done >"$dir/.stream" &&
	git -C "$dir" fast-import --quiet <"$dir/.stream" &&
	rm -f "$dir/.stream" "$dir/.prog.c" "$dir/.build.sh" &&
	git -C "$dir" checkout -q -f master
}

# The program: it takes BISECT_MS (200) milliseconds, twice that with
# WORK 2, each run varied by +-NOISE_PCT percent.  It waits rather than
# spins, as an I/O-bound program would: on these shared 2-CPU machines
# CPU time itself swings by 2x with the load, while a wait is only
# lengthened by a roughly constant start-up cost, so the 2x step stays a
# 2x step and the tests stay fast and deterministic.
write_prog() {
	cat >"$1" <<PROG
#include <stdio.h>
#include <time.h>
#define WORK $2
#define NOISE_PCT $3
#define BASE_MS ${BISECT_MS:-200}
int main(void)
{
	double f = 1, ns;
	struct timespec ts;

	if (NOISE_PCT) {
		unsigned r = 0;
		FILE *fp = fopen("/dev/urandom", "r");

		if (!fp || fread(&r, sizeof(r), 1, fp) != 1)
			return 1;
		fclose(fp);
		f += NOISE_PCT / 100.0 * (2.0 * (r / 4294967295.0) - 1);
	}
	ns = BASE_MS * 1e6 * WORK * f;
	ts.tv_sec = (time_t)(ns / 1e9);
	ts.tv_nsec = (long)(ns - ts.tv_sec * 1e9);
	return nanosleep(&ts, NULL) ? 1 : 0;
}
PROG
}

# a job for `perfsift run JOB -- ./prog` (LKP's mytest: an external command)
write_job() {
	printf 'testcase: bisect-e2e\nmytest:\n' >"$1"
}

# true when this build has `perfsift run` (bisect measures through it)
have_runner() {
	perfsift run --help >/dev/null 2>&1
}

# the bisect's step lines for commits measured now ("(N runs)", not
# "(N runs from the index)") in stderr file $1
step_lines() {
	grep '^bisect: \[[0-9]*/[0-9]*\] [0-9a-f]* [a-z]*.* ([0-9]* runs)  ' "$1"
}

# "commits tested: T of N between good and bad (M measured now, ...)"
measured_now() {
	sed -n 's/^commits tested: .*(\([0-9]*\) measured now.*/\1/p' "$1"
}

# the run directories of commit $1 in the result root
runs_of() {
	root=$PERFSIFT_RESULT_ROOT
	[ -f root.used ] && root=$(cat root.used)
	find "$root/bisect-e2e" -path "*/$1/[0-9]*" -prune \
		-type d 2>/dev/null | wc -l
}

# run_bisect ARGS...: perfsift bisect into out/err; when it does not end
# with a confirmed culprit, once more on a fresh result root.  Other
# tests of the suite run benchmarks beside this one (vm-scalability
# saturates both CPUs and memory), and a bisect measured through such a
# storm may -- rightly -- report "not reproducible"; a second attempt
# tells that apart from a broken bisect.  The root used is in root.used.
run_bisect() {
	echo "$PERFSIFT_RESULT_ROOT" >root.used
	if perfsift bisect "$@" >out 2>err && grep -q "^confirmation: confirmed" out; then
		return 0
	fi
	echo "# first attempt:" && cat out && grep "^bisect\|error" err
	PERFSIFT_RESULT_ROOT=$PERFSIFT_RESULT_ROOT.again
	export PERFSIFT_RESULT_ROOT
	echo "$PERFSIFT_RESULT_ROOT" >root.used
	perfsift bisect "$@" >out 2>err
}

# refuse_bisect ARGS...: perfsift bisect must refuse (exit 2); like
# run_bisect, a second attempt on a fresh result root when the first,
# measured beside the suite's benchmarks, saw a difference.
refuse_bisect() {
	perfsift bisect "$@" >out 2>err
	st=$?
	[ $st -eq 2 ] && return 0
	echo "# first attempt (exit $st):" && cat out && grep "^bisect\|error" err
	PERFSIFT_RESULT_ROOT=$PERFSIFT_RESULT_ROOT.again
	export PERFSIFT_RESULT_ROOT
	test_must_fail --status=2 perfsift bisect "$@" >out 2>err
}
