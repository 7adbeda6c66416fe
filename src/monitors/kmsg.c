/*
 * kmsg.c: the kmsg monitor's parser -- kernel log lines as `dmesg --decode`
 * prints them (`kern  :err   : [   12.345678] text`), the raw format
 * perfsift's sampler writes from /dev/kmsg (spec/lkp-monitors.md 2.21).
 * Lines at err level or worse, and oops heads at any level (WARNING, BUG,
 * Oops, panics, lockups, sanitizer reports, segfaults), become LKP error
 * ids: numbers and addresses turned to '#', blanks dropped or '_' as
 * LKP's common_error_id() does (`WARNING:at_kernel/locking/lockdep.c:#lock_release`,
 * `Kernel_panic-not_syncing:sysrq_triggered_crash`), and always a valid
 * stat name (no empty part: one bad line must not cost a run its
 * dmesg stats).  Per id:
 * `<id>: 1`, `message:<id>: <line>`, `timestamp:<id>: <first seconds>`;
 * then `timestamp:last:`; dmesg (a VM's console) also `boot_failures: 1`
 * when it has any id.  This is a subset of LKP's pattern lists (their
 * 101 oops regexes and 324-line deny list are not copied).
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "monitors/sampling.h"
#include "util/xalloc.h"

/*
 * The heads of the kernel's own failure reports.  Matched anywhere in a
 * message, at any level: an oops is often printed at warning level, and
 * a regression that starts warning is news whatever its throughput.
 */
static const char *const oops_heads[] = {
	"WARNING:", "BUG:", "Oops", "kernel BUG at", "general protection fault",
	"Kernel panic", "Unable to handle kernel", "INFO: task ",
	"INFO: rcu_", "watchdog: BUG:", "UBSAN:", "KASAN:", "KFENCE:",
	"list_add corruption", "list_del corruption", "Slab corruption",
	"invalid opcode:", "divide error:", "stack segment:",
	"Out of memory", "segfault at",
};

/* err and worse: the levels a kernel uses for a failure, not a notice */
static bool is_bad_level(const char *lvl)
{
	return mon_has_prefix(lvl, "err") || mon_has_prefix(lvl, "crit") ||
	       mon_has_prefix(lvl, "alert") || mon_has_prefix(lvl, "emerg");
}

static const char *oops_head(const char *msg)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(oops_heads); i++)
		if (strstr(msg, oops_heads[i]))
			return strstr(msg, oops_heads[i]);
	return NULL;
}

/*
 * The blanks of an id, as LKP's common_error_id() leaves them: runs of
 * blanks are one, a blank after anything but a letter or digit goes, so
 * does one before anything but a letter ("Kernel panic - not syncing: x"
 * is "Kernel_panic-not_syncing:x", the spelling of LKP's stat-denylist),
 * the others become '_'; a leading '-' and trailing "-_.,;:#!([" go.
 * And what a stat name cannot hold (util/trust.h): a run of dots is one
 * dot, none at either end -- "send a report.  Then try" is
 * "report.Then" -- so no console line can cost the run its dmesg stats.
 */
static void tidy_id(struct strbuf *id)
{
	struct strbuf t = STRBUF_INIT;
	size_t i, n;

	for (i = 0; i < id->len; i++) {
		char c = id->buf[i], prev = t.len ? t.buf[t.len - 1] : ' ';

		if (c == ' ' && (prev == ' ' || !isalnum((unsigned char)prev)))
			continue;
		if (c == '.' && prev == '.')
			continue;
		strbuf_addch(&t, c);
	}
	strbuf_reset(id);
	for (i = 0; i < t.len; i++) {
		char c = t.buf[i], next = t.buf[i + 1];

		if (c == ' ' && (!next || !isalpha((unsigned char)next)))
			continue;
		if ((c == '-' || c == '.') && !id->len)
			continue;
		strbuf_addch(id, c == ' ' ? '_' : c);
	}
	n = id->len;
	while (n && strchr("-_.,;:#!([", id->buf[n - 1]))
		n--;
	strbuf_setlen(id, n);
	strbuf_release(&t);
}

/*
 * LKP-style error id of one message
 *
 * (An id must be the same for the same failure on any box and any boot:
 * numbers, addresses and the taint flags are what differ, so they go.
 * A WARNING keeps only its source file and function, as LKP's ids do,
 * because its line number moves with every patch to the file.)
 */
