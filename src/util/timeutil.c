/*
 * timeutil.c: clocks (see timeutil.h).
 */
#include "util/compat.h"
#include <time.h>
#include "util/timeutil.h"

uint64_t time_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double time_mono_s(void)
{
	return (double)time_mono_ns() / 1e9;
}

double time_epoch_s(void)
{
	struct timespec ts = time_epoch_ts();

	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct timespec time_epoch_ts(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts;
}

uint64_t time_thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int time_sleep_until_ns(uint64_t deadline_ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(deadline_ns / 1000000000u);
	ts.tv_nsec = (long)(deadline_ns % 1000000000u);
	return clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}
