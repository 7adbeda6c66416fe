/*
 * registry.c: the table of monitors and output parsers (see monitor.h).
 * One line per entry; keep it sorted by name.
 */
#include "util/compat.h"
#include <string.h>
#include "monitor.h"
#include "monitors/parsers.h"

static const struct monitor_ops monitors[] = {
	{"mytest", parse_mytest},
	{"time", parse_time},
	{"vm-scalability", parse_vm_scalability},
};

const struct monitor_ops *monitor_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(monitors); i++)
		if (!strcmp(monitors[i].name, name))
			return &monitors[i];
	return NULL;
}

size_t monitor_count(void)
{
	return ARRAY_SIZE(monitors);
}

const struct monitor_ops *monitor_at(size_t i)
{
	return i < ARRAY_SIZE(monitors) ? &monitors[i] : NULL;
}
