/*
 * lkp_pkg.c: what an LKP program needs on this Debian machine (lkp_pkg.h)
 * -- the packages LKP's lib/install.sh would install for it (its
 * pkg/depends, mapped to Debian's names by the checkout's
 * distro/adaptation/debian/ files), whether the tool LKP builds from
 * pkg/PKGBUILD into $BENCHMARK_ROOT is there, and, where Debian ships
 * that tool, putting Debian's where the run script looks for it.
 */
#include "util/compat.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "external/external.h"
#include "job/job.h"
#include "job/lkp_meta.h"
#include "job/lkp_pkg.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ----------------------------------------------------- pkg/depends */

/* add word to the space-separated list (" a b "), once */
static void add_word(struct strbuf *list, const char *w, size_t len)
{
	struct strbuf key = STRBUF_INIT;

	strbuf_addch(&key, ' ');
	strbuf_add(&key, w, len);
	strbuf_addch(&key, ' ');
	if (!list->len)
		strbuf_addch(list, ' ');
	if (!strstr(list->buf, key.buf)) {
		strbuf_add(list, w, len);
		strbuf_addch(list, ' ');
	}
	strbuf_release(&key);
}

/*
 * A plug-in's text file (a package list, its run script), at most 1 MiB:
 * a regular file only, so a FIFO in its place never blocks (L14).  0 or
 * -1, the reason dropped: the callers treat a missing file as empty.
 */
static int read_plugin_file(struct strbuf *text, const char *path)
{
	struct strbuf err = STRBUF_INIT;
	int ret = read_regular_file(text, path, 1 << 20, &err);

	strbuf_release(&err);
	return ret;
}

/*
 * LKP's adapt_package: the first line `NAME:` of the file.  1 with the
 * Debian names in out (none: LKP drops the package on Debian), 0 when
 * the file does not name it.
 */
static int adapt_in(const char *file, const char *name, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT;
	size_t n = strlen(name);
	const char *line;
	int found = 0;

	if (read_plugin_file(&text, file) < 0) {
		strbuf_release(&text);
		return 0;
	}
	for (line = text.buf; *line && !found; line = strchrnul(line, '\n'), line += !!*line) {
		const char *end = strchrnul(line, '\n'), *v;

		if (strncmp(line, name, n) || line[n] != ':')
			continue;
		found = 1;
		v = line + n + 1;
		if (*v == ':') { /* NAME:: the same name */
			strbuf_addstr(out, name);
			break;
		}
		strbuf_add(out, v, (size_t)(end - v));
		strbuf_trim(out);
	}
	strbuf_release(&text);
	return found;
}

/* one generic name as LKP maps it for Debian 12, into list */
static void adapt(const char *lkp, const char *name, struct strbuf *list,
		  struct strbuf *bad)
{
	static const char *const files[] = {"distro/adaptation/debian/12",
					    "distro/adaptation/debian/default"};
	struct strbuf path = STRBUF_INIT, out = STRBUF_INIT;
	const char *p, *e;
	size_t i;
	int found = 0;

	for (i = 0; i < ARRAY_SIZE(files) && !found; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", lkp, files[i]);
		found = adapt_in(path.buf, name, &out);
	}
	if (!found)
		strbuf_addstr(&out, name);
	for (p = out.buf; *p; p = e) {
		char *w;

		while (isspace((unsigned char)*p))
			p++;
		for (e = p; *e && !isspace((unsigned char)*e); e++)
			;
		if (e == p)
			break;
		w = xstrndup(p, (size_t)(e - p));
		if (debian_package_name(w))
			add_word(list, w, strlen(w));
		else
			add_word(bad, w, strlen(w));
		free(w);
	}
	strbuf_release(&path);
	strbuf_release(&out);
}

/*
 * One depends file, as lib/install.sh reads it: `#` comments, names
 * split on blanks, `NAME (ARCH)` only for that architecture, and (what
 * perfsift does not keep) `=VERSION` and `/REPOSITORY` dropped: apt-get
 * is given the name alone, as for every other distribution LKP knows.
 */
static void read_depends(const char *lkp, const char *file, struct strbuf *list,
			 struct strbuf *bad)
{
	struct strbuf text = STRBUF_INIT;
	struct utsname u;
	char *p, *save = NULL, *w, *prev = NULL;
	const char *arch = uname(&u) ? "x86_64" : u.machine;

