/*
 * time.c: the time monitor (spec/lkp-monitors.md 2.1).  Writes a
 * benchmark's wait4() resource usage in GNU `time -v` layout, and parses
 * that layout into LKP's keys exactly as LKP's programs/time/parse does:
 * labels lose their "(...)" groups, spaces become '_', lower case; elapsed
 * time becomes float seconds; the '%' of the CPU share is dropped.
 */
#include "util/compat.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "monitors/time.h"
#include "util/strbuf.h"

static double tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static void add_seconds6(struct strbuf *out, const struct timeval *tv)
{
	strbuf_addf(out, "%ld.%06ld", (long)tv->tv_sec, (long)tv->tv_usec);
}

/*
 * m:ss.uuuuuu, or h:mm:ss.uuuuuu from one hour on (GNU: m:ss.cc, h:mm:ss)
 *
 * (Microseconds where GNU time prints hundredths: the parser reads any
 * fraction, and a 0.3 s benchmark keeps its digits.)
 */
static void add_elapsed(struct strbuf *out, double elapsed_s)
{
	unsigned long long us, s;

	if (!(elapsed_s > 0))
		elapsed_s = 0;
	us = (unsigned long long)llround(elapsed_s * 1e6);
	s = us / 1000000;
	us %= 1000000;
	if (s >= 3600)
		strbuf_addf(out, "%llu:%02llu:%02llu.%06llu", s / 3600,
			    s / 60 % 60, s % 60, us);
	else
		strbuf_addf(out, "%llu:%02llu.%06llu", s / 60, s % 60, us);
}

/*
 * The run's resource usage written as `time -v` would have written it, so
 * that LKP's own time parser -- and anyone's script -- reads perfsift's
 * raw file unchanged.  The usage comes from wait4(), not from running
 * /usr/bin/time: one process fewer between perfsift and the benchmark,
 * and no dependence on the time package being installed.
 */
void time_format_verbose(struct strbuf *out, const char *command,
			 const struct rusage *ru, double elapsed_s,
			 int wait_status)
{
	double cpu = tv_s(&ru->ru_utime) + tv_s(&ru->ru_stime);
	int exit_status;
	const char *p;

	if (WIFSTOPPED(wait_status)) {
		strbuf_addf(out, "Command stopped by signal %d\n",
			    WSTOPSIG(wait_status));
		exit_status = WSTOPSIG(wait_status);
	} else if (WIFSIGNALED(wait_status)) {
		strbuf_addf(out, "Command terminated by signal %d\n",
			    WTERMSIG(wait_status));
		exit_status = WTERMSIG(wait_status);
	} else {
		exit_status = WEXITSTATUS(wait_status);
		if (exit_status)
			strbuf_addf(out, "Command exited with non-zero status %d\n",
				    exit_status);
	}

	/* a newline in the command would end the line early: LKP skips it anyway */
	strbuf_addstr(out, "\tCommand being timed: \"");
	for (p = command ? command : ""; *p; p++)
		strbuf_addch(out, *p == '\n' || *p == '\r' ? ' ' : *p);
	strbuf_addstr(out, "\"\n");

	strbuf_addstr(out, "\tUser time (seconds): ");
	add_seconds6(out, &ru->ru_utime);
	strbuf_addstr(out, "\n\tSystem time (seconds): ");
	add_seconds6(out, &ru->ru_stime);
	/* GNU time: integer percent, '?' when no wall time elapsed */
	if (elapsed_s > 0)
		strbuf_addf(out, "\n\tPercent of CPU this job got: %.0f%%\n",
			    floor(cpu * 100.0 / elapsed_s));
	else
		strbuf_addstr(out, "\n\tPercent of CPU this job got: ?%\n");
	strbuf_addstr(out, "\tElapsed (wall clock) time (h:mm:ss or m:ss): ");
	add_elapsed(out, elapsed_s);
	strbuf_addch(out, '\n');

	/* Linux fills neither the integral sizes nor ru_nswap: GNU time prints 0 */
	strbuf_addf(out, "\tAverage shared text size (kbytes): %ld\n", ru->ru_ixrss);
	strbuf_addf(out, "\tAverage unshared data size (kbytes): %ld\n", ru->ru_idrss);
	strbuf_addf(out, "\tAverage stack size (kbytes): %ld\n", ru->ru_isrss);
	strbuf_addf(out, "\tAverage total size (kbytes): %ld\n",
		    ru->ru_ixrss + ru->ru_idrss + ru->ru_isrss);
	strbuf_addf(out, "\tMaximum resident set size (kbytes): %ld\n", ru->ru_maxrss);
	strbuf_addstr(out, "\tAverage resident set size (kbytes): 0\n");
	strbuf_addf(out, "\tMajor (requiring I/O) page faults: %ld\n", ru->ru_majflt);
	strbuf_addf(out, "\tMinor (reclaiming a frame) page faults: %ld\n", ru->ru_minflt);
	strbuf_addf(out, "\tVoluntary context switches: %ld\n", ru->ru_nvcsw);
	strbuf_addf(out, "\tInvoluntary context switches: %ld\n", ru->ru_nivcsw);
	strbuf_addf(out, "\tSwaps: %ld\n", ru->ru_nswap);
	strbuf_addf(out, "\tFile system inputs: %ld\n", ru->ru_inblock);
	strbuf_addf(out, "\tFile system outputs: %ld\n", ru->ru_oublock);
	strbuf_addf(out, "\tSocket messages sent: %ld\n", ru->ru_msgsnd);
	strbuf_addf(out, "\tSocket messages received: %ld\n", ru->ru_msgrcv);
	strbuf_addf(out, "\tSignals delivered: %ld\n", ru->ru_nsignals);
	strbuf_addf(out, "\tPage size (bytes): %ld\n", sysconf(_SC_PAGESIZE));
	strbuf_addf(out, "\tExit status: %d\n", exit_status);
}

