/*
 * external.h: what the external benchmarks (src/external/) share.  An
 * external benchmark is a program from a Debian package (hackbench from
 * rt-tests, stress-ng, fio, perf bench, sysbench) that perfsift runs the
 * way LKP's programs/<name>/run does, with LKP's command line, and whose
 * output it parses into LKP's stat names in C.  Each file here holds one
 * program family: its typed parameters, the command line built from them
 * and its output parser side by side, because LKP's parsers read the
 * parameters back from what the run printed -- the two must stay in step.
 * unixbench, netperf and aim9 (not in Debian main) only have parsers.
 *
 * The run side is a bench_ops (benchmarks/bench.h): prepare() checks the
 * program is installed (else the run fails naming the package to
 * install), run() in the benchmark's child process runs the command --
 * several times where LKP does (hackbench's iterations) -- with its
 * output on the raw file, each command line logged first as LKP's
 * log_cmd does (`YYYY-MM-DD HH:MM:SS cmd args`).
 */
#ifndef PERFSIFT_EXTERNAL_H
#define PERFSIFT_EXTERNAL_H

#include "util/compat.h"
#include <regex.h>
#include "benchmarks/bench.h"

struct strbuf;

/* ---- parsing: the bits of Ruby's semantics LKP's parsers lean on */

/* a POSIX extended regex, compiled on first use and kept (never freed) */
struct ext_re {
	const char *pattern;
	regex_t re;
	bool compiled;
};
/* true when line matches; m[0..n) are the groups (m may be NULL) */
bool ext_match(struct ext_re *re, const char *line, regmatch_t *m, size_t n);
/* group g of the last match, appended to out */
void ext_group(struct strbuf *out, const char *line, const regmatch_t *m);

/* Ruby's String#to_f: the leading decimal number, else 0.0 */
double ext_to_f(const char *s);
/* Ruby's Float#round(digits) (round half away from zero, checked) */
double ext_round(double x, int digits);

/* ---- running */

/*
 * The program cmd on PATH; its full path into path (may be NULL).  The
 * caller's prepare() uses ext_need() instead, which also says what to
 * install.
 */
bool ext_have(const char *cmd, struct strbuf *path);
/*
 * prepare()'s check: 0 when cmd is on PATH, else -1 with err saying
 * which Debian package brings it (`perfsift install JOB` installs it).
 */
int ext_need(const char *cmd, const char *package, struct strbuf *err);
/*
 * In the benchmark's child: log argv as LKP's log_cmd does, then run it
 * with stdout on ours, stderr too when merge_stderr (LKP's `2>&1`), and
 * stdin from the file in (NULL: /dev/null).  The exit status as a shell
 * gives it (128+N for a signal).
 */
int ext_run(char *const argv[], const char *in, bool merge_stderr);
/* print LKP's log_cmd line for argv (also used for the commands' text) */
void ext_log_cmd(char *const argv[]);

/* a growable argv of owned strings */
struct ext_argv {
	char **v;
	size_t n, alloc;
};
void ext_argv_push(struct ext_argv *a, const char *s);
void ext_argv_pushf(struct ext_argv *a, const char *fmt, ...) PRINTF_LIKE(2, 3);
void ext_argv_release(struct ext_argv *a);
/*
 * run() and cleanup() of a benchmark whose prepare() left a struct
 * ext_argv in ctx->priv: one logged command, stderr apart
 */
int ext_argv_run(struct bench_ctx *ctx);
void ext_argv_cleanup(struct bench_ctx *ctx);
/* `KEY: V` with V as Ruby prints a float */
void ext_put_float(struct strbuf *out, const char *key, double v);

/* the built-in runners of the table (programs.c) */
extern const struct bench_ops bench_hackbench, bench_stress_ng, bench_fio;
extern const struct bench_ops bench_perf_sched_messaging, bench_perf_sched_pipe;
extern const struct bench_ops bench_perf_futex, bench_perf_mem;
extern const struct bench_ops bench_sysbench_cpu, bench_sysbench_memory;
extern const struct bench_ops bench_sysbench_threads, bench_sysbench_mutex;

#endif