	if (read_plugin_file(&text, file) < 0) {
		strbuf_release(&text);
		return;
	}
	for (p = text.buf; *p; p++) /* comments off, line by line */
		if (*p == '#')
			while (*p && *p != '\n')
				*p++ = ' ';
	for (w = strtok_r(text.buf, " \t\n", &save);; w = strtok_r(NULL, " \t\n", &save)) {
		/* a (ARCH) after a name: it decides the name before it */
		if (w && *w == '(') {
			if (prev && strncmp(w + 1, arch, strlen(arch)))
				prev = NULL;
			continue;
		}
		if (prev) {
			prev[strcspn(prev, "=/")] = '\0';
			if (*prev)
				adapt(lkp, prev, list, bad);
		}
		if (!w)
			break;
		prev = w;
	}
	strbuf_release(&text);
}

void lkp_pkg_depends(const char *lkp, const char *prog, struct strbuf *pkgs,
		     struct strbuf *bad)
{
	struct strbuf f = STRBUF_INIT;

	/* get_dependency_file: distro/depends/<p> first, else programs/<p>/pkg/depends */
	strbuf_addf(&f, "%s/distro/depends/%s", lkp, prog);
	if (!file_exists(f.buf)) {
		strbuf_reset(&f);
		strbuf_addf(&f, "%s/programs/%s/pkg/depends", lkp, prog);
	}
	read_depends(lkp, f.buf, pkgs, bad);
	strbuf_release(&f);
}

/* ------------------------------------------- what LKP builds from source */

/*
 * The tools LKP builds from pkg/PKGBUILD into $BENCHMARK_ROOT/<p> that
 * Debian 12 ships, and how its files stand in: each entry a path under
 * $BENCHMARK_ROOT/<p> and either a symbolic link's target or a script.
 */
struct placed {
	const char *path, *link, *script;
};

struct substitute {
	const char *prog, *package;
	struct placed files[4];
};

/*
 * dbench: LKP's run script runs `dbench $nr_threads -c
 * loadfiles/client.load` in $BENCHMARK_ROOT/dbench, with no -t, so its
 * runs last dbench's default 600 s whatever the job's runtime.  The
 * stand-in passes the job's runtime as -t, which LKP's job files mean
 * by it (docs/programs.md says where this differs from LKP).
 */
static const struct substitute substitutes[] = {
	{"dbench", "dbench", {
		{"dbench", NULL,
		 "#!/bin/sh\n"
		 "# perfsift install: Debian's dbench where LKP's run script looks for\n"
		 "# the one LKP builds; the job's runtime (seconds) becomes -t\n"
		 "exec /usr/bin/dbench ${runtime:+-t \"$runtime\"} \"$@\"\n"},
		{"loadfiles/client.load", "/usr/share/dbench/client.txt", NULL},
		{NULL, NULL, NULL},
	}},
	/* one binary each, where the run (and its server's daemon) looks */
	{"cyclictest", "rt-tests", {{"cyclictest", "/usr/bin/cyclictest", NULL}, {NULL, NULL, NULL}}},
	{"nuttcp", "nuttcp", {{"nuttcp", "/usr/bin/nuttcp", NULL}, {NULL, NULL, NULL}}},
	{"openssl-speed", "openssl", {{"apps/openssl", "/usr/bin/openssl", NULL}, {NULL, NULL, NULL}}},
	{"qperf", "qperf", {{"qperf", "/usr/bin/qperf", NULL}, {NULL, NULL, NULL}}},
	{"sockperf", "sockperf", {{"sockperf", "/usr/bin/sockperf", NULL}, {NULL, NULL, NULL}}},
	/* tbench and its server (tbench-server's daemon) come with dbench */
	{"tbench", "dbench", {
		{"tbench", "/usr/bin/tbench", NULL},
		{"tbench_srv", "/usr/bin/tbench_srv", NULL},
		{"share/client.txt", "/usr/share/dbench/client.txt", NULL},
		{NULL, NULL, NULL},
	}},
};

static const struct substitute *substitute_of(const char *prog)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(substitutes); i++)
		if (!strcmp(substitutes[i].prog, prog))
			return &substitutes[i];
	return NULL;
}

