/*
 * slabinfo.c: the slabinfo monitor -- /proc/slabinfo version 2.1 (root
 * only; spec/lkp-monitors.md 2.6).  The parser keeps active_objs,
 * num_objs, active_slabs and num_slabs per cache, located through the
 * `# name <active_objs> ...` header.
 */
#include "util/compat.h"
#include <string.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "monitors/sampling.h"

static const char *const wanted[] = {
	"active_objs", "num_objs", "active_slabs", "num_slabs",
};

struct slab_state {
	long col[ARRAY_SIZE(wanted)]; /* their positions, -1: none */
	size_t ncols;                 /* of the header; 0: none yet */
	bool version_ok;
};

static void row(struct mon_row *r)
{
	struct slab_state *st = r->data;
	struct mon_fields *f = r->f;
	size_t i, j;
	char name[64];

	if (mon_has_prefix(r->line, "time:")) {
		strbuf_addf(r->out, "%s\n", r->line);
		return;
	}
	if (mon_has_prefix(r->line, "slabinfo - version:")) {
		st->version_ok = strstr(r->line, "2.1") != NULL;
		return;
	}
	if (!st->version_ok)
		return;
	if (f->n && !strcmp(f->v[0], "#")) {
		/* header: positions counted without the leading '#' */
		st->ncols = f->n - 1;
		for (j = 1; j < f->n; j++)
			for (i = 0; i < ARRAY_SIZE(wanted); i++) {
				snprintf(name, sizeof(name), "<%s>", wanted[i]);
				if (!strcmp(f->v[j], name))
					st->col[i] = (long)j - 1;
			}
		return;
	}
	if (!st->ncols || f->n != st->ncols)
		return;
	for (i = 0; i < ARRAY_SIZE(wanted); i++)
		if (st->col[i] >= 0)
			strbuf_addf(r->out, "%s.%s: %s\n", f->v[0], wanted[i],
				    f->v[st->col[i]]);
}

DECLARE_PARSER(parse_slabinfo)
{
	struct slab_state st;
	size_t i;

	(void)path;
	(void)err;
	for (i = 0; i < ARRAY_SIZE(wanted); i++)
		st.col[i] = -1;
	st.ncols = 0;
	st.version_ok = false;
	/* the raw `time:` line is kept as it is, spacing and all */
	mon_each_row(raw, len, out, MON_ROWS_OWN_TIME, row, &st);
	return 0;
}

/* sampled by perfsift: the file as it is, after a `time:` line */
/*
 * every 10 s by default (LKP: 1 s): generating /proc/slabinfo costs the
 * kernel about 130 us, ten times any other /proc source, for a gauge that
 * is averaged over the run and shown only with --more
 */
MON_SINGLE_FILE(sampling_slabinfo, "proc/slabinfo", 10, true);
