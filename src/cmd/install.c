/*
 * install.c: `perfsift install JOB.yaml` -- LKP's `lkp install` for
 * perfsift: check what the job's atomic jobs need on this machine (root
 * for kernel knobs, the /proc and /sys files of its setup programs and
 * monitors, the Debian packages its external benchmark names under
 * `packages:`), install missing packages with apt-get when root, and say
 * what cannot be had here and why.  Exit 0 when the job can run.
 */
#include "util/compat.h"
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "benchmarks/bench.h"
#include "builtin.h"
#include "job/job.h"
#include "job/lkp_pkg.h"
#include "job/plugins.h"
#include "job/programs.h"
#include "run/runner.h"
#include "setup/setup.h"
#include "job/split.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/xalloc.h"

static const char install_usage[] =
	"usage: perfsift install [--lkp-src DIR] JOB.yaml\n"
	"\n"
	"Check what the job needs on this machine -- root where it sets kernel\n"
	"knobs, the /proc and /sys files of its setup programs and monitors, the\n"
	"Debian packages under `packages:` -- and install missing packages with\n"
	"apt-get when run as root.  Prints what cannot be had here and why;\n"
	"exit status 0 when the job can run.  A plug-in (docs/programs.md) needs\n"
	"nothing from apt but Ruby, when its parse script is a Ruby one.\n"
	"\n"
	"  --lkp-src DIR   an LKP checkout whose programs/ are plug-ins (else $LKP_SRC)\n"
	"  -h, --help      this text\n";

/* the file (under the sysroot) a program needs, and what is lost without it */
struct need {
	const char *prog;
	const char *path;
	bool fatal;       /* without it the run cannot start */
	const char *why;  /* what happens without it */
};

static const struct need needs[] = {
	{"transparent_hugepage", "/sys/kernel/mm/transparent_hugepage/enabled", true,
	 "the kernel has no transparent huge pages"},
	{"cpufreq_governor", "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", false,
	 "no cpufreq driver: the governor is not set, the run records that and goes on"},
	{"sysctl", "/proc/sys", true, "no /proc/sys"},
	{"drop_caches", "/proc/sys/vm/drop_caches", true, "no /proc/sys/vm/drop_caches"},
	{"vmstat", "/proc/vmstat", false, "the monitor is skipped"},
	{"proc-vmstat", "/proc/vmstat", false, "the monitor is skipped"},
	{"meminfo", "/proc/meminfo", false, "the monitor is skipped"},
	{"slabinfo", "/proc/slabinfo", false, "the monitor is skipped"},
	{"buddyinfo", "/proc/buddyinfo", false, "the monitor is skipped"},
	{"pagetypeinfo", "/proc/pagetypeinfo", false, "the monitor is skipped"},
	{"diskstats", "/proc/diskstats", false, "the monitor is skipped"},
	{"interrupts", "/proc/interrupts", false, "the monitor is skipped"},
	{"softirqs", "/proc/softirqs", false, "the monitor is skipped"},
	{"proc-stat", "/proc/stat", false, "the monitor is skipped"},
	{"mpstat", "/proc/stat", false, "the monitor is skipped"},
	{"iostat", "/proc/diskstats", false, "the monitor is skipped"},
	{"numa-meminfo", "/sys/devices/system/node/node0/meminfo", false, "the monitor is skipped"},
	{"numa-vmstat", "/sys/devices/system/node/node0/vmstat", false, "the monitor is skipped"},
	{"numa-numastat", "/sys/devices/system/node/node0/numastat", false, "the monitor is skipped"},
	{"cpuidle", "/sys/devices/system/cpu/cpu0/cpuidle", false,
	 "no cpuidle driver: the monitor is skipped"},
	{"sched_debug", "/sys/kernel/debug/sched/debug", false,
	 "debugfs not mounted (or no root): the monitor is skipped"},
	{"turbostat", "/dev/cpu/0/msr", false, "no MSR device: the monitor is skipped"},
	{"perf-stat", "/proc/sys/kernel/perf_event_paranoid", false,
	 "no perf events: the monitor is skipped"},
	{"perf-profile", "/proc/sys/kernel/perf_event_paranoid", false,
	 "no perf events: the monitor is skipped"},
};

