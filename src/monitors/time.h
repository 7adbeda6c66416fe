/*
 * time.h: the time monitor.  perfsift does not wrap benchmarks in GNU
 * time(1): the runner takes the resource usage from wait4() and this module
 * writes it in GNU `time -v` text layout (LKP's <prog>.time), with
 * microsecond resolution, so that LKP's parser -- and parse_time() here --
 * read it unchanged (spec/lkp-monitors.md 2.1).
 */
#ifndef PERFSIFT_MONITORS_TIME_H
#define PERFSIFT_MONITORS_TIME_H

#include "util/compat.h"

struct rusage;
struct strbuf;

/*
 * Append the GNU `time -v` block for `command` to out: an optional
 * "Command exited with non-zero status N" / "Command terminated by signal
 * N" line, then one "\tLabel (unit): value" line per field.  User and
 * system time carry six decimals, elapsed time is m:ss.uuuuuu (or
 * h:mm:ss.uuuuuu from one hour on).  wait_status is wait4()'s status.
 */
void time_format_verbose(struct strbuf *out, const char *command,
			 const struct rusage *ru, double elapsed_s,
			 int wait_status);

/*
 * A double as Ruby's Float#to_s prints it (shortest text that reads back
 * as the same double, "1.0" for integral values, exponent form outside
 * 1e-4 <= |v| < 1e16): LKP's parsers print their computed floats so.
 */
void time_add_ruby_float(struct strbuf *out, double v);

#endif
