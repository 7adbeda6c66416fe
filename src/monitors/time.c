/*
 * time.c: the time monitor's parser -- GNU `time -v` text into LKP's keys
 * (spec/lkp-monitors.md 2.1).  Placeholder until the runner lands: it
 * refuses to parse rather than pretend.
 */
#include "util/compat.h"
#include "monitors/parsers.h"
#include "util/strbuf.h"

DECLARE_PARSER(parse_time)
{
	(void)raw;
	(void)len;
	(void)path;
	(void)out;
	strbuf_addstr(err, "time: parser not built yet");
	return -1;
}
