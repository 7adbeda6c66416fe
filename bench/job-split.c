/*
 * bench/job-split.c: how long reading and splitting a job takes, beside
 * its floor -- libyaml alone parsing the same text into events.  The job
 * is LKP's vm-scalability.yaml (8 documents, 41 atomic jobs): read it into
 * trees (schema checked), split every job, name and write each atomic job
 * to YAML in memory.  Prints the median and range of 7 rounds, per file.
 *
 *   build/bench/job-split [JOB.yaml] [ITERATIONS]
 */
#include "util/compat.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "job/job.h"
#include "job/split.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/timeutil.h"
#include "lib/timing.h"

#define ROUNDS 7

static size_t sink; /* keeps the work from being optimised away */

static void raw_libyaml(const char *text)
{
	yaml_parser_t p;
	yaml_event_t ev;

	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)text,
				     strlen(text));
	for (;;) {
		if (!yaml_parser_parse(&p, &ev)) {
			fprintf(stderr, "job-split: bad YAML\n");
			exit(3);
		}
		sink += ev.type;
		if (ev.type == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
}

static void load_only(const char *text)
{
	struct strbuf err = STRBUF_INIT;
	struct job **jobs;
	size_t n;

	if (job_load_string(text, "vm-scalability.yaml", &jobs, &n, &err)) {
		fprintf(stderr, "job-split: %s\n", err.buf);
		exit(3);
	}
	sink += n;
	job_free_all(jobs, n);
	strbuf_release(&err);
}

static void load_split_write(const char *text)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct job **jobs, **atoms;
	size_t n, na, i, j;

	if (job_load_string(text, "vm-scalability.yaml", &jobs, &n, &err)) {
		fprintf(stderr, "job-split: %s\n", err.buf);
		exit(3);
	}
	for (i = 0; i < n; i++) {
		if (split_job(jobs[i], &atoms, &na, &err))
			exit(3);
		for (j = 0; j < na; j++) {
			split_fill_box(atoms[j], "bench-box-1", "x86_64");
			strbuf_reset(&out);
			split_job_filename(atoms[j], &out);
			job_to_yaml(atoms[j], &out);
			sink += out.len;
		}
		job_free_all(atoms, na);
	}
	job_free_all(jobs, n);
	strbuf_release(&err);
	strbuf_release(&out);
}

static void measure(const char *name, void (*fn)(const char *),
		    const char *text, long long iters)
{
	double us[ROUNDS];
	int r;
	long long i;

	fn(text); /* warm up */
	for (r = 0; r < ROUNDS; r++) {
		uint64_t t0 = time_mono_ns();

		for (i = 0; i < iters; i++)
			fn(text);
		us[r] = (double)(time_mono_ns() - t0) / 1e3 / (double)iters;
	}
	bench_sort(us, ROUNDS);
	printf("%-28s median %8.1f us/file   range %8.1f .. %8.1f\n", name,
	       us[ROUNDS / 2], us[0], us[ROUNDS - 1]);
}

int main(int argc, char **argv)
{
	struct strbuf text = STRBUF_INIT, path = STRBUF_INIT;
	const char *data = getenv("PERFSIFT_TESTDATA");
	long long iters = 200;
	const char *why;

	if (argc > 1) {
		strbuf_addstr(&path, argv[1]);
	} else {
		strbuf_addf(&path, "%s/lkp/jobs/vm-scalability.yaml",
			    data ? data : "tests/data");
	}
	if (argc > 2 && strnum_ll(argv[2], 1, 1000000, &iters, &why)) {
		fprintf(stderr, "job-split: iterations '%s': %s\n", argv[2],
			why);
		return 2;
	}
	if (strbuf_read_file(&text, path.buf, 1 << 24) < 0) {
		fprintf(stderr, "job-split: cannot read '%s'\n", path.buf);
		return 3;
	}
	printf("%s, %lld iterations x %d rounds\n", path.buf, iters, ROUNDS);
	measure("libyaml events only", raw_libyaml, text.buf, iters);
	measure("job_load (tree + schema)", load_only, text.buf, iters);
	measure("load + split + name + YAML", load_split_write, text.buf,
		iters);
	strbuf_release(&text);
	strbuf_release(&path);
	return sink == 0;
}
