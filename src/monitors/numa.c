/*
 * numa.c: numa-meminfo, numa-vmstat and numa-numastat -- the per-node files
 * under /sys/devices/system/node/node<N>/ (spec/lkp-monitors.md 2.5).
 * Raw: `time: <epoch.ns>`, then per node a `node: N` line and the file.
 * On a one-node machine they are sampled only when the job names them
 * (LKP quirk Q14: LKP's monitor exits there): node0's files repeat
 * /proc/meminfo and /proc/vmstat, and reading them would add a third to
 * the cost of each tick of the default monitors for no new number.
 */
#include "util/compat.h"
#include <dirent.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "monitors/sampling.h"
#include "util/xalloc.h"

/* `Node 0 MemTotal:  123 kB` -> `node0.MemTotal: 123` */
static void meminfo_row(struct mon_row *r)
{
	struct mon_fields *f = r->f;
	char *c;

	if (f->n < 4)
		return;
	for (c = f->v[0]; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	strbuf_addf(r->out, "%s%s.%s %s\n", f->v[0], f->v[1], f->v[2], f->v[3]);
}

MON_ROW_PARSER(parse_numa_meminfo, 0, meminfo_row)

/* numa-vmstat and numa-numastat: `name value` under `node: N` */
static void vmstat_row(struct mon_row *r)
{
	struct mon_fields *f = r->f;
	struct strbuf *node = r->data;

	if (f->n != 2)
		return;
	if (!strcmp(f->v[0], "node:")) {
		strbuf_reset(node);
		strbuf_addf(node, "node%s", f->v[1]);
	} else {
		strbuf_addf(r->out, "%s.%s: %s\n", node->buf, f->v[0], f->v[1]);
	}
}

DECLARE_PARSER(parse_numa_vmstat)
{
	struct strbuf node = STRBUF_INIT;

	(void)path;
	(void)err;
	mon_each_row(raw, len, out, 0, vmstat_row, &node);
	strbuf_release(&node);
	return 0;
}

/* ------------------------------------------------------------- sampling */

/*
 * The node directories are read once at start and their files kept open
 * (as the other samplers do), sorted by node number so the raw file's
 * order does not depend on readdir's.
 */
struct numa_src {
	struct mon_file *files;
	long *nodes;
	size_t n;
	bool dedup; /* numa-vmstat: keep the first of repeated names */
};

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static int numa_open(struct mon_inst *mi, const char *file, bool dedup,
		     struct strbuf *why)
{
	struct strbuf path = STRBUF_INIT, rel = STRBUF_INIT;
	struct numa_src *s = xcalloc(1, sizeof(*s));
	struct dirent *de;
	size_t alloc = 0, i;
	char *end;
	long node;
	DIR *d;

	mon_path(&path, mi->sysroot, "sys/devices/system/node");
	d = opendir(path.buf);
	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, "node", 4) || !isdigit((unsigned char)de->d_name[4]))
			continue;
		node = strtol(de->d_name + 4, &end, 10);
		if (*end)
			continue;
		ALLOC_GROW(s->nodes, s->n + 1, alloc);
		s->nodes[s->n++] = node;
	}
	if (d)
		closedir(d);
	if (!s->n) {
		strbuf_addstr(why, "no NUMA node directories in sysfs");
		goto fail;
	}
	if (s->n == 1 && !mi->named) {
		strbuf_addstr(why, "one NUMA node (node0 repeats /proc/meminfo and /proc/vmstat; name the monitor in the job to sample it anyway)");
		goto fail;
	}
	qsort(s->nodes, s->n, sizeof(*s->nodes), cmp_long);
	s->files = xcalloc(s->n, sizeof(*s->files));
	for (i = 0; i < s->n; i++)
		s->files[i].fd = -1;
	for (i = 0; i < s->n; i++) {
		strbuf_reset(&rel);
		strbuf_addf(&rel, "sys/devices/system/node/node%ld/%s",
			    s->nodes[i], file);
		if (mon_file_open(&s->files[i], mi->sysroot, rel.buf, why))
			goto fail;
	}
	s->dedup = dedup;
	mi->priv = s;
	strbuf_release(&path);
	strbuf_release(&rel);
	return 0;
fail:
	for (i = 0; s->files && i < s->n; i++)
		mon_file_close(&s->files[i]);
	free(s->files);
	free(s->nodes);
	free(s);
	strbuf_release(&path);
	strbuf_release(&rel);
	return -1;
}

/*
 * drop lines whose first word was seen before in this node's text (LKP's
 * `awk '!x[$1]++'`), with a small hash set of name hashes: no allocation
 * in the sampling path
 */
static void dedup_names(struct strbuf *out, size_t start)
{
	uint64_t set[1024] = {0}, h;
	size_t r = start, w = start, n, k, j;
	bool dup;

	while (r < out->len) {
		n = strcspn(out->buf + r, "\n") + 1;
		h = 1469598103934665603ull;
		for (k = r; k < r + n && out->buf[k] != ' ' && out->buf[k] != '\n'; k++)
			h = (h ^ (unsigned char)out->buf[k]) * 1099511628211ull;
		h |= 1; /* 0 marks an empty slot */
		dup = false;
		for (j = h % ARRAY_SIZE(set); set[j]; j = (j + 1) % ARRAY_SIZE(set))
			if (set[j] == h) {
				dup = true;
				break;
			}
		if (!dup) {
			set[j] = h;
			memmove(out->buf + w, out->buf + r, n);
			w += n;
		}
		r += n;
	}
	strbuf_setlen(out, w);
}

/* every node's file after a `node: N` line, whole or not at all */
static int numa_sample(struct mon_inst *mi, struct strbuf *out, bool final)
{
	struct numa_src *s = mi->priv;
	size_t i, start = out->len, body;

	(void)final;
	mon_add_time(out);
	for (i = 0; i < s->n; i++) {
		strbuf_addf(out, "node: %ld\n", s->nodes[i]);
		body = out->len;
		if (mon_file_read(&s->files[i], out)) {
			strbuf_setlen(out, start);
			return -1;
		}
		if (s->dedup)
			dedup_names(out, body);
	}
	return 0;
}

static void numa_close(struct mon_inst *mi)
{
	struct numa_src *s = mi->priv;
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++)
		mon_file_close(&s->files[i]);
	free(s->files);
	free(s->nodes);
	FREE_AND_NULL(mi->priv);
}

static int numa_meminfo_open(struct mon_inst *mi, struct strbuf *why)
{
	return numa_open(mi, "meminfo", false, why);
}

static int numa_vmstat_open(struct mon_inst *mi, struct strbuf *why)
{
	return numa_open(mi, "vmstat", true, why);
}

static int numa_numastat_open(struct mon_inst *mi, struct strbuf *why)
{
	return numa_open(mi, "numastat", false, why);
}

const struct monitor_sampling sampling_numa_meminfo = {
	1, true, numa_meminfo_open, numa_sample, numa_close,
};
const struct monitor_sampling sampling_numa_vmstat = {
	1, true, numa_vmstat_open, numa_sample, numa_close,
};
const struct monitor_sampling sampling_numa_numastat = {
	1, true, numa_numastat_open, numa_sample, numa_close,
};
