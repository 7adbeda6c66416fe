/*
 * pagetypeinfo.c: the pagetypeinfo monitor (opt-in; /proc/pagetypeinfo is
 * root only and costs about 1 ms a read; spec/lkp-monitors.md 2.20).
 * Free pages per migrate type and order become
 * `Node<n>.<zone>.<type>.<order>`, the block counts `Node<n>.<zone>.<type>`.
 */
#include "util/compat.h"
#include <string.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "util/xalloc.h"
#include "monitors/sampling.h"

struct pt_state {
	struct mon_fields types; /* of the `Number of blocks type` header */
	bool ttypes;             /* in the block-count table */
};

static void row(struct mon_row *r)
{
	struct pt_state *st = r->data;
	struct mon_fields *f = r->f;
	size_t i, nlen, zlen;

	if (mon_has_prefix(r->line, "Number of blocks type")) {
		mon_fields_split(&st->types, r->line + strlen("Number of blocks type"), NULL);
		st->ttypes = true;
		return;
	}
	if (mon_has_prefix(r->line, "Free pages count"))
		st->ttypes = false;
	if (f->n < 5 || strcmp(f->v[0], "Node") || strcmp(f->v[2], "zone"))
		return;
	nlen = strcspn(f->v[1], ",");
	zlen = strcspn(f->v[3], ",");
	if (f->n > 6 && !strcmp(f->v[4], "type")) {
		for (i = 6; i < f->n; i++)
			strbuf_addf(r->out, "Node%.*s.%.*s.%s.%zu: %s\n",
				    (int)nlen, f->v[1], (int)zlen, f->v[3],
				    f->v[5], i - 6, f->v[i]);
	} else if (st->ttypes) {
		for (i = 4; i < f->n && i - 4 < st->types.n; i++)
			strbuf_addf(r->out, "Node%.*s.%.*s.%s: %s\n",
				    (int)nlen, f->v[1], (int)zlen, f->v[3],
				    st->types.v[i - 4], f->v[i]);
	}
}

DECLARE_PARSER(parse_pagetypeinfo)
{
	struct pt_state st;

	(void)path;
	(void)err;
	mon_fields_init(&st.types);
	st.ttypes = false;
	mon_each_row(raw, len, out, 0, row, &st);
	mon_fields_release(&st.types);
	return 0;
}

/* sampled by perfsift: the file as it is, after a `time:` line */
MON_SINGLE_FILE(sampling_pagetypeinfo, "proc/pagetypeinfo", 1, false);
