/*
 * floor.c: the noise floor of an A/A calibration (floor.h) -- the robust
 * spread of each stat, and the sorted table compare looks floors up in.
 */
#include "util/compat.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "result/floor.h"
#include "result/stats.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* 1 / Phi^-1(3/4): a MAD of normal noise times this is its sigma */
#define MAD_TO_SIGMA 1.4826

void noise_floor_init(struct noise_floor *f)
{
	memset(f, 0, sizeof(*f));
}

void noise_floor_release(struct noise_floor *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->items[i].name);
	free(f->items);
	free(f->series);
	free(f->machine);
	free(f->commit);
	noise_floor_init(f);
}

void noise_floor_add(struct noise_floor *f, const char *name, double pct)
{
	ALLOC_GROW(f->items, f->n + 1, f->alloc);
	f->items[f->n].name = xstrdup(name);
	f->items[f->n].pct = pct;
	f->n++;
}

/*
 * By strcmp, the order the store hands names out in and the order
 * noise_floor_find() searches: one order, so that a floor read from
 * either backend is found the same way.
 */
static int cmp_stat(const void *pa, const void *pb)
{
	const struct noise_floor_stat *a = pa, *b = pb;

	return strcmp(a->name, b->name);
}

void noise_floor_sort(struct noise_floor *f)
{
	if (f->n > 1)
		qsort(f->items, f->n, sizeof(*f->items), cmp_stat);
}

/*
 * One binary search per compared row: a floor of 50,000 stats is looked
 * up only for the rows a comparison keeps, never walked.
 */
double noise_floor_find(const struct noise_floor *f, const char *name)
{
	struct noise_floor_stat key = { (char *)name, 0 }, *hit;

	if (!f || !f->n)
		return NAN;
	hit = bsearch(&key, f->items, f->n, sizeof(*f->items), cmp_stat);
	return hit ? hit->pct : NAN;
}

/* the median of v[0..n) (n > 0), which is reordered */
static double median(double *v, size_t n)
{
	double hi = stats_select_kth(v, n, n / 2);

	if (n % 2)
		return hi;
	/* the even case: the mean of the two middle values */
	return (stats_select_kth(v, n, n / 2 - 1) + hi) / 2;
}

double noise_floor_of(const double *a, size_t na, const double *b, size_t nb,
		      double *scratch)
{
	double ma, mb, mall, within, between;
	size_t i;

	/* one value a half has no spread: saying 0 would unflag nothing but
	 * claim a calibration that was never made */
	if (na < 2 || nb < 2)
		return NAN;
	memcpy(scratch, a, na * sizeof(*a));
	memcpy(scratch + na, b, nb * sizeof(*b));
	/* the reference every % is of: the median of all the values, which
	 * is what a comparison's change is relative to (near enough) */
	mall = median(scratch, na + nb);
	if (!(fabs(mall) > 0) || !isfinite(mall))
		return NAN;
	memcpy(scratch, a, na * sizeof(*a));
	ma = median(scratch, na);
	memcpy(scratch, b, nb * sizeof(*b));
	mb = median(scratch, nb);
	/* deviations from each value's own half: drift is `between`'s */
	for (i = 0; i < na; i++)
		scratch[i] = fabs(a[i] - ma);
	for (i = 0; i < nb; i++)
		scratch[na + i] = fabs(b[i] - mb);
	within = MAD_TO_SIGMA * median(scratch, na + nb);
	between = fabs(ma - mb);
	return 100 * fmax(within, between) / fabs(mall);
}

/*
 * Pure string work (the callers realpath() both sides): the series is
 * the path below the root up to the last '/', so a root of LKP's
 * layout and perfsift's give the same series for the same job.
 */
int noise_floor_series(const char *root, const char *group_dir,
		       struct strbuf *out)
{
	size_t rl = strlen(root);
	const char *rel, *slash;

	while (rl > 1 && root[rl - 1] == '/')
		rl--; /* "/r/" is "/r" */
	if (strncmp(group_dir, root, rl) || group_dir[rl] != '/')
		return -1;
	rel = group_dir + rl + 1;
	/* the last component is the commit: everything before it is the job
	 * on its machine */
	slash = strrchr(rel, '/');
	if (!slash || slash == rel)
		return -1;
	strbuf_add(out, rel, (size_t)(slash - rel));
	return 0;
}

void noise_floor_date(int64_t when, struct strbuf *out)
{
	time_t t = (time_t)when;
	struct tm tm;
	char buf[64];

	/* UTC: the same date whichever machine's clock zone reads it */
	if (gmtime_r(&t, &tm) &&
	    strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M UTC", &tm))
		strbuf_addstr(out, buf);
	else
		strbuf_addf(out, "@%lld", (long long)when);
}
