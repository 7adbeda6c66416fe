/*
 * monitor.h: what every monitor and benchmark-output parser provides.
 *
 * A parser turns a raw file (LKP's raw format) into LKP's `key: value`
 * stream -- the interface between the raw layer and the per-sample arrays
 * (dump-stat, see samples.h).  The registry (monitors/registry.c) is an
 * explicit table; `perfsift parse NAME` and `perfsift stats RUN_DIR` find
 * parsers there.  Sampling (periodic monitors) is added by the monitors
 * module to this same struct.
 */
#ifndef PERFSIFT_MONITOR_H
#define PERFSIFT_MONITOR_H

#include "util/compat.h"

struct strbuf;
struct monitor_sampling; /* monitors/sampling.h */

/*
 * parse raw text into `key: value` lines appended to out.  `path` is the
 * raw file's name (some LKP parsers look at it) or NULL.  Returns 0, or -1
 * with a one-line reason in err.
 */
typedef int (*monitor_parse_fn)(const char *raw, size_t len, const char *path,
				struct strbuf *out, struct strbuf *err);

struct monitor_ops {
	const char *name;        /* LKP's name: "vmstat", "time", "vm-scalability" */
	monitor_parse_fn parse;  /* NULL: no parser (raw kept, no stats) */
	/* NULL: perfsift does not sample it (a benchmark output, time) */
	const struct monitor_sampling *sampling;
};

/* the entry called name, or NULL */
const struct monitor_ops *monitor_find(const char *name);
size_t monitor_count(void);
const struct monitor_ops *monitor_at(size_t i);

#endif