static void error_id(struct strbuf *id, const char *msg)
{
	const char *at, *p;
	size_t n;

	strbuf_reset(id);
	if (mon_has_prefix(msg, "WARNING:") && (at = strstr(msg, " at ")) &&
	    strchr(at + 4, ' ')) {
		/* WARNING: CPU: 0 PID: 1 at FILE:LINE FUNC+0x../0x.. */
		strbuf_addstr(id, "WARNING:at_");
		p = at + 4;
		n = strcspn(p, ":");
		strbuf_add(id, p, n);
		strbuf_addstr(id, ":#");
		p = strchr(p, ' ');
		p += strspn(p, " ");
		strbuf_add(id, p, strcspn(p, "+ "));
		tidy_id(id);
		return;
	}
	/* from the first letter on, as LKP's id */
	while (*msg && !isalpha((unsigned char)*msg))
		msg++;
	for (p = msg; *p; p++) {
		/* "(Tainted: G W)", "(Not tainted)": the kernel's, not the event's */
		if (mon_has_prefix(p, "(Tainted:") ||
		    mon_has_prefix(p, "(Not tainted)")) {
			p = strchr(p, ')');
			if (!p)
				break;
			continue;
		}
		if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
		    isxdigit((unsigned char)p[2])) {
			p += 2;
			while (isxdigit((unsigned char)p[1]))
				p++;
			strbuf_addch(id, '#');
			continue;
		}
		if (isxdigit((unsigned char)*p) && (p == msg || !isalnum((unsigned char)p[-1]))) {
			/* a whole number or hex word: digits must be in it */
			size_t k = 0;
			bool digit = false;

			while (isxdigit((unsigned char)p[k])) {
				digit |= isdigit((unsigned char)p[k]) != 0;
				k++;
			}
			if (digit && !isalnum((unsigned char)p[k]) && p[k] != '_') {
				strbuf_addch(id, '#');
				p += k - 1;
				continue;
			}
		}
		if (isdigit((unsigned char)*p)) {
			while (isdigit((unsigned char)p[1]))
				p++;
			strbuf_addch(id, '#');
			continue;
		}
		/* a stray byte of the serial port is no part of a name */
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			if (isspace((unsigned char)*p))
				strbuf_addch(id, ' ');
			continue;
		}
		strbuf_addch(id, *p);
	}
	tidy_id(id);
}

/*
 * Both logs' error ids; `console` for dmesg, a VM's console as the host
 * caught it: any id there makes `boot_failures: 1` first, as LKP's
 * programs/dmesg/parse prints it (for dmesg only, never kmsg).  0-day's
 * reports show it beside the dmesg.* ids, and a bisect of a boot failure
 * keys on it; a clean boot has no id and so no boot_failures at all, not
 * a 0 (LKP's stats are absent, not zero, when nothing happened).
 */
static int parse_log(const char *raw, size_t len, struct strbuf *out,
		     bool console)
{
	struct mon_lines it;
	struct mon_kv seen; /* id -> first timestamp */
	struct strbuf id = STRBUF_INIT, lvl = STRBUF_INIT, msgs = STRBUF_INIT;
	const char *l, *p, *msg, *head;
	char *end;
	double ts, last = -1;
	size_t i;
	long k;

	mon_kv_init(&seen);
	mon_lines_init(&it, raw, len);
	while (mon_lines_next(&it)) {
		l = it.line.buf;
		ts = -1;
		strbuf_reset(&lvl);
		/* facility:level: prefix of dmesg --decode */
		p = strchr(l, ':');
		if (p && p - l <= 8 && (msg = strchr(p + 1, ':')) && msg - p <= 8) {
			strbuf_add(&lvl, p + 1, (size_t)(msg - p - 1));
			strbuf_trim(&lvl);
			msg++;
		} else {
			msg = l;
		}
		msg += strspn(msg, " ");
		if (*msg == '[') {
			ts = strtod(msg + 1, &end);
			if (end != msg + 1 && *end == ']') {
				msg = end + 1;
				msg += strspn(msg, " ");
				last = ts;
			} else {
				ts = -1;
			}
		}
		/*
		 * "---[ end Kernel panic - not syncing: X ]---" closes the
		 * panic's report, the panic's own line said again: no event
		 */
		if (mon_has_prefix(msg, "---[ end "))
			continue;
		head = oops_head(msg);
		if (!head && !is_bad_level(lvl.buf))
			continue;
		error_id(&id, head ? head : msg);
		if (!id.len)
			continue;
		k = mon_kv_find(&seen, id.buf);
		if (k >= 0)
			continue;
		k = (long)mon_kv_slot(&seen, id.buf);
		seen.vals[k] = ts;
		strbuf_addf(&msgs, "%s\n", msg);
	}
	if (console && seen.n)
		strbuf_addstr(out, "boot_failures: 1\n");
	for (i = 0, p = msgs.buf; i < seen.n; i++) {
		size_t n = strcspn(p, "\n");

		strbuf_addf(out, "%s: 1\n", seen.keys[i]);
		strbuf_addf(out, "message:%s: %.*s\n", seen.keys[i], (int)n, p);
		p += n + 1;
	}
	strbuf_addch(out, '\n');
	for (i = 0; i < seen.n; i++)
		if (seen.vals[i] >= 0)
			strbuf_addf(out, "timestamp:%s: %.6f\n", seen.keys[i],
				    seen.vals[i]);
	if (last >= 0)
		strbuf_addf(out, "timestamp:last: %.6f\n", last);
	strbuf_release(&msgs);
	strbuf_release(&lvl);
	strbuf_release(&id);
	mon_lines_release(&it);
	mon_kv_release(&seen);
	return 0;
}