struct check {
	const char *sysroot;
	bool root;
	int problems;    /* things that stop the job from running */
	struct strbuf missing_pkgs;
	struct strbuf said; /* "\nline\n" of every line printed */
	struct strbuf commands; /* " word word ": mytest commands to look up */
	/* LKP plug-ins whose $BENCHMARK_ROOT is looked at once packages are in */
	const struct program **lkp_progs;
	size_t nr_lkp, alloc_lkp;
};

/*
 * Print a line once: a job split into many atomic jobs needs the same
 * things many times.  Returns true when the line is new.
 */
static bool PRINTF_LIKE(2, 3) say(struct check *c, const char *fmt, ...)
{
	struct strbuf line = STRBUF_INIT;
	va_list ap;
	bool is_new;

	strbuf_addch(&line, '\n');
	va_start(ap, fmt);
	strbuf_vaddf(&line, fmt, ap);
	va_end(ap);
	strbuf_addch(&line, '\n');
	is_new = !strstr(c->said.buf, line.buf);
	if (is_new) {
		fputs(line.buf + 1, stdout);
		strbuf_addbuf(&c->said, &line);
	}
	strbuf_release(&line);
	return is_new;
}

/*
 * Run a helper (apt-get, dpkg-query) through the runner, the same code
 * that runs benchmarks, so its exit and signals are read one way; its
 * exit status, or -1 when it did not start or was killed.
 */
static int run_quiet(char *const *argv, char **env, bool show_output)
{
	struct runner_cmd cmd = {0};
	struct runner_result res;
	struct strbuf err = STRBUF_INIT;
	int ret = -1;

	cmd.argv = argv;
	cmd.env = env;
	if (!show_output) {
		cmd.stdout_path = "/dev/null";
		cmd.stderr_path = "/dev/null";
	}
	if (runner_run(&cmd, &res, &err) < 0)
		error("%s", err.buf);
	else if (!res.stop_signal && WIFEXITED(res.wait_status))
		ret = WEXITSTATUS(res.wait_status);
	strbuf_release(&err);
	return ret;
}

/*
 * apt-get install, run directly with one argument per package: no shell
 * ever sees a name from the job (job.c has checked each one against
 * Debian's name syntax, too).
 */
static int apt_get_install(const char *pkgs)
{
	static char *env[] = {(char *)"DEBIAN_FRONTEND=noninteractive", NULL};
	static const char *const head[] = {"apt-get", "install", "-y",
					   "--no-install-recommends"};
	char **argv, *words = xstrdup(pkgs), *save = NULL, *w;
	size_t n = 0, i;
	int ret;

	argv = xcalloc(ARRAY_SIZE(head) + strlen(pkgs) + 1, sizeof(*argv));
	for (i = 0; i < ARRAY_SIZE(head); i++)
		argv[n++] = (char *)head[i];
	for (w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save))
		argv[n++] = w;
	argv[n] = NULL;
	ret = run_quiet(argv, env, true);
	free(argv);
	free(words);
	return ret;
}

/*
 * Whether dpkg says the package is installed ("ii": wanted install, is
 * installed).  dpkg-query's output goes to a private temporary file, as
 * the runner writes a child's output to files, and only its first bytes
 * are read back.
 */
static bool package_installed(const char *pkg)
{
	char *argv[] = {(char *)"dpkg-query", (char *)"-W",
			(char *)"-f=${db:Status-Abbrev}", (char *)pkg, NULL};
	struct strbuf out = STRBUF_INIT;
	char tmpl[] = "/tmp/perfsift-dpkg.XXXXXX";
	struct runner_cmd cmd = {0};
	struct runner_result res;
	bool ok = false;
	int fd = mkstemp(tmpl);

	if (fd < 0)
		return false;
	close(fd);
	cmd.argv = argv;
	cmd.stdout_path = tmpl;
	cmd.stderr_path = "/dev/null";
	if (!runner_run(&cmd, &res, &out) && WIFEXITED(res.wait_status) &&
	    !WEXITSTATUS(res.wait_status)) {
		strbuf_reset(&out);
		if (!strbuf_read_file(&out, tmpl, 4096) && !strncmp(out.buf, "ii", 2))
			ok = true;
	}
	unlink(tmpl);
	strbuf_release(&out);
	return ok;
}

/*
 * One file a program needs, looked for under sysroot (the tests give a
 * fake one).  A fatal need missing is a problem that fails install; the
 * others only warn, since the program can run without them, less well.
 */
