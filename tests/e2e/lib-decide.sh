# lib-decide.sh: helpers for the until-decided bisect tests (t61xx),
# sourced after lib.sh and lib-bisect.sh.  make_step_repo builds a git
# repository whose one program reads what it does from the commit's own
# files: `work` (its figure in hundredths of the base wait), `noise` (the
# run-to-run noise in percent of it, seeded) and `flip` (1: the figure
# alternates run by run between the good figure and the bad, which no
# number of runs can call the one or the other).  Nothing is timed: the figure,
# mytest.run_ms, is what the program was told, as in lib-bisect.sh.

# make_step_repo DIR N K STEP_PCT NOISE_PCT [AT NOISE_AT] [FLIP_AT]:
# commits c1..cN; from cK on the figure is STEP_PCT% higher; every
# commit's noise is NOISE_PCT% but commit AT's is NOISE_AT%; commit
# FLIP_AT alternates between the good and the bad figure.
make_step_repo() {
	dir=$1 n=$2 k=$3 step=$4 noise=$5 at=${6:-0} noise_at=${7:-0} flip=${8:-0}
	git init -q "$dir" &&
	write_step_prog "$dir/.prog.c" &&
	write_build "$dir/.build.sh" &&
	{
		blob 1 "$dir/.prog.c" && blob 2 "$dir/.build.sh" &&
		i=1 &&
		while [ "$i" -le "$n" ]; do
			work=100 nz=$noise fl=0
			[ "$i" -ge "$k" ] && work=$((100 + step))
			[ "$i" -eq "$at" ] && nz=$noise_at
			[ "$i" -eq "$flip" ] && fl=1
			printf 'commit refs/heads/master\nmark :%d\n' $((i + 10)) &&
			printf 'committer perfsift <bisect@example.com> %d +0000\n' \
				$((1700000000 + i)) &&
			printf 'data <<EOM\nchange %d\nEOM\n' "$i" &&
			if [ "$i" -gt 1 ]; then printf 'from :%d\n' $((i + 9)); fi &&
			printf 'M 100644 :1 prog.c\nM 100644 :2 build.sh\n' &&
			printf 'M 100644 inline version\ndata <<EOV\n%d\nEOV\n' "$i" &&
			printf 'M 100644 inline params\ndata <<EOV\n%d %s %d %d\nEOV\n\n' \
				"$work" "$nz" "$fl" $((100 + step)) &&
			printf 'reset refs/tags/c%d\nfrom :%d\n\n' "$i" $((i + 10)) ||
				return 1
			i=$((i + 1))
		done
	} >"$dir/.stream" &&
	git -C "$dir" fast-import --quiet <"$dir/.stream" &&
	rm -f "$dir/.stream" "$dir/.prog.c" "$dir/.build.sh" &&
	git -C "$dir" checkout -q -f master
}

# The program: reads `params` (work, noise %, flip, the bad work) and
# `version`, waits BISECT_MS (10) ms, and prints the figure it was given
# as `run_ms: N`.  The noise is uniform, from splitmix64 of (version, the
# run's number in this checkout, counted in .noise-seq): the same
# samples every time the test runs.
write_step_prog() {
	cat >"$1" <<PROG
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>
#define BASE_MS ${BISECT_MS:-10}
int main(void)
{
	double work, noise, f, ms;
	int flip, badwork;
	unsigned long long x;
	unsigned seq = 0, version = 0;
	struct timespec ts = { 0, BASE_MS * 1000000L };
	FILE *fp = fopen("params", "r");

	if (!fp || fscanf(fp, "%lf %lf %d %d", &work, &noise, &flip, &badwork) != 4)
		return 1;
	fclose(fp);
	fp = fopen("version", "r");
	if (!fp || fscanf(fp, "%u", &version) != 1)
		return 1;
	fclose(fp);
	fp = fopen(".noise-seq", "r");
	if (fp) {
		if (fscanf(fp, "%u", &seq) != 1)
			seq = 0;
		fclose(fp);
	}
	fp = fopen(".noise-seq", "w");
	if (!fp)
		return 1;
	fprintf(fp, "%u\n", seq + 1);
	fclose(fp);
	if (flip)
		work = seq % 2 ? badwork : 100;
	x = (unsigned long long)version << 32 | seq;
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	x ^= x >> 31;
	f = 1 + noise / 100.0 * (2.0 * ((x >> 11) / 9007199254740992.0) - 1);
	while (nanosleep(&ts, &ts))
		;
	ms = BASE_MS * work / 100.0 * f;
	printf("run_ms: %.4f\n", ms);
	return 0;
}
PROG
}

# the runs bisect made of commit tag $1 ("(N runs)" on its step line)
runs_made() {
	sha=$(git -C repo rev-parse "$1" | cut -c1-12) &&
	sed -n "s/^bisect: \[[0-9]*\/[0-9]*\] $sha [a-z]*.* (\([0-9]*\) runs)  .*/\1/p" err
}
