/*
 * t5110's benchmark: OTHER rounds of other_work(), then HOT rounds of
 * hot_compress_loop() (the planted slowdown: more rounds); prints the
 * milliseconds it took, measured, and a checksum so nothing is optimised
 * away.  Both functions are kept out of line so that each has its own
 * samples.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__attribute__((noinline)) unsigned long hot_compress_loop(unsigned long n)
{
	unsigned long x = 1, i;

	for (i = 0; i < n; i++)
		x = x * 6364136223846793005UL + i;
	return x;
}

__attribute__((noinline)) unsigned long other_work(unsigned long n)
{
	unsigned long x = 7, i;

	for (i = 0; i < n; i++)
		x ^= (x << 7) + (x >> 3) + i;
	return x;
}

int main(int argc, char **argv)
{
	unsigned long hot = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
	unsigned long other = argc > 2 ? strtoul(argv[2], NULL, 10) : 1000;
	struct timespec a, b;
	unsigned long x;

	clock_gettime(CLOCK_MONOTONIC, &a);
	x = other_work(other) + hot_compress_loop(hot);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("ms: %.3f\nsink: %lu\n", (double)(b.tv_sec - a.tv_sec) * 1e3 +
	       (double)(b.tv_nsec - a.tv_nsec) / 1e6, x % 2);
	return 0;
}
