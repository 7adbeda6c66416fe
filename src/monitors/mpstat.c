/*
 * mpstat.c: the mpstat monitor (sysstat's mpstat -o JSON), sampled and
 * parsed as LKP's monitors/mpstat and programs/mpstat/parse do.
 *
 * Sampling: mpstat itself runs beside the benchmark, as LKP's monitor
 * runs it -- `LC_ALL=C S_TIME_FORMAT=ISO mpstat -P ALL -o JSON INTERVAL`
 * -- with its stdout on a pipe that each tick drains into the raw file;
 * the stop sample sends it SIGINT (as LKP's post-test does) and reads it
 * to the end.  mpstat's own clock stamps the entries, so the raw file is
 * exactly mpstat's output, the format LKP keeps.
 *
 * The raw file is mpstat's JSON, usually cut short: the monitor is
 * stopped mid-output.  As LKP does, a text ending in `},\n` loses the
 * comma and one ending in `\t}` is kept, and both get the closing
 * brackets; if that still does not parse, the text is cut back to the
 * last complete statistics entry (`\n\t\t\t\t}`) and closed.  An old
 * text-format mpstat file gives nothing.
 *
 * Each statistics entry adds to one accumulated table, printed whole after
 * each entry (LKP prints its Hash each time): `time` from the host's date
 * and the entry's timestamp as UTC, `cpu.<id>.<field>%` and
 * `node.<id>.<field>%` from cpu-load and node-load, `<name>.<id>.<field>`
 * from other arrays and `<k>.<field>` from nested objects.  At the end
 * max_utilization_pct and max_utilization.seconds, computed as LKP does
 * over every cpu-load and node-load row (quirk Q6 in
 * docs/lkp-compat.md: scaled by the number of rows, kept for LKP's
 * numbers).
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "external/external.h"
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "monitors/sampling.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define MPSTAT_CLOSE "\n\t\t\t]\n\t\t}\n\t]\n}}\n"

/* the accumulated table: keys in first-seen order, each with its text */
struct mp_table {
	struct mon_kv kv;
	char **text; /* parallel to kv.keys */
	size_t alloc;
	double *idle, *iowait; /* every row's idle and iowait, in order */
	size_t nidle, aidle, niowait, aiowait;
};

