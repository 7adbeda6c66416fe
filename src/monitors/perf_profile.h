/*
 * perf_profile.h: perf-profile's options as the program table fills them
 * (programs.c, params.h): typed, checked when the job was read, defaults
 * applied.  The window defaults depend on the job's runtime, so whether
 * delay and duration were given is kept too.
 */
#ifndef PERFSIFT_PERF_PROFILE_H
#define PERFSIFT_PERF_PROFILE_H

#include "util/compat.h"

struct pp_opts {
	uint64_t freq;   /* samples per second per CPU */
	uint64_t period; /* events per sample; 0: freq */
	bool legacy_keys;
	double delay, duration; /* the profiled window, seconds */
	bool delay_given, duration_given;
};

#endif