static void check_file(struct check *c, const struct need *n)
{
	struct strbuf p = STRBUF_INIT;

	path_join(&p, c->sysroot, n->path);
	if (access(p.buf, F_OK) == 0) {
		say(c, "ok       %s: %s", n->prog, n->path);
	} else if (n->fatal) {
		if (say(c, "missing  %s: %s: %s", n->prog, n->path, n->why))
			c->problems++;
	} else {
		say(c, "warning  %s: %s: %s", n->prog, n->path, n->why);
	}
	strbuf_release(&p);
}

/* a package the job needs (prog's, or under packages: when prog is NULL):
 * ok, or to install -- once, even when several atomic jobs name it */
static void want_package(struct check *c, const char *prog, const char *pkg)
{
	struct strbuf word = STRBUF_INIT;

	if (package_installed(pkg)) {
		if (prog)
			say(c, "ok       %s: package %s", prog, pkg);
		else
			say(c, "ok       package %s", pkg);
		return;
	}
	strbuf_addf(&word, " %s ", pkg);
	if (!strstr(c->missing_pkgs.buf, word.buf)) {
		if (!c->missing_pkgs.len)
			strbuf_addch(&c->missing_pkgs, ' ');
		strbuf_addf(&c->missing_pkgs, "%s ", pkg);
	}
	strbuf_release(&word);
}

/*
 * The job's `packages:`: each installed one is reported, the missing ones
 * are gathered (space-separated, each once) for one apt-get at the end:
 * one dependency resolution and one download instead of one per job.
 */
static void check_packages(struct check *c, const struct job *job)
{
	const struct jnode *pk = jnode_get(job->root, "packages");
	size_t i;

	if (!pk)
		return;
	for (i = 0; i < (pk->type == JNODE_SEQ ? pk->n : 1); i++) {
		const struct jnode *v = pk->type == JNODE_SEQ ? pk->kids[i] : pk;

		if (v->type == JNODE_SCALAR && v->text && *v->text)
			want_package(c, NULL, v->text);
	}
}

static void note_command(struct check *c, const struct job *job);
static void check_lkp_plugin(struct check *c, const struct program *p);

/*
 * A plug-in (job/plugins.h) brings its own run script: apt has nothing
 * for it, except Ruby when its parse script is a Ruby one (LKP's are).
 */
static void check_plugin(struct check *c, const struct program *p)
{
	const char *run = plugin_daemon_script(p) ? plugin_daemon_script(p) :
						    plugin_run_script(p);

	if (access(run, X_OK)) {
		if (say(c, "missing  %s: the plug-in's run script %s is %s", p->name, run,
			access(run, F_OK) ? "missing" : "not executable (chmod +x it)"))
			c->problems++;
		return;
	}
	if (plugin_lkp_checkout(p))
		check_lkp_plugin(c, p);
	if (!plugin_parse_needs_ruby(p)) {
		if (!plugin_lkp_checkout(p))
			say(c, "ok       %s: a plug-in (%s): nothing to install", p->name,
			    plugin_dir(p));
		return;
	}
	say(c, "ok       %s: a plug-in (%s); its parse script is a Ruby one: "
	    "it needs the package ruby", p->name, plugin_dir(p));
	want_package(c, p->name, "ruby");
	/* LKP's lib/statistics.rb, which its parse scripts require, needs ActiveSupport */
	if (plugin_lkp_checkout(p))
		want_package(c, p->name, "ruby-activesupport");
}

/*
 * A program of an LKP checkout: the Debian packages LKP's lib/install.sh
 * would install for it (lkp_pkg.h), and the Debian package that stands
 * in for what LKP builds from pkg/PKGBUILD, put in place once installed
 * (check_lkp_benchmarks).
 */
