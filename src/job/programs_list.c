/*
 * programs_list.c: `perfsift help programs` -- every program a job can
 * name, one line each in name order, with its kind and whether it can
 * run here, from the program table (programs.c, programs_ext.c) and the
 * plug-ins on the search path (plugins.h).  Whether it can run is asked
 * of the thing itself, never of a list: a monitor's sampler is opened and
 * closed as a run opens it, an external benchmark's command looked up on
 * PATH, a plug-in's scripts and Ruby looked for.
 */
#include "util/compat.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "external/external.h"
#include "job/plugins.h"
#include "job/programs.h"
#include "monitors/monitor.h"
#include "monitors/sampling.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* the kind as the listing names it: the table's kind, told apart further */
static const char *list_kind(const struct program *p)
{
	if (p->plugin_dir)
		return "plug-in";
	if (p->kind != PROG_TEST)
		return program_kind_name(p->kind);
	if (p->command)
		return "external";
	if (p->parse_only)
		return "parse-only";
	return "benchmark";
}

/* a monitor can run here when its sampler opens, as a run would open it */
static bool monitor_can_run(const struct program *p, struct strbuf *why)
{
	const struct monitor_sampling *ms = p->mon.sampling;
	struct mon_inst mi;

	if (!ms) {
		strbuf_addstr(why, p->mon.parse ?
			      "perfsift parses its output (perfsift parse) but does not sample it" :
			      "LKP's: perfsift neither samples nor parses it");
		return false;
	}
	memset(&mi, 0, sizeof(mi));
	mi.ops = &p->mon;
	mi.sysroot = program_sysroot();
	mi.interval = ms->default_interval > 0 ? ms->default_interval : 1;
	/* as a job naming it: some monitors stay out of the default set only */
	mi.named = true;
	if (ms->open(&mi, why))
		return false;
	ms->close(&mi);
	return true;
}

/* a benchmark: by what runs it (built in, a command, a plug-in) */
static bool bench_can_run(const struct program *p, struct strbuf *why)
{
	if (p->plugin_dir)
		return plugin_can_run(p, why);
	if (p->parse_only) {
		strbuf_addstr(why, "not in Debian's main archive: perfsift only parses "
				   "its output (perfsift parse)");
		return false;
	}
	if (p->command) {
		if (ext_have(p->command, NULL))
			return true;
		strbuf_addf(why, "'%s' is not installed: apt-get install %s "
			    "(`perfsift install JOB` does)", p->command, p->package);
		return false;
	}
	/* mytest runs any command; a table benchmark without ops does not run */
	if (p->bench || !strcmp(p->name, "mytest"))
		return true;
	strbuf_addstr(why, "it does not run (a name LKP's job files use)");
	return false;
}

/*
 * Setup programs write /proc and /sys knobs, which only root may; the
 * output parser (time) reads a file every run has, so it always can.
 */
static bool can_run(const struct program *p, struct strbuf *why)
{
	switch (p->kind) {
	case PROG_TEST:
		return bench_can_run(p, why);
	case PROG_MONITOR:
		return monitor_can_run(p, why);
	case PROG_SETUP:
		if (!geteuid())
			return true;
		strbuf_addstr(why, "it sets kernel knobs: run perfsift as root");
		return false;
	case PROG_OUTPUT:
		return true;
	}
	return false;
}

/* strcmp order, as program_at() lists the table: plug-ins fall in between */
static int by_name(const void *a, const void *b)
{
	const struct program *x = *(const struct program *const *)a;
	const struct program *y = *(const struct program *const *)b;

	return strcmp(x->name, y->name);
}

void program_list_help(struct strbuf *out)
{
	size_t n = program_count(), nplug, i;
	const struct program **all;
	struct strbuf why = STRBUF_INIT;

	/* the plug-ins on the path join the table; built-in names never do */
	plugin_scan_all();
	nplug = plugin_count();
	all = xcalloc(n + nplug + 1, sizeof(*all));
	for (i = 0; i < n; i++)
		all[i] = program_at(i);
	for (i = 0; i < nplug; i++)
		all[n + i] = plugin_at(i);
	n += nplug;
	qsort(all, n, sizeof(*all), by_name);
	/* one line a program, so that grep and awk can take the list apart */
	strbuf_addf(out, "%-28s %-14s %s\n", "PROGRAM", "KIND", "RUNS HERE");
	for (i = 0; i < n; i++) {
		strbuf_reset(&why);
		strbuf_addf(out, "%-28s %-14s ", all[i]->name, list_kind(all[i]));
		if (can_run(all[i], &why))
			strbuf_addstr(out, "yes\n");
		else
			strbuf_addf(out, "no: %s\n", why.buf);
	}
	free(all);
	strbuf_release(&why);
}
