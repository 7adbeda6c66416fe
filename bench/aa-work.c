/*
 * aa-work.c: the fixed work of bench/aa.sh's A/A job, a command run by
 * `mytest` that prints its own figure, `score: X`, as a benchmark would.
 *
 *   build/bench/aa-work [ITERATIONS] [REPEATS]     (defaults 100000000 3)
 *
 * The work is a register-only xorshift loop of ITERATIONS steps, done
 * REPEATS times; the score is the best repetition's steps per CPU second,
 * in millions, multiplied by $AA_PLANT (default 1): bench/aa.sh sets
 * AA_PLANT=1.05 on one side to plant a known 5% change of the KPI.
 *
 * Why this figure and not dd's bytes per second: on this 2-core VM, shared
 * with other jobs, dd's throughput and any wall-clock rate vary by 5-10%
 * from run to run (memory bandwidth and the host's scheduling), so no test
 * at 5 runs a side could tell a 5% change from noise.  A loop that touches
 * no memory, timed by its own CPU clock (preemption does not count), best
 * of a few, varies by about 1% -- the noise the synthetic figures of
 * tests/unit/test_compare.c assume -- and is still a real measurement.
 */
#include "util/compat.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "util/strnum.h"

/* the process's CPU time in seconds (its own clock: not the wall) */
static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ITERATIONS steps of xorshift64; the result is printed so the loop stays */
static uint64_t work(long long iterations)
{
	uint64_t x = 88172645463325252ULL, sum = 0;
	long long i;

	for (i = 0; i < iterations; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		sum += x;
	}
	return sum;
}

/* argv[i] as a count within [1, max], else def; exit 2 on a bad one */
static long long arg_count(int argc, char **argv, int i, long long def,
			   long long max)
{
	long long v;

	if (argc <= i)
		return def;
	if (strnum_ll(argv[i], 1, max, &v, NULL)) {
		fprintf(stderr, "aa-work: bad count '%s'\n", argv[i]);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	long long iterations = arg_count(argc, argv, 1, 100000000LL, 1LL << 40);
	long long repeats = arg_count(argc, argv, 2, 3, 1000);
	const char *plant_env = getenv("AA_PLANT");
	double plant = 1, best = 0;
	uint64_t check = 0;
	long long r;

	if (plant_env && strnum_double(plant_env, &plant, NULL)) {
		fprintf(stderr, "aa-work: AA_PLANT: not a number '%s'\n", plant_env);
		return 2;
	}
	for (r = 0; r < repeats; r++) {
		double t0 = cpu_now(), dt;

		check ^= work(iterations);
		dt = cpu_now() - t0;
		if (dt > 0 && (double)iterations / dt > best)
			best = (double)iterations / dt;
	}
	printf("score: %.6f\n", best / 1e6 * plant);
	/* keeps the loop's result alive; not a stat (no "key: value") */
	printf("# check %" PRIu64 "\n", check & 0xff);
	return 0;
}
