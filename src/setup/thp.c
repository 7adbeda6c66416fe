/*
 * thp.c: the transparent_hugepage setup program.  Its options, as LKP
 * names them, map to files under /sys/kernel/mm/transparent_hugepage;
 * use_zero_page is perfsift's addition (it decides whether a read fault
 * maps the huge zero page -- the mechanism behind the seed report).
 */
#include "util/compat.h"
#include <string.h>
#include "job/job.h"
#include "setup/setup.h"
#include "util/strbuf.h"

#define THP_DIR "/sys/kernel/mm/transparent_hugepage/"

/*
 * LKP's option names to the sysfs files they set.  A fixed table, unlike
 * sysctl's look-up: these few files are the whole of THP's interface, and
 * an unknown option is then a typo to report, not a file to search for.
 */
static const struct {
	const char *opt;
	const char *file;
} thp_files[] = {
	{"thp_enabled", "enabled"},
	{"thp_defrag", "defrag"},
	{"shmem_enabled", "shmem_enabled"},
	{"enabled_64kB", "hugepages-64kB/enabled"},
	{"enabled_32kB", "hugepages-32kB/enabled"},
	{"enabled_16kB", "hugepages-16kB/enabled"},
	{"use_zero_page", "use_zero_page"},
};

static const char *thp_file(const char *opt)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(thp_files); i++)
		if (!strcmp(thp_files[i].opt, opt))
			return thp_files[i].file;
	return NULL;
}

/*
 * Each option through the knob journal (setup_knob), so THP is restored
 * after the run and after a crash; the first bad option stops the program
 * with its file and line, before anything after it is set.
 */
int setup_thp(const struct jnode *value, const char *sysroot,
	      struct strbuf *log, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	size_t i;
	int ret = 0;

	(void)sysroot; /* knob.c resolves paths under its own root */
	if (!value || value->type == JNODE_NULL)
		return 0;
	if (value->type != JNODE_MAP) {
		strbuf_addf(err, "%s:%d: transparent_hugepage: expected a mapping of options",
			    value->file ? value->file : "<job>", value->line);
		return -1;
	}
	for (i = 0; i < value->n && !ret; i++) {
		const struct jnode *v = value->kids[i];
		const char *file = thp_file(value->keys[i]);

		if (!file) {
			strbuf_addf(err, "%s:%d: transparent_hugepage: unknown option '%s'",
				    v->file ? v->file : "<job>", v->line,
				    value->keys[i]);
			ret = -1;
			break;
		}
		if (v->type == JNODE_NULL)
			continue; /* LKP: an empty option is not applied */
		if (v->type != JNODE_SCALAR) {
			strbuf_addf(err, "%s:%d: transparent_hugepage: %s: expected one value (split the job first)",
				    v->file ? v->file : "<job>", v->line,
				    value->keys[i]);
			ret = -1;
			break;
		}
		strbuf_reset(&path);
		strbuf_addf(&path, THP_DIR "%s", file);
		ret = setup_knob("transparent_hugepage", file, path.buf,
				 v->text, log, err);
	}
	strbuf_release(&path);
	return ret;
}
