/*
 * test_usemem.c: the usemem engine -- its line formats and arithmetic,
 * and small real runs of each mapping kind and access pattern whose
 * output must carry exactly the suite's byte accounting.
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "benchmarks/usemem.h"
#include "util/strbuf.h"

static void test_format(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	usemem_format_stats(&sb, 0, 4096, 1000);
	assert_string_equal(sb.buf, "4096 bytes / 1000 usecs = 4000 KB/s\n");
	strbuf_reset(&sb);
	/* ((B * 1000000) >> 10) / U, integer arithmetic */
	usemem_format_stats(&sb, 2, 1073741824, 333333);
	assert_string_equal(sb.buf, "..1073741824 bytes / 333333 usecs = 3145731 KB/s\n");
	strbuf_reset(&sb);
	usemem_format_free(&sb, 208123);
	assert_string_equal(sb.buf, "208123 usecs to free memory\n");
	strbuf_reset(&sb);
	/* zero usecs cannot divide by zero */
	usemem_format_stats(&sb, 0, 10, 0);
	assert_string_equal(sb.buf, "10 bytes / 1 usecs = 9765 KB/s\n");
	strbuf_release(&sb);
	assert_int_equal(usemem_kbps(1024, 1000000), 1);
}

static void test_pass_bytes(void **state)
{
	(void)state;
	/* 1 MiB at step 8: credit 131072 + 8 * 131072 accesses */
	assert_int_equal(usemem_pass_bytes(1 << 20, 8), 131072 + 8 * 131072);
	/* step 2 MiB: one access per 2 MiB */
	assert_int_equal(usemem_pass_bytes(4u << 20, 2u << 20), (4u << 20) / 8 + 8 * 2);
	/* a step that does not divide: ceil */
	assert_int_equal(usemem_pass_bytes(24, 16), 3 + 8 * 2);
}

static void test_cmdline(void **state)
{
	struct usemem_opts o;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	usemem_opts_init(&o);
	o.runtime = 300;
	o.nproc = 2;
	o.readonly = true;
	o.size = 4096;
	usemem_cmdline(&o, &sb);
	assert_string_equal(sb.buf, "usemem --runtime 300 -n 2 --readonly 4096");
	strbuf_release(&sb);
}

/* run usemem into a temp file; the output lines in *out */
static int run_capture(struct usemem_opts *o, struct strbuf *out)
{
	char path[] = "/tmp/test_usemem.XXXXXX";
	struct strbuf err = STRBUF_INIT;
	int fd = mkstemp(path), ret;

	assert_true(fd >= 0);
	unlink(path);
	o->out_fd = fd;
	ret = usemem_run(o, &err);
	if (ret)
		fprintf(stderr, "# %s\n", err.buf);
	lseek(fd, 0, SEEK_SET);
	strbuf_read_fd(out, fd, 0);
	close(fd);
	strbuf_release(&err);
	return ret;
}

/* count stats lines and check every one reports expect bytes */
static int check_lines(const char *out, uint64_t expect, unsigned dots)
{
	const char *p = out;
	int n = 0, frees = 0;

	while (*p) {
		const char *nl = strchr(p, '\n');
		unsigned long long b, u, k;
		unsigned d = 0;

		assert_non_null(nl);
		while (p[d] == '.')
			d++;
		if (sscanf(p + d, "%llu bytes / %llu usecs = %llu KB/s", &b, &u, &k) == 3) {
			assert_int_equal(b, expect);
			assert_int_equal(d, dots);
			assert_int_equal(k, usemem_kbps(b, u));
			n++;
		} else {
			assert_int_equal(sscanf(p, "%llu usecs to free memory", &u), 1);
			frees++;
		}
		p = nl + 1;
	}
	assert_true(frees >= 1);
	return n;
}