/* a JSON value as Ruby's to_s prints it */
static void json_text(struct strbuf *sb, const json_t *v)
{
	if (json_is_integer(v))
		strbuf_addf(sb, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		mon_ruby_float(sb, json_real_value(v));
	else if (json_is_string(v))
		strbuf_addstr(sb, json_string_value(v));
	else if (json_is_true(v))
		strbuf_addstr(sb, "true");
	else if (json_is_false(v))
		strbuf_addstr(sb, "false");
}

static void set_text(struct mp_table *t, const char *key, const char *text)
{
	size_t n = t->kv.n, i = mon_kv_slot(&t->kv, key);

	if (t->kv.n > n) {
		ALLOC_GROW(t->text, t->kv.n, t->alloc);
		t->text[i] = NULL;
	}
	free(t->text[i]);
	t->text[i] = xstrdup(text);
}

static void set_json(struct mp_table *t, const char *key, const json_t *v)
{
	struct strbuf sb = STRBUF_INIT;

	json_text(&sb, v);
	set_text(t, key, sb.buf);
	strbuf_release(&sb);
}

/* rows of an array: the first field names the row, the others are its values */
static void array_rows(struct mp_table *t, const char *prefix, const json_t *arr)
{
	struct strbuf key = STRBUF_INIT, id = STRBUF_INIT;
	size_t i;

	for (i = 0; i < json_array_size(arr); i++) {
		const json_t *row = json_array_get(arr, i);
		void *it = json_object_iter((json_t *)row);
		const char *k;
		json_t *v;

		if (!json_is_object(row) || !it)
			continue;
		strbuf_reset(&id);
		json_text(&id, json_object_iter_value(it));
		for (it = json_object_iter_next((json_t *)row, it); it;
		     it = json_object_iter_next((json_t *)row, it)) {
			k = json_object_iter_key(it);
			v = json_object_iter_value(it);
			strbuf_reset(&key);
			if (strstr(prefix, "node-load"))
				strbuf_addf(&key, "node.%s.%s%%", id.buf, k);
			else if (strstr(prefix, "cpu-load"))
				strbuf_addf(&key, "cpu.%s.%s%%", id.buf, k);
			else
				strbuf_addf(&key, "%s.%s.%s", prefix, id.buf, k);
			if (!strcmp(k, "idle")) {
				ALLOC_GROW(t->idle, t->nidle + 1, t->aidle);
				t->idle[t->nidle++] = json_number_value(v);
			} else if (!strcmp(k, "iowait")) {
				ALLOC_GROW(t->iowait, t->niowait + 1, t->aiowait);
				t->iowait[t->niowait++] = json_number_value(v);
			}
			set_json(t, key.buf, v);
		}
	}
	strbuf_release(&key);
	strbuf_release(&id);
}

/* the host's date and an entry's timestamp, read as UTC */
static long long entry_time(const char *date, const char *stamp)
{
	struct tm tm = {0};
	int y = 1970, mo = 1, d = 1, h = 0, mi = 0, s = 0;

	sscanf(date ? date : "", "%d-%d-%d", &y, &mo, &d);
	sscanf(stamp, "%d:%d:%d", &h, &mi, &s);
	/* without S_TIME_FORMAT=ISO mpstat writes 12-hour times */
	if (strstr(stamp, "PM") && h < 12)
		h += 12;
	else if (strstr(stamp, "AM") && h == 12)
		h = 0;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = s;
	return (long long)timegm(&tm);
}

static void entry(struct mp_table *t, const json_t *item, const char *date)
{
	struct strbuf key = STRBUF_INIT;
	const char *k, *k2;
	json_t *v, *v2;

	json_object_foreach((json_t *)item, k, v) {
		if (json_is_array(v)) {
			array_rows(t, k, v);
		} else if (json_is_object(v)) {
			json_object_foreach(v, k2, v2) {
				if (json_is_array(v2)) {
					array_rows(t, k2, v2);
				} else if (json_is_object(v2)) {
					const char *k3;
					json_t *v3;

					json_object_foreach(v2, k3, v3) {
						strbuf_reset(&key);
						strbuf_addf(&key, "%s.%s", k2, k3);
						set_json(t, key.buf, v3);
					}
				} else {
					strbuf_reset(&key);
					strbuf_addf(&key, "%s.%s", k, k2);
					set_json(t, key.buf, v2);
				}
			}
		} else if (!strcmp(k, "timestamp") && json_is_string(v)) {
			strbuf_reset(&key);
			strbuf_addf(&key, "%lld", entry_time(date, json_string_value(v)));
			set_text(t, "time", key.buf);
		}
	}
	strbuf_release(&key);
}

/* mpstat's JSON, repaired as LKP repairs a cut file; NULL when it cannot be */
static json_t *load_repaired(const char *raw, size_t len)
{
	struct strbuf fixed = STRBUF_INIT;
	json_t *root = json_loadb(raw, len, 0, NULL);
	const char *cut;
	size_t i;

	if (root)
		return root;
	strbuf_add(&fixed, raw, len);
	if (len >= 2 && !memcmp(raw + len - 2, ",\n", 2)) {
		strbuf_setlen(&fixed, len - 2);
		strbuf_addstr(&fixed, MPSTAT_CLOSE);
	} else if (len >= 2 && !memcmp(raw + len - 2, "\t}", 2)) {
		strbuf_addstr(&fixed, MPSTAT_CLOSE);
	}
	root = json_loadb(fixed.buf, fixed.len, 0, NULL);
	if (!root) {
		/* cut mid-entry: back to the last complete one */
		for (cut = NULL, i = fixed.len; !cut && i >= 6; i--)
			if (!memcmp(fixed.buf + i - 6, "\n\t\t\t\t}", 6))
				cut = fixed.buf + i;
		if (cut) {
			strbuf_setlen(&fixed, (size_t)(cut - fixed.buf));
			strbuf_addstr(&fixed, MPSTAT_CLOSE);
			root = json_loadb(fixed.buf, fixed.len, 0, NULL);
		}
	}
	strbuf_release(&fixed);
	return root;
}

static struct ext_re re_old_header = {.pattern = "^Linux[[:space:]]+[0-9]+\\.[0-9]+\\.[0-9]+-.* \\(.*\\) \t[0-9]+-[0-9]+-[0-9]+ \t_.*_.*_\t\\([0-9]+ CPU\\)"};

/* LKP's last two lines: the busiest row, scaled by the row count (Q6) */
static void max_util(struct strbuf *out, const struct mp_table *t)
{
	size_t i, best = 0;
	double max = 0;

	if (!t->nidle)
		return;
	for (i = 0; i < t->nidle; i++) {
		double u = 100 - t->idle[i] - (i < t->niowait ? t->iowait[i] : 0);

		if (!i || u > max) {
			max = u;
			best = i;
		}
	}
	strbuf_addstr(out, "max_utilization_pct: ");
	mon_ruby_float(out, max * (double)t->nidle);
	strbuf_addf(out, "\nmax_utilization.seconds: %zu\n", (best + 1) * t->nidle);
}

DECLARE_PARSER(parse_mpstat)
{
	struct strbuf first = STRBUF_INIT;
	struct mp_table t = {0};
	const json_t *host, *stats;
	const char *nl = memchr(raw, '\n', len);
	json_t *root;
	size_t i;

	(void)path;
	(void)err;
	strbuf_add(&first, raw, nl ? (size_t)(nl - raw) : len);
	if (ext_match(&re_old_header, first.buf, NULL, 0)) {
		strbuf_release(&first);
		return 0; /* the text format: LKP skips it too */
	}
	strbuf_release(&first);
	root = load_repaired(raw, len);
	host = json_array_get(json_object_get(json_object_get(root, "sysstat"), "hosts"), 0);
	stats = json_object_get(host, "statistics");
	mon_kv_init(&t.kv);
	for (i = 0; i < json_array_size(stats); i++) {
		size_t k;

		entry(&t, json_array_get(stats, i),
		      json_string_value(json_object_get(host, "date")));
		for (k = 0; k < t.kv.n; k++)
			if (*t.kv.keys[k])
				strbuf_addf(out, "%s: %s\n", t.kv.keys[k], t.text[k]);
	}
	max_util(out, &t);
	for (i = 0; i < t.kv.n; i++)
		free(t.text[i]);
	free(t.text);
	free(t.idle);
	free(t.iowait);
	mon_kv_release(&t.kv);
	json_decref(root);
	return 0;
}

/* ---- sampling */

struct mp_child {
	pid_t pid;
	int fd; /* mpstat's stdout, non-blocking */
};

static int mp_open(struct mon_inst *mi, struct strbuf *why)
{
	struct strbuf bin = STRBUF_INIT, iv = STRBUF_INIT;
	struct mp_child *c;
	int p[2];

	if (!ext_have("mpstat", &bin)) {
		strbuf_addstr(why, "mpstat is not installed (the Debian package sysstat)");
		strbuf_release(&bin);
		return -1;
	}
	/* mpstat counts whole seconds: LKP's 1 s unless the job says more */
	strbuf_addf(&iv, "%.0f", mi->interval >= 1 ? mi->interval : 1);
	if (pipe2(p, O_CLOEXEC) < 0) {
		strbuf_addf(why, "pipe: %s", strerror(errno));
		strbuf_release(&bin);
		strbuf_release(&iv);
		return -1;
	}
	c = xcalloc(1, sizeof(*c));
	c->pid = fork();
	if (c->pid == 0) {
		int null = open("/dev/null", O_RDWR);
		sigset_t none;

		/*
		 * The sampler's thread blocks the signals perfsift handles
		 * (SIGINT, SIGTERM, ...): mpstat would inherit that and never
		 * stop.  It gets the defaults, and dies with perfsift.
		 */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		dup2(p[1], 1);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 2);
		}
		setenv("LC_ALL", "C", 1);
		setenv("S_TIME_FORMAT", "ISO", 1);
		execl(bin.buf, "mpstat", "-P", "ALL", "-o", "JSON", iv.buf, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	strbuf_release(&bin);
	strbuf_release(&iv);
	if (c->pid < 0) {
		strbuf_addf(why, "fork: %s", strerror(errno));
		close(p[0]);
		free(c);
		return -1;
	}
	c->fd = p[0];
	fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_NONBLOCK);
	mi->priv = c;
	return 0;
}