const char *lkp_debian_substitute(const char *prog)
{
	const struct substitute *s = substitute_of(prog);

	return s ? s->package : NULL;
}

/*
 * What the run script asks of $BENCHMARK_ROOT (lib/run.sh):
 * prepare_exec_path looks for the tool itself, cd_benchmark and the rest
 * for the directory.  0: nothing.
 */
enum bench_need { NEED_NONE, NEED_DIR, NEED_EXEC };

static enum bench_need bench_need(const char *run)
{
	struct strbuf text = STRBUF_INIT;
	enum bench_need need = NEED_NONE;

	if (read_plugin_file(&text, run) >= 0) {
		if (strstr(text.buf, "prepare_exec_path"))
			need = NEED_EXEC;
		else if (strstr(text.buf, "cd_benchmark") ||
			 strstr(text.buf, "get_benchmark_path") ||
			 strstr(text.buf, "cd $BENCHMARK_ROOT") ||
			 strstr(text.buf, "cd \"$BENCHMARK_ROOT"))
			need = NEED_DIR;
	}
	strbuf_release(&text);
	return need;
}

/*
 * The command a program's run script runs from PATH, for the programs
 * whose scripts perfsift was checked with (docs/programs.md): LKP's
 * pkg/depends does not always bring it (pxz's names only ruby), and an
 * absent command must not be taken for a program that can run.
 */
static const struct {
	const char *prog, *command;
} commands[] = {
	{"iperf", "iperf3"},
	{"pbzip2", "pbzip2"},
	{"pigz", "pigz"},
	{"pixz", "pixz"},
	{"plzip", "plzip"},
	{"pmbench", "/usr/local/bin/pmbench"}, /* its script's own path */
	{"pxz", "pxz"},
	{"rt-app", "rt-app"},
	{"sysbench-cpu", "sysbench"},
	{"sysbench-memory", "sysbench"},
	{"sysbench-mutex", "sysbench"},
	{"sysbench-threads", "sysbench"},
};

/* name's command (the table above) is on PATH; else false with why */
static bool command_ready(const char *name, struct strbuf *why)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].prog, name)) {
			if (ext_have(commands[i].command, NULL))
				return true;
			strbuf_addf(why, "its run script runs `%s`, which is not %s "
				    "(perfsift install JOB installs its pkg/depends; where "
				    "that names no package of it, Debian 12 has none that "
				    "perfsift knows)", commands[i].command,
				    strchr(commands[i].command, '/') ? "there" : "on PATH");
			return false;
		}
	return true;
}

bool lkp_bench_ready(const char *dir, const char *name, const char *run,
		     struct strbuf *why)
{
	static const char *const sub[] = {"", "/usr/local/bin", "/bin"};
	enum bench_need need = bench_need(run);
	struct strbuf path = STRBUF_INIT, pkgbuild = STRBUF_INIT;
	bool ok = true;
	size_t i;

	if (need == NEED_NONE)
		return command_ready(name, why);
	strbuf_addf(&path, "%s/%s", lkp_benchmark_root(), name);
	if (need == NEED_EXEC && dir_exists(path.buf)) {
		ok = false;
		for (i = 0; i < ARRAY_SIZE(sub) && !ok; i++) {
			struct strbuf f = STRBUF_INIT;

			strbuf_addf(&f, "%s%s/%s", path.buf, sub[i], name);
			ok = file_exists(f.buf);
			strbuf_release(&f);
		}
		if (!ok)
			strbuf_addf(&path, "/%s", name);
	} else {
		ok = dir_exists(path.buf);
	}
	if (!ok) {
		strbuf_addf(&pkgbuild, "%s/pkg/PKGBUILD", dir);
		strbuf_addf(why, "%s does not exist: ", path.buf);
		if (file_exists(pkgbuild.buf))
			strbuf_addf(why, "LKP builds %s from source (%s); ", name,
				    pkgbuild.buf);
		if (lkp_debian_substitute(name))
			strbuf_addf(why, "`perfsift install JOB` puts Debian's %s there",
				    lkp_debian_substitute(name));
		else
			strbuf_addstr(why, "Debian 12 ships no package of it that "
				      "perfsift knows: build it there (or set BENCHMARK_ROOT "
				      "to where it is built)");
	}
	strbuf_release(&path);
	strbuf_release(&pkgbuild);
	return ok;
}