static void check_lkp_plugin(struct check *c, const struct program *p)
{
	struct strbuf pkgs = STRBUF_INIT, bad = STRBUF_INIT;
	const char *w, *e;
	size_t i;

	lkp_pkg_depends(plugin_lkp_checkout(p), p->name, &pkgs, &bad);
	if (lkp_debian_substitute(p->name)) {
		strbuf_addf(&pkgs, "%s%s ", pkgs.len ? "" : " ", lkp_debian_substitute(p->name));
	}
	say(c, "ok       %s: a program of the LKP checkout %s; its packages (pkg/depends, "
	    "named for Debian 12):%s", p->name, plugin_lkp_checkout(p),
	    pkgs.len ? pkgs.buf : " none");
	for (w = pkgs.buf; w && *w; w = e) {
		char *name;

		while (*w == ' ')
			w++;
		e = strchrnul(w, ' ');
		if (e == w)
			break;
		name = xstrndup(w, (size_t)(e - w));
		want_package(c, p->name, name);
		free(name);
	}
	if (bad.len)
		say(c, "warning  %s: not Debian package names, not installed:%s", p->name,
		    bad.buf);
	for (i = 0; i < c->nr_lkp; i++)
		if (c->lkp_progs[i] == p)
			break;
	if (i == c->nr_lkp) {
		ALLOC_GROW(c->lkp_progs, c->nr_lkp + 1, c->alloc_lkp);
		c->lkp_progs[c->nr_lkp++] = p;
	}
	strbuf_release(&pkgs);
	strbuf_release(&bad);
}

/*
 * Once the packages are in: Debian's stand-in put where the run script
 * looks ($BENCHMARK_ROOT/<p>), then what the script needs there looked
 * for as it looks -- never "can run" while the tool is absent.
 */
static void check_lkp_benchmarks(struct check *c)
{
	size_t i;

	for (i = 0; i < c->nr_lkp; i++) {
		const struct program *p = c->lkp_progs[i];
		struct strbuf why = STRBUF_INIT, done = STRBUF_INIT;

		if (lkp_debian_substitute(p->name) && c->root &&
		    package_installed(lkp_debian_substitute(p->name))) {
			if (lkp_place_substitute(p->name, &done, &why) < 0) {
				if (say(c, "missing  %s: %s", p->name, why.buf))
					c->problems++;
			} else if (done.len) {
				say(c, "install  %s: Debian's %s in %s, where LKP's run script looks",
				    p->name, lkp_debian_substitute(p->name), done.buf);
			}
		}
		strbuf_reset(&why);
		if (!lkp_bench_ready(plugin_dir(p), p->name, plugin_run_script(p), &why)) {
			if (say(c, "missing  %s: %s", p->name, why.buf))
				c->problems++;
		}
		strbuf_release(&why);
		strbuf_release(&done);
	}
}


static void check_job(struct check *c, const struct job *job)
{
	const struct jnode *root = job->root;
	bool knobs = false, bench = false;
	size_t i, j;

	for (i = 0; i < root->n; i++) {
		const char *key = root->keys[i];
		const struct program *p = program_find(key);

		if (p && p->setup)
			knobs = true;
		for (j = 0; j < ARRAY_SIZE(needs); j++)
			if (!strcmp(needs[j].prog, key))
				check_file(c, &needs[j]);
		if (p && p->kind == PROG_TEST) {
			bench = true;
			if (p->plugin_dir)
				check_plugin(c, p);
			else if (!strcmp(key, "mytest"))
				say(c, "ok       mytest: an external command");
			else if (p->package)
				want_package(c, key, p->package);
			else if (p->parse_only && say(c, "missing  %s: not in Debian's main archive: "
						      "perfsift only parses its output", key))
				c->problems++;
			else if (p->parse_only)
				;
			else if (bench_find(key))
				say(c, "ok       %s: built in", key);
			else if (say(c, "missing  %s: not a built-in benchmark of this perfsift",
				     key))
				c->problems++;
		}
	}
	if (!bench && say(c, "missing  the job names no benchmark"))
		c->problems++;
	if (knobs && !c->root) {
		if (say(c, "missing  root: the job sets kernel knobs (run perfsift as root)"))
			c->problems++;
	} else if (knobs) {
		say(c, "ok       root, for the job's kernel knobs");
	}
	check_packages(c, job);
	note_command(c, job);
}

/*
 * The first word of a mytest command (after VAR=value assignments): it
 * is looked up once the packages are in, since a package may bring it.
 */