DECLARE_PARSER(parse_kmsg)
{
	(void)path;
	(void)err;
	return parse_log(raw, len, out, false);
}

DECLARE_PARSER(parse_dmesg)
{
	(void)path;
	(void)err;
	return parse_log(raw, len, out, true);
}

/* ------------------------------------------------------------- sampling */

/*
 * Records come from /dev/kmsg, never /proc/kmsg (whose reads take the
 * messages away from everyone else).  Each open has its own cursor; it is
 * moved to the end at start, so the raw file holds what the kernel said
 * during the run, written as `dmesg --decode` prints it.  A regular file
 * in a test sysroot is read from its start.
 */
static const char *const facilities[] = {
	"kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news",
	"uucp", "cron", "authpriv", "ftp",
};
static const char *const levels[] = {
	"emerg", "alert", "crit", "err", "warn", "notice", "info", "debug",
};

static int kmsg_open(struct mon_inst *mi, struct strbuf *why)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	/* the descriptor, and 1 when it is a test's regular file */
	int *fd = xcalloc(2, sizeof(*fd));

	mon_path(&path, mi->sysroot, "dev/kmsg");
	*fd = open(path.buf, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (*fd < 0) {
		strbuf_addf(why, "cannot open '%s': %s", path.buf, strerror(errno));
		strbuf_release(&path);
		free(fd);
		return -1;
	}
	if (!fstat(*fd, &st) && S_ISREG(st.st_mode))
		fd[1] = 1;
	else
		lseek(*fd, 0, SEEK_END);
	strbuf_release(&path);
	mi->priv = fd;
	return 0;
}

/* one record: "prio,seq,usec,flags;text\n KEY=value\n..." */
static void kmsg_format(struct strbuf *out, const char *rec, size_t len)
{
	unsigned long long prio, usec;
	const char *semi = memchr(rec, ';', len), *text, *nl;
	char *end;
	unsigned fac;

	if (!semi)
		return;
	prio = strtoull(rec, &end, 10);
	if (*end != ',')
		return;
	end = strchr(end + 1, ',');
	if (!end)
		return;
	usec = strtoull(end + 1, NULL, 10);
	text = semi + 1;
	nl = memchr(text, '\n', len - (size_t)(text - rec));
	if (!nl)
		nl = rec + len;
	fac = (unsigned)(prio >> 3);
	strbuf_addf(out, "%-6s:%-6s: [%5llu.%06llu] %.*s\n",
		    fac < ARRAY_SIZE(facilities) ? facilities[fac] : "local",
		    levels[prio & 7], usec / 1000000, usec % 1000000,
		    (int)(nl - text), text);
}

static int kmsg_sample(struct mon_inst *mi, struct strbuf *out, bool final)
{
	int fd = ((int *)mi->priv)[0];
	char rec[8192];
	ssize_t n;

	(void)final;
	if (((int *)mi->priv)[1]) {
		/* a test file: lines already in kmsg's record form */
		struct strbuf all = STRBUF_INIT;
		const char *p, *e;

		if (strbuf_read_fd(&all, fd, 0) < 0) {
			strbuf_release(&all);
			return -1;
		}
		for (p = all.buf; p < all.buf + all.len; p = e + 1) {
			e = strchr(p, '\n');
			if (!e)
				e = all.buf + all.len;
			if (*p != ' ')
				kmsg_format(out, p, (size_t)(e - p));
		}
		strbuf_release(&all);
		return 0;
	}
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue; /* overwritten records: go on with the next */
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		rec[n] = '\0';
		kmsg_format(out, rec, (size_t)n);
	}
	return 0;
}

static void kmsg_close(struct mon_inst *mi)
{
	if (mi->priv)
		close(*(int *)mi->priv);
	FREE_AND_NULL(mi->priv);
}

const struct monitor_sampling sampling_kmsg = {
	1, true, kmsg_open, kmsg_sample, kmsg_close,
};
