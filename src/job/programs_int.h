/*
 * programs_int.h: what the two files of the program table share -- the
 * option-line macros and the blocks of entries.  programs.c holds the
 * main table (perfsift's own programs, monitors, setup programs);
 * programs_ext.c the external benchmarks' block (src/external/), kept
 * apart so that it grows without touching the main table.  Both blocks
 * are sorted by name; programs.c searches and lists them merged.
 */
#ifndef PERFSIFT_PROGRAMS_INT_H
#define PERFSIFT_PROGRAMS_INT_H

#include "job/programs.h"

/* the longest duration a job may ask for: far beyond any run, and far below
 * what a nanosecond count in 64 bits holds (1.8e10 s) */
#define MAX_SECONDS 1e7
/* an interval: fine enough for any monitor, never a busy loop */
#define MIN_INTERVAL 0.01
#define MAX_INTERVAL 86400

#define END {0}

/* option lines: name, path_params role, then the type's own fields */
#define O_STR(n, r, d, h) {n, OPT_STRING, r, 0, 0, 0, d, .help = h}
#define O_BOOL(n, r, d, h) {n, OPT_BOOL, r, 0, 0, 0, d, .help = h}
#define O_COUNT(n, r, lo, hi, d, h) {n, OPT_COUNT, r, 0, lo, hi, d, .help = h}
#define O_SIZE(n, r, d, h) {n, OPT_SIZE, r, 0, 0, 0, d, .help = h}
#define O_SECS(n, r, lo, hi, d, h) {n, OPT_SECONDS, r, 0, lo, hi, d, .help = h}
#define O_CPUS(n, r, d, h) {n, OPT_CPUS, r, 0, 0, 0, d, .help = h}
#define O_ENUM(n, r, c, d, h) {n, OPT_ENUM, r, 0, 0, 0, d, c, .help = h}

/* the external benchmarks' block, sorted by name (programs_ext.c) */
extern const struct program external_programs[];
extern const size_t external_program_count;

#endif