static void note_command(struct check *c, const struct job *job)
{
	const struct jnode *node = jnode_get(job->root, "mytest");
	const char *cmd = job_get_opt(job, "mytest", "cmdline");
	struct strbuf word = STRBUF_INIT;
	const char *p, *end = NULL;

	if (!cmd && node && node->type == JNODE_SCALAR)
		cmd = node->text;
	for (p = cmd; p && *p;) {
		while (*p == ' ' || *p == '\t')
			p++;
		for (end = p; *end && *end != ' ' && *end != '\t'; end++)
			;
		if (end == p || !memchr(p, '=', (size_t)(end - p)) ||
		    memchr(p, '\'', (size_t)(end - p)) || memchr(p, '"', (size_t)(end - p)))
			break;
		p = end;
	}
	if (!p || !*p || !end)
		return;
	strbuf_addf(&word, " %.*s ", (int)(end - p), p);
	if (!strstr(c->commands.buf, word.buf)) {
		if (!c->commands.len)
			strbuf_addch(&c->commands, ' ');
		strbuf_add(&c->commands, word.buf + 1, word.len - 1);
	}
	strbuf_release(&word);
}

/* is each noted command a builtin or on PATH?  (the shell decides) */
static void check_commands(struct check *c)
{
	const char *p = c->commands.buf, *end;

	for (;;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		end = strchrnul(p, ' ');
		{
			char *w = xstrndup(p, (size_t)(end - p));
			char *sh[] = {(char *)"/bin/sh", (char *)"-c",
				      (char *)"command -v \"$1\"", (char *)"sh", w, NULL};

			if (run_quiet(sh, NULL, false) == 0)
				say(c, "ok       mytest: command '%s'", w);
			else if (say(c, "missing  mytest: command '%s' is neither a shell builtin nor on PATH", w))
				c->problems++;
			free(w);
		}
		p = end;
	}
}

int cmd_install(int argc, char **argv, struct options *opts)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"lkp-src", required_argument, NULL, 'L'},
		{NULL, 0, NULL, 0},
	};
	struct check c = {0};
	struct strbuf err = STRBUF_INIT;
	struct job **jobs = NULL, **parts = NULL;
	size_t njobs = 0, nparts = 0, i, j;
	const char *env;
	int ch, status = EXIT_OK;

	(void)opts;
	while ((ch = cmd_getopt(argc, argv, "h", longopts)) != -1) {
		if (ch == 'L') {
			plugin_set_lkp_src(optarg);
			continue;
		}
		if (ch == 'h')
			return cmd_usage(install_usage, false);
		return cmd_usage(install_usage, true);
	}
	if (optind + 1 != argc)
		return cmd_usage(install_usage, true);
	if (job_load_file(argv[optind], &jobs, &njobs, &err) < 0) {
		note("%s", err.buf);
		strbuf_release(&err);
		return EXIT_USAGE;
	}
	env = getenv("PERFSIFT_SYSROOT");
	c.sysroot = env && *env ? env : "/";
	c.root = geteuid() == 0;
	strbuf_init(&c.missing_pkgs, 0);
	strbuf_init(&c.said, 0);
	strbuf_init(&c.commands, 0);
	runner_block_signals();
	for (i = 0; i < njobs && status == EXIT_OK; i++) {
		if (split_job(jobs[i], &parts, &nparts, &err) < 0) {
			note("%s", err.buf);
			status = EXIT_USAGE;
			break;
		}
		for (j = 0; j < nparts; j++)
			check_job(&c, parts[j]);
		job_free_all(parts, nparts);
	}
	if (status == EXIT_OK && c.missing_pkgs.len) {
		if (!c.root) {
			printf("missing  packages:%s(not root: cannot install them; "
			       "run `perfsift install` as root)\n", c.missing_pkgs.buf);
			c.problems++;
		} else {
			printf("install  apt-get install%s\n", c.missing_pkgs.buf);
			fflush(stdout);
			if (apt_get_install(c.missing_pkgs.buf) != 0) {
				printf("missing  packages:%s(apt-get failed)\n",
				       c.missing_pkgs.buf);
				c.problems++;
			}
		}
	}
	if (status == EXIT_OK) {
		check_lkp_benchmarks(&c);
		check_commands(&c);
	}
	if (status == EXIT_OK && c.problems) {
		error("the job cannot run here: %d need%s not met", c.problems,
		      c.problems == 1 ? "" : "s");
		status = EXIT_RUNTIME;
	} else if (status == EXIT_OK) {
		printf("the job can run here\n");
	}
	job_free_all(jobs, njobs);
	strbuf_release(&c.missing_pkgs);
	strbuf_release(&c.said);
	strbuf_release(&c.commands);
	free(c.lkp_progs);
	strbuf_release(&err);
	return status;
}
