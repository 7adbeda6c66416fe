/*
 * timeutil.h: the one place perfsift calls clock_gettime().  Durations and
 * deadlines come from CLOCK_MONOTONIC (a clock that NTP or the user cannot
 * step, so a run's length is right even when the date changes under it);
 * wall-clock stamps (LKP's `time:` lines, vm-scalability's "X-Y seconds",
 * pthread_timedjoin_np's deadline, which is CLOCK_REALTIME by its
 * definition) from CLOCK_REALTIME; a thread's own CPU time (the sampler's
 * cost) from CLOCK_THREAD_CPUTIME_ID.
 *
 * time(2) is still called directly where whole wall-clock seconds are
 * what is wanted: a date printed in an output (perf-profile's "captured
 * on", vmstat's timestamp, the report bundle's file times), a seed mixed
 * from the time, and vm-scalability's runtime check, which compares whole
 * seconds as the original's does (docs/spec vm-scalability.md).
 */
#ifndef PERFSIFT_TIMEUTIL_H
#define PERFSIFT_TIMEUTIL_H

#include "util/compat.h"
#include <time.h>

uint64_t time_mono_ns(void);
double time_mono_s(void);
/* seconds since the epoch, with nanoseconds */
double time_epoch_s(void);
/* the same as a timespec, for the outputs that print seconds.nanoseconds
 * exactly (a double has only about 0.1 us left at today's epoch) */
struct timespec time_epoch_ts(void);
/* CPU time the calling thread has used, in nanoseconds */
uint64_t time_thread_cpu_ns(void);
/* sleep until an absolute CLOCK_MONOTONIC time; returns early on a signal */
int time_sleep_until_ns(uint64_t deadline_ns);

#endif