/* monutil's: the time parser and the /proc parsers print floats alike */
void time_add_ruby_float(struct strbuf *out, double v)
{
	mon_ruby_float(out, v);
}

/*
 * "h:mm:ss[.f]" or "m:ss[.f]" -> seconds; -1 when it is neither
 * (both forms occur: GNU time switches to h:mm:ss at one hour)
 */
static int parse_elapsed(const char *s, double *out)
{
	double parts[3], sec;
	int n = 0;
	char *end;
	const char *p = s;

	for (;;) {
		if (n == 3)
			return -1;
		parts[n++] = strtod(p, &end);
		if (end == p)
			return -1;
		if (*end != ':')
			break;
		p = end + 1;
	}
	if (*end)
		return -1;
	if (n == 1)
		sec = parts[0];
	else if (n == 2)
		sec = parts[0] * 60 + parts[1];
	else
		sec = parts[0] * 3600 + parts[1] * 60 + parts[2];
	*out = sec;
	return 0;
}

/* LKP's key: drop " (...)" groups, whitespace runs -> '_', lower case */
static void make_key(struct strbuf *key, const char *label, size_t len)
{
	size_t i = 0;
	bool space = false;

	while (i < len && isspace((unsigned char)label[i]))
		i++;
	for (; i < len; i++) {
		unsigned char c = (unsigned char)label[i];

		if (isspace(c) && i + 1 < len && label[i + 1] == '(') {
			const char *close = memchr(label + i, ')', len - i);

			if (close) {
				i = (size_t)(close - label);
				continue;
			}
		}
		if (isspace(c)) {
			space = true;
			continue;
		}
		if (space && key->len)
			strbuf_addch(key, '_');
		space = false;
		strbuf_addch(key, (char)tolower(c));
	}
}

static void time_line(struct mon_colon *c)
{
	struct strbuf *key = c->data, *val = c->val;
	double s;

	if (memmem(c->line, c->len, "Command being timed: ", 21))
		return;
	strbuf_reset(key);
	make_key(key, c->line, c->keylen);
	if (!key->len || !val->len)
		return;
	if (!strcmp(key->buf, "elapsed_time")) {
		if (!parse_elapsed(val->buf, &s)) {
			strbuf_reset(val);
			time_add_ruby_float(val, s);
		}
	} else if (!strcmp(key->buf, "percent_of_cpu_this_job_got")) {
		if (val->buf[val->len - 1] == '%')
			strbuf_setlen(val, val->len - 1);
		if (!strcmp(val->buf, "?")) {
			strbuf_reset(val);
			strbuf_addch(val, '0');
		}
	}
	strbuf_addf(c->out, "%s: %s\n", key->buf, val->buf);
}

DECLARE_PARSER(parse_time)
{
	struct strbuf key = STRBUF_INIT;

	(void)path;
	(void)err;
	mon_each_colon_line(raw, len, out, time_line, &key);
	strbuf_release(&key);
	return 0;
}
