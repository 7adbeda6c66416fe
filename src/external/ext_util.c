/*
 * ext_util.c: what the external benchmarks share (external.h): a few of
 * Ruby's number rules that decide LKP's printed digits, regex matching,
 * and running a logged command in the benchmark's child.
 */
#include "util/compat.h"
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "external/external.h"
#include "monitors/monutil.h"
#include "util/spawn.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/xalloc.h"

/*
 * A pattern is compiled on its first use and kept: a parser matches the
 * same few patterns against every line of a raw file, and most patterns
 * of most parsers are never needed in a given run.
 */
bool ext_match(struct ext_re *re, const char *line, regmatch_t *m, size_t n)
{
	if (!re->compiled) {
		/* the patterns are the program's own literals: a bad one is a bug */
		if (regcomp(&re->re, re->pattern, REG_EXTENDED))
			BUG("bad regex '%s'", re->pattern);
		re->compiled = true;
	}
	return !regexec(&re->re, line, m ? n : 0, m, 0);
}

void ext_group(struct strbuf *out, const char *line, const regmatch_t *m)
{
	if (m->rm_so >= 0)
		strbuf_add(out, line + m->rm_so, (size_t)(m->rm_eo - m->rm_so));
}

double ext_to_f(const char *s)
{
	const char *p = s;

	/*
	 * Ruby's to_f reads a decimal number and nothing else: strtod would
	 * also take hex, "inf" and "nan", which Ruby reads as 0.0.
	 */
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '+' || *p == '-')
		p++;
	if (!isdigit((unsigned char)*p) &&
	    !(*p == '.' && isdigit((unsigned char)p[1])))
		return 0.0;
	if (*p == '0' && (p[1] == 'x' || p[1] == 'X'))
		return 0.0;
	return strtod(s, NULL);
}

double ext_round(double x, int digits)
{
	double s = pow(10, digits), f = round(x * s);

	/*
	 * Ruby rounds half away from zero on x * 10^digits and then checks the
	 * neighbour, since x * s may have lost the half: 2.675 is really
	 * 2.67499..., which Ruby (like printf) rounds down.
	 */
	if (!isfinite(x) || digits > 15)
		return x;
	if (x > 0 && (f + 0.5) / s <= x)
		f += 1;
	else if (x < 0 && (f - 0.5) / s >= x)
		f -= 1;
	return f / s;
}

/*
 * cmd on PATH, as execvp() would find it, without running it: `run`
 * refuses a job whose program is missing before the monitors start,
 * and `install` names the package instead of a failed exec.
 */
bool ext_have(const char *cmd, struct strbuf *path)
{
	const char *env = getenv("PATH"), *p, *end;
	struct strbuf sb = STRBUF_INIT;
	bool found = false;

	if (strchr(cmd, '/')) {
		found = !access(cmd, X_OK);
		if (found && path)
			strbuf_addstr(path, cmd);
		return found;
	}
	for (p = env ? env : "/usr/bin:/bin"; !found && *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		strbuf_reset(&sb);
		strbuf_add(&sb, p, (size_t)(end - p));
		strbuf_addf(&sb, "/%s", cmd);
		found = !access(sb.buf, X_OK);
	}
	if (found && path)
		strbuf_addbuf(path, &sb);
	strbuf_release(&sb);
	return found;
}

int ext_need(const char *cmd, const char *package, struct strbuf *err)
{
	if (ext_have(cmd, NULL))
		return 0;
	strbuf_addf(err, "'%s' is not installed: install the Debian package %s "
		    "(`perfsift install JOB` does, as root)", cmd, package);
	return -1;
}

/*
 * (The line is part of the raw file, as in LKP's: whoever reads the raw
 * output sees which command made it and when it started.)
 */
void ext_log_cmd(char *const argv[])
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	size_t i;

	/* LKP's log_cmd: local time, then the words as the shell got them */
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &tm);
	printf("%s", stamp);
	for (i = 0; argv[i]; i++)
		printf(" %s", argv[i]);
	printf("\n");
	fflush(stdout);
}

int ext_run(char *const argv[], const char *in, bool merge_stderr)
{
	struct strbuf err = STRBUF_INIT;
	struct spawn_cmd c;
	int st;

	ext_log_cmd(argv);
	spawn_init(&c);
	c.argv = (const char *const *)argv;
	c.in.how = in ? SPAWN_FILE : SPAWN_NULL;
	c.in.path = in;
	if (merge_stderr)
		c.err.how = SPAWN_TO_STDOUT; /* LKP's 2>&1: warnings are in the raw file */
	st = spawn_run(&c, &err);
	spawn_release(&c);
	if (st < 0) {
		fprintf(stderr, "cannot run %s: %s\n", argv[0], err.buf);
		st = 126;
	}
	strbuf_release(&err);
	return st;
}

void ext_argv_push(struct ext_argv *a, const char *s)
{
	ALLOC_GROW(a->v, a->n + 2, a->alloc);
	a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

void ext_argv_pushf(struct ext_argv *a, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(a->v, a->n + 2, a->alloc);
	a->v[a->n++] = strbuf_detach(&sb, NULL);
	a->v[a->n] = NULL;
}

void ext_argv_release(struct ext_argv *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	memset(a, 0, sizeof(*a));
}

void ext_put_float(struct strbuf *out, const char *key, double v)
{
	strbuf_addf(out, "%s: ", key);
	mon_ruby_float(out, v);
	strbuf_addch(out, '\n');
}

int ext_argv_run(struct bench_ctx *ctx)
{
	return ext_run(((struct ext_argv *)ctx->priv)->v, NULL, false);
}

void ext_argv_cleanup(struct bench_ctx *ctx)
{
	if (ctx->priv) {
		ext_argv_release(ctx->priv);
		free(ctx->priv);
	}
	ctx->priv = NULL;
}
