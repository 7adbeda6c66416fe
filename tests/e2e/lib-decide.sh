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
			fi_commit "$i" &&
			printf 'M 100644 :1 prog.c\nM 100644 :2 build.sh\n' &&
			printf 'M 100644 inline version\ndata <<EOV\n%d\nEOV\n' "$i" &&
			printf 'M 100644 inline params\ndata <<EOV\n%d %s %d %d\nEOV\n\n' \
				"$work" "$nz" "$fl" $((100 + step)) &&
			fi_tag "$i" || return 1
			i=$((i + 1))
		done
	} >"$dir/.stream" &&
	fi_import "$dir" "$dir/.prog.c" "$dir/.build.sh"
}

# The program: reads `params` (work, noise %, flip, the bad work), waits
# BISECT_MS (10) ms, and prints the figure it was given as `run_ms: N`.
# The noise is uniform, lib-bisect.sh's seeded_draw(): the same samples
# every time the test runs.
write_step_prog() {
	cat >"$1" <<PROG
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>
$(seeded_draw_c)
#define BASE_MS ${BISECT_MS:-10}
int main(void)
{
	double work, noise, u, ms;
	int flip, badwork;
	unsigned seq;
	struct timespec ts = { 0, BASE_MS * 1000000L };
	FILE *fp = fopen("params", "r");

	if (!fp || fscanf(fp, "%lf %lf %d %d", &work, &noise, &flip, &badwork) != 4)
		return 1;
	fclose(fp);
	u = seeded_draw(&seq);
	if (u < 0)
		return 1;
	if (flip)
		work = seq % 2 ? badwork : 100;
	while (nanosleep(&ts, &ts))
		;
	ms = BASE_MS * work / 100.0 * (1 + noise / 100.0 * (2.0 * u - 1));
	printf("run_ms: %.4f\n", ms);
	return 0;
}
PROG
}

# the runs bisect made of commit tag $1 ("(N runs)" on its step line)
runs_made() {
	sha=$(git -C repo rev-parse "$1" | cut -c1-10) &&
	sed -n "s/^bisect: \[[0-9]*\/[0-9]*\] $sha [a-z]*.* (\([0-9]*\) runs)  .*/\1/p" err
}
