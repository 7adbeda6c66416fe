/*
 * lkp_pkg.h: what a program of an LKP checkout needs installed here, as
 * LKP's lib/install.sh decides it for Debian, and the Debian stand-ins
 * for tools LKP builds from source (lkp_pkg.c, docs/programs.md).
 */
#ifndef PERFSIFT_LKP_PKG_H
#define PERFSIFT_LKP_PKG_H

#include "util/compat.h"

struct strbuf;

/*
 * The Debian 12 packages LKP installs for prog of checkout lkp: its
 * distro/depends/<prog> or programs/<prog>/pkg/depends (not LKP's own
 * distro/depends/lkp: perfsift is the harness here), mapped by
 * distro/adaptation/debian/{12,default}.
 * Appended to pkgs as " a b " (each once); names that are not Debian
 * package names are appended to bad the same way and never installed.
 */
void lkp_pkg_depends(const char *lkp, const char *prog, struct strbuf *pkgs,
		     struct strbuf *bad);
/*
 * Whether the run script's needs of $BENCHMARK_ROOT/<name> are met (the
 * tool LKP builds from pkg/PKGBUILD, looked for as lib/run.sh looks);
 * false with why saying what is missing and how to get it.  dir: the
 * plug-in's directory.
 */
bool lkp_bench_ready(const char *dir, const char *name, const char *run,
		     struct strbuf *why);
/* the Debian package that stands in for what LKP builds for prog, or NULL */
const char *lkp_debian_substitute(const char *prog);
/*
 * Put the stand-in's files under $BENCHMARK_ROOT/<prog> (after its
 * package is installed): 0 with the directory in done, or -1 with err;
 * 0 and nothing done when prog has none.
 */
int lkp_place_substitute(const char *prog, struct strbuf *done, struct strbuf *err);
/*
 * Every package of pkgs (" a b ") is installed, as dpkg's status file
 * says; else false with the missing ones in missing ("a b").
 */
bool lkp_pkg_installed(const char *pkgs, struct strbuf *missing);

#endif