int lkp_place_substitute(const char *prog, struct strbuf *done, struct strbuf *err)
{
	const struct substitute *s = substitute_of(prog);
	struct strbuf path = STRBUF_INIT, parent = STRBUF_INIT;
	const struct placed *f;
	int ret = 0;

	if (!s)
		return 0;
	for (f = s->files; f->path && !ret; f++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s/%s", lkp_benchmark_root(), prog, f->path);
		path_dirname(&parent, path.buf);
		if (mkdir_p(parent.buf, 0755) < 0) {
			strbuf_addf(err, "cannot create '%s': %s", parent.buf, strerror(errno));
			ret = -1;
		} else if (f->link) {
			/* a link another install made is replaced, never followed */
			if ((unlink(path.buf) < 0 && errno != ENOENT) ||
			    symlink(f->link, path.buf) < 0) {
				strbuf_addf(err, "cannot link '%s' to '%s': %s", path.buf,
					    f->link, strerror(errno));
				ret = -1;
			}
		} else if (write_file_atomic(path.buf, f->script, strlen(f->script)) < 0 ||
			   chmod(path.buf, 0755) < 0) {
			strbuf_addf(err, "cannot write '%s': %s", path.buf, strerror(errno));
			ret = -1;
		}
		strbuf_reset(&parent);
	}
	if (!ret)
		strbuf_addf(done, "%s/%s", lkp_benchmark_root(), prog);
	strbuf_release(&path);
	strbuf_release(&parent);
	return ret;
}

/* ------------------------------------------------ installed or not */

/*
 * The installed packages, " a b ", from dpkg's status file, read once:
 * `help programs` asks of a few hundred plug-ins, and one dpkg-query
 * each would take seconds.  $PERFSIFT_DPKG_STATUS stands in for it in
 * tests.
 */
static const char *installed_packages(void)
{
	static struct strbuf names = STRBUF_INIT;
	static bool read_once;
	const char *file = getenv("PERFSIFT_DPKG_STATUS");
	struct strbuf text = STRBUF_INIT;
	const char *p;

	if (read_once)
		return names.buf ? names.buf : "";
	read_once = true;
	strbuf_addch(&names, ' ');
	if (strbuf_read_file(&text, file && *file ? file : "/var/lib/dpkg/status",
			     256 << 20) < 0) {
		strbuf_release(&text);
		return names.buf;
	}
	for (p = text.buf; p && *p; p = strstr(p, "\nPackage: ")) {
		const char *name, *end, *stanza_end, *st;

		if (*p == '\n')
			p++;
		if (strncmp(p, "Package: ", 9)) {
			p = strchr(p, '\n');
			continue;
		}
		name = p + 9;
		end = strchrnul(name, '\n');
		stanza_end = strstr(end, "\n\n");
		st = strstr(end, "\nStatus: ");
		if (st && (!stanza_end || st < stanza_end)) {
			const char *st_end = strchrnul(st + 1, '\n');

			if (st_end - st > 10 && !strncmp(st_end - 10, " installed", 10))
				add_word(&names, name, (size_t)(end - name));
		}
		p = end;
	}
	strbuf_release(&text);
	return names.buf;
}

bool lkp_pkg_installed(const char *pkgs, struct strbuf *missing)
{
	const char *have = installed_packages(), *p, *e;
	struct strbuf key = STRBUF_INIT;
	bool all = true;

	for (p = pkgs; *p; p = e) {
		while (*p == ' ')
			p++;
		e = strchrnul(p, ' ');
		if (e == p)
			break;
		strbuf_reset(&key);
		strbuf_addch(&key, ' ');
		strbuf_add(&key, p, strcspn(p, ": ") < (size_t)(e - p) ?
					    strcspn(p, ": ") :
					    (size_t)(e - p));
		strbuf_addch(&key, ' ');
		if (!strstr(have, key.buf)) {
			all = false;
			strbuf_addf(missing, "%s%.*s", missing->len ? " " : "",
				    (int)(e - p), p);
		}
	}
	strbuf_release(&key);
	return all;
}
