/*
 * timeutil.h: the one place perfsift reads clocks.  Durations come from
 * CLOCK_MONOTONIC; wall-clock stamps (for LKP's `time:` lines) from
 * CLOCK_REALTIME.
 */
#ifndef PERFSIFT_TIMEUTIL_H
#define PERFSIFT_TIMEUTIL_H

#include "util/compat.h"

uint64_t time_mono_ns(void);
double time_mono_s(void);
/* seconds since the epoch, with nanoseconds */
double time_epoch_s(void);
/* sleep until an absolute CLOCK_MONOTONIC time; returns early on a signal */
int time_sleep_until_ns(uint64_t deadline_ns);

#endif
