# lib-bisect.sh: helpers for the bisect end-to-end tests (t60xx), sourced
# after lib.sh.  make_repo builds a git repository whose program, a small
# C program that waits, takes twice as long from one commit on.

# make_repo DIR N K [NOISE_PCT] [NOBUILD_AT]: commits 1..N; from commit K
# on the program does twice the work; NOISE_PCT makes each run's work vary
# uniformly by +-NOISE_PCT percent; at commit NOBUILD_AT build.sh exits
# 125 (and is fixed again at the next commit).  Commit i is tagged c<i>.
# One git fast-import, the four files as blobs given once: no process
# per commit, so that a 40-commit repository takes a moment.
make_repo() {
	dir=$1 n=$2 k=$3 noise=${4:-0} nobuild=${5:-0}
	git init -q "$dir" &&
	write_prog "$dir/.prog1.c" 1 "$noise" &&
	write_prog "$dir/.prog2.c" 2 "$noise" &&
	write_build "$dir/.build.sh" &&
	{
		blob 1 "$dir/.prog1.c" && blob 2 "$dir/.prog2.c" &&
		blob 3 "$dir/.build.sh" &&
		printf 'blob\nmark :4\ndata 8\nexit 125\n' &&
		i=1 &&
		while [ "$i" -le "$n" ]; do
			prog=1 build=3
			[ "$i" -ge "$k" ] && prog=2
			[ "$i" -eq "$nobuild" ] && build=4
			fi_commit "$i" &&
			printf 'M 100644 :%d prog.c\nM 100644 :%d build.sh\n' \
				$prog $build &&
			printf 'M 100644 inline version\ndata <<EOV\n%d\nEOV\n\n' "$i" &&
			fi_tag "$i" || return 1
			i=$((i + 1))
		done
	} >"$dir/.stream" &&
	fi_import "$dir" "$dir/.prog1.c" "$dir/.prog2.c" "$dir/.build.sh"
}

# fi_tag I: the tag cI of commit cI
fi_tag() {
	printf 'reset refs/tags/c%d\nfrom :%d\n\n' "$1" $(($1 + 10))
}

# fi_import DIR FILE...: DIR/.stream into DIR's repository, the stream and
# the FILEs (the blobs' sources) removed, master checked out
fi_import() {
	git -C "$1" fast-import --quiet <"$1/.stream" &&
	rm -f "$1/.stream" &&
	fi_dir=$1 && shift && rm -f "$@" &&
	git -C "$fi_dir" checkout -q -f master
}

# fi_commit I: fast-import's header of commit cI on master (mark I + 10,
# a fixed date, so the same sha at every run; its parent c(I-1))
fi_commit() {
	printf 'commit refs/heads/master\nmark :%d\n' $(($1 + 10)) &&
	printf 'committer perfsift <bisect@example.com> %d +0000\n' \
		$((1700000000 + $1)) &&
	printf 'data <<EOM\nchange %d\nEOM\n' "$1" &&
	if [ "$1" -gt 1 ]; then printf 'from :%d\n' $(($1 + 9)); fi
}

# blob MARK FILE: a fast-import blob
blob() {
	printf 'blob\nmark :%d\ndata %d\n' "$1" "$(wc -c <"$2")" && cat "$2"
}

# The build: cc, through a cache of binaries by source checksum shared by
# every checkout of the test (as ccache would): the program has two
# versions, and compiling each once keeps the tests fast.
write_build() {
	cat >"$1" <<'BUILD'
key=$(cksum <prog.c | tr ' ' -) &&
cache=${BISECT_CACHE:-.}/prog-$key &&
{ [ -x "$cache" ] || { cc -O1 -o "$cache.tmp" prog.c && mv "$cache.tmp" "$cache"; }; } &&
exec cp "$cache" prog
BUILD
}

# The program: it waits BISECT_MS (80) milliseconds, twice that with
# WORK 2, each run varied by +-NOISE_PCT percent, and prints the work it
# did as `run_ms: N` (the stat mytest.run_ms), as a benchmark reports its
# own figure.  The figure is the wait it asked for, not the one it got:
# on these shared 2-CPU machines (and under the sanitizer) a process
# wakes late by a varying few milliseconds, which made a seeded test flip
# now and then; the wait itself (and so time.elapsed_time) still doubles
# for real at the bad commit.  BISECT_SETUP_MS (0) more milliseconds of
# waiting, the same at every commit, stand for a benchmark's start-up:
# they are in time.elapsed_time but not in its figure.  The noise is drawn
# from a seeded generator
# (the commit's version and the run's number in this checkout, counted in
# .noise-seq), so that a test sees the same samples every time it runs.
write_prog() {
	cat >"$1" <<PROG
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>
$(seeded_draw_c)
#define WORK $2
#define NOISE_PCT $3
#define BASE_MS ${BISECT_MS:-80}
#define SETUP_MS ${BISECT_SETUP_MS:-0}
int main(void)
{
	double f = 1, ns;
	struct timespec ts;

	if (NOISE_PCT) {
		unsigned seq;
		double u = seeded_draw(&seq);

		if (u < 0)
			return 1;
		f += NOISE_PCT / 100.0 * (2.0 * u - 1);
	}
	ns = (BASE_MS * WORK * f + SETUP_MS) * 1e6;
	ts.tv_sec = (time_t)(ns / 1e9);
	ts.tv_nsec = (long)(ns - ts.tv_sec * 1e9);
	while (nanosleep(&ts, &ts))
		;
	/* the program's own figure, as a benchmark reports its throughput */
	printf("run_ms: %.3f\n", ns / 1e6 - SETUP_MS);
	return 0;
}
PROG
}

# seeded_draw_c: the C function the test programs draw their noise with:
# seeded_draw(&seq) is uniform in [0, 1), splitmix64 of (the commit's
# `version` file, the run's number in this checkout, counted in
# .noise-seq, which *seq gets); -1 when a file cannot be read or written
seeded_draw_c() {
	cat <<'DRAW'
static double seeded_draw(unsigned *seqp)
{
	unsigned long long x;
	unsigned seq = 0, version = 0;
	FILE *fp = fopen("version", "r");

	if (!fp || fscanf(fp, "%u", &version) != 1)
		return -1;
	fclose(fp);
	fp = fopen(".noise-seq", "r");
	if (fp) {
		if (fscanf(fp, "%u", &seq) != 1)
			seq = 0;
		fclose(fp);
	}
	fp = fopen(".noise-seq", "w");
	if (!fp)
		return -1;
	fprintf(fp, "%u\n", seq + 1);
	fclose(fp);
	*seqp = seq;
	x = (unsigned long long)version << 32 | seq;
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return (x >> 11) / 9007199254740992.0;
}
DRAW
}

# the binaries' cache of write_build, one per test
BISECT_CACHE=$PWD/.bisect-cache
export BISECT_CACHE
mkdir -p "$BISECT_CACHE"

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
	find "$PERFSIFT_RESULT_ROOT/bisect-e2e" -path "*/$1/[0-9]*" -prune \
		-type d 2>/dev/null | wc -l
}

# bisect ARGS...: perfsift bisect on repo with its build, into out and
# err; the exit status is perfsift's, and out/err are shown in the log
bisect() {
	perfsift bisect --repo repo --build "sh build.sh" "$@" >out 2>err
	st=$?
	cat out
	grep "^bisect\|error\|warning" err
	return $st
}
