/*
 * lkp_meta.h: the parameters of a plug-in in LKP's layout, read from its
 * run script's `# - name` / `# = name` header lines (LKP's
 * bin/program-options: '-' puts the value in the result path, '=' puts
 * name=value) and from meta.yaml's `parameters:` (docs/programs.md).
 */
#ifndef PERFSIFT_LKP_META_H
#define PERFSIFT_LKP_META_H

struct program_option;

/*
 * The options of the plug-in in dir whose run script is run: a new
 * NULL-name terminated array (kept for the process's life, as the
 * plug-in is), or NULL when it declares none.
 */
const struct program_option *lkp_meta_options(const char *dir, const char *run);

/*
 * Where LKP's run scripts look for what `lkp install` built
 * ($BENCHMARK_ROOT/<suite>/...): $BENCHMARK_ROOT, else LKP's
 * /lkp/benchmarks.  `perfsift install` puts Debian's binaries there.
 */
const char *lkp_benchmark_root(void);

#endif