/* what mpstat wrote since the last tick; at stop, all it writes to its end */
static int mp_sample(struct mon_inst *mi, struct strbuf *out, bool final)
{
	struct mp_child *c = mi->priv;
	char buf[8192];
	ssize_t n;

	/* SIGINT: mpstat closes its JSON and exits (as at LKP's post-test) */
	if (final && c->pid > 0)
		kill(c->pid, SIGINT);
	for (;;) {
		n = read(c->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN && final && c->pid > 0) {
			struct pollfd pfd = {c->fd, POLLIN, 0};

			/* its last words, or after 5 s a mpstat that hangs is killed */
			if (poll(&pfd, 1, 5000) == 0)
				kill(c->pid, SIGKILL);
			continue;
		}
		if (n <= 0)
			break;
		strbuf_add(out, buf, (size_t)n);
	}
	if (final && c->pid > 0) {
		while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
			;
		c->pid = 0;
	}
	return 0;
}

static void mp_close(struct mon_inst *mi)
{
	struct mp_child *c = mi->priv;

	if (!c)
		return;
	/* a sampler stopped without its final sample: no mpstat left behind */
	if (c->pid > 0) {
		kill(c->pid, SIGTERM);
		while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	close(c->fd);
	FREE_AND_NULL(mi->priv);
}

/* LKP's default set samples it every second */
const struct monitor_sampling sampling_mpstat = {
	1, true, mp_open, mp_sample, mp_close,
};
