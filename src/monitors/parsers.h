/*
 * parsers.h: the parse functions of monitors/ and bench/ (monitor_parse_fn
 * in monitor.h), one declaration per parser.
 */
#ifndef PERFSIFT_PARSERS_H
#define PERFSIFT_PARSERS_H

#include "monitor.h"

#define DECLARE_PARSER(fn)                                                     \
	int fn(const char *raw, size_t len, const char *path,                  \
	       struct strbuf *out, struct strbuf *err)

DECLARE_PARSER(parse_mytest);
DECLARE_PARSER(parse_time);
DECLARE_PARSER(parse_vm_scalability);

#endif