static void test_run_anon(void **state)
{
	struct usemem_opts o;
	struct strbuf out = STRBUF_INIT;
	uint64_t sz = 4u << 20;

	(void)state;
	/* default mapping (private /dev/zero), read, 2 processes */
	usemem_opts_init(&o);
	o.size = sz;
	o.nproc = 2;
	o.readonly = true;
	assert_int_equal(run_capture(&o, &out), 0);
	assert_int_equal(check_lines(out.buf, usemem_pass_bytes(sz, 8), 0), 2);

	/* anonymous, write, 3 passes (verify), 2 threads */
	strbuf_reset(&out);
	usemem_opts_init(&o);
	o.size = sz;
	o.nthread = 2;
	o.anonymous = true;
	o.repeat = 3;
	assert_int_equal(run_capture(&o, &out), 0);
	assert_int_equal(check_lines(out.buf, sz / 8 + 3 * 8 * (sz / 8), 2), 2);

	/* random writes, step 64, units of 1 MiB, sync before and after */
	strbuf_reset(&out);
	usemem_opts_init(&o);
	o.size = sz;
	o.nproc = 2;
	o.random = true;
	o.step = 64;
	o.unit = 1u << 20;
	o.sync_free = true;
	o.seed_set = true;
	o.seed = 1;
	assert_int_equal(run_capture(&o, &out), 0);
	assert_int_equal(check_lines(out.buf, usemem_pass_bytes(sz, 64), 0), 2);
	strbuf_release(&out);
}

static void test_run_cow_and_file(void **state)
{
	struct usemem_opts o;
	struct strbuf out = STRBUF_INIT;
	uint64_t sz = 2u << 20;
	char path[] = "/tmp/test_usemem_file.XXXXXX";
	int fd;

	(void)state;
	/* anon-cow-seq shape: prealloc + prefault, 2 processes write */
	usemem_opts_init(&o);
	o.size = sz;
	o.nproc = 2;
	o.prealloc = true;
	o.prefault = true;
	o.sync_rw = true;
	assert_int_equal(run_capture(&o, &out), 0);
	assert_int_equal(check_lines(out.buf, usemem_pass_bytes(sz, 8), 0), 2);

	/* a shared file mapping, read by 2 threads of one process */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)sz), 0);
	close(fd);
	strbuf_reset(&out);
	usemem_opts_init(&o);
	o.size = sz;
	o.nthread = 2;
	o.file = path;
	o.readonly = true;
	assert_int_equal(run_capture(&o, &out), 0);
	assert_int_equal(check_lines(out.buf, usemem_pass_bytes(sz, 8), 0), 2);

	/* msync'ed writes through an RW file mapping */
	strbuf_reset(&out);
	usemem_opts_init(&o);
	o.size = sz;
	o.file = path;
	o.msync = true;
	o.open_rw = true;
	assert_int_equal(run_capture(&o, &out), 0);
	assert_int_equal(check_lines(out.buf, usemem_pass_bytes(sz, 8), 0), 1);
	unlink(path);

	/* a file that cannot be opened is an error, not a number */
	strbuf_reset(&out);
	o.file = "/nonexistent/dir/file";
	assert_int_equal(run_capture(&o, &out), 1);
	assert_int_equal(out.len, 0);
	strbuf_release(&out);
}

static void test_runtime_stops(void **state)
{
	struct usemem_opts o;
	struct strbuf out = STRBUF_INIT;
	unsigned long long b, u, k;

	(void)state;
	/* a huge read-only map (zero page), stopped by the runtime */
	usemem_opts_init(&o);
	o.size = 1ull << 40;
	o.readonly = true;
	o.runtime = 0.5; /* whole seconds: stops once 1 s has passed */
	assert_int_equal(run_capture(&o, &out), 0);
	assert_int_equal(sscanf(out.buf, "%llu bytes / %llu usecs = %llu KB/s", &b, &u, &k), 3);
	assert_true(b > (1ull << 40) / 8);
	assert_true(b < (1ull << 40) / 8 + (1ull << 40));
	assert_true(u < 3000000);
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_pass_bytes),
		cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_run_anon),
		cmocka_unit_test(test_run_cow_and_file),
		cmocka_unit_test(test_runtime_stops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
