/*
 * test_vm.c: the pure pieces of the VM path (run/vm.h) -- a kernel
 * image told from other files by its x86 boot header, its release read
 * from the header's version text, and the compiler axis read from a
 * version banner as /proc/version and the image's payload give it (so a
 * failed boot and a good run land in one group).
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "run/vm.h"
#include "util/fileutil.h"
#include "util/strbuf.h"

static void expect_compiler(const char *banner, const char *want)
{
	char *c = vm_banner_compiler(banner);

	assert_string_equal(c, want);
	free(c);
}

static void test_banner_compiler(void **state)
{
	(void)state;
	/* Debian's kernel: CC=gcc-12 */
	expect_compiler("Linux version 6.1.0-47-cloud-amd64 (debian-kernel@lists.debian.org) "
			"(gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for "
			"Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.1.170-3 (2026-05-08)\n",
			"gcc-12");
	/* a tree built with plain gcc: its major version, as LKP names it */
	expect_compiler("Linux version 6.1.158 (root@box) (gcc (Debian 12.2.0-14) 12.2.0, "
			"GNU ld (GNU Binutils for Debian) 2.40) #3 Tue Dec 1 2026",
			"gcc-12");
	expect_compiler("Linux version 6.6.0 (u@h) (Debian clang version 14.0.6, LLD 14.0.6) #1",
			"clang-14");
	expect_compiler("Linux version 6.1.0 (u@h) #1 SMP", "unknown");
	expect_compiler("not a banner", "unknown");
	expect_compiler(NULL, "unknown");
}

/* a file with an x86 boot header naming version text at 0x200 + off */
static void write_image(const char *path, const char *text, bool magic)
{
	unsigned char img[4096];
	unsigned off = 0x800;

	memset(img, 0, sizeof(img));
	img[0x1fe] = 0x55;
	img[0x1ff] = 0xaa;
	if (magic)
		memcpy(img + 0x202, "HdrS", 4);
	img[0x206] = 0x0f; /* boot protocol 2.15 */
	img[0x207] = 0x02;
	img[0x20e] = (unsigned char)(off & 0xff);
	img[0x20f] = (unsigned char)(off >> 8);
	memcpy(img + 0x200 + off, text, strlen(text) + 1);
	assert_int_equal(write_file_atomic(path, img, sizeof(img)), 0);
}

static void test_image_check(void **state)
{
	char dir[] = "/tmp/test_vm.XXXXXX";
	struct strbuf p = STRBUF_INIT, err = STRBUF_INIT;
	struct vm_image info;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path_join(&p, dir, "bzImage");
	write_image(p.buf, "6.1.0-47-cloud-amd64 (debian-kernel@lists.debian.org) #1 SMP", true);
	assert_int_equal(vm_image_check(p.buf, &info, &err), 0);
	assert_string_equal(info.release, "6.1.0-47-cloud-amd64");
	assert_non_null(strstr(info.banner, "debian-kernel@"));
	vm_image_release(&info);

	/* the boot flag without the header's magic: not a kernel */
	write_image(p.buf, "6.1.0", false);
	assert_int_equal(vm_image_check(p.buf, NULL, &err), -1);
	assert_non_null(strstr(err.buf, "bzImage: not a Linux kernel image (no x86 boot header"));
	strbuf_reset(&err);

	/* too short to have a header */
	assert_int_equal(write_file_atomic(p.buf, "#!/bin/sh\n", 10), 0);
	assert_int_equal(vm_image_check(p.buf, NULL, &err), -1);
	assert_non_null(strstr(err.buf, "not a Linux kernel image"));
	strbuf_reset(&err);

	unlink(p.buf);
	assert_int_equal(vm_image_check(p.buf, NULL, &err), -1);
	assert_non_null(strstr(err.buf, "cannot open the kernel image: No such file"));
	rmdir(dir);
	strbuf_release(&p);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_banner_compiler),
		cmocka_unit_test(test_image_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
